/* strobe-spec-map.h — a trace's spec ids → name ids, for the ids a batch's records carry:
 * an array while the ids are about as many as the specs defined (a runtime numbers them
 * from 1), a hash for the rest — never an array as long as the largest id. The timeline
 * model and the timer stream both read one per scope. Private to core/models.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  GArray     *dense;    /* guint32 name id + 1, by id; 0: not set */
  GHashTable *sparse;   /* id → name id + 1, for the rest */
  guint       n;        /* ids set */
} StrobeSpecMap;

static inline void
strobe_spec_map_init (StrobeSpecMap *m)
{
  m->dense = g_array_new (FALSE, TRUE, sizeof (guint32));
  m->sparse = g_hash_table_new (NULL, NULL);
  m->n = 0;
}

static inline void
strobe_spec_map_clear (StrobeSpecMap *m)
{
  g_clear_pointer (&m->dense, g_array_unref);
  g_clear_pointer (&m->sparse, g_hash_table_unref);
}

static inline void
strobe_spec_map_set (StrobeSpecMap *m, guint32 id, guint32 name_id)
{
  guint32 v = name_id + 1;

  m->n++;
  if (id >= m->dense->len && (guint64) id < 4 * (guint64) m->n + 1024)
    g_array_set_size (m->dense, id + 1);
  if (id < m->dense->len)
    g_array_index (m->dense, guint32, id) = v;
  else
    g_hash_table_insert (m->sparse, GUINT_TO_POINTER (id), GUINT_TO_POINTER (v));
}

/* The name id + 1 of @id (ids past 32 bits are all the largest); 0 when never set. */
static inline guint32
strobe_spec_map_lookup (const StrobeSpecMap *m, guint64 id)
{
  guint32 v;

  if (G_LIKELY (id < m->dense->len && (v = g_array_index (m->dense, guint32, id)) != 0))
    return v;
  return GPOINTER_TO_UINT (g_hash_table_lookup (m->sparse, GUINT_TO_POINTER ((guint32) MIN (id, G_MAXUINT32))));
}

/* Its bytes, for a model's memory figure. */
static inline gsize
strobe_spec_map_bytes (const StrobeSpecMap *m)
{
  return m->dense->len * sizeof (guint32) + g_hash_table_size (m->sparse) * 4 * sizeof (gpointer);
}

G_END_DECLS
