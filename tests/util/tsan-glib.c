/* tsan-glib.c — GLib's locks told to ThreadSanitizer (built only with -Db_sanitize=thread)
 *
 * Debian's GLib is not built with TSan, and GMutex, GRecMutex, GRWLock, GCond and
 * GAsyncQueue's lock are futexes there: TSan sees none of their hand-offs, so every access
 * they order between two threads looks like a race. build-aux/dev.sh check-sanitizers
 * preloads this module into the programs its TSan runs start. Each function here takes the
 * place of GLib's for the program's calls (and libgio's, libgobject's), calls GLib's, and
 * tells TSan what it means: a lock acquires what the last unlock of that lock released, a
 * pop what the push released. GLib's calls inside itself (GMainContext, GTask's pool) are
 * bound within libglib and stay unseen; the suppressions file covers those.
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

void
g_mutex_lock (GMutex *mutex)
{
  REAL (g_mutex_lock);
  real_g_mutex_lock (mutex);
  acquire (mutex);
}

gboolean
g_mutex_trylock (GMutex *mutex)
{
  gboolean got;
  REAL (g_mutex_trylock);
  got = real_g_mutex_trylock (mutex);
  if (got)
    acquire (mutex);
  return got;
}

void
g_mutex_unlock (GMutex *mutex)
{
  REAL (g_mutex_unlock);
  release (mutex);
  real_g_mutex_unlock (mutex);
}

void
g_rec_mutex_lock (GRecMutex *mutex)
{
  REAL (g_rec_mutex_lock);
  real_g_rec_mutex_lock (mutex);
  acquire (mutex);
}

void
g_rec_mutex_unlock (GRecMutex *mutex)
{
  REAL (g_rec_mutex_unlock);
  release (mutex);
  real_g_rec_mutex_unlock (mutex);
}

void
g_rw_lock_writer_lock (GRWLock *lock)
{
  REAL (g_rw_lock_writer_lock);
  real_g_rw_lock_writer_lock (lock);
  acquire (lock);
}

void
g_rw_lock_writer_unlock (GRWLock *lock)
{
  REAL (g_rw_lock_writer_unlock);
  release (lock);
  real_g_rw_lock_writer_unlock (lock);
}

/* Readers acquire what writers released, and release what they read to the next writer:
 * a read under the lock happens before a write under it (as TSan's own rwlocks). */
void
g_rw_lock_reader_lock (GRWLock *lock)
{
  REAL (g_rw_lock_reader_lock);
  real_g_rw_lock_reader_lock (lock);
  acquire (lock);
}

gboolean
g_rw_lock_reader_trylock (GRWLock *lock)
{
  gboolean got;
  REAL (g_rw_lock_reader_trylock);
  got = real_g_rw_lock_reader_trylock (lock);
  if (got)
    acquire (lock);
  return got;
}

gboolean
g_rw_lock_writer_trylock (GRWLock *lock)
{
  gboolean got;
  REAL (g_rw_lock_writer_trylock);
  got = real_g_rw_lock_writer_trylock (lock);
  if (got)
    acquire (lock);
  return got;
}

gboolean
g_rec_mutex_trylock (GRecMutex *mutex)
{
  gboolean got;
  REAL (g_rec_mutex_trylock);
  got = real_g_rec_mutex_trylock (mutex);
  if (got)
    acquire (mutex);
  return got;
}

void
g_rw_lock_reader_unlock (GRWLock *lock)
{
  REAL (g_rw_lock_reader_unlock);
  release (lock);
  real_g_rw_lock_reader_unlock (lock);
}

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
