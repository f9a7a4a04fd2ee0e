/* strobe-compare-gate.c — --fail-if checks: parsed once, judged on every row they name.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-compare-gate.h"
#include "strobe-log-model.h"

void
strobe_compare_check_clear (StrobeCompareCheck *check)
{
  g_clear_pointer (&check->text, g_free);
  g_clear_pointer (&check->pattern, g_free);
}

static gboolean
bad (GError **error, const char *text, const char *why)
{
  /* Translators: the first %s is a --fail-if check as the user wrote it */
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("“%s”: %s"), text, why);
  return FALSE;
}

/* VALUE: [+|-]NUMBER with %, a time unit, or nothing. */
static gboolean
parse_value (const char *s, gboolean is_time, StrobeCompareCheck *out, const char *text, GError **error)
{
  static const struct { const char *suffix; gdouble scale; } units[] = {
    { "ns", 1e-9 }, { "us", 1e-6 }, { "µs", 1e-6 }, { "ms", 1e-3 }, { "s", 1.0 },
  };
  char *end;
  gdouble v = g_ascii_strtod (s, &end);

  if (end == s || isnan (v) || isinf (v))
    return bad (error, text, _("the threshold is not a number"));
  if (g_str_equal (end, "%"))
    {
      out->percent = TRUE;
      out->threshold = v;
      return TRUE;
    }
  if (*end == '\0')
    {
      out->threshold = v;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_equal (end, units[i].suffix))
      {
        if (!is_time)
          return bad (error, text, _("a time unit on a figure that is not a time"));
        out->threshold = v * units[i].scale;
        return TRUE;
      }
  return bad (error, text, _("the threshold’s unit is not %, ns, us, ms or s"));
}

gboolean
strobe_compare_check_parse (const char *text, StrobeCompareCheck *out, GError **error)
{
  g_autofree char *target = NULL;
  const char *op, *colon;
  gboolean is_time = FALSE;

  g_return_val_if_fail (text != NULL && out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  /* The last operator: scope names may hold < and > (templates), thresholds never do. */
  op = strrchr (text, '>');
  {
    const char *lt = strrchr (text, '<');
    if (lt && (op == NULL || lt > op))
      op = lt;
  }
  if (op == NULL || op == text)
    return bad (error, text, _("expected WHAT:METRIC>VALUE or WHAT:METRIC<VALUE"));
  out->above = *op == '>';
  target = g_strndup (text, (gsize) (op - text));

  if (g_str_has_prefix (target, "memory."))
    {
      out->kind = STROBE_COMPARE_CHECK_MEMORY;
      out->cost = strobe_compare_memory_cost_parse (target + strlen ("memory."));
      if (out->cost == STROBE_COMPARE_MEM_N_COSTS)
        return bad (error, text, _("memory figures are peak, leaked, allocations, temporary and bytes"));
    }
  else if (g_str_has_prefix (target, "log."))
    {
      out->kind = STROBE_COMPARE_CHECK_LOG;
      if (g_str_equal (target, "log.errors"))
        out->errors = TRUE;
      else if (!g_str_equal (target, "log.warnings"))
        return bad (error, text, _("log figures are errors and warnings"));
    }
  else
    {
      /* The last colon: C++ names hold "::". */
      colon = strrchr (target, ':');
      if (colon == NULL || colon == target)
        return bad (error, text, _("expected NAME:METRIC before the operator"));
      out->kind = STROBE_COMPARE_CHECK_TIMER;
      out->metric = strobe_compare_metric_parse (colon + 1);
      if (out->metric == STROBE_COMPARE_N_METRICS)
        return bad (error, text, _("timer figures are count, incl, excl, mean, median, p95, max and min"));
      out->pattern = g_strndup (target, (gsize) (colon - target));
      is_time = strobe_compare_metric_is_time (out->metric);
    }
  if (!parse_value (op + 1, is_time, out, text, error))
    {
      strobe_compare_check_clear (out);
      return FALSE;
    }
  out->text = g_strdup (text);
  return TRUE;
}

void
strobe_compare_timer_pair (const StrobeCompareTimer *row, StrobeCompareMetric metric,
                           const StrobeCompareTables *t, gdouble *a, gdouble *b)
{
  gdouble va = strobe_compare_timer_value (&row->a, metric, t->norm, t->span_a);
  gdouble vb = strobe_compare_timer_value (&row->b, metric, t->norm, t->span_b);

  /* Ticks of each trace through its own clock: two machines count at different rates. */
  if (strobe_compare_metric_is_time (metric))
    {
      va = isnan (va) ? va : strobe_trace_clock_ticks_to_seconds (&t->clock_a, va);
      vb = isnan (vb) ? vb : strobe_trace_clock_ticks_to_seconds (&t->clock_b, vb);
    }
  *a = va;
  *b = vb;
}

static void
judge (const StrobeCompareCheck *c, guint index, const char *name, gdouble a, gdouble b, guint64 na, guint64 nb,
       gboolean in_a, gboolean in_b, guint64 min_count, GArray *rows)
{
  StrobeCompareGateRow r = { 0 };
  gdouble x;

  r.check = index;
  r.row = g_strdup (name);
  /* A figure missing from one trace is nothing there: a new scope is slower by all of it. */
  r.a = in_a ? a : 0;
  r.b = in_b ? b : 0;
  r.samples_a = na;
  r.samples_b = nb;
  strobe_compare_delta (r.a, r.b, &r.delta, &r.percent);
  x = c->percent ? r.percent : r.delta;
  r.evaluated = !isnan (x) && (!in_a || na >= min_count) && (!in_b || nb >= min_count)
                && !(c->percent && !in_a);
  r.failed = r.evaluated && (c->above ? x > c->threshold : x < c->threshold);
  g_array_append_val (rows, r);
}

static void
row_clear (gpointer data)
{
  g_free (((StrobeCompareGateRow *) data)->row);
}

static gboolean
run_timers (const StrobeCompareCheck *c, guint index, GArray *table, const StrobeCompareTables *t, GArray *rows)
{
  gboolean any = FALSE;

  for (guint i = 0; table && i < table->len; i++)
    {
      const StrobeCompareTimer *row = &g_array_index (table, StrobeCompareTimer, i);
      gdouble a, b;

      if (!g_pattern_match_simple (c->pattern, row->name))
        continue;
      any = TRUE;
      strobe_compare_timer_pair (row, c->metric, t, &a, &b);
      judge (c, index, row->name, a, b, row->a.count, row->b.count, row->in & STROBE_COMPARE_IN_A,
             row->in & STROBE_COMPARE_IN_B, t->min_count, rows);
    }
  return any;
}

gboolean
strobe_compare_gate_run (const StrobeCompareCheck *checks, guint n_checks, const StrobeCompareTables *t,
                         GArray **out, GError **error)
{
  g_autoptr(GArray) rows = NULL;

  g_return_val_if_fail (checks != NULL || n_checks == 0, FALSE);
  g_return_val_if_fail (t != NULL && out != NULL, FALSE);

  rows = g_array_new (FALSE, TRUE, sizeof (StrobeCompareGateRow));
  g_array_set_clear_func (rows, row_clear);
  for (guint i = 0; i < n_checks; i++)
    {
      const StrobeCompareCheck *c = &checks[i];

      switch (c->kind)
        {
        case STROBE_COMPARE_CHECK_TIMER:
          {
            /* Either table: "frame.*" names frame times, the rest scopes. */
            gboolean a = run_timers (c, i, t->frames, t, rows);
            gboolean b = run_timers (c, i, t->timers, t, rows);
            if (!a && !b)
              return bad (error, c->text, _("no timer of either trace has that name"));
          }
          break;
        case STROBE_COMPARE_CHECK_MEMORY:
          if (t->memory == NULL)
            return bad (error, c->text, _("the memory section was not compared"));
          judge (c, i, "memory", strobe_compare_memory_value (&t->memory->totals_a, c->cost),
                 strobe_compare_memory_value (&t->memory->totals_b, c->cost), t->memory->totals_a.allocations,
                 t->memory->totals_b.allocations, TRUE, TRUE, 0, rows);
          break;
        case STROBE_COMPARE_CHECK_LOG:
          {
            guint8 limit = strobe_log_verbosity_parse (c->errors ? "error" : "warning");
            guint8 from = c->errors ? 1 : limit;
            guint64 a = 0, b = 0;

            if (t->log == NULL)
              return bad (error, c->text, _("the log section was not compared"));
            for (guint k = 0; k < t->log->counts->len; k++)
              {
                const StrobeCompareLogCount *n = &g_array_index (t->log->counts, StrobeCompareLogCount, k);
                if (n->verbosity >= from && n->verbosity <= limit)
                  {
                    a += n->a;
                    b += n->b;
                  }
              }
            judge (c, i, "log", (gdouble) a, (gdouble) b, a, b, TRUE, TRUE, 0, rows);
          }
          break;
        default:
          g_return_val_if_reached (FALSE);
        }
    }
  *out = g_steal_pointer (&rows);
  return TRUE;
}
