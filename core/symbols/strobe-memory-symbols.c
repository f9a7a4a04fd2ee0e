/* strobe-memory-symbols.c — see strobe-memory-symbols.h.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-memory-symbols.h"


StrobeSymbolizer *
strobe_memory_symbolizer_new (StrobeMemoryModel *model)
{
  g_autoptr (GPtrArray) modules = NULL;
  StrobeSymbolizer *sym;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (model), NULL);
  sym = strobe_symbolizer_new ();
  modules = strobe_memory_model_get_modules (model);
  for (guint i = 0; i < modules->len; i++)
    {
      const StrobeMemoryModule *m = g_ptr_array_index (modules, i);
      strobe_symbolizer_add_module (sym, i + 1, m->path, m->build_id, m->build_id_len, m->bias, m->start, m->end);
    }
  return sym;
}

guint
strobe_memory_symbolizer_frame_func (const StrobeMemoryFrame *frame, guint64 *keys, guint max, gpointer user_data)
{
  return strobe_symbolizer_frame_keys (STROBE_SYMBOLIZER (user_data), frame->module, frame->address, keys, max);
}

char *
strobe_memory_symbolizer_describe (StrobeSymbolizer *symbolizer, const StrobeMemoryFrame *frame,
                                   const char *separator)
{
  const StrobeSymbolization *s;
  GString *out;

  g_return_val_if_fail (STROBE_IS_SYMBOLIZER (symbolizer), NULL);
  g_return_val_if_fail (frame != NULL, NULL);
  s = strobe_symbolizer_lookup (symbolizer, frame->module, frame->address);
  out = g_string_new (NULL);
  for (guint i = 0; i < s->n_frames; i++)
    {
      g_autofree char *line = strobe_symbolization_format (s, i);
      if (i)
        g_string_append (out, separator ? separator : " ← ");
      g_string_append (out, line);
      if (i + 1 < s->n_frames)
        g_string_append (out, " [inlined]");
    }
  return g_string_free (out, FALSE);
}
