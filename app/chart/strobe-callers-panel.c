/* strobe-callers-panel.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-callers-panel.h"
#include "strobe-panes.h"
#include "strobe-tooltip.h"

struct _StrobeCallersPanel
{
  GtkWidget      parent_instance;

  GtkWidget     *box;
  GtkLabel      *heading;
  GtkProgressBar *progress;
  GtkColumnView *callers_view;
  GtkColumnView *callees_view;
  GListStore    *callers;
  GListStore    *callees;
};

G_DEFINE_FINAL_TYPE (StrobeCallersPanel, strobe_callers_panel, GTK_TYPE_WIDGET)

enum
{
  ACTIVATE_CALL,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
activated_cb (GtkColumnView      *view,
              guint               position,
              StrobeCallersPanel *self)
{
  g_autoptr (GObject) item = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (view)), position);

  if (item != NULL)
    g_signal_emit (self, signals[ACTIVATE_CALL], 0, item);
}

static GtkColumnView *
new_table (StrobeCallersPanel *self, GListStore *store, const StrobeTableColumn *columns, guint n_columns,
           int sort_column, const char *name)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));

  gtk_column_view_set_show_column_separators (view, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  strobe_table_add_columns (view, columns, n_columns);
  strobe_table_set_model (view, g_object_ref (G_LIST_MODEL (store)), NULL);
  if (sort_column >= 0)
    {
      g_autoptr (GtkColumnViewColumn) by = g_list_model_get_item (gtk_column_view_get_columns (view), (guint) sort_column);
      gtk_column_view_sort_by_column (view, by, GTK_SORT_DESCENDING);
    }
  g_signal_connect (view, "activate", G_CALLBACK (activated_cb), self);
  return view;
}

static GtkWidget *
titled (const char *title, GtkColumnView *view)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "strobe-heading");
  gtk_widget_set_margin_start (label, 6);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (view));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), scroller);
  strobe_pane_mark (scroller);
  return box;
}

GtkWidget *
strobe_callers_panel_new (GType                    item_type,
                          const StrobeTableColumn *columns,
                          guint                    n_columns,
                          int                      sort_column,
                          GtkOrientation           orientation,
                          const char              *callers_title,
                          const char              *callees_title)
{
  StrobeCallersPanel *self;
  GtkWidget *tables;

  g_return_val_if_fail (g_type_is_a (item_type, G_TYPE_OBJECT), NULL);
  g_return_val_if_fail (columns != NULL && n_columns > 0, NULL);
  g_return_val_if_fail (sort_column < (int) n_columns, NULL);
  g_return_val_if_fail (callers_title != NULL && callees_title != NULL, NULL);

  self = g_object_new (STROBE_TYPE_CALLERS_PANEL, NULL);
  self->callers = g_list_store_new (item_type);
  self->callees = g_list_store_new (item_type);
  self->callers_view = new_table (self, self->callers, columns, n_columns, sort_column, callers_title);
  self->callees_view = new_table (self, self->callees, columns, n_columns, sort_column, callees_title);
  tables = gtk_box_new (orientation, 6);
  gtk_box_set_homogeneous (GTK_BOX (tables), TRUE);
  gtk_widget_set_vexpand (tables, TRUE);
  gtk_box_append (GTK_BOX (tables), titled (callers_title, self->callers_view));
  gtk_box_append (GTK_BOX (tables), titled (callees_title, self->callees_view));
  gtk_box_append (GTK_BOX (self->box), tables);
  return GTK_WIDGET (self);
}

static void
splice (GListStore *store, GPtrArray *items)
{
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)),
                       items ? items->pdata : NULL, items ? items->len : 0);
}

static void
set_heading (StrobeCallersPanel *self, const char *heading)
{
  gtk_label_set_text (self->heading, heading ? heading : "");
  strobe_tooltip_set_text (GTK_WIDGET (self->heading), heading);
}

void
strobe_callers_panel_set_calls (StrobeCallersPanel *self,
                                const char         *heading,
                                GPtrArray          *callers,
                                GPtrArray          *callees)
{
  g_return_if_fail (STROBE_IS_CALLERS_PANEL (self));

  splice (self->callers, callers);
  splice (self->callees, callees);
  set_heading (self, heading);
}

void
strobe_callers_panel_set_progress (StrobeCallersPanel *self, gdouble fraction)
{
  g_return_if_fail (STROBE_IS_CALLERS_PANEL (self));

  gtk_widget_set_visible (GTK_WIDGET (self->progress), fraction >= 0);
  if (fraction >= 0)
    gtk_progress_bar_set_fraction (self->progress, MIN (fraction, 1.0));
}


GListModel *
strobe_callers_panel_get_callers (StrobeCallersPanel *self)
{
  g_return_val_if_fail (STROBE_IS_CALLERS_PANEL (self), NULL);
  return G_LIST_MODEL (self->callers);
}

GListModel *
strobe_callers_panel_get_callees (StrobeCallersPanel *self)
{
  g_return_val_if_fail (STROBE_IS_CALLERS_PANEL (self), NULL);
  return G_LIST_MODEL (self->callees);
}

GtkColumnView *
strobe_callers_panel_get_callers_view (StrobeCallersPanel *self)
{
  g_return_val_if_fail (STROBE_IS_CALLERS_PANEL (self), NULL);
  return self->callers_view;
}

GtkColumnView *
strobe_callers_panel_get_callees_view (StrobeCallersPanel *self)
{
  g_return_val_if_fail (STROBE_IS_CALLERS_PANEL (self), NULL);
  return self->callees_view;
}

static void
strobe_callers_panel_dispose (GObject *object)
{
  StrobeCallersPanel *self = STROBE_CALLERS_PANEL (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->callers);
  g_clear_object (&self->callees);
  G_OBJECT_CLASS (strobe_callers_panel_parent_class)->dispose (object);
}

static void
strobe_callers_panel_class_init (StrobeCallersPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_callers_panel_dispose;
  signals[ACTIVATE_CALL] = g_signal_new ("activate-call", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_OBJECT);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "strobe-callers-panel");
}

static void
strobe_callers_panel_init (StrobeCallersPanel *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->heading = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->heading, 0);
  /* One line, ellipsized, the whole sentence in the tooltip: a wrapping label makes the
   * panel's height depend on its width, and inside the side panel's GtkPaned that broke
   * GTK's height-for-width contract in Russian (a taller minimum at infinite width). */
  gtk_label_set_ellipsize (self->heading, PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (self->heading, 10);
  gtk_widget_add_css_class (GTK_WIDGET (self->heading), "dim-label");
  gtk_widget_set_margin_start (GTK_WIDGET (self->heading), 6);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->heading));
  /* How far a long search is, apart from the heading: an ellipsized heading would cut
   * the figure off first. */
  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_show_text (self->progress, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->progress), FALSE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->progress), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self->progress), 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->progress), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Progress of the callers and callees"), -1);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->progress));
}
