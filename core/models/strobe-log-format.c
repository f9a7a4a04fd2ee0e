/* strobe-log-format.c — printf over encoded log arguments.
 *
 * Every conversion is rebuilt ("%" flags, '*' for any width or precision, length,
 * conversion) and handed to the C library's snprintf with a value of the exact C type
 * the length modifier names, so flags, padding, rounding and glibc's own spellings
 * ("(nil)", "inf", "-0x1p+0") come out as printf would have written them. Formatting
 * runs in the C locale.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-log-format.h"

#include <fenv.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <wchar.h>

#include "strobe-printf.h"
#include "strobe-text.h"

typedef struct
{
  const guint8 *types;
  guint         n;
  guint         next;
  const guint8 *p;
  const guint8 *end;
} ArgReader;

static gboolean
reader_init (ArgReader *r, const guint8 *args, gsize len)
{
  if (args == NULL || len == 0)
    {
      r->n = r->next = 0;
      r->types = r->p = r->end = NULL;
      return len == 0;
    }
  r->n = args[0];
  if ((gsize) r->n + 1 > len)
    return FALSE;
  r->types = args + 1;
  r->next = 0;
  r->p = args + 1 + r->n;
  r->end = args + len;
  return TRUE;
}

gint
strobe_log_args_count (const guint8 *args, gsize len)
{
  ArgReader r;

  return reader_init (&r, args, len) ? (gint) r.n : -1;
}

/* The next value's type and bytes; FALSE when there is none or it is truncated. */
static gboolean
reader_take (ArgReader *r, guint8 *type, const guint8 **value, gsize *size)
{
  gsize n;

  if (r->next >= r->n)
    return FALSE;
  *type = r->types[r->next];
  if (*type == STROBE_LOG_ARG_STRING)
    {
      const guint8 *nul = memchr (r->p, 0, (gsize) (r->end - r->p));
      if (nul == NULL)
        return FALSE;
      n = (gsize) (nul - r->p) + 1;
    }
  else
    {
      n = strobe_log_arg_size (*type);
      if (n == 0 || (gsize) (r->end - r->p) < n)
        return FALSE;
    }
  *value = r->p;
  *size = n;
  r->p += n;
  r->next++;
  return TRUE;
}

static gboolean
read_int (ArgReader *r, gboolean is_unsigned, guint64 *out)
{
  guint8 t;
  const guint8 *v;
  gsize n;

  if (!reader_take (r, &t, &v, &n))
    return FALSE;
  switch (t)
    {
    case STROBE_LOG_ARG_INT32:
    case STROBE_LOG_ARG_POINTER32:
      {
        guint32 x;
        memcpy (&x, v, 4);
        x = GUINT32_FROM_LE (x);
        *out = is_unsigned ? (guint64) x : (guint64) (gint64) (gint32) x;
        return TRUE;
      }
    case STROBE_LOG_ARG_INT64:
    case STROBE_LOG_ARG_POINTER64:
      {
        guint64 x;
        memcpy (&x, v, 8);
        *out = GUINT64_FROM_LE (x);
        return TRUE;
      }
    default:
      return FALSE;
    }
}

static gboolean
read_double (ArgReader *r, long double *out)
{
  guint8 t;
  const guint8 *v;
  gsize n;

  if (!reader_take (r, &t, &v, &n))
    return FALSE;
  switch (t)
    {
    case STROBE_LOG_ARG_DOUBLE:
      {
        double d;
        memcpy (&d, v, 8);
        *out = d;
        return TRUE;
      }
#if LDBL_MANT_DIG == 64
    case STROBE_LOG_ARG_LDOUBLE80:
      {
        long double d = 0;
        memcpy (&d, v, 10);
        *out = d;
        return TRUE;
      }
#elif LDBL_MANT_DIG == 113
    case STROBE_LOG_ARG_LDOUBLE128:
      {
        long double d;
        memcpy (&d, v, 16);
        *out = d;
        return TRUE;
      }
#endif
    default:
      return FALSE;
    }
}

static gboolean
read_string (ArgReader *r, const char **out)
{
  guint8 t;
  const guint8 *v;
  gsize n;

  if (!reader_take (r, &t, &v, &n) || t != STROBE_LOG_ARG_STRING)
    return FALSE;
  *out = (const char *) v;
  return TRUE;
}

static locale_t
c_locale (void)
{
  static gsize once;
  static locale_t loc;

  if (g_once_init_enter (&once))
    {
      loc = newlocale (LC_ALL_MASK, "C", (locale_t) 0);
      g_once_init_leave (&once, 1);
    }
  return loc;
}

/* The C library's formatting in the C locale, switched to only when it is first needed:
 * most messages never reach snprintf, and two uselocale() calls were 2 % of a text filter. */
typedef struct
{
  gboolean on;
  locale_t old;
} CLocale;

static void
c_locale_enter (CLocale *c)
{
  if (!c->on)
    {
      c->old = uselocale (c_locale ());
      c->on = TRUE;
    }
}

static void
c_locale_leave (CLocale *c)
{
  if (c->on)
    uselocale (c->old);
  c->on = FALSE;
}

/* Largest field width or precision applied; larger ones are clamped to it. */
#define STROBE_LOG_FORMAT_MAX_FIELD 4096

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* snprintf @spec with 0, 1 or 2 leading int arguments (widths/precisions) and @value,
 * appended to @out. */
#define APPEND_FORMATTED(out, spec, nstar, s1, s2, value)                                  \
  do                                                                                       \
    {                                                                                      \
      char stack_[256];                                                                    \
      char *buf_ = stack_;                                                                 \
      int n_ = 0;                                                                          \
      for (int pass_ = 0; pass_ < 2; pass_++)                                              \
        {                                                                                  \
          gsize cap_ = pass_ == 0 ? sizeof stack_ : (gsize) n_ + 1;                        \
          if (pass_ == 1)                                                                  \
            buf_ = g_malloc (cap_);                                                        \
          if ((nstar) == 0)                                                                \
            n_ = snprintf (buf_, cap_, spec, value);                                       \
          else if ((nstar) == 1)                                                           \
            n_ = snprintf (buf_, cap_, spec, s1, value);                                   \
          else                                                                             \
            n_ = snprintf (buf_, cap_, spec, s1, s2, value);                               \
          if (n_ < 0 || (gsize) n_ < cap_)                                                 \
            break;                                                                         \
        }                                                                                  \
      if (n_ > 0)                                                                          \
        g_string_append_len (out, buf_, n_);                                               \
      if (buf_ != stack_)                                                                  \
        g_free (buf_);                                                                     \
    }                                                                                      \
  while (0)

static const char *
length_text (guint8 length)
{
  switch (length)
    {
    case STROBE_PRINTF_LEN_HH: return "hh";
    case STROBE_PRINTF_LEN_H: return "h";
    case STROBE_PRINTF_LEN_L: return "l";
    case STROBE_PRINTF_LEN_LL: return "ll";
    case STROBE_PRINTF_LEN_Z: return "z";
    case STROBE_PRINTF_LEN_J: return "j";
    case STROBE_PRINTF_LEN_T: return "t";
    case STROBE_PRINTF_LEN_BIG_L: return "L";
    default: return "";
    }
}

/* g_string_append_len without the call into GLib's general insert: a text filter appends
 * a few bytes at a time, a hundred million times. */
static inline void
put (GString *out, const char *s, gsize n)
{
  if (G_LIKELY (out->len + n < out->allocated_len))
    {
      memcpy (out->str + out->len, s, n);
      out->len += n;
      out->str[out->len] = '\0';
    }
  else
    g_string_append_len (out, s, (gssize) n);
}

static void
append_unsigned (GString *out, guint64 v, guint base, gboolean upper)
{
  const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char buf[24];
  int i = sizeof buf;

  if (base == 10)   /* a constant divisor: a multiplication, not a division */
    do
      {
        buf[--i] = (char) ('0' + v % 10);
        v /= 10;
      }
    while (v);
  else
    do
      {
        buf[--i] = digits[v % base];
        v /= base;
      }
    while (v);
  put (out, buf + i, sizeof buf - (gsize) i);
}

static const guint64 pow10_u64[] = {
  1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull, 100000000ull,
  1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
  100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
  1000000000000000000ull,
};

#define FIXED_MAX_PRECISION 18

/* %.<precision>f of @d, the bytes glibc's printf writes: the exact binary value rounded
 * to @precision decimals, a tie to even (glibc rounds the exact value in the current
 * rounding mode, and a double's exact value is m·2^e, so m·10^p / 2^-e with its remainder
 * says which way). "%.3f" through snprintf was most of a text filter's time (577 ns a
 * message at 100 M messages). FALSE, nothing written, for what this does not cover: not
 * finite, |d|·10^p ≥ 2^63, another rounding mode — the caller asks the C library. */
static gboolean
append_fixed (GString *out, double d, int precision)
{
  char buf[48];
  int i = sizeof buf;
  guint64 bits, m, q, ip, fp;
  int e;
  double a;

  if (precision < 0 || precision > FIXED_MAX_PRECISION || !isfinite (d))
    return FALSE;
  a = fabs (d);
  if (a >= 9223372036854775808.0 / (double) pow10_u64[precision] || fegetround () != FE_TONEAREST)
    return FALSE;
  memcpy (&bits, &a, sizeof bits);
  e = (int) ((bits >> 52) & 0x7ff);
  m = bits & ((G_GUINT64_CONSTANT (1) << 52) - 1);
  if (e == 0)
    e = -1074;   /* subnormal (or zero) */
  else
    {
      m |= G_GUINT64_CONSTANT (1) << 52;
      e -= 1075;
    }
  if (e >= 0)
    q = (m << e) * pow10_u64[precision];   /* below 2^63 by the test above */
  else
    {
      unsigned __int128 n = (unsigned __int128) m * pow10_u64[precision];   /* < 2^113 */
      int k = -e;

      if (k >= 120)
        q = 0;   /* n < 2^113 < half of 2^k: rounds to 0 */
      else
        {
          unsigned __int128 one = 1, rem = n & ((one << k) - 1), half = one << (k - 1);

          q = (guint64) (n >> k);
          if (rem > half || (rem == half && (q & 1)))
            q++;
        }
    }
  ip = q / pow10_u64[precision];
  fp = q % pow10_u64[precision];
  for (int k = 0; k < precision; k++, fp /= 10)
    buf[--i] = (char) ('0' + fp % 10);
  if (precision > 0)
    buf[--i] = '.';
  do
    {
      buf[--i] = (char) ('0' + ip % 10);
      ip /= 10;
    }
  while (ip);
  if (signbit (d))
    buf[--i] = '-';
  put (out, buf + i, sizeof buf - (gsize) i);
  return TRUE;
}

gboolean
strobe_log_format_fixed (GString *out, double d, int precision)
{
  g_return_val_if_fail (out != NULL, FALSE);
  return append_fixed (out, d, precision);
}

/* A conversion without flags, width or precision of the kinds most messages use, written
 * without snprintf: it is most of the time a text search spends. The output is what
 * printf writes (test-log-format checks every conversion against snprintf). FALSE (and
 * nothing read) when @s is not one of those; *@ok says whether its argument was there. */
static gboolean
format_plain (const StrobePrintfSpec *s, ArgReader *r, GString *out, gboolean *ok)
{
  char c = s->conversion;
  gboolean is_unsigned = c == 'u' || c == 'x' || c == 'X' || c == 'o';
  guint64 iv;

  switch (s->arg)
    {
    case STROBE_PRINTF_ARG_STRING:
    case STROBE_PRINTF_ARG_WSTRING:
      {
        const char *str;

        *ok = read_string (r, &str);
        if (*ok)
          put (out, str, strlen (str));
        return TRUE;
      }
    case STROBE_PRINTF_ARG_POINTER:
      *ok = read_int (r, TRUE, &iv);
      if (*ok && iv == 0)
        g_string_append (out, "(nil)");
      else if (*ok)
        {
          g_string_append (out, "0x");
          append_unsigned (out, iv, 16, FALSE);
        }
      return TRUE;
    case STROBE_PRINTF_ARG_INT:
    case STROBE_PRINTF_ARG_LONG:
    case STROBE_PRINTF_ARG_LLONG:
    case STROBE_PRINTF_ARG_SIZE:
    case STROBE_PRINTF_ARG_INTMAX:
    case STROBE_PRINTF_ARG_PTRDIFF:
      if (c != 'd' && c != 'i' && !is_unsigned)
        return FALSE;
      if (s->arg != STROBE_PRINTF_ARG_INT && (GLIB_SIZEOF_LONG != 8 || GLIB_SIZEOF_SIZE_T != 8))
        return FALSE;
      *ok = read_int (r, is_unsigned, &iv);
      if (!*ok)
        return TRUE;
      /* The value as the C type printf would have read, as the slow path passes it. */
      if (s->arg == STROBE_PRINTF_ARG_INT)
        {
          if (is_unsigned)
            {
              unsigned int u = (unsigned int) iv;

              if (s->length == STROBE_PRINTF_LEN_H)
                u = (unsigned short) u;
              else if (s->length == STROBE_PRINTF_LEN_HH)
                u = (unsigned char) u;
              iv = u;
            }
          else
            {
              int v = (int) (gint64) iv;

              if (s->length == STROBE_PRINTF_LEN_H)
                v = (short) v;
              else if (s->length == STROBE_PRINTF_LEN_HH)
                v = (signed char) v;
              iv = (guint64) (gint64) v;
            }
        }
      if (is_unsigned)
        append_unsigned (out, iv, c == 'o' ? 8 : c == 'u' ? 10 : 16, c == 'X');
      else if ((gint64) iv < 0)
        {
          g_string_append_c (out, '-');
          append_unsigned (out, (guint64) 0 - iv, 10, FALSE);
        }
      else
        append_unsigned (out, iv, 10, FALSE);
      return TRUE;
    default:
      return FALSE;
    }
}

/* One conversion with its arguments; FALSE when they are missing or of the wrong kind. */
static gboolean
format_one (const StrobePrintfSpec *s, ArgReader *r, CLocale *c, GString *out)
{
  char spec[48];
  int stars[2];
  int nstar = 0;
  guint64 iv;
  const char *length;
  gboolean is_unsigned;
  gboolean ok;

  if (s->width == STROBE_PRINTF_NONE && s->precision == STROBE_PRINTF_NONE && s->flags[0] == '\0' &&
      format_plain (s, r, out, &ok))
    return ok;
  if (s->arg == STROBE_PRINTF_ARG_DOUBLE && (s->conversion == 'f' || s->conversion == 'F') &&
      s->width == STROBE_PRINTF_NONE && s->flags[0] == '\0' && s->precision != STROBE_PRINTF_STAR)
    {
      ArgReader before = *r;
      long double d;

      if (!read_double (r, &d))
        return FALSE;
      if (append_fixed (out, (double) d, s->precision == STROBE_PRINTF_NONE ? 6 : s->precision))
        return TRUE;
      *r = before;   /* not one append_fixed covers: the C library writes it */
    }
  c_locale_enter (c);
  length = length_text (s->length);
  is_unsigned = strchr ("uxXo", s->conversion) != NULL;

  if (s->width != STROBE_PRINTF_NONE)
    {
      guint64 w;
      if (s->width == STROBE_PRINTF_STAR)
        {
          if (!read_int (r, FALSE, &w))
            return FALSE;
          stars[nstar++] = (int) (gint64) w;
        }
      else
        stars[nstar++] = s->width;
    }
  if (s->precision != STROBE_PRINTF_NONE)
    {
      guint64 p;
      if (s->precision == STROBE_PRINTF_STAR)
        {
          if (!read_int (r, FALSE, &p))
            return FALSE;
          stars[nstar++] = (int) (gint64) p;
        }
      else
        stars[nstar++] = s->precision;
    }
  /* Widths and precisions come from the trace (a '*' argument or up to nine digits):
   * clamped, so one message cannot make the reader allocate and write gigabytes. */
  for (int i = 0; i < nstar; i++)
    stars[i] = CLAMP (stars[i], -STROBE_LOG_FORMAT_MAX_FIELD, STROBE_LOG_FORMAT_MAX_FIELD);
  if (s->arg == STROBE_PRINTF_ARG_STRING || s->arg == STROBE_PRINTF_ARG_WSTRING)
    length = "";   /* wide strings arrive as UTF-8 */
  g_snprintf (spec, sizeof spec, "%%%s%s%s%s%c", s->flags,
              s->width != STROBE_PRINTF_NONE ? "*" : "",
              s->precision != STROBE_PRINTF_NONE ? ".*" : "", length, s->conversion);
  int s1 = nstar > 0 ? stars[0] : 0, s2 = nstar > 1 ? stars[1] : 0;

  switch (s->arg)
    {
    case STROBE_PRINTF_ARG_INT:
      if (!read_int (r, is_unsigned, &iv))
        return FALSE;
      if (s->conversion == 'c' && s->length == STROBE_PRINTF_LEN_L)
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (wint_t) iv);
      else if (is_unsigned)
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (unsigned int) iv);
      else
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (int) (gint64) iv);
      return TRUE;
    case STROBE_PRINTF_ARG_LONG:
      if (!read_int (r, is_unsigned, &iv))
        return FALSE;
      if (is_unsigned)
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (unsigned long) iv);
      else
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (long) (gint64) iv);
      return TRUE;
    case STROBE_PRINTF_ARG_LLONG:
      if (!read_int (r, is_unsigned, &iv))
        return FALSE;
      if (is_unsigned)
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (unsigned long long) iv);
      else
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (long long) (gint64) iv);
      return TRUE;
    case STROBE_PRINTF_ARG_SIZE:
      if (!read_int (r, is_unsigned, &iv))
        return FALSE;
      if (is_unsigned)
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (size_t) iv);
      else
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (ssize_t) (gint64) iv);
      return TRUE;
    case STROBE_PRINTF_ARG_INTMAX:
      if (!read_int (r, is_unsigned, &iv))
        return FALSE;
      if (is_unsigned)
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (uintmax_t) iv);
      else
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (intmax_t) (gint64) iv);
      return TRUE;
    case STROBE_PRINTF_ARG_PTRDIFF:
      if (!read_int (r, is_unsigned, &iv))
        return FALSE;
      if (is_unsigned)
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (size_t) iv);
      else
        APPEND_FORMATTED (out, spec, nstar, s1, s2, (ptrdiff_t) (gint64) iv);
      return TRUE;
    case STROBE_PRINTF_ARG_POINTER:
      if (!read_int (r, TRUE, &iv))
        return FALSE;
      APPEND_FORMATTED (out, spec, nstar, s1, s2, (void *) (uintptr_t) iv);
      return TRUE;
    case STROBE_PRINTF_ARG_DOUBLE:
    case STROBE_PRINTF_ARG_LDOUBLE:
      {
        long double d;
        if (!read_double (r, &d))
          return FALSE;
        if (s->arg == STROBE_PRINTF_ARG_LDOUBLE)
          APPEND_FORMATTED (out, spec, nstar, s1, s2, d);
        else
          APPEND_FORMATTED (out, spec, nstar, s1, s2, (double) d);
      }
      return TRUE;
    case STROBE_PRINTF_ARG_STRING:
    case STROBE_PRINTF_ARG_WSTRING:
      {
        const char *str;
        if (!read_string (r, &str))
          return FALSE;
        APPEND_FORMATTED (out, spec, nstar, s1, s2, str);
      }
      return TRUE;
    default:
      return TRUE;
    }
}

#pragma GCC diagnostic pop

/* One piece of the format: a conversion written with its arguments, or as itself. */
static gboolean
format_spec (const char *format, const StrobePrintfSpec *s, ArgReader *r, gboolean ok, CLocale *c, GString *out)
{
  if (s->conversion == '%')
    put (out, "%", 1);
  else if (s->conversion == 0 || s->arg == STROBE_PRINTF_ARG_NONE)
    put (out, format + s->start, s->end - s->start);
  else if (s->arg == STROBE_PRINTF_ARG_COUNT)
    ;   /* %n writes nothing */
  else if (!ok || !format_one (s, r, c, out))
    {
      put (out, "(?)", 3);
      ok = FALSE;
    }
  return ok;
}

gboolean
strobe_log_format (const char *format, const guint8 *args, gsize len, GString *out)
{
  ArgReader r;
  StrobePrintfSpec s;
  gsize pos = 0;
  gboolean ok;
  CLocale c = { 0 };

  g_return_val_if_fail (out != NULL, FALSE);
  if (format == NULL)
    format = "";
  ok = reader_init (&r, args, len);
  while (strobe_printf_next (format, pos, &s))
    {
      put (out, format + pos, s.start - pos);
      pos = s.end;
      ok = format_spec (format, &s, &r, ok, &c, out);
    }
  g_string_append (out, format + pos);
  c_locale_leave (&c);
  return ok && r.next == r.n;
}

struct _StrobeLogFormatPlan
{
  char             *format;
  gsize             tail;       /* where the text after the last conversion starts */
  gsize             tail_len;
  guint             n;
  StrobePrintfSpec  specs[];
};

StrobeLogFormatPlan *
strobe_log_format_plan_new (const char *format)
{
  StrobeLogFormatPlan *plan;
  StrobePrintfSpec s;
  gsize pos = 0;
  guint n = 0;

  if (format == NULL)
    format = "";
  while (strobe_printf_next (format, pos, &s))
    {
      pos = s.end;
      n++;
    }
  plan = g_malloc (sizeof *plan + n * sizeof (StrobePrintfSpec));
  plan->format = g_strdup (format);
  plan->n = n;
  pos = 0;
  for (guint i = 0; i < n; i++)
    {
      strobe_printf_next (plan->format, pos, &plan->specs[i]);
      pos = plan->specs[i].end;
    }
  plan->tail = pos;
  plan->tail_len = strlen (plan->format + pos);
  return plan;
}

void
strobe_log_format_plan_free (StrobeLogFormatPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->format);
  g_free (plan);
}

const char *
strobe_log_format_plan_get_format (const StrobeLogFormatPlan *plan)
{
  g_return_val_if_fail (plan != NULL, NULL);
  return plan->format;
}

/* Takes the arguments conversion @s would format, as format_one reads them (the same
 * kinds accepted); FALSE where format_one would have failed. */
static gboolean
skip_one (const StrobePrintfSpec *s, ArgReader *r)
{
  guint64 iv;
  long double d;

  if (s->width == STROBE_PRINTF_STAR && !read_int (r, FALSE, &iv))
    return FALSE;
  if (s->precision == STROBE_PRINTF_STAR && !read_int (r, FALSE, &iv))
    return FALSE;
  switch (s->arg)
    {
    case STROBE_PRINTF_ARG_INT:
    case STROBE_PRINTF_ARG_LONG:
    case STROBE_PRINTF_ARG_LLONG:
    case STROBE_PRINTF_ARG_SIZE:
    case STROBE_PRINTF_ARG_INTMAX:
    case STROBE_PRINTF_ARG_PTRDIFF:
    case STROBE_PRINTF_ARG_POINTER:
      return read_int (r, FALSE, &iv);
    case STROBE_PRINTF_ARG_DOUBLE:
    case STROBE_PRINTF_ARG_LDOUBLE:
      return read_double (r, &d);
    default:
      return FALSE;
    }
}

gboolean
strobe_log_format_plan_apply (const StrobeLogFormatPlan *plan, const guint8 *args, gsize len, GString *out)
{
  return strobe_log_format_plan_apply_masked (plan, args, len, 0, out);
}

gboolean
strobe_log_format_plan_apply_masked (const StrobeLogFormatPlan *plan,
                                     const guint8              *args,
                                     gsize                      len,
                                     guint64                    barriers,
                                     GString                   *out)
{
  ArgReader r;
  gsize pos = 0;
  gboolean ok;
  CLocale c = { 0 };

  g_return_val_if_fail (plan != NULL && out != NULL, FALSE);
  ok = reader_init (&r, args, len);
  for (guint i = 0; i < plan->n; i++)
    {
      const StrobePrintfSpec *s = &plan->specs[i];

      put (out, plan->format + pos, s->start - pos);
      pos = s->end;
      if (i < 64 && (barriers >> i) & 1 && s->conversion != '%' && s->arg != STROBE_PRINTF_ARG_NONE &&
          s->arg != STROBE_PRINTF_ARG_COUNT && ok)
        {
          ArgReader before = r;

          if (skip_one (s, &r))
            {
              put (out, "\x01", 1);
              continue;
            }
          r = before;   /* format_one fails on it the same way, and says so */
        }
      ok = format_spec (plan->format, s, &r, ok, &c, out);
    }
  put (out, plan->format + plan->tail, plan->tail_len);
  c_locale_leave (&c);
  return ok && r.next == r.n;
}

/* ---- arguments one by one ------------------------------------------------------- */

gboolean
strobe_log_args_split (const guint8 *args,
                       gsize         len,
                       GArray       *out)
{
  ArgReader r;
  StrobeLogArg a;

  g_return_val_if_fail (out != NULL, FALSE);
  if (!reader_init (&r, args, len))
    return FALSE;
  while (reader_take (&r, &a.type, &a.value, &a.size))
    g_array_append_val (out, a);
  return r.next == r.n && r.p == r.end;
}

const char *
strobe_log_arg_type_name (guint8 type)
{
  switch (type)
    {
    case STROBE_LOG_ARG_INT32:      return "int32";
    case STROBE_LOG_ARG_INT64:      return "int64";
    case STROBE_LOG_ARG_DOUBLE:     return "double";
    case STROBE_LOG_ARG_LDOUBLE80:  return "long double (80-bit)";
    case STROBE_LOG_ARG_LDOUBLE128: return "long double (128-bit)";
    case STROBE_LOG_ARG_STRING:     return "string";
    case STROBE_LOG_ARG_POINTER32:  return "pointer32";
    case STROBE_LOG_ARG_POINTER64:  return "pointer64";
    default:                        return NULL;
    }
}

char *
strobe_log_arg_to_string (const StrobeLogArg *arg)
{
  g_return_val_if_fail (arg != NULL, NULL);

  switch (arg->type)
    {
    case STROBE_LOG_ARG_INT32:
      {
        guint32 x;
        memcpy (&x, arg->value, 4);
        x = GUINT32_FROM_LE (x);
        return g_strdup_printf ("%d (0x%08x)", (gint32) x, x);
      }
    case STROBE_LOG_ARG_INT64:
      {
        guint64 x;
        memcpy (&x, arg->value, 8);
        x = GUINT64_FROM_LE (x);
        return g_strdup_printf ("%" G_GINT64_FORMAT " (0x%016" G_GINT64_MODIFIER "x)", (gint64) x, x);
      }
    case STROBE_LOG_ARG_POINTER32:
      {
        guint32 x;
        memcpy (&x, arg->value, 4);
        return g_strdup_printf ("0x%08x", GUINT32_FROM_LE (x));
      }
    case STROBE_LOG_ARG_POINTER64:
      {
        guint64 x;
        memcpy (&x, arg->value, 8);
        return g_strdup_printf ("0x%016" G_GINT64_MODIFIER "x", GUINT64_FROM_LE (x));
      }
    case STROBE_LOG_ARG_DOUBLE:
      {
        double d;
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        memcpy (&d, arg->value, 8);
        return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.17g", d));
      }
#if LDBL_MANT_DIG == 64
    case STROBE_LOG_ARG_LDOUBLE80:
      {
        long double d = 0;
        locale_t old = uselocale (c_locale ());
        char *text;
        memcpy (&d, arg->value, 10);
        text = g_strdup_printf ("%.21Lg", d);
        uselocale (old);
        return text;
      }
#endif
    case STROBE_LOG_ARG_STRING:
      {
        GString *out = g_string_new (NULL);

        strobe_text_append_escaped (out, (const char *) arg->value, (gssize) arg->size - 1,
                                    STROBE_TEXT_PLAIN | STROBE_TEXT_QUOTES);
        return g_string_free (out, FALSE);
      }
    default:
      {
        /* Long doubles of another machine's layout, or unknown: the bytes. */
        GString *hex = g_string_new (NULL);
        for (gsize i = 0; i < arg->size; i++)
          g_string_append_printf (hex, i ? " %02x" : "%02x", arg->value[i]);
        return g_string_free (hex, FALSE);
      }
    }
}
