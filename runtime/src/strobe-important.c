/* strobe-important.c — the important cache: every Important record of the process, kept
 * for its lifetime so each new output can be replayed from the start (PROTOCOL.md §4).
 * Important events are rare (schemas, names, channels), so a mutex is fine. */
#include "strobe-buffers-private.h"

#include <errno.h>
#include <stdlib.h>

static StrobeWireBuf   cache;

bool
strobe__important_append (const void *a, size_t a_len, const void *b, size_t b_len,
                          const void *c, size_t c_len, const void *d, size_t d_len)
{
  bool ok;

  pthread_mutex_lock (&strobe__important_lock);
  ok = strobe_wire_buf_reserve (&cache, a_len + b_len + c_len + d_len)
       && strobe_wire_buf_append (&cache, a, a_len)
       && strobe_wire_buf_append (&cache, b, b_len)
       && strobe_wire_buf_append (&cache, c, c_len)
       && strobe_wire_buf_append (&cache, d, d_len);
  pthread_mutex_unlock (&strobe__important_lock);
  return ok;
}

size_t
strobe__important_copy (size_t from, StrobeWireBuf *out)
{
  size_t to;

  pthread_mutex_lock (&strobe__important_lock);
  to = cache.len;
  if (to > from && !strobe_wire_buf_append (out, cache.data + from, to - from))
    to = from;
  pthread_mutex_unlock (&strobe__important_lock);
  return to;
}

size_t
strobe__important_size (void)
{
  size_t n;

  pthread_mutex_lock (&strobe__important_lock);
  n = cache.len;
  pthread_mutex_unlock (&strobe__important_lock);
  return n;
}
