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

  StrobeMemoryJob    *job;
  StrobeMemorySeries *series;          /* drawn */
  guint64             want_a, want_b;  /* what the running job makes */
  guint               want_n;
  guint64             want_generation;
  gint64              last_request_us;
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

/* The axis's range over the plot's width, from x = GUTTER. */
gboolean _strobe_memory_graph_plot_scale      (StrobeMemoryGraph     *self,
                                               StrobeTimeScale       *scale);
/* The time at @x, clamped to the plot. */
guint64  _strobe_memory_graph_x_to_time       (StrobeMemoryGraph     *self,
                                               double                 x);
/* Emits "marker-requested". */
void     _strobe_memory_graph_request_marker  (StrobeMemoryGraph     *self,
                                               guint                  which,
                                               guint64                time);
/* A scale for @values that one spike does not flatten: the largest, unless it is more than
 * 3 times the 98th percentile — then 1.5 times that percentile. *@peak: the largest. */
double   _strobe_memory_graph_robust_max      (const double          *values,
                                               guint                  n,
                                               double                *peak);
void     _strobe_memory_graph_class_init_input (GtkWidgetClass       *widget_class);
void     _strobe_memory_graph_init_input      (StrobeMemoryGraph     *self);

static inline double
strobe_memory_graph_time_to_x (const StrobeTimeScale *scale, guint64 t)
{
  return GUTTER + strobe_time_scale_x (scale, t);
}

G_END_DECLS
