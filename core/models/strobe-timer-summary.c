/* strobe-timer-summary.c — see the header. A packed block is, for each name that has
 * scopes in it, LEB128 varints: name id, count, inclusive total, exclusive total, min,
 * max − min, the number of histogram buckets (StrobeDurationSketch's), the bytes they
 * take (always 3 bytes: below), then the buckets in order (below). A block ends with the
 * name END. About 0.85 B a scope on
 * strobe-bench-scale's workload (300 names in every block, durations spread wide: half
 * the scopes of a block have a bucket of their own).
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-timer-summary.h"

#include "strobe-duration-sketch.h"
#include "strobe-give-way.h"
#include "strobe-scope-track.h"
#include "strobe-stream-copy.h"
#include "strobe-timer-stats-private.h"

#include <string.h>

#define END     G_MAXUINT32
#define BUCKET_BITS 13
G_STATIC_ASSERT (STROBE_DURATION_SKETCH_BUCKETS <= (1u << BUCKET_BITS));
/* Slots are < STROBE_TIMER_SUMMARY_SCOPES: with the bucket, a key fits 27 bits. */
#define KEY_BITS 27
G_STATIC_ASSERT (STROBE_TIMER_SUMMARY_SCOPES <= (1u << (KEY_BITS - BUCKET_BITS)));

typedef struct
{
  guint32 name;
  guint32 count;
  guint64 incl, excl, min, max;
} Slot;

/* The block being built: each name's totals in a slot found through a small
 * open-addressing index (it grows with the names, so a track with a handful of scopes
 * keeps a handful), and each scope's (slot, bucket) key, sorted when the block is packed
 * (or, when every name's durations span few buckets, counted in a table per name).
 * Counting the buckets in a table instead missed the cache for nearly every scope (the
 * tables of tens of tracks filling at once). */
struct _StrobeTimerSummaryBuilder
{
  guint    chunks;
  Slot    *slots;
  guint    n_slots, slots_cap;
  guint32 *name_index;     /* slot + 1, 0 empty */
  guint    name_mask;
  guint32 *keys;           /* slot << BUCKET_BITS | bucket, one per scope */
  guint    n_keys, keys_cap;
  /* Slot + 1 by name for names below DIRECT (0: none yet), before the index: the lookup
   * and the slot's name compared missed the cache most. */
  guint16 *direct;
  guint    direct_len;
};

#define DIRECT 4096u
G_STATIC_ASSERT (STROBE_TIMER_SUMMARY_SCOPES < G_MAXUINT16);

/* The product's upper half: every bit of the name reaches the index. */
static inline guint
hash32 (guint32 k)
{
  return (guint) (((guint64) k * 0x9E3779B97F4A7C15ull) >> 32);
}

static gsize
builder_bytes (const StrobeTimerSummaryBuilder *b)
{
  return sizeof *b + b->slots_cap * sizeof (Slot) + (b->name_mask + 1) * 4 + b->keys_cap * 4 + b->direct_len * 2;
}

static StrobeTimerSummaryBuilder *
builder_new (void)
{
  StrobeTimerSummaryBuilder *b = g_new0 (StrobeTimerSummaryBuilder, 1);

  b->slots_cap = 16;
  b->slots = g_new (Slot, b->slots_cap);
  b->name_mask = 31;
  b->name_index = g_new0 (guint32, b->name_mask + 1);
  return b;
}

static void
builder_free (StrobeTimerSummaryBuilder *b)
{
  if (b == NULL)
    return;
  g_free (b->slots);
  g_free (b->name_index);
  g_free (b->keys);
  g_free (b->direct);
  g_free (b);
}

static void
names_grow (StrobeTimerSummaryBuilder *b)
{
  guint mask = b->name_mask * 2 + 1;
  guint32 *index = g_new0 (guint32, mask + 1);

  for (guint s = 0; s < b->n_slots; s++)
    {
      guint h = hash32 (b->slots[s].name) & mask;
      while (index[h])
        h = (h + 1) & mask;
      index[h] = s + 1;
    }
  g_free (b->name_index);
  b->name_index = index;
  b->name_mask = mask;
}

static inline guint
slot_of (StrobeTimerSummaryBuilder *b, guint32 name, guint64 incl)
{
  guint h = hash32 (name) & b->name_mask;
  Slot *s;

  for (;;)
    {
      guint32 i = b->name_index[h];
      if (i == 0)
        break;
      if (b->slots[i - 1].name == name)
        return i - 1;
      h = (h + 1) & b->name_mask;
    }
  if (b->n_slots == b->slots_cap)
    {
      b->slots_cap *= 2;
      b->slots = g_renew (Slot, b->slots, b->slots_cap);
    }
  s = &b->slots[b->n_slots];
  *s = (Slot) { name, 0, 0, 0, incl, incl };
  b->name_index[h] = ++b->n_slots;
  if (b->n_slots * 2 > b->name_mask)
    names_grow (b);
  return b->n_slots - 1;
}

/* @keys sorted by slot, then by bucket: a counting pass by bucket over the block's span
 * of buckets (@lo to @hi), then placed by slot — each slot's count is known (@at: where
 * each slot's keys start), so that pass needs no count of its own; @tmp as large,
 * @count MAX (@hi − @lo + 2, @n_slots) long. */
static void
keys_sort (guint32 *keys, guint32 *tmp, guint32 *count, guint n, const guint32 *at, guint n_slots, guint lo, guint hi)
{
  const guint32 mask = (1u << BUCKET_BITS) - 1;
  guint range = hi - lo + 1;

  memset (count, 0, (range + 1) * sizeof *count);

  for (guint i = 0; i < n; i++)
    count[(keys[i] & mask) - lo + 1]++;
  for (guint k = 1; k <= range; k++)
    count[k] += count[k - 1];
  for (guint i = 0; i < n; i++)
    tmp[count[(keys[i] & mask) - lo]++] = keys[i];
  memcpy (count, at, n_slots * sizeof *count);
  for (guint i = 0; i < n; i++)
    keys[count[tmp[i] >> BUCKET_BITS]++] = tmp[i];
}

/* A name's totals, before its buckets. */
static inline guint8 *
put_slot (guint8 *o, const Slot *sl)
{
  o = strobe_scope_put_varint (o, sl->name);
  o = strobe_scope_put_varint (o, sl->count);
  o = strobe_scope_put_varint (o, sl->incl);
  o = strobe_scope_put_varint (o, sl->excl);
  o = strobe_scope_put_varint (o, sl->min);
  return strobe_scope_put_varint (o, sl->max - sl->min);
}

/* Room for the bytes of a name's buckets, filled in once they are written: a varint of
 * three bytes whatever the value (LEB128 lets a value carry leading zero groups; a
 * name's buckets take at most 16 384 × 4 bytes < 2^21). A reader that wants only a
 * name's count or longest jumps its buckets with it — on the scale workload they are
 * nine tenths of a block (Ctrl+F and a name's longest read every block of a 1 B trace). */
static inline void
put_length3 (guint8 *at, gsize len)
{
  at[0] = (guint8) (len | 0x80);
  at[1] = (guint8) ((len >> 7) | 0x80);
  at[2] = (guint8) (len >> 14);
}

/* One name's buckets in order, after their number and bytes: (bucket − the previous one) × 2, + 1
 * when a count > 1 follows (most buckets of a block hold one scope: one byte then), then
 * the count. From @n keys sorted by bucket. */
static guint8 *
put_sorted (guint8 *o, const guint32 *keys, guint n)
{
  const guint32 mask = (1u << BUCKET_BITS) - 1;
  guint pairs = 0, prev = 0;
  guint8 *start;

  for (guint i = 0; i < n; i++)
    pairs += i == 0 || keys[i] != keys[i - 1];
  o = strobe_scope_put_varint (o, pairs);
  start = o += 3;
  for (guint i = 0; i < n;)
    {
      guint32 key = keys[i], bucket = key & mask, c = 0;
      while (i < n && keys[i] == key)
        i++, c++;
      o = strobe_scope_put_varint (o, (guint64) (bucket - prev) << 1 | (c > 1));
      if (c > 1)
        o = strobe_scope_put_varint (o, c);
      prev = bucket;
    }
  put_length3 (start - 3, (gsize) (o - start));
  return o;
}

/* The same from a count per bucket of the name's span (@lo to @lo + @range − 1). */
static guint8 *
put_counted (guint8 *o, const guint16 *hist, guint lo, guint range)
{
  guint prev = 0, pairs = 0;
  guint8 *start;

  for (guint k = 0; k < range; k++)
    pairs += hist[k] != 0;
  o = strobe_scope_put_varint (o, pairs);
  start = o += 3;
  for (guint k = 0; k < range; k++)
    if (hist[k])
      {
        guint c = hist[k];
        o = strobe_scope_put_varint (o, (guint64) (lo + k - prev) << 1 | (c > 1));
        if (c > 1)
          o = strobe_scope_put_varint (o, c);
        prev = lo + k;
      }
  put_length3 (start - 3, (gsize) (o - start));
  return o;
}

/* Whether a name's buckets are counted in a table over its span rather than sorted: the
 * span is not much wider than its scopes (a deep track of a few names). */
static inline gboolean
slot_dense (guint count, guint lo, guint hi)
{
  return hi - lo + 1 <= 2 * count + 64;
}

/* builder_pack's working buffers, one set per thread that packs (the summary worker,
 * or the model's own), kept from block to block: allocated and freed per block (16 384
 * scopes), glibc gave their pages back to the kernel and faulted them in again, each
 * return a TLB shootdown that interrupted the other core too — a tenth of the open of
 * a 100 M-scope trace (tests/bench/README.md). At most a block's worth: ~0.3 MiB. */
typedef struct
{
  gpointer p;
  gsize    cap;
} Buf;

typedef struct
{
  Buf out, at, tmp, count, off, hist;
} Scratch;

static void
scratch_free (gpointer data)
{
  Scratch *s = data;

  g_free (s->out.p);
  g_free (s->at.p);
  g_free (s->tmp.p);
  g_free (s->count.p);
  g_free (s->off.p);
  g_free (s->hist.p);
  g_free (s);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

static Scratch *
scratch_get (void)
{
  Scratch *s = g_private_get (&scratch_key);

  if (s == NULL)
    {
      s = g_new0 (Scratch, 1);
      g_private_set (&scratch_key, s);
    }
  return s;
}

/* @bytes of @b, its contents undefined. */
static gpointer
buf_get (Buf *b, gsize bytes)
{
  if (bytes > b->cap)
    {
      g_free (b->p);
      b->cap = MAX (bytes, b->cap * 2);
      b->p = g_malloc (b->cap);
    }
  return b->p;
}

/* The block in its packed form (@len bytes, the calling thread's until it packs again);
 * the builder emptied for the next. */
static const guint8 *
builder_pack (StrobeTimerSummaryBuilder *b, gsize *len)
{
  Scratch *sc = scratch_get ();
  /* At most: 5 + 5 + 4 × 10 + 3 + 3 bytes a name, 2 + 2 a bucket (both < 2^14), the end. */
  guint8 *out = buf_get (&sc->out, b->n_slots * 56 + b->n_keys * 4 + 5), *o = out;
  const guint32 mask = (1u << BUCKET_BITS) - 1;
  guint32 *at = buf_get (&sc->at, (b->n_slots + 1) * sizeof (guint32));
  guint lo = mask, hi = 0;
  gboolean dense = TRUE;

  at[0] = 0;
  if (b->n_slots == 0)
    lo = 0;
  for (guint s = 0; s < b->n_slots; s++)
    {
      const Slot *sl = &b->slots[s];
      guint slo = strobe_duration_sketch_bucket (sl->min), shi = strobe_duration_sketch_bucket (sl->max);

      at[s + 1] = at[s] + sl->count;
      lo = MIN (lo, slo);
      hi = MAX (hi, shi);
      dense = dense && slot_dense (sl->count, slo, shi);
    }
  if (dense)
    {
      /* Few names, each over a narrow span: a count per bucket of each one's span, the
       * spans side by side, filled in one pass over the keys — no sort. */
      guint32 *off = buf_get (&sc->off, MAX (b->n_slots, 1) * sizeof (guint32));
      guint16 *hist;
      guint total = 0;

      for (guint s = 0; s < b->n_slots; s++)
        {
          guint slo = strobe_duration_sketch_bucket (b->slots[s].min);
          /* Modulo 2^32: a bucket plus its slot's offset is its place in the table. */
          off[s] = total - slo;
          total += strobe_duration_sketch_bucket (b->slots[s].max) - slo + 1;
        }
      hist = buf_get (&sc->hist, MAX (total, 1) * sizeof (guint16));
      memset (hist, 0, total * sizeof (guint16));
      for (guint i = 0; i < b->n_keys; i++)
        hist[(b->keys[i] & mask) + off[b->keys[i] >> BUCKET_BITS]]++;
      for (guint s = 0; s < b->n_slots; s++)
        {
          const Slot *sl = &b->slots[s];
          guint slo = strobe_duration_sketch_bucket (sl->min);

          o = put_slot (o, sl);
          o = put_counted (o, hist + (guint32) (off[s] + slo), slo, strobe_duration_sketch_bucket (sl->max) - slo + 1);
        }
    }
  else
    {
      guint32 *tmp = buf_get (&sc->tmp, (b->n_keys + 1) * sizeof (guint32));
      guint32 *count = buf_get (&sc->count, MAX (hi - lo + 2, b->n_slots) * sizeof (guint32));

      keys_sort (b->keys, tmp, count, b->n_keys, at, b->n_slots, lo, hi);
      for (guint s = 0; s < b->n_slots; s++)
        {
          const Slot *sl = &b->slots[s];

          o = put_slot (o, sl);
          o = put_sorted (o, b->keys + at[s], sl->count);
        }
    }
  o = strobe_scope_put_varint (o, END);
  memset (b->name_index, 0, (b->name_mask + 1) * sizeof (guint32));
  for (guint s = 0; s < b->n_slots; s++)
    if (b->slots[s].name < b->direct_len)
      b->direct[b->slots[s].name] = 0;
  b->n_slots = b->n_keys = 0;
  b->chunks = 0;
  *len = (gsize) (o - out);
  return out;
}

/* @name's slot when the direct table has none: found (or made) through the hashed index,
 * and put in the direct table when it is low enough. */
static guint
slot_new (StrobeTimerSummaryBuilder *b, guint32 name, guint64 incl)
{
  guint slot = slot_of (b, name, incl);

  if (name < DIRECT)
    {
      if (name >= b->direct_len)
        {
          guint len = MIN (DIRECT, MAX (name + 1, b->direct_len * 2));
          b->direct = g_renew (guint16, b->direct, len);
          memset (b->direct + b->direct_len, 0, (len - b->direct_len) * sizeof (guint16));
          b->direct_len = len;
        }
      b->direct[name] = (guint16) (slot + 1);
    }
  return slot;
}

static gint test_shift = STROBE_TIMER_SUMMARY_CHUNKS_SHIFT;

void
strobe_timer_summary_set_test_shift (guint chunks_shift)
{
  g_atomic_int_set (&test_shift, MIN (chunks_shift, STROBE_TIMER_SUMMARY_CHUNKS_SHIFT));
}

StrobeTimerSummary *
strobe_timer_summary_new (void)
{
  StrobeTimerSummary *self = g_new0 (StrobeTimerSummary, 1);

  self->shift = (guint) g_atomic_int_get (&test_shift);
  g_mutex_init (&self->lock);
  self->blocks = g_ptr_array_new ();
  self->bytes = sizeof *self;
  return self;
}

void
strobe_timer_summary_free (StrobeTimerSummary *self)
{
  if (self == NULL)
    return;
  builder_free (self->build);
  g_ptr_array_unref (self->blocks);
  g_mutex_clear (&self->lock);
  g_free (self);
}

void
strobe_timer_summary_add_chunk (StrobeTimerSummary *self, guint ci, const StrobeTimerSummaryScope *scopes,
                                StrobeTimerSummaryStore store, gpointer store_data)
{
  StrobeTimerSummaryBuilder *b;

  if (self->stopped)
    return;
  /* A chunk out of turn (a block was dropped, or a chunk skipped): stop rather than
   * summarise the wrong scopes. */
  if (ci != (self->blocks->len << self->shift) + (self->build ? self->build->chunks : 0))
    {
      strobe_timer_summary_pause (self, G_MAXUINT, NULL, NULL);
      return;
    }
  if (self->build == NULL)
    {
      self->build = builder_new ();
      self->bytes += builder_bytes (self->build);
    }
  b = self->build;
  self->bytes -= builder_bytes (b);
  if (b->n_keys + STROBE_SCOPE_CHUNK > b->keys_cap)
    {
      b->keys_cap = MAX (b->keys_cap * 2, STROBE_SCOPE_CHUNK);
      b->keys = g_renew (guint32, b->keys, b->keys_cap);
    }
  /* In passes, so the track's tables (tens of tracks fill at once: theirs are rarely in
   * cache) are fetched 128 lines at a time rather than one miss after another. */
  for (guint i = 0; i < STROBE_SCOPE_CHUNK; i++)
    if (scopes[i].name >= b->direct_len)
      __builtin_prefetch (&b->name_index[hash32 (scopes[i].name) & b->name_mask]);
  for (guint i = 0; i < STROBE_SCOPE_CHUNK; i++)
    {
      guint32 name = scopes[i].name;
      guint64 incl = scopes[i].incl;
      guint slot;
      Slot *s;

      if (G_LIKELY (name < b->direct_len && b->direct[name]))
        slot = b->direct[name] - 1u;
      else
        slot = slot_new (b, name, incl);
      s = &b->slots[slot];
      s->count++;
      s->incl += incl;
      s->excl += scopes[i].excl;
      s->min = MIN (s->min, incl);
      s->max = MAX (s->max, incl);
      b->keys[b->n_keys++] = (guint32) slot << BUCKET_BITS | strobe_duration_sketch_bucket (incl);
    }
  self->bytes += builder_bytes (b);
  if (++b->chunks == 1u << self->shift)
    {
      gsize len;
      const guint8 *packed = builder_pack (b, &len);
      const guint8 *kept = store (store_data, packed, len);

      if (kept == NULL)
        {
          strobe_timer_summary_pause (self, G_MAXUINT, NULL, NULL);
          return;
        }
      /* Readers may be looking up earlier blocks: the array may move. */
      g_mutex_lock (&self->lock);
      g_ptr_array_add (self->blocks, (gpointer) kept);
      g_mutex_unlock (&self->lock);
      __atomic_store_n (&self->published, self->blocks->len, __ATOMIC_RELEASE);
      self->bytes += sizeof (gpointer);
    }
}

void
strobe_timer_summary_pause (StrobeTimerSummary *self, guint next_ci, StrobeTimerSummaryStore store,
                            gpointer store_data)
{
  if (self->build)
    {
      StrobeTimerSummaryBuilder *b = self->build;

      if (store && !self->stopped && self->tail == NULL && b->chunks > 0
          && next_ci == (self->blocks->len << self->shift) + b->chunks)
        {
          guint chunks = b->chunks;
          gsize len;
          const guint8 *packed = builder_pack (b, &len);
          const guint8 *kept = store (store_data, packed, len);

          if (kept)
            {
              g_mutex_lock (&self->lock);
              self->tail = kept;
              self->tail_chunks = chunks;
              g_mutex_unlock (&self->lock);
            }
        }
      self->bytes -= builder_bytes (self->build);
      g_clear_pointer (&self->build, builder_free);
    }
  if (next_ci != self->blocks->len << self->shift)
    self->stopped = TRUE;
}

guint
strobe_timer_summary_tail_chunks (const StrobeTimerSummary *self)
{
  StrobeTimerSummary *locked = (StrobeTimerSummary *) self;
  guint n;

  if (self == NULL)
    return 0;
  g_mutex_lock (&locked->lock);
  n = self->tail ? self->tail_chunks : 0;
  g_mutex_unlock (&locked->lock);
  return n;
}

guint64
strobe_timer_summary_merge_block (const StrobeTimerSummary *self, guint k, gpointer accs, gpointer hists,
                                  guint n_names, GArray *few)
{
  StrobeTimerSummary *locked = (StrobeTimerSummary *) self;
  const guint8 *d;
  StrobeTimerAcc *acc = accs;
  StrobeDurationSketch *hist = hists;
  guint64 scopes = 0;

  g_mutex_lock (&locked->lock);
  d = k < self->blocks->len ? self->blocks->pdata[k] : self->tail;
  g_mutex_unlock (&locked->lock);
  for (;;)
    {
      guint64 name = strobe_scope_get_varint (&d), count, incl, excl, min, max, pairs, bytes;
      StrobeTimerAcc *a;

      if (name == END)
        break;
      count = strobe_scope_get_varint (&d);
      incl = strobe_scope_get_varint (&d);
      excl = strobe_scope_get_varint (&d);
      min = strobe_scope_get_varint (&d);
      max = min + strobe_scope_get_varint (&d);
      pairs = strobe_scope_get_varint (&d);
      bytes = strobe_scope_get_varint (&d);
      scopes += count;
      if (name >= n_names)
        {
          /* A name the query does not know yet (it came after it began): skipped. */
          d += bytes;
          continue;
        }
      a = &acc[name];
      if (a->count == 0)
        a->min = min, a->max = max;
      a->count += count;
      a->inclusive += incl;
      a->exclusive += excl;
      a->min = MIN (a->min, min);
      a->max = MAX (a->max, max);
      if (a->count <= STROBE_DURATION_SKETCH_EXACT)
        {
          guint32 n = (guint32) name;
          g_array_append_val (few, n);
        }
      for (guint64 p = 0, bucket = 0; p < pairs; p++)
        {
          guint64 v = strobe_scope_get_varint (&d);

          bucket += v >> 1;
          strobe_duration_sketch_add_bucket (&hist[name], (guint) MIN (bucket, STROBE_DURATION_SKETCH_BUCKETS - 1),
                                             v & 1 ? strobe_scope_get_varint (&d) : 1);
        }
    }
  return scopes;
}

guint64
strobe_timer_summary_block_count (const StrobeTimerSummary *self, guint k, const guint8 *wanted, guint32 first,
                                  guint32 n, guint32 n_set, guint64 *longest)
{
  StrobeTimerSummary *locked = (StrobeTimerSummary *) self;
  const guint8 *d;
  guint64 found = 0, max = 0;
  guint32 seen = 0;

  g_mutex_lock (&locked->lock);
  d = k < self->blocks->len ? self->blocks->pdata[k] : self->tail;
  g_mutex_unlock (&locked->lock);
  for (;;)
    {
      guint64 name = strobe_scope_get_varint (&d), count, min, spread;

      if (name == END)
        break;
      count = strobe_scope_get_varint (&d);
      (void) strobe_scope_get_varint (&d);
      (void) strobe_scope_get_varint (&d);
      min = strobe_scope_get_varint (&d);
      spread = strobe_scope_get_varint (&d);
      if (name >= first && name - first < n && wanted[name - first])
        {
          found += count;
          max = MAX (max, min + spread);
          /* A name comes once a block. */
          if (++seen == n_set)
            break;
        }
      (void) strobe_scope_get_varint (&d);
      d += strobe_scope_get_varint (&d);
    }
  if (longest)
    *longest = max;
  return found;
}

/* ---- blocks built on a thread of their own ------------------------------------------ */

/* The worker is woken when this many chunks wait (or a pause or a wait comes): waking it
 * for each chunk cost a futex call a chunk on both threads (at 16, perf still put 3 % of
 * the model's thread in the wake and the switch). The worker builds faster than the
 * model fills, so it sleeps once per WAKE_AT chunks: at a quarter of the queue that was
 * 2 200 switches per 10 M scopes when the two threads shared a core; at three quarters
 * 780 and 4 % less CPU in all, the last quarter left for the wake-up's latency. */
#define WAKE_AT (STROBE_TIMER_SUMMARY_QUEUE * 3 / 4)

/* The chunks' scopes the worker has read go back to the tracks oldest first, and only
 * while SPARE_AGE more wait behind them. The model's thread writes 24 bytes a scope into
 * them; the array the worker finished last (what the tracks took before) still sat in the
 * other core's cache, so each line the model wrote waited on that core giving it up: at
 * 10 M scopes the model's thread took 135 ms with the worker on its own core and 190–200
 * with it on the other. A queue's worth later (3 MiB) the lines have left that core's
 * cache; 256 chunks later was slower. */
#define SPARE_AGE  STROBE_TIMER_SUMMARY_QUEUE
#define SPARE_RING (SPARE_AGE + 256u)

typedef struct
{
  StrobeTimerSummary     *summary;
  guint                   ci;
  gboolean                pause;     /* strobe_timer_summary_pause (ci: its next_ci) */
  StrobeTimerSummaryScope *scopes;   /* a chunk's, handed over (NULL for a pause) */
} Job;

struct _StrobeTimerSummaryWorker
{
  GMutex     lock;
  GCond      cond;
  Job       *ring;                   /* STROBE_TIMER_SUMMARY_QUEUE */
  guint64    head, tail;             /* jobs queued, jobs done (under lock) */
  gboolean   quit;
  gboolean   worker_sleeps;          /* waiting for work */
  gboolean   queuer_sleeps;          /* waiting for room, or for all to be done */
  /* Chunks' scopes built, for the tracks to fill again (SPARE_RING, oldest at tail). */
  StrobeTimerSummaryScope **spare;
  guint64    spare_head, spare_tail;
  GThread   *thread;
  StrobeTimerSummaryStore store;     /* called on the worker's thread alone */
  gpointer   store_data;
  gint64     bytes;                  /* atomic: the change since take_bytes */
};

static gint apart = -1;

gboolean
strobe_timer_summary_apart (void)
{
  gint a = g_atomic_int_get (&apart);

  if (a >= 0)
    return a;
  return g_strcmp0 (g_getenv ("STROBE_TIMER_SUMMARY_ASYNC"), "0") != 0;
}

void
strobe_timer_summary_set_test_apart (gint a)
{
  g_atomic_int_set (&apart, a < 0 ? -1 : !!a);
}

static const guint8 *
worker_store (gpointer data, const guint8 *bytes, gsize len)
{
  StrobeTimerSummaryWorker *w = data;
  const guint8 *to = w->store (w->store_data, bytes, len);

  if (to)
    __atomic_fetch_add (&w->bytes, (gint64) len, __ATOMIC_RELAXED);
  return to;
}

static void
job_run (StrobeTimerSummaryWorker *w, Job *j)
{
  gsize before = j->summary->bytes;

  strobe_give_way ();
  if (j->pause)
    strobe_timer_summary_pause (j->summary, j->ci, worker_store, w);
  else
    strobe_timer_summary_add_chunk (j->summary, j->ci, j->scopes, worker_store, w);
  __atomic_fetch_add (&w->bytes, (gint64) j->summary->bytes - (gint64) before, __ATOMIC_RELAXED);
}

static gpointer
worker_main (gpointer data)
{
  StrobeTimerSummaryWorker *w = data;

  g_mutex_lock (&w->lock);
  for (;;)
    {
      Job *j;

      while (w->tail == w->head && !w->quit)
        {
          w->worker_sleeps = TRUE;
          g_cond_wait (&w->cond, &w->lock);
        }
      w->worker_sleeps = FALSE;
      if (w->quit)
        break;
      /* The slot is not reused before tail passes it. */
      j = &w->ring[w->tail % STROBE_TIMER_SUMMARY_QUEUE];
      g_mutex_unlock (&w->lock);
      job_run (w, j);
      g_mutex_lock (&w->lock);
      if (j->scopes && w->spare_head - w->spare_tail < SPARE_RING)
        w->spare[w->spare_head++ % SPARE_RING] = j->scopes;
      else
        g_free (j->scopes);
      w->tail++;
      /* Room for half a queue (not a wake per chunk), or all done. */
      if (w->queuer_sleeps
          && (w->head - w->tail <= STROBE_TIMER_SUMMARY_QUEUE / 2 || w->head == w->tail))
        g_cond_broadcast (&w->cond);
    }
  g_mutex_unlock (&w->lock);
  return NULL;
}

StrobeTimerSummaryWorker *
strobe_timer_summary_worker_new (StrobeTimerSummaryStore store, gpointer store_data)
{
  StrobeTimerSummaryWorker *w = g_new0 (StrobeTimerSummaryWorker, 1);

  g_mutex_init (&w->lock);
  g_cond_init (&w->cond);
  w->store = store;
  w->store_data = store_data;
  w->bytes = sizeof *w;
  return w;
}

void
strobe_timer_summary_worker_idle (StrobeTimerSummaryWorker *w)
{
  if (w->thread == NULL)
    return;
  g_mutex_lock (&w->lock);
  w->quit = TRUE;
  g_cond_broadcast (&w->cond);
  g_mutex_unlock (&w->lock);
  g_thread_join (g_steal_pointer (&w->thread));
  /* What was queued is dropped. */
  for (; w->tail != w->head; w->tail++)
    g_free (w->ring[w->tail % STROBE_TIMER_SUMMARY_QUEUE].scopes);
  w->quit = FALSE;
  g_clear_pointer (&w->ring, g_free);
  for (; w->spare_tail != w->spare_head; w->spare_tail++)
    g_free (w->spare[w->spare_tail % SPARE_RING]);
  g_clear_pointer (&w->spare, g_free);
}

void
strobe_timer_summary_worker_free (StrobeTimerSummaryWorker *w)
{
  if (w == NULL)
    return;
  strobe_timer_summary_worker_idle (w);
  g_cond_clear (&w->cond);
  g_mutex_clear (&w->lock);
  g_free (w);
}

/* A free slot (waiting for one when the worker is a queue behind); @spare: a chunk's
 * scopes to fill again, when one is wanted. */
static Job *
queue_slot (StrobeTimerSummaryWorker *w, StrobeTimerSummaryScope **spare)
{
  Job *j;

  if (w->thread == NULL)
    {
      /* The queue, the chunks' scopes in it and the spares are working memory while the
       * trace is read (≤ 7 MiB), not counted with what the summaries keep, and freed
       * when it ends. */
      w->ring = g_new (Job, STROBE_TIMER_SUMMARY_QUEUE);
      w->spare = g_new (StrobeTimerSummaryScope *, SPARE_RING);
      w->thread = g_thread_new ("strobe-summary", worker_main, w);
    }
  g_mutex_lock (&w->lock);
  while (w->head - w->tail == STROBE_TIMER_SUMMARY_QUEUE)
    {
      w->queuer_sleeps = TRUE;
      if (w->worker_sleeps)
        g_cond_broadcast (&w->cond);
      g_cond_wait (&w->cond, &w->lock);
    }
  w->queuer_sleeps = FALSE;
  j = &w->ring[w->head % STROBE_TIMER_SUMMARY_QUEUE];
  if (spare)
    *spare = w->spare_head - w->spare_tail > SPARE_AGE ? w->spare[w->spare_tail++ % SPARE_RING] : NULL;
  g_mutex_unlock (&w->lock);
  if (spare && *spare == NULL)
    *spare = g_new (StrobeTimerSummaryScope, STROBE_SCOPE_CHUNK);
  return j;
}

static void
queue_push (StrobeTimerSummaryWorker *w, gboolean wake)
{
  g_mutex_lock (&w->lock);
  w->head++;
  if (w->worker_sleeps && (wake || w->head - w->tail >= WAKE_AT))
    g_cond_broadcast (&w->cond);
  g_mutex_unlock (&w->lock);
}

void
strobe_timer_summary_worker_add_chunk (StrobeTimerSummaryWorker *w, StrobeTimerSummary *summary, guint ci,
                                       StrobeTimerSummaryScope **scopes)
{
  StrobeTimerSummaryScope *spare;
  Job *j = queue_slot (w, &spare);

  j->summary = summary;
  j->ci = ci;
  j->pause = FALSE;
  if (strobe_cores_far ())
    {
      /* The spare's lines are in the far core's cache (however old it is), and the model's
       * thread would wait on each as it wrote its scopes in: the track keeps its array,
       * and a copy goes around the caches (strobe-stream-copy.h). */
      strobe_stream_copy (spare, *scopes, STROBE_SCOPE_CHUNK * sizeof **scopes);
      strobe_stream_fence ();
      j->scopes = spare;
    }
  else
    {
      /* Handed over rather than copied: the copy was 4 % of the model's thread. */
      j->scopes = *scopes;
      *scopes = spare;
    }
  queue_push (w, FALSE);
}

void
strobe_timer_summary_worker_pause (StrobeTimerSummaryWorker *w, StrobeTimerSummary *summary, guint next_ci)
{
  Job *j = queue_slot (w, NULL);

  j->summary = summary;
  j->ci = next_ci;
  j->pause = TRUE;
  j->scopes = NULL;
  queue_push (w, TRUE);
}

void
strobe_timer_summary_worker_wait (StrobeTimerSummaryWorker *w)
{
  g_mutex_lock (&w->lock);
  while (w->tail != w->head)
    {
      w->queuer_sleeps = TRUE;
      if (w->worker_sleeps)
        g_cond_broadcast (&w->cond);
      g_cond_wait (&w->cond, &w->lock);
    }
  w->queuer_sleeps = FALSE;
  g_mutex_unlock (&w->lock);
}

void
strobe_timer_summary_wait (const StrobeTimerSummary *summary)
{
  if (summary && summary->worker)
    strobe_timer_summary_worker_wait (summary->worker);
}

gint64
strobe_timer_summary_worker_take_bytes (StrobeTimerSummaryWorker *w)
{
  return __atomic_exchange_n (&w->bytes, 0, __ATOMIC_RELAXED);
}
