/* strobe-log-search.h — the text test of the log filters: Tracy's syntax (terms separated
 * by commas, any of which may match; a term with a leading '-' excludes), one literal
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrobeLogSearch, strobe_log_search_unref)

G_END_DECLS
