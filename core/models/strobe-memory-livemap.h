/* strobe-memory-livemap.h — (key, space) → record index, for the memory model's live
 * allocations: keyed by (address, heap) for traces that name blocks by address, and by
 * (thread << 48 | id, thread space) for traces that name allocations by id. Not installed.
 *
 * Open addressing with linear probing and backward-shift deletion, hashed with a random
 * per-map key: addresses a trace chooses cannot be made to land in one slot (the model
 * reads untrusted files). Grows by doubling; holds live entries only.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 key;
  guint32 space;
  guint32 value_plus1;   /* 0: empty */
} StrobeLiveSlot;

typedef struct
{
  StrobeLiveSlot *slots;
  gsize           cap;     /* power of two */
  gsize           count;
  guint64         seed[2];
} StrobeLiveMap;

void     strobe_live_map_init   (StrobeLiveMap *m);
void     strobe_live_map_clear  (StrobeLiveMap *m);
/* The value for (key, space), or FALSE. */
gboolean strobe_live_map_lookup (const StrobeLiveMap *m, guint64 key, guint32 space, guint32 *value);
/* Sets (key, space) → value; returns TRUE and *old when it replaced one. */
gboolean strobe_live_map_insert (StrobeLiveMap *m, guint64 key, guint32 space, guint32 value, guint32 *old);
gboolean strobe_live_map_remove (StrobeLiveMap *m, guint64 key, guint32 space, guint32 *value);
/* Calls @fn for each entry (the map must not change meanwhile). */
void     strobe_live_map_foreach (const StrobeLiveMap *m,
                                  void (*fn) (guint64 key, guint32 space, guint32 value, gpointer user),
                                  gpointer user);
gsize    strobe_live_map_bytes  (const StrobeLiveMap *m);

/* (thread, id) → record index for Memory.Batch's allocations, where ids count up per
 * thread and most blocks are freed soon after they were allocated: each thread's newest
 * STROBE_ID_WINDOW ids are a direct array (an allocation and its free touch the same few
 * cache lines, where the hash scattered consecutive ids over the whole table — most of
 * reading a trace was waiting on those misses); an id the window moves past while it is
 * still live moves to the thread's run of older ids. Ids inserted behind their window (a
 * snapshot's) go to a StrobeLiveMap. A key in the window is nowhere else; an older one is
 * in the run or the map. At most STROBE_ID_WINDOWS threads get a
 * window (64 KiB each: Python keeps a dict of its last thousand objects alive over some
 * ten thousand allocations), the others use the map: a trace of many threads stays
 * bounded. */
#define STROBE_ID_WINDOW  16384u
#define STROBE_ID_WINDOWS 256u

typedef struct
{
  guint32 *slots;      /* value + 1 by id % STROBE_ID_WINDOW; 0: none */
  guint64  head;       /* the window is the ids (head − STROBE_ID_WINDOW, head] */
  gsize    count;
  /* Ids the window moved past while live, in id order (they leave it in that order): 12
   * bytes each, found by a binary search — the long-lived blocks, often most of the live
   * set, without a hash table's slack. */
  GArray  *run_ids;    /* guint64 */
  GArray  *run_values; /* guint32 value + 1; 0: removed since */
  gsize    run_live;
  gsize    run_hint;   /* where the last search ended */
} StrobeIdWindow;

typedef struct
{
  StrobeLiveMap    older;     /* keys (thread << 48 | id) behind their window, not in its run */
  StrobeIdWindow **windows;   /* by thread, up to the highest with a window */
  guint            n_slots;   /* of windows */
  guint            n_windows;
  gsize            in_windows; /* entries in all windows and runs */
  guint16          last_thread;
  StrobeIdWindow  *last_window;
} StrobeIdMap;

void     strobe_id_map_init    (StrobeIdMap *m);
void     strobe_id_map_clear   (StrobeIdMap *m);
gboolean strobe_id_map_lookup  (StrobeIdMap *m, guint16 thread, guint64 id, guint32 *value);
/* Sets (thread, id) → value; returns TRUE and *old when it replaced one. */
gboolean strobe_id_map_insert  (StrobeIdMap *m, guint16 thread, guint64 id, guint32 value, guint32 *old);
gboolean strobe_id_map_remove  (StrobeIdMap *m, guint16 thread, guint64 id, guint32 *value);
gsize    strobe_id_map_count   (const StrobeIdMap *m);
/* Calls @fn with (thread << 48 | id, 0, value) for each entry (the map must not change
 * meanwhile). */
void     strobe_id_map_foreach (const StrobeIdMap *m,
                                void (*fn) (guint64 key, guint32 space, guint32 value, gpointer user),
                                gpointer user);
/* Keeps the entries @keep says to keep. */
void     strobe_id_map_retain  (StrobeIdMap *m, gboolean (*keep) (guint32 value, gpointer user), gpointer user);
gsize    strobe_id_map_bytes   (const StrobeIdMap *m);

G_END_DECLS
