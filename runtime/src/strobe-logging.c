/* strobe-logging.c — log categories, lazy registration of log sites and the message
 * emitter with deferred formatting.
 *
 * A site's format string is parsed once, when the site first emits, into a plan: the
 * va_arg reads in order and the type-byte prefix of the encoded arguments. A message then
 * costs one timestamp, the va_arg walk, and one record written straight into the
 * thread's buffer: uid, Cycle, SpecId, one AuxData record with the arguments, AuxEnd. */
#include "strobe-buffers-private.h"
#include "strobe-instrument-private.h"

#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <wchar.h>

#include "strobe-printf.h"

STROBE_CHANNEL_DEFINE (LogChannel);

STROBE_EVENT (Logging, LogCategory, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (uint8, DefaultVerbosity)
              STROBE_FIELD (ansi, Name))

STROBE_EVENT (Logging, LogMessageSpec, STROBE_EVENT_IMPORTANT,
              STROBE_FIELD (uint32, Id)
              STROBE_FIELD (uint32, CategoryId)
              STROBE_FIELD (int32, Line)
              STROBE_FIELD (uint8, Verbosity)
              STROBE_FIELD (ansi, File)
              STROBE_FIELD (ansi, FormatString))

STROBE_EVENT (Logging, LogMessage, STROBE_EVENT_NOSYNC,
              STROBE_FIELD (uint64, Cycle)
              STROBE_FIELD (uint32, SpecId)
              STROBE_ARRAY (uint8, FormatArgs))

#define FORMAT_ARGS_INDEX 2

/* ---- categories and verbosity rules ----------------------------------------------- */

typedef struct Rule
{
  struct Rule *next;
  uint8_t      verbosity;
  char         name[];
} Rule;

static StrobeLogCategory *categories;
static Rule              *rules;
static uint32_t           next_category_id = 1;
static uint32_t           next_spec_id = 1;
static pthread_once_t     env_once = PTHREAD_ONCE_INIT;

static void
apply_rules_locked (StrobeLogCategory *c)
{
  for (Rule *r = rules; r; r = r->next)
    if (strcasecmp (r->name, "all") == 0 || strcasecmp (r->name, c->name) == 0)
      __atomic_store_n (&c->verbosity, r->verbosity, __ATOMIC_RELAXED);
}

static bool
set_verbosity_locked (const char *name, size_t n, uint8_t verbosity)
{
  Rule **link = &rules;
  Rule *r;
  bool all = n == 3 && strncasecmp (name, "all", 3) == 0;
  bool found = false;

  /* A later rule for the same name (or "all") replaces the earlier ones. */
  while (*link)
    {
      r = *link;
      if (all || (strlen (r->name) == n && strncasecmp (r->name, name, n) == 0))
        {
          *link = r->next;
          free (r);
        }
      else
        link = &r->next;
    }
  r = malloc (sizeof *r + n + 1);
  if (r)
    {
      r->next = NULL;
      r->verbosity = verbosity;
      memcpy (r->name, name, n);
      r->name[n] = '\0';
      *link = r;
    }
  for (StrobeLogCategory *c = categories; c; c = c->next)
    if (all || (strlen (c->name) == n && strncasecmp (c->name, name, n) == 0))
      {
        __atomic_store_n (&c->verbosity, verbosity, __ATOMIC_RELAXED);
        found = true;
      }
  return found;
}

static int
parse_level (const char *s, size_t n)
{
  static const char *const names[] = { "nologging", "fatal", "error", "warning", "display",
                                       "log", "verbose", "veryverbose" };

  if (n == 1 && s[0] >= '0' && s[0] <= '7')
    return s[0] - '0';
  for (int i = 0; i < 8; i++)
    if (strlen (names[i]) == n && strncasecmp (names[i], s, n) == 0)
      return i;
  /* strobe-cli's spelling too: very-verbose (and very_verbose). */
  if (n == 12 && (strncasecmp (s, "very_verbose", n) == 0 || strncasecmp (s, "very-verbose", n) == 0))
    return STROBE_LOG_VERY_VERBOSE;
  return -1;
}

/* STROBE_LOG_VERBOSITY="Cat=verbose,all=warning". */
static void
read_env (void)
{
  const char *s = getenv ("STROBE_LOG_VERBOSITY");

  if (s == NULL)
    return;
  pthread_mutex_lock (&strobe__log_lock);
  while (*s)
    {
      const char *end = strchr (s, ','), *eq;
      size_t len = end ? (size_t) (end - s) : strlen (s);
      int level;

      eq = memchr (s, '=', len);
      if (eq && eq > s && (level = parse_level (eq + 1, len - (size_t) (eq + 1 - s))) >= 0)
        set_verbosity_locked (s, (size_t) (eq - s), (uint8_t) level);
      else if (len)
        fprintf (stderr, "strobe: STROBE_LOG_VERBOSITY: “%.*s” is not CATEGORY=LEVEL (levels: "
                 "nologging, fatal, error, warning, display, log, verbose, very-verbose or 0-7); "
                 "ignored\n", (int) len, s);
      s += len;
      if (*s == ',')
        s++;
    }
  pthread_mutex_unlock (&strobe__log_lock);
}

void
strobe_log_category_register (StrobeLogCategory *c)
{
  pthread_once (&env_once, read_env);
  pthread_mutex_lock (&strobe__log_lock);
  if (c->id == 0)
    {
      c->id = next_category_id++;
      c->next = categories;
      categories = c;
      apply_rules_locked (c);
    }
  pthread_mutex_unlock (&strobe__log_lock);
}

bool
strobe_log_set_verbosity (const char *name, StrobeLogVerbosity verbosity)
{
  bool found;

  if (name == NULL || (unsigned) verbosity > STROBE_LOG_VERY_VERBOSE)
    return false;
  pthread_once (&env_once, read_env);
  pthread_mutex_lock (&strobe__log_lock);
  found = set_verbosity_locked (name, strlen (name), (uint8_t) verbosity);
  pthread_mutex_unlock (&strobe__log_lock);
  return found;
}

/* ---- the argument plan ------------------------------------------------------------ */

enum
{
  STEP_INT,        /* int → INT32 */
  STEP_PREC,       /* int '*' precision → INT32, remembered for a following %s */
  STEP_LONG,
  STEP_LLONG,
  STEP_SIZE,
  STEP_INTMAX,
  STEP_PTRDIFF,
  STEP_DOUBLE,
  STEP_LDOUBLE,
  STEP_STRING,
  STEP_WSTRING,
  STEP_POINTER,
  STEP_SKIP_PTR,   /* %n */
};

typedef struct
{
  uint8_t kind;
  int32_t precision;   /* strings: >= 0 constant, -1 none, -2 the last '*' */
} Step;

typedef struct
{
  uint8_t n_steps;
  bool    has_strings;
  size_t  fixed_size;        /* prefix and every fixed-size value */
  size_t  prefix_len;        /* 1 + number of encoded arguments */
  uint8_t prefix[1 + STROBE_LOG_MAX_ARGS];
  Step    steps[STROBE_LOG_MAX_ARGS];
} Plan;

static uint8_t
int_type (size_t size)
{
  return size == 8 ? STROBE_LOG_ARG_INT64 : STROBE_LOG_ARG_INT32;
}

static uint8_t
ldouble_type (void)
{
#if LDBL_MANT_DIG == 64
  return STROBE_LOG_ARG_LDOUBLE80;
#elif LDBL_MANT_DIG == 113
  return STROBE_LOG_ARG_LDOUBLE128;
#else
  return STROBE_LOG_ARG_DOUBLE;
#endif
}

static bool
plan_add (Plan *p, uint8_t kind, int32_t precision)
{
  uint8_t t;

  if (p->n_steps >= STROBE_LOG_MAX_ARGS)
    return false;
  p->steps[p->n_steps].kind = kind;
  p->steps[p->n_steps].precision = precision;
  p->n_steps++;
  switch (kind)
    {
    case STEP_INT: case STEP_PREC: t = STROBE_LOG_ARG_INT32; break;
    case STEP_LONG:    t = int_type (sizeof (long)); break;
    case STEP_LLONG:   t = int_type (sizeof (long long)); break;
    case STEP_SIZE:    t = int_type (sizeof (size_t)); break;
    case STEP_INTMAX:  t = int_type (sizeof (intmax_t)); break;
    case STEP_PTRDIFF: t = int_type (sizeof (ptrdiff_t)); break;
    case STEP_DOUBLE:  t = STROBE_LOG_ARG_DOUBLE; break;
    case STEP_LDOUBLE: t = ldouble_type (); break;
    case STEP_STRING: case STEP_WSTRING:
      t = STROBE_LOG_ARG_STRING;
      p->has_strings = true;
      break;
    case STEP_POINTER:
      t = sizeof (void *) == 8 ? STROBE_LOG_ARG_POINTER64 : STROBE_LOG_ARG_POINTER32;
      break;
    default:
      return true;   /* %n: read, not encoded */
    }
  p->prefix[p->prefix_len++] = t;
  p->fixed_size += 1 + strobe_log_arg_size (t) + (t == STROBE_LOG_ARG_STRING ? 1 : 0);
  return true;
}

static Plan *
plan_compile (const char *fmt)
{
  Plan *p = calloc (1, sizeof *p);
  StrobePrintfSpec s;
  size_t pos = 0;

  if (p == NULL)
    return NULL;
  p->prefix_len = 1;
  p->fixed_size = 1;
  while (strobe_printf_next (fmt, pos, &s))
    {
      uint8_t kind;
      int32_t prec = -1;

      pos = s.end;
      if (s.arg == STROBE_PRINTF_ARG_NONE)
        continue;
      if (s.width == STROBE_PRINTF_STAR && !plan_add (p, STEP_INT, -1))
        break;
      if (s.precision == STROBE_PRINTF_STAR)
        {
          if (!plan_add (p, STEP_PREC, -1))
            break;
          prec = -2;
        }
      else if (s.precision >= 0)
        prec = s.precision;
      switch (s.arg)
        {
        case STROBE_PRINTF_ARG_INT:     kind = STEP_INT; break;
        case STROBE_PRINTF_ARG_LONG:    kind = STEP_LONG; break;
        case STROBE_PRINTF_ARG_LLONG:   kind = STEP_LLONG; break;
        case STROBE_PRINTF_ARG_SIZE:    kind = STEP_SIZE; break;
        case STROBE_PRINTF_ARG_INTMAX:  kind = STEP_INTMAX; break;
        case STROBE_PRINTF_ARG_PTRDIFF: kind = STEP_PTRDIFF; break;
        case STROBE_PRINTF_ARG_DOUBLE:  kind = STEP_DOUBLE; break;
        case STROBE_PRINTF_ARG_LDOUBLE: kind = STEP_LDOUBLE; break;
        case STROBE_PRINTF_ARG_STRING:  kind = STEP_STRING; break;
        case STROBE_PRINTF_ARG_WSTRING: kind = STEP_WSTRING; break;
        case STROBE_PRINTF_ARG_POINTER: kind = STEP_POINTER; break;
        default:                        kind = STEP_SKIP_PTR; break;
        }
      if (!plan_add (p, kind, prec))
        break;
    }
  p->prefix[0] = (uint8_t) (p->prefix_len - 1);
  return p;
}

/* ---- registration ------------------------------------------------------------------- */

static void
announce_category_locked (StrobeLogCategory *c)
{
  if (c->announced)
    return;
  if (c->id == 0)
    {
      c->id = next_category_id++;
      c->next = categories;
      categories = c;
      apply_rules_locked (c);
    }
  STROBE_LOG (Logging, LogCategory, StrobeTraceChannel)
    {
      STROBE_SET (Id, c->id);
      STROBE_SET (DefaultVerbosity, c->default_verbosity);
      STROBE_SET_STRING (Name, c->name);
    }
  c->announced = true;
}

static __attribute__ ((noinline, cold)) bool
register_spec (StrobeLogSpec *spec)
{
  Plan *plan;
  uint32_t id;

  pthread_mutex_lock (&strobe__log_lock);
  if (spec->id)
    {
      pthread_mutex_unlock (&strobe__log_lock);
      return true;
    }
  plan = plan_compile (spec->format ? spec->format : "");
  if (plan == NULL)
    {
      pthread_mutex_unlock (&strobe__log_lock);
      return false;
    }
  announce_category_locked (spec->category);
  id = next_spec_id++;
  STROBE_LOG (Logging, LogMessageSpec, StrobeTraceChannel)
    {
      STROBE_SET (Id, id);
      STROBE_SET (CategoryId, spec->category->id);
      STROBE_SET (Line, spec->line);
      STROBE_SET (Verbosity, spec->verbosity);
      STROBE_SET_STRING (File, spec->file ? spec->file : "");
      STROBE_SET_STRING (FormatString, spec->format ? spec->format : "");
    }
  spec->compiled = plan;
  __atomic_store_n (&spec->id, id, __ATOMIC_RELEASE);
  pthread_mutex_unlock (&strobe__log_lock);
  return true;
}

/* ---- encoding ------------------------------------------------------------------------ */

static size_t
put_utf8 (uint8_t *out, uint32_t c)
{
  if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
    c = 0xfffd;
  if (c < 0x80)
    {
      out[0] = (uint8_t) c;
      return 1;
    }
  if (c < 0x800)
    {
      out[0] = (uint8_t) (0xc0 | (c >> 6));
      out[1] = (uint8_t) (0x80 | (c & 0x3f));
      return 2;
    }
  if (c < 0x10000)
    {
      out[0] = (uint8_t) (0xe0 | (c >> 12));
      out[1] = (uint8_t) (0x80 | ((c >> 6) & 0x3f));
      out[2] = (uint8_t) (0x80 | (c & 0x3f));
      return 3;
    }
  out[0] = (uint8_t) (0xf0 | (c >> 18));
  out[1] = (uint8_t) (0x80 | ((c >> 12) & 0x3f));
  out[2] = (uint8_t) (0x80 | ((c >> 6) & 0x3f));
  out[3] = (uint8_t) (0x80 | (c & 0x3f));
  return 4;
}

/* Worst-case size of the encoded arguments (strings measured), or 0 if too large. */
static size_t
measure (const Plan *p, va_list ap)
{
  size_t total = p->fixed_size;
  int32_t star = -1;

  for (unsigned i = 0; i < p->n_steps; i++)
    {
      const Step *s = &p->steps[i];

      switch (s->kind)
        {
        case STEP_INT: (void) va_arg (ap, int); break;
        case STEP_PREC: star = va_arg (ap, int); break;
        case STEP_LONG: (void) va_arg (ap, long); break;
        case STEP_LLONG: (void) va_arg (ap, long long); break;
        case STEP_SIZE: (void) va_arg (ap, size_t); break;
        case STEP_INTMAX: (void) va_arg (ap, intmax_t); break;
        case STEP_PTRDIFF: (void) va_arg (ap, ptrdiff_t); break;
        case STEP_DOUBLE: (void) va_arg (ap, double); break;
        case STEP_LDOUBLE: (void) va_arg (ap, long double); break;
        case STEP_STRING:
          {
            const char *str = va_arg (ap, const char *);
            int32_t prec = s->precision == -2 ? star : s->precision;
            if (str == NULL)
              total += 6;
            else
              total += prec >= 0 ? strnlen (str, (size_t) prec) : strlen (str);
          }
          break;
        case STEP_WSTRING:
          {
            const wchar_t *w = va_arg (ap, const wchar_t *);
            total += w ? 4 * wcslen (w) : 6;
          }
          break;
        default: (void) va_arg (ap, void *); break;
        }
    }
  return total;
}

#define PUT(v)                                                                             \
  do                                                                                       \
    {                                                                                      \
      __typeof__ (v) strobe__v = (v);                                                      \
      memcpy (out, &strobe__v, sizeof strobe__v);                                          \
      out += sizeof strobe__v;                                                             \
    }                                                                                      \
  while (0)

/* Writes the prefix and the values; @out has room for measure() bytes. */
static uint8_t *
encode (const Plan *p, uint8_t *out, va_list ap)
{
  int32_t star = -1;

  memcpy (out, p->prefix, p->prefix_len);
  out += p->prefix_len;
  for (unsigned i = 0; i < p->n_steps; i++)
    {
      const Step *s = &p->steps[i];

      switch (s->kind)
        {
        case STEP_INT: PUT ((int32_t) va_arg (ap, int)); break;
        case STEP_PREC: star = va_arg (ap, int); PUT (star); break;
        case STEP_LONG: PUT (va_arg (ap, long)); break;
        case STEP_LLONG: PUT (va_arg (ap, long long)); break;
        case STEP_SIZE: PUT (va_arg (ap, size_t)); break;
        case STEP_INTMAX: PUT (va_arg (ap, intmax_t)); break;
        case STEP_PTRDIFF: PUT (va_arg (ap, ptrdiff_t)); break;
        case STEP_DOUBLE: PUT (va_arg (ap, double)); break;
        case STEP_LDOUBLE:
          {
            long double v = va_arg (ap, long double);
#if LDBL_MANT_DIG == 64
            memcpy (out, &v, 10);
            out += 10;
#elif LDBL_MANT_DIG == 113
            memcpy (out, &v, 16);
            out += 16;
#else
            PUT ((double) v);
#endif
          }
          break;
        case STEP_STRING:
          {
            const char *str = va_arg (ap, const char *);
            int32_t prec = s->precision == -2 ? star : s->precision;
            size_t n;

            if (str == NULL)
              str = "(null)";
            n = prec >= 0 ? strnlen (str, (size_t) prec) : strlen (str);
            memcpy (out, str, n);
            out[n] = 0;
            out += n + 1;
          }
          break;
        case STEP_WSTRING:
          {
            const wchar_t *w = va_arg (ap, const wchar_t *);

            if (w == NULL)
              {
                memcpy (out, "(null)", 7);
                out += 7;
                break;
              }
            for (; *w; w++)
              out += put_utf8 (out, (uint32_t) *w);
            *out++ = 0;
          }
          break;
        case STEP_POINTER: PUT (va_arg (ap, void *)); break;
        default: (void) va_arg (ap, void *); break;
        }
    }
  return out;
}

/* ---- the emitter ---------------------------------------------------------------------- */

void
strobe__log_message (StrobeLogSpec *spec, const char *format, ...)
{
  uint64_t cycle = strobe_time ();
  const Plan *plan;
  uint16_t uid;
  size_t args_max;
  uint8_t *p, *args, *end;
  va_list ap;

  (void) format;
  if (__builtin_expect (__atomic_load_n (&spec->id, __ATOMIC_ACQUIRE) == 0, 0)
      && !register_spec (spec))
    {
      strobe__count_drop ();
      return;
    }
  uid = __atomic_load_n (&Logging_LogMessage_type.uid, __ATOMIC_RELAXED);
  if (__builtin_expect (uid == 0, 0) && (uid = strobe__event_register (&Logging_LogMessage_type)) == 0)
    {
      strobe__count_drop ();
      return;
    }
  plan = spec->compiled;
  args_max = plan->fixed_size;
  if (plan->has_strings)
    {
      va_start (ap, format);
      args_max = measure (plan, ap);
      va_end (ap);
    }
  {
    /* Header, payload and the AuxData header are fixed: 22 bytes, then the args. */
    size_t need = 2 + 12 + sizeof (StrobeWireAuxHeader) + args_max + 2;

    if (__builtin_expect (need > STROBE_MAX_EVENT_SIZE, 0))
      {
        strobe__count_drop ();
        goto out;
      }
    if (!strobe__busy_enter ())
      goto out;
    p = strobe__tls.cursor;
    if (__builtin_expect ((size_t) (strobe__tls.end - p) < need, 0)
        && (p = strobe__reserve_slow (need)) == NULL)
      {
        strobe__busy_leave ();
        goto out;
      }
  }
  va_start (ap, format);
  args = p + 2 + 12 + sizeof (StrobeWireAuxHeader);
  end = encode (plan, args, ap);
  va_end (ap);
  memcpy (p, &uid, 2);
  memcpy (p + 2, &cycle, 8);
  memcpy (p + 10, &spec->id, 4);
  strobe_wire_put_u16 (p + 14, STROBE_UID_AUX_DATA);
  p[16] = FORMAT_ARGS_INDEX;
  p[17] = 0;
  strobe_wire_put_u32 (p + 18, (uint32_t) (end - args));
  strobe_wire_put_u16 (end, STROBE_UID_AUX_END);
  strobe__commit (end + 2);
  strobe__busy_leave ();

out:
  if (spec->verbosity == STROBE_LOG_FATAL)
    strobe__hooks_get ()->consumer_flush ();
}
