/* strobe-memory-figures.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-a11y.h"
#include "strobe-format.h"
#include "strobe-memory-figures.h"

typedef struct
{
  const char *key;
  const char *title;     /* N_() */
  gboolean    warning;   /* shown only when not zero, in the warning colour */
  const char *tooltip;   /* N_() or NULL */
} Figure;

static const Figure figures[] = {
  { "peak", N_("Peak"), FALSE, N_("The most memory live at once, and when") },
  { "allocations", N_("Allocations"), FALSE, NULL },
  { "frees", N_("Frees"), FALSE, NULL },
  { "bytes", N_("Bytes allocated"), FALSE, NULL },
  { "temporary", N_("Temporary"), FALSE,
    N_("Allocations freed (or reallocated) by the thread that made them before it allocated anything else") },
  { "live", N_("Live at end"), FALSE, NULL },
  { "unmatched-frees", N_("Frees of unknown addresses"), TRUE,
    N_("Frees of allocations the trace never showed: made before it began, or lost. They are ignored.") },
  { "replaced", N_("Allocations of live addresses"), TRUE,
    N_("An address was allocated again while the trace still had it live: the older allocation ends there, unseen.") },
  { "absurd", N_("Absurd sizes"), TRUE,
    N_("Allocations of 2^48 bytes or more: they count as 2^48 bytes in every total.") },
  { "lost", N_("Lost"), TRUE,
    N_("Allocation reports the program could not record, and records missing from the trace") },
};

#define N_FIGURES G_N_ELEMENTS (figures)

struct _StrobeMemoryFigures
{
  GtkWidget  parent_instance;
  GtkWidget *box;
  GtkWidget *grid;
  GtkLabel  *titles[N_FIGURES];
  GtkLabel  *values[N_FIGURES];
  GtkWidget *peak_button;
  guint64    peak_time;
  GtkWidget *heaps_grid;
  guint      n_heap_rows;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryFigures, strobe_memory_figures, GTK_TYPE_WIDGET)

enum
{
  GO_TO,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
set_text (GtkLabel *label, const char *text)
{
  if (g_strcmp0 (gtk_label_get_text (label), text) != 0)
    gtk_label_set_text (label, text);
}

static void
set_figure (StrobeMemoryFigures *self, const char *key, const char *text, gboolean nonzero)
{
  for (guint i = 0; i < N_FIGURES; i++)
    if (g_str_equal (figures[i].key, key))
      {
        gboolean shown = !figures[i].warning || nonzero;

        set_text (self->values[i], text);
        gtk_widget_set_visible (GTK_WIDGET (self->titles[i]), shown);
        gtk_widget_set_visible (GTK_WIDGET (self->values[i]), shown);
        return;
      }
}

const char *
strobe_memory_figures_get_text (StrobeMemoryFigures *self,
                                const char          *key)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_FIGURES (self), NULL);
  for (guint i = 0; i < N_FIGURES; i++)
    if (g_str_equal (figures[i].key, key))
      return gtk_widget_get_visible (GTK_WIDGET (self->values[i])) ? gtk_label_get_text (self->values[i]) : NULL;
  return NULL;
}

static char *
count_text (guint64 n)
{
  return strobe_format_count (n);
}

/* "1.2 MB (1 234 567 bytes)" */
static char *
bytes_text (gint64 bytes)
{
  g_autofree char *size = strobe_format_size ((guint64) MAX (bytes, 0));
  g_autofree char *exact = strobe_format_count ((guint64) MAX (bytes, 0));

  /* Translators: a size, then the exact number of bytes */
  return g_strdup_printf (_("%s (%s bytes)"), size, exact);
}

static GtkWidget *
heap_cell (StrobeMemoryFigures *self, guint row, guint col, gboolean numeric)
{
  GtkWidget *label = gtk_grid_get_child_at (GTK_GRID (self->heaps_grid), (int) col, (int) row);

  if (label == NULL)
    {
      label = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0f : 0.0f);
      strobe_a11y_make_copyable (GTK_LABEL (label));
      if (col == 0)
        {
          gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
          gtk_label_set_max_width_chars (GTK_LABEL (label), 14);
          gtk_widget_set_hexpand (label, TRUE);
        }
      if (numeric)
        gtk_widget_add_css_class (label, "numeric");
      if (row == 0)
        gtk_widget_add_css_class (label, "dim-label");
      gtk_grid_attach (GTK_GRID (self->heaps_grid), label, (int) col, (int) row, 1, 1);
    }
  return label;
}

static void
update_heaps (StrobeMemoryFigures *self, StrobeMemoryNames *names)
{
  g_autoptr (GPtrArray) heaps = strobe_memory_model_get_heaps (strobe_memory_names_get_model (names));
  static const char *const titles[] = { NC_("heap table", "Heap"), NC_("heap table", "Live"), NC_("heap table", "Peak"), NC_("heap table", "Allocated") };
  guint rows = 0;

  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    set_text (GTK_LABEL (heap_cell (self, 0, c, c > 0)), g_dpgettext2 (NULL, "heap table", titles[c]));
  for (guint i = 0; i < heaps->len; i++)
    {
      const StrobeMemoryGroup *g = g_ptr_array_index (heaps, i);
      g_autofree char *name = NULL, *live = NULL, *peak = NULL, *total = NULL;
      guint row;

      /* A heap the trace named but never used says nothing. */
      if (g->allocs == 0 && g->reserved_bytes == 0)
        continue;
      row = ++rows;
      name = strobe_memory_names_heap (names, g->id);
      live = strobe_format_size ((guint64) MAX (g->live_bytes, 0));
      peak = strobe_format_size ((guint64) MAX (g->peak_live_bytes, 0));
      total = strobe_format_size (g->bytes_allocated);
      set_text (GTK_LABEL (heap_cell (self, row, 0, FALSE)), name);
      set_text (GTK_LABEL (heap_cell (self, row, 1, TRUE)), live);
      set_text (GTK_LABEL (heap_cell (self, row, 2, TRUE)), peak);
      set_text (GTK_LABEL (heap_cell (self, row, 3, TRUE)), total);
    }
  for (guint r = rows + 1; r <= self->n_heap_rows; r++)
    gtk_grid_remove_row (GTK_GRID (self->heaps_grid), (int) rows + 1);
  self->n_heap_rows = rows;
  gtk_widget_set_visible (self->heaps_grid, rows > 0);
}

void
strobe_memory_figures_update (StrobeMemoryFigures    *self,
                              StrobeMemoryNames      *names,
                              const StrobeTraceClock *clock,
                              gboolean                finished)
{
  StrobeMemorySummary s;
  g_autofree char *peak = NULL, *when = NULL, *text = NULL, *allocs = NULL, *reallocs = NULL;

  g_return_if_fail (STROBE_IS_MEMORY_FIGURES (self));
  g_return_if_fail (STROBE_IS_MEMORY_NAMES (names));

  strobe_memory_model_get_summary (strobe_memory_names_get_model (names), &s);
  self->peak_time = s.peak_time;
  peak = strobe_format_size ((guint64) MAX (s.peak_bytes, 0));
  when = strobe_format_duration_s (strobe_trace_clock_to_seconds (clock, s.peak_time));
  /* Translators: the peak: a size and a time from the trace's start */
  text = s.allocs ? g_strdup_printf (_("%s at %s"), peak, when) : g_strdup ("—");
  set_figure (self, "peak", text, TRUE);
  gtk_widget_set_sensitive (self->peak_button, s.allocs > 0);
  g_clear_pointer (&text, g_free);

  allocs = count_text (s.allocs);
  reallocs = count_text (s.reallocs);
  text = s.reallocs ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (%s by realloc)", "%s (%s by realloc)",
                                                    (gulong) MIN (s.reallocs, G_MAXULONG)), allocs, reallocs)
                    : g_strdup (allocs);
  set_figure (self, "allocations", text, TRUE);
  g_clear_pointer (&text, g_free);

  text = count_text (s.frees);
  set_figure (self, "frees", text, TRUE);
  g_clear_pointer (&text, g_free);

  text = bytes_text ((gint64) MIN (s.bytes_allocated, (guint64) G_MAXINT64));
  set_figure (self, "bytes", text, TRUE);
  g_clear_pointer (&text, g_free);

  {
    g_autofree char *n = count_text (s.temporary);
    double pct = s.allocs ? 100.0 * (double) s.temporary / (double) s.allocs : 0;
    /* Translators: a count of temporary allocations and their share of all */
    text = g_strdup_printf (_("%s (%.1f %%)"), n, pct);
    set_figure (self, "temporary", text, TRUE);
    g_clear_pointer (&text, g_free);
  }
  {
    g_autofree char *bytes = bytes_text (s.live_bytes);
    g_autofree char *n = count_text ((guint64) MAX (s.live_count, 0));
    /* Translators: live (or leaked) memory: a size in a number of allocations */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s in %s allocation", "%s in %s allocations",
                                         (gulong) MIN ((guint64) MAX (s.live_count, 0), G_MAXULONG)), bytes, n);
    set_figure (self, "live", text, TRUE);
    g_clear_pointer (&text, g_free);
    set_text (self->titles[5], finished ? _("Leaked at end") : _("Live now"));
  }
  text = count_text (s.unmatched_frees);
  set_figure (self, "unmatched-frees", text, s.unmatched_frees > 0);
  g_clear_pointer (&text, g_free);
  text = count_text (s.replaced_allocs);
  set_figure (self, "replaced", text, s.replaced_allocs > 0);
  g_clear_pointer (&text, g_free);
  text = count_text (s.absurd_sizes);
  set_figure (self, "absurd", text, s.absurd_sizes > 0);
  g_clear_pointer (&text, g_free);
  {
    g_autofree char *dropped = count_text (s.dropped), *lost = count_text (s.lost_records);
    /* Translators: reports the program dropped, and records missing from the trace */
    text = g_strdup_printf (_("%s dropped, %s missing"), dropped, lost);
    set_figure (self, "lost", text, s.dropped > 0 || s.lost_records > 0);
    g_clear_pointer (&text, g_free);
  }
  update_heaps (self, names);
}

static void
peak_clicked_cb (StrobeMemoryFigures *self)
{
  g_signal_emit (self, signals[GO_TO], 0, self->peak_time);
}

static void
strobe_memory_figures_dispose (GObject *object)
{
  StrobeMemoryFigures *self = STROBE_MEMORY_FIGURES (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (strobe_memory_figures_parent_class)->dispose (object);
}

static void
strobe_memory_figures_class_init (StrobeMemoryFiguresClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_memory_figures_dispose;
  signals[GO_TO] = g_signal_new ("go-to", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                 G_TYPE_NONE, 1, G_TYPE_UINT64);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "strobe-memory-figures");
}

static void
strobe_memory_figures_init (StrobeMemoryFigures *self)
{
  GtkWidget *title, *heading;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (self->box, 12);
  gtk_widget_set_margin_end (self->box, 12);
  gtk_widget_set_margin_top (self->box, 8);
  gtk_widget_set_margin_bottom (self->box, 8);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  title = gtk_label_new (_("Summary"));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "strobe-heading");
  gtk_box_append (GTK_BOX (self->box), title);

  self->grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (self->grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (self->grid), 3);
  gtk_box_append (GTK_BOX (self->box), self->grid);
  for (guint i = 0; i < N_FIGURES; i++)
    {
      GtkWidget *t = gtk_label_new (_(figures[i].title)), *v = gtk_label_new ("—");

      gtk_label_set_xalign (GTK_LABEL (t), 0);
      gtk_label_set_yalign (GTK_LABEL (t), 0);
      /* A long title takes two lines rather than the values' width. */
      gtk_label_set_wrap (GTK_LABEL (t), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (t), 12);
      gtk_widget_add_css_class (t, "dim-label");
      gtk_label_set_xalign (GTK_LABEL (v), 0);
      gtk_label_set_wrap (GTK_LABEL (v), TRUE);
      strobe_a11y_make_copyable (GTK_LABEL (v));
      gtk_widget_set_hexpand (v, TRUE);
      gtk_widget_add_css_class (v, "numeric");
      if (figures[i].warning)
        gtk_widget_add_css_class (v, "strobe-memory-warning");
      if (figures[i].tooltip)
        {
          gtk_widget_set_tooltip_text (t, _(figures[i].tooltip));
          gtk_widget_set_tooltip_text (v, _(figures[i].tooltip));
        }
      /* Screen readers: the figure is labelled by its title. */
      gtk_accessible_update_relation (GTK_ACCESSIBLE (v), GTK_ACCESSIBLE_RELATION_LABELLED_BY, t, NULL, -1);
      /* Row 1 is the peak's button. */
      gtk_grid_attach (GTK_GRID (self->grid), t, 0, (int) (i ? i + 1 : 0), 1, 1);
      gtk_grid_attach (GTK_GRID (self->grid), v, 1, (int) (i ? i + 1 : 0), 1, 1);
      self->titles[i] = GTK_LABEL (t);
      self->values[i] = GTK_LABEL (v);
      if (figures[i].warning)
        {
          gtk_widget_set_visible (t, FALSE);
          gtk_widget_set_visible (v, FALSE);
        }
    }
  self->peak_button = strobe_a11y_button_new_with_mnemonic (_("Go to _Peak"));
  gtk_widget_set_halign (self->peak_button, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (self->peak_button, _("Put the cursor at the peak and bring it into view"));
  g_signal_connect_swapped (self->peak_button, "clicked", G_CALLBACK (peak_clicked_cb), self);
  gtk_grid_attach (GTK_GRID (self->grid), self->peak_button, 1, 1, 1, 1);

  heading = gtk_label_new (_("Heaps"));
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "strobe-heading");
  gtk_widget_set_margin_top (heading, 8);
  gtk_box_append (GTK_BOX (self->box), heading);
  self->heaps_grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (self->heaps_grid), 10);
  gtk_grid_set_row_spacing (GTK_GRID (self->heaps_grid), 2);
  gtk_box_append (GTK_BOX (self->box), self->heaps_grid);
  g_object_bind_property (self->heaps_grid, "visible", heading, "visible", G_BINDING_SYNC_CREATE);
  gtk_widget_set_visible (self->heaps_grid, FALSE);
}

GtkWidget *
strobe_memory_figures_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_FIGURES, NULL);
}
