/* strobe-log-search.h — the text test of the log filters: Tracy's syntax (terms separated
 * by commas, any of which may match; a term with a leading '-' excludes, and so does a
 * word after a blank that starts with '-': "frame -draw" is "frame,-draw"), one literal
 * substring, or a regular expression (GRegex). Immutable once made, so one search may be
 * used from several threads at once.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum /*< flags >*/
{
  STROBE_LOG_SEARCH_DEFAULT        = 0,        /* Tracy's syntax, case-insensitive */
  STROBE_LOG_SEARCH_REGEX          = 1 << 0,   /* the text is one Perl-style regular expression */
  STROBE_LOG_SEARCH_LITERAL        = 1 << 1,   /* the text is one substring, commas and all */
  STROBE_LOG_SEARCH_CASE_SENSITIVE = 1 << 2,
} StrobeLogSearchFlags;

typedef struct _StrobeLogSearch StrobeLogSearch;

#define STROBE_TYPE_LOG_SEARCH (strobe_log_search_get_type ())
GType                strobe_log_search_get_type  (void);

/* NULL and @error (G_REGEX_ERROR) when @flags has REGEX and @text does not compile. Terms
 * are trimmed of spaces; empty terms and a lone "-" are ignored, so a search of only
 * those matches everything (strobe_log_search_is_empty()). Exclusions win over matches,
 * whatever their order. Case folding is ASCII's, or Unicode's when a term is not ASCII. */
StrobeLogSearch     *strobe_log_search_new       (const char            *text,
                                                  StrobeLogSearchFlags   flags,
                                                  GError               **error);
StrobeLogSearch     *strobe_log_search_ref       (StrobeLogSearch       *self);
void                 strobe_log_search_unref     (StrobeLogSearch       *self);
gboolean             strobe_log_search_is_empty  (const StrobeLogSearch *self);
const char          *strobe_log_search_get_text  (const StrobeLogSearch *self);
StrobeLogSearchFlags strobe_log_search_get_flags (const StrobeLogSearch *self);
/* TRUE when @text (@len bytes, NUL-terminated) passes. @scratch: a buffer the match may
 * use (a caller testing many texts passes the same one); NULL: one is made. */
gboolean             strobe_log_search_match     (const StrobeLogSearch *self,
                                                  const char            *text,
                                                  gsize                  len,
                                                  GString               *scratch);

/* What every text a printf @format makes passes, as far as the format alone tells. */
typedef enum
{
  STROBE_LOG_SEARCH_MAYBE,    /* format the message and match it */
  STROBE_LOG_SEARCH_NEVER,    /* no text of this format can pass */
  STROBE_LOG_SEARCH_ALWAYS,   /* every text of this format passes */
} StrobeLogSearchVerdict;

/* Sound, not complete: a term that sits in the format's literal text is in every message
 * of it; a term with a character that neither the literal text nor any conversion of the
 * format can write (numbers write digits, signs, hex letters, "inf", "(nil)"…; %s and %c
 * anything) is in none. Regular expressions are always MAYBE. */
StrobeLogSearchVerdict strobe_log_search_predict (const StrobeLogSearch *self,
                                                  const char            *format);

/* What a filter writes in place of a barrier's text. */
#define STROBE_LOG_SEARCH_BARRIER '\x01'

/* The conversions of @format (bit k: the k-th conversion strobe_printf_next finds, of
 * the first 64) whose text no term can overlap, whatever their values: a number where
 * every term is letters, say. Writing STROBE_LOG_SEARCH_BARRIER in place of each one's
 * text (when its argument is there) leaves strobe_log_search_match's answer as it was,
 * so a filter need not format them. 0 for regular expressions. */
guint64 strobe_log_search_barriers (const StrobeLogSearch *self,
                                    const char            *format);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeLogSearch, strobe_log_search_unref)

G_END_DECLS
