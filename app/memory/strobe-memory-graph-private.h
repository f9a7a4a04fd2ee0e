/* strobe-memory-graph-private.h — what the memory graph's drawing (strobe-memory-graph.c)
 * and its input (strobe-memory-graph-input.c) share.
 *
 * SPDX-License-Identifier: MIT
 */
#pragma once

#include "strobe-memory-graph.h"
#include "strobe-memory-job.h"

G_BEGIN_DECLS

#define GUTTER        168.0  /* lane titles, scales and legends left of the plot */
#define RIGHT_PAD     8.0
#define DRAG_SLOP     4.0

struct _StrobeMemoryGraph
{
  GtkWidget           parent_instance;

  StrobeMemoryNames  *names;
  StrobeTimeAxis     *axis;
  StrobeViewState    *state;           /* the axis's */
  guint64             markers[3];
  gboolean            visible[STROBE_MEMORY_N_LANES];
  GArray             *gaps;            /* StrobeInfoGap: the Memory channel was off */
  guint64             not_analysed_from;   /* the model's budget stopped it here; G_MAXUINT64: none */

  StrobeMemoryJob    *job;
  StrobeMemorySeries *series;          /* drawn */
  guint64             want_a, want_b;  /* what the running job makes */
  guint               want_n;
  guint64             want_generation;
  gint64              last_request_us;
  gint64              last_done_us;    /* when the last series came */
  gint64              last_cost_us;    /* how long it took to make */
  guint64             shown_a, shown_b;  /* what self->series was asked for */
  guint               shown_n;
  gboolean            growing;         /* the model is still read or recorded */
  guint               refresh_source;

  /* Cached drawing. */
  GskRenderNode      *plot;            /* of self->series, at plot_w × h */
  GskRenderNode      *gutter;
  StrobeMemorySeries *plot_series;
  int                 plot_w, plot_h, plot_scale;
  gboolean            plot_dark;
  GskRenderNode      *ruler;
  guint64             ruler_a, ruler_b;
  int                 ruler_w;

  /* Pointer and keyboard. */
  gboolean            hovering;
  double              hover_x, hover_y;
  double              drag_x;
  gboolean            dragging;
  guint64             drag_anchor;
  guint64             key_anchor;
  guint64             menu_time;
  GtkWidget          *menu;
};

/* A scale for @values that one spike does not flatten: the largest, unless it is more than
 * 3 times the 98th percentile — then 1.5 times that percentile. *@peak: the largest. */
double   _strobe_memory_graph_robust_max      (const double          *values,
                                               guint                  n,
                                               double                *peak);
/* Installs the actions and key bindings, and "marker-requested" (the input asks for a
 * marker; the view sets it). */
void     _strobe_memory_graph_class_init_input (GtkWidgetClass       *widget_class);
void     _strobe_memory_graph_init_input      (StrobeMemoryGraph     *self);

/* The geometry both files use, here rather than in strobe-memory-graph.c so the input
 * calls nothing of the drawing's (the drawing calls the input's init functions). */
static inline double
_strobe_memory_graph_plot_width (StrobeMemoryGraph *self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)) - GUTTER - RIGHT_PAD, 1.0);
}

static inline gboolean
_strobe_memory_graph_range (StrobeMemoryGraph *self, guint64 *start, guint64 *end)
{
  return self->axis != NULL && strobe_time_axis_get_range (self->axis, start, end);
}

/* The axis's range over the plot's width, from x = GUTTER. */
static inline gboolean
_strobe_memory_graph_plot_scale (StrobeMemoryGraph *self, StrobeTimeScale *scale)
{
  return self->axis != NULL
         && strobe_time_axis_get_scale (self->axis, (int) _strobe_memory_graph_plot_width (self), scale);
}

/* The time at @x, clamped to the plot. */
static inline guint64
_strobe_memory_graph_x_to_time (StrobeMemoryGraph *self, double x)
{
  StrobeTimeScale scale;

  if (!_strobe_memory_graph_plot_scale (self, &scale))
    return 0;
  return strobe_time_scale_time (&scale, CLAMP (x - GUTTER, 0.0, (double) scale.width));
}

static inline double
strobe_memory_graph_time_to_x (const StrobeTimeScale *scale, guint64 t)
{
  return GUTTER + strobe_time_scale_x (scale, t);
}

G_END_DECLS
