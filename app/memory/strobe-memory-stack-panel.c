/* strobe-memory-stack-panel.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "strobe-a11y.h"
#include "strobe-format.h"
#include "strobe-memory-stack-panel.h"
#include "strobe-panes.h"
#include "strobe-source.h"
#include "strobe-text.h"

#define MAX_FRAMES 256

typedef struct
{
  char  *function;   /* escaped */
  char  *location;   /* escaped "file.c:12", or NULL */
  char  *module;     /* escaped base name, or NULL */
  char  *path;       /* the file, unescaped, for opening; NULL when unknown */
  guint  line;
  gboolean inlined;
} Row;

struct _StrobeMemoryStackPanel
{
  GtkWidget          parent_instance;
  StrobeMemoryNames *names;
  GtkWidget         *box;
  GtkLabel          *title;
  GtkWidget         *copy_button;
  GtkWidget         *open_button;
  GtkWidget         *scroller;
  GtkListBox        *list;
  GtkLabel          *status;
  GArray            *rows;    /* Row */
  char              *title_text;
};

G_DEFINE_FINAL_TYPE (StrobeMemoryStackPanel, strobe_memory_stack_panel, GTK_TYPE_WIDGET)

static void
row_clear (gpointer data)
{
  Row *r = data;

  g_free (r->function);
  g_free (r->location);
  g_free (r->module);
  g_free (r->path);
}

static void
update_actions (StrobeMemoryStackPanel *self)
{
  gboolean any_source = FALSE;

  for (guint i = 0; i < self->rows->len; i++)
    any_source = any_source || g_array_index (self->rows, Row, i).path != NULL;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "stack.copy", self->title_text != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "stack.open-source", any_source);
}

static void
rebuild (StrobeMemoryStackPanel *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  gtk_label_set_text (self->title, self->title_text ? self->title_text : _("Select an allocation or a function to see its call stack."));
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 1), *top, *bottom;
      g_autofree char *head = g_strdup_printf ("#%u  %s%s", i, r->function, r->inlined ? _(" [inlined]") : "");
      g_autofree char *where = NULL;

      if (r->location && r->module)
        /* Translators: a frame's source location and its module */
        where = g_strdup_printf (_("%s — %s"), r->location, r->module);
      else
        where = g_strdup (r->location ? r->location : r->module ? r->module : _("(no source location)"));
      top = gtk_label_new (head);
      gtk_label_set_xalign (GTK_LABEL (top), 0);
      gtk_label_set_ellipsize (GTK_LABEL (top), PANGO_ELLIPSIZE_END);
      gtk_widget_add_css_class (top, "monospace");
      bottom = gtk_label_new (where);
      gtk_label_set_xalign (GTK_LABEL (bottom), 0);
      gtk_label_set_ellipsize (GTK_LABEL (bottom), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_add_css_class (bottom, "dim-label");
      gtk_widget_add_css_class (bottom, "caption");
      gtk_box_append (GTK_BOX (box), top);
      gtk_box_append (GTK_BOX (box), bottom);
      gtk_widget_set_margin_start (box, 6);
      gtk_widget_set_margin_end (box, 6);
      gtk_widget_set_margin_top (box, 2);
      gtk_widget_set_margin_bottom (box, 2);
      gtk_widget_set_tooltip_text (box, r->path ? r->path : NULL);
      gtk_list_box_append (self->list, box);
      {
        g_autofree char *name = g_strdup_printf ("%s, %s", head, where);
        strobe_a11y_set_name (gtk_widget_get_parent (box), name);
      }
    }
  gtk_label_set_text (self->status, "");
  update_actions (self);
}

static void
add_frame_rows (StrobeMemoryStackPanel *self, const StrobeMemoryFrame *frame, gint only_depth)
{
  StrobeSymbolizer *sym = strobe_memory_names_dup_symbolizer (self->names);
  const StrobeSymbolization *s = strobe_symbolizer_lookup (sym, frame->module, frame->address);

  for (guint j = 0; j < s->n_frames; j++)
    {
      Row r = { 0 };

      if (only_depth >= 0 && j != (guint) only_depth)
        continue;
      r.function = strobe_memory_names_function (self->names, frame, j);
      r.location = strobe_memory_names_location (self->names, frame, j, &r.path, &r.line);
      if (s->module)
        {
          g_autofree char *base = g_path_get_basename (s->module);
          r.module = strobe_text_escape (base, STROBE_TEXT_PLAIN);
        }
      /* All but the last of a frame's functions are inlined into the next. */
      r.inlined = only_depth < 0 ? j + 1 < s->n_frames : (guint) only_depth + 1 < s->n_frames;
      g_array_append_val (self->rows, r);
    }
  g_object_unref (sym);
}

static void
set_title (StrobeMemoryStackPanel *self, const char *title)
{
  g_free (self->title_text);
  self->title_text = g_strdup (title);
}

static void
add_stack (StrobeMemoryStackPanel *self, guint32 stack)
{
  StrobeMemoryFrame frames[MAX_FRAMES];
  guint n = stack ? strobe_memory_model_get_frames (strobe_memory_names_get_model (self->names), stack, frames,
                                                    MAX_FRAMES) : 0;

  for (guint i = 0; i < n; i++)
    add_frame_rows (self, &frames[i], -1);
}

void
strobe_memory_stack_panel_show_allocation (StrobeMemoryStackPanel       *self,
                                     const StrobeMemoryAlloc *r,
                                     guint64                  index,
                                     const StrobeTraceClock  *clock)
{
  g_autofree char *size = NULL, *tag = NULL, *heap = NULL, *thread = NULL, *at = NULL, *end = NULL, *title = NULL;

  g_return_if_fail (STROBE_IS_MEMORY_STACK_PANEL (self));
  g_return_if_fail (r != NULL && clock != NULL);
  if (self->names == NULL)
    return;

  g_array_set_size (self->rows, 0);
  size = strobe_format_count (r->size);
  tag = strobe_memory_names_tag (self->names, r->tag);
  heap = strobe_memory_names_heap (self->names, r->heap);
  thread = strobe_memory_names_thread (self->names, r->thread_id);
  at = strobe_format_duration_s (strobe_trace_clock_to_seconds (clock, r->alloc_time));
  if (r->free_time == STROBE_MEMORY_LIVE)
    end = g_strdup (_("never freed"));
  else
    {
      g_autofree char *when = strobe_format_duration_s (strobe_trace_clock_to_seconds (clock, r->free_time));
      g_autofree char *life = strobe_format_duration_s (strobe_trace_clock_duration (clock, r->free_time - r->alloc_time));
      /* Translators: when an allocation was freed, and how long it lived */
      end = g_strdup_printf (_("freed at %s, after %s"), when, life);
    }
  if (r->address)
    /* Translators: the selected allocation: its number, size, address, heap, tag, thread, times */
    title = g_strdup_printf (_("Allocation %" PRIu64 ": %s bytes at 0x%" PRIx64 ", heap %s, tag %s, "
                               "thread %s, allocated at %s, %s"),
                             (uint64_t) index, size, (uint64_t) r->address, heap, tag, thread, at, end);
  else
    /* Translators: the selected allocation (the trace has no addresses): number, size, heap, tag, thread, times */
    title = g_strdup_printf (_("Allocation %" PRIu64 ": %s bytes, heap %s, tag %s, thread %s, allocated at %s, %s"),
                             (uint64_t) index, size, heap, tag, thread, at, end);
  set_title (self, title);
  add_stack (self, r->callstack);
  if (r->callstack == 0)
    {
      g_autofree char *more = g_strconcat (title, "\n", _("The trace has no call stack for it (trace with --callstacks)."), NULL);
      set_title (self, more);
    }
  rebuild (self);
}

void
strobe_memory_stack_panel_show_frames (StrobeMemoryStackPanel       *self,
                                 const char              *title,
                                 const StrobeMemoryFrame *frames,
                                 const guint32           *inline_depths,
                                 guint                    n)
{
  g_return_if_fail (STROBE_IS_MEMORY_STACK_PANEL (self));
  g_return_if_fail (n == 0 || (frames != NULL && inline_depths != NULL));
  if (self->names == NULL)
    return;

  g_array_set_size (self->rows, 0);
  set_title (self, title);
  for (guint i = 0; i < n; i++)
    add_frame_rows (self, &frames[i], (gint) inline_depths[i]);
  rebuild (self);
}

void
strobe_memory_stack_panel_show_stack (StrobeMemoryStackPanel *self,
                                const char        *title,
                                guint32            stack)
{
  g_return_if_fail (STROBE_IS_MEMORY_STACK_PANEL (self));
  if (self->names == NULL)
    return;

  g_array_set_size (self->rows, 0);
  set_title (self, title);
  add_stack (self, stack);
  rebuild (self);
}

void
strobe_memory_stack_panel_clear (StrobeMemoryStackPanel *self)
{
  g_return_if_fail (STROBE_IS_MEMORY_STACK_PANEL (self));
  g_array_set_size (self->rows, 0);
  g_clear_pointer (&self->title_text, g_free);
  rebuild (self);
}

char *
strobe_memory_stack_panel_dup_text (StrobeMemoryStackPanel *self)
{
  GString *out;

  g_return_val_if_fail (STROBE_IS_MEMORY_STACK_PANEL (self), NULL);
  out = g_string_new (self->title_text);
  if (out->len)
    g_string_append_c (out, '\n');
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);

      g_string_append_printf (out, "#%-3u %s", i, r->function);
      if (r->inlined)
        g_string_append (out, _(" [inlined]"));
      if (r->location)
        g_string_append_printf (out, " (%s)", r->location);
      if (r->module)
        g_string_append_printf (out, " %s", r->module);
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

char **
strobe_memory_stack_panel_dup_rows (StrobeMemoryStackPanel *self)
{
  GPtrArray *out;

  g_return_val_if_fail (STROBE_IS_MEMORY_STACK_PANEL (self), NULL);
  out = g_ptr_array_new ();
  for (guint i = 0; i < self->rows->len; i++)
    {
      const Row *r = &g_array_index (self->rows, Row, i);
      g_ptr_array_add (out, g_strdup_printf ("#%u %s", i, r->function));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

/* ---- actions ----------------------------------------------------------------------------- */

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StrobeMemoryStackPanel *self = STROBE_MEMORY_STACK_PANEL (widget);
  g_autofree char *text = strobe_memory_stack_panel_dup_text (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  gtk_label_set_text (self->status, _("Copied the call stack"));
}

static const Row *
source_row (StrobeMemoryStackPanel *self)
{
  GtkListBoxRow *selected = gtk_list_box_get_selected_row (self->list);
  int at = selected ? gtk_list_box_row_get_index (selected) : -1;

  if (at >= 0 && (guint) at < self->rows->len && g_array_index (self->rows, Row, at).path != NULL)
    return &g_array_index (self->rows, Row, at);
  for (guint i = 0; i < self->rows->len; i++)
    if (g_array_index (self->rows, Row, i).path != NULL)
      return &g_array_index (self->rows, Row, i);
  return NULL;
}

static void
open_source_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  StrobeMemoryStackPanel *self = STROBE_MEMORY_STACK_PANEL (widget);
  const Row *r = source_row (self);
  g_autoptr (GError) error = NULL;

  if (r == NULL)
    return;
  if (!strobe_source_open (widget, r->path, (int) r->line, &error))
    {
      g_autofree char *escaped = strobe_text_escape (error->message, STROBE_TEXT_PLAIN);
      gtk_label_set_text (self->status, escaped);
    }
  else
    {
      g_autofree char *file = strobe_text_escape (r->path, STROBE_TEXT_PLAIN);
      /* Translators: a file and a line */
      g_autofree char *text = g_strdup_printf (_("Opened %s:%u"), file, r->line);
      gtk_label_set_text (self->status, text);
    }
}

static void
row_activated_cb (StrobeMemoryStackPanel *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "stack.open-source", NULL);
}

void
strobe_memory_stack_panel_set_names (StrobeMemoryStackPanel *self,
                               StrobeMemoryNames *names)
{
  g_return_if_fail (STROBE_IS_MEMORY_STACK_PANEL (self));
  g_set_object (&self->names, names);
}

static void
strobe_memory_stack_panel_dispose (GObject *object)
{
  StrobeMemoryStackPanel *self = STROBE_MEMORY_STACK_PANEL (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->names);
  G_OBJECT_CLASS (strobe_memory_stack_panel_parent_class)->dispose (object);
}

static void
strobe_memory_stack_panel_finalize (GObject *object)
{
  StrobeMemoryStackPanel *self = STROBE_MEMORY_STACK_PANEL (object);

  g_clear_pointer (&self->rows, g_array_unref);
  g_free (self->title_text);
  G_OBJECT_CLASS (strobe_memory_stack_panel_parent_class)->finalize (object);
}

static void
strobe_memory_stack_panel_class_init (StrobeMemoryStackPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_memory_stack_panel_dispose;
  object_class->finalize = strobe_memory_stack_panel_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "strobe-memory-stack-panel");
  gtk_widget_class_install_action (widget_class, "stack.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "stack.open-source", NULL, open_source_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "stack.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_ALT_MASK, "stack.open-source", NULL);
}

static void
strobe_memory_stack_panel_init (StrobeMemoryStackPanel *self)
{
  GtkWidget *buttons, *heading;

  self->rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_array_set_clear_func (self->rows, row_clear);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_margin_start (self->box, 6);
  gtk_widget_set_margin_end (self->box, 6);
  gtk_widget_set_margin_top (self->box, 6);

  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  heading = gtk_label_new (_("Call Stack"));
  gtk_widget_add_css_class (heading, "strobe-heading");
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_set_hexpand (heading, TRUE);
  gtk_box_append (GTK_BOX (buttons), heading);
  self->copy_button = strobe_a11y_button_new_with_mnemonic (_("Cop_y"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->copy_button), "stack.copy");
  gtk_widget_set_tooltip_text (self->copy_button, _("Copy the call stack as text (Ctrl+C)"));
  gtk_box_append (GTK_BOX (buttons), self->copy_button);
  self->open_button = strobe_a11y_button_new_with_mnemonic (_("_Open Source"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->open_button), "stack.open-source");
  gtk_widget_set_tooltip_text (self->open_button,
                               _("Open the selected frame's source file at its line, with the editor command of the preferences (Alt+Return)"));
  gtk_box_append (GTK_BOX (self->box), buttons);
  gtk_box_append (GTK_BOX (buttons), self->open_button);

  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title, 0);
  gtk_label_set_wrap (self->title, TRUE);
  gtk_label_set_wrap_mode (self->title, PANGO_WRAP_WORD_CHAR);
  strobe_a11y_make_copyable (self->title);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->title));

  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_SINGLE);
  gtk_list_box_set_activate_on_single_click (self->list, FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "rich-list");
  g_signal_connect_swapped (self->list, "row-activated", G_CALLBACK (row_activated_cb), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Call stack frames"), -1);
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->list));
  gtk_widget_set_vexpand (self->scroller, TRUE);
  gtk_box_append (GTK_BOX (self->box), self->scroller);

  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status, 0);
  /* Whole: a message why a source could not be opened says what to do, at its end. */
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_wrap_mode (self->status, PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->status));
  rebuild (self);
}

GtkWidget *
strobe_memory_stack_panel_new (void)
{
  return g_object_new (STROBE_TYPE_MEMORY_STACK_PANEL, NULL);
}

const char *
strobe_memory_stack_panel_get_status (StrobeMemoryStackPanel *self)
{
  g_return_val_if_fail (STROBE_IS_MEMORY_STACK_PANEL (self), NULL);
  return gtk_label_get_text (self->status);
}
