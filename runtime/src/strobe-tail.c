/* strobe-tail.c — the tail ring: the most recent thread packets, kept so that an output
 * started late (or a snapshot) begins with recent history, not only with the moment it
 * connected.
 *
 * Every thread packet the consumer drains is copied here, whether an output is active
 * or not; when the ring is over its size the oldest packets are evicted. Packets are kept
 * whole (each ends on an event boundary), so replaying them never splits an event, and
 * per thread the ring always holds a contiguous run of that thread's newest packets.
 * Importants (thread id 1) are not kept: the important cache replays all of them.
 *
 * A new output replays the packets no output has received yet (history from while there
 * was none), so consecutive outputs do not repeat each other's events; a snapshot
 * replays all of them. Either way, per thread, what is replayed is contiguous up to now.
 *
 * Everything here runs under the update lock. */
#include "strobe-buffers-private.h"
#include "strobe-output-private.h"
#include "strobe-instrument-private.h"

#include <stdlib.h>

typedef struct TailPacket
{
  struct TailPacket *next;
  size_t             len;
  uint16_t           thread_id;
  bool               sent;        /* an output received it */
  uint8_t            data[];
} TailPacket;

static size_t      tail_limit = STROBE_DEFAULT_TAIL_BYTES;
static size_t      tail_bytes;
static size_t      tail_count;
static uint64_t    tail_evicted;
static TailPacket *oldest;
static TailPacket *newest;

static void
evict_oldest (void)
{
  TailPacket *p = oldest;

  oldest = p->next;
  if (oldest == NULL)
    newest = NULL;
  tail_bytes -= p->len;
  tail_count--;
  tail_evicted++;
  free (p);
}

void
strobe__tail_configure (size_t limit_bytes)
{
  pthread_mutex_lock (&strobe__update_lock);
  tail_limit = limit_bytes;
  while (oldest && tail_bytes > tail_limit)
    evict_oldest ();
  pthread_mutex_unlock (&strobe__update_lock);
}

/* A forked child's ring holds its parent's history: none of it is the child's to send. */
void
strobe__tail_clear_locked (void)
{
  while (oldest)
    evict_oldest ();
  tail_evicted = 0;
}

/* For a connect that asked for less history than the ring holds: the older unsent
 * packets are marked sent, so the next output replays only the newest @bytes. */
void
strobe__tail_keep_newest (size_t bytes)
{
  size_t unsent = 0;

  for (TailPacket *p = oldest; p; p = p->next)
    if (!p->sent)
      unsent += p->len;
  for (TailPacket *p = oldest; p && unsent > bytes; p = p->next)
    if (!p->sent)
      {
        p->sent = true;
        unsent -= p->len;
      }
}

void
strobe__tail_add (uint16_t thread_id, const uint8_t *data, size_t len, bool sent)
{
  TailPacket *p;

  if (tail_limit == 0 || len == 0)
    return;
  if (len > tail_limit)
    {
      /* Bigger than the whole ring: keeping older packets around it would leave a hole
       * in this thread's history, so the ring starts over. */
      while (oldest)
        evict_oldest ();
      return;
    }
  while (oldest && tail_bytes + len > tail_limit)
    evict_oldest ();
  p = malloc (sizeof *p + len);
  if (p == NULL)
    return;
  p->next = NULL;
  p->len = len;
  p->thread_id = thread_id;
  p->sent = sent;
  memcpy (p->data, data, len);
  if (newest)
    newest->next = p;
  else
    oldest = p;
  newest = p;
  tail_bytes += len;
  tail_count++;
}

void
strobe__tail_stats (size_t *bytes, size_t *packets, size_t *limit)
{
  *bytes = tail_bytes;
  *packets = tail_count;
  *limit = tail_limit;
}

/* The serial of the first synchronised event in @data, walking records from the start
 * (a packet always starts on a record). False when it has none, or a uid is unknown. */
static bool
first_serial (const uint8_t *data, size_t len, uint32_t *serial)
{
  size_t pos = 0;

  while (pos + 2 <= len)
    {
      uint16_t uid = strobe_wire_get_u16 (data + pos);
      uint16_t payload;
      uint8_t flags;

      if (uid >= STROBE_UID_SIZED_FIRST && uid <= STROBE_UID_SIZED_LAST)
        {
          if (pos + 6 > len)
            return false;
          pos += 6 + strobe_wire_get_u32 (data + pos + 2);
          continue;
        }
      if (uid < STROBE_UID_FIRST_EVENT || !strobe__event_layout (uid, &flags, &payload))
        return false;
      if (!(flags & STROBE_EVENT_FLAG_NOSYNC))
        {
          if (pos + 2 + STROBE_WIRE_SERIAL_BYTES > len)
            return false;
          *serial = strobe_wire_get_u24 (data + pos + 2);
          return true;
        }
      pos += 2 + payload;
      if (flags & STROBE_EVENT_FLAG_HAS_AUX)
        for (;;)
          {
            uint16_t aux;

            if (pos + 2 > len)
              return false;
            aux = strobe_wire_get_u16 (data + pos);
            if (aux == STROBE_UID_AUX_END)
              {
                pos += 2;
                break;
              }
            if (aux != STROBE_UID_AUX_DATA || pos + sizeof (StrobeWireAuxHeader) > len)
              return false;
            pos += sizeof (StrobeWireAuxHeader) + strobe_wire_get_u32 (data + pos + 4);
          }
    }
  return false;
}

/* The serial a reader should start merging from, so the tail replays without stalls:
 * the latest among each thread's first serial in the ring. From there on, every thread's
 * events are all in the ring (each thread keeps a contiguous run of its newest packets);
 * a few older events of some threads come before it and are delivered as late ones.
 * @fallback when the ring holds no synchronised event. */
uint32_t
strobe__tail_start_serial (uint32_t fallback, bool unsent_only)
{
  static uint8_t seen[65536 / 8];
  uint32_t start = 0;
  bool any = false;

  memset (seen, 0, sizeof seen);
  for (TailPacket *p = oldest; p; p = p->next)
    {
      uint32_t s;

      if ((unsent_only && p->sent) || (seen[p->thread_id / 8] & (1u << (p->thread_id % 8))))
        continue;
      if (!first_serial (p->data, p->len, &s))
        continue;
      seen[p->thread_id / 8] |= (uint8_t) (1u << (p->thread_id % 8));
      if (!any || strobe_wire_serial_before (start, s))
        start = s;
      any = true;
    }
  return any ? start : fallback;
}

/* Hands every packet (or every unsent one, then marked sent), oldest first, to @fn;
 * stops early when it returns false. */
bool
strobe__tail_foreach (bool unsent_only,
                      bool (*fn) (uint16_t thread_id, const uint8_t *data, size_t len, void *user),
                      void *user)
{
  for (TailPacket *p = oldest; p; p = p->next)
    {
      if (unsent_only && p->sent)
        continue;
      if (unsent_only)
        p->sent = true;
      if (!fn (p->thread_id, p->data, p->len, user))
        return false;
    }
  return true;
}
