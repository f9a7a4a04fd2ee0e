/* strobe-timeline-tiles.c
 *
 * One thread pool for every timeline of the process: jobs carry what they draw (a copy
 * of the spec and a reference on the model) and a reference on their cache; the result
 * comes back to the main context, where it is dropped if the cache is gone or the tile no
 * longer waits for that job (a newer request, a new epoch). The newest request is drawn
 * first: what is on screen now matters more than what was a moment ago.
 *
 * That order is two stacks (on screen, prefetch) of our own, not the pool's sorted queue:
 * GLib inserts into a sorted queue by walking it, and a zoom that cancels and asks again
 * every frame leaves thousands of cancelled jobs queued (a worker drops them only when it
 * reaches them) — eight timelines asking for their tiles spent 50 ms of one frame in that
 * walk (strobe-bench-group). The pool is handed tokens, at most one per worker waiting;
 * a worker takes the best job there is until there is none, so a push costs the same with
 * ten thousand queued, and a frame that asks for a hundred tiles wakes a worker once.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>

#include "strobe-give-way.h"
#include "strobe-timeline-background.h"
#include "strobe-timeline-geometry.h"
#include "strobe-timeline-tiles.h"

/* Tile pictures kept beyond those on screen. */
#define BUDGET_BYTES (48u * 1024 * 1024)

typedef struct _Job Job;

typedef struct
{
  StrobeTileKey key;
  cairo_surface_t *surface;   /* the picture, never changed once made */
  GskRenderNode *node;        /* how it is drawn (made on first use) */
  guint64       t0, t1;       /* the time it spans */
  guint64       generation;   /* the model's when it was asked for */
  gboolean      open_end;     /* it reached the model's last time then */
  gboolean      stale;
  gboolean      again;        /* went out of date while its job ran */
  Job          *job;
  guint64       used;
  gsize         bytes;
} Tile;

struct _StrobeTileCache
{
  gint                 ref;
  gboolean             dead;
  StrobeTimelineModel *model;
  GMainContext        *context;
  StrobeTileReadyFunc  ready;
  gpointer             ready_data;
  StrobeTileEpoch      epoch;
  gboolean             have_epoch;
  StrobeTileEpoch      prev_epoch;
  GHashTable          *tiles;       /* StrobeTileKey -> Tile, this epoch */
  GHashTable          *previous;    /* the previous epoch's drawn tiles */
  guint                pending;
  guint64              frame;
  gsize                bytes;
  StrobeTileCounts     counts;
  /* The model as the frame last read it (read_model): a request never waits on the
   * model's lock, which the reading thread holds while it adds a batch. */
  guint64              model_generation;
  gboolean             model_complete;
  gboolean             model_have_time;
  guint64              model_last;
};

struct _Job
{
  gboolean             prefetch;
  StrobeTileCache     *cache;
  StrobeTileKey        key;
  StrobeTileSpec       spec;
  StrobeTimelineModel *model;
  gint                 cancelled;
  cairo_surface_t     *result;
};

static GThreadPool *pool;
static GMutex queue_lock;
static GQueue shown_jobs = G_QUEUE_INIT;      /* newest at the head */
static GQueue prefetch_jobs = G_QUEUE_INIT;

static guint
key_hash (gconstpointer p)
{
  const StrobeTileKey *k = p;
  guint64 h = (guint64) k->tx * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);

  h ^= ((guint64) k->id << 32) ^ ((guint64) k->ty << 16) ^ ((guint64) k->kind << 8) ^ k->collapsed;
  h ^= ((guint64) k->depths << 40) ^ k->variant;
  h ^= h >> 29;
  return (guint) h ^ (guint) (h >> 32);
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (StrobeTileKey)) == 0;
}

static void
tile_free (gpointer data)
{
  Tile *t = data;

  if (t->job)
    g_atomic_int_set (&t->job->cancelled, 1);
  g_clear_pointer (&t->node, gsk_render_node_unref);
  g_clear_pointer (&t->surface, cairo_surface_destroy);
  g_free (t);
}

static StrobeTileCache *
cache_ref (StrobeTileCache *cache)
{
  g_atomic_int_inc (&cache->ref);
  return cache;
}

static void
cache_unref (StrobeTileCache *cache)
{
  if (!g_atomic_int_dec_and_test (&cache->ref))
    return;
  g_hash_table_unref (cache->tiles);
  g_hash_table_unref (cache->previous);
  g_object_unref (cache->model);
  g_main_context_unref (cache->context);
  g_free (cache);
}

static void
job_free (Job *job)
{
  strobe_tile_spec_clear (&job->spec);
  g_clear_pointer (&job->result, cairo_surface_destroy);
  g_object_unref (job->model);
  cache_unref (job->cache);
  g_free (job);
}

static gboolean
job_done (gpointer data)
{
  Job *job = data;
  StrobeTileCache *cache = job->cache;
  Tile *tile;

  if (cache->dead)
    goto out;
  tile = g_hash_table_lookup (cache->tiles, &job->key);
  if (tile == NULL || tile->job != job)
    goto out;
  tile->job = NULL;
  cache->pending--;
  if (job->result)
    {
      cairo_surface_t *s = job->result;

      job->result = NULL;
      cache->bytes -= tile->bytes;
      g_clear_pointer (&tile->node, gsk_render_node_unref);
      g_clear_pointer (&tile->surface, cairo_surface_destroy);
      tile->surface = s;
      tile->bytes = (gsize) cairo_image_surface_get_stride (s) * cairo_image_surface_get_height (s);
      cache->bytes += tile->bytes;
      tile->stale = tile->again;
    }
  tile->again = FALSE;
  if (cache->ready)
    cache->ready (cache->ready_data);
out:
  job_free (job);
  return G_SOURCE_REMOVE;
}

static void
run_one (Job *job)
{
  GSource *source;

  if (!g_atomic_int_get (&job->cancelled))
    job->result = strobe_timeline_paint_tile (&job->spec, job->model, &job->cancelled);
  /* Always through a source: g_main_context_invoke() would run job_done() right here, on
   * this thread, whenever the main thread is not iterating the context at that moment. */
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, job_done, job, NULL);
  g_source_set_static_name (source, "[strobe] timeline tile");
  g_source_attach (source, job->cache->context);
  g_source_unref (source);
}

/* A worker draws the best job there is until there is none. */
static void
job_run (gpointer token, gpointer user_data)
{
  for (;;)
    {
      Job *job;

      g_mutex_lock (&queue_lock);
      job = g_queue_pop_head (&shown_jobs);
      if (job == NULL)
        job = g_queue_pop_head (&prefetch_jobs);
      g_mutex_unlock (&queue_lock);
      if (job == NULL)
        return;
      strobe_give_way ();
      run_one (job);
    }
}

StrobeTileCache *
strobe_tile_cache_new (StrobeTimelineModel *model, StrobeTileReadyFunc ready, gpointer user_data)
{
  StrobeTileCache *cache;

  g_return_val_if_fail (STROBE_IS_TIMELINE_MODEL (model), NULL);

  if (g_once_init_enter (&pool))
    {
      /* A core for the main thread, the others draw (one at least). */
      GThreadPool *p = g_thread_pool_new (job_run, NULL, CLAMP ((int) g_get_num_processors () - 1, 1, 4), TRUE, NULL);
      g_once_init_leave (&pool, p);
    }
  cache = g_new0 (StrobeTileCache, 1);
  cache->ref = 1;
  cache->model = g_object_ref (model);
  cache->context = g_main_context_ref_thread_default ();
  cache->ready = ready;
  cache->ready_data = user_data;
  cache->tiles = g_hash_table_new_full (key_hash, key_equal, NULL, tile_free);
  cache->previous = g_hash_table_new_full (key_hash, key_equal, NULL, tile_free);
  strobe_tile_cache_read_model (cache);
  return cache;
}

static void
cancel_all (StrobeTileCache *cache, GHashTable *tiles)
{
  GHashTableIter it;
  Tile *t;

  g_hash_table_iter_init (&it, tiles);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &t))
    if (t->job)
      {
        g_atomic_int_set (&t->job->cancelled, 1);
        t->job = NULL;
        cache->pending--;
      }
}

void
strobe_tile_cache_cancel (StrobeTileCache *cache)
{
  g_return_if_fail (cache != NULL);

  cancel_all (cache, cache->tiles);
}

void
strobe_tile_cache_free (StrobeTileCache *cache)
{
  if (cache == NULL)
    return;
  cancel_all (cache, cache->tiles);
  cache->dead = TRUE;
  g_hash_table_remove_all (cache->tiles);
  g_hash_table_remove_all (cache->previous);
  cache_unref (cache);
}

static gboolean
epoch_equal (const StrobeTileEpoch *a, const StrobeTileEpoch *b)
{
  return a->scale == b->scale && a->origin == b->origin && a->scale_factor == b->scale_factor
         && a->scheme == b->scheme && a->highlight == b->highlight && a->frame_target == b->frame_target
         && a->dark == b->dark && a->textures == b->textures;
}

static void
recount_bytes (StrobeTileCache *cache)
{
  GHashTableIter it;
  Tile *t;

  cache->bytes = 0;
  g_hash_table_iter_init (&it, cache->tiles);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &t))
    cache->bytes += t->bytes;
  g_hash_table_iter_init (&it, cache->previous);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &t))
    cache->bytes += t->bytes;
}

void
strobe_tile_cache_read_model (StrobeTileCache *cache)
{
  g_return_if_fail (cache != NULL);

  cache->model_generation = strobe_timeline_model_get_generation (cache->model);
  cache->model_complete = strobe_timeline_model_is_complete (cache->model);
  cache->model_have_time = strobe_timeline_model_get_time_range (cache->model, NULL, &cache->model_last);
}

gboolean
strobe_tile_cache_set_epoch (StrobeTileCache *cache, const StrobeTileEpoch *epoch)
{
  GHashTableIter it;
  Tile *t;

  g_return_val_if_fail (cache != NULL && epoch != NULL, FALSE);

  if (cache->have_epoch && epoch_equal (&cache->epoch, epoch))
    return FALSE;
  cancel_all (cache, cache->tiles);
  /* The tiles drawn become stand-ins; those of the epoch before are dropped, unless this
   * epoch is that one again (zooming back). */
  g_hash_table_remove_all (cache->previous);
  g_hash_table_iter_init (&it, cache->tiles);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &t))
    {
      g_hash_table_iter_steal (&it);
      if (t->surface)
        g_hash_table_insert (cache->previous, &t->key, t);
      else
        tile_free (t);
    }
  cache->prev_epoch = cache->epoch;
  cache->epoch = *epoch;
  cache->have_epoch = TRUE;
  cache->counts.epochs++;
  recount_bytes (cache);
  return TRUE;
}

static guint64
tile_time (const StrobeTileEpoch *e, gint64 tx)
{
  return strobe_tile_time (e->scale, e->origin, STROBE_TILE_SIZE, tx);
}

static void
free_surface (gpointer data)
{
  cairo_surface_destroy (data);
}

static GskRenderNode *
make_node (StrobeTileCache *cache, Tile *tile)
{
  cairo_surface_t *s = tile->surface;
  int sf = MAX (cache->epoch.scale_factor, 1);
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, (float) w / sf, (float) h / sf);

  cache->counts.nodes_made++;

  if (cache->epoch.textures)
    {
      int stride = cairo_image_surface_get_stride (s);
      /* Cairo's ARGB32 is GDK's default (premultiplied, native order): no copy. */
      g_autoptr(GBytes) bytes = g_bytes_new_with_free_func (cairo_image_surface_get_data (s), (gsize) stride * h,
                                                            free_surface, cairo_surface_reference (s));
      g_autoptr(GdkTexture) texture = gdk_memory_texture_new (w, h, GDK_MEMORY_DEFAULT, bytes, stride);
      return gsk_texture_node_new (texture, &bounds);
    }
  else
    {
      GskRenderNode *node = gsk_cairo_node_new (&bounds);
      cairo_t *cr = gsk_cairo_node_get_draw_context (node);

      cairo_set_source_surface (cr, s, 0, 0);
      cairo_paint (cr);
      cairo_destroy (cr);
      return node;
    }
}

static Tile *
request (StrobeTileCache *cache, const StrobeTileKey *key, int height, StrobeTileFillFunc fill, gpointer fill_data,
         gboolean prefetch)
{
  Tile *tile;
  Job *job;

  tile = g_hash_table_lookup (cache->tiles, key);
  if (tile == NULL)
    {
      tile = g_new0 (Tile, 1);
      tile->key = *key;
      tile->stale = TRUE;
      tile->used = cache->frame;
      g_hash_table_insert (cache->tiles, &tile->key, tile);
    }
  if (!tile->stale || tile->job)
    return tile;

  job = g_new0 (Job, 1);
  job->cache = cache_ref (cache);
  job->key = *key;
  job->prefetch = prefetch;
  job->model = g_object_ref (cache->model);
  fill (key, &job->spec, fill_data);
  job->spec.t0 = tile_time (&cache->epoch, key->tx);
  job->spec.scale = cache->epoch.scale;
  job->spec.width = STROBE_TILE_SIZE;
  job->spec.y0 = key->ty * STROBE_TILE_SIZE;
  job->spec.height = height;
  job->spec.scale_factor = cache->epoch.scale_factor;
  job->spec.scheme = cache->epoch.scheme;
  job->spec.highlight = cache->epoch.highlight;
  job->spec.frame_target = cache->epoch.frame_target;
  job->spec.dark = cache->epoch.dark;
  tile->t0 = job->spec.t0;
  tile->t1 = tile_time (&cache->epoch, key->tx + 1);
  /* A generation older than the model's when the tile is drawn only makes the tile look
   * older than it is: it may be drawn again, never kept out of date. */
  tile->generation = cache->model_generation;
  tile->open_end = !cache->model_complete && (!cache->model_have_time || tile->t1 >= cache->model_last);
  tile->job = job;
  cache->pending++;
  /* What is on screen before what may come into view; newest first. */
  g_mutex_lock (&queue_lock);
  g_queue_push_head (prefetch ? &prefetch_jobs : &shown_jobs, job);
  g_mutex_unlock (&queue_lock);
  /* A waiting token will find this job (a worker drains the stacks); only when fewer are
   * waiting than there are workers is another needed. Waking a worker per tile, each
   * wake a system call that a loaded machine answered by handing the CPU to the worker,
   * made a first frame of eight timelines take 860 ms for 16 ms of its own work. */
  if (g_thread_pool_unprocessed (pool) < (guint) g_thread_pool_get_max_threads (pool))
    g_thread_pool_push (pool, GUINT_TO_POINTER (1), NULL);
  return tile;
}

GskRenderNode *
strobe_tile_cache_get (StrobeTileCache *cache, const StrobeTileKey *key, int height, StrobeTileFillFunc fill,
                       gpointer fill_data, gboolean *current)
{
  Tile *tile;

  g_return_val_if_fail (cache != NULL && cache->have_epoch, NULL);

  tile = request (cache, key, height, fill, fill_data, FALSE);
  tile->used = cache->frame;
  if (current)
    *current = tile->surface != NULL && !tile->stale && !tile->again;
  if (tile->surface && tile->node == NULL)
    tile->node = make_node (cache, tile);
  return tile->node;
}

void
strobe_tile_cache_prefetch (StrobeTileCache *cache, const StrobeTileKey *key, int height, StrobeTileFillFunc fill,
                            gpointer fill_data)
{
  g_return_if_fail (cache != NULL && cache->have_epoch);

  request (cache, key, height, fill, fill_data, TRUE);
}

void
strobe_tile_cache_stand_ins (StrobeTileCache *cache, const StrobeTileKey *key, guint64 t0, guint64 t1,
                             StrobeTileStandInFunc func, gpointer user_data)
{
  GHashTableIter it;
  Tile *t;

  g_return_if_fail (cache != NULL);

  /* Only near the current scale: far from it a stretched picture says little, and
   * squeezing many tiles into one costs more than drawing nothing for a moment. */
  if (!(cache->prev_epoch.scale > 0) || cache->prev_epoch.scale / cache->epoch.scale > 2.5
      || cache->epoch.scale / cache->prev_epoch.scale > 2.5)
    return;
  g_hash_table_iter_init (&it, cache->previous);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &t))
    {
      if (t->key.kind != key->kind || t->key.id != key->id || t->key.ty != key->ty
          || t->key.collapsed != key->collapsed || t->surface == NULL)
        continue;
      if (t->t1 <= t0 || t->t0 >= t1)
        continue;
      t->used = cache->frame;
      if (t->node == NULL)
        t->node = make_node (cache, t);
      cache->counts.stand_ins++;
      func (t->node, t->surface, t->t0, cache->prev_epoch.scale, user_data);
    }
}

static void
mark_stale (Tile *t)
{
  if (t->job)
    t->again = TRUE;
  else
    t->stale = TRUE;
}

static StrobeTimelineSeries
series_of (guint8 kind)
{
  switch (kind)
    {
    case STROBE_TRACK_THREAD:  return STROBE_TIMELINE_SERIES_SCOPES;
    case STROBE_TRACK_COUNTER: return STROBE_TIMELINE_SERIES_COUNTER;
    case STROBE_TRACK_FRAMES:  return STROBE_TIMELINE_SERIES_FRAMES;
    default:                   return STROBE_TIMELINE_SERIES_MARKERS;
    }
}

void
strobe_tile_cache_invalidate (StrobeTileCache *cache)
{
  GHashTableIter it;
  Tile *t;
  guint64 gen;

  g_return_if_fail (cache != NULL);

  gen = strobe_timeline_model_get_generation (cache->model);
  g_hash_table_iter_init (&it, cache->tiles);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &t))
    {
      guint64 from;

      if ((t->stale && !t->job) || t->again || t->generation == gen)
        continue;
      if (t->open_end)
        {
          mark_stale (t);
          continue;
        }
      from = strobe_timeline_model_get_changed_since (cache->model, series_of (t->key.kind), t->key.id, t->generation);
      if (from <= t->t1)
        mark_stale (t);
    }
}

void
strobe_tile_cache_invalidate_track (StrobeTileCache *cache, StrobeTrackKind kind, guint32 id, guint64 from)
{
  GHashTableIter it;
  Tile *t;

  g_return_if_fail (cache != NULL);

  g_hash_table_iter_init (&it, cache->tiles);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &t))
    if (t->key.kind == kind && t->key.id == id && t->t1 >= from)
      mark_stale (t);
}

void
strobe_tile_cache_clear (StrobeTileCache *cache)
{
  GHashTableIter it;
  Tile *t;

  g_return_if_fail (cache != NULL);

  g_hash_table_iter_init (&it, cache->tiles);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &t))
    mark_stale (t);
}

static gint
by_use (gconstpointer a, gconstpointer b)
{
  const Tile *x = *(Tile *const *) a, *y = *(Tile *const *) b;
  return x->used < y->used ? -1 : x->used > y->used;
}

void
strobe_tile_cache_frame_done (StrobeTileCache *cache)
{
  g_autoptr(GPtrArray) old = NULL;
  GHashTableIter it;
  Tile *t;

  g_return_if_fail (cache != NULL);

  cache->frame++;
  if (cache->bytes <= BUDGET_BYTES)
    return;
  /* Least recently used first, never what the frame just drew. */
  old = g_ptr_array_new ();
  g_hash_table_iter_init (&it, cache->previous);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &t))
    if (t->used + 1 < cache->frame)
      g_hash_table_iter_remove (&it);
  recount_bytes (cache);
  g_hash_table_iter_init (&it, cache->tiles);
  while (g_hash_table_iter_next (&it, NULL, (gpointer *) &t))
    if (t->used + 1 < cache->frame && t->job == NULL)
      g_ptr_array_add (old, t);
  g_ptr_array_sort (old, by_use);
  for (guint i = 0; i < old->len && cache->bytes > BUDGET_BYTES; i++)
    {
      t = old->pdata[i];
      cache->bytes -= t->bytes;
      g_hash_table_remove (cache->tiles, &t->key);
    }
}

guint
strobe_tile_cache_get_pending (StrobeTileCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);
  return cache->pending;
}

gsize
strobe_tile_cache_get_bytes (StrobeTileCache *cache)
{
  g_return_val_if_fail (cache != NULL, 0);
  return cache->bytes;
}

void
strobe_tile_cache_get_counts (StrobeTileCache *cache, StrobeTileCounts *counts)
{
  g_return_if_fail (cache != NULL && counts != NULL);
  *counts = cache->counts;
}
