/* strobe-log-checklist.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-a11y.h"
#include "strobe-format.h"
#include "strobe-log-checklist.h"

typedef struct
{
  guint32         id;
  GtkCheckButton *check;
  GtkLabel       *count;
} RowWidgets;

struct _StrobeLogChecklist
{
  GtkWidget   parent_instance;

  GtkWidget  *box;
  GtkWidget  *rows_box;
  GArray     *rows;      /* RowWidgets, in display order */
  GHashTable *hidden;    /* ids unticked */
  gboolean    quiet;     /* setting ticks from code: one "changed" at the end */
};

G_DEFINE_FINAL_TYPE (StrobeLogChecklist, strobe_log_checklist, GTK_TYPE_WIDGET)

enum
{
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
toggled_cb (GtkCheckButton     *check,
            StrobeLogChecklist *self)
{
  guint32 id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "strobe-id"));

  if (gtk_check_button_get_active (check))
    g_hash_table_remove (self->hidden, GUINT_TO_POINTER (id));
  else
    g_hash_table_add (self->hidden, GUINT_TO_POINTER (id));
  if (!self->quiet)
    g_signal_emit (self, signals[CHANGED], 0);
}

static void
set_all (StrobeLogChecklist *self,
         gboolean            shown)
{
  self->quiet = TRUE;
  for (guint i = 0; i < self->rows->len; i++)
    gtk_check_button_set_active (g_array_index (self->rows, RowWidgets, i).check, shown);
  if (shown)
    g_hash_table_remove_all (self->hidden);
  self->quiet = FALSE;
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
all_cb (StrobeLogChecklist *self)
{
  set_all (self, TRUE);
}

static void
none_cb (StrobeLogChecklist *self)
{
  set_all (self, FALSE);
}

void
strobe_log_checklist_show_all (StrobeLogChecklist *self)
{
  g_return_if_fail (STROBE_IS_LOG_CHECKLIST (self));
  if (g_hash_table_size (self->hidden) > 0)
    set_all (self, TRUE);
}

void
strobe_log_checklist_set_shown (StrobeLogChecklist *self,
                                guint32             id,
                                gboolean            shown)
{
  g_return_if_fail (STROBE_IS_LOG_CHECKLIST (self));
  for (guint i = 0; i < self->rows->len; i++)
    if (g_array_index (self->rows, RowWidgets, i).id == id)
      gtk_check_button_set_active (g_array_index (self->rows, RowWidgets, i).check, shown);
}

static gboolean
same_ids (StrobeLogChecklist *self, const StrobeLogChecklistEntry *entries, guint n)
{
  if (n != self->rows->len)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (g_array_index (self->rows, RowWidgets, i).id != entries[i].id)
      return FALSE;
  return TRUE;
}

void
strobe_log_checklist_set_entries (StrobeLogChecklist            *self,
                                  const StrobeLogChecklistEntry *entries,
                                  guint                          n)
{
  g_return_if_fail (STROBE_IS_LOG_CHECKLIST (self));

  if (!same_ids (self, entries, n))
    {
      for (GtkWidget *child; (child = gtk_widget_get_first_child (self->rows_box)) != NULL;)
        gtk_box_remove (GTK_BOX (self->rows_box), child);
      g_array_set_size (self->rows, 0);
      for (guint i = 0; i < n; i++)
        {
          RowWidgets row = { entries[i].id };
          GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

          row.check = GTK_CHECK_BUTTON (gtk_check_button_new_with_label (entries[i].label));
          gtk_widget_set_hexpand (GTK_WIDGET (row.check), TRUE);
          g_object_set_data (G_OBJECT (row.check), "strobe-id", GUINT_TO_POINTER (entries[i].id));
          gtk_check_button_set_active (row.check, !g_hash_table_contains (self->hidden, GUINT_TO_POINTER (entries[i].id)));
          g_signal_connect (row.check, "toggled", G_CALLBACK (toggled_cb), self);
          row.count = GTK_LABEL (gtk_label_new (NULL));
          gtk_widget_add_css_class (GTK_WIDGET (row.count), "dim-label");
          gtk_widget_add_css_class (GTK_WIDGET (row.count), "numeric");
          gtk_box_append (GTK_BOX (line), GTK_WIDGET (row.check));
          gtk_box_append (GTK_BOX (line), GTK_WIDGET (row.count));
          gtk_box_append (GTK_BOX (self->rows_box), line);
          g_array_append_val (self->rows, row);
        }
    }
  for (guint i = 0; i < n; i++)
    {
      RowWidgets *row = &g_array_index (self->rows, RowWidgets, i);
      g_autofree char *count = strobe_format_count (entries[i].count);
      /* Translators: a checkbox's accessible description: how many messages it stands for */
      g_autofree char *description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s message", "%s messages",
                                                                   (gulong) MIN (entries[i].count, G_MAXULONG)),
                                                      count);

      if (g_strcmp0 (gtk_check_button_get_label (row->check), entries[i].label) != 0)
        gtk_check_button_set_label (row->check, entries[i].label);
      if (g_strcmp0 (gtk_label_get_text (row->count), count) != 0)
        {
          gtk_label_set_text (row->count, count);
          gtk_accessible_update_property (GTK_ACCESSIBLE (row->check), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                          description, -1);
        }
    }
}

static gint
cmp_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return (x > y) - (x < y);
}

GArray *
strobe_log_checklist_dup_hidden (StrobeLogChecklist *self)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));
  GHashTableIter it;
  gpointer key;

  g_return_val_if_fail (STROBE_IS_LOG_CHECKLIST (self), out);
  g_hash_table_iter_init (&it, self->hidden);
  while (g_hash_table_iter_next (&it, &key, NULL))
    {
      guint32 id = GPOINTER_TO_UINT (key);
      g_array_append_val (out, id);
    }
  g_array_sort (out, cmp_u32);
  return out;
}

guint
strobe_log_checklist_get_n_hidden (StrobeLogChecklist *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_CHECKLIST (self), 0);
  return g_hash_table_size (self->hidden);
}

guint
strobe_log_checklist_get_n_entries (StrobeLogChecklist *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_CHECKLIST (self), 0);
  return self->rows->len;
}

static void
strobe_log_checklist_dispose (GObject *object)
{
  StrobeLogChecklist *self = STROBE_LOG_CHECKLIST (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (strobe_log_checklist_parent_class)->dispose (object);
}

static void
strobe_log_checklist_finalize (GObject *object)
{
  StrobeLogChecklist *self = STROBE_LOG_CHECKLIST (object);

  g_array_unref (self->rows);
  g_hash_table_unref (self->hidden);
  G_OBJECT_CLASS (strobe_log_checklist_parent_class)->finalize (object);
}

static void
strobe_log_checklist_class_init (StrobeLogChecklistClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strobe_log_checklist_dispose;
  object_class->finalize = strobe_log_checklist_finalize;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (GTK_WIDGET_CLASS (klass), GTK_ACCESSIBLE_ROLE_GROUP);

  /**
   * StrobeLogChecklist::changed:
   *
   * A row was ticked or unticked by the user (or All, None).
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
strobe_log_checklist_init (StrobeLogChecklist *self)
{
  GtkWidget *buttons, *all, *none, *scroller;

  self->rows = g_array_new (FALSE, FALSE, sizeof (RowWidgets));
  self->hidden = g_hash_table_new (NULL, NULL);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_set_homogeneous (GTK_BOX (buttons), TRUE);
  all = strobe_a11y_button_new_with_mnemonic (_("Show _All"));
  none = strobe_a11y_button_new_with_mnemonic (_("Show _None"));
  g_signal_connect_swapped (all, "clicked", G_CALLBACK (all_cb), self);
  g_signal_connect_swapped (none, "clicked", G_CALLBACK (none_cb), self);
  gtk_box_append (GTK_BOX (buttons), all);
  gtk_box_append (GTK_BOX (buttons), none);
  gtk_box_append (GTK_BOX (self->box), buttons);

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 360);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroller), TRUE);
  self->rows_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->rows_box);
  gtk_box_append (GTK_BOX (self->box), scroller);
}

GtkWidget *
strobe_log_checklist_new (const char *name)
{
  GtkWidget *self = g_object_new (STROBE_TYPE_LOG_CHECKLIST, NULL);

  if (name != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  return self;
}
