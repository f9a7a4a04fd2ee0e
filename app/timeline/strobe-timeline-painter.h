/* strobe-timeline-painter.h — draws one tile of one track (scopes, log ticks, counters,
 * frames, regions) into a cairo image surface from the timeline model. Uses only cairo and
 * pango, never GTK, so it runs on worker threads: the main thread only puts the finished
 * tiles on screen.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "strobe-sample-model.h"
#include "strobe-timeline-model.h"
#include "strobe-timeline-tracks.h"
#include "strobe-trace-clock.h"

G_BEGIN_DECLS

typedef enum
{
  STROBE_TIMELINE_COLORS_BY_NAME,       /* a stable colour per scope name */
  STROBE_TIMELINE_COLORS_BY_THREAD,
  STROBE_TIMELINE_COLORS_BY_DURATION,   /* Unreal Insights' thresholds: < 1 µs … ≥ 10 ms */
} StrobeTimelineColors;

typedef struct
{
  gdouble r, g, b;
} StrobeRgb;

/* A log message on a thread's track: its time, its index in the log model and verbosity. */
typedef struct
{
  guint64 time;
  guint64 index;
  guint8  verbosity;
} StrobeLogTick;

/* Everything one tile needs, copied so the worker owns it. */
typedef struct
{
  StrobeTrackKind      kind;
  guint32              id;          /* thread id, counter index, frame kind */
  guint                depths;      /* thread rows (regions: lanes) */
  gboolean             collapsed;
  guint8               counter_type;
  gdouble              value_min;   /* counters: the track's vertical scale */
  gdouble              value_max;

  guint64              t0;          /* the tile's left edge */
  gdouble              scale;       /* ticks per pixel */
  int                  width;       /* pixels */
  int                  y0;          /* the tile's top, in track pixels */
  int                  height;
  int                  scale_factor;

  StrobeTimelineColors scheme;
  guint32              highlight;   /* a name id to show, others dimmed; G_MAXUINT32: none */
  guint64              frame_target;/* ticks */
  StrobeTraceClock     clock;
  gboolean             dark;
  StrobeRgb            fg;          /* text on the background */
  PangoFontDescription *font;       /* owned */
  GArray              *log_ticks;   /* threads: StrobeLogTick in time order (a reference); may be NULL */
  StrobeSampleModel   *samples;     /* sampled threads and the CPU track (a reference); may be NULL */
  guint32              system_id;   /* sampled threads: the OS thread id the samples name */
  int                  samples_y;   /* sampled threads: the strip's track-relative top; -1: none */
  GArray              *gaps;        /* counters: StrobeInfoGap, when the Counters channel was off
                                     * (a reference); may be NULL */
} StrobeTileSpec;

void             strobe_tile_spec_clear          (StrobeTileSpec       *spec);

/* The tile as an ARGB32 surface of width × height × scale_factor² pixels (device scale
 * set); NULL when *@cancelled became non-zero meanwhile. */
cairo_surface_t *strobe_timeline_paint_tile      (const StrobeTileSpec *spec,
                                                  StrobeTimelineModel  *model,
                                                  const gint           *cancelled);

/* Colours, shared with the overlay, the flame graph and the legend. */
StrobeRgb        strobe_timeline_name_color      (const char           *name);
StrobeRgb        strobe_timeline_thread_color    (guint16               thread_id,
                                                  guint                 depth);
StrobeRgb        strobe_timeline_duration_color  (const StrobeTraceClock *clock,
                                                  guint64               ticks);
StrobeRgb        strobe_timeline_verbosity_color (guint8                verbosity);
/* Green, yellow or red against the target. */
StrobeRgb        strobe_timeline_frame_color     (guint64               duration,
                                                  guint64               target);
/* A scope's fill as tiles draw it: by @scheme, dimmed when another name is highlighted
 * (@dimmed), greyed when it stands for several scopes (@merged). */
StrobeRgb        strobe_timeline_scope_color     (StrobeTimelineColors   scheme,
                                                  guint16                thread_id,
                                                  guint                  depth,
                                                  const char            *name,
                                                  guint64                duration,
                                                  const StrobeTraceClock *clock,
                                                  gboolean               merged,
                                                  gboolean               dimmed,
                                                  gboolean               dark);
/* A region's fill: its name's colour, lightened (darkened on a dark theme). */
StrobeRgb        strobe_timeline_region_color    (const char            *name,
                                                  gboolean               dark);
/* Black or white, whichever reads on @bg. */
StrobeRgb        strobe_timeline_text_on         (StrobeRgb             bg);

G_END_DECLS
