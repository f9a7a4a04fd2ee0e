/* strobe-timeline-tiles.h — the timeline's cache of drawn tiles and the worker threads
 * that draw them. A tile is one square of one track at one scale (the "epoch": scale,
 * origin, colours…); its texture stays until the model says something changed in its
 * time span (strobe_timeline_model_get_changed_since()), so a growing live trace redraws
 * only the tiles at its end, and a pan only the tiles that come into view. The main
 * thread never waits: a missing tile is asked for and drawn when it is ready, and
 * meanwhile the tiles of the previous epoch stand in, scaled.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <gtk/gtk.h>

#include "strobe-timeline-painter.h"

G_BEGIN_DECLS

#define STROBE_TILE_SIZE 256

typedef struct
{
  guint8  kind;         /* StrobeTrackKind */
  guint8  collapsed;
  guint16 ty;           /* vertical tile index within the track */
  guint32 id;
  gint64  tx;           /* horizontal tile index from the origin */
  guint32 depths;
  guint32 variant;      /* anything else the picture depends on (a counter's scale…) */
} StrobeTileKey;

/* What every tile of one epoch shares. */
typedef struct
{
  gdouble              scale;
  guint64              origin;
  int                  scale_factor;
  StrobeTimelineColors scheme;
  guint32              highlight;
  guint64              frame_target;
  gboolean             dark;
  gboolean             textures;    /* the renderer keeps textures (GL): texture nodes, else cairo nodes */
} StrobeTileEpoch;

typedef struct _StrobeTileCache StrobeTileCache;

/* Fills @spec for a tile that must be drawn (the cache sets the geometry fields). */
typedef void (*StrobeTileFillFunc) (const StrobeTileKey *key,
                                    StrobeTileSpec      *spec,
                                    gpointer             user_data);
/* A tile is ready (on the cache's main context). */
typedef void (*StrobeTileReadyFunc) (gpointer user_data);

StrobeTileCache *strobe_tile_cache_new        (StrobeTimelineModel   *model,
                                               StrobeTileReadyFunc    ready,
                                               gpointer               user_data);
/* Stops drawing what is queued or under way (the timeline left the screen); a tile asked
 * for again is drawn again. */
void             strobe_tile_cache_cancel     (StrobeTileCache       *cache);
/* Cancels what is pending; nothing is called back after this. */
void             strobe_tile_cache_free       (StrobeTileCache       *cache);
/* Reads the model's generation, completeness and end for the tiles asked for next (a
 * request itself never reads the model): call it when the model can be read at once. */
void             strobe_tile_cache_read_model (StrobeTileCache       *cache);
/* TRUE when the epoch changed (the current tiles become the previous epoch's). */
gboolean         strobe_tile_cache_set_epoch  (StrobeTileCache       *cache,
                                               const StrobeTileEpoch *epoch);
/* The tile's picture as a render node at (0, 0), the same node every frame while it holds
 * (so GTK's damage tracking sees nothing changed), or NULL when it is not drawn yet; asks
 * for it (with @fill) when it is missing or out of date. @height is the tile's height in
 * pixels. @current (may be NULL) tells whether the picture is up to date.
 *
 * With the GL renderers the node is a texture node (uploaded once). With the cairo
 * renderer it is a cairo node that paints the tile's image: cairo replays such an aligned
 * recording straight onto its target, one blit, where a texture would be copied into a
 * new image every frame. */
GskRenderNode   *strobe_tile_cache_get        (StrobeTileCache       *cache,
                                               const StrobeTileKey   *key,
                                               int                    height,
                                               StrobeTileFillFunc     fill,
                                               gpointer               fill_data,
                                               gboolean              *current);
/* Tiles of the previous epoch of the same track and row that overlap [t0, t1): their
 * nodes, times and scale, to stand in (stretched) for a missing tile. Only when that scale
 * is near the current one. */
typedef void (*StrobeTileStandInFunc) (GskRenderNode   *node,
                                       cairo_surface_t *surface,
                                       guint64          t0,
                                       gdouble          scale,
                                       gpointer         user_data);
void             strobe_tile_cache_stand_ins  (StrobeTileCache       *cache,
                                               const StrobeTileKey   *key,
                                               guint64                t0,
                                               guint64                t1,
                                               StrobeTileStandInFunc  func,
                                               gpointer               user_data);
/* The model grew: tiles whose span changed become out of date (they keep showing until
 * their new picture is ready). */
void             strobe_tile_cache_invalidate (StrobeTileCache       *cache);
/* One track's tiles from @from on are out of date (its log ticks or scale changed). */
void             strobe_tile_cache_invalidate_track (StrobeTileCache *cache,
                                                     StrobeTrackKind  kind,
                                                     guint32          id,
                                                     guint64          from);
/* Everything out of date (a theme change, a layout change that moved rows). */
void             strobe_tile_cache_clear      (StrobeTileCache       *cache);
/* A frame was drawn: tiles not used in it may be evicted beyond the memory budget. */
void             strobe_tile_cache_frame_done (StrobeTileCache       *cache);
/* Also asks for a tile that is about to come into view (after what is on screen). */
void             strobe_tile_cache_prefetch   (StrobeTileCache       *cache,
                                               const StrobeTileKey   *key,
                                               int                    height,
                                               StrobeTileFillFunc     fill,
                                               gpointer               fill_data);
/* Tiles asked for and not ready yet. */
guint            strobe_tile_cache_get_pending (StrobeTileCache      *cache);
/* What the frames so far cost the cache (counts since it was made; a benchmark reads
 * them around one frame). */
typedef struct
{
  guint64 nodes_made;      /* tile pictures turned into render nodes */
  guint64 stand_ins;       /* previous-epoch pictures drawn stretched for a missing tile */
  guint64 epochs;          /* epoch changes */
} StrobeTileCounts;
void             strobe_tile_cache_get_counts (StrobeTileCache       *cache,
                                               StrobeTileCounts      *counts);
/* Bytes of tile pictures held. */
gsize            strobe_tile_cache_get_bytes  (StrobeTileCache       *cache);

G_END_DECLS
