/* strobe-log-details.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-format.h"
#include "strobe-log-details.h"
#include "strobe-log-format.h"
#include "strobe-log-labels.h"
#include "strobe-text.h"
#include "strobe-a11y.h"
#include "strobe-after-paint.h"

#include <string.h>

/* What a label can lay out without stalling the window. */
#define DETAILS_MAX (64 * 1024)

typedef enum
{
  ROW_TIME,
  ROW_THREAD,
  ROW_VERBOSITY,
  ROW_CATEGORY,
  ROW_SOURCE,
  ROW_FORMAT,
  N_ROWS
} Row;

struct _StrobeLogDetails
{
  GtkWidget      parent_instance;

  StrobeLogItem *item;
  GtkWidget     *scroller;
  GtkWidget     *stack;
  GtkWidget     *keys[N_ROWS];
  GtkLabel      *values[N_ROWS];
  GtkWidget     *open_button;
  GtkLabel      *message;
  GtkLabel      *problem;
  GtkWidget     *args_heading;
  GtkLabel      *args;
  /* What the labels show next, in show_source's turn */
  char          *time;
  char          *thread_name;
  guint          show_source;
  StrobeAfterPaint after_paint;
};

G_DEFINE_FINAL_TYPE (StrobeLogDetails, strobe_log_details, GTK_TYPE_WIDGET)

static GtkLabel *
value_label (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  /* A least width, so the window's least size does not lay the text out a character a
   * line: GTK 4.8's window measures that again whenever a row selected changes the labels
   * (2.9 ms a far jump in the log, outside the frames; 0.8 ms with this). */
  gtk_label_set_width_chars (GTK_LABEL (label), 24);
  /* The pane is reached with F6. */
  strobe_a11y_make_copyable (GTK_LABEL (label));
  gtk_widget_set_hexpand (label, TRUE);
  return GTK_LABEL (label);
}

/* The message on its own lines, each escaped as the table escapes it. */
static char *
escape_lines (const char *text, gssize len)
{
  GString *out = g_string_new (NULL);
  const char *end = text + len, *p = text;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      const char *stop = nl ? nl : end;

      strobe_text_append_escaped (out, p, stop - p, STROBE_TEXT_PLAIN);
      if (nl == NULL)
        break;
      g_string_append_c (out, '\n');
      p = nl + 1;
    }
  return g_string_free (out, FALSE);
}

static void
set_row (StrobeLogDetails *self, Row row, const char *text)
{
  gtk_widget_set_visible (self->keys[row], text != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->values[row]), text != NULL);
  gtk_label_set_text (self->values[row], text ? text : "");
}

static char *
describe_args (StrobeLogItem *item, gboolean *decoded)
{
  g_autoptr(GArray) args = g_array_new (FALSE, FALSE, sizeof (StrobeLogArg));
  GString *out = g_string_new (NULL);
  gsize len;
  const guint8 *bytes = strobe_log_item_get_args (item, &len);

  *decoded = strobe_log_args_split (bytes, len, args);
  for (guint i = 0; i < args->len; i++)
    {
      const StrobeLogArg *a = &g_array_index (args, StrobeLogArg, i);
      const char *type = strobe_log_arg_type_name (a->type);
      g_autofree char *value = strobe_log_arg_to_string (a);
      g_autofree char *unknown = type ? NULL : g_strdup_printf ("0x%02x", a->type);

      g_string_append_printf (out, "%u. %s  %s\n", i + 1, type ? type : unknown, value);
    }
  if (!*decoded || !strobe_log_item_is_well_formed (item))
    {
      /* Translators: followed by the bytes of a message's arguments in hexadecimal */
      g_string_append (out, _("Raw bytes:"));
      for (gsize i = 0; i < len; i++)
        g_string_append_printf (out, " %02x", bytes[i]);
      if (len == 0)
        g_string_append (out, " —");
      g_string_append_c (out, '\n');
    }
  if (out->len > 0 && out->str[out->len - 1] == '\n')
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

static void
show_now (StrobeLogDetails *self)
{
  StrobeLogItem *item = self->item;
  const char *thread_name = self->thread_name, *time = self->time;
  const StrobeLogSpecInfo *spec;
  g_autofree char *thread = NULL, *source = NULL, *format = NULL;
  g_autofree char *text = NULL, *args = NULL, *category = NULL;
  gboolean decoded;

  g_clear_handle_id (&self->show_source, g_source_remove);
  strobe_after_paint_cancel (&self->after_paint);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), item ? "message" : "none");
  if (item == NULL)
    return;

  spec = strobe_log_item_get_spec (item);
  thread = thread_name && *thread_name
           /* Translators: a thread's name and its id in the trace */
           ? g_strdup_printf (_("%s (%u)"), thread_name, strobe_log_item_get_thread_id (item))
           : g_strdup_printf ("%u", strobe_log_item_get_thread_id (item));
  set_row (self, ROW_TIME, time);
  set_row (self, ROW_THREAD, thread);
  set_row (self, ROW_VERBOSITY, strobe_log_verbosity_label (strobe_log_item_get_verbosity (item)));
  category = strobe_log_item_get_category_name (item)
             ? strobe_text_escape (strobe_log_item_get_category_name (item), STROBE_TEXT_PLAIN)
             : spec ? g_strdup_printf (_("unknown (category %u was never announced)"), strobe_log_item_get_category_id (item))
             : NULL;
  set_row (self, ROW_CATEGORY, category);
  if (spec != NULL)
    {
      g_autofree char *file = strobe_text_escape (spec->file, STROBE_TEXT_PLAIN);

      source = g_strdup_printf ("%s:%d", file, spec->line);
      format = strobe_text_escape (spec->format, STROBE_TEXT_PLAIN);
    }
  set_row (self, ROW_SOURCE, source);
  gtk_widget_set_visible (self->open_button, spec != NULL && spec->file && *spec->file);
  set_row (self, ROW_FORMAT, format);

  {
    const char *raw = strobe_log_item_get_text (item);
    gsize len = strlen (raw);

    if (len > DETAILS_MAX)
      {
        const char *end = g_utf8_find_prev_char (raw, raw + DETAILS_MAX + 1);
        g_autofree char *head = escape_lines (raw, end ? end - raw : DETAILS_MAX);
        g_autofree char *size = g_format_size (len);

        /* Translators: a message too long to show whole; %s is its size */
        text = g_strdup_printf (_("%s…\n(the message is %s long: Copy Message copies all of it)"), head, size);
      }
    else
      text = escape_lines (raw, (gssize) len);
    gtk_label_set_text (self->message, text);
  }

  if (spec == NULL)
    {
      g_autofree char *problem =
        g_strdup_printf (_("This message names log site %u, which the trace never described: its "
                           "format, file and line are unknown, so only its raw arguments are shown."),
                         strobe_log_item_get_spec_id (item));
      gtk_label_set_text (self->problem, problem);
    }
  else if (!strobe_log_item_is_well_formed (item))
    gtk_label_set_text (self->problem,
                        _("The arguments do not fit the format: what is missing shows as “(?)”; "
                          "the raw bytes are below."));
  gtk_widget_set_visible (GTK_WIDGET (self->problem), !strobe_log_item_is_well_formed (item));

  args = describe_args (item, &decoded);
  gtk_widget_set_visible (self->args_heading, *args != '\0');
  gtk_widget_set_visible (GTK_WIDGET (self->args), *args != '\0');
  gtk_label_set_text (self->args, args);
}

static gboolean
show_cb (gpointer data)
{
  StrobeLogDetails *self = data;

  self->show_source = 0;
  show_now (self);
  return G_SOURCE_REMOVE;
}

static void
painted_cb (GdkFrameClock *clock,
            gpointer       data)
{
  show_now (data);
}

/* The labels change after the frame that shows the selecting which asked for it, in a frame
 * of their own. Wrapping labels with new text are measured again, and on X11 the whole
 * window with them (GdkToplevel's compute-size): 2-3 ms that a far jump's frame, with its
 * rows bound, laid out and drawn anew, cannot spare (tests/bench/README.md); the next frame
 * lays out and draws the pane alone. The item is the pane's at once. Unmapped, in a turn of
 * their own. */
void
strobe_log_details_show (StrobeLogDetails       *self,
                         StrobeLogItem          *item,
                         const StrobeTraceClock *clock,
                         const char             *thread_name)
{
  g_return_if_fail (STROBE_IS_LOG_DETAILS (self));
  g_return_if_fail (item == NULL || STROBE_IS_LOG_ITEM (item));

  g_set_object (&self->item, item);
  g_free (self->time);
  self->time = item ? strobe_log_format_time_long (clock, strobe_log_item_get_time (item)) : NULL;
  g_free (self->thread_name);
  self->thread_name = g_strdup (thread_name);
  if (self->show_source != 0 || strobe_after_paint_pending (&self->after_paint))
    return;
  if (gtk_widget_get_mapped (GTK_WIDGET (self))
      && strobe_after_paint_once (&self->after_paint, GTK_WIDGET (self), G_CALLBACK (painted_cb), self))
    return;
  self->show_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 7, show_cb, self, NULL);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->show_source),
                            "[strobe] log details");
}

StrobeLogItem *
strobe_log_details_get_item (StrobeLogDetails *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_DETAILS (self), NULL);
  return self->item;
}

static void
strobe_log_details_dispose (GObject *object)
{
  StrobeLogDetails *self = STROBE_LOG_DETAILS (object);

  g_clear_handle_id (&self->show_source, g_source_remove);
  strobe_after_paint_cancel (&self->after_paint);
  g_clear_pointer (&self->thread_name, g_free);
  g_clear_pointer (&self->time, g_free);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_object (&self->item);
  G_OBJECT_CLASS (strobe_log_details_parent_class)->dispose (object);
}

static void
strobe_log_details_class_init (StrobeLogDetailsClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = strobe_log_details_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "strobe-log-details");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_widget_add_css_class (label, "strobe-heading");
  return label;
}

static void
strobe_log_details_init (StrobeLogDetails *self)
{
  static const char *const keys[N_ROWS] = {
    N_("Time"), N_("Thread"), N_("Verbosity"), N_("Category"), N_("Source"), N_("Format"),
  };
  GtkWidget *box, *grid, *none, *source_box;

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Message details"), -1);
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  self->stack = gtk_stack_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->stack);

  none = gtk_label_new (_("Select a message to see it whole, with its arguments and where it was logged."));
  gtk_label_set_wrap (GTK_LABEL (none), TRUE);
  gtk_widget_add_css_class (none, "dim-label");
  gtk_stack_add_named (GTK_STACK (self->stack), none, "none");

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_stack_add_named (GTK_STACK (self->stack), box, "message");

  self->message = value_label ();
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "monospace");
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "strobe-log-message");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->message), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Message"), -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->message));

  self->problem = value_label ();
  gtk_widget_add_css_class (GTK_WIDGET (self->problem), "warning");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->problem));

  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 2);
  for (Row r = 0; r < N_ROWS; r++)
    {
      self->keys[r] = gtk_label_new (_(keys[r]));
      gtk_label_set_xalign (GTK_LABEL (self->keys[r]), 0.0f);
      gtk_label_set_yalign (GTK_LABEL (self->keys[r]), 0.0f);
      gtk_widget_add_css_class (self->keys[r], "dim-label");
      self->values[r] = value_label ();
      gtk_accessible_update_relation (GTK_ACCESSIBLE (self->values[r]), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                      self->keys[r], NULL, -1);
      gtk_grid_attach (GTK_GRID (grid), self->keys[r], 0, r, 1, 1);
      if (r == ROW_SOURCE)
        {
          source_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
          gtk_widget_set_hexpand (GTK_WIDGET (self->values[r]), FALSE);
          gtk_label_set_wrap (self->values[r], FALSE);
          gtk_label_set_ellipsize (self->values[r], PANGO_ELLIPSIZE_MIDDLE);
          gtk_widget_set_valign (GTK_WIDGET (self->values[r]), GTK_ALIGN_CENTER);
          gtk_label_set_yalign (GTK_LABEL (self->keys[r]), 0.5f);
          gtk_box_append (GTK_BOX (source_box), GTK_WIDGET (self->values[r]));
          /* No mnemonic: Alt+O is the window's Open; log.open-source has Alt+Return. */
          self->open_button = gtk_button_new_with_label (_("Open"));
          gtk_widget_set_tooltip_text (self->open_button, _("Open the source file at this line (the editor is set in Preferences)"));
          gtk_actionable_set_action_name (GTK_ACTIONABLE (self->open_button), "log.open-source");
          gtk_widget_set_valign (self->open_button, GTK_ALIGN_CENTER);
          gtk_widget_add_css_class (self->open_button, "flat");
          gtk_accessible_update_property (GTK_ACCESSIBLE (self->open_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                          _("Open source location"), -1);
          gtk_box_append (GTK_BOX (source_box), self->open_button);
          gtk_grid_attach (GTK_GRID (grid), source_box, 1, r, 1, 1);
        }
      else
        gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->values[r]), 1, r, 1, 1);
    }
  gtk_widget_add_css_class (GTK_WIDGET (self->values[ROW_FORMAT]), "monospace");
  gtk_box_append (GTK_BOX (box), grid);

  self->args_heading = heading (_("Arguments"));
  gtk_box_append (GTK_BOX (box), self->args_heading);
  self->args = value_label ();
  gtk_widget_add_css_class (GTK_WIDGET (self->args), "monospace");
  gtk_accessible_update_relation (GTK_ACCESSIBLE (self->args), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                  self->args_heading, NULL, -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->args));

  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "none");
}

GtkWidget *
strobe_log_details_new (void)
{
  return g_object_new (STROBE_TYPE_LOG_DETAILS, NULL);
}
