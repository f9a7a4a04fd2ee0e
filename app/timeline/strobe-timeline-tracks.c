/* strobe-timeline-tracks.c
 *
 * Order: sections (frames, regions, threads, counters); in the threads' section "units"
 * (a group with its threads, or a thread without a group); inside a group its threads.
 * Each level sorts by the rank the saved layout gives a key, else after every saved one
 * in the order the models give. A move or a change of state snapshots the whole order as
 * the saved one, so it survives tracks appearing later.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "strobe-timeline-tracks.h"

#define UNSAVED (1 << 20)

typedef struct
{
  int      rank;
  gboolean hidden;
  gboolean collapsed;
} Saved;

struct _StrobeTrackList
{
  GPtrArray  *tracks;       /* StrobeTrack *, in display order */
  GHashTable *saved;        /* key -> Saved */
  GHashTable *base;         /* key -> base position + 1 (the models' order) */
};

static void
track_free (gpointer data)
{
  StrobeTrack *t = data;

  g_free (t->key);
  g_free (t->title);
  g_free (t->group);
  g_free (t);
}

StrobeTrackList *
strobe_track_list_new (void)
{
  StrobeTrackList *list = g_new0 (StrobeTrackList, 1);

  list->tracks = g_ptr_array_new_with_free_func (track_free);
  list->saved = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  list->base = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return list;
}

void
strobe_track_list_free (StrobeTrackList *list)
{
  if (list == NULL)
    return;
  g_ptr_array_unref (list->tracks);
  g_hash_table_unref (list->saved);
  g_hash_table_unref (list->base);
  g_free (list);
}

guint
strobe_track_list_get_n (StrobeTrackList *list)
{
  return list->tracks->len;
}

StrobeTrack *
strobe_track_list_get (StrobeTrackList *list, guint index)
{
  g_return_val_if_fail (index < list->tracks->len, NULL);
  return list->tracks->pdata[index];
}

int
strobe_track_list_find (StrobeTrackList *list, StrobeTrackKind kind, guint32 id)
{
  for (guint i = 0; i < list->tracks->len; i++)
    {
      StrobeTrack *t = list->tracks->pdata[i];
      if (t->kind == kind && t->id == id)
        return (int) i;
    }
  return -1;
}

/* ---- order ---------------------------------------------------------------------------- */

static int
section (const StrobeTrack *t)
{
  switch (t->kind)
    {
    case STROBE_TRACK_FRAMES:  return 0;
    case STROBE_TRACK_REGIONS: return 1;
    case STROBE_TRACK_CPU:     return 1;
    case STROBE_TRACK_COUNTER: return 3;
    default:                   return 2;
    }
}

static int
rank_of (StrobeTrackList *list, const char *key)
{
  Saved *s = g_hash_table_lookup (list->saved, key);

  if (s)
    return s->rank;
  return UNSAVED + GPOINTER_TO_INT (g_hash_table_lookup (list->base, key));
}

static char *
group_key (const char *group)
{
  return g_strconcat ("group:", group, NULL);
}

typedef struct
{
  int section;
  int unit;
  int sub;
} SortKey;

static SortKey
sort_key (StrobeTrackList *list, const StrobeTrack *t)
{
  SortKey k = { section (t), rank_of (list, t->key), 0 };

  if (t->kind == STROBE_TRACK_GROUP)
    k.sub = -1;
  else if (t->kind == STROBE_TRACK_THREAD && t->group && *t->group)
    {
      g_autofree char *gk = group_key (t->group);
      k.unit = rank_of (list, gk);
      k.sub = rank_of (list, t->key);
    }
  return k;
}

static StrobeTrackList *sorting;

static gint
track_cmp (gconstpointer a, gconstpointer b)
{
  const StrobeTrack *x = *(StrobeTrack *const *) a, *y = *(StrobeTrack *const *) b;
  SortKey kx = sort_key (sorting, x), ky = sort_key (sorting, y);

  if (kx.section != ky.section)
    return kx.section - ky.section;
  if (kx.unit != ky.unit)
    return kx.unit < ky.unit ? -1 : 1;
  return (kx.sub > ky.sub) - (kx.sub < ky.sub);
}

static void
sort_tracks (StrobeTrackList *list)
{
  /* Only the main thread lays tracks out. */
  sorting = list;
  g_ptr_array_sort (list->tracks, track_cmp);
  sorting = NULL;
}

/* The current order and state become the saved layout. */
static void
snapshot (StrobeTrackList *list)
{
  int unit = 0;

  for (guint i = 0; i < list->tracks->len; i++)
    {
      StrobeTrack *t = list->tracks->pdata[i];
      Saved *s = g_new0 (Saved, 1);

      s->rank = unit++;
      s->hidden = t->hidden;
      s->collapsed = t->collapsed;
      g_hash_table_replace (list->saved, g_strdup (t->key), s);
    }
}

/* ---- building ------------------------------------------------------------------------ */

typedef struct
{
  StrobeTrackKind kind;
  guint32  id;
  char    *key;
  char    *title;
  char    *group;
  guint    depths;
  gboolean has_log;
  gboolean sampled;
  guint8   unit;
  guint8   type;
} Entry;

static void
entry_clear (gpointer data)
{
  Entry *e = data;

  g_free (e->key);
  g_free (e->title);
  g_free (e->group);
}

/* A key unique within one trace: the same thread name twice gets "#2". */
static char *
unique_key (GHashTable *used, const char *key)
{
  char *k = g_strdup (key);

  for (int n = 2; g_hash_table_contains (used, k); n++)
    {
      g_free (k);
      k = g_strdup_printf ("%s#%d", key, n);
    }
  g_hash_table_add (used, g_strdup (k));
  return k;
}

static gboolean
contains16 (const guint16 *v, guint n, guint16 x)
{
  for (guint i = 0; i < n; i++)
    if (v[i] == x)
      return TRUE;
  return FALSE;
}

static void
add_thread_entry (GArray *entries, GHashTable *used, const StrobeTrackSource *src, guint16 id,
                  const char *name, const char *group)
{
  Entry e = { STROBE_TRACK_THREAD, id };
  g_autofree char *key = g_strdup_printf ("thread:%s/%s", group, *name ? name : "?");

  e.key = unique_key (used, key);
  e.title = *name ? g_strdup (name) : g_strdup_printf (_("Thread %u"), id);
  e.group = g_strdup (group);
  for (guint i = 0; i < src->n_scope_threads; i++)
    if (src->scope_threads[i] == id)
      e.depths = src->depths[i];
  e.has_log = contains16 (src->log_threads, src->n_log_threads, id);
  e.sampled = contains16 (src->sampled_threads, src->n_sampled_threads, id);
  g_array_append_val (entries, e);
}

static GArray *
base_entries (const StrobeTrackSource *src)
{
  GArray *entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_autoptr(GHashTable) used = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) groups = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  g_array_set_clear_func (entries, entry_clear);
  for (guint k = 0; k < 32; k++)
    if (src->frame_kinds & (1u << k))
      {
        Entry e = { STROBE_TRACK_FRAMES, k };
        e.key = g_strdup_printf ("frames:%u", k);
        e.title = k == STROBE_TIMELINE_FRAME_GAME ? g_strdup (_("Game Frames"))
                : k == STROBE_TIMELINE_FRAME_RENDER ? g_strdup (_("Render Frames"))
                : g_strdup_printf (_("Frames (kind %u)"), k);
        g_array_append_val (entries, e);
      }
  if (src->region_lanes)
    {
      Entry e = { STROBE_TRACK_REGIONS, 0 };
      e.key = g_strdup ("regions");
      e.title = g_strdup (_("Regions"));
      e.depths = src->region_lanes;
      g_array_append_val (entries, e);
    }
  if (src->n_sampled_threads)
    {
      Entry e = { STROBE_TRACK_CPU, 0 };
      e.key = g_strdup ("cpu");
      e.title = g_strdup (_("CPU Usage"));
      g_array_append_val (entries, e);
    }
  /* Threads in the thread table's order; a group's header at its first thread, and the
   * group's other threads right after it (the table keeps a group together). */
  for (guint i = 0; i < src->n_threads; i++)
    {
      const StrobeThreadInfo *ti = &src->threads[i];
      const char *group = ti->group ? ti->group : "";

      if (*group && !g_hash_table_contains (groups, group))
        {
          Entry e = { STROBE_TRACK_GROUP, 0 };
          g_hash_table_add (groups, (gpointer) group);
          e.key = group_key (group);
          e.title = g_strdup (group);
          e.group = g_strdup (group);
          e.id = g_hash_table_size (groups);
          g_array_append_val (entries, e);
        }
      add_thread_entry (entries, used, src, ti->id, ti->name ? ti->name : "", group);
      g_hash_table_add (seen, GUINT_TO_POINTER (ti->id));
    }
  /* Threads that never said who they are. */
  for (guint i = 0; i < src->n_scope_threads + src->n_log_threads; i++)
    {
      guint16 id = i < src->n_scope_threads ? src->scope_threads[i] : src->log_threads[i - src->n_scope_threads];
      if (g_hash_table_contains (seen, GUINT_TO_POINTER (id)))
        continue;
      g_hash_table_add (seen, GUINT_TO_POINTER (id));
      add_thread_entry (entries, used, src, id, "", "");
    }
  for (guint i = 0; i < src->n_counters; i++)
    {
      const StrobeTimelineCounter *c = &src->counters[i];
      Entry e = { STROBE_TRACK_COUNTER, c->index };
      g_autofree char *key = g_strconcat ("counter:", c->name, NULL);

      e.key = unique_key (used, key);
      e.title = g_strdup (c->name);
      e.unit = c->unit;
      e.type = c->type;
      g_array_append_val (entries, e);
    }
  return entries;
}

static gboolean
set_str (char **field, const char *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

gboolean
strobe_track_list_update (StrobeTrackList *list, const StrobeTrackSource *source)
{
  g_autoptr(GArray) entries = NULL;
  gboolean changed = FALSE;

  g_return_val_if_fail (list != NULL && source != NULL, FALSE);

  entries = base_entries (source);
  for (guint i = 0; i < entries->len; i++)
    {
      Entry *e = &g_array_index (entries, Entry, i);
      int at = strobe_track_list_find (list, e->kind, e->id);
      StrobeTrack *t;

      if (at < 0)
        {
          Saved *s;

          t = g_new0 (StrobeTrack, 1);
          t->kind = e->kind;
          t->id = e->id;
          s = g_hash_table_lookup (list->saved, e->key);
          if (s)
            {
              t->hidden = s->hidden;
              t->collapsed = s->collapsed;
            }
          g_ptr_array_add (list->tracks, t);
          changed = TRUE;
        }
      else
        t = list->tracks->pdata[at];
      /* A thread renamed itself: its key follows (and its saved state, if any). */
      if (set_str (&t->key, e->key))
        {
          Saved *s = g_hash_table_lookup (list->saved, e->key);
          if (s && at >= 0)
            {
              t->hidden = s->hidden;
              t->collapsed = s->collapsed;
            }
          changed = TRUE;
        }
      changed |= set_str (&t->title, e->title);
      changed |= set_str (&t->group, e->group ? e->group : "");
      if (t->depths != e->depths || t->has_log != e->has_log || t->sampled != e->sampled)
        changed = TRUE;
      t->depths = e->depths;
      t->has_log = e->has_log;
      t->sampled = e->sampled;
      t->counter_unit = e->unit;
      t->counter_type = e->type;
      t->empty = t->kind == STROBE_TRACK_THREAD && t->depths == 0 && !t->has_log && !t->sampled;
      g_hash_table_replace (list->base, g_strdup (e->key), GINT_TO_POINTER (i + 1));
    }
  /* A group is empty when all its threads are. */
  for (guint i = 0; i < list->tracks->len; i++)
    {
      StrobeTrack *g = list->tracks->pdata[i];
      if (g->kind != STROBE_TRACK_GROUP)
        continue;
      g->empty = TRUE;
      for (guint k = 0; k < list->tracks->len; k++)
        {
          StrobeTrack *t = list->tracks->pdata[k];
          if (t->kind == STROBE_TRACK_THREAD && g_strcmp0 (t->group, g->group) == 0 && !t->empty)
            g->empty = FALSE;
        }
    }
  if (changed)
    sort_tracks (list);
  return changed;
}

/* ---- layout --------------------------------------------------------------------------- */

static int
track_height (const StrobeTrack *t)
{
  switch (t->kind)
    {
    case STROBE_TRACK_FRAMES:
      return t->collapsed ? STROBE_TRACK_HEADER_H : STROBE_TRACK_FRAMES_H;
    case STROBE_TRACK_REGIONS:
      return t->collapsed ? STROBE_TRACK_HEADER_H + 6 : STROBE_TRACK_HEADER_H + (int) MAX (t->depths, 1) * STROBE_TRACK_LANE_H + 4;
    case STROBE_TRACK_GROUP:
      return STROBE_TRACK_GROUP_H;
    case STROBE_TRACK_THREAD:
      /* Collapsed: the header row with a strip of the outermost scopes. */
      if (t->collapsed)
        return STROBE_TRACK_HEADER_H + 6;
      return STROBE_TRACK_HEADER_H + (int) MIN (t->depths, 4096) * STROBE_TRACK_ROW_H
             + (t->sampled ? STROBE_TRACK_SAMPLES_H : 0) + STROBE_TRACK_GAP;
    case STROBE_TRACK_COUNTER:
    case STROBE_TRACK_CPU:
      return t->collapsed ? STROBE_TRACK_HEADER_H : STROBE_TRACK_COUNTER_H;
    default:
      return 0;
    }
}

int
strobe_track_list_layout (StrobeTrackList *list, gboolean hide_empty)
{
  int y = 0;
  const StrobeTrack *group = NULL;

  for (guint i = 0; i < list->tracks->len; i++)
    {
      StrobeTrack *t = list->tracks->pdata[i];
      gboolean shown = !t->hidden && !(hide_empty && t->empty);

      if (t->kind == STROBE_TRACK_GROUP)
        group = t;
      else if (t->kind != STROBE_TRACK_THREAD || !t->group || !*t->group)
        group = NULL;
      if (t->kind == STROBE_TRACK_THREAD && group && g_strcmp0 (group->group, t->group) == 0
          && (group->hidden || group->collapsed || (hide_empty && group->empty)))
        shown = FALSE;
      t->y = y;
      t->height = shown ? track_height (t) : 0;
      y += t->height;
    }
  return y;
}

int
strobe_track_list_at_y (StrobeTrackList *list, int y)
{
  guint lo = 0, hi = list->tracks->len;

  /* Tracks are laid out in order: the last one starting at or before y. */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (((StrobeTrack *) list->tracks->pdata[mid])->y <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i-- > 0;)
    {
      StrobeTrack *t = list->tracks->pdata[i];
      if (t->height > 0)
        return y < t->y + t->height ? (int) i : -1;
    }
  return -1;
}

int
strobe_track_row_y (guint depth)
{
  return STROBE_TRACK_HEADER_H + (int) depth * STROBE_TRACK_ROW_H;
}

int
strobe_track_samples_y (const StrobeTrack *track)
{
  g_return_val_if_fail (track != NULL, -1);
  if (track->kind != STROBE_TRACK_THREAD || !track->sampled || track->collapsed)
    return -1;
  return STROBE_TRACK_HEADER_H + (int) MIN (track->depths, 4096) * STROBE_TRACK_ROW_H;
}

int
strobe_track_row_at (const StrobeTrack *track, int y)
{
  int d;

  if (track->kind != STROBE_TRACK_THREAD || track->collapsed || y < STROBE_TRACK_HEADER_H)
    return -1;
  d = (y - STROBE_TRACK_HEADER_H) / STROBE_TRACK_ROW_H;
  return d < (int) track->depths ? d : -1;
}

/* ---- moving and saving -------------------------------------------------------------------- */

/* The index range [*a, *b) of the unit @i belongs to: a group with its threads, or the
 * track alone. */
static void
unit_of (StrobeTrackList *list, guint i, guint *a, guint *b)
{
  StrobeTrack *t = list->tracks->pdata[i];

  *a = i;
  *b = i + 1;
  if (t->kind == STROBE_TRACK_GROUP)
    while (*b < list->tracks->len)
      {
        StrobeTrack *n = list->tracks->pdata[*b];
        if (n->kind != STROBE_TRACK_THREAD || g_strcmp0 (n->group, t->group) != 0)
          break;
        (*b)++;
      }
}

static gboolean
same_level (const StrobeTrack *a, const StrobeTrack *b)
{
  gboolean ga = a->kind == STROBE_TRACK_THREAD && a->group && *a->group;
  gboolean gb = b->kind == STROBE_TRACK_THREAD && b->group && *b->group;

  if (section (a) != section (b))
    return FALSE;
  /* Grouped threads move within their group; groups and lone threads among each other. */
  if (ga || gb)
    return ga && gb && g_strcmp0 (a->group, b->group) == 0;
  return TRUE;
}

gboolean
strobe_track_list_move (StrobeTrackList *list, guint from, guint to)
{
  guint a, b, n;
  g_autoptr(GPtrArray) moved = NULL;
  StrobeTrack *ft;

  g_return_val_if_fail (list != NULL, FALSE);
  if (from >= list->tracks->len)
    return FALSE;
  ft = list->tracks->pdata[from];
  if (to == G_MAXUINT)
    {
      /* The end of its level: after the last track of the same level. */
      to = from;
      for (guint i = from + 1; i < list->tracks->len; i++)
        if (same_level (ft, list->tracks->pdata[i]))
          to = i;
      if (to == from)
        return FALSE;
      unit_of (list, to, &a, &b);
      to = b;
    }
  else
    {
      if (to >= list->tracks->len || to == from || !same_level (ft, list->tracks->pdata[to]))
        return FALSE;
    }
  unit_of (list, from, &a, &b);
  if (to > a && to < b)
    return FALSE;
  n = b - a;
  moved = g_ptr_array_new ();
  for (guint i = a; i < b; i++)
    g_ptr_array_add (moved, list->tracks->pdata[i]);
  /* Take the unit out (without freeing), then put it before @to. */
  for (guint i = 0; i < n; i++)
    list->tracks->pdata[a + i] = NULL;
  g_ptr_array_set_free_func (list->tracks, NULL);
  g_ptr_array_remove_range (list->tracks, a, n);
  g_ptr_array_set_free_func (list->tracks, track_free);
  if (to > a)
    to -= n;
  for (guint i = 0; i < n; i++)
    g_ptr_array_insert (list->tracks, (gint) (to + i), moved->pdata[i]);
  snapshot (list);
  return TRUE;
}

void
strobe_track_list_set_hidden (StrobeTrackList *list, guint index, gboolean hidden)
{
  g_return_if_fail (list != NULL && index < list->tracks->len);

  ((StrobeTrack *) list->tracks->pdata[index])->hidden = !!hidden;
  snapshot (list);
}

void
strobe_track_list_set_collapsed (StrobeTrackList *list, guint index, gboolean collapsed)
{
  g_return_if_fail (list != NULL && index < list->tracks->len);

  ((StrobeTrack *) list->tracks->pdata[index])->collapsed = !!collapsed;
  snapshot (list);
}

char *
strobe_track_list_save (StrobeTrackList *list)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < list->tracks->len; i++)
    {
      StrobeTrack *t = list->tracks->pdata[i];
      g_autofree char *key = g_strescape (t->key, NULL);

      g_string_append_printf (out, "%s%s\t%s\n", t->hidden ? "h" : "-", t->collapsed ? "c" : "-", key);
    }
  return g_string_free (out, FALSE);
}

void
strobe_track_list_restore (StrobeTrackList *list, const char *saved)
{
  g_auto(GStrv) lines = NULL;
  int rank = 0;

  g_return_if_fail (list != NULL);

  g_hash_table_remove_all (list->saved);
  if (saved == NULL)
    return;
  lines = g_strsplit (saved, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      const char *tab = strchr (lines[i], '\t');
      Saved *s;

      if (tab == NULL || tab - lines[i] != 2)
        continue;
      s = g_new0 (Saved, 1);
      s->rank = rank++;
      s->hidden = lines[i][0] == 'h';
      s->collapsed = lines[i][1] == 'c';
      g_hash_table_replace (list->saved, g_strcompress (tab + 1), s);
    }
  for (guint i = 0; i < list->tracks->len; i++)
    {
      StrobeTrack *t = list->tracks->pdata[i];
      Saved *s = g_hash_table_lookup (list->saved, t->key);
      if (s)
        {
          t->hidden = s->hidden;
          t->collapsed = s->collapsed;
        }
    }
  sort_tracks (list);
}

void
strobe_track_list_reset (StrobeTrackList *list)
{
  g_return_if_fail (list != NULL);

  g_hash_table_remove_all (list->saved);
  for (guint i = 0; i < list->tracks->len; i++)
    {
      StrobeTrack *t = list->tracks->pdata[i];
      t->hidden = FALSE;
      t->collapsed = FALSE;
    }
  sort_tracks (list);
}
