/* strobe-log-search.c — substring terms are matched with strstr() on a case-folded copy
 * of the text in the caller's scratch buffer, so a search over millions of messages
 * allocates nothing per message.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-log-search.h"

#include <string.h>

struct _StrobeLogSearch
{
  gatomicrefcount      ref;
  char                *text;
  StrobeLogSearchFlags flags;
  GPtrArray           *include;     /* char *, folded when case-insensitive */
  GPtrArray           *exclude;
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

static void
add_term (StrobeLogSearch *self, const char *raw)
{
  g_autofree char *term = g_strstrip (g_strdup (raw));
  gboolean minus = term[0] == '-' && !(self->flags & STROBE_LOG_SEARCH_LITERAL);
  const char *body = minus ? term + 1 : term;

  if (*body == '\0')
    return;
  if (!(self->flags & STROBE_LOG_SEARCH_CASE_SENSITIVE) && !is_ascii (body))
    self->unicode = TRUE;
  g_ptr_array_add (minus ? self->exclude : self->include, fold (self, body));
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
        }
      else
        {
          g_string_set_size (scratch, len);
          for (gsize i = 0; i < len; i++)
            scratch->str[i] = g_ascii_tolower (text[i]);
        }
      hay = scratch->str;
    }

  for (guint i = 0; i < self->exclude->len; i++)
    if (strstr (hay, g_ptr_array_index (self->exclude, i)) != NULL)
      return FALSE;
  if (self->include->len == 0)
    return TRUE;
  for (guint i = 0; i < self->include->len; i++)
    if (strstr (hay, g_ptr_array_index (self->include, i)) != NULL)
      return TRUE;
  return FALSE;
}
