/* strobe-decoder.c — the stream decoder: framing, schemas, routing and serial order.
 *
 * Input is cut into units (the handshake, then whole packets). A unit that arrives in one
 * feed() is processed straight from the caller's memory; only a unit split across feeds
 * is copied into `inbuf`, which never holds more than one unit, so memory is bounded by
 * the packet limit of PROTOCOL.md §7.
 *
 * Ordering is PROTOCOL.md §8, which this file implements literally. NoSync events go
 * out as soon as their thread reaches them. Synchronised events must come out in serial
 * order across threads, so each thread parses its payload until it meets a synchronised
 * event whose serial is not the next one; the rest of that payload is then kept (as a
 * chunk, validated at once so errors name the packet that carried them) and the thread
 * is "blocked" on that serial. After every packet the blocked thread holding the next
 * serial runs again. A serial nobody holds is skipped (a gap) when every thread that
 * takes part in the merge is blocked past it, when the held chunks exceed max_pending,
 * or at the end of the input. `blocked` is kept in thread-id order: where the rules let
 * several threads go, the lowest id goes first, so every reader gets the same order.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-decoder.h"

#include <inttypes.h>
#include <glib/gi18n.h>

#include "strobe-analysis-context-private.h"
#include "strobe-decoder-error-private.h"
#include "strobe-give-way.h"
#include "strobe-wire-framing.h"
#include "strobe-wire-zstd.h"


#define N_UIDS (STROBE_UID_MAX + 1)
#define N_TIDS 65536

typedef enum
{
  SYS_NONE,
  SYS_THREAD_INFO,
  SYS_THREAD_END,
} SysKind;

typedef struct
{
  StrobeEventType   pub;          /* first: &entry->pub is what analyzers see */
  StrobeEventField *fields;
  StrobeRoute      *routes;
  guint             n_routes;
  gboolean          simple_nosync; /* NoSync without aux: the fast path */
  SysKind           sys;
  gint              sys_thread_field;
  gboolean          unsupported;   /* an unknown required flag: its events cannot be read */
} TypeEntry;

typedef struct _Chunk Chunk;
struct _Chunk
{
  Chunk   *next;
  guint8  *data;
  gsize    cap;
  gsize    pos;
  gsize    len;
  gsize    counted;       /* its share of pending_bytes: len - pos when it was kept */
  guint64  packet_offset;
  gsize    payload_base;  /* the byte of the packet's decoded payload data[0] is */
  gboolean alone;         /* the packet decodes on its own (not ZSTD) */
};

typedef struct
{
  guint16  tid;
  Chunk   *head;
  Chunk   *tail;
  guint32  head_serial;   /* serial of the synchronised event the thread is blocked on */
  gboolean has_sync;
  gboolean announced;     /* by $Trace.ThreadInfo */
  gboolean seen_data;
  gboolean ended;         /* by $Trace.ThreadEnd */
} ThreadState;

typedef struct
{
  guint8 *data;
  gsize   cap;
} Buf;

typedef enum
{
  RUN_DONE,
  RUN_BLOCKED,
  RUN_ERROR,
} RunResult;

/* One framed record of a thread stream. */
typedef struct
{
  TypeEntry *entry;       /* NULL for a skipped sized record */
  gsize      size;        /* the whole record, aux included */
  gsize      header;      /* uid (+ serial) */
  gsize      aux_len;     /* AuxData records, AuxEnd excluded */
} Frame;

struct _StrobeDecoder
{
  GObject                parent_instance;

  GPtrArray             *analyzers;
  StrobeAnalysisContext *ctx;
  guint                  routes_generation;
  gboolean               begun;
  gboolean               finished;
  gboolean               ended;        /* end() was called */
  GError                *error;        /* sticky */

  gboolean               in_packets;   /* past the handshake */
  StrobeWirePacketHeader unit_header;  /* of the packet unit_need() last judged whole */
  guint8                *inbuf;
  gsize                  inbuf_len;
  gsize                  inbuf_cap;
  guint64                offset;       /* stream offset of the first unprocessed byte */
  char                  *source_file;  /* the stream is this file from its first byte */

  guint8                *metadata_bytes;
  StrobeWireMetadata     metadata;
  gboolean               have_metadata;

  TypeEntry            **types;        /* indexed by uid */
  GPtrArray             *type_list;
  StrobeWireSchema      *schema_tmp;   /* ~6 KiB: not on the stack */
  ThreadState          **threads;      /* indexed by thread id */
  GPtrArray             *thread_list;
  GPtrArray             *blocked;      /* ThreadState with kept chunks */

  gboolean               next_known;
  guint32                next_serial;
  gsize                  pending_bytes;
  gsize                  max_pending;

  Buf                    scratch;      /* LZ4 and ZSTD output, reused */
  StrobeWireZstd        *zstd;         /* the stream's zstd decoder, from its first ZSTD packet */
  GArray                *pool;         /* spare Bufs from released chunks */
  GPtrArray             *joins;

  gboolean               ended_cleanly;
  gboolean               after_end;    /* End was read: the rest of the input is ignored */
  guint64                error_offset;
  StrobeDecoderStats     stats;
};

G_DEFINE_FINAL_TYPE (StrobeDecoder, strobe_decoder, G_TYPE_OBJECT)

#define POOL_MAX 8

/* ---- errors ----------------------------------------------------------------------- */

/* Every error keeps the offset it names in error_offset, which fail() stores in the
 * error: here for the corrupt ones, next to the g_set_error() for the others. */
static gboolean G_GNUC_PRINTF (5, 6)
corrupt (StrobeDecoder *self,
         GError       **error,
         guint64        packet_offset,
         guint          tid,
         const char    *format,
         ...)
{
  g_autofree char *detail = NULL;
  va_list args;

  self->error_offset = packet_offset;
  va_start (args, format);
  detail = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, STROBE_DECODER_ERROR, STROBE_DECODER_ERROR_CORRUPT,
               _("corrupt packet at offset %" PRIu64 " (thread %u): %s"),
               packet_offset, tid, detail);
  return FALSE;
}

static const char *
translate (const char *msgid)
{
  return _(msgid);
}

/* A framing fault (core/protocol reads the framing for every reader) as this decoder's
 * error, with the offset it names. */
static GError *
fault_error (StrobeDecoder *self, const StrobeWireFault *fault)
{
  static const StrobeDecoderError codes[] = {
    [STROBE_WIRE_FAULT_NOT_STROBE] = STROBE_DECODER_ERROR_NOT_STROBE,
    [STROBE_WIRE_FAULT_VERSION] = STROBE_DECODER_ERROR_VERSION,
    [STROBE_WIRE_FAULT_TRUNCATED] = STROBE_DECODER_ERROR_TRUNCATED,
    [STROBE_WIRE_FAULT_UNSUPPORTED] = STROBE_DECODER_ERROR_UNSUPPORTED,
    [STROBE_WIRE_FAULT_CORRUPT] = STROBE_DECODER_ERROR_CORRUPT,
  };
  char message[256];

  strobe_wire_fault_describe (fault, translate, message, sizeof message);
  self->error_offset = fault->offset;
  return g_error_new_literal (STROBE_DECODER_ERROR, codes[fault->klass], message);
}

/* ---- buffers ---------------------------------------------------------------------- */

static Buf
buf_take (StrobeDecoder *self, gsize min_cap)
{
  Buf b = { NULL, 0 };

  if (self->pool->len > 0)
    {
      b = g_array_index (self->pool, Buf, self->pool->len - 1);
      g_array_set_size (self->pool, self->pool->len - 1);
    }
  if (b.cap < min_cap)
    {
      g_free (b.data);
      b.cap = MAX (min_cap, 4096);
      b.data = g_malloc (b.cap);
    }
  return b;
}

static void
buf_release (StrobeDecoder *self, Buf b)
{
  if (self->pool->len < POOL_MAX)
    g_array_append_val (self->pool, b);
  else
    g_free (b.data);
}

/* ---- types and routes ------------------------------------------------------------- */

static void
type_entry_free (gpointer data)
{
  TypeEntry *e = data;

  for (guint i = 0; i < e->pub.n_fields; i++)
    g_free ((char *) e->fields[i].name);
  g_free (e->fields);
  g_free ((char *) e->pub.logger);
  g_free ((char *) e->pub.name);
  g_free ((char *) e->pub.full_name);
  g_free (e->routes);
  g_free (e);
}

static void
rebuild_routes (StrobeDecoder *self)
{
  guint generation = strobe_analysis_context_get_generation (self->ctx);

  if (generation == self->routes_generation)
    return;
  self->routes_generation = generation;
  for (guint i = 0; i < self->type_list->len; i++)
    {
      TypeEntry *e = g_ptr_array_index (self->type_list, i);
      if (e->unsupported)
        continue;
      g_free (e->routes);
      e->routes = strobe_analysis_context_build_routes (self->ctx, &e->pub, &e->n_routes);
    }
}

/* See StrobeEventType.instance_id. Wrapping past 2^32 types would need billions of
 * decoded traces; 0 is skipped because it marks an accessor never resolved. */
static guint32
next_type_instance_id (void)
{
  static guint32 last;
  guint32 id;

  do
    id = __atomic_add_fetch (&last, 1, __ATOMIC_RELAXED);
  while (id == 0);
  return id;
}

static char *
wire_string (const char *s, gsize len)
{
  return strobe_text_to_utf8 ((const guint8 *) s, len);
}

static gboolean
kind_is_integer (guint8 type)
{
  return type >= STROBE_TYPE_INT8 && type <= STROBE_TYPE_UINT64;
}

static gboolean
define_type (StrobeDecoder *self, const StrobeWireSchema *s, guint64 packet_offset,
             GError **error)
{
  TypeEntry *e;

  if (self->types[s->uid] != NULL)
    return corrupt (self, error, packet_offset, STROBE_TID_IMPORTANTS,
                    _("event uid %u is defined twice"), s->uid);

  e = g_new0 (TypeEntry, 1);
  e->fields = g_new0 (StrobeEventField, s->field_count ? s->field_count : 1);
  for (guint i = 0; i < s->field_count; i++)
    {
      const StrobeWireField *wf = &s->fields[i];
      StrobeEventField *f = &e->fields[i];

      f->name = wire_string (wf->name, wf->name_size);
      f->type = wf->type;
      f->offset = strobe_wire_type_is_aux (wf->type) ? 0 : wf->offset;
      f->size = wf->size;
    }
  e->pub.uid = s->uid;
  e->pub.payload_size = s->payload_size;
  e->pub.flags = s->flags;
  e->pub.n_fields = s->field_count;
  e->pub.logger = wire_string (s->logger, s->logger_size);
  e->pub.name = wire_string (s->event, s->event_size);
  e->pub.full_name = g_strconcat (e->pub.logger, ".", e->pub.name, NULL);
  e->pub.fields = e->fields;
  e->pub.instance_id = next_type_instance_id ();
  e->simple_nosync = (s->flags & (STROBE_EVENT_FLAG_NOSYNC | STROBE_EVENT_FLAG_HAS_AUX
                                  | STROBE_EVENT_FLAG_IMPORTANT)) == STROBE_EVENT_FLAG_NOSYNC;
  e->sys_thread_field = -1;
  if (strcmp (e->pub.logger, "$Trace") == 0)
    {
      if (strcmp (e->pub.name, "ThreadInfo") == 0)
        e->sys = SYS_THREAD_INFO;
      else if (strcmp (e->pub.name, "ThreadEnd") == 0)
        e->sys = SYS_THREAD_END;
      if (e->sys != SYS_NONE)
        {
          e->sys_thread_field = strobe_event_type_find_field (&e->pub, "ThreadId");
          if (e->sys_thread_field >= 0 && !kind_is_integer (e->fields[e->sys_thread_field].type))
            e->sys_thread_field = -1;
        }
    }
  /* Defined (the uid is taken) but never announced nor routed: nothing can be read. */
  e->unsupported = (s->flags & STROBE_EVENT_FLAGS_REQUIRED) != 0;
  if (e->unsupported)
    {
      e->simple_nosync = FALSE;
      e->sys = SYS_NONE;
    }
  else
    e->routes = strobe_analysis_context_build_routes (self->ctx, &e->pub, &e->n_routes);

  self->types[s->uid] = e;
  g_ptr_array_add (self->type_list, e);

  if (!e->unsupported)
    for (guint i = 0; i < self->analyzers->len; i++)
      strobe_analyzer_on_event_type (g_ptr_array_index (self->analyzers, i), &e->pub);
  return TRUE;
}

/* ---- threads ---------------------------------------------------------------------- */

static ThreadState *
get_thread (StrobeDecoder *self, guint16 tid)
{
  ThreadState *t = self->threads[tid];

  if (G_LIKELY (t != NULL))
    return t;
  t = g_new0 (ThreadState, 1);
  t->tid = tid;
  self->threads[tid] = t;
  g_ptr_array_add (self->thread_list, t);
  return t;
}

static void
thread_state_free (gpointer data)
{
  ThreadState *t = data;

  while (t->head)
    {
      Chunk *c = t->head;
      t->head = c->next;
      g_free (c->data);
      g_free (c);
    }
  g_free (t);
}

/* Whether the merge must wait for this thread before declaring a serial missing. A
 * thread announced by ThreadInfo counts until it shows data, so the first packets of a
 * trace do not skip serials of threads that have not flushed yet. */
static gboolean
thread_is_waited_for (const ThreadState *t)
{
  if (t->ended)
    return FALSE;
  return t->has_sync || (t->announced && !t->seen_data);
}

/* ---- delivery --------------------------------------------------------------------- */

static inline void
dispatch (const TypeEntry *e, StrobeEvent *ev)
{
  const StrobeRoute *r = e->routes;
  const StrobeRoute *end = r + e->n_routes;

  ev->_extent_state = 0;
  for (; r < end; r++)
    r->on_event (r->analyzer, r->route_id, ev);
}

/* Frames the AuxData records after a payload: @avail bytes up to the end of the packet
 * or important body. Returns the bytes including AuxEnd, or 0 on error (an AuxEnd alone
 * is 2 bytes, so 0 is never a valid answer). */
static gsize
frame_aux (const TypeEntry *e, const guint8 *p, gsize avail, gsize *aux_len,
           const char **why)
{
  gsize pos = 0;

  for (;;)
    {
      guint16 uid;
      guint8 index;
      guint32 size;
      const StrobeEventField *f;

      if (avail - pos < 2)
        {
          *why = N_("aux data runs past the end (no AuxEnd)");
          return 0;
        }
      uid = strobe_wire_get_u16 (p + pos);
      if (uid == STROBE_UID_AUX_END)
        {
          *aux_len = pos;
          return pos + 2;
        }
      if (uid != STROBE_UID_AUX_DATA)
        {
          *why = N_("event with aux fields lacks its AuxEnd");
          return 0;
        }
      if (avail - pos < sizeof (StrobeWireAuxHeader))
        {
          *why = N_("aux data header runs past the end");
          return 0;
        }
      index = p[pos + 2];
      size = strobe_wire_get_u32 (p + pos + 4);
      if (index >= e->pub.n_fields || !strobe_wire_type_is_aux (e->fields[index].type))
        {
          *why = N_("aux data for a field that is not an aux field");
          return 0;
        }
      f = &e->fields[index];
      pos += sizeof (StrobeWireAuxHeader);
      if (avail - pos < size)
        {
          *why = N_("aux data size runs past the end");
          return 0;
        }
      /* The schema guarantees a known kind's element size; unknown kinds are opaque. */
      if ((f->type & 0xc0) == STROBE_TYPE_ARRAY && strobe_wire_scalar_size (f->type & 0x3f) != 0)
        {
          if (size % f->size != 0)
            {
              *why = N_("array aux data is not a whole number of elements");
              return 0;
            }
        }
      else if (f->type == STROBE_TYPE_WIDE && size % 2 != 0)
        {
          *why = N_("wide string aux data has an odd size");
          return 0;
        }
      pos += size;
    }
}

/* Frames the record at @p on a thread stream, without delivering it. */
static gboolean
frame_record (StrobeDecoder *self, const guint8 *p, gsize avail, Frame *f,
              guint64 packet_offset, guint tid, gsize at, GError **error)
{
  guint16 uid;
  TypeEntry *e;
  gsize need;

  if (avail < 2)
    return corrupt (self, error, packet_offset, tid, _("partial record at payload byte %zu"), at);
  uid = strobe_wire_get_u16 (p);
  e = self->types[uid];
  f->entry = e;
  f->aux_len = 0;
  if (e == NULL)
    {
      guint32 size;

      if (uid < STROBE_UID_SIZED_FIRST || uid > STROBE_UID_SIZED_LAST)
        {
          static const char *const what[] = {
            N_("record uid 0 is invalid"),
            N_("a NewEvent record (uid 1) outside the importants stream"),
            N_("an AuxData record (uid 2) outside an event"),
            N_("an AuxEnd record (uid 3) outside an event"),
          };

          if (uid >= STROBE_UID_FIRST_EVENT)
            return corrupt (self, error, packet_offset, tid,
                            _("event uid %u at payload byte %zu has no schema"),
                            uid, at);
          return corrupt (self, error, packet_offset, tid, _("%s at payload byte %zu"),
                          _(what[uid]), at);
        }
      if (avail < 6 || (size = strobe_wire_get_u32 (p + 2)) > avail - 6)
        return corrupt (self, error, packet_offset, tid,
                        _("sized record at payload byte %zu runs past the packet"),
                        at);
      f->size = 6 + (gsize) size;
      f->header = 6;
      return TRUE;
    }
  if (G_UNLIKELY (e->unsupported))
    {
      self->error_offset = packet_offset;
      g_set_error (error, STROBE_DECODER_ERROR, STROBE_DECODER_ERROR_UNSUPPORTED,
                   _("packet at offset %" PRIu64 " (thread %u): event uid %u at payload "
                   "byte %zu has a type with unknown required flags 0x%02x"),
                   packet_offset, tid, uid, at, e->pub.flags & STROBE_EVENT_FLAGS_REQUIRED);
      return FALSE;
    }
  if (e->pub.flags & STROBE_EVENT_FLAG_IMPORTANT)
    return corrupt (self, error, packet_offset, tid,
                    _("important event uid %u at payload byte %zu outside the importants "
                    "stream"), uid, at);

  f->header = (e->pub.flags & STROBE_EVENT_FLAG_NOSYNC) ? 2 : 2 + STROBE_WIRE_SERIAL_BYTES;
  need = f->header + e->pub.payload_size;
  if (avail < need)
    return corrupt (self, error, packet_offset, tid,
                    _("event uid %u at payload byte %zu runs past the packet"),
                    uid, at);
  f->size = need;
  if (e->pub.flags & STROBE_EVENT_FLAG_HAS_AUX)
    {
      const char *why = NULL;
      gsize n = frame_aux (e, p + need, avail - need, &f->aux_len, &why);

      if (n == 0)
        return corrupt (self, error, packet_offset, tid,
                        _("event uid %u at payload byte %zu: %s"), uid, at, _(why));
      f->size += n;
    }
  return TRUE;
}

/* On failure *@end is where the bad record starts: the records before it are kept. */
static gboolean
validate_records (StrobeDecoder *self, const guint8 *data, gsize len, gsize start,
                  guint64 packet_offset, ThreadState *t, gsize *end, GError **error)
{
  gsize pos;

  for (pos = start; pos < len;)
    {
      Frame f;

      if (!frame_record (self, data + pos, len - pos, &f, packet_offset, t->tid, pos, error))
        {
          *end = pos;
          return FALSE;
        }
      if (f.entry && !(f.entry->pub.flags & STROBE_EVENT_FLAG_NOSYNC))
        t->has_sync = TRUE;
      pos += f.size;
    }
  *end = pos;
  return TRUE;
}

static inline void
clear_joins (StrobeDecoder *self)
{
  if (self->joins->len)
    g_ptr_array_set_size (self->joins, 0);
}

/* Delivers the thread's events from *pos until it ends or meets a synchronised event
 * that is not due yet (then *pos stays on it and the thread's head_serial is set). */
static RunResult
run_events (StrobeDecoder *self, ThreadState *t, const guint8 *data, gsize len,
            gsize *pos_inout, guint64 packet_offset, gsize payload_base, gboolean alone,
            GError **error)
{
  TypeEntry *const *types = (TypeEntry *const *) self->types;
  StrobeEvent ev = { 0 };
  gsize pos = *pos_inout, given_at = pos;
  guint64 n_events = 0;
  RunResult result = RUN_DONE;

  ev.thread_id = t->tid;
  ev._joins = self->joins;
  /* Where an analyzer can read this packet's bytes again (strobe_event_get_origin). */
  ev._source_file = self->source_file;
  ev._packet_offset = packet_offset;
  ev._packet_data = alone && self->source_file ? data : NULL;
  ev._payload_base = payload_base;

  while (pos < len)
    {
      const TypeEntry *e;
      Frame f;

      /* A packet can hold a million scopes in batches: by bytes, not per packet. */
      if (G_UNLIKELY (pos - given_at >= STROBE_GIVE_WAY_BYTES))
        {
          strobe_give_way ();
          given_at = pos;
        }

      /* Fast path: NoSync events without aux, the bulk of a busy trace. */
      if (G_LIKELY (len - pos >= 2))
        {
          e = types[strobe_wire_get_u16 (data + pos)];
          if (G_LIKELY (e != NULL && e->simple_nosync
                        && len - pos >= 2 + (gsize) e->pub.payload_size))
            {
              ev.type = &e->pub;
              ev.serial = STROBE_EVENT_NO_SERIAL;
              ev.payload = data + pos + 2;
              ev.aux = NULL;
              ev.aux_len = 0;
              dispatch (e, &ev);
              pos += 2 + (gsize) e->pub.payload_size;
              n_events++;
              continue;
            }
        }

      if (!frame_record (self, data + pos, len - pos, &f, packet_offset, t->tid, pos, error))
        {
          result = RUN_ERROR;
          break;
        }
      e = f.entry;
      if (e == NULL)
        {
          self->stats.records_skipped++;
          pos += f.size;
          continue;
        }

      ev.serial = STROBE_EVENT_NO_SERIAL;
      if (!(e->pub.flags & STROBE_EVENT_FLAG_NOSYNC))
        {
          guint32 serial = strobe_wire_get_u24 (data + pos + 2);

          t->has_sync = TRUE;
          if (self->next_known && serial == self->next_serial)
            self->next_serial = (serial + 1) & STROBE_WIRE_SERIAL_MASK;
          else if (self->next_known && strobe_wire_serial_before (serial, self->next_serial))
            self->stats.late_events++;
          else
            {
              t->head_serial = serial;
              result = RUN_BLOCKED;
              break;
            }
          ev.serial = serial;
        }

      ev.type = &e->pub;
      ev.payload = data + pos + f.header;
      if (e->pub.flags & STROBE_EVENT_FLAG_HAS_AUX)
        {
          ev.aux = ev.payload + e->pub.payload_size;
          ev.aux_len = f.aux_len;
        }
      else
        {
          ev.aux = NULL;
          ev.aux_len = 0;
        }
      dispatch (e, &ev);
      clear_joins (self);
      pos += f.size;
      n_events++;
    }

  self->stats.events += n_events;
  *pos_inout = pos;
  return result;
}

static void
keep_chunk (StrobeDecoder *self, ThreadState *t, Buf b, gsize pos, gsize len,
            guint64 packet_offset, gsize payload_base, gboolean alone)
{
  Chunk *c = g_new0 (Chunk, 1);

  c->payload_base = payload_base;
  c->alone = alone;
  c->data = b.data;
  c->cap = b.cap;
  c->pos = pos;
  c->len = len;
  c->counted = len - pos;
  c->packet_offset = packet_offset;
  if (t->tail)
    t->tail->next = c;
  else
    t->head = c;
  t->tail = c;
  self->pending_bytes += c->counted;
  self->stats.peak_pending_bytes = MAX (self->stats.peak_pending_bytes, self->pending_bytes);
}

/* Runs a blocked thread's kept chunks until it blocks again or runs dry. */
static gboolean
run_chunks (StrobeDecoder *self, ThreadState *t, GError **error)
{
  while (t->head)
    {
      Chunk *c = t->head;
      RunResult r = run_events (self, t, c->data, c->len, &c->pos, c->packet_offset,
                                c->payload_base, c->alone, error);
      Buf b;

      if (r == RUN_ERROR)
        return FALSE;
      if (r == RUN_BLOCKED)
        return TRUE;
      t->head = c->next;
      if (t->head == NULL)
        t->tail = NULL;
      self->pending_bytes -= c->counted;
      b.data = c->data;
      b.cap = c->cap;
      buf_release (self, b);
      g_free (c);
    }
  g_ptr_array_remove (self->blocked, t);
  return TRUE;
}

static void
add_blocked (StrobeDecoder *self, ThreadState *t)
{
  guint i = self->blocked->len;

  while (i > 0 && ((ThreadState *) g_ptr_array_index (self->blocked, i - 1))->tid > t->tid)
    i--;
  g_ptr_array_insert (self->blocked, (gint) i, t);
}

static gboolean
all_waited_threads_blocked (StrobeDecoder *self)
{
  for (guint i = 0; i < self->thread_list->len; i++)
    {
      const ThreadState *t = g_ptr_array_index (self->thread_list, i);
      if (t->head == NULL && thread_is_waited_for (t))
        return FALSE;
    }
  return TRUE;
}

/* The merge step of PROTOCOL.md §8. @floor (from a later Sync): every serial before it
 * that nobody holds is skipped now, without waiting. */
static gboolean
drain (StrobeDecoder *self, gboolean force, const guint32 *floor, GError **error)
{
  for (;;)
    {
      ThreadState *due = NULL;
      gboolean below_floor;
      guint32 target;

      if (self->next_known)
        for (guint i = 0; i < self->blocked->len; i++)
          {
            ThreadState *t = g_ptr_array_index (self->blocked, i);
            if (t->head_serial == self->next_serial
                || strobe_wire_serial_before (t->head_serial, self->next_serial))
              {
                due = t;
                break;
              }
          }

      if (due != NULL)
        {
          if (!run_chunks (self, due, error))
            return FALSE;
          continue;
        }

      below_floor = floor != NULL && self->next_known
                    && strobe_wire_serial_before (self->next_serial, *floor);
      if (!below_floor)
        {
          if (self->blocked->len == 0)
            return TRUE;
          if (!force && self->pending_bytes <= self->max_pending
              && !all_waited_threads_blocked (self))
            return TRUE;
        }

      /* The smallest waiting serial, scanning in thread-id order (which decides only
       * between serials 2^23 apart, where "before" is not an order). */
      if (self->blocked->len > 0)
        {
          target = ((ThreadState *) g_ptr_array_index (self->blocked, 0))->head_serial;
          for (guint i = 1; i < self->blocked->len; i++)
            {
              ThreadState *t = g_ptr_array_index (self->blocked, i);
              if (strobe_wire_serial_before (t->head_serial, target))
                target = t->head_serial;
            }
          if (below_floor && !strobe_wire_serial_before (target, *floor))
            target = *floor;
        }
      else
        target = *floor;
      if (self->next_known)
        self->stats.gaps++;
      self->next_serial = target;
      self->next_known = TRUE;
    }
}

/* ---- packets ---------------------------------------------------------------------- */

/* @from_scratch: @data is the LZ4 scratch buffer, which a blocked thread may adopt
 * instead of copying. */
static gboolean
thread_packet (StrobeDecoder *self, guint16 tid, const guint8 *data, gsize len,
               gboolean from_scratch, gboolean alone, guint64 packet_offset, GError **error)
{
  ThreadState *t = get_thread (self, tid);
  gboolean was_blocked = t->head != NULL;
  gboolean valid;
  gsize pos = 0, end;
  Buf b;

  t->seen_data = TRUE;
  if (!was_blocked)
    {
      RunResult r = run_events (self, t, data, len, &pos, packet_offset, 0, alone, error);

      if (r == RUN_ERROR)
        return FALSE;
      if (r == RUN_DONE)
        return drain (self, FALSE, NULL, error);
    }

  /* A bad record ends the packet: what precedes it is kept, for fail() to deliver. */
  valid = validate_records (self, data, len, pos, packet_offset, t, &end, error);
  if (end == pos)
    return valid ? drain (self, FALSE, NULL, error) : FALSE;
  if (!was_blocked)
    add_blocked (self, t);

  if (from_scratch && pos < end / 2)
    {
      b = self->scratch;
      self->scratch = buf_take (self, 0);
      keep_chunk (self, t, b, pos, end, packet_offset, 0, alone);
    }
  else
    {
      b = buf_take (self, end - pos);
      memcpy (b.data, data + pos, end - pos);
      keep_chunk (self, t, b, 0, end - pos, packet_offset, pos, alone);
    }
  return valid && drain (self, FALSE, NULL, error);
}

static void
note_system_event (StrobeDecoder *self, const TypeEntry *e, const StrobeEvent *ev)
{
  guint64 tid;

  if (e->sys_thread_field < 0)
    return;
  tid = strobe_event_get_uint_at (ev, e->sys_thread_field);
  if (tid < STROBE_TID_FIRST_USER || tid >= N_TIDS)
    return;
  if (e->sys == SYS_THREAD_INFO)
    get_thread (self, (guint16) tid)->announced = TRUE;
  else if (e->sys == SYS_THREAD_END)
    get_thread (self, (guint16) tid)->ended = TRUE;
}

static gboolean
importants_packet (StrobeDecoder *self, const guint8 *data, gsize len,
                   guint64 packet_offset, GError **error)
{
  const guint tid = STROBE_TID_IMPORTANTS;

  for (gsize pos = 0; pos < len;)
    {
      const guint8 *body;
      guint16 uid;
      guint32 size;
      TypeEntry *e;

      if (len - pos < sizeof (StrobeWireImportantHeader))
        return corrupt (self, error, packet_offset, tid,
                        _("partial important record at payload byte %zu"), pos);
      uid = strobe_wire_get_u16 (data + pos);
      size = strobe_wire_get_u32 (data + pos + 2);
      if (size > len - pos - sizeof (StrobeWireImportantHeader))
        return corrupt (self, error, packet_offset, tid,
                        _("important record at payload byte %zu has size %u, past the "
                        "packet"), pos, size);
      body = data + pos + sizeof (StrobeWireImportantHeader);

      if (uid == STROBE_UID_NEW_EVENT)
        {
          const char *why = NULL;

          if (!strobe_wire_parse_new_event (body, size, self->schema_tmp, &why))
            return corrupt (self, error, packet_offset, tid,
                            _("malformed schema at payload byte %zu: %s"), pos, _(why));
          if (!define_type (self, self->schema_tmp, packet_offset, error))
            return FALSE;
        }
      else if (uid >= STROBE_UID_FIRST_EVENT && (e = self->types[uid]) != NULL && !e->unsupported)
        {
          StrobeEvent ev = { 0 };

          if (size < e->pub.payload_size)
            return corrupt (self, error, packet_offset, tid,
                            _("important event uid %u at payload byte %zu is smaller than its "
                            "payload"), uid, pos);
          ev.type = &e->pub;
          ev.thread_id = STROBE_TID_IMPORTANTS;
          ev.serial = STROBE_EVENT_NO_SERIAL;
          ev.payload = body;
          ev._joins = self->joins;
          if (e->pub.flags & STROBE_EVENT_FLAG_HAS_AUX)
            {
              const char *why = NULL;

              if (frame_aux (e, body + e->pub.payload_size, size - e->pub.payload_size,
                             &ev.aux_len, &why) == 0)
                return corrupt (self, error, packet_offset, tid,
                                _("important event uid %u at payload byte %zu: %s"),
                                uid, pos, _(why));
              ev.aux = body + e->pub.payload_size;
            }
          if (e->sys != SYS_NONE)
            note_system_event (self, e, &ev);
          dispatch (e, &ev);
          clear_joins (self);
          self->stats.events++;
          self->stats.important_events++;
        }
      else if (uid == STROBE_UID_INVALID)
        return corrupt (self, error, packet_offset, tid,
                        _("record uid 0 at payload byte %zu"), pos);
      else
        self->stats.records_skipped++;   /* unknown uid: the size lets us skip it */

      pos += sizeof (StrobeWireImportantHeader) + size;
    }
  /* A ThreadEnd may be what the merge was waiting for. */
  return drain (self, FALSE, NULL, error);
}

static gboolean
control_packet (StrobeDecoder *self, const guint8 *data, gsize len,
                guint64 packet_offset, GError **error)
{
  StrobeWireFault fault;
  guint32 serial = 0;
  guint8 kind;

  if (!strobe_wire_read_control (data, len, packet_offset, &kind, &serial, &fault))
    {
      g_propagate_error (error, fault_error (self, &fault));
      return FALSE;
    }
  switch (kind)
    {
    case STROBE_CONTROL_SYNC:
      if (!self->next_known)
        {
          self->next_known = TRUE;
          self->next_serial = serial;
        }
      else if (strobe_wire_serial_before (self->next_serial, serial))
        return drain (self, FALSE, &serial, error);
      return drain (self, FALSE, NULL, error);
    case STROBE_CONTROL_END:
      /* Nothing after End belongs to the stream (§6): deliver everything now. */
      self->ended_cleanly = TRUE;
      self->after_end = TRUE;
      return drain (self, TRUE, NULL, error);
    default:
      self->stats.packets_skipped++;
      return TRUE;
    }
}

static gboolean
process_packet (StrobeDecoder *self, const guint8 *p, GError **error)
{
  /* unit_need() read this header last, for this very unit. */
  guint32 size = self->unit_header.size;
  guint16 tid = self->unit_header.thread_id;
  guint16 flags = self->unit_header.flags;
  guint32 raw_size = self->unit_header.raw_size;
  const guint8 *payload = p + sizeof (StrobeWirePacketHeader);
  gsize wire_len = size - sizeof (StrobeWirePacketHeader);
  guint64 packet_offset = self->offset;
  const guint8 *data = payload;
  gboolean from_scratch = FALSE;

  self->stats.packets++;
  self->stats.payload_bytes += wire_len;
  /* A ZSTD packet is decoded even when it is skipped: the next ones build on its bytes. */
  if (tid > STROBE_TID_CONTROL && tid < STROBE_TID_FIRST_USER && !(flags & STROBE_PACKET_FLAG_ZSTD))
    {
      self->stats.packets_skipped++;
      return TRUE;
    }

  if (flags & (STROBE_PACKET_FLAG_LZ4 | STROBE_PACKET_FLAG_ZSTD))
    {
      const char *why = NULL;

      if (self->scratch.cap < raw_size)
        {
          g_free (self->scratch.data);
          self->scratch.cap = MAX (raw_size, 64 * 1024);
          self->scratch.data = g_malloc (self->scratch.cap);
        }
      if (flags & STROBE_PACKET_FLAG_LZ4)
        {
          if (!strobe_wire_lz4_decode (payload, wire_len, self->scratch.data, raw_size, &why))
            return corrupt (self, error, packet_offset, tid, _("LZ4 payload does not decode: %s"),
                            _(why));
          self->stats.packets_lz4++;
          self->stats.lz4_bytes += wire_len;
        }
      else
        {
          if (self->zstd == NULL && (self->zstd = strobe_wire_zstd_new_decoder ()) == NULL)
            g_error ("out of memory for a zstd decoder");
          if (!strobe_wire_zstd_decode (self->zstd, payload, wire_len, self->scratch.data, raw_size, &why))
            return corrupt (self, error, packet_offset, tid, _("ZSTD payload does not decode: %s"),
                            _(why));
          self->stats.packets_zstd++;
          self->stats.zstd_bytes += wire_len;
          if (tid > STROBE_TID_CONTROL && tid < STROBE_TID_FIRST_USER)
            {
              self->stats.packets_skipped++;
              return TRUE;
            }
        }
      data = self->scratch.data;
      from_scratch = TRUE;
    }
  self->stats.raw_bytes += raw_size;

  if (tid == STROBE_TID_IMPORTANTS)
    return importants_packet (self, data, raw_size, packet_offset, error);
  if (tid == STROBE_TID_CONTROL)
    return control_packet (self, data, raw_size, packet_offset, error);
  return thread_packet (self, tid, data, raw_size, from_scratch,
                        !(flags & STROBE_PACKET_FLAG_ZSTD), packet_offset, error);
}

/* ---- framing ---------------------------------------------------------------------- */

/* How many bytes the unit starting at @p needs in total, judging from the @avail bytes
 * present (only the header size while the header is incomplete); 0 on error. Headers
 * are checked here, before their body is buffered, so a bad size never allocates. */
static gsize
unit_need (StrobeDecoder *self, const guint8 *p, gsize avail, GError **error)
{
  StrobeWireFault fault;
  gboolean ok;
  gsize need = 0;

  if (!self->in_packets)
    ok = strobe_wire_read_handshake (p, avail, &need, &fault);
  else
    ok = strobe_wire_read_packet_header (p, avail, self->offset, &self->unit_header, &need, &fault);
  if (!ok)
    {
      GError *local = fault_error (self, &fault);

      if (error != NULL)
        g_propagate_error (error, local);
      else
        g_error_free (local);
      return 0;
    }
  return need;
}

static gboolean
process_handshake (StrobeDecoder *self, const guint8 *p, gsize len, GError **error)
{
  StrobeWireFault fault;
  gsize md_len = len - sizeof (StrobeWireHandshake);

  self->metadata_bytes = g_malloc (md_len ? md_len : 1);
  memcpy (self->metadata_bytes, p + sizeof (StrobeWireHandshake), md_len);
  if (!strobe_wire_read_metadata (self->metadata_bytes, md_len, &self->metadata, &fault))
    {
      g_propagate_error (error, fault_error (self, &fault));
      return FALSE;
    }
  self->have_metadata = TRUE;
  self->in_packets = TRUE;
  strobe_analysis_context_set_metadata (self->ctx, &self->metadata);
  for (guint i = 0; i < self->analyzers->len; i++)
    {
      StrobeAnalyzer *a = g_ptr_array_index (self->analyzers, i);
      strobe_analysis_context_set_current (self->ctx, a);
      strobe_analyzer_on_metadata (a, &self->metadata);
    }
  strobe_analysis_context_set_current (self->ctx, NULL);
  rebuild_routes (self);
  return TRUE;
}

static gboolean
process_unit (StrobeDecoder *self, const guint8 *p, gsize len, GError **error)
{
  gboolean ok;

  if (!self->in_packets)
    ok = process_handshake (self, p, len, error);
  else
    ok = process_packet (self, p, error);
  if (ok)
    self->offset += len;
  return ok;
}

static void
inbuf_append (StrobeDecoder *self, const guint8 *data, gsize len, gsize need)
{
  if (self->inbuf_cap < need)
    {
      self->inbuf_cap = MAX (need, 256);
      self->inbuf = g_realloc (self->inbuf, self->inbuf_cap);
    }
  memcpy (self->inbuf + self->inbuf_len, data, len);
  self->inbuf_len += len;
}

/* ---- lifecycle -------------------------------------------------------------------- */

static void
call_end (StrobeDecoder *self, const GError *error)
{
  if (self->ended)
    return;
  self->ended = TRUE;
  for (guint i = 0; i < self->analyzers->len; i++)
    strobe_analyzer_end (g_ptr_array_index (self->analyzers, i), error);
}

/* Everything before the failure is delivered (what is held for ordering too), then the
 * error sticks: later calls fail with it. */
static gboolean
fail (StrobeDecoder *self, GError *local, GError **error)
{
  g_autoptr(GError) ignored = NULL;

  strobe_decoder_error_set_offset (local, self->error_offset);
  self->finished = TRUE;
  drain (self, TRUE, NULL, &ignored);
  self->error = local;
  call_end (self, local);
  if (error)
    *error = g_error_copy (local);
  return FALSE;
}

static void
begin_analyzer (StrobeDecoder *self, StrobeAnalyzer *a)
{
  strobe_analysis_context_set_current (self->ctx, a);
  strobe_analyzer_begin (a, self->ctx);
  if (self->have_metadata)
    strobe_analyzer_on_metadata (a, &self->metadata);
  strobe_analysis_context_set_current (self->ctx, NULL);
  for (guint i = 0; i < self->type_list->len; i++)
    {
      TypeEntry *e = g_ptr_array_index (self->type_list, i);
      if (!e->unsupported)
        strobe_analyzer_on_event_type (a, &e->pub);
    }
  rebuild_routes (self);
}

static void
ensure_begun (StrobeDecoder *self)
{
  if (self->begun)
    return;
  self->begun = TRUE;
  for (guint i = 0; i < self->analyzers->len; i++)
    begin_analyzer (self, g_ptr_array_index (self->analyzers, i));
}

static gboolean
check_usable (StrobeDecoder *self, GError **error)
{
  if (self->error)
    {
      if (error)
        *error = g_error_copy (self->error);
      return FALSE;
    }
  if (self->finished)
    {
      g_set_error (error, STROBE_DECODER_ERROR, STROBE_DECODER_ERROR_FINISHED,
                   _("the decoder has already finished"));
      return FALSE;
    }
  ensure_begun (self);
  return TRUE;
}

static void
flush_analyzers (StrobeDecoder *self)
{
  for (guint i = 0; i < self->analyzers->len; i++)
    strobe_analyzer_flush (g_ptr_array_index (self->analyzers, i));
}

static gboolean
feed_units (StrobeDecoder  *self,
            const guint8   *data,
            gsize           len,
            GError        **error)
{
  GError *local = NULL;

  while (len > 0)
    {
      gsize need, take;

      if (self->after_end)
        {
          self->stats.bytes_after_end += len;
          return TRUE;
        }

      if (self->inbuf_len == 0)
        {
          need = unit_need (self, data, len, &local);
          if (need == 0)
            return fail (self, local, error);
          if (len >= need)
            {
              if (!process_unit (self, data, need, &local))
                return fail (self, local, error);
              data += need;
              len -= need;
              continue;
            }
          /* A partial unit: everything left belongs to it. */
          inbuf_append (self, data, len, need);
          return TRUE;
        }

      need = unit_need (self, self->inbuf, self->inbuf_len, &local);
      if (need == 0)
        return fail (self, local, error);
      take = MIN (need - self->inbuf_len, len);
      inbuf_append (self, data, take, need);
      data += take;
      len -= take;

      /* Ask again with what is buffered now: @need may have been just the header's
       * size, and the new bytes must be checked (the magic, the versions) exactly as
       * if they had come in one piece, so the verdict never depends on chunking. */
      need = unit_need (self, self->inbuf, self->inbuf_len, &local);
      if (need == 0)
        return fail (self, local, error);
      if (need > self->inbuf_len)
        continue;
          if (!process_unit (self, self->inbuf, need, &local))
        return fail (self, local, error);
      self->inbuf_len = 0;
    }
  return TRUE;
}

gboolean
strobe_decoder_feed (StrobeDecoder  *self,
                     const guint8   *data,
                     gsize           len,
                     GError        **error)
{
  g_return_val_if_fail (STROBE_IS_DECODER (self), FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_usable (self, error))
    return FALSE;
  if (!feed_units (self, data, len, error))
    return FALSE;
  /* Once per chunk, not per event: analyzers publish what they batched for readers. */
  flush_analyzers (self);
  return TRUE;
}

gboolean
strobe_decoder_finish (StrobeDecoder *self, GError **error)
{
  GError *local = NULL;

  g_return_val_if_fail (STROBE_IS_DECODER (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_usable (self, error))
    return FALSE;

  if (!self->after_end && (!self->in_packets || self->inbuf_len > 0))
    {
      StrobeWireFault fault;
      gsize need = self->inbuf_len
                   ? unit_need (self, self->inbuf, self->inbuf_len, NULL)
                   : sizeof (StrobeWireHandshake);

      /* The offset that counts is where the unit that cannot be read starts. */
      strobe_wire_fault_cut_off (&fault, self->in_packets, self->offset, self->inbuf_len, need);
      return fail (self, fault_error (self, &fault), error);
    }

  if (!drain (self, TRUE, NULL, &local))
    return fail (self, local, error);
  self->finished = TRUE;
  call_end (self, NULL);
  return TRUE;
}

void
strobe_decoder_add_analyzer (StrobeDecoder  *self,
                             StrobeAnalyzer *analyzer)
{
  g_return_if_fail (STROBE_IS_DECODER (self));
  g_return_if_fail (STROBE_IS_ANALYZER (analyzer));
  g_return_if_fail (!self->finished);

  g_ptr_array_add (self->analyzers, g_object_ref (analyzer));
  if (self->begun)
    begin_analyzer (self, analyzer);
}

void
strobe_decoder_set_max_pending (StrobeDecoder *self,
                                gsize          max_bytes)
{
  g_return_if_fail (STROBE_IS_DECODER (self));
  self->max_pending = max_bytes;
}

const StrobeWireMetadata *
strobe_decoder_get_metadata (StrobeDecoder *self)
{
  g_return_val_if_fail (STROBE_IS_DECODER (self), NULL);
  return self->have_metadata ? &self->metadata : NULL;
}

void
strobe_decoder_set_source_file (StrobeDecoder *self,
                                const char    *path)
{
  g_return_if_fail (STROBE_IS_DECODER (self));
  /* Offsets name bytes of the file only when it was fed from its first byte. */
  g_return_if_fail (self->offset == 0 && self->inbuf_len == 0);
  g_free (self->source_file);
  self->source_file = g_strdup (path);
}

guint64
strobe_decoder_get_offset (StrobeDecoder *self)
{
  g_return_val_if_fail (STROBE_IS_DECODER (self), 0);
  return self->offset;
}

gboolean
strobe_decoder_get_ended_cleanly (StrobeDecoder *self)
{
  g_return_val_if_fail (STROBE_IS_DECODER (self), FALSE);
  return self->ended_cleanly;
}

void
strobe_decoder_get_stats (StrobeDecoder      *self,
                          StrobeDecoderStats *stats)
{
  g_return_if_fail (STROBE_IS_DECODER (self));
  g_return_if_fail (stats != NULL);
  *stats = self->stats;
}

const StrobeEventType *
strobe_decoder_get_event_type (StrobeDecoder *self,
                               guint16        uid)
{
  g_return_val_if_fail (STROBE_IS_DECODER (self), NULL);
  return self->types[uid] && !self->types[uid]->unsupported ? &self->types[uid]->pub : NULL;
}

StrobeDecoder *
strobe_decoder_new (void)
{
  return g_object_new (STROBE_TYPE_DECODER, NULL);
}

static void
strobe_decoder_finalize (GObject *object)
{
  StrobeDecoder *self = STROBE_DECODER (object);

  g_ptr_array_unref (self->analyzers);
  strobe_analysis_context_free (self->ctx);
  g_clear_error (&self->error);
  g_free (self->inbuf);
  g_free (self->metadata_bytes);
  g_ptr_array_unref (self->type_list);
  g_free (self->types);
  g_free (self->schema_tmp);
  g_ptr_array_unref (self->blocked);
  g_ptr_array_unref (self->thread_list);
  g_free (self->threads);
  g_free (self->scratch.data);
  g_free (self->source_file);
  strobe_wire_zstd_free (self->zstd);
  for (guint i = 0; i < self->pool->len; i++)
    g_free (g_array_index (self->pool, Buf, i).data);
  g_array_unref (self->pool);
  g_ptr_array_unref (self->joins);

  G_OBJECT_CLASS (strobe_decoder_parent_class)->finalize (object);
}

static void
strobe_decoder_class_init (StrobeDecoderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_decoder_finalize;
}

static void
strobe_decoder_init (StrobeDecoder *self)
{
  self->analyzers = g_ptr_array_new_with_free_func (g_object_unref);
  self->ctx = strobe_analysis_context_new ();
  self->types = g_new0 (TypeEntry *, N_UIDS);
  self->type_list = g_ptr_array_new_with_free_func (type_entry_free);
  self->schema_tmp = g_new0 (StrobeWireSchema, 1);
  self->threads = g_new0 (ThreadState *, N_TIDS);
  self->thread_list = g_ptr_array_new_with_free_func (thread_state_free);
  self->blocked = g_ptr_array_new ();
  self->max_pending = STROBE_DECODER_DEFAULT_MAX_PENDING;
  self->pool = g_array_new (FALSE, FALSE, sizeof (Buf));
  self->joins = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
}
