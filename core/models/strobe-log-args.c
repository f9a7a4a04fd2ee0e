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
#include <lz4.h>

#include "strobe-wire.h"
#include "strobe-wire-framing.h"

#define ARENA_CHUNK   (1u << 20)
/* A full arena chunk is packed as LZ4 blocks of this many bytes, each decoded alone: a
 * trace with no file to go back to (a ZSTD stream, what `strobe-cli run` writes; a live
 * socket) keeps its arguments at about half their size. */
#define PACK_BLOCK    (64u << 10)
#define PACK_RAW      0x80000000u   /* in a block's length: stored as it was */
#define CACHE_SLOTS   16
/* Decoded payloads kept: a runtime's packets are ~64 KiB, a hostile one up to 16 MiB. */
#define CACHE_BYTES   (8u << 20)
/* The file is read in blocks: a program of many threads on few cores writes packets of a
 * few hundred bytes (167 000 packets for 1 M messages of strobe-bench-log), and two
 * reads each would cost more than decoding them. Time order visits the threads' packets
 * near one another in the file, so a few blocks serve it. */
#define BLOCK         (256u << 10)
#define BLOCK_SLOTS   8
#define READER_BLOCK_SLOTS 3

typedef struct
{
  guint64  offset;   /* the packet's; G_MAXUINT64: empty */
  guint8  *data;
  gsize    len;
  guint64  used;     /* the reader's clock when last used */
} Slot;

/* One arena chunk: raw while it fills (and for a single argument larger than a chunk),
 * then packed. */
typedef struct
{
  guint8   *raw;
  gsize     cap;           /* of raw: set once, read without the writer */
  gsize     size;          /* bytes used; read only once packed */
  guint     n_blocks;      /* packed: size / PACK_BLOCK rounded up */
  guint8  **blocks;
  guint32  *block_len;     /* compressed length, or PACK_RAW | raw length */
} ArenaChunk;

typedef struct
{
  guint64  index;    /* offset / BLOCK; G_MAXUINT64: empty */
  guint8  *data;     /* BLOCK bytes */
  gsize    len;      /* read: less at the end of the file */
  guint64  used;
} Block;

/* Decoded packets and file blocks, the trace file's read again: one shared under the
 * lock, and one of each StrobeLogArgsReader's own (a filter's worker thread decodes
 * its packets without waiting for another's). */
typedef struct
{
  Slot       slots[CACHE_SLOTS];
  Block      blocks[BLOCK_SLOTS];
  guint      n_blocks;    /* of blocks[] in use */
  gsize      cached;
  guint64    clock;
  guint8    *wire;        /* an LZ4 packet's bytes as read */
  gsize      wire_cap;
} Cache;

static void
cache_init (Cache *c, guint n_blocks)
{
  memset (c, 0, sizeof *c);
  c->n_blocks = n_blocks;
  for (guint i = 0; i < CACHE_SLOTS; i++)
    c->slots[i].offset = G_MAXUINT64;
  for (guint i = 0; i < BLOCK_SLOTS; i++)
    c->blocks[i].index = G_MAXUINT64;
}

static void
cache_clear (Cache *c)
{
  for (guint i = 0; i < CACHE_SLOTS; i++)
    g_free (c->slots[i].data);
  for (guint i = 0; i < BLOCK_SLOTS; i++)
    g_free (c->blocks[i].data);
  g_free (c->wire);
}

static guint64
cache_bytes (const Cache *c)
{
  guint64 n = c->cached + c->wire_cap;

  for (guint i = 0; i < BLOCK_SLOTS; i++)
    n += c->blocks[i].data ? BLOCK : 0;
  return n;
}

struct _StrobeLogArgs
{
  /* The arena: written by the decoder's thread alone; a chunk is packed under the lock,
   * and read under it. */
  GPtrArray *chunks;        /* ArenaChunk * */
  gsize      chunk_used;
  gsize      chunk_size;
  guint64    arena_bytes;

  int        fd;          /* the trace file, -1: none */

  GMutex     lock;        /* the cache below */
  Cache      cache;       /* what readers without a StrobeLogArgsReader share */
  const ArenaChunk *unpacked_chunk;   /* the packed block decoded last */
  guint      unpacked_block;
  gint       reader_bytes;           /* what the readers' caches hold (atomic) */
  guint8    *unpacked;               /* PACK_BLOCK bytes */
};

static void
arena_chunk_free (gpointer data)
{
  ArenaChunk *c = data;

  g_free (c->raw);
  for (guint i = 0; i < c->n_blocks; i++)
    g_free (c->blocks[i]);
  g_free (c->blocks);
  g_free (c->block_len);
  g_free (c);
}

StrobeLogArgs *
strobe_log_args_new (void)
{
  StrobeLogArgs *a = g_new0 (StrobeLogArgs, 1);

  a->chunks = g_ptr_array_new_with_free_func (arena_chunk_free);
  a->fd = -1;
  g_mutex_init (&a->lock);
  cache_init (&a->cache, BLOCK_SLOTS);
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
  cache_clear (&a->cache);
  g_free (a->unpacked);
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

/* Packs a full chunk: its blocks compressed, the raw bytes freed (under the lock, as
 * readers read the raw bytes under it). Writer only. */
static void
arena_pack (StrobeLogArgs *a, ArenaChunk *c)
{
  guint n = (guint) ((c->size + PACK_BLOCK - 1) / PACK_BLOCK);
  guint8 **blocks = g_new (guint8 *, MAX (n, 1));
  guint32 *lens = g_new (guint32, MAX (n, 1));
  g_autofree char *tmp = g_malloc (LZ4_COMPRESSBOUND (PACK_BLOCK));
  gsize packed = 0;

  for (guint i = 0; i < n; i++)
    {
      gsize from = (gsize) i * PACK_BLOCK, len = MIN (PACK_BLOCK, c->size - from);
      int got = LZ4_compress_default ((const char *) c->raw + from, tmp, (int) len,
                                      LZ4_COMPRESSBOUND (PACK_BLOCK));

      if (got > 0 && (gsize) got < len)
        {
          blocks[i] = g_memdup2 (tmp, (gsize) got);
          lens[i] = (guint32) got;
        }
      else
        {
          blocks[i] = g_memdup2 (c->raw + from, len);
          lens[i] = PACK_RAW | (guint32) len;
        }
      packed += lens[i] & ~PACK_RAW;
    }
  g_mutex_lock (&a->lock);
  g_clear_pointer (&c->raw, g_free);
  c->blocks = blocks;
  c->block_len = lens;
  c->n_blocks = n;
  g_mutex_unlock (&a->lock);
  a->arena_bytes = a->arena_bytes - a->chunk_size + packed + n * (sizeof (guint8 *) + sizeof (guint32));
}

void
strobe_log_args_put (StrobeLogArgs *a, const guint8 *data, gsize len, StrobeLogArgsRef *ref)
{
  guint8 head[10];
  gsize n = 0, need;
  ArenaChunk *c = a->chunks->len ? g_ptr_array_index (a->chunks, a->chunks->len - 1) : NULL;

  for (gsize v = len;; v >>= 7)
    {
      head[n++] = (guint8) ((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
      if (v < 0x80)
        break;
    }
  need = n + len;
  if (c == NULL || a->chunk_size - a->chunk_used < need)
    {
      /* A chunk of one argument larger than a chunk stays as it is. */
      if (c != NULL && a->chunk_size == ARENA_CHUNK)
        arena_pack (a, c);
      c = g_new0 (ArenaChunk, 1);
      a->chunk_size = MAX (ARENA_CHUNK, need);
      c->raw = g_malloc (a->chunk_size);
      c->cap = a->chunk_size;
      g_ptr_array_add (a->chunks, c);
      a->arena_bytes += a->chunk_size;
      a->chunk_used = 0;
    }
  memcpy (c->raw + a->chunk_used, head, n);
  if (len)
    memcpy (c->raw + a->chunk_used + n, data, len);
  ref->kind = STROBE_LOG_ARGS_ARENA;
  ref->where = (guint64) (guintptr) c;
  ref->at = (guint32) a->chunk_used;
  ref->field = 0;
  a->chunk_used += need;
  c->size = a->chunk_used;
}

/* Copies up to @len bytes of chunk @c from @offset to @dst; returns how many there were.
 * Under the lock. */
static gsize
arena_copy_locked (StrobeLogArgs *a, const ArenaChunk *c, gsize offset, gsize len, guint8 *dst)
{
  gsize done = 0;

  if (c->raw != NULL)
    {
      len = offset < c->cap ? MIN (len, c->cap - offset) : 0;
      /* An argument-less message asks for nothing, with nowhere to put it. */
      if (len > 0)
        memcpy (dst, c->raw + offset, len);
      return len;
    }
  while (done < len && offset < c->size)
    {
      guint b = (guint) (offset / PACK_BLOCK);
      gsize in = offset - (gsize) b * PACK_BLOCK, block_size = MIN (PACK_BLOCK, c->size - (gsize) b * PACK_BLOCK);
      const guint8 *src;
      gsize n;

      if (c->block_len[b] & PACK_RAW)
        src = c->blocks[b];
      else
        {
          if (a->unpacked_chunk != c || a->unpacked_block != b)
            {
              if (a->unpacked == NULL)
                a->unpacked = g_malloc (PACK_BLOCK);
              if (LZ4_decompress_safe ((const char *) c->blocks[b], (char *) a->unpacked,
                                       (int) c->block_len[b], (int) block_size) != (int) block_size)
                g_error ("a log arena block does not decode");
              a->unpacked_chunk = c;
              a->unpacked_block = b;
            }
          src = a->unpacked;
        }
      n = MIN (len - done, block_size - in);
      memcpy (dst + done, src + in, n);
      done += n;
      offset += n;
    }
  return done;
}

static gboolean
read_arena (StrobeLogArgs *a, const StrobeLogArgsRef *ref, GByteArray *out)
{
  const ArenaChunk *c = (const ArenaChunk *) (guintptr) ref->where;
  guint8 head[10];
  gsize got, len = 0, n = 0, before = out->len;

  g_mutex_lock (&a->lock);
  got = arena_copy_locked (a, c, ref->at, sizeof head, head);
  for (guint shift = 0; n < got; shift += 7)
    {
      len |= (gsize) (head[n] & 0x7f) << shift;
      if (!(head[n++] & 0x80))
        break;
    }
  g_byte_array_set_size (out, before + (guint) len);
  arena_copy_locked (a, c, ref->at + n, len, out->data + before);
  g_mutex_unlock (&a->lock);
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
read_locked (Cache *a, int fd, guint8 *dst, gsize len, guint64 offset)
{
  if (len > BLOCK)
    return pread_all (fd, dst, len, offset);
  while (len > 0)
    {
      guint64 index = offset / BLOCK;
      Block *b = &a->blocks[0];
      gsize skip, n;

      for (guint i = 0; i < a->n_blocks; i++)
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
            got = pread (fd, b->data, BLOCK, (off_t) (index * BLOCK));
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
packet_locked (Cache *a, int fd, guint64 offset, guint16 thread_id, const char **why)
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
  if (!read_locked (a, fd, head, sizeof head, offset) ||
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
      if (!read_locked (a, fd, a->wire, wire_len, offset + sizeof h) ||
          !strobe_wire_lz4_decode (a->wire, wire_len, data, h.raw_size, &lz4_why))
        {
          g_free (data);
          *why = "the trace file changed since it was read";
          return NULL;
        }
    }
  else if (!read_locked (a, fd, data, h.raw_size, offset + sizeof h))
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

/* Joins the pieces of aux field @field in the aux records at @p (up to AuxEnd). With
 * @view, a field of one piece (a runtime writes one) is not copied: *@view and
 * *@view_len point into @p, @out untouched. */
static gboolean
join_aux (const guint8 *p, gsize avail, guint8 field, GByteArray *out, const guint8 **view, gsize *view_len)
{
  const guint8 *first = p;
  guint32 first_size = 0;
  guint pieces = 0;
  gsize pos = 0;

  for (;;)
    {
      guint16 uid;
      guint32 size;

      if (avail - pos < 2)
        return FALSE;
      uid = strobe_wire_get_u16 (p + pos);
      if (uid == STROBE_UID_AUX_END)
        break;
      if (uid != STROBE_UID_AUX_DATA || avail - pos < sizeof (StrobeWireAuxHeader))
        return FALSE;
      size = strobe_wire_get_u32 (p + pos + 4);
      if (avail - pos - sizeof (StrobeWireAuxHeader) < size)
        return FALSE;
      if (p[pos + 2] == field)
        {
          if (pieces++ == 0)
            {
              first = p + pos + sizeof (StrobeWireAuxHeader);
              first_size = size;
            }
          if (view == NULL || pieces > 1)
            {
              if (view != NULL && pieces == 2)
                g_byte_array_append (out, first, first_size);
              g_byte_array_append (out, p + pos + sizeof (StrobeWireAuxHeader), size);
            }
        }
      pos += sizeof (StrobeWireAuxHeader) + size;
    }
  if (view != NULL && pieces <= 1)
    {
      *view = first;
      *view_len = first_size;
    }
  else if (view != NULL)
    {
      *view = out->data;
      *view_len = out->len;
    }
  return TRUE;
}

/* @ref's arguments from the file through @cache (under the lock when it is shared). */
static gboolean
read_file_ref (Cache *cache, int fd, const StrobeLogArgsRef *ref, GByteArray *out, const guint8 **view,
               gsize *view_len, const char **why)
{
  const Slot *slot = packet_locked (cache, fd, ref->where, ref->thread_id, why);

  return slot != NULL && ref->at <= slot->len &&
         join_aux (slot->data + ref->at, slot->len - ref->at, ref->field, out, view, view_len);
}

gboolean
strobe_log_args_read (StrobeLogArgs *a, const StrobeLogArgsRef *ref, GByteArray *out, const char **why)
{
  guint before = out->len;
  gboolean ok;

  *why = NULL;
  if (ref->kind == STROBE_LOG_ARGS_ARENA)
    return read_arena (a, ref, out);

  g_mutex_lock (&a->lock);
  ok = read_file_ref (&a->cache, a->fd, ref, out, NULL, NULL, why);
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
  n = cache_bytes (&a->cache);
  g_mutex_unlock (&a->lock);
  return n + a->arena_bytes + (guint64) g_atomic_int_get (&a->reader_bytes);
}

/* ---- a reader of its own ---------------------------------------------------------- */

struct _StrobeLogArgsReader
{
  StrobeLogArgs *args;
  Cache          cache;
  gint           counted;   /* bytes it added to args->reader_bytes */
};

StrobeLogArgsReader *
strobe_log_args_reader_new (StrobeLogArgs *args)
{
  StrobeLogArgsReader *r = g_new (StrobeLogArgsReader, 1);

  r->args = args;
  r->counted = 0;
  /* A reader walks one range in time order: fewer blocks serve it (each is 256 KiB, and
   * a filter makes one reader a core). */
  cache_init (&r->cache, READER_BLOCK_SLOTS);
  return r;
}

void
strobe_log_args_reader_free (StrobeLogArgsReader *r)
{
  if (r == NULL)
    return;
  g_atomic_int_add (&r->args->reader_bytes, -r->counted);
  cache_clear (&r->cache);
  g_free (r);
}

gboolean
strobe_log_args_reader_view (StrobeLogArgsReader    *r,
                             const StrobeLogArgsRef *ref,
                             GByteArray             *buffer,
                             const guint8          **data,
                             gsize                  *len,
                             const char            **why)
{
  gboolean ok;
  gint now;

  g_byte_array_set_size (buffer, 0);
  if (ref->kind == STROBE_LOG_ARGS_ARENA)
    {
      ok = strobe_log_args_read (r->args, ref, buffer, why);
      *data = buffer->data;
      *len = buffer->len;
      return ok;
    }
  *why = NULL;
  /* The file descriptor is set before the first file reference is made, and a reader
   * sees references through the model's lock. */
  ok = read_file_ref (&r->cache, r->args->fd, ref, buffer, data, len, why);
  now = (gint) MIN (cache_bytes (&r->cache), (guint64) G_MAXINT / 4);
  if (now != r->counted)
    {
      g_atomic_int_add (&r->args->reader_bytes, now - r->counted);
      r->counted = now;
    }
  if (!ok && *why == NULL)
    *why = "the trace file changed since it was read";
  return ok;
}
