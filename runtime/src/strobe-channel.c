/* strobe-channel.c — the channel registry and the enable rules.
 *
 * Enabling by name keeps a rule, so a channel that registers later (a constructor that
 * runs after STROBE_TRACE was read, a dlopen'ed module) still comes up as asked. Rules
 * apply in order; "all" clears the earlier ones. */
#include "strobe-private.h"

#include <errno.h>
#include <stdlib.h>
#include <strings.h>

typedef struct Rule
{
  struct Rule *next;
  bool         enabled;
  char         name[];
} Rule;

pthread_mutex_t strobe__channels_lock = PTHREAD_MUTEX_INITIALIZER;
static StrobeChannel  *channels;
static Rule           *rules;
static pthread_once_t  env_once = PTHREAD_ONCE_INIT;

static bool
is_all (const char *s, size_t n)
{
  return n == 3 && strncasecmp (s, "all", 3) == 0;
}

/* Case-insensitive, and "Cpus" names the channel "Cpu" (and "Logs" names "Log"). */
static bool
name_matches (const char *channel, const char *want, size_t n)
{
  size_t c = strlen (channel);

  if (c == n)
    return strncasecmp (channel, want, n) == 0;
  if (n == c + 1 && (want[c] == 's' || want[c] == 'S'))
    return strncasecmp (channel, want, c) == 0;
  return false;
}

static void
channel_set_locked (StrobeChannel *ch, bool enabled)
{
  if (ch->read_only || (__atomic_load_n (&ch->enabled, __ATOMIC_RELAXED) != 0) == enabled)
    return;
  __atomic_store_n (&ch->enabled, enabled ? 1 : 0, __ATOMIC_RELAXED);
  strobe__emit_channel_toggle (ch->id, enabled);
}

/* Under strobe__channels_lock. */
static void
add_rule_locked (const char *name, size_t n, bool enabled)
{
  Rule **link = &rules;
  Rule *r;

  while (*link)
    {
      r = *link;
      if (is_all (name, n) || (strlen (r->name) == n && strncasecmp (r->name, name, n) == 0))
        {
          *link = r->next;
          free (r);
        }
      else
        link = &r->next;
    }
  r = malloc (sizeof *r + n + 1);
  if (r == NULL)
    return;
  r->next = NULL;
  r->enabled = enabled;
  memcpy (r->name, name, n);
  r->name[n] = '\0';
  *link = r;

  for (StrobeChannel *ch = channels; ch; ch = ch->next)
    if (is_all (name, n) || name_matches (ch->name, name, n))
      channel_set_locked (ch, enabled);
}

static void
add_list_locked (const char *list, bool enabled)
{
  const char *p = list;

  while (*p)
    {
      size_t n = strcspn (p, ",");
      const char *s = p;
      size_t m = n;

      while (m && (*s == ' ' || *s == '\t'))
        s++, m--;
      while (m && (s[m - 1] == ' ' || s[m - 1] == '\t'))
        m--;
      if (m)
        add_rule_locked (s, m, enabled);
      p += n;
      if (*p == ',')
        p++;
    }
}

static void
read_env (void)
{
  const char *s = getenv ("STROBE_TRACE");

  if (s)
    {
      pthread_mutex_lock (&strobe__channels_lock);
      add_list_locked (s, true);
      pthread_mutex_unlock (&strobe__channels_lock);
    }
}

void
strobe__channels_init (void)
{
  pthread_once (&env_once, read_env);
}

/* In a forked child that does not trace, with every runtime lock held: every channel
 * goes off (quietly: there is no output, and the important cache's lock is held), and
 * the rules from the parent's environment no longer apply. */
void
strobe__channels_after_fork_child_off (void)
{
  for (StrobeChannel *ch = channels; ch; ch = ch->next)
    if (!ch->read_only)
      __atomic_store_n (&ch->enabled, 0, __ATOMIC_RELAXED);
  while (rules)
    {
      Rule *r = rules;
      rules = r->next;
      free (r);
    }
}

void
strobe_channel_register (StrobeChannel *ch)
{
  const char *id = ch->identifier;
  size_t n = strlen (id);
  bool enabled = ch->read_only;

  strobe__channels_init ();
  pthread_mutex_lock (&strobe__channels_lock);
  if (ch->registered)
    goto out;
  if (n > 7 && strcmp (id + n - 7, "Channel") == 0)
    n -= 7;
  ch->name = strndup (id, n);
  if (ch->name == NULL)
    goto out;
  ch->id = strobe_wire_channel_id (ch->name, n);
  for (Rule *r = rules; r && !ch->read_only; r = r->next)
    if (is_all (r->name, strlen (r->name)) || name_matches (ch->name, r->name, strlen (r->name)))
      enabled = r->enabled;
  __atomic_store_n (&ch->enabled, enabled ? 1 : 0, __ATOMIC_RELAXED);
  ch->registered = true;
  ch->next = channels;
  channels = ch;
  strobe__emit_channel_announce (ch->id, enabled, ch->name);
out:
  pthread_mutex_unlock (&strobe__channels_lock);
}

bool
strobe_channel_set_enabled (const char *name, bool enabled)
{
  size_t n = strlen (name);
  bool ok = true;

  strobe__channels_init ();
  pthread_mutex_lock (&strobe__channels_lock);
  for (StrobeChannel *ch = channels; ch; ch = ch->next)
    if (ch->read_only && !enabled && name_matches (ch->name, name, n))
      ok = false;
  add_rule_locked (name, n, enabled);
  pthread_mutex_unlock (&strobe__channels_lock);
  if (!ok)
    errno = EPERM;
  return ok;
}

bool
strobe_channels_set_enabled (const char *list, bool enabled)
{
  strobe__channels_init ();
  pthread_mutex_lock (&strobe__channels_lock);
  add_list_locked (list, enabled);
  pthread_mutex_unlock (&strobe__channels_lock);
  return true;
}

bool
strobe_channel_is_enabled (const char *name)
{
  size_t n = strlen (name);
  bool on = false;

  pthread_mutex_lock (&strobe__channels_lock);
  for (StrobeChannel *ch = channels; ch; ch = ch->next)
    if (name_matches (ch->name, name, n))
      on = __atomic_load_n (&ch->enabled, __ATOMIC_RELAXED) != 0;
  pthread_mutex_unlock (&strobe__channels_lock);
  return on;
}

void
strobe_channels_foreach (void (*fn) (const StrobeChannel *channel, void *user), void *user)
{
  pthread_mutex_lock (&strobe__channels_lock);
  for (StrobeChannel *ch = channels; ch; ch = ch->next)
    fn (ch, user);
  pthread_mutex_unlock (&strobe__channels_lock);
}
