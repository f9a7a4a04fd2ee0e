/* strobe-event-registry.c — event type registration: uids and NewEvent schemas. */
#include "strobe-buffers-private.h"
#include "strobe-instrument-private.h"

#include <errno.h>
#include <stdlib.h>

STROBE_WIRE_STATIC_ASSERT (STROBE__T_BOOL == STROBE_TYPE_BOOL && STROBE__T_PTR == STROBE_TYPE_POINTER
                           && STROBE__T_FLOAT == STROBE_TYPE_FLOAT32
                           && STROBE__T_DOUBLE == STROBE_TYPE_FLOAT64
                           && STROBE__T_UINT64 == STROBE_TYPE_UINT64
                           && STROBE__T_ARRAY == STROBE_TYPE_ARRAY && STROBE__T_ANSI == STROBE_TYPE_ANSI
                           && STROBE__T_WIDE == STROBE_TYPE_WIDE,
                           "public type codes match the wire");
STROBE_WIRE_STATIC_ASSERT (STROBE_EVENT_IMPORTANT == STROBE_EVENT_FLAG_IMPORTANT
                           && STROBE_EVENT_NOSYNC == STROBE_EVENT_FLAG_NOSYNC,
                           "public event flags match the wire");

/* Statically initialised and needing nothing else (the lock too, strobe-runtime-hooks.c):
 * registration runs from constructors, before main and before the runtime itself is
 * initialised. */
static uint32_t        next_uid = STROBE_UID_FIRST_EVENT;
/* uid → definition, for readers of the runtime's own packets (the tail ring). */
static StrobeEventDef **by_uid;
static size_t           by_uid_cap;

static void
remember_uid_locked (uint16_t uid, StrobeEventDef *type)
{
  if (uid >= by_uid_cap)
    {
      size_t cap = by_uid_cap ? by_uid_cap : 256;
      StrobeEventDef **p;

      while (cap <= uid)
        cap *= 2;
      p = realloc (by_uid, cap * sizeof *p);
      if (p == NULL)
        return;
      memset (p + by_uid_cap, 0, (cap - by_uid_cap) * sizeof *p);
      by_uid = p;
      by_uid_cap = cap;
    }
  by_uid[uid] = type;
}

bool
strobe__event_layout (uint16_t uid, uint8_t *flags, uint16_t *payload_size)
{
  bool found = false;

  pthread_mutex_lock (&strobe__events_lock);
  if (uid < by_uid_cap && by_uid[uid])
    {
      *flags = by_uid[uid]->flags;
      *payload_size = by_uid[uid]->payload_size;
      found = true;
    }
  pthread_mutex_unlock (&strobe__events_lock);
  return found;
}

static uint8_t
name_size (const char *s)
{
  size_t n = strlen (s);
  return (uint8_t) (n > STROBE_WIRE_MAX_NAME ? STROBE_WIRE_MAX_NAME : n);
}

uint16_t
strobe__event_register (StrobeEventDef *type)
{
  const StrobeFieldDesc *desc;
  StrobeWireSchema *schema;
  StrobeWireBuf record = { 0 };
  uint16_t uid;

  pthread_mutex_lock (&strobe__events_lock);
  uid = type->uid;
  if (uid != 0 || next_uid > STROBE_UID_MAX)
    goto out;

  schema = calloc (1, sizeof *schema);
  if (schema == NULL)
    goto out;
  desc = type->fields ();
  schema->uid = (uint16_t) next_uid;
  schema->payload_size = type->payload_size;
  schema->flags = type->flags;
  schema->field_count = type->field_count;
  schema->logger = type->logger;
  schema->logger_size = name_size (type->logger);
  schema->event = type->event;
  schema->event_size = name_size (type->event);
  for (unsigned i = 0; i < type->field_count; i++)
    {
      StrobeWireField *f = &schema->fields[i];
      f->type = desc[i].type;
      f->offset = desc[i].offset;
      f->size = desc[i].size;
      f->name = desc[i].name;
      f->name_size = name_size (desc[i].name);
    }
  if (strobe_wire_write_new_event (&record, schema)
      && strobe__important_append (record.data, record.len, NULL, 0, NULL, 0, NULL, 0))
    {
      uid = (uint16_t) next_uid++;
      remember_uid_locked (uid, type);
      __atomic_store_n (&type->uid, uid, __ATOMIC_RELEASE);
    }
  strobe_wire_buf_clear (&record);
  free (schema);

out:
  pthread_mutex_unlock (&strobe__events_lock);
  return uid;
}
