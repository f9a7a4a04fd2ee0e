/* tsan-glib.c — GLib's hand-offs between threads told to ThreadSanitizer
 * (built only with -Db_sanitize=thread)
 *
 * Debian's GLib is not built with TSan: its locks are futexes, its reference counts and
 * g_once atomics of its own, its threads, pools and main contexts pass data under locks
 * TSan cannot see. So every access they order between two threads looks like a race.
 * build-aux/dev.sh check-sanitizers preloads this module into the programs its TSan runs
 * start. Each function here takes the place of GLib's for the calls the program makes (and
 * libgio's and libgobject's, which reach GLib through the dynamic linker), calls GLib's,
 * and tells TSan what it orders: a lock acquires what the last unlock released, a pop what
 * the push released, a thread or a callback what its creator or poster released, the last
 * unref what every unref released. GLib's calls inside libglib are bound there and stay
 * unseen; build-aux/tsan-suppressions.txt covers those.
 *
 * Not itself instrumented, and the TSan entry points are weak: preloaded into a program
 * without TSan (python3, sh), it only calls GLib's.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <glib.h>
#include <glib-object.h>

void __tsan_acquire (void *addr) __attribute__ ((weak));
void __tsan_release (void *addr) __attribute__ ((weak));

static void
acquire (void *addr)
{
  if (__tsan_acquire)
    __tsan_acquire (addr);
}

static void
release (void *addr)
{
  if (__tsan_release)
    __tsan_release (addr);
}

/* GLib's own NAME, found once: the next definition after this program's. */
#define REAL(name)                                                                                  \
  static __typeof__ (name) *real_##name;                                                            \
  if (G_UNLIKELY (real_##name == NULL))                                                             \
    real_##name = (__typeof__ (name) *) dlsym (RTLD_NEXT, #name)

/* A lock acquires what the last unlock released; a trylock when it got the lock. Readers
 * of a GRWLock too, and they release what they read to the next writer: a read under the
 * lock happens before a write under it (as TSan's own rwlocks). */
#define WRAP_LOCK(name, type)                                                                       \
  void name (type *lock)                                                                            \
  {                                                                                                 \
    REAL (name);                                                                                    \
    real_##name (lock);                                                                             \
    acquire (lock);                                                                                 \
  }
#define WRAP_TRYLOCK(name, type)                                                                    \
  gboolean name (type *lock)                                                                        \
  {                                                                                                 \
    gboolean got;                                                                                   \
    REAL (name);                                                                                    \
    got = real_##name (lock);                                                                       \
    if (got)                                                                                        \
      acquire (lock);                                                                               \
    return got;                                                                                     \
  }
#define WRAP_UNLOCK(name, type)                                                                     \
  void name (type *lock)                                                                            \
  {                                                                                                 \
    REAL (name);                                                                                    \
    release (lock);                                                                                 \
    real_##name (lock);                                                                             \
  }

WRAP_LOCK (g_mutex_lock, GMutex)
WRAP_TRYLOCK (g_mutex_trylock, GMutex)
WRAP_UNLOCK (g_mutex_unlock, GMutex)
WRAP_LOCK (g_rec_mutex_lock, GRecMutex)
WRAP_TRYLOCK (g_rec_mutex_trylock, GRecMutex)
WRAP_UNLOCK (g_rec_mutex_unlock, GRecMutex)
WRAP_LOCK (g_rw_lock_writer_lock, GRWLock)
WRAP_TRYLOCK (g_rw_lock_writer_trylock, GRWLock)
WRAP_UNLOCK (g_rw_lock_writer_unlock, GRWLock)
WRAP_LOCK (g_rw_lock_reader_lock, GRWLock)
WRAP_TRYLOCK (g_rw_lock_reader_trylock, GRWLock)
WRAP_UNLOCK (g_rw_lock_reader_unlock, GRWLock)

void
g_cond_wait (GCond *cond, GMutex *mutex)
{
  REAL (g_cond_wait);
  release (mutex);
  real_g_cond_wait (cond, mutex);
  acquire (mutex);
}

gboolean
g_cond_wait_until (GCond *cond, GMutex *mutex, gint64 end_time)
{
  gboolean signalled;
  REAL (g_cond_wait_until);
  release (mutex);
  signalled = real_g_cond_wait_until (cond, mutex, end_time);
  acquire (mutex);
  return signalled;
}

/* A GAsyncQueue hands what is pushed to whoever pops it; its lock is GLib's own. */
void
g_async_queue_push (GAsyncQueue *queue, gpointer data)
{
  REAL (g_async_queue_push);
  release (queue);
  real_g_async_queue_push (queue, data);
}

gpointer
g_async_queue_pop (GAsyncQueue *queue)
{
  gpointer data;
  REAL (g_async_queue_pop);
  data = real_g_async_queue_pop (queue);
  acquire (queue);
  return data;
}

gpointer
g_async_queue_try_pop (GAsyncQueue *queue)
{
  gpointer data;
  REAL (g_async_queue_try_pop);
  data = real_g_async_queue_try_pop (queue);
  if (data != NULL)
    acquire (queue);
  return data;
}

gpointer
g_async_queue_timeout_pop (GAsyncQueue *queue, guint64 timeout)
{
  gpointer data;
  REAL (g_async_queue_timeout_pop);
  data = real_g_async_queue_timeout_pop (queue, timeout);
  if (data != NULL)
    acquire (queue);
  return data;
}

/* ---- Hand-offs through GLib's threads and main contexts ------------------------------------ *
 * A function given to GLib to run elsewhere (a new thread, a main context, a pool) reads
 * what the caller wrote before giving it: each is wrapped so that giving releases and the
 * run acquires. */

typedef struct
{
  gpointer       func;
  gpointer       data;
  GDestroyNotify notify;
} Handoff;

static Handoff *
handoff_new (gpointer func, gpointer data, GDestroyNotify notify)
{
  Handoff *h = g_new (Handoff, 1);

  h->func = func;
  h->data = data;
  h->notify = notify;
  release (h);
  return h;
}

static gpointer
thread_main (gpointer p)
{
  Handoff *h = p;
  GThreadFunc func;
  gpointer data, result;

  acquire (h);
  func = (GThreadFunc) h->func;
  data = h->data;
  g_free (h);
  result = func (data);
  /* What the thread did, to whoever joins it. */
  release (g_thread_self ());
  return result;
}

GThread *
g_thread_new (const gchar *name, GThreadFunc func, gpointer data)
{
  REAL (g_thread_new);
  return real_g_thread_new (name, thread_main, handoff_new ((gpointer) func, data, NULL));
}

GThread *
g_thread_try_new (const gchar *name, GThreadFunc func, gpointer data, GError **error)
{
  Handoff *h = handoff_new ((gpointer) func, data, NULL);
  GThread *thread;
  REAL (g_thread_try_new);
  thread = real_g_thread_try_new (name, thread_main, h, error);
  if (thread == NULL)
    g_free (h);
  return thread;
}

gpointer
g_thread_join (GThread *thread)
{
  gpointer key = thread, result;
  REAL (g_thread_join);
  result = real_g_thread_join (thread);
  acquire (key);
  return result;
}

/* Sources run a GSourceFunc only when they are idle or timeout sources; others (child
 * watches, sockets) call theirs with other arguments and are left alone. */
static gboolean
source_run (gpointer p)
{
  Handoff *h = p;

  acquire (h);
  return ((GSourceFunc) h->func) (h->data);
}

static void
source_done (gpointer p)
{
  Handoff *h = p;

  if (h->notify)
    h->notify (h->data);
  g_free (h);
}

void
g_source_set_callback (GSource *source, GSourceFunc func, gpointer data, GDestroyNotify notify)
{
  REAL (g_source_set_callback);
  if (func != NULL && (source->source_funcs == &g_idle_funcs || source->source_funcs == &g_timeout_funcs))
    real_g_source_set_callback (source, source_run, handoff_new ((gpointer) func, data, notify), source_done);
  else
    real_g_source_set_callback (source, func, data, notify);
}

void
g_main_context_invoke_full (GMainContext *context, gint priority, GSourceFunc function, gpointer data,
                            GDestroyNotify notify)
{
  REAL (g_main_context_invoke_full);
  real_g_main_context_invoke_full (context, priority, source_run, handoff_new ((gpointer) function, data, notify),
                                   source_done);
}

void
g_main_context_invoke (GMainContext *context, GSourceFunc function, gpointer data)
{
  g_main_context_invoke_full (context, G_PRIORITY_DEFAULT, function, data, NULL);
}

/* A pool's items: pushing releases the item, its run acquires it. */
static void
pool_run (gpointer item, gpointer p)
{
  Handoff *h = p;

  acquire (item);
  ((GFunc) h->func) (item, h->data);
}

GThreadPool *
g_thread_pool_new (GFunc func, gpointer user_data, gint max_threads, gboolean exclusive, GError **error)
{
  REAL (g_thread_pool_new);
  /* Lives as long as the pool; pools are few (a Handoff each, not freed). */
  return real_g_thread_pool_new (pool_run, handoff_new ((gpointer) func, user_data, NULL), max_threads, exclusive,
                                 error);
}

gboolean
g_thread_pool_push (GThreadPool *pool, gpointer data, GError **error)
{
  REAL (g_thread_pool_push);
  release (data);
  return real_g_thread_pool_push (pool, data, error);
}

/* ---- One-time initialization ---------------------------------------------------------------- *
 * g_once_init_enter()'s fast path is an atomic load in the caller's code, which TSan sees;
 * the store it loads is g_once_init_leave()'s, inside GLib. The leave releases at that
 * address, as an atomic release store would; a caller that waited in GLib acquires. */

void
(g_once_init_leave) (volatile void *location, gsize result)
{
  REAL (g_once_init_leave);
  release ((void *) location);
  real_g_once_init_leave (location, result);
}

gboolean
(g_once_init_enter) (volatile void *location)
{
  gboolean first;
  REAL (g_once_init_enter);
  first = real_g_once_init_enter (location);
  if (!first)
    acquire ((void *) location);
  return first;
}

/* ---- Reference counts ------------------------------------------------------------------------- *
 * GLib's atomic reference counts are functions of its own (uninstrumented): the last unref,
 * which frees, did not see the others' accesses happen before it. Each unref releases; the
 * last one acquires what every unref released, as an acquire-release decrement does. */

gboolean
g_atomic_ref_count_dec (gatomicrefcount *arc)
{
  gboolean last;
  REAL (g_atomic_ref_count_dec);
  release (arc);
  last = real_g_atomic_ref_count_dec (arc);
  if (last)
    acquire (arc);
  return last;
}

void
g_atomic_rc_box_release_full (gpointer mem_block, GDestroyNotify clear_func)
{
  REAL (g_atomic_rc_box_release_full);
  release (mem_block);
  /* The count is GLib's private: every release acquires too (the freeing one is among). */
  acquire (mem_block);
  real_g_atomic_rc_box_release_full (mem_block, clear_func);
}

void
g_object_unref (gpointer object)
{
  REAL (g_object_unref);
  release (object);
  /* The one that finalizes sees a count of 1: everyone else's unref came before. */
  if (object != NULL && g_atomic_int_get (&((GObject *) object)->ref_count) == 1)
    acquire (object);
  real_g_object_unref (object);
}
