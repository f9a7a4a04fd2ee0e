/* strobe-log-args.c — the log model's message arguments, left in the trace file or kept
 * in an arena.
 *
 * Why the file: the arguments are most of what a message costs (16 bytes of a typical
 * "%u %s %.3f" message against 8 for its place in the index), and a log view reads a few
 * hundred of them at a time; a text filter reads them all once, in time order, which
 * visits the packets of a few threads in turn — so a handful of decoded packets cached
 * serve it with one decode per packet and thread.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-log-args.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "strobe-wire.h"
#include "strobe-wire-framing.h"

#define ARENA_CHUNK   (1u << 20)
#define CACHE_SLOTS   16
/* Decoded payloads kept: a runtime's packets are ~64 KiB, a hostile one up to 16 MiB. */
#define CACHE_BYTES   (8u << 20)
/* The file is read in blocks: a program of many threads on few cores writes packets of a
 * few hundred bytes (167 000 packets for 1 M messages of strobe-bench-log), and two
 * reads each would cost more than decoding them. Time order visits the threads' packets
 * near one another in the file, so a few blocks serve it. */
#define BLOCK         (256u << 10)
#define BLOCK_SLOTS   8

typedef struct
{
  guint64  offset;   /* the packet's; G_MAXUINT64: empty */
  guint8  *data;
  gsize    len;
  guint64  used;     /* the reader's clock when last used */
} Slot;

typedef struct
{
  guint64  index;    /* offset / BLOCK; G_MAXUINT64: empty */
  guint8  *data;     /* BLOCK bytes */
  gsize    len;      /* read: less at the end of the file */
  guint64  used;
} Block;

struct _StrobeLogArgs
{
  /* The arena: written by the decoder's thread alone. */
  GPtrArray *chunks;
  gsize      chunk_used;
  gsize      chunk_size;
  guint64    arena_bytes;

  int        fd;          /* the trace file, -1: none */

  GMutex     lock;        /* the cache below */
  Slot       slots[CACHE_SLOTS];
  Block      blocks[BLOCK_SLOTS];
  gsize      cached;
  guint64    clock;
  guint8    *wire;        /* an LZ4 packet's bytes as read */
  gsize      wire_cap;
};

StrobeLogArgs *
strobe_log_args_new (void)
{
  StrobeLogArgs *a = g_new0 (StrobeLogArgs, 1);

  a->chunks = g_ptr_array_new_with_free_func (g_free);
  a->fd = -1;
  g_mutex_init (&a->lock);
  for (guint i = 0; i < CACHE_SLOTS; i++)
    a->slots[i].offset = G_MAXUINT64;
  for (guint i = 0; i < BLOCK_SLOTS; i++)
    a->blocks[i].index = G_MAXUINT64;
  return a;
}

void
strobe_log_args_free (StrobeLogArgs *a)
{
  if (a == NULL)
    return;
  g_ptr_array_unref (a->chunks);
  if (a->fd >= 0)
    close (a->fd);
  for (guint i = 0; i < CACHE_SLOTS; i++)
    g_free (a->slots[i].data);
  for (guint i = 0; i < BLOCK_SLOTS; i++)
    g_free (a->blocks[i].data);
  g_free (a->wire);
  g_mutex_clear (&a->lock);
  g_free (a);
}

gboolean
strobe_log_args_use_file (StrobeLogArgs *a, const char *path)
{
  if (a->fd >= 0)
    return TRUE;
  a->fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  return a->fd >= 0;
}

void
strobe_log_args_put (StrobeLogArgs *a, const guint8 *data, gsize len, StrobeLogArgsRef *ref)
{
  guint8 head[10];
  gsize n = 0, need;
  guint8 *chunk;

  for (gsize v = len;; v >>= 7)
    {
      head[n++] = (guint8) ((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
      if (v < 0x80)
        break;
    }
  need = n + len;
  if (a->chunks->len == 0 || a->chunk_size - a->chunk_used < need)
    {
      a->chunk_size = MAX (ARENA_CHUNK, need);
      g_ptr_array_add (a->chunks, g_malloc (a->chunk_size));
      a->arena_bytes += a->chunk_size;
      a->chunk_used = 0;
    }
  chunk = g_ptr_array_index (a->chunks, a->chunks->len - 1);
  memcpy (chunk + a->chunk_used, head, n);
  if (len)
    memcpy (chunk + a->chunk_used + n, data, len);
  ref->kind = STROBE_LOG_ARGS_ARENA;
  ref->where = (guint64) (guintptr) chunk;
  ref->at = (guint32) a->chunk_used;
  ref->field = 0;
  a->chunk_used += need;
}

static gboolean
read_arena (const StrobeLogArgsRef *ref, GByteArray *out)
{
  const guint8 *p = (const guint8 *) (guintptr) ref->where + ref->at;
  gsize len = 0;

  for (guint shift = 0;; shift += 7, p++)
    {
      len |= (gsize) (*p & 0x7f) << shift;
      if (!(*p & 0x80))
        break;
    }
  g_byte_array_append (out, p + 1, (guint) len);
  return TRUE;
}

static gboolean
pread_all (int fd, guint8 *buf, gsize len, guint64 offset)
{
  while (len > 0)
    {
      gssize n = pread (fd, buf, len, (off_t) offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      buf += n;
      len -= (gsize) n;
      offset += (guint64) n;
    }
  return TRUE;
}

/* Copies @len bytes of the file at @offset into @dst through the block cache (a long
 * read goes straight to the file). Under the lock. */
static gboolean
read_locked (StrobeLogArgs *a, guint8 *dst, gsize len, guint64 offset)
{
  if (len > BLOCK)
    return pread_all (a->fd, dst, len, offset);
  while (len > 0)
    {
      guint64 index = offset / BLOCK;
      Block *b = &a->blocks[0];
      gsize skip, n;

      for (guint i = 0; i < BLOCK_SLOTS; i++)
        if (a->blocks[i].index == index)
          {
            b = &a->blocks[i];
            break;
          }
        else if (a->blocks[i].used < b->used)
          b = &a->blocks[i];
      if (b->index != index)
        {
          gssize got;

          if (b->data == NULL)
            b->data = g_malloc (BLOCK);
          do
            got = pread (a->fd, b->data, BLOCK, (off_t) (index * BLOCK));
          while (got < 0 && errno == EINTR);
          if (got < 0)
            {
              b->index = G_MAXUINT64;
              return FALSE;
            }
          b->index = index;
          b->len = (gsize) got;
        }
      b->used = ++a->clock;
      skip = (gsize) (offset - index * BLOCK);
      if (skip >= b->len)
        return FALSE;
      n = MIN (len, b->len - skip);
      memcpy (dst, b->data + skip, n);
      dst += n;
      len -= n;
      offset += n;
    }
  return TRUE;
}

/* The decoded payload of the packet at @offset, from the cache or the file. Under the
 * lock. */
static const Slot *
packet_locked (StrobeLogArgs *a, guint64 offset, guint16 thread_id, const char **why)
{
  StrobeWirePacketHeader h;
  StrobeWireFault fault;
  guint8 head[sizeof h];
  Slot *slot = &a->slots[0];
  gsize need, wire_len;
  guint8 *data;

  for (guint i = 0; i < CACHE_SLOTS; i++)
    if (a->slots[i].offset == offset)
      {
        a->slots[i].used = ++a->clock;
        return &a->slots[i];
      }

  /* What the decoder judged when it read the trace, checked again: the file may have
   * been replaced since. */
  if (!read_locked (a, head, sizeof head, offset) ||
      !strobe_wire_read_packet_header (head, sizeof head, offset, &h, &need, &fault) ||
      h.thread_id != thread_id || (h.flags & STROBE_PACKET_FLAG_ZSTD))
    {
      *why = "the trace file changed since it was read";
      return NULL;
    }
  wire_len = h.size - sizeof h;
  data = g_malloc (MAX (h.raw_size, 1));
  if (h.flags & STROBE_PACKET_FLAG_LZ4)
    {
      const char *lz4_why = NULL;

      if (a->wire_cap < wire_len)
        {
          g_free (a->wire);
          a->wire_cap = MAX (wire_len, 64 * 1024);
          a->wire = g_malloc (a->wire_cap);
        }
      if (!read_locked (a, a->wire, wire_len, offset + sizeof h) ||
          !strobe_wire_lz4_decode (a->wire, wire_len, data, h.raw_size, &lz4_why))
        {
          g_free (data);
          *why = "the trace file changed since it was read";
          return NULL;
        }
    }
  else if (!read_locked (a, data, h.raw_size, offset + sizeof h))
    {
      g_free (data);
      *why = "the trace file changed since it was read";
      return NULL;
    }

  /* The least recently used slot, then more while the cache is over its bytes. */
  for (guint i = 1; i < CACHE_SLOTS; i++)
    if (a->slots[i].used < slot->used)
      slot = &a->slots[i];
  a->cached -= slot->len;
  g_free (slot->data);
  slot->offset = offset;
  slot->data = data;
  slot->len = h.raw_size;
  slot->used = ++a->clock;
  a->cached += slot->len;
  while (a->cached > CACHE_BYTES)
    {
      Slot *old = NULL;

      for (guint i = 0; i < CACHE_SLOTS; i++)
        if (a->slots[i].data && &a->slots[i] != slot && (old == NULL || a->slots[i].used < old->used))
          old = &a->slots[i];
      if (old == NULL)
        break;
      a->cached -= old->len;
      g_clear_pointer (&old->data, g_free);
      old->len = 0;
      old->used = 0;
      old->offset = G_MAXUINT64;
    }
  return slot;
}

/* Joins the pieces of aux field @field in the aux records at @p (up to AuxEnd). */
static gboolean
join_aux (const guint8 *p, gsize avail, guint8 field, GByteArray *out)
{
  gsize pos = 0;

  for (;;)
    {
      guint16 uid;
      guint32 size;

      if (avail - pos < 2)
        return FALSE;
      uid = strobe_wire_get_u16 (p + pos);
      if (uid == STROBE_UID_AUX_END)
        return TRUE;
      if (uid != STROBE_UID_AUX_DATA || avail - pos < sizeof (StrobeWireAuxHeader))
        return FALSE;
      size = strobe_wire_get_u32 (p + pos + 4);
      if (avail - pos - sizeof (StrobeWireAuxHeader) < size)
        return FALSE;
      if (p[pos + 2] == field)
        g_byte_array_append (out, p + pos + sizeof (StrobeWireAuxHeader), size);
      pos += sizeof (StrobeWireAuxHeader) + size;
    }
}

gboolean
strobe_log_args_read (StrobeLogArgs *a, const StrobeLogArgsRef *ref, GByteArray *out, const char **why)
{
  const Slot *slot;
  guint before = out->len;
  gboolean ok;

  *why = NULL;
  if (ref->kind == STROBE_LOG_ARGS_ARENA)
    return read_arena (ref, out);

  g_mutex_lock (&a->lock);
  slot = packet_locked (a, ref->where, ref->thread_id, why);
  ok = slot != NULL && ref->at <= slot->len &&
       join_aux (slot->data + ref->at, slot->len - ref->at, ref->field, out);
  g_mutex_unlock (&a->lock);
  if (!ok)
    {
      g_byte_array_set_size (out, before);
      if (*why == NULL)
        *why = "the trace file changed since it was read";
    }
  return ok;
}

guint64
strobe_log_args_get_bytes (StrobeLogArgs *a)
{
  guint64 n;

  g_mutex_lock (&a->lock);
  n = a->cached + a->wire_cap;
  for (guint i = 0; i < BLOCK_SLOTS; i++)
    n += a->blocks[i].data ? BLOCK : 0;
  g_mutex_unlock (&a->lock);
  return n + a->arena_bytes;
}
