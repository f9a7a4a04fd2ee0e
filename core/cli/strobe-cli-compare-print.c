/* strobe-cli-compare-print.c — `strobe-cli compare`'s tables as text (columns for a
 * terminal, names escaped), CSV (one line per row and figure) or JSON.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "strobe-cli.h"
#include "strobe-cli-compare.h"
#include "strobe-text.h"

static void
row_clear (gpointer data)
{
  StrobeCliCompareRow *r = data;

  g_free (r->name);
  g_free (r->detail);
}

StrobeCliCompareSection *
strobe_cli_compare_section_new (const char *id, const char *title, const char *samples, const char *detail)
{
  StrobeCliCompareSection *s = g_new0 (StrobeCliCompareSection, 1);

  s->id = id;
  s->title = g_strdup (title);
  s->samples = samples;
  s->detail = detail;
  s->rows = g_array_new (FALSE, TRUE, sizeof (StrobeCliCompareRow));
  g_array_set_clear_func (s->rows, row_clear);
  return s;
}

void
strobe_cli_compare_section_free (StrobeCliCompareSection *s)
{
  if (s == NULL)
    return;
  g_array_unref (s->rows);
  g_free (s->title);
  g_free (s);
}

static void
append_number (GString *s, const char *format, gdouble v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  const char *t = g_ascii_formatd (buf, sizeof buf, format, v);

  /* Two clocks' roundings leave -0.000: no change reads as no change. */
  if (t[0] == '-' && strspn (t + 1, "0.") == strlen (t + 1))
    {
      if (format[1] == '+')
        g_string_append_c (s, '+');
      t++;
    }
  g_string_append (s, t);
}

/* A figure in the output's unit: times scaled, counts and bytes whole. */
static void
append_value (GString *s, const StrobeCliCompareOutput *out, StrobeCliFigureKind kind, gdouble v, gboolean sign)
{
  if (isnan (v))
    g_string_append (s, out->format == STROBE_CLI_COMPARE_JSON ? "null" : out->format == STROBE_CLI_COMPARE_CSV ? "" : "-");
  else if (kind == STROBE_CLI_FIGURE_TIME)
    append_number (s, sign ? "%+.3f" : "%.3f", v * out->per_second);
  else
    append_number (s, sign ? "%+.0f" : "%.0f", v);
}

static const char *
in_name (StrobeCompareIn in)
{
  return in == STROBE_COMPARE_IN_BOTH ? "both" : in == STROBE_COMPARE_IN_B ? "new" : "gone";
}

/* ---- text ------------------------------------------------------------------------------ */

static void
append_cell (GString *s, const char *text, int width)
{
  /* Right-aligned by characters, not bytes: "Δ" and translated headings are UTF-8. */
  glong n = g_utf8_strlen (text, -1);

  for (glong i = n; i < width; i++)
    g_string_append_c (s, ' ');
  g_string_append_c (s, ' ');
  g_string_append (s, text);
}

static gboolean
shown (const StrobeCliCompareSection *sec, const StrobeCliCompareOutput *out, guint k)
{
  return !g_str_equal (sec->id, "timers") && !g_str_equal (sec->id, "frames") ? TRUE : out->text_figures[k];
}

static void
text_section (GString *s, const StrobeCliCompareOutput *out, const StrobeCliCompareSection *sec)
{
  const int w = 12;
  glong name_width = (glong) strlen (_("Name"));
  const StrobeCliCompareRow *first;
  char **names;

  g_string_append_printf (s, "\n%s (%u)\n", sec->title, sec->rows->len);
  if (sec->rows->len == 0)
    return;
  names = g_new0 (char *, sec->rows->len + 1);
  for (guint i = 0; i < sec->rows->len; i++)
    {
      const StrobeCliCompareRow *r = &g_array_index (sec->rows, StrobeCliCompareRow, i);
      names[i] = strobe_text_escape (r->name, STROBE_TEXT_PLAIN);
      name_width = MAX (name_width, g_utf8_strlen (names[i], -1));
    }
  name_width = MIN (name_width, 60);
  first = &g_array_index (sec->rows, StrobeCliCompareRow, 0);

  /* Heading: name, [detail], in, samples A and B, then A, B, Δ, Δ% of each figure. */
  g_string_append_printf (s, "%-*s", (int) name_width, _("Name"));
  if (sec->detail)
    append_cell (s, sec->detail, 9);
  append_cell (s, _("In"), 4);
  if (sec->samples)
    {
      g_autofree char *na = g_strdup_printf ("%s A", sec->samples);
      g_autofree char *nb = g_strdup_printf ("%s B", sec->samples);
      append_cell (s, na, 10);
      append_cell (s, nb, 10);
    }
  for (guint k = 0; k < first->n_figures; k++)
    {
      const StrobeCliFigure *f = &first->figures[k];
      g_autofree char *ha = NULL, *hb = NULL, *hd = NULL, *hp = NULL;

      if (!shown (sec, out, k))
        continue;
      if (f->kind == STROBE_CLI_FIGURE_TIME)
        {
          ha = g_strdup_printf ("%s A(%s)", f->name, out->unit);
          hb = g_strdup_printf ("%s B(%s)", f->name, out->unit);
        }
      else
        {
          ha = g_strdup_printf ("%s A", f->name);
          hb = g_strdup_printf ("%s B", f->name);
        }
      hd = g_strdup_printf ("%s Δ", f->name);
      hp = g_strdup_printf ("%s Δ%%", f->name);
      append_cell (s, ha, w);
      append_cell (s, hb, w);
      append_cell (s, hd, w);
      append_cell (s, hp, 9);
    }
  g_string_append_c (s, '\n');

  for (guint i = 0; i < sec->rows->len; i++)
    {
      const StrobeCliCompareRow *r = &g_array_index (sec->rows, StrobeCliCompareRow, i);
      g_autofree char *na = g_strdup_printf ("%" G_GUINT64_FORMAT, r->samples_a);
      g_autofree char *nb = g_strdup_printf ("%" G_GUINT64_FORMAT, r->samples_b);

      g_string_append (s, names[i]);
      for (glong n = g_utf8_strlen (names[i], -1); n < name_width; n++)
        g_string_append_c (s, ' ');
      if (sec->detail)
        append_cell (s, r->detail ? r->detail : "", 9);
      append_cell (s, in_name (r->in), 4);
      if (sec->samples)
        {
          append_cell (s, na, 10);
          append_cell (s, nb, 10);
        }
      for (guint k = 0; k < r->n_figures; k++)
        {
          const StrobeCliFigure *f = &r->figures[k];
          g_autoptr(GString) c = g_string_new (NULL);
          gdouble d, p;

          if (!shown (sec, out, k))
            continue;
          strobe_compare_delta (f->a, f->b, &d, &p);
          append_value (c, out, f->kind, r->in & STROBE_COMPARE_IN_A ? f->a : NAN, FALSE);
          append_cell (s, c->str, w);
          g_string_truncate (c, 0);
          append_value (c, out, f->kind, r->in & STROBE_COMPARE_IN_B ? f->b : NAN, FALSE);
          append_cell (s, c->str, w);
          g_string_truncate (c, 0);
          append_value (c, out, f->kind, d, TRUE);
          append_cell (s, c->str, w);
          g_string_truncate (c, 0);
          if (r->in == STROBE_COMPARE_IN_B)
            g_string_append (c, _("new"));
          else if (r->in == STROBE_COMPARE_IN_A)
            g_string_append (c, _("gone"));
          else if (isnan (p))
            g_string_append_c (c, '-');
          else
            {
              append_number (c, "%+.1f", p);
              g_string_append_c (c, '%');
            }
          append_cell (s, c->str, 9);
        }
      g_string_append_c (s, '\n');
    }
  g_strfreev (names);
}

static void
text_gate (GString *s, const StrobeCliCompareOutput *out, const StrobeCompareCheck *checks, guint n_checks,
           GArray *gate)
{
  guint failed = 0;

  for (guint i = 0; i < gate->len; i++)
    failed += g_array_index (gate, StrobeCompareGateRow, i).failed;
  g_string_append_printf (s, "\n%s: ", _("Gate"));
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u check", "%u checks", n_checks), n_checks);
  g_string_append (s, ", ");
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "%u row failed", "%u rows failed", failed), failed);
  g_string_append_c (s, '\n');
  for (guint c = 0; c < n_checks; c++)
    {
      guint judged = 0, skipped = 0, bad = 0;
      g_autofree char *text = strobe_text_escape (checks[c].text, STROBE_TEXT_PLAIN);

      for (guint i = 0; i < gate->len; i++)
        {
          const StrobeCompareGateRow *r = &g_array_index (gate, StrobeCompareGateRow, i);
          if (r->check != c)
            continue;
          judged += r->evaluated;
          skipped += !r->evaluated;
          bad += r->failed;
        }
      g_string_append_printf (s, "  %s %s: %u %s, %u %s", bad ? "FAIL" : "pass", text, judged, _("judged"),
                              skipped, _("not judged (too few samples or no baseline)"));
      g_string_append_c (s, '\n');
      for (guint i = 0; i < gate->len; i++)
        {
          const StrobeCompareGateRow *r = &g_array_index (gate, StrobeCompareGateRow, i);
          StrobeCliFigureKind kind;
          g_autofree char *name = NULL;

          if (r->check != c || !r->failed)
            continue;
          kind = checks[c].kind == STROBE_COMPARE_CHECK_TIMER && strobe_compare_metric_is_time (checks[c].metric)
                 ? STROBE_CLI_FIGURE_TIME : STROBE_CLI_FIGURE_COUNT;
          name = strobe_text_escape (r->row, STROBE_TEXT_PLAIN);
          g_string_append_printf (s, "    %s: A ", name);
          append_value (s, out, kind, r->a, FALSE);
          g_string_append (s, " B ");
          append_value (s, out, kind, r->b, FALSE);
          g_string_append (s, " Δ ");
          append_value (s, out, kind, r->delta, TRUE);
          if (kind == STROBE_CLI_FIGURE_TIME)
            g_string_append_printf (s, " %s", out->unit);
          if (!isnan (r->percent))
            {
              g_string_append (s, " (");
              append_number (s, "%+.1f", r->percent);
              g_string_append (s, "%)");
            }
          g_string_append_printf (s, " n=%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "\n", r->samples_a, r->samples_b);
        }
    }
}

/* ---- CSV ------------------------------------------------------------------------------- */

static void
csv_all (GString *s, const StrobeCliCompareOutput *out, GPtrArray *sections, GArray *gate,
         const StrobeCompareCheck *checks)
{
  g_string_append_printf (s, "section,name,detail,in,samples_a,samples_b,figure,unit,a,b,delta,delta_percent\n");
  for (guint i = 0; i < sections->len; i++)
    {
      const StrobeCliCompareSection *sec = g_ptr_array_index (sections, i);

      for (guint j = 0; j < sec->rows->len; j++)
        {
          const StrobeCliCompareRow *r = &g_array_index (sec->rows, StrobeCliCompareRow, j);

          for (guint k = 0; k < r->n_figures; k++)
            {
              const StrobeCliFigure *f = &r->figures[k];
              gdouble d, p;

              strobe_compare_delta (f->a, f->b, &d, &p);
              g_string_append_printf (s, "%s,", sec->id);
              strobe_cli_append_csv_field (s, r->name);
              g_string_append_c (s, ',');
              strobe_cli_append_csv_field (s, r->detail ? r->detail : "");
              g_string_append_printf (s, ",%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%s,%s,", in_name (r->in),
                                      r->samples_a, r->samples_b, f->name,
                                      f->kind == STROBE_CLI_FIGURE_TIME ? out->unit
                                      : f->kind == STROBE_CLI_FIGURE_BYTES ? "bytes" : "count");
              append_value (s, out, f->kind, r->in & STROBE_COMPARE_IN_A ? f->a : NAN, FALSE);
              g_string_append_c (s, ',');
              append_value (s, out, f->kind, r->in & STROBE_COMPARE_IN_B ? f->b : NAN, FALSE);
              g_string_append_c (s, ',');
              append_value (s, out, f->kind, d, FALSE);
              g_string_append_c (s, ',');
              if (!isnan (p))
                append_number (s, "%.3f", p);
              g_string_append_c (s, '\n');
            }
        }
    }
  for (guint i = 0; gate && i < gate->len; i++)
    {
      const StrobeCompareGateRow *r = &g_array_index (gate, StrobeCompareGateRow, i);

      /* The verdict in the detail column, the check in the figure's. */
      g_string_append (s, "gate,");
      strobe_cli_append_csv_field (s, r->row);
      g_string_append_printf (s, ",%s,,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",",
                              r->failed ? "failed" : r->evaluated ? "passed" : "not-judged", r->samples_a, r->samples_b);
      strobe_cli_append_csv_field (s, checks[r->check].text);
      g_string_append (s, ",,");
      append_number (s, "%.9g", r->a);
      g_string_append_c (s, ',');
      append_number (s, "%.9g", r->b);
      g_string_append_c (s, ',');
      append_number (s, "%.9g", r->delta);
      g_string_append_c (s, ',');
      if (!isnan (r->percent))
        append_number (s, "%.3f", r->percent);
      g_string_append_c (s, '\n');
    }
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void
json_number (GString *s, const StrobeCliCompareOutput *out, StrobeCliFigureKind kind, gdouble v)
{
  if (isnan (v))
    g_string_append (s, "null");
  else if (kind == STROBE_CLI_FIGURE_TIME)
    append_number (s, "%.9g", v * out->per_second);
  else
    append_number (s, "%.17g", v);
}

static void
json_side (GString *s, const char *key, const char *file, const StrobeCompareSpan *span)
{
  g_string_append_printf (s, "\"%s\":{\"file\":", key);
  strobe_cli_append_json_string (s, file);
  g_string_append (s, ",\"seconds\":");
  append_number (s, "%.9g", span->seconds);
  g_string_append_printf (s, ",\"game_frames\":%" G_GUINT64_FORMAT "}", span->frames[STROBE_TIMELINE_FRAME_GAME]);
}

static void
json_all (GString *s, const StrobeCliCompareOutput *out, GPtrArray *sections, GArray *gate,
          const StrobeCompareCheck *checks, guint n_checks)
{
  g_string_append (s, "{");
  json_side (s, "a", out->file_a, &out->span_a);
  g_string_append_c (s, ',');
  json_side (s, "b", out->file_b, &out->span_b);
  g_string_append (s, ",\"range\":");
  strobe_cli_append_json_string (s, out->range);
  g_string_append_printf (s, ",\"normalisation\":\"%s\",\"time_unit\":\"%s\",\"sections\":{", out->norm, out->unit);
  for (guint i = 0; i < sections->len; i++)
    {
      const StrobeCliCompareSection *sec = g_ptr_array_index (sections, i);

      g_string_append_printf (s, "%s\"%s\":[", i ? "," : "", sec->id);
      for (guint j = 0; j < sec->rows->len; j++)
        {
          const StrobeCliCompareRow *r = &g_array_index (sec->rows, StrobeCliCompareRow, j);

          g_string_append (s, j ? ",\n{\"name\":" : "\n{\"name\":");
          strobe_cli_append_json_string (s, r->name);
          if (r->detail)
            {
              g_string_append (s, ",\"detail\":");
              strobe_cli_append_json_string (s, r->detail);
            }
          g_string_append_printf (s, ",\"in\":\"%s\",\"samples_a\":%" G_GUINT64_FORMAT ",\"samples_b\":%" G_GUINT64_FORMAT,
                                  in_name (r->in), r->samples_a, r->samples_b);
          for (guint k = 0; k < r->n_figures; k++)
            {
              const StrobeCliFigure *f = &r->figures[k];
              gdouble d, p;

              strobe_compare_delta (f->a, f->b, &d, &p);
              g_string_append_printf (s, ",\"%s\":{\"a\":", f->name);
              json_number (s, out, f->kind, r->in & STROBE_COMPARE_IN_A ? f->a : NAN);
              g_string_append (s, ",\"b\":");
              json_number (s, out, f->kind, r->in & STROBE_COMPARE_IN_B ? f->b : NAN);
              g_string_append (s, ",\"delta\":");
              json_number (s, out, f->kind, d);
              g_string_append (s, ",\"delta_percent\":");
              json_number (s, out, STROBE_CLI_FIGURE_COUNT, p);
              g_string_append_c (s, '}');
            }
          g_string_append_c (s, '}');
        }
      g_string_append (s, "]");
    }
  g_string_append (s, "}");
  if (gate)
    {
      guint failed = 0;

      g_string_append (s, ",\n\"gate\":{\"checks\":[");
      for (guint c = 0; c < n_checks; c++)
        {
          if (c)
            g_string_append_c (s, ',');
          strobe_cli_append_json_string (s, checks[c].text);
        }
      g_string_append (s, "],\"rows\":[");
      for (guint i = 0; i < gate->len; i++)
        {
          const StrobeCompareGateRow *r = &g_array_index (gate, StrobeCompareGateRow, i);

          failed += r->failed;
          g_string_append (s, i ? ",\n{\"check\":" : "\n{\"check\":");
          strobe_cli_append_json_string (s, checks[r->check].text);
          g_string_append (s, ",\"row\":");
          strobe_cli_append_json_string (s, r->row);
          g_string_append (s, ",\"a\":");
          json_number (s, out, STROBE_CLI_FIGURE_COUNT, r->a);
          g_string_append (s, ",\"b\":");
          json_number (s, out, STROBE_CLI_FIGURE_COUNT, r->b);
          g_string_append (s, ",\"delta\":");
          json_number (s, out, STROBE_CLI_FIGURE_COUNT, r->delta);
          g_string_append (s, ",\"delta_percent\":");
          json_number (s, out, STROBE_CLI_FIGURE_COUNT, r->percent);
          g_string_append_printf (s, ",\"samples_a\":%" G_GUINT64_FORMAT ",\"samples_b\":%" G_GUINT64_FORMAT
                                  ",\"judged\":%s,\"failed\":%s}", r->samples_a, r->samples_b,
                                  r->evaluated ? "true" : "false", r->failed ? "true" : "false");
        }
      g_string_append_printf (s, "],\"failed\":%u}", failed);
    }
  g_string_append (s, "}\n");
}

void
strobe_cli_compare_print (GString *s, const StrobeCliCompareOutput *out, GPtrArray *sections,
                          const StrobeCompareCheck *checks, guint n_checks, GArray *gate)
{
  switch (out->format)
    {
    case STROBE_CLI_COMPARE_CSV:
      csv_all (s, out, sections, gate, checks);
      break;
    case STROBE_CLI_COMPARE_JSON:
      json_all (s, out, sections, gate, checks, n_checks);
      break;
    case STROBE_CLI_COMPARE_TEXT:
    default:
      {
        g_autofree char *fa = strobe_text_escape (out->file_a, STROBE_TEXT_PLAIN);
        g_autofree char *fb = strobe_text_escape (out->file_b, STROBE_TEXT_PLAIN);
        char sa[G_ASCII_DTOSTR_BUF_SIZE], sb[G_ASCII_DTOSTR_BUF_SIZE];
        g_autofree char *range = strobe_text_escape (out->range, STROBE_TEXT_PLAIN);

        g_string_append_printf (s, "A: %s (%s s, %" G_GUINT64_FORMAT " %s)\n", fa,
                                g_ascii_formatd (sa, sizeof sa, "%.6f", out->span_a.seconds),
                                out->span_a.frames[STROBE_TIMELINE_FRAME_GAME], _("game frames"));
        g_string_append_printf (s, "B: %s (%s s, %" G_GUINT64_FORMAT " %s)\n", fb,
                                g_ascii_formatd (sb, sizeof sb, "%.6f", out->span_b.seconds),
                                out->span_b.frames[STROBE_TIMELINE_FRAME_GAME], _("game frames"));
        g_string_append_printf (s, "%s: %s; %s: %s\n", _("Range"), range, _("normalisation"), out->norm);
        for (guint i = 0; i < sections->len; i++)
          text_section (s, out, g_ptr_array_index (sections, i));
        if (gate)
          text_gate (s, out, checks, n_checks, gate);
      }
      break;
    }
}
