/* strobe-channel.c — the channel registry and the enable rules.
 *
 * Enabling by name keeps a rule, so a channel that registers later (a constructor that
 * runs after STROBE_TRACE was read, a dlopen'ed module) still comes up as asked. Rules
 * apply in order; "all" clears the earlier ones. A peer of the control server may send
 * any names, so what is remembered is bounded (MAX_RULES names of at most MAX_NAME
 * bytes), and names that match no channel are said: once on stderr for STROBE_TRACE and
 * --trace (a second after the start, when the program's own channels have registered),
 * and in the reply of the control command. */
#include "strobe-instrument-private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

#define MAX_RULES       256
#define MAX_NAME        128
#define REPORT_DELAY_NS 1000000000ull

typedef struct Rule
{
  struct Rule *next;
  bool         enabled;
  bool         from_start;   /* STROBE_TRACE or --trace: reported when it matches nothing */
  char         name[];
} Rule;

static StrobeChannel  *channels;
static Rule           *rules;
static size_t          n_rules;
static pthread_once_t  env_once = PTHREAD_ONCE_INIT;
static bool            start_rules;   /* the next rules come from STROBE_TRACE / --trace */
static int             report_state;  /* 0: not scheduled, 1: due at report_due, 2: done */
static uint64_t        report_due;

static uint64_t
monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

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
  /* Before the store: no allocation may find the channel off and the table dropped. */
  if (!enabled)
    strobe__hooks_get ()->channel_turning_off (ch);
  __atomic_store_n (&ch->enabled, enabled ? 1 : 0, __ATOMIC_RELAXED);
  strobe__hooks_get ()->emit_channel_toggle (ch->id, enabled);
}

static bool
matches_any_locked (const char *name, size_t n)
{
  if (is_all (name, n))
    return true;
  for (StrobeChannel *ch = channels; ch; ch = ch->next)
    if (name_matches (ch->name, name, n))
      return true;
  return false;
}

/* Under channels_lock. False when the name matches no channel and cannot be remembered
 * (too long, or MAX_RULES names remembered already): then nothing changed. */
static bool
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
          n_rules--;
        }
      else
        link = &r->next;
    }
  for (StrobeChannel *ch = channels; ch; ch = ch->next)
    if (is_all (name, n) || name_matches (ch->name, name, n))
      channel_set_locked (ch, enabled);
  if (n > MAX_NAME || n_rules >= MAX_RULES)
    return matches_any_locked (name, n);
  r = malloc (sizeof *r + n + 1);
  if (r == NULL)
    return matches_any_locked (name, n);
  r->next = NULL;
  r->enabled = enabled;
  r->from_start = start_rules;
  memcpy (r->name, name, n);
  r->name[n] = '\0';
  *link = r;
  n_rules++;
  return true;
}

/* Appends @name (@n bytes) to the comma-separated @out, or "..." once full. */
static void
append_name (char *out, size_t size, const char *name, size_t n)
{
  size_t len;

  if (out == NULL || size == 0)
    return;
  len = strlen (out);
  if (len + 2 + n >= size)
    {
      if (len + 5 <= size && (len < 3 || strcmp (out + len - 3, "...") != 0))
        strcat (out, len ? ",..." : "...");
      return;
    }
  if (len)
    out[len++] = ',';
  memcpy (out + len, name, n);
  out[len + n] = '\0';
}

/* Applies every name of @list. Names that match no registered channel go to @unmatched
 * (remembered for later), those that could not be remembered either to @refused. */
static void
add_list_locked (const char *list, bool enabled, char *unmatched, size_t unmatched_size,
                 char *refused, size_t refused_size)
{
  const char *p = list;

  if (unmatched && unmatched_size)
    unmatched[0] = '\0';
  if (refused && refused_size)
    refused[0] = '\0';
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
        {
          bool matched = matches_any_locked (s, m);

          if (!add_rule_locked (s, m, enabled))
            append_name (refused, refused_size, s, m);
          else if (!matched)
            append_name (unmatched, unmatched_size, s, m);
        }
      p += n;
      if (*p == ',')
        p++;
    }
}

/* STROBE_TRACE and --trace=: rules reported when they match nothing (see the top). */
static void
add_start_list (const char *list)
{
  pthread_mutex_lock (&strobe__channels_lock);
  start_rules = true;
  add_list_locked (list, true, NULL, 0, NULL, 0);
  start_rules = false;
  pthread_mutex_unlock (&strobe__channels_lock);
}

static void
read_env (void)
{
  const char *s = getenv ("STROBE_TRACE");

  if (s)
    add_start_list (s);
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
  n_rules = 0;
  __atomic_store_n (&report_state, 2, __ATOMIC_RELAXED);
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
  strobe__hooks_get ()->emit_channel_announce (ch->id, enabled, ch->name);
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
  if (!add_rule_locked (name, n, enabled))
    {
      pthread_mutex_unlock (&strobe__channels_lock);
      errno = ENOSPC;
      return false;
    }
  pthread_mutex_unlock (&strobe__channels_lock);
  if (!ok)
    errno = EPERM;
  return ok;
}

bool
strobe_channels_set_enabled (const char *list, bool enabled)
{
  char refused[2];

  strobe__channels_init ();
  pthread_mutex_lock (&strobe__channels_lock);
  add_list_locked (list, enabled, NULL, 0, refused, sizeof refused);
  pthread_mutex_unlock (&strobe__channels_lock);
  if (refused[0])
    {
      errno = ENOSPC;
      return false;
    }
  return true;
}

void
strobe__channels_set_reporting (const char *list, bool enabled, char *unmatched,
                                size_t unmatched_size, char *refused, size_t refused_size)
{
  strobe__channels_init ();
  pthread_mutex_lock (&strobe__channels_lock);
  add_list_locked (list, enabled, unmatched, unmatched_size, refused, refused_size);
  pthread_mutex_unlock (&strobe__channels_lock);
}

void
strobe__channels_add_start_list (const char *list)
{
  strobe__channels_init ();
  add_start_list (list);
}

void
strobe__channels_schedule_report (void)
{
  pthread_mutex_lock (&strobe__channels_lock);
  if (__atomic_load_n (&report_state, __ATOMIC_RELAXED) == 0)
    {
      report_due = monotonic_ns () + REPORT_DELAY_NS;
      __atomic_store_n (&report_state, 1, __ATOMIC_RELEASE);
    }
  pthread_mutex_unlock (&strobe__channels_lock);
}

/* Once: the names from STROBE_TRACE and --trace that still match no channel. @now: even
 * before its time (the program's own strobe_init, shutdown). Never called with the update
 * lock held: the channels lock comes first (strobe-private.h). */
void
strobe__channels_report_unmatched (bool now)
{
  char names[512] = "", known[512] = "";

  if (__atomic_load_n (&report_state, __ATOMIC_ACQUIRE) != 1)
    return;
  pthread_mutex_lock (&strobe__channels_lock);
  if (__atomic_load_n (&report_state, __ATOMIC_RELAXED) != 1 || (!now && monotonic_ns () < report_due))
    {
      pthread_mutex_unlock (&strobe__channels_lock);
      return;
    }
  __atomic_store_n (&report_state, 2, __ATOMIC_RELEASE);
  for (Rule *r = rules; r; r = r->next)
    if (r->from_start && r->enabled && !matches_any_locked (r->name, strlen (r->name)))
      append_name (names, sizeof names, r->name, strlen (r->name));
  for (StrobeChannel *ch = channels; ch; ch = ch->next)
    if (!ch->read_only)
      append_name (known, sizeof known, ch->name, strlen (ch->name));
  pthread_mutex_unlock (&strobe__channels_lock);
  if (names[0])
    fprintf (stderr, "strobe: no channel named %s (channels: %s); traced if one registers later\n",
             names, known[0] ? known : "none");
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
