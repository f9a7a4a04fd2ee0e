/* strobe-timeline-widget-private.h
 *
 * What the files of the timeline widget share: the instance structure, what a hit test
 * finds, the palette a frame is drawn with, and the functions one part calls in another.
 * The widget is split by role, each file calling only the ones below it (no two call each
 * other):
 *
 *   strobe-timeline-widget.c          the GObject: properties, following the document, log
 *                                     ticks, the frame's order — it puts the parts together
 *   strobe-timeline-widget-input.c    hit tests, tooltips, pointer and gestures
 *   strobe-timeline-widget-actions.c  the selected scope, selection and navigation,
 *                                     actions, key bindings, menu
 *   strobe-timeline-widget-draw.c     track backgrounds, tiles, headers
 *   strobe-timeline-widget-overlay.c  selection, hover, cursor, bookmarks, outlines, ruler
 *   strobe-timeline-widget-a11y.c     the description screen readers hear
 *   strobe-timeline-widget-tracks.c   the tracks' layout, hide, collapse, move; tracks-changed
 *   strobe-timeline-widget-range.c    the view range: axis, bounds, zoom, pan, fit; the
 *                                     main thread's waits for the model
 *   strobe-timeline-widget-style.c    colours, text layouts, fonts, formatting
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-format.h"
#include "strobe-log-model.h"
#include "strobe-time-axis.h"
#include "strobe-timeline-background.h"
#include "strobe-timeline-geometry.h"
#include "strobe-timeline-layouts.h"
#include "strobe-timeline-samples.h"
#include "strobe-timeline-tiles.h"
#include "strobe-timeline-widget.h"

G_BEGIN_DECLS

/* The ruler: tick labels over ticks, then a strip of markers (bookmarks, drops, the
 * selection's length, where the data ends). */
#define RULER_H       46
#define TICKS_H       22
#define MARKS_Y       26
#define HEADER_PAD    6
#define MIN_SPAN      16        /* ticks: the deepest zoom */
#define ZOOM_STEP     1.25
#define MAX_TOOLTIP_CHILDREN 50000
#define LOADING_REFRESH_US   (1000 * 1000)

typedef enum
{
  DRAG_NONE,
  DRAG_PAN,
  DRAG_SELECT,
  DRAG_REORDER,
} DragMode;

typedef struct
{
  gdouble  min;
  gdouble  max;
  gboolean valid;
} CounterRange;

/* The main thread's longest wait for the model: a frame or a change handled waits at most
 * this for a batch being added (spinning: strobe_timeline_widget_read_model), then goes
 * on with what it had (issue 20: no stall over 4 ms while a trace loads). Every timeline's
 * waits together: a group tab draws eight, each of whose models may be mid-batch. */
#define MODEL_WAIT_US        500

/* The name of the scope under the left edge of one row of a thread, or of a region. */
typedef struct
{
  guint32              track_id;   /* thread id; for a region, its lane */
  guint                depth;
  StrobeTimelineScope  scope;      /* a region: begin, end, name_id */
  const char          *name;
} EdgeName;

/* What a frame shows from the model besides its tiles: read when the model can be read at
 * once, kept for the frames that come while a batch is being added (the reading thread
 * holds the model then, and may itself be waiting for a core). Positions are times, so
 * what was read a frame ago is drawn where it belongs. */
typedef struct
{
  gboolean fresh;          /* read for this frame */
  GArray  *drops;          /* StrobeTimelineDrop in the view */
  GArray  *bookmarks;      /* StrobeTimelineBookmark in the view */
  GPtrArray *bookmark_names;
  GArray  *edge_scopes;    /* EdgeName */
  GArray  *edge_regions;   /* EdgeName */
  int      hover_counter;  /* the counter track under the pointer (-1: none) and its value there */
  gboolean have_hover_value;
  gdouble  hover_value;
} FrameFacts;

/* What is under the pointer. */
typedef enum
{
  HIT_NONE,
  HIT_RULER,
  HIT_HEADER,          /* a track's header (name, collapse toggle) */
  HIT_SCOPE,
  HIT_BLOCK,           /* several scopes merged */
  HIT_LOG,
  HIT_FRAME,
  HIT_REGION,
  HIT_COUNTER,
  HIT_SAMPLES,         /* a sampled thread's state strip */
  HIT_CPU,             /* the CPU usage track */
  HIT_TRACK,           /* a track, nothing on it there */
} HitKind;

typedef struct
{
  HitKind             kind;
  int                 track;
  guint64             time;
  StrobeTimelineBlock block;     /* scope / block */
  guint16             thread_id;
  StrobeLogTick       tick;
  StrobeTimelineFrame frame;
  StrobeTimelineRegion region;
} Hit;

struct _StrobeTimelineWidget
{
  GtkWidget             parent_instance;

  StrobeDocument       *document;
  StrobeViewState      *state;
  StrobeTimelineModel  *timeline;
  StrobeThreadsModel   *threads;
  StrobeSampleModel    *samples;          /* the Sampling channel's (strip and CPU track); NULL without */
  guint64               samples_generation; /* of @samples when its tracks were last drawn */
  double                cpu_peak;         /* the CPU track's scale: its highest share, ≥ 1 (one core) */
  StrobeLogModel       *log;

  StrobeTimeAxis       *axis;            /* the document's clock, asked each time: never a copy */
  char                 *description;     /* the accessible description last set */
  gboolean              have_extent;
  guint64               first;
  guint64               last;
  gboolean              user_moved;       /* the user changed the view: no more fitting */
  gboolean              has_span;         /* set_span(): a session's span instead of the extent */
  guint64               span_first;
  guint64               span_last;
  gint64                loading_refresh_us;

  StrobeTrackList      *tracks;
  int                   content_h;
  gboolean              hide_empty;
  StrobeScopeRef       *selected_scope;  /* the page's own selection: no other view follows it */
  GtkAdjustment        *vadj;
  char                 *program;
  gboolean              layout_restored;

  StrobeTileCache      *tiles;
  StrobeTimelineColors  scheme;
  gdouble               frame_target;     /* seconds */
  guint32               highlight;
  GArray               *counter_ranges;   /* CounterRange, by counter index */
  GArray               *counter_gaps;     /* StrobeInfoGap: the Counters channel was off; NULL: never */

  GHashTable           *log_ticks;        /* thread id -> GArray of StrobeLogTick */
  guint64               log_known;        /* messages gathered */
  gboolean              log_busy;
  gboolean              log_again;
  gboolean              log_complete_pass;/* a full pass once the trace is complete */
  GCancellable         *cancellable;

  GHashTable           *layouts;          /* text -> PangoLayout */

  gboolean              hovering;
  gdouble               hover_x;
  gdouble               hover_y;
  Hit                   hover;

  DragMode              drag;
  gdouble               drag_x;
  gdouble               drag_y;
  guint64               drag_start;
  guint64               drag_end;
  gdouble               drag_vadj;
  guint64               drag_anchor;
  int                   drag_track;
  int                   drop_index;
  guint64               pinch_start;
  guint64               pinch_end;

  guint                 incomplete;       /* tiles the last frame drew without an up-to-date picture */
  FrameFacts            facts;
  StrobeDocumentChanges changes_waiting;  /* a change not handled: the model was being written */
  guint                 changes_retry;
  gboolean              textures;         /* the renderer's: see the snapshot */
  /* The rows a scrolling ancestor shows, in the widget's coordinates (the snapshot's):
   * in a group tab each process's timeline is as tall as its tracks, in a viewport. */
  gdouble               shown_top;
  gdouble               shown_bottom;
  GtkAdjustment        *outer_vadj;       /* that viewport's, followed while mapped */
  gboolean              kb_anchor_set;
  guint64               kb_anchor;
  GtkWidget            *menu;
};

typedef struct
{
  GdkRGBA fg;
  GdkRGBA dim;          /* secondary text */
  GdkRGBA bg;
  GdkRGBA band;         /* every other track */
  GdkRGBA line;
  GdkRGBA accent;
  GdkRGBA accent_fill;
  GdkRGBA header_bg;
  GdkRGBA red;
  GdkRGBA bookmark;
} Palette;

/* strobe-timeline-widget-style.c: what the parts draw and write with */
void strobe_timeline_widget_fg_color (GtkWidget *widget, GdkRGBA *fg);
gboolean strobe_timeline_widget_is_dark (StrobeTimelineWidget *self);
PangoLayout *strobe_timeline_widget_text_layout (StrobeTimelineWidget *self, const char *text, gboolean bold);
PangoFontDescription *strobe_timeline_widget_small_font (StrobeTimelineWidget *self);
PangoLayout *strobe_timeline_widget_scope_layout (StrobeTimelineWidget *self, const char *text, int width);
void strobe_timeline_widget_append_text (GtkSnapshot *snapshot, PangoLayout *layout, gdouble x, gdouble y, const GdkRGBA *color);
void strobe_timeline_widget_fill_rect (GtkSnapshot *snapshot, gdouble x, gdouble y, gdouble w, gdouble h, const GdkRGBA *c);
guint64 strobe_timeline_widget_frame_target_ticks (StrobeTimelineWidget *self);
/* A length of time as the timeline prints it ("12.3 ms"), with the document's clock. */
char   *strobe_timeline_widget_format_ticks       (StrobeTimelineWidget *self,
                                                   guint64               ticks);
char *strobe_timeline_widget_format_value (gdouble v, guint8 unit, guint8 type);

/* strobe-timeline-widget-range.c: the view range */
void strobe_timeline_widget_get_axis (StrobeTimelineWidget *self, StrobeTimeScale *axis);
/* The model's read lock, waited for (spinning) within what is left of the main thread's
 * MODEL_WAIT_US in the last 16 ms, shared by every timeline; FALSE: not had. */
gboolean strobe_timeline_widget_read_model (StrobeTimelineWidget *self);
void strobe_timeline_widget_bounds (StrobeTimelineWidget *self, guint64 *lo, guint64 *hi);
gboolean strobe_timeline_widget_get_span (StrobeTimelineWidget *self, guint64 *first, guint64 *last);
void strobe_timeline_widget_set_visible_range (StrobeTimelineWidget *self, guint64 start, guint64 end);
void strobe_timeline_widget_mark_user_moved (StrobeTimelineWidget *self);
void strobe_timeline_widget_zoom_by (StrobeTimelineWidget *self, gdouble factor, gdouble anchor_x);
void strobe_timeline_widget_pan_by (StrobeTimelineWidget *self, gdouble dx_px);

/* strobe-timeline-widget-tracks.c: the tracks in the widget */
void strobe_timeline_widget_class_init_tracks (GObjectClass *klass);
void strobe_timeline_widget_emit_tracks_changed (StrobeTimelineWidget *self);
int strobe_timeline_widget_tracks_height (StrobeTimelineWidget *self);
/* The tracks laid out again (a track or the height changed), the adjustment with them. */
void strobe_timeline_widget_relayout (StrobeTimelineWidget *self);

/* strobe-timeline-widget-draw.c: track backgrounds, tiles, headers */
void strobe_timeline_widget_tile_ready (gpointer user_data);
void strobe_timeline_widget_get_palette (StrobeTimelineWidget *self, Palette *p);
void strobe_timeline_widget_draw_tracks (StrobeTimelineWidget *self, GtkSnapshot *snapshot, StrobeTimeScale *axis, const Palette *p);
/* Reads what the frame shows from the model (self->facts) when it can within MODEL_WAIT_US;
 * else the frame draws what the last one read. */
void strobe_timeline_widget_gather_facts (StrobeTimelineWidget *self, const StrobeTimeScale *axis);
void strobe_timeline_widget_clear_facts (StrobeTimelineWidget *self);

/* strobe-timeline-widget-overlay.c: what is drawn over the tiles, and the ruler */
void strobe_timeline_widget_draw_outline (GtkSnapshot *snapshot, const graphene_rect_t *r, gdouble width, const GdkRGBA *color);
gboolean strobe_timeline_widget_get_end_marker (StrobeTimelineWidget *self, const char **reason);
void strobe_timeline_widget_draw_overlays (StrobeTimelineWidget *self, GtkSnapshot *snapshot, StrobeTimeScale *axis, const Palette *p);
void strobe_timeline_widget_draw_pill (StrobeTimelineWidget *self, GtkSnapshot *snapshot, const char *text, gdouble x, gdouble y,
                                       const GdkRGBA *bg, const GdkRGBA *fg, int width);
void strobe_timeline_widget_draw_ruler (StrobeTimelineWidget *self, GtkSnapshot *snapshot, StrobeTimeScale *axis, const Palette *p);

/* strobe-timeline-widget-input.c: hit tests, tooltips, pointer */
void strobe_timeline_widget_init_input (StrobeTimelineWidget *self);

/* strobe-timeline-widget-actions.c: selection, navigation, actions and key bindings */
void strobe_timeline_widget_select_scope (StrobeTimelineWidget *self, guint16 thread_id, const StrobeTimelineBlock *b);
int strobe_timeline_widget_track_neighbour (StrobeTimelineWidget *self, guint i, int dir);
void strobe_timeline_widget_show_track_menu (StrobeTimelineWidget *self, int track, gdouble x, gdouble y);
void strobe_timeline_widget_class_init_actions (GtkWidgetClass *widget_class);

/* strobe-timeline-widget-a11y.c */
void strobe_timeline_widget_update_description (StrobeTimelineWidget *self);

G_END_DECLS
