/* strobe-printf.h — the printf conversion parser shared by the log writer (which walks a
 * format string to learn the types of its arguments) and the analysis (which rebuilds
 * each conversion to format the arguments). Header-only and dependency-free: the runtime
 * and the GLib side both include it.
 *
 * Grammar: %[flags][width][.precision][length]conversion with flags "-+ #0'", width and
 * precision a number or '*', length hh h l ll z j t L q. Positional arguments (%1$d) are
 * not supported. See PROTOCOL.md §Logging.LogMessage for how arguments are encoded.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum
{
  STROBE_PRINTF_LEN_NONE = 0,
  STROBE_PRINTF_LEN_HH,
  STROBE_PRINTF_LEN_H,
  STROBE_PRINTF_LEN_L,
  STROBE_PRINTF_LEN_LL,
  STROBE_PRINTF_LEN_Z,
  STROBE_PRINTF_LEN_J,
  STROBE_PRINTF_LEN_T,
  STROBE_PRINTF_LEN_BIG_L,
};

#define STROBE_PRINTF_NONE (-1)   /* no width / precision */
#define STROBE_PRINTF_STAR (-2)   /* '*': taken from an int argument */

/* What an argument of a conversion is, as va_arg must read it. */
enum
{
  STROBE_PRINTF_ARG_NONE = 0,   /* %% and unknown conversions: no argument */
  STROBE_PRINTF_ARG_INT,        /* int (also char/short after promotion, %c, wint_t) */
  STROBE_PRINTF_ARG_LONG,
  STROBE_PRINTF_ARG_LLONG,
  STROBE_PRINTF_ARG_SIZE,       /* size_t / ssize_t */
  STROBE_PRINTF_ARG_INTMAX,
  STROBE_PRINTF_ARG_PTRDIFF,
  STROBE_PRINTF_ARG_DOUBLE,
  STROBE_PRINTF_ARG_LDOUBLE,
  STROBE_PRINTF_ARG_STRING,     /* const char * */
  STROBE_PRINTF_ARG_WSTRING,    /* const wchar_t * (%ls) */
  STROBE_PRINTF_ARG_POINTER,    /* %p */
  STROBE_PRINTF_ARG_COUNT,      /* %n: a pointer that is consumed, never written */
};

typedef struct
{
  size_t   start;        /* offset of the '%' */
  size_t   end;          /* offset just past the conversion character */
  char     flags[8];     /* the flag characters as written, NUL-terminated */
  int      width;        /* >= 0, STROBE_PRINTF_NONE or STROBE_PRINTF_STAR */
  int      precision;    /* >= 0, STROBE_PRINTF_NONE or STROBE_PRINTF_STAR */
  uint8_t  length;       /* STROBE_PRINTF_LEN_* */
  char     conversion;   /* '%', 'd', … ; 0 when the format ended inside the spec */
  uint8_t  arg;          /* STROBE_PRINTF_ARG_* of the value */
} StrobePrintfSpec;

static inline int
strobe_printf__number (const char *f, size_t *i)
{
  long v = 0;

  while (f[*i] >= '0' && f[*i] <= '9')
    {
      if (v < 100000000)
        v = v * 10 + (f[*i] - '0');
      (*i)++;
    }
  return (int) v;
}

static inline uint8_t
strobe_printf__arg (char conv, uint8_t length)
{
  switch (conv)
    {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
      switch (length)
        {
        case STROBE_PRINTF_LEN_L:  return STROBE_PRINTF_ARG_LONG;
        case STROBE_PRINTF_LEN_LL: return STROBE_PRINTF_ARG_LLONG;
        case STROBE_PRINTF_LEN_BIG_L: return STROBE_PRINTF_ARG_LLONG;   /* glibc: %Ld = %lld */
        case STROBE_PRINTF_LEN_Z:  return STROBE_PRINTF_ARG_SIZE;
        case STROBE_PRINTF_LEN_J:  return STROBE_PRINTF_ARG_INTMAX;
        case STROBE_PRINTF_LEN_T:  return STROBE_PRINTF_ARG_PTRDIFF;
        default:                   return STROBE_PRINTF_ARG_INT;
        }
    case 'c':
      return STROBE_PRINTF_ARG_INT;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      return length == STROBE_PRINTF_LEN_BIG_L ? STROBE_PRINTF_ARG_LDOUBLE : STROBE_PRINTF_ARG_DOUBLE;
    case 's':
      return length == STROBE_PRINTF_LEN_L ? STROBE_PRINTF_ARG_WSTRING : STROBE_PRINTF_ARG_STRING;
    case 'p':
      return STROBE_PRINTF_ARG_POINTER;
    case 'n':
      return STROBE_PRINTF_ARG_COUNT;
    default:
      return STROBE_PRINTF_ARG_NONE;
    }
}

/* Finds the next conversion at or after @pos. Returns 0 when there is none (the rest is
 * literal text), 1 with @spec filled otherwise. The literal text before it is
 * [pos, spec->start). */
static inline int
strobe_printf_next (const char *fmt, size_t pos, StrobePrintfSpec *spec)
{
  size_t i = pos, nf = 0;

  while (fmt[i] && fmt[i] != '%')
    i++;
  if (!fmt[i])
    return 0;
  spec->start = i++;
  while (fmt[i] && (fmt[i] == '-' || fmt[i] == '+' || fmt[i] == ' ' || fmt[i] == '#'
                    || fmt[i] == '0' || fmt[i] == '\''))
    {
      if (nf < sizeof spec->flags - 1)
        spec->flags[nf++] = fmt[i];
      i++;
    }
  spec->flags[nf] = '\0';
  spec->width = STROBE_PRINTF_NONE;
  if (fmt[i] == '*')
    {
      spec->width = STROBE_PRINTF_STAR;
      i++;
    }
  else if (fmt[i] >= '0' && fmt[i] <= '9')
    spec->width = strobe_printf__number (fmt, &i);
  spec->precision = STROBE_PRINTF_NONE;
  if (fmt[i] == '.')
    {
      i++;
      if (fmt[i] == '*')
        {
          spec->precision = STROBE_PRINTF_STAR;
          i++;
        }
      else
        spec->precision = strobe_printf__number (fmt, &i);
    }
  spec->length = STROBE_PRINTF_LEN_NONE;
  switch (fmt[i])
    {
    case 'h':
      i++;
      if (fmt[i] == 'h')
        {
          spec->length = STROBE_PRINTF_LEN_HH;
          i++;
        }
      else
        spec->length = STROBE_PRINTF_LEN_H;
      break;
    case 'l':
      i++;
      if (fmt[i] == 'l')
        {
          spec->length = STROBE_PRINTF_LEN_LL;
          i++;
        }
      else
        spec->length = STROBE_PRINTF_LEN_L;
      break;
    case 'q': spec->length = STROBE_PRINTF_LEN_LL; i++; break;
    case 'z': spec->length = STROBE_PRINTF_LEN_Z; i++; break;
    case 'j': spec->length = STROBE_PRINTF_LEN_J; i++; break;
    case 't': spec->length = STROBE_PRINTF_LEN_T; i++; break;
    case 'L': spec->length = STROBE_PRINTF_LEN_BIG_L; i++; break;
    default: break;
    }
  spec->conversion = fmt[i];
  if (fmt[i])
    i++;
  spec->end = i;
  spec->arg = strobe_printf__arg (spec->conversion, spec->length);
  return 1;
}

/* ---- the encoding of Logging.LogMessage.FormatArgs ------------------------------------
 * [count u8][one type byte per argument][values in order, little-endian, unaligned].
 * '*' widths and precisions are arguments of their own (INT32), in the order printf reads
 * them. %n consumes its pointer and encodes nothing. */
enum
{
  STROBE_LOG_ARG_INT32      = 0x14,
  STROBE_LOG_ARG_INT64      = 0x18,
  STROBE_LOG_ARG_DOUBLE     = 0x28,
  STROBE_LOG_ARG_LDOUBLE80  = 0x2a,   /* x87 extended: 10 bytes */
  STROBE_LOG_ARG_LDOUBLE128 = 0x2f,   /* IEEE binary128: 16 bytes */
  STROBE_LOG_ARG_STRING     = 0x30,   /* UTF-8 bytes and a NUL */
  STROBE_LOG_ARG_POINTER32  = 0x44,
  STROBE_LOG_ARG_POINTER64  = 0x48,
};

#define STROBE_LOG_MAX_ARGS 64

/* Size of a fixed-size value of type byte @t; 0 for strings and unknown types. */
static inline size_t
strobe_log_arg_size (uint8_t t)
{
  switch (t)
    {
    case STROBE_LOG_ARG_INT32:      return 4;
    case STROBE_LOG_ARG_INT64:      return 8;
    case STROBE_LOG_ARG_DOUBLE:     return 8;
    case STROBE_LOG_ARG_LDOUBLE80:  return 10;
    case STROBE_LOG_ARG_LDOUBLE128: return 16;
    case STROBE_LOG_ARG_POINTER32:  return 4;
    case STROBE_LOG_ARG_POINTER64:  return 8;
    default:                        return 0;
    }
}

#ifdef __cplusplus
}
#endif
