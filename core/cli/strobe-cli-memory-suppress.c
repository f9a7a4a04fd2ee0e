/* strobe-cli-memory-suppress.c — see strobe-cli-memory-suppress.h. A stack's verdict is
 * kept by stack id, so a million leaks of a few hundred stacks symbolize each stack once.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "strobe-cli-memory-suppress.h"

#define MAX_FRAMES 256

struct _StrobeLeakSuppressions
{
  GPtrArray *patterns;   /* GPatternSpec * of "*PATTERN*" */
};

static void
pattern_free (gpointer p)
{
  g_pattern_spec_free (p);
}

StrobeLeakSuppressions *
strobe_leak_suppressions_load (const char *path, GError **error)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  StrobeLeakSuppressions *self;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  self = g_new0 (StrobeLeakSuppressions, 1);
  self->patterns = g_ptr_array_new_with_free_func (pattern_free);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      char *line = lines[i], *hash = strchr (line, '#'), *colon;

      if (hash)
        *hash = '\0';
      g_strstrip (line);
      colon = strchr (line, ':');
      if (colon && strspn (line, "abcdefghijklmnopqrstuvwxyz_") == (gsize) (colon - line))
        {
          if (!g_str_has_prefix (line, "leak:"))
            continue;   /* another sanitizer's kind */
          line = g_strstrip (colon + 1);
        }
      if (*line)
        {
          g_autofree char *glob = g_strdup_printf ("*%s*", line);
          g_ptr_array_add (self->patterns, g_pattern_spec_new (glob));
        }
    }
  return self;
}

void
strobe_leak_suppressions_free (StrobeLeakSuppressions *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->patterns);
  g_free (self);
}

guint
strobe_leak_suppressions_get_n_patterns (StrobeLeakSuppressions *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->patterns->len;
}

static gboolean
matches (StrobeLeakSuppressions *self, const char *text)
{
  if (text == NULL)
    return FALSE;
  for (guint i = 0; i < self->patterns->len; i++)
    if (g_pattern_spec_match_string (g_ptr_array_index (self->patterns, i), text))
      return TRUE;
  return FALSE;
}

static gboolean
stack_suppressed (StrobeLeakSuppressions *self, StrobeMemoryModel *model, StrobeSymbolizer *sym, guint32 stack)
{
  StrobeMemoryFrame frames[MAX_FRAMES];
  guint n = strobe_memory_model_get_frames (model, stack, frames, MAX_FRAMES);

  for (guint i = 0; i < n; i++)
    {
      const StrobeSymbolization *s = strobe_symbolizer_lookup (sym, frames[i].module, frames[i].address);

      if (matches (self, s->module))
        return TRUE;
      /* As printed: the function (or the address, unresolved) and its file:line. */
      for (guint k = 0; k < s->n_frames; k++)
        {
          g_autofree char *name = strobe_symbolization_format (s, k);
          if (matches (self, name) || matches (self, s->frames[k].file))
            return TRUE;
        }
    }
  return FALSE;
}

guint
strobe_leak_suppressions_apply (StrobeLeakSuppressions *self, StrobeMemoryModel *model, StrobeSymbolizer *sym,
                                GArray *leaks, guint64 *bytes)
{
  g_autoptr (GHashTable) verdicts = g_hash_table_new (NULL, NULL);   /* stack → 1 + suppressed */
  guint kept = 0, removed = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (model), 0);
  g_return_val_if_fail (leaks != NULL, 0);
  *bytes = 0;
  for (guint i = 0; i < leaks->len; i++)
    {
      guint64 index = g_array_index (leaks, guint64, i);
      StrobeMemoryAlloc r;
      gpointer v;

      strobe_memory_model_get_alloc (model, index, &r);
      v = g_hash_table_lookup (verdicts, GUINT_TO_POINTER (r.callstack));
      if (v == NULL)
        {
          v = GUINT_TO_POINTER (1 + (r.callstack && stack_suppressed (self, model, sym, r.callstack)));
          g_hash_table_insert (verdicts, GUINT_TO_POINTER (r.callstack), v);
        }
      if (GPOINTER_TO_UINT (v) == 2)
        {
          removed++;
          if (!(r.flags & STROBE_MEMORY_ALLOC_HEAP_BLOCK))
            *bytes += r.size;
        }
      else
        g_array_index (leaks, guint64, kept++) = index;
    }
  g_array_set_size (leaks, kept);
  return removed;
}
