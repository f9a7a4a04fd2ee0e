/* strobe-log-search.c — substring terms are matched (strobe-text-find.c: each term looked
 * at once, not per message) on a case-folded copy of the text in the caller's scratch
 * buffer, so a search over millions of messages allocates nothing per message.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-log-search.h"

#include <string.h>

#include "strobe-printf.h"
#include "strobe-text-find.h"

struct _StrobeLogSearch
{
  gatomicrefcount      ref;
  char                *text;
  StrobeLogSearchFlags flags;
  GPtrArray           *include;     /* char *, folded when case-insensitive */
  GPtrArray           *exclude;
  GArray              *include_find;   /* StrobeTextFinder of each term above */
  GArray              *exclude_find;
  gboolean             unicode;     /* a term is not ASCII: fold with g_utf8_casefold */
  GRegex              *regex;
};

G_DEFINE_BOXED_TYPE (StrobeLogSearch, strobe_log_search, strobe_log_search_ref, strobe_log_search_unref)

static gboolean
is_ascii (const char *s)
{
  for (; *s; s++)
    if ((guchar) *s >= 0x80)
      return FALSE;
  return TRUE;
}

static char *
fold (const StrobeLogSearch *self, const char *term)
{
  if (self->flags & STROBE_LOG_SEARCH_CASE_SENSITIVE)
    return g_strdup (term);
  if (!is_ascii (term) && g_utf8_validate (term, -1, NULL))
    return g_utf8_casefold (term, -1);
  return g_ascii_strdown (term, -1);
}

static void add_term (StrobeLogSearch *self, const char *raw);

/* "frame -draw" is what a user types to hide draw among the frame messages (issue 24 item
 * 19): as one phrase it matched nothing and the log showed 0 rows without a word. In a
 * comma-separated term, a word after a blank that starts with '-' is an exclusion of its
 * own; the other words stay one phrase ("load level" is still one text). */
static gboolean
split_blank_minus (StrobeLogSearch *self, const char *term)
{
  g_auto(GStrv) words = NULL;
  g_autoptr(GString) phrase = NULL;
  gboolean any = FALSE;

  for (const char *p = term; *p != '\0'; p++)
    if (g_ascii_isspace (*p) && p[1] == '-' && p[2] != '\0' && !g_ascii_isspace (p[2]))
      any = TRUE;
  if (!any)
    return FALSE;
  words = g_strsplit_set (term, " \t\n\r\f\v", -1);
  phrase = g_string_new (NULL);
  for (guint i = 0; words[i] != NULL; i++)
    {
      if (words[i][0] == '\0')
        continue;
      if (words[i][0] == '-' && words[i][1] != '\0')
        add_term (self, words[i]);
      else
        g_string_append_printf (phrase, "%s%s", phrase->len ? " " : "", words[i]);
    }
  if (phrase->len)
    add_term (self, phrase->str);
  return TRUE;
}

static void
add_term (StrobeLogSearch *self, const char *raw)
{
  g_autofree char *term = g_strstrip (g_strdup (raw));
  gboolean minus = term[0] == '-' && !(self->flags & STROBE_LOG_SEARCH_LITERAL);
  const char *body = minus ? term + 1 : term;

  if (*body == '\0' || split_blank_minus (self, term))
    return;
  if (!(self->flags & STROBE_LOG_SEARCH_CASE_SENSITIVE) && !is_ascii (body))
    self->unicode = TRUE;
  g_ptr_array_add (minus ? self->exclude : self->include, fold (self, body));
}

static void
finders_init (GArray *finders, GPtrArray *terms)
{
  g_array_set_size (finders, terms->len);
  for (guint i = 0; i < terms->len; i++)
    {
      const char *term = g_ptr_array_index (terms, i);

      strobe_text_finder_init (&g_array_index (finders, StrobeTextFinder, i), term, strlen (term));
    }
}

StrobeLogSearch *
strobe_log_search_new (const char            *text,
                       StrobeLogSearchFlags   flags,
                       GError               **error)
{
  g_autoptr(StrobeLogSearch) self = NULL;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (StrobeLogSearch, 1);
  g_atomic_ref_count_init (&self->ref);
  self->text = g_strdup (text);
  self->flags = flags;
  self->include = g_ptr_array_new_with_free_func (g_free);
  self->exclude = g_ptr_array_new_with_free_func (g_free);
  self->include_find = g_array_new (FALSE, FALSE, sizeof (StrobeTextFinder));
  self->exclude_find = g_array_new (FALSE, FALSE, sizeof (StrobeTextFinder));
  g_array_set_clear_func (self->include_find, (GDestroyNotify) strobe_text_finder_clear);
  g_array_set_clear_func (self->exclude_find, (GDestroyNotify) strobe_text_finder_clear);

  if (flags & STROBE_LOG_SEARCH_REGEX)
    {
      GRegexCompileFlags cflags = G_REGEX_OPTIMIZE;

      if (*text == '\0')
        return g_steal_pointer (&self);
      if (!(flags & STROBE_LOG_SEARCH_CASE_SENSITIVE))
        cflags |= G_REGEX_CASELESS;
      self->regex = g_regex_new (text, cflags, 0, error);
      if (self->regex == NULL)
        return NULL;
    }
  else if (flags & STROBE_LOG_SEARCH_LITERAL)
    {
      if (*text != '\0')
        {
          if (!(flags & STROBE_LOG_SEARCH_CASE_SENSITIVE) && !is_ascii (text))
            self->unicode = TRUE;
          g_ptr_array_add (self->include, fold (self, text));
        }
    }
  else
    {
      g_auto(GStrv) terms = g_strsplit (text, ",", -1);

      for (guint i = 0; terms[i] != NULL; i++)
        add_term (self, terms[i]);
    }
  finders_init (self->include_find, self->include);
  finders_init (self->exclude_find, self->exclude);
  return g_steal_pointer (&self);
}

StrobeLogSearch *
strobe_log_search_ref (StrobeLogSearch *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
strobe_log_search_unref (StrobeLogSearch *self)
{
  g_return_if_fail (self != NULL);
  if (!g_atomic_ref_count_dec (&self->ref))
    return;
  g_free (self->text);
  g_ptr_array_unref (self->include);
  g_ptr_array_unref (self->exclude);
  g_array_unref (self->include_find);
  g_array_unref (self->exclude_find);
  g_clear_pointer (&self->regex, g_regex_unref);
  g_free (self);
}

gboolean
strobe_log_search_is_empty (const StrobeLogSearch *self)
{
  g_return_val_if_fail (self != NULL, TRUE);
  return self->regex == NULL && self->include->len == 0 && self->exclude->len == 0;
}

const char *
strobe_log_search_get_text (const StrobeLogSearch *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->text;
}

StrobeLogSearchFlags
strobe_log_search_get_flags (const StrobeLogSearch *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->flags;
}

static gboolean
match_regex (const StrobeLogSearch *self, const char *text, gsize len)
{
  g_autofree char *valid = NULL;

  /* GRegex wants UTF-8; a message's %s may have copied any bytes. */
  if (!g_utf8_validate_len (text, len, NULL))
    {
      valid = g_utf8_make_valid (text, (gssize) len);
      text = valid;
      len = strlen (valid);
    }
  return g_regex_match_full (self->regex, text, (gssize) len, 0, 0, NULL, NULL);
}

gboolean
strobe_log_search_match (const StrobeLogSearch *self,
                         const char            *text,
                         gsize                  len,
                         GString               *scratch)
{
  g_autoptr(GString) own = NULL;
  const char *hay = text;
  gsize hay_len = len;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (self->regex != NULL)
    return match_regex (self, text, len);
  if (self->include->len == 0 && self->exclude->len == 0)
    return TRUE;

  if (!(self->flags & STROBE_LOG_SEARCH_CASE_SENSITIVE))
    {
      if (scratch == NULL)
        scratch = own = g_string_new (NULL);
      if (self->unicode && g_utf8_validate_len (text, len, NULL))
        {
          g_autofree char *folded = g_utf8_casefold (text, (gssize) len);

          g_string_assign (scratch, folded);
          hay_len = scratch->len;
        }
      else
        {
          guchar *dst;

          g_string_set_size (scratch, len);
          dst = (guchar *) scratch->str;
          /* g_ascii_tolower is a call a byte: 80 ns of a case-insensitive filter's
           * 215 a message. This loop the compiler makes vector code of. */
          for (gsize i = 0; i < len; i++)
            {
              guchar c = (guchar) text[i];

              dst[i] = (guchar) ((guint) c - 'A' < 26u ? c + ('a' - 'A') : c);
            }
        }
      hay = scratch->str;
    }

  for (guint i = 0; i < self->exclude_find->len; i++)
    if (strobe_text_finder_find (&g_array_index (self->exclude_find, StrobeTextFinder, i), hay, hay_len) != NULL)
      return FALSE;
  if (self->include_find->len == 0)
    return TRUE;
  for (guint i = 0; i < self->include_find->len; i++)
    if (strobe_text_finder_find (&g_array_index (self->include_find, StrobeTextFinder, i), hay, hay_len) != NULL)
      return TRUE;
  return FALSE;
}

/* ---- what a format can write ----------------------------------------------------- */

typedef struct
{
  gboolean   any;          /* a conversion may write any byte (%s, %c, unknown) */
  guint8     bytes[256];   /* the bytes the text may hold (folded when case-insensitive) */
  GPtrArray *literal;      /* the literal pieces, folded: each is in every text */
} FormatShape;

static void
add_bytes (FormatShape *shape, const char *set)
{
  for (; *set; set++)
    shape->bytes[(guchar) *set] = 1;
}

static char *
fold_text (const StrobeLogSearch *self, const char *text, gssize len)
{
  if (self->flags & STROBE_LOG_SEARCH_CASE_SENSITIVE)
    return len < 0 ? g_strdup (text) : g_strndup (text, (gsize) len);
  if (self->unicode && g_utf8_validate (text, len, NULL))
    return g_utf8_casefold (text, len);
  return g_ascii_strdown (text, len);
}

static void
shape_init (const StrobeLogSearch *self, const char *format, FormatShape *shape)
{
  g_autoptr(GString) piece = g_string_new (NULL);
  g_autofree char *folded_format = fold_text (self, format, -1);
  StrobePrintfSpec spec;
  gsize pos = 0;

  memset (shape->bytes, 0, sizeof shape->bytes);
  shape->any = FALSE;
  shape->literal = g_ptr_array_new_with_free_func (g_free);
  /* Every byte of the format may show (an unknown conversion is copied as written), and
   * "(?)" stands for an argument that is missing. */
  add_bytes (shape, folded_format);
  add_bytes (shape, "(?)");

  while (strobe_printf_next (format, pos, &spec))
    {
      g_string_append_len (piece, format + pos, (gssize) (spec.start - pos));
      pos = spec.end;
      if (spec.conversion == '%')
        {
          g_string_append_c (piece, '%');
          continue;
        }
      g_ptr_array_add (shape->literal, fold_text (self, piece->str, (gssize) piece->len));
      g_string_truncate (piece, 0);
      switch (spec.conversion)
        {
        case 'd': case 'i': case 'u':
          add_bytes (shape, "0123456789+- ");
          break;
        case 'x': case 'X': case 'o':
          add_bytes (shape, "0123456789abcdefABCDEFxX+- ");
          break;
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
          add_bytes (shape, "0123456789.+- eEinfaINFA");
          break;
        case 'a': case 'A':
          add_bytes (shape, "0123456789abcdefABCDEF.+- xXpPinINN");
          break;
        case 'p':
          add_bytes (shape, "0123456789abcdefx(nil)+- ");
          break;
        case 'n':
          break;
        default:
          shape->any = TRUE;
          break;
        }
    }
  g_string_append (piece, format + pos);
  g_ptr_array_add (shape->literal, fold_text (self, piece->str, (gssize) piece->len));
  if (!(self->flags & STROBE_LOG_SEARCH_CASE_SENSITIVE))
    for (guint b = 'A'; b <= 'Z'; b++)
      if (shape->bytes[b])
        shape->bytes[b + ('a' - 'A')] = 1;
}

/* The term is in every text of the format. */
static gboolean
term_certain (const FormatShape *shape, const char *term)
{
  for (guint i = 0; i < shape->literal->len; i++)
    if (strstr (g_ptr_array_index (shape->literal, i), term) != NULL)
      return TRUE;
  return FALSE;
}

/* The term can be in some text of the format. */
static gboolean
term_possible (const FormatShape *shape, const char *term)
{
  if (shape->any)
    return TRUE;
  for (const char *p = term; *p; p++)
    if (!shape->bytes[(guchar) *p])
      return FALSE;
  return TRUE;
}

StrobeLogSearchVerdict
strobe_log_search_predict (const StrobeLogSearch *self,
                           const char            *format)
{
  StrobeLogSearchVerdict verdict;
  FormatShape shape;
  gboolean exclusions_impossible = TRUE, include_certain = FALSE, include_possible = FALSE;

  g_return_val_if_fail (self != NULL, STROBE_LOG_SEARCH_MAYBE);
  if (self->regex != NULL || format == NULL)
    return STROBE_LOG_SEARCH_MAYBE;
  if (self->include->len == 0 && self->exclude->len == 0)
    return STROBE_LOG_SEARCH_ALWAYS;

  shape_init (self, format, &shape);
  verdict = STROBE_LOG_SEARCH_MAYBE;
  for (guint i = 0; i < self->exclude->len; i++)
    {
      const char *term = g_ptr_array_index (self->exclude, i);

      if (term_certain (&shape, term))
        {
          verdict = STROBE_LOG_SEARCH_NEVER;
          goto out;
        }
      if (term_possible (&shape, term))
        exclusions_impossible = FALSE;
    }
  for (guint i = 0; i < self->include->len; i++)
    {
      const char *term = g_ptr_array_index (self->include, i);

      include_certain |= term_certain (&shape, term);
      include_possible |= term_possible (&shape, term);
    }
  if (self->include->len > 0 && !include_possible)
    verdict = STROBE_LOG_SEARCH_NEVER;
  else if (exclusions_impossible && (self->include->len == 0 || include_certain))
    verdict = STROBE_LOG_SEARCH_ALWAYS;
out:
  g_ptr_array_unref (shape.literal);
  return verdict;
}

/* ---- barriers: conversions no term can overlap -------------------------------------- */

/* What conversion @s writes when its argument is there: every byte it may write (@bytes)
 * and bytes of which every text it writes holds one (@core; doubles also "inf" or
 * "nan", @non_finite). FALSE when it may write any byte, or nothing at all ("%.0d" of 0). */
static gboolean
conversion_bytes (const StrobePrintfSpec *s, guint8 bytes[256], guint8 core[256], gboolean *non_finite)
{
  const char *all = NULL, *must = NULL;

  *non_finite = FALSE;
  switch (s->conversion)
    {
    case 'd': case 'i': case 'u':
      all = "0123456789+- ";
      must = "0123456789";
      break;
    case 'x':
      all = "0123456789abcdefxX+- ";
      must = "0123456789abcdef";
      break;
    case 'X':
      all = "0123456789ABCDEFxX+- ";
      must = "0123456789ABCDEF";
      break;
    case 'o':
      all = "01234567+- ";
      must = "01234567";
      break;
    case 'f': case 'F':
      all = "0123456789.+- infaINFA";
      must = "0123456789";
      *non_finite = TRUE;
      break;
    case 'e': case 'E': case 'g': case 'G':
      all = "0123456789.+- eEinfaINFA";
      must = "0123456789";
      *non_finite = TRUE;
      break;
    case 'a': case 'A':
      all = "0123456789abcdefABCDEF.+- xXpPinINnN";
      must = "0123456789";
      *non_finite = TRUE;
      break;
    case 'p':
      all = "0123456789abcdefx(nil)+- ";
      must = "0123456789abcdef(nil)";
      break;
    default:
      return FALSE;
    }
  /* An integer's precision 0 (or from an argument) writes nothing for the value 0. */
  if (strchr ("diuxXo", s->conversion) != NULL && s->precision != STROBE_PRINTF_NONE && s->precision <= 0)
    return FALSE;
  memset (bytes, 0, 256);
  memset (core, 0, 256);
  for (; *all; all++)
    bytes[(guchar) *all] = 1;
  for (; *must; must++)
    core[(guchar) *must] = 1;
  return TRUE;
}

static gboolean
has_ci (const char *term, const char *word)
{
  gsize n = strlen (word);

  for (const char *p = term; *p; p++)
    if (g_ascii_strncasecmp (p, word, n) == 0)
      return TRUE;
  return FALSE;
}

/* An occurrence of @term that overlaps a conversion's text either starts in it (its first
 * byte is one the conversion writes), ends in it (its last byte), or holds the whole of it
 * (and so one of its core bytes, or "inf"/"nan"). None of the three: no occurrence
 * overlaps it. */
static gboolean
term_crosses (const StrobeLogSearch *self, const char *term, const guint8 *bytes, const guint8 *core,
              gboolean non_finite)
{
  gsize len = strlen (term);
  gboolean fold = !(self->flags & STROBE_LOG_SEARCH_CASE_SENSITIVE);

  if (bytes[(guchar) term[0]] || bytes[(guchar) term[len - 1]])
    return TRUE;
  for (const char *p = term; *p; p++)
    if (core[(guchar) *p] || (fold && core[(guchar) g_ascii_toupper (*p)]))
      return TRUE;
  return non_finite && (has_ci (term, "inf") || has_ci (term, "nan"));
}

guint64
strobe_log_search_barriers (const StrobeLogSearch *self,
                            const char            *format)
{
  StrobePrintfSpec spec;
  guint8 bytes[256], core[256];
  gboolean fold, non_finite;
  guint64 mask = 0;
  gsize pos = 0;

  g_return_val_if_fail (self != NULL, 0);
  if (self->regex != NULL || format == NULL || strobe_log_search_is_empty (self))
    return 0;
  fold = !(self->flags & STROBE_LOG_SEARCH_CASE_SENSITIVE);
  for (guint t = 0; t < 2; t++)
    {
      GPtrArray *terms = t == 0 ? self->include : self->exclude;

      for (guint i = 0; i < terms->len; i++)
        if (strchr (g_ptr_array_index (terms, i), STROBE_LOG_SEARCH_BARRIER) != NULL)
          return 0;
    }
  for (guint k = 0; k < 64 && strobe_printf_next (format, pos, &spec); k++)
    {
      gboolean crossed = FALSE;

      pos = spec.end;
      if (!conversion_bytes (&spec, bytes, core, &non_finite))
        continue;
      /* The text is folded before it is matched: so are the bytes it may hold. */
      if (fold)
        for (guint b = 'A'; b <= 'Z'; b++)
          if (bytes[b])
            bytes[b + ('a' - 'A')] = 1;
      for (guint t = 0; t < 2 && !crossed; t++)
        {
          GPtrArray *terms = t == 0 ? self->include : self->exclude;

          for (guint i = 0; i < terms->len && !crossed; i++)
            crossed = term_crosses (self, g_ptr_array_index (terms, i), bytes, core, non_finite);
        }
      if (!crossed)
        mask |= G_GUINT64_CONSTANT (1) << k;
    }
  return mask;
}
