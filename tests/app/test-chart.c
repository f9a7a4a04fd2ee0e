/* test-chart.c — app/chart: the time scale (time ↔ pixels, where a span lands, ruler ticks
 * and labels, checked exactly) and the time axis on a golden trace's document and a view
 * state (bounds, the range shown and its fallback, the signals, the clock's conversions);
 * the layers' pixels on a small canvas (area, stacked bands, blending).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-chart-layers.h"
#include "strobe-format.h"
#include "strobe-time-axis.h"

static const char *golden_dir;

/* ---- the scale ----------------------------------------------------------------------- */

static void
test_scale (void)
{
  StrobeTimeScale a;
  gdouble x, w;

  strobe_time_scale_init (&a, 1000, 2000, 100);
  g_assert_cmpfloat (a.scale, ==, 10);
  g_assert_cmpfloat (strobe_time_scale_x (&a, 1500), ==, 50);
  g_assert_cmpfloat (strobe_time_scale_x (&a, 900), ==, -10);
  g_assert_cmpuint (strobe_time_scale_time (&a, 25), ==, 1250);
  g_assert_cmpuint (strobe_time_scale_time (&a, -200), ==, 0);
  g_assert_cmpuint (strobe_time_scale_end (&a), ==, 2000);
  /* A scope narrower than a pixel is drawn one pixel wide; outside the clip, not at all. */
  g_assert_true (strobe_time_scale_span (&a, 1500, 1501, 0, 100, 1, &x, &w));
  g_assert_cmpfloat (x, ==, 50);
  g_assert_cmpfloat (w, ==, 1);
  g_assert_false (strobe_time_scale_span (&a, 3000, 4000, 0, 100, 1, &x, &w));
  /* Clipped to a pixel past each edge. */
  g_assert_true (strobe_time_scale_span (&a, 0, 10000, 0, 100, 1, &x, &w));
  g_assert_cmpfloat (x, ==, -1);
  g_assert_cmpfloat (w, ==, 102);
  /* Zero width and an empty range do not divide by zero. */
  strobe_time_scale_init (&a, 5, 5, 0);
  g_assert_cmpfloat (a.scale, >, 0);
}

static void
test_scale_ruler (void)
{
  StrobeTraceClock clock;
  StrobeWireMetadata meta = { 0 };
  StrobeTimeScale a;
  g_autoptr (GArray) ticks = NULL;
  gdouble step;
  int minor;
  g_autofree char *l1 = NULL, *l2 = NULL, *l3 = NULL, *l4 = NULL;

  g_assert_cmpfloat (strobe_ruler_step (1e-3, 100, &minor), ==, 0.1);
  g_assert_cmpint (minor, ==, 5);
  g_assert_cmpfloat_with_epsilon (strobe_ruler_step (1e-9, 100, &minor), 1e-7, 1e-18);
  g_assert_cmpfloat_with_epsilon (strobe_ruler_step (2.5e-6, 90, &minor), 5e-4, 1e-15);
  g_assert_cmpfloat_with_epsilon (strobe_ruler_step (1.5e-6, 100, &minor), 2e-4, 1e-15);
  g_assert_cmpint (minor, ==, 2);

  /* 1 GHz: a tick is a nanosecond. 1 ms over 1000 pixels: a label every 100 µs. */
  meta.clock_frequency = 1000000000;
  strobe_trace_clock_init (&clock, &meta);
  strobe_trace_clock_set_base (&clock, 1000);
  strobe_time_scale_init (&a, 1000 + 250000, 1000 + 1250000, 1000);
  ticks = strobe_ruler_ticks (&clock, &a, 100, &step);
  g_assert_cmpfloat_with_epsilon (step, 1e-4, 1e-15);
  {
    guint majors = 0;
    gdouble last_x = -1;
    for (guint i = 0; i < ticks->len; i++)
      {
        const StrobeRulerTick *t = &g_array_index (ticks, StrobeRulerTick, i);
        g_assert_cmpfloat (t->x, >, last_x);
        last_x = t->x;
        if (t->major)
          {
            /* On a multiple of the step, where its time is. */
            g_assert_cmpuint ((t->time - 1000) % 100000, ==, 0);
            g_assert_cmpfloat_with_epsilon (t->x, strobe_time_scale_x (&a, t->time), 1e-6);
            majors++;
          }
      }
    g_assert_cmpuint (majors, ==, 10);
    g_assert_cmpuint (ticks->len, ==, 50);
  }
  l1 = strobe_ruler_label (1.23456, 1e-5, 2.0);
  g_assert_cmpstr (l1, ==, "1.23456 s");
  l2 = strobe_ruler_label (0.25, 0.05, 0.5);
  g_assert_cmpstr (l2, ==, "250 ms");
  l3 = strobe_ruler_label (0.0000125, 5e-7, 0.00002);
  g_assert_cmpstr (l3, ==, "12.5 µs");
  l4 = strobe_ruler_label (-0.0, 1e-3, 0.01);
  g_assert_cmpstr (l4, ==, "0 ms");
}

/* ---- the axis ------------------------------------------------------------------------ */

static void
count_cb (gpointer data)
{
  (*(guint *) data)++;
}

static void
test_axis (void)
{
  g_autofree char *path = g_build_filename (golden_dir, "golden-memview.strobe", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (StrobeDocument) document = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  g_autoptr (StrobeViewState) state = strobe_view_state_new ();
  g_autoptr (StrobeTimeAxis) axis = NULL;
  g_autoptr (GError) error = NULL;
  StrobeTraceClock clock;
  StrobeTimeScale scale;
  guint64 first, last, a, b, len;
  guint ranges = 0, marks = 0;

  g_assert_true (strobe_document_load (document, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (strobe_document_get_extent (document, &first, &last));
  g_assert_cmpuint (last, >, first + 1000);
  len = last - first;
  axis = strobe_time_axis_new (document, state);
  g_signal_connect_swapped (axis, "range-changed", G_CALLBACK (count_cb), &ranges);
  g_signal_connect_swapped (axis, "marks-changed", G_CALLBACK (count_cb), &marks);

  /* Without bounds of its own: the document's extent, all of it while no range meets it. */
  g_assert_true (strobe_time_axis_get_bounds (axis, &a, &b));
  g_assert_cmpuint (a, ==, first);
  g_assert_cmpuint (b, ==, last);
  strobe_view_state_set_visible_range (state, last + 10, last + 20);
  g_assert_cmpuint (ranges, >, 0);
  g_assert_true (strobe_time_axis_get_range (axis, &a, &b));
  g_assert_cmpuint (a, ==, first);
  g_assert_cmpuint (b, ==, last + 1);
  /* A range inside: that range, and the scale maps it onto the width. */
  strobe_view_state_set_visible_range (state, first + len / 4, first + len / 2);
  g_assert_true (strobe_time_axis_get_range (axis, &a, &b));
  g_assert_cmpuint (a, ==, first + len / 4);
  g_assert_cmpuint (b, ==, first + len / 2);
  g_assert_true (strobe_time_axis_get_scale (axis, 500, &scale));
  g_assert_cmpfloat (strobe_time_scale_x (&scale, a), ==, 0);
  g_assert_cmpfloat_with_epsilon (strobe_time_scale_x (&scale, b), 500, 1e-6);

  /* Bounds of its own: the fallback is them; the same bounds again say nothing. */
  ranges = 0;
  strobe_time_axis_set_bounds (axis, first + len / 2 + 1, last);
  g_assert_cmpuint (ranges, ==, 1);
  strobe_time_axis_set_bounds (axis, first + len / 2 + 1, last);
  g_assert_cmpuint (ranges, ==, 1);
  g_assert_true (strobe_time_axis_get_range (axis, &a, &b));
  g_assert_cmpuint (a, ==, first + len / 2 + 1);
  g_assert_cmpuint (b, ==, last + 1);

  /* The selection and the cursor are marks. */
  strobe_view_state_set_cursor (state, first + 5);
  g_assert_cmpuint (marks, >, 0);
  marks = 0;
  strobe_view_state_set_selection (state, first + 5, first + 50);
  g_assert_cmpuint (marks, >, 0);

  /* The clock is the document's, converted by the core clock type. */
  strobe_document_get_clock (document, &clock);
  g_assert_cmpfloat (strobe_time_axis_to_seconds (axis, last), ==, strobe_trace_clock_to_seconds (&clock, last));
  g_assert_cmpfloat (strobe_time_axis_duration (axis, len), ==, strobe_trace_clock_duration (&clock, len));
  {
    g_autofree char *text = strobe_time_axis_format_time (axis, last);
    g_autofree char *expected = strobe_format_duration_s (strobe_trace_clock_to_seconds (&clock, last));
    g_assert_cmpstr (text, ==, expected);
  }
  /* The ruler's labels are the ruler's, in the clock's seconds. */
  {
    gdouble step = 0;
    g_autoptr (GArray) ticks = strobe_time_axis_ticks (axis, &scale, 100, &step);
    guint majors = 0;

    g_assert_cmpfloat (step, >, 0);
    for (guint i = 0; i < ticks->len; i++)
      {
        const StrobeRulerTick *t = &g_array_index (ticks, StrobeRulerTick, i);
        g_autofree char *label = NULL, *expected = NULL;

        if (!t->major)
          continue;
        majors++;
        label = strobe_time_axis_tick_label (axis, &scale, t, step);
        expected = strobe_ruler_label (strobe_trace_clock_to_seconds (&clock, t->time), step,
                                       strobe_trace_clock_to_seconds (&clock, strobe_time_scale_end (&scale)));
        g_assert_cmpstr (label, ==, expected);
      }
    g_assert_cmpuint (majors, >=, 2);
    g_assert_cmpuint (majors, <=, 6);
  }
}

/* ---- the layers ------------------------------------------------------------------------ */

static const double layer_values[2][4] = { { 2, 4, 0, 8 }, { 2, 2, 2, 0 } };

static guint64
layer_time (gconstpointer data, guint i)
{
  return 100 + 10 * (guint64) i;   /* samples 10 ticks long from 100 */
}

static double
layer_value (gconstpointer data, guint i)
{
  return ((const double *) data)[i];
}

static guint32
pixel (cairo_surface_t *surface, int x, int y)
{
  return ((guint32 *) (void *) cairo_image_surface_get_data (surface))[y * cairo_image_surface_get_stride (surface) / 4 + x];
}

/* Rows [from, to) of column @x are @color, the rest of the column transparent. */
static void
assert_column (cairo_surface_t *surface, int x, int from, int to, guint32 color)
{
  for (int y = 0; y < cairo_image_surface_get_height (surface); y++)
    g_assert_cmphex (pixel (surface, x, y), ==, y >= from && y < to ? color : 0);
}

static void
test_layers (void)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 12);
  StrobeChartSeries series[2] = {
    { 4, 140, layer_time, layer_value, layer_values[0] },
    { 4, 140, layer_time, layer_value, layer_values[1] },
  };
  /* Rows 0..11, the top value (10) two rows under the top: a unit a row. */
  StrobeChartLane lane = { 0, 12, 10 };
  const GdkRGBA colors[2] = { { 1, 0, 0, 1 }, { 0, 0, 1, 1 } };
  StrobeTimeScale scale;
  StrobeChartCanvas canvas;
  int x0, x1;

  /* Four samples over 8 pixels: two columns each. */
  strobe_time_scale_init (&scale, 100, 140, 8);
  strobe_chart_series_columns (&series[0], &scale, 1, &x0, &x1);
  g_assert_cmpint (x0, ==, 2);
  g_assert_cmpint (x1, ==, 4);
  g_assert_cmpfloat (strobe_chart_lane_y (&lane, 0), ==, 12);
  g_assert_cmpfloat (strobe_chart_lane_y (&lane, 10), ==, 2);
  g_assert_cmpfloat (strobe_chart_lane_y (&lane, 50), ==, 2);
  g_assert_cmpfloat (strobe_chart_series_max (&series[0]), ==, 8);
  g_assert_cmpfloat (strobe_chart_stacked_max (series, 2), ==, 8);

  /* An area: from each value down. */
  strobe_chart_canvas_init (&canvas, surface, 8);
  strobe_chart_canvas_color (&canvas, &colors[0], 1);
  strobe_chart_area (&canvas, &scale, &lane, &series[0]);
  cairo_surface_mark_dirty (surface);
  assert_column (surface, 0, 10, 12, 0xffff0000);
  assert_column (surface, 3, 8, 12, 0xffff0000);
  assert_column (surface, 5, 12, 12, 0xffff0000);
  assert_column (surface, 7, 4, 12, 0xffff0000);

  /* Stacked: series 1 on series 0, in its own colour. */
  cairo_surface_destroy (surface);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 12);
  strobe_chart_canvas_init (&canvas, surface, 8);
  strobe_chart_stacked (&canvas, &scale, &lane, series, 2, colors, 2, 1);
  cairo_surface_mark_dirty (surface);
  for (int y = 0; y < 12; y++)
    g_assert_cmphex (pixel (surface, 2, y), ==, y >= 8 ? 0xffff0000 : y >= 6 ? 0xff0000ff : 0);
  assert_column (surface, 4, 10, 12, 0xff0000ff);

  /* Half-transparent over opaque: source over, premultiplied. */
  strobe_chart_canvas_color (&canvas, &(GdkRGBA) { 0, 1, 0, 1 }, 0.5);
  strobe_chart_canvas_box (&canvas, 4, 11, 1, 1);
  cairo_surface_mark_dirty (surface);
  /* (the blend divides by 256, not 255: a unit off at most) */
  for (guint ch = 0; ch < 4; ch++)
    {
      int got = (int) (pixel (surface, 4, 11) >> (ch * 8) & 0xff), want = (int) (0xff008080u >> (ch * 8) & 0xff);
      g_assert_cmpint (ABS (got - want), <=, 2);
    }
  cairo_surface_destroy (surface);
}

/* Rows [from, mid) of column @x are @line, [mid, to) @fill, the rest transparent. */
static void
assert_column2 (cairo_surface_t *surface, int x, int from, int mid, int to, guint32 line, guint32 fill)
{
  for (int y = 0; y < cairo_image_surface_get_height (surface); y++)
    g_assert_cmphex (pixel (surface, x, y), ==, y >= from && y < mid ? line : y >= mid && y < to ? fill : 0);
}

static void
test_envelope (void)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 10, 12);
  /* Rows 0..11, 10 two rows under the top: a unit a row; ten ticks a pixel. */
  StrobeChartLane lane = { 0, 12, 10 }, shifted = { 0, 12, 15, 5 }, flat = { 0, 12, 3, 3 };
  const GdkRGBA red = { 1, 0, 0, 1 };
  const guint32 line = 0xffff0000, fill = 0x80800000;
  StrobeCounterBucket steps[] = { { 0, 1, 0, 0, 2, 2, 2, 2 }, { 4, 1, 40, 40, 6, 6, 6, 6 }, { 9, 1, 100, 100, 6, 6, 6, 6 } };
  StrobeCounterBucket dense[] = { { 0, 1, 0, 0, 5, 5, 5, 5 }, { 5, 5, 50, 58, 5, 5, 0, 10 }, { 9, 1, 90, 90, 5, 5, 5, 5 } };
  StrobeTimeScale scale;
  StrobeChartCanvas canvas;

  strobe_time_scale_init (&scale, 0, 100, 10);
  g_assert_cmpfloat (strobe_chart_lane_y (&shifted, 5), ==, 12);
  g_assert_cmpfloat (strobe_chart_lane_y (&shifted, 15), ==, 2);
  g_assert_cmpfloat (strobe_chart_lane_y (&shifted, -100), ==, 12);
  g_assert_cmpfloat (strobe_chart_lane_y (&flat, 3), ==, 7);

  /* Steps: 2 held until 6 at column 4, held to the end; a two-pixel line centred on the
   * value's row edge, the half-transparent area under it. */
  strobe_chart_canvas_init (&canvas, surface, 10);
  strobe_chart_envelope (&canvas, &scale, &lane, steps, G_N_ELEMENTS (steps), TRUE, &red, 2, 0.5);
  cairo_surface_mark_dirty (surface);
  for (int x = 0; x < 4; x++)
    assert_column2 (surface, x, 9, 11, 12, line, fill);
  assert_column2 (surface, 4, 5, 11, 12, line, fill);   /* the rise */
  for (int x = 5; x < 10; x++)
    assert_column2 (surface, x, 5, 7, 12, line, fill);

  /* A one-pixel line on a row edge: half of each row, as an antialiased stroke. */
  cairo_surface_destroy (surface);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 10, 12);
  strobe_chart_canvas_init (&canvas, surface, 10);
  strobe_chart_envelope (&canvas, &scale, &lane, steps, G_N_ELEMENTS (steps), TRUE, &red, 1, 0);
  cairo_surface_mark_dirty (surface);
  g_assert_cmphex (pixel (surface, 0, 8), ==, 0);
  g_assert_cmpint (ABS ((int) (pixel (surface, 0, 9) >> 24) - 0x80), <=, 1);
  g_assert_cmpint (ABS ((int) (pixel (surface, 0, 10) >> 24) - 0x80), <=, 1);
  g_assert_cmphex (pixel (surface, 0, 11), ==, 0);

  /* Denser than pixels: column 5's five samples span 0..10, and that whole run is drawn —
   * the spike kept; straight joins on either side stay at 5. */
  cairo_surface_destroy (surface);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 10, 12);
  strobe_chart_canvas_init (&canvas, surface, 10);
  strobe_chart_envelope (&canvas, &scale, &lane, dense, G_N_ELEMENTS (dense), FALSE, &red, 2, 0.5);
  cairo_surface_mark_dirty (surface);
  assert_column2 (surface, 5, 1, 12, 12, line, fill);
  for (int x = 0; x < 5; x++)
    assert_column2 (surface, x, 6, 8, 12, line, fill);
  for (int x = 6; x < 9; x++)
    assert_column2 (surface, x, 6, 8, 12, line, fill);
  /* The last sample's own column, where a straight join ends. */
  assert_column2 (surface, 9, 6, 8, 12, line, fill);

  /* No buckets: nothing drawn. */
  cairo_surface_destroy (surface);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 10, 12);
  strobe_chart_canvas_init (&canvas, surface, 10);
  strobe_chart_envelope (&canvas, &scale, &lane, NULL, 0, FALSE, &red, 1, 0.5);
  cairo_surface_mark_dirty (surface);
  for (int x = 0; x < 10; x++)
    assert_column (surface, x, 0, 0, 0);
  cairo_surface_destroy (surface);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  golden_dir = g_getenv ("GOLDEN_DIR");
  g_assert_nonnull (golden_dir);

  g_test_add_func ("/chart/scale", test_scale);
  g_test_add_func ("/chart/scale/ruler", test_scale_ruler);
  g_test_add_func ("/chart/axis", test_axis);
  g_test_add_func ("/chart/layers", test_layers);
  g_test_add_func ("/chart/layers/envelope", test_envelope);
  return g_test_run ();
}
