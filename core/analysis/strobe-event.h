/* strobe-event.h — event types (schemas) and decoded events as analyzers see them.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

#include "strobe-wire.h"

G_BEGIN_DECLS

/* Serial of events that have none: NoSync and Important events. */
#define STROBE_EVENT_NO_SERIAL G_MAXUINT32

typedef struct
{
  const char *name;
  guint16     offset;   /* in the payload; 0 for aux fields */
  guint16     size;     /* in the payload; element size for arrays */
  guint8      type;     /* StrobeWireType */
} StrobeEventField;

/* A schema learnt from a NewEvent record. Owned by the decoder and valid for its whole
 * lifetime, so analyzers may keep the pointer (and compare pointers to tell types apart). */
typedef struct
{
  guint16                 uid;
  guint16                 payload_size;
  guint8                  flags;       /* STROBE_EVENT_FLAG_* */
  guint                   n_fields;
  const char             *logger;
  const char             *name;
  const char             *full_name;   /* "Logger.Name" */
  const StrobeEventField *fields;
  /* Unique among the types of every decoder alive in the process, never 0: what a
   * StrobeFieldAccessor caches against, since two decoders may run at once. */
  guint32                 instance_id;
} StrobeEventType;

/* One delivered event; only valid during the on_event() call that receives it. */
typedef struct
{
  const StrobeEventType *type;
  guint16                thread_id;   /* 1 for Important events */
  guint32                serial;      /* STROBE_EVENT_NO_SERIAL for NoSync/Important */
  const guint8          *payload;     /* type->payload_size bytes, unaligned */
  const guint8          *aux;         /* the AuxData records after the payload, or NULL */
  gsize                  aux_len;
  /*< private >*/
  GPtrArray             *_joins;      /* concatenated multi-record aux values */
  /* A Cpu.EventBatch's first and last time, left by the first analyzer that walked it
   * (strobe-cpu-batch.h); cleared by the decoder before each delivery. */
  guint8                 _extent_state;   /* 0 unknown, 1 no record, 2 known, 3 sent to _extent_sink */
  guint64                _extent_first, _extent_last;
  gpointer               _extent_sink;    /* StrobeCpuExtentSink * */
  /* Where the packet's bytes are (strobe_event_get_origin): the decoder's source file,
   * the packet's offset in it, and the decoded payload (from its byte _payload_base)
   * the event points into; _packet_data NULL when it cannot be decoded again alone. */
  const char            *_source_file;
  guint64                _packet_offset;
  const guint8          *_packet_data;
  gsize                  _payload_base;
} StrobeEvent;

/* Resolves a field by name once per event type: keep one per field in the analyzer
 * (static or in the instance) so the lookup costs one compare per event. A static one is
 * shared by every decoder of the process, and two decoders run at once (the viewer opens
 * two traces, compare loads A and B): the type it was resolved for and the index are one
 * 64-bit word, read and written atomically, so a thread never pairs its type with the
 * index another thread found for its own. */
typedef struct
{
  const char            *name;
  /*< private >*/
  guint64                cache;       /* instance_id << 32 | (guint32) index; 0: none */
} StrobeFieldAccessor;

#define STROBE_FIELD_ACCESSOR_INIT(field_name) { (field_name), 0 }

gint     strobe_event_type_find_field (const StrobeEventType *type,
                                       const char            *name);

static inline gint
strobe_field_accessor_resolve (StrobeFieldAccessor *acc,
                               const StrobeEvent   *ev)
{
  guint64 cache = __atomic_load_n (&acc->cache, __ATOMIC_RELAXED);

  if (G_UNLIKELY ((guint32) (cache >> 32) != ev->type->instance_id))
    {
      gint index = strobe_event_type_find_field (ev->type, acc->name);

      cache = ((guint64) ev->type->instance_id << 32) | (guint32) index;
      __atomic_store_n (&acc->cache, cache, __ATOMIC_RELAXED);
    }
  return (gint) (guint32) cache;
}

/* Where @at (a byte of @ev: its payload or aux records) is in the trace file the decoder
 * reads (strobe_decoder_set_source_file): the file, the stream offset of its packet and
 * @at's offset in the packet's decoded payload — so an analyzer can leave the bytes there
 * and decode that one packet again when it needs them. FALSE when it cannot: no file
 * (a socket, a stream), a ZSTD packet (it decodes only after every earlier one), an
 * important event, or @at outside the event's payload and aux records (a joined aux
 * value is in memory of its own). */
gboolean strobe_event_get_origin (const StrobeEvent *ev,
                                  const guint8      *at,
                                  const char       **file,
                                  guint64           *packet_offset,
                                  guint64           *payload_offset);

/* Scalars of any width and kind, little-endian and possibly unaligned. */
gint64   strobe_scalar_read_int    (guint8 kind, gsize size, const guint8 *p);
guint64  strobe_scalar_read_uint   (guint8 kind, gsize size, const guint8 *p);
gdouble  strobe_scalar_read_double (guint8 kind, gsize size, const guint8 *p);

/* Index-based access, for generic tools that walk every field. An index out of range
 * reads as 0 / NULL. */
gint64         strobe_event_get_int_at     (const StrobeEvent *ev, gint index);
guint64        strobe_event_get_uint_at    (const StrobeEvent *ev, gint index);
gdouble        strobe_event_get_double_at  (const StrobeEvent *ev, gint index);
const guint8  *strobe_event_get_aux_at     (const StrobeEvent *ev, gint index, gsize *size);
/* The text of a string field (see strobe_text_append_utf8), U+0000 as U+FFFD; "" when
 * unset. */
char          *strobe_event_get_string_at  (const StrobeEvent *ev, gint index);
const guint8  *strobe_event_get_array_at   (const StrobeEvent *ev, gint index,
                                            guint8 *elem_type, gsize *n_elems);

/* Accessor-based access: what analyzers use. */
gboolean       strobe_event_has_field      (const StrobeEvent *ev, StrobeFieldAccessor *acc);
gint64         strobe_event_get_int        (const StrobeEvent *ev, StrobeFieldAccessor *acc);
guint64        strobe_event_get_uint       (const StrobeEvent *ev, StrobeFieldAccessor *acc);
gdouble        strobe_event_get_double     (const StrobeEvent *ev, StrobeFieldAccessor *acc);
gboolean       strobe_event_get_bool       (const StrobeEvent *ev, StrobeFieldAccessor *acc);
guint64        strobe_event_get_pointer    (const StrobeEvent *ev, StrobeFieldAccessor *acc);
char          *strobe_event_get_string     (const StrobeEvent *ev, StrobeFieldAccessor *acc);
const guint8  *strobe_event_get_aux        (const StrobeEvent *ev, StrobeFieldAccessor *acc,
                                            gsize *size);
const guint8  *strobe_event_get_array      (const StrobeEvent *ev, StrobeFieldAccessor *acc,
                                            guint8 *elem_type, gsize *n_elems);

/* Text on the wire (PROTOCOL.md §9): ANSI values and names are UTF-8 when the whole is
 * valid UTF-8 and Latin-1 otherwise; @wide values are UTF-16LE, each lone surrogate
 * U+FFFD. Appends the text as UTF-8 with each U+0000 written as @nul (0: a 0 byte, so
 * @out then has embedded NULs). */
void           strobe_text_append_utf8     (GString *out, const guint8 *data, gsize len,
                                            gboolean wide, gunichar nul);
/* ANSI text as a C string, U+0000 as U+FFFD. */
char          *strobe_text_to_utf8         (const guint8 *data, gsize len);

/* Appends "Field=value ..." for every field: strings quoted and escaped, arrays as
 * [1, 2], pointers in hex, floats exact and locale-independent. */
void           strobe_event_format_fields  (const StrobeEvent *ev, GString *out);
/* Appends one line (without newline) as `strobe-cli dump` prints it:
 * "thread serial-or-dash Logger.Event Field=value ...". */
void           strobe_event_format         (const StrobeEvent *ev, GString *out);

G_END_DECLS
