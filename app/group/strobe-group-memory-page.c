/* strobe-group-memory-page.c — a group tab's Memory page.
 *
 * The Total is worked out by core/models' strobe_memory_group_total (what `strobe-cli
 * memory` of a group prints), on the main thread: its 4 001 moments are lookups in each
 * model's index, a few milliseconds for a handful of processes, at most every half
 * second while a live group grows, and only while the page is shown. A process's own memory view is made the first time it is
 * selected: a view per process at once would build every one's trees for nothing.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-a11y.h"
#include "strobe-format.h"
#include "strobe-group-memory-page.h"
#include "strobe-memory-view.h"

#define TOTAL_MS 500   /* a live group's Total is worked out again at most this often */

typedef struct
{
  StrobeDocument  *document;
  StrobeViewState *state;
  char            *label;
  GtkWidget       *view;        /* its StrobeMemoryView, once selected */
} PageMember;

struct _StrobeGroupMemoryPage
{
  GtkWidget       parent_instance;

  GtkDropDown    *process_dropdown;
  GtkStringList  *process_names;
  GtkStack       *stack;
  GtkGrid        *total_grid;
  GtkLabel       *peak_label;
  GtkButton      *peak_button;

  GPtrArray      *members;      /* PageMember */
  StrobeMemoryGroupTotal total;
  guint           total_source;
  gboolean        total_due;
  gboolean        filling;
};

G_DEFINE_FINAL_TYPE (StrobeGroupMemoryPage, strobe_group_memory_page, GTK_TYPE_WIDGET)

static PageMember *
page_member (StrobeGroupMemoryPage *self, guint i)
{
  return g_ptr_array_index (self->members, i);
}

static void
page_member_free (gpointer data)
{
  PageMember *m = data;

  g_object_unref (m->document);
  g_object_unref (m->state);
  g_free (m->label);
  g_free (m);
}

static void
set_cell (StrobeGroupMemoryPage *self, int column, int row, const char *text, gboolean bold)
{
  GtkWidget *label = gtk_grid_get_child_at (self->total_grid, column, row);

  if (label == NULL)
    {
      label = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0.f : 1.f);
      if (column > 0)
        gtk_widget_add_css_class (label, "numeric");
      gtk_grid_attach (self->total_grid, label, column, row, 1, 1);
    }
  if (bold)
    gtk_widget_add_css_class (label, "heading");
  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) != 0)
    gtk_label_set_text (GTK_LABEL (label), text);
}

static void
set_row (StrobeGroupMemoryPage *self, int row, const char *name, guint64 allocs, guint64 frees, gint64 live,
         gint64 peak, guint64 bytes, gboolean bold)
{
  g_autofree char *a = strobe_format_count (allocs);
  g_autofree char *f = strobe_format_count (frees);
  g_autofree char *l = strobe_format_size ((guint64) MAX (live, 0));
  g_autofree char *p = strobe_format_size ((guint64) MAX (peak, 0));
  g_autofree char *b = strobe_format_size (bytes);

  set_cell (self, 0, row, name, bold);
  set_cell (self, 1, row, a, bold);
  set_cell (self, 2, row, f, bold);
  set_cell (self, 3, row, l, bold);
  set_cell (self, 4, row, p, bold);
  set_cell (self, 5, row, b, bold);
}

static void
update_total (StrobeGroupMemoryPage *self)
{
  guint n = self->members->len;
  g_autofree StrobeMemoryGroupMember *group = g_new0 (StrobeMemoryGroupMember, MAX (n, 1));

  self->total_due = FALSE;
  for (guint i = 0; i < n; i++)
    {
      PageMember *m = page_member (self, i);
      StrobeMemorySummary s;

      group[i].model = strobe_document_get_memory (m->document);
      strobe_document_get_clock (m->document, &group[i].clock);
      strobe_memory_model_get_summary (group[i].model, &s);
      set_row (self, (int) i + 1, m->label, s.allocs, s.frees, s.live_bytes, s.peak_bytes, s.bytes_allocated, FALSE);
    }
  strobe_memory_group_total (group, n, &self->total);
  /* Translators: the last row of a group's memory table: all its processes together */
  set_row (self, (int) n + 1, C_("memory of all processes", "Total"), self->total.allocs, self->total.frees,
           self->total.live_bytes, self->total.peak_bytes, self->total.bytes_allocated, TRUE);
  if (self->total.any && self->total.peak_bytes > 0)
    {
      g_autofree char *size = strobe_format_size ((guint64) self->total.peak_bytes);
      g_autofree char *when = strobe_format_duration_s (self->total.peak_seconds);
      /* Translators: the most memory all processes of a group used at once, and when
       * (the time from the group's start) */
      g_autofree char *text = g_strdup_printf (_("All processes together peaked at %s, %s from the start."), size, when);

      gtk_label_set_text (self->peak_label, text);
    }
  else
    gtk_label_set_text (self->peak_label, _("No process of this group allocated memory that the trace recorded."));
  gtk_widget_set_sensitive (GTK_WIDGET (self->peak_button), self->total.any && self->total.peak_bytes > 0);
}

static gboolean
total_cb (gpointer data)
{
  StrobeGroupMemoryPage *self = data;

  self->total_source = 0;
  /* Hidden, it waits until shown (map_cb): a loading group changes many times a second. */
  if (self->total_due && gtk_widget_get_mapped (GTK_WIDGET (self)))
    update_total (self);
  return G_SOURCE_REMOVE;
}

static void
map_cb (StrobeGroupMemoryPage *self)
{
  if (self->total_due)
    update_total (self);
}

void
strobe_group_memory_page_document_changed (StrobeGroupMemoryPage *self)
{
  g_return_if_fail (STROBE_IS_GROUP_MEMORY_PAGE (self));
  self->total_due = TRUE;
  if (self->total_source == 0)
    self->total_source = g_timeout_add (TOTAL_MS, total_cb, self);
}

void
strobe_group_memory_page_get_total (StrobeGroupMemoryPage *self, StrobeMemoryGroupTotal *total)
{
  g_return_if_fail (STROBE_IS_GROUP_MEMORY_PAGE (self));
  if (self->total_due)
    update_total (self);
  *total = self->total;
}

static void
peak_clicked_cb (StrobeGroupMemoryPage *self)
{
  PageMember *m;
  StrobeTraceClock clock;

  if (self->members->len == 0 || !self->total.any)
    return;
  /* One process's cursor: the tab sets it in every other's. */
  m = page_member (self, 0);
  strobe_document_get_clock (m->document, &clock);
  strobe_view_state_set_cursor (m->state, strobe_trace_clock_from_seconds (&clock, self->total.peak_seconds));
}

static void
process_changed_cb (StrobeGroupMemoryPage *self)
{
  guint selected = gtk_drop_down_get_selected (self->process_dropdown);
  PageMember *m;
  g_autofree char *name = NULL;

  if (self->filling)
    return;
  if (selected == 0 || selected == GTK_INVALID_LIST_POSITION || selected > self->members->len)
    {
      if (self->total_due)
        update_total (self);
      gtk_stack_set_visible_child_name (self->stack, "total");
      return;
    }
  m = page_member (self, selected - 1);
  name = g_strdup_printf ("process-%u", selected - 1);
  if (m->view == NULL)
    {
      m->view = GTK_WIDGET (strobe_view_new (STROBE_TYPE_MEMORY_VIEW, m->document, m->state));
      gtk_stack_add_named (self->stack, m->view, name);
    }
  gtk_stack_set_visible_child_name (self->stack, name);
}

void
strobe_group_memory_page_select (StrobeGroupMemoryPage *self, guint member)
{
  g_return_if_fail (STROBE_IS_GROUP_MEMORY_PAGE (self));
  gtk_drop_down_set_selected (self->process_dropdown, member == G_MAXUINT || member >= self->members->len
                                                        ? 0 : member + 1);
}

GtkWidget *
strobe_group_memory_page_get_view (StrobeGroupMemoryPage *self, guint member)
{
  g_return_val_if_fail (STROBE_IS_GROUP_MEMORY_PAGE (self), NULL);
  g_return_val_if_fail (member < self->members->len, NULL);
  return page_member (self, member)->view;
}

void
strobe_group_memory_page_add_member (StrobeGroupMemoryPage *self, StrobeDocument *document, StrobeViewState *state,
                                     const char *label)
{
  PageMember *m;

  g_return_if_fail (STROBE_IS_GROUP_MEMORY_PAGE (self));
  g_return_if_fail (strobe_document_get_memory (document) != NULL);
  m = g_new0 (PageMember, 1);
  m->document = g_object_ref (document);
  m->state = g_object_ref (state);
  m->label = g_strdup (label);
  g_ptr_array_add (self->members, m);
  self->filling = TRUE;
  gtk_string_list_append (self->process_names, label);
  self->filling = FALSE;
  /* The Total row moves down a row. */
  gtk_grid_remove_row (self->total_grid, (int) self->members->len);
  strobe_group_memory_page_document_changed (self);
}

void
strobe_group_memory_page_set_label (StrobeGroupMemoryPage *self, guint member, const char *label)
{
  PageMember *m;
  guint selected;

  g_return_if_fail (STROBE_IS_GROUP_MEMORY_PAGE (self));
  g_return_if_fail (member < self->members->len);
  m = page_member (self, member);
  if (g_strcmp0 (m->label, label) == 0)
    return;
  g_free (m->label);
  m->label = g_strdup (label);
  selected = gtk_drop_down_get_selected (self->process_dropdown);
  self->filling = TRUE;
  gtk_string_list_splice (self->process_names, member + 1, 1, (const char *const[]) { label, NULL });
  gtk_drop_down_set_selected (self->process_dropdown, selected);
  self->filling = FALSE;
  set_cell (self, 0, (int) member + 1, label, FALSE);
}

static void
strobe_group_memory_page_dispose (GObject *object)
{
  StrobeGroupMemoryPage *self = STROBE_GROUP_MEMORY_PAGE (object);

  g_clear_handle_id (&self->total_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_GROUP_MEMORY_PAGE);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (strobe_group_memory_page_parent_class)->dispose (object);
}

static void
strobe_group_memory_page_finalize (GObject *object)
{
  StrobeGroupMemoryPage *self = STROBE_GROUP_MEMORY_PAGE (object);

  g_ptr_array_unref (self->members);
  G_OBJECT_CLASS (strobe_group_memory_page_parent_class)->finalize (object);
}

static void
strobe_group_memory_page_class_init (StrobeGroupMemoryPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_group_memory_page_dispose;
  object_class->finalize = strobe_group_memory_page_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/group/strobe-group-memory-page.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupMemoryPage, process_dropdown);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupMemoryPage, process_names);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupMemoryPage, stack);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupMemoryPage, total_grid);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupMemoryPage, peak_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeGroupMemoryPage, peak_button);
  gtk_widget_class_bind_template_callback (widget_class, process_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, peak_clicked_cb);
}

static void
strobe_group_memory_page_init (StrobeGroupMemoryPage *self)
{
  static const char *const titles[] = {
    N_("Process"), N_("Allocations"), N_("Frees"), N_("Live at end"), N_("Peak"), N_("Bytes allocated"),
  };

  gtk_widget_init_template (GTK_WIDGET (self));
  strobe_a11y_name_drop_down (self->process_dropdown, _("Process"));
  strobe_a11y_fix_mnemonic_button (self->peak_button);
  self->members = g_ptr_array_new_with_free_func (page_member_free);
  self->filling = TRUE;
  /* Translators: the first choice of a group's memory page: all processes together */
  gtk_string_list_append (self->process_names, C_("memory of all processes", "Total"));
  gtk_drop_down_set_selected (self->process_dropdown, 0);
  self->filling = FALSE;
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    set_cell (self, (int) c, 0, _(titles[c]), TRUE);
  update_total (self);
  g_signal_connect (self, "map", G_CALLBACK (map_cb), NULL);
}

GtkWidget *
strobe_group_memory_page_new (void)
{
  return g_object_new (STROBE_TYPE_GROUP_MEMORY_PAGE, NULL);
}
