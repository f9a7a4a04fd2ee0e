/* strobe-memory-names.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "strobe-memory-names.h"
#include "strobe-text.h"

/* Stack tops are asked for once per table row shown: kept, up to this many. */
#define MAX_CACHED_TOPS 65536

struct _StrobeMemoryNames
{
  GObject            parent_instance;
  StrobeMemoryModel *model;
  StrobeSymbolizer  *symbolizer;
  guint              n_modules;     /* what the symbolizer was made with */
  GHashTable        *threads;       /* id → escaped name */
  GHashTable        *tags;          /* id → escaped name */
  GHashTable        *heaps;
  GHashTable        *tops;          /* stack id → escaped function */
};

G_DEFINE_FINAL_TYPE (StrobeMemoryNames, strobe_memory_names, G_TYPE_OBJECT)

static void
strobe_memory_names_finalize (GObject *object)
{
  StrobeMemoryNames *self = STROBE_MEMORY_NAMES (object);

  g_clear_object (&self->model);
  g_clear_object (&self->symbolizer);
  g_clear_pointer (&self->threads, g_hash_table_unref);
  g_clear_pointer (&self->tags, g_hash_table_unref);
  g_clear_pointer (&self->heaps, g_hash_table_unref);
  g_clear_pointer (&self->tops, g_hash_table_unref);
  G_OBJECT_CLASS (strobe_memory_names_parent_class)->finalize (object);
}

static void
strobe_memory_names_class_init (StrobeMemoryNamesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_memory_names_finalize;
}

static void
strobe_memory_names_init (StrobeMemoryNames *self)
{
  self->threads = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->tags = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->heaps = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->tops = g_hash_table_new_full (NULL, NULL, NULL, g_free);
}

StrobeMemoryNames *
strobe_memory_names_new (StrobeMemoryModel *model)
{
  StrobeMemoryNames *self;

  g_return_val_if_fail (STROBE_IS_MEMORY_MODEL (model), NULL);

  self = g_object_new (STROBE_TYPE_MEMORY_NAMES, NULL);
  self->model = g_object_ref (model);
  self->symbolizer = strobe_memory_symbolizer_new (model);
  return self;
}

static void
take_groups (GHashTable *table, GPtrArray *groups)
{
  g_hash_table_remove_all (table);
  for (guint i = 0; i < groups->len; i++)
    {
      const StrobeMemoryGroup *g = g_ptr_array_index (groups, i);

      if (g->name != NULL)
        g_hash_table_insert (table, GUINT_TO_POINTER (g->id), strobe_text_escape (g->name, STROBE_TEXT_PLAIN));
    }
}

void
strobe_memory_names_update (StrobeMemoryNames *self,
                            StrobeDocument    *document)
{
  g_autoptr (GPtrArray) tags = NULL, heaps = NULL, modules = NULL;
  g_autoptr (GArray) threads = NULL;

  g_return_if_fail (STROBE_IS_MEMORY_NAMES (self));
  g_return_if_fail (STROBE_IS_DOCUMENT (document));

  threads = strobe_threads_model_get_threads (strobe_document_get_threads (document));
  g_hash_table_remove_all (self->threads);
  for (guint i = 0; i < threads->len; i++)
    {
      const StrobeThreadInfo *t = &g_array_index (threads, StrobeThreadInfo, i);

      if (t->name && *t->name)
        g_hash_table_insert (self->threads, GUINT_TO_POINTER (t->id), strobe_text_escape (t->name, STROBE_TEXT_PLAIN));
    }
  tags = strobe_memory_model_get_tags (self->model);
  heaps = strobe_memory_model_get_heaps (self->model);
  take_groups (self->tags, tags);
  take_groups (self->heaps, heaps);
  /* Modules come with the first stacks: a symbolizer made before knows none of them. */
  modules = strobe_memory_model_get_modules (self->model);
  if (modules->len != self->n_modules)
    {
      g_set_object (&self->symbolizer, NULL);
      self->symbolizer = strobe_memory_symbolizer_new (self->model);
      self->n_modules = modules->len;
      g_hash_table_remove_all (self->tops);
    }
}

StrobeMemoryModel *
strobe_memory_names_get_model (StrobeMemoryNames *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_NAMES (self), NULL);
  return self->model;
}

StrobeSymbolizer *
strobe_memory_names_dup_symbolizer (StrobeMemoryNames *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_NAMES (self), NULL);
  return g_object_ref (self->symbolizer);
}

char *
strobe_memory_names_tag (StrobeMemoryNames *self, guint32 id)
{
  const char *name;

  g_return_val_if_fail (STROBE_IS_MEMORY_NAMES (self), NULL);
  if ((name = g_hash_table_lookup (self->tags, GUINT_TO_POINTER (id))) != NULL)
    return g_strdup (name);
  if (id == 0)
    return g_strdup (_("(untagged)"));
  /* Translators: a memory tag the trace never named, by its id */
  return g_strdup_printf (_("Tag %u"), id);
}

char *
strobe_memory_names_heap (StrobeMemoryNames *self, guint32 id)
{
  const char *name;

  g_return_val_if_fail (STROBE_IS_MEMORY_NAMES (self), NULL);
  if ((name = g_hash_table_lookup (self->heaps, GUINT_TO_POINTER (id))) != NULL)
    return g_strdup (name);
  if (id == 0)
    /* Translators: heap 0, the C library's malloc */
    return g_strdup (_("System"));
  /* Translators: a heap the trace never named, by its id */
  return g_strdup_printf (_("Heap %u"), id);
}

char *
strobe_memory_names_thread (StrobeMemoryNames *self, guint16 id)
{
  const char *name;

  g_return_val_if_fail (STROBE_IS_MEMORY_NAMES (self), NULL);
  if ((name = g_hash_table_lookup (self->threads, GUINT_TO_POINTER (id))) != NULL)
    return g_strdup (name);
  /* Translators: a thread without a name, by its id */
  return g_strdup_printf (_("Thread %u"), id);
}

/* 2^@log2 bytes exactly, in the largest binary unit that divides it. */
static char *
power_of_two (guint log2)
{
  static const char *const units[] = { N_("B"), N_("KiB"), N_("MiB"), N_("GiB"), N_("TiB"), N_("PiB"), N_("EiB") };
  guint u = MIN (log2 / 10, (guint) G_N_ELEMENTS (units) - 1);

  return g_strdup_printf ("%" G_GUINT64_FORMAT " %s", G_GUINT64_CONSTANT (1) << (log2 - 10 * u), _(units[u]));
}

char *
strobe_memory_names_size_bucket (guint64 bucket)
{
  g_autofree char *size = NULL;

  if (bucket == 0)
    /* Translators: the size bucket of zero-byte allocations */
    return g_strdup (_("0 B"));
  if (bucket >= 64)
    /* Translators: the largest size bucket */
    return g_strdup (_("≥ 8 EiB"));
  size = power_of_two ((guint) bucket);
  /* Translators: a size bucket: smaller than this size (and at least half of it) */
  return g_strdup_printf (_("< %s"), size);
}

char *
strobe_memory_names_size_short (guint64 bucket)
{
  if (bucket == 0)
    return g_strdup ("0");
  return power_of_two ((guint) MIN (bucket, 63));
}

static const StrobeSymbolization *
lookup (StrobeMemoryNames *self, const StrobeMemoryFrame *frame)
{
  return strobe_symbolizer_lookup (self->symbolizer, frame->module, frame->address);
}

char *
strobe_memory_names_function (StrobeMemoryNames *self, const StrobeMemoryFrame *frame, guint inline_depth)
{
  const StrobeSymbolization *s;
  guint i;

  g_return_val_if_fail (STROBE_IS_MEMORY_NAMES (self), NULL);
  if (frame == NULL || frame->address == 0)
    return g_strdup (_("(no stack)"));
  s = lookup (self, frame);
  i = MIN (inline_depth, s->n_frames - 1);
  if (s->frames[i].function != NULL)
    return strobe_text_escape (s->frames[i].function, STROBE_TEXT_PLAIN);
  if (s->module != NULL)
    {
      g_autofree char *base = g_path_get_basename (s->module);
      g_autofree char *text = g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", base, s->offset);

      return strobe_text_escape (text, STROBE_TEXT_PLAIN);
    }
  return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", frame->address);
}

char *
strobe_memory_names_location (StrobeMemoryNames *self, const StrobeMemoryFrame *frame, guint inline_depth,
                              char **full_path, guint *line)
{
  const StrobeSymbolization *s;
  g_autofree char *base = NULL, *text = NULL;
  guint i;

  g_return_val_if_fail (STROBE_IS_MEMORY_NAMES (self), NULL);
  if (full_path)
    *full_path = NULL;
  if (line)
    *line = 0;
  if (frame == NULL || frame->address == 0)
    return NULL;
  s = lookup (self, frame);
  i = MIN (inline_depth, s->n_frames - 1);
  if (s->frames[i].file == NULL)
    return NULL;
  if (full_path)
    *full_path = g_strdup (s->frames[i].file);
  if (line)
    *line = s->frames[i].line;
  base = g_path_get_basename (s->frames[i].file);
  text = s->frames[i].line ? g_strdup_printf ("%s:%u", base, s->frames[i].line) : g_strdup (base);
  return strobe_text_escape (text, STROBE_TEXT_PLAIN);
}

char *
strobe_memory_names_group (StrobeMemoryNames *self, StrobeMemoryGroupBy by, guint64 key,
                           const StrobeMemoryFrame *frame)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_NAMES (self), NULL);

  switch (by)
    {
    case STROBE_MEMORY_BY_TAG:
      return strobe_memory_names_tag (self, (guint32) key);
    case STROBE_MEMORY_BY_HEAP:
      return strobe_memory_names_heap (self, (guint32) key);
    case STROBE_MEMORY_BY_SIZE:
      return strobe_memory_names_size_bucket (key);
    case STROBE_MEMORY_BY_THREAD:
      return strobe_memory_names_thread (self, (guint16) key);
    case STROBE_MEMORY_BY_STACK:
      if (key == 0)
        return g_strdup (_("(no stack)"));
      {
        g_autofree char *top = strobe_memory_names_function (self, frame, 0);
        /* Translators: a call stack by its id and its innermost function */
        return g_strdup_printf (_("Stack %" PRIu64 ": %s"), (uint64_t) key, top);
      }
    case STROBE_MEMORY_BY_FUNCTION:
    default:
      return strobe_memory_names_function (self, key == 0 && (frame == NULL || frame->address == 0) ? NULL : frame, 0);
    }
}

char *
strobe_memory_names_stack_top (StrobeMemoryNames *self, guint32 stack)
{
  const char *cached;
  StrobeMemoryFrame frame;
  char *name;

  g_return_val_if_fail (STROBE_IS_MEMORY_NAMES (self), NULL);
  if (stack == 0)
    return g_strdup (_("(no stack)"));
  if ((cached = g_hash_table_lookup (self->tops, GUINT_TO_POINTER (stack))) != NULL)
    return g_strdup (cached);
  if (strobe_memory_model_get_frames (self->model, stack, &frame, 1) == 0)
    /* Translators: a call stack the trace never described, by its id */
    return g_strdup_printf (_("(stack %u)"), stack);
  name = strobe_memory_names_function (self, &frame, 0);
  if (g_hash_table_size (self->tops) >= MAX_CACHED_TOPS)
    g_hash_table_remove_all (self->tops);
  g_hash_table_insert (self->tops, GUINT_TO_POINTER (stack), g_strdup (name));
  return name;
}
