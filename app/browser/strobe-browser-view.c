/* strobe-browser-view.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "strobe-browser-view.h"
#include "strobe-a11y.h"
#include "strobe-format.h"
#include "strobe-panes.h"
#include "strobe-table.h"

struct _StrobeBrowserView
{
  GtkWidget           parent_instance;

  StrobeStore        *store;
  GtkCustomFilter    *filter;
  GtkMultiSelection  *selection;   /* one trace for open, rename…; two for compare */
  char               *search;     /* casefolded, NULL when empty */
  guint16             recorder_port;   /* 0: not listening */

  GtkInfoBar         *recorder_bar;
  GtkLabel           *recorder_error_label;
  GtkInfoBar         *store_bar;
  GtkLabel           *store_error_label;
  GtkSearchEntry     *search_entry;
  GtkWidget          *open_button;
  GtkWidget          *compare_button;
  GtkWidget          *open_group_button;
  GtkWidget          *group_button;
  GtkMenuButton      *groups_button;
  GtkPopover         *groups_popover;
  GtkListBox         *groups_list;
  GtkWidget          *another_port_button;
  GtkWidget          *rename_button;
  GtkWidget          *folder_button;
  GtkWidget          *delete_button;
  GtkStack           *content_stack;
  GtkColumnView      *column_view;
  GtkLabel           *empty_title;
  GtkLabel           *empty_label;
  GtkLabel           *footer_label;
};

G_DEFINE_FINAL_TYPE (StrobeBrowserView, strobe_browser_view, GTK_TYPE_WIDGET)

enum
{
  OPEN_TRACE,
  COMPARE_TRACES,
  OPEN_GROUP,
  OPEN_STORE_GROUP,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- columns ------------------------------------------------------------------------ */

#define TRACE(item) STROBE_TRACE (item)

/* A user's stop is told from a crash: "Cut off" only for a recording whose program or
 * recorder vanished without an End packet. */
static const char *
status_text (StrobeTrace *trace)
{
  StrobeTraceStatus status = strobe_trace_get_status (trace);

  if (strobe_trace_get_stopped (trace) &&
      (status == STROBE_TRACE_STATUS_FINISHED || status == STROBE_TRACE_STATUS_CUT_OFF))
    /* Translators: a recording the user ended (the Stop button, or the viewer was closed) */
    return C_("trace status", "Stopped");
  switch (status)
    {
    /* Translators: the dot is a "recording" light */
    case STROBE_TRACE_STATUS_LIVE:     return C_("trace status", "● Live");
    case STROBE_TRACE_STATUS_FINISHED: return C_("trace status", "Finished");
    case STROBE_TRACE_STATUS_CUT_OFF:  return C_("trace status", "Cut off");
    case STROBE_TRACE_STATUS_INVALID:  return C_("trace status", "Not readable");
    default:                           return "?";
    }
}

static char *
tr_name (gpointer item)
{
  return g_strdup (strobe_trace_get_name (TRACE (item)));
}

static char *
tr_program (gpointer item)
{
  const char *program = strobe_trace_get_program (TRACE (item));

  return g_strdup (program && *program ? program : "—");
}

/* Where the file is: the store, or the folder of a file opened from elsewhere. */
static char *
tr_location (gpointer item)
{
  g_autofree char *dir = NULL;
  const char *home = g_get_home_dir ();

  if (!strobe_trace_get_external (TRACE (item)))
    /* Translators: the Location of a trace kept in the trace store's own folder */
    return g_strdup (C_("trace location", "Trace store"));
  dir = g_path_get_dirname (strobe_trace_get_path (TRACE (item)));
  if (home != NULL && g_str_has_prefix (dir, home) && (dir[strlen (home)] == '/' || dir[strlen (home)] == '\0'))
    return g_strconcat ("~", dir + strlen (home), NULL);
  return g_steal_pointer (&dir);
}

static char *
tr_started (gpointer item)
{
  return strobe_format_wall_time (strobe_trace_get_start_time_ns (TRACE (item)));
}

static char *
tr_duration (gpointer item)
{
  /* A live trace has run since its start; a finished one until its recorder finished it.
   * A trace copied in (or whose recorder died) has no known end. */
  gint64 start_ns = (gint64) strobe_trace_get_start_time_ns (TRACE (item));
  gint64 end_ns = strobe_trace_get_status (TRACE (item)) == STROBE_TRACE_STATUS_LIVE
                  ? g_get_real_time () * 1000
                  : (gint64) strobe_trace_get_end_time_ns (TRACE (item));

  if (start_ns == 0 || end_ns == 0)
    return g_strdup ("—");
  return strobe_format_duration_s (end_ns > start_ns ? (double) (end_ns - start_ns) / 1e9 : 0.0);
}

static char *
tr_size (gpointer item)
{
  return strobe_format_size (strobe_trace_get_size (TRACE (item)));
}

static char *
tr_status (gpointer item)
{
  return g_strdup (status_text (TRACE (item)));
}

static const char *
tr_status_class (gpointer item)
{
  return strobe_trace_get_status (TRACE (item)) == STROBE_TRACE_STATUS_LIVE ? "strobe-live" : NULL;
}

static int
tr_cmp_name (gpointer a, gpointer b)
{
  return strobe_table_compare_str (strobe_trace_get_name (TRACE (a)), strobe_trace_get_name (TRACE (b)));
}

static int
tr_cmp_program (gpointer a, gpointer b)
{
  return strobe_table_compare_str (strobe_trace_get_program (TRACE (a)), strobe_trace_get_program (TRACE (b)));
}

static int
tr_cmp_started (gpointer a, gpointer b)
{
  return strobe_table_compare_u64 (strobe_trace_get_start_time_ns (TRACE (a)),
                                   strobe_trace_get_start_time_ns (TRACE (b)));
}

static int
tr_cmp_size (gpointer a, gpointer b)
{
  return strobe_table_compare_u64 (strobe_trace_get_size (TRACE (a)), strobe_trace_get_size (TRACE (b)));
}

static int
tr_cmp_status (gpointer a, gpointer b)
{
  return strobe_table_compare_u64 (strobe_trace_get_status (TRACE (a)), strobe_trace_get_status (TRACE (b)));
}

static const StrobeTableColumn trace_columns[] = {
  { N_("Name"), tr_name, tr_cmp_name, 30, FALSE, TRUE },
  { N_("Program"), tr_program, tr_cmp_program, 16, FALSE, FALSE },
  { N_("Started"), tr_started, tr_cmp_started, 19, FALSE, FALSE },
  { N_("Duration"), tr_duration, NULL, 10, TRUE, FALSE },
  { N_("Size"), tr_size, tr_cmp_size, 9, TRUE, FALSE },
  { N_("Status"), tr_status, tr_cmp_status, 10, FALSE, FALSE, tr_status_class },
  { N_("Location"), tr_location, NULL, 20, FALSE, FALSE },
};

/* ---- state ---------------------------------------------------------------------------- */

/* The selected traces (at most @max + 1 of them, in the list's order). */
static GPtrArray *
get_selection (StrobeBrowserView *self, guint max)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GtkBitset) set = NULL;
  GtkBitsetIter iter;
  guint pos;

  if (self->selection == NULL)
    return out;
  set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, set, &pos); ok && out->len <= max;
       ok = gtk_bitset_iter_next (&iter, &pos))
    g_ptr_array_add (out, g_list_model_get_item (G_LIST_MODEL (self->selection), pos));
  return out;
}

/* The one selected trace; NULL when none or several are. */
static StrobeTrace *
get_selected (StrobeBrowserView *self)
{
  g_autoptr(GPtrArray) sel = get_selection (self, 1);

  /* The list holds a reference: the trace outlives this array. */
  return sel->len == 1 ? sel->pdata[0] : NULL;
}

static gboolean
comparable (StrobeTrace *trace)
{
  return strobe_trace_get_status (trace) != STROBE_TRACE_STATUS_INVALID;
}

static void
update_sensitivity (StrobeBrowserView *self)
{
  StrobeTrace *trace = get_selected (self);
  gboolean readable = trace != NULL && strobe_trace_get_status (trace) != STROBE_TRACE_STATUS_INVALID;
  gboolean idle = trace != NULL && strobe_trace_get_status (trace) != STROBE_TRACE_STATUS_LIVE;

  gboolean external = trace != NULL && strobe_trace_get_external (trace);

  gtk_widget_set_sensitive (self->open_button, readable);
  gtk_widget_set_sensitive (self->rename_button, idle && !external);
  gtk_widget_set_sensitive (self->delete_button, idle);
  /* A file opened from elsewhere only leaves the list: its file stays where it is. */
  gtk_button_set_icon_name (GTK_BUTTON (self->delete_button), external ? "list-remove-symbolic" : "user-trash-symbolic");
  gtk_widget_set_tooltip_text (self->delete_button, external ? _("Remove the selected trace from the list; its file stays where it is")
                                                             : _("Delete the selected trace"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->delete_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  external ? _("Remove from List") : _("Delete"), -1);
  gtk_widget_set_sensitive (self->folder_button, trace != NULL);
  {
    g_autoptr(GPtrArray) sel = get_selection (self, 2);
    gtk_widget_set_sensitive (self->compare_button, sel->len == 2 && comparable (sel->pdata[0]) && comparable (sel->pdata[1]));
  }
  {
    g_autoptr(GPtrArray) sel = get_selection (self, G_MAXUINT - 1);
    gboolean all = sel->len >= 2;

    for (guint i = 0; i < sel->len && all; i++)
      all = comparable (sel->pdata[i]);
    gtk_widget_set_sensitive (self->open_group_button, all);
    gtk_widget_set_sensitive (self->group_button, all && self->store != NULL);
  }
}

static void
update_empty (StrobeBrowserView *self)
{
  guint shown = self->selection ? g_list_model_get_n_items (G_LIST_MODEL (self->selection)) : 0;

  if (shown > 0)
    {
      gtk_stack_set_visible_child_name (self->content_stack, "list");
      return;
    }
  if (self->search != NULL)
    {
      gtk_label_set_text (self->empty_title, _("No Matching Traces"));
      gtk_label_set_text (self->empty_label, _("No trace’s name or program contains this text."));
    }
  else
    {
      g_autofree char *text = NULL;

      gtk_label_set_text (self->empty_title, _("No Traces Yet"));
      if (self->recorder_port != 0)
        /* Translators: the start page with no traces; %u is the recorder's port. Keep the markup. */
        text = g_strdup_printf (_("Run a program with <tt>STROBE_TRACE=cpu,log STROBE_TRACEHOST=localhost:%u</tt> "
                                  "and it appears here while it records (<tt>STROBE_TRACE</tt> names the "
                                  "channels to turn on). A running program can be traced with "
                                  "<b>Connect</b> (Ctrl+K). Trace files can be opened with <b>Open</b> "
                                  "(Ctrl+O) or dropped onto this window."),
                                self->recorder_port);
      else
        text = g_strdup (_("The recorder is not listening, so programs cannot stream here yet. Trace files "
                           "can be opened with <b>Open</b> (Ctrl+O) or dropped onto this window."));
      gtk_label_set_markup (self->empty_label, text);
    }
  gtk_stack_set_visible_child_name (self->content_stack, "empty");
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  StrobeBrowserView *self = user_data;
  StrobeTrace *trace = item;
  const char *fields[] = { strobe_trace_get_name (trace), strobe_trace_get_program (trace) };

  if (self->search == NULL)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autofree char *folded = fields[i] ? g_utf8_casefold (fields[i], -1) : NULL;

      if (folded != NULL && strstr (folded, self->search) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
search_changed_cb (StrobeBrowserView *self,
                   GtkSearchEntry    *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->search, g_free);
  if (text != NULL && *text != '\0')
    self->search = g_utf8_casefold (text, -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_empty (self);
}

/* ---- actions on the selected trace ---------------------------------------------------- */

static void
open_trace (StrobeBrowserView *self,
            StrobeTrace       *trace)
{
  g_autoptr(GFile) file = NULL;

  if (trace == NULL || strobe_trace_get_status (trace) == STROBE_TRACE_STATUS_INVALID)
    return;
  file = g_file_new_for_path (strobe_trace_get_path (trace));
  g_signal_emit (self, signals[OPEN_TRACE], 0, file);
}

static void
activate_cb (StrobeBrowserView *self,
             guint              position)
{
  g_autoptr(StrobeTrace) trace = g_list_model_get_item (G_LIST_MODEL (self->selection), position);

  open_trace (self, trace);
}

static void
open_clicked_cb (StrobeBrowserView *self)
{
  open_trace (self, get_selected (self));
}

/* The older of the two is A (the baseline), the newer B: yesterday's build against today's. */
static void
compare_clicked_cb (StrobeBrowserView *self)
{
  g_autoptr(GPtrArray) sel = get_selection (self, 2);
  StrobeTrace *a, *b;
  g_autoptr(GFile) fa = NULL, fb = NULL;

  if (sel->len != 2 || !comparable (sel->pdata[0]) || !comparable (sel->pdata[1]))
    return;
  a = sel->pdata[0];
  b = sel->pdata[1];
  if (strobe_trace_get_start_time_ns (a) > strobe_trace_get_start_time_ns (b))
    {
      StrobeTrace *t = a;
      a = b;
      b = t;
    }
  fa = g_file_new_for_path (strobe_trace_get_path (a));
  fb = g_file_new_for_path (strobe_trace_get_path (b));
  g_signal_emit (self, signals[COMPARE_TRACES], 0, fa, fb);
}

/* ---- groups ------------------------------------------------------------------------------ */

/* The selected traces, oldest first (the group's reference is its earliest starter anyway;
 * the tab lists them in this order). */
static GPtrArray *
get_selection_by_start (StrobeBrowserView *self)
{
  GPtrArray *sel = get_selection (self, G_MAXUINT - 1);

  for (guint i = 1; i < sel->len; i++)
    for (guint k = i; k > 0 && strobe_trace_get_start_time_ns (sel->pdata[k - 1]) > strobe_trace_get_start_time_ns (sel->pdata[k]); k--)
      {
        gpointer t = sel->pdata[k];
        sel->pdata[k] = sel->pdata[k - 1];
        sel->pdata[k - 1] = t;
      }
  return sel;
}

static void
open_group_clicked_cb (StrobeBrowserView *self)
{
  g_autoptr(GPtrArray) sel = get_selection_by_start (self);
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  if (sel->len < 2)
    return;
  for (guint i = 0; i < sel->len; i++)
    g_ptr_array_add (files, g_file_new_for_path (strobe_trace_get_path (sel->pdata[i])));
  g_signal_emit (self, signals[OPEN_GROUP], 0, files->pdata, files->len);
}

gboolean
strobe_browser_view_group_selected (StrobeBrowserView  *self,
                                    const char         *name,
                                    GError            **error)
{
  g_autoptr(GPtrArray) sel = get_selection_by_start (self);
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();

  g_return_val_if_fail (STROBE_IS_BROWSER_VIEW (self), FALSE);
  g_return_val_if_fail (self->store != NULL, FALSE);
  for (guint i = 0; i < sel->len; i++)
    g_ptr_array_add (ids, (gpointer) strobe_trace_get_id (sel->pdata[i]));
  g_ptr_array_add (ids, NULL);
  return strobe_store_create_group (self->store, name, (const char * const *) ids->pdata, error);
}

static void show_error (StrobeBrowserView *self, const char *primary, const GError *error);

static void
group_response_cb (GtkDialog *dialog,
                   int        response,
                   gpointer   user_data)
{
  StrobeBrowserView *self = user_data;
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "entry");
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_OK && self->store != NULL
      && !strobe_browser_view_group_selected (self, gtk_editable_get_text (entry), &error))
    show_error (self, _("Could not make the group"), error);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static GtkWindow *get_window (StrobeBrowserView *self);

/* A name for the group, to keep or change: its programs, as "client + server". */
static char *
suggest_group_name (GPtrArray *sel)
{
  GString *name = g_string_new (NULL);

  for (guint i = 0; i < sel->len && name->len < 80; i++)
    {
      const char *program = strobe_trace_get_program (sel->pdata[i]);
      g_string_append_printf (name, "%s%s", i ? " + " : "", program && *program ? program : strobe_trace_get_name (sel->pdata[i]));
    }
  return g_string_free (name, FALSE);
}

static void
group_clicked_cb (StrobeBrowserView *self)
{
  g_autoptr(GPtrArray) sel = get_selection_by_start (self);
  g_autofree char *suggested = NULL;
  GtkWidget *dialog, *entry, *area;

  if (sel->len < 2 || self->store == NULL)
    return;
  suggested = suggest_group_name (sel);
  dialog = gtk_message_dialog_new (get_window (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   /* Translators: the title of the dialog that names a group of traces */
                                   g_dngettext (GETTEXT_PACKAGE, "Group %u trace", "Group %u traces", sel->len), sel->len);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("The group is kept in the trace store: open it from Groups, "
                                              "all its processes on one time axis."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL, _("_Group"), GTK_RESPONSE_OK, NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_OK);
  entry = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (entry), suggested);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Group name"), -1);
  area = gtk_message_dialog_get_message_area (GTK_MESSAGE_DIALOG (dialog));
  gtk_box_append (GTK_BOX (area), entry);
  g_object_set_data (G_OBJECT (dialog), "entry", entry);
  g_signal_connect_object (dialog, "response", G_CALLBACK (group_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
group_row_clicked_cb (GtkButton *button, StrobeBrowserView *self)
{
  const char *name = g_object_get_data (G_OBJECT (button), "strobe-group");

  gtk_popover_popdown (self->groups_popover);
  g_signal_emit (self, signals[OPEN_STORE_GROUP], 0, name);
}

static void fill_groups (StrobeBrowserView *self);

static void
group_delete_clicked_cb (GtkButton *button, StrobeBrowserView *self)
{
  g_autoptr(GError) error = NULL;

  if (self->store != NULL
      && !strobe_store_delete_group (self->store, g_object_get_data (G_OBJECT (button), "strobe-group"), &error))
    show_error (self, _("Could not delete the group"), error);
  fill_groups (self);
}

static GtkWidget *
group_row (StrobeBrowserView *self, const StrobeStoreGroup *group)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *open = gtk_button_new ();
  g_autofree char *text = NULL;
  g_autofree char *widget_name = g_strconcat ("browser_group:", group->name, NULL);

  /* Translators: a group in the Traces browser's Groups list: its name, how many traces,
   * and whether it was made by hand or is a session (STROBE_SESSION, strobe-cli run) */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s · %u trace · %s", "%s · %u traces · %s", group->members->len),
                          group->name, group->members->len,
                          group->user ? _("grouped by hand") : group->live ? _("session, recording") : _("session"));
  gtk_button_set_child (GTK_BUTTON (open), gtk_label_new (text));
  gtk_label_set_xalign (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (open))), 0);
  gtk_button_set_has_frame (GTK_BUTTON (open), FALSE);
  gtk_widget_set_hexpand (open, TRUE);
  gtk_widget_set_name (open, widget_name);
  gtk_widget_set_sensitive (open, group->members->len > 0);
  g_object_set_data_full (G_OBJECT (open), "strobe-group", g_strdup (group->name), g_free);
  g_signal_connect (open, "clicked", G_CALLBACK (group_row_clicked_cb), self);
  gtk_box_append (GTK_BOX (box), open);
  if (group->user)
    {
      GtkWidget *del = gtk_button_new_from_icon_name ("user-trash-symbolic");
      g_autofree char *del_name = g_strconcat ("browser_group_delete:", group->name, NULL);
      /* Translators: the button that deletes a group made by hand (its traces stay) */
      g_autofree char *label = g_strdup_printf (_("Delete the group %s (its traces stay)"), group->name);

      gtk_widget_set_name (del, del_name);
      gtk_widget_set_tooltip_text (del, label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (del), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
      gtk_button_set_has_frame (GTK_BUTTON (del), FALSE);
      g_object_set_data_full (G_OBJECT (del), "strobe-group", g_strdup (group->name), g_free);
      g_signal_connect (del, "clicked", G_CALLBACK (group_delete_clicked_cb), self);
      gtk_box_append (GTK_BOX (box), del);
    }
  return box;
}

/* The store's groups as they are now: worked out when the list opens. */
static void
fill_groups (StrobeBrowserView *self)
{
  g_autoptr(GPtrArray) groups = self->store ? strobe_store_dup_groups (self->store) : NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->groups_list))) != NULL)
    gtk_list_box_remove (self->groups_list, child);
  for (guint i = 0; groups != NULL && i < groups->len; i++)
    gtk_list_box_append (self->groups_list, group_row (self, g_ptr_array_index (groups, i)));
  if (groups == NULL || groups->len == 0)
    {
      GtkWidget *label = gtk_label_new (_("No groups yet: the programs of one session are one, and "
                                          "traces selected together become one with Group…"));
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
      gtk_list_box_append (self->groups_list, label);
    }
}

static GtkWindow *
get_window (StrobeBrowserView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  return GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;
}

static void
show_error (StrobeBrowserView *self,
            const char        *primary,
            const GError      *error)
{
  GtkWidget *dialog = gtk_message_dialog_new (get_window (self),
                                              GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", primary);

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
rename_response_cb (GtkDialog *dialog,
                    int        response,
                    gpointer   user_data)
{
  StrobeBrowserView *self = user_data;
  const char *id = g_object_get_data (G_OBJECT (dialog), "trace-id");
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "entry");
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_OK && self->store != NULL &&
      !strobe_store_rename_trace (self->store, id, gtk_editable_get_text (entry), &error))
    show_error (self, _("Could not rename the trace"), error);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
rename_clicked_cb (StrobeBrowserView *self)
{
  StrobeTrace *trace = get_selected (self);
  GtkWidget *dialog, *entry, *area;

  if (trace == NULL)
    return;
  dialog = gtk_message_dialog_new (get_window (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   _("Rename “%s”"), strobe_trace_get_name (trace));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog),
                          _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("_Rename"), GTK_RESPONSE_OK,
                          NULL);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_OK);
  entry = gtk_entry_new ();
  gtk_editable_set_text (GTK_EDITABLE (entry), strobe_trace_get_name (trace));
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("New name"), -1);
  area = gtk_message_dialog_get_message_area (GTK_MESSAGE_DIALOG (dialog));
  gtk_box_append (GTK_BOX (area), entry);
  g_object_set_data_full (G_OBJECT (dialog), "trace-id", g_strdup (strobe_trace_get_id (trace)), g_free);
  g_object_set_data (G_OBJECT (dialog), "entry", entry);
  g_signal_connect_object (dialog, "response", G_CALLBACK (rename_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
delete_response_cb (GtkDialog *dialog,
                    int        response,
                    gpointer   user_data)
{
  StrobeBrowserView *self = user_data;
  const char *id = g_object_get_data (G_OBJECT (dialog), "trace-id");
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT && self->store != NULL &&
      !strobe_store_delete_trace (self->store, id, &error))
    show_error (self, _("Could not delete the trace"), error);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
delete_clicked_cb (StrobeBrowserView *self)
{
  StrobeTrace *trace = get_selected (self);
  GtkWidget *dialog, *button;

  if (trace == NULL)
    return;
  if (strobe_trace_get_external (trace))
    {
      g_autoptr(GError) error = NULL;

      /* Nothing is lost (opening the file lists it again): no question. */
      if (!strobe_store_delete_trace (self->store, strobe_trace_get_id (trace), &error))
        show_error (self, _("Could not remove the trace from the list"), error);
      return;
    }
  dialog = gtk_message_dialog_new (get_window (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_WARNING, GTK_BUTTONS_NONE,
                                   _("Delete “%s”?"), strobe_trace_get_name (trace));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("The trace file is removed from the store. This cannot be undone."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  button = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Delete"), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class (button, "destructive-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  g_object_set_data_full (G_OBJECT (dialog), "trace-id", g_strdup (strobe_trace_get_id (trace)), g_free);
  g_signal_connect_object (dialog, "response", G_CALLBACK (delete_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
show_folder_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(StrobeBrowserView) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_app_info_launch_default_for_uri_finish (result, &error))
    show_error (self, _("Could not show the folder"), error);
}

static void
folder_clicked_cb (StrobeBrowserView *self)
{
  StrobeTrace *trace = get_selected (self);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) parent = NULL;
  g_autofree char *uri = NULL;

  if (trace == NULL)
    return;
  file = g_file_new_for_path (strobe_trace_get_path (trace));
  parent = g_file_get_parent (file);
  uri = g_file_get_uri (parent);
  g_app_info_launch_default_for_uri_async (uri, NULL, NULL, show_folder_cb, g_object_ref (self));
}

/* ---- public ---------------------------------------------------------------------------- */

void
strobe_browser_view_set_store (StrobeBrowserView *self,
                               StrobeStore       *store,
                               const GError      *error)
{
  GListModel *traces;

  g_return_if_fail (STROBE_IS_BROWSER_VIEW (self));
  g_return_if_fail (store == NULL || STROBE_IS_STORE (store));

  g_set_object (&self->store, store);

  if (store != NULL)
    {
      g_autofree char *footer = g_strdup_printf (_("Traces in %s"), strobe_store_get_directory (store));

      traces = g_object_ref (strobe_store_get_traces (store));
      gtk_label_set_text (self->footer_label, footer);
    }
  else
    {
      traces = G_LIST_MODEL (g_list_store_new (STROBE_TYPE_TRACE));
      gtk_label_set_text (self->footer_label, "");
    }
  /* Only a real failure is shown, with what failed. No store and no error is "not given a
   * store yet" (a new view): nothing to say — an "unknown error" there stayed in the hidden
   * info bar's label, which a screen reader still read (issue 24 item 18). */
  if (store == NULL && error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The trace store could not be opened: %s"), error->message);

      gtk_label_set_text (self->store_error_label, text);
      strobe_a11y_show_info_bar (self->store_bar, TRUE);
    }
  else
    {
      gtk_label_set_text (self->store_error_label, "");
      strobe_a11y_show_info_bar (self->store_bar, FALSE);
    }

  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  {
    /* The table's filtered, sorted list, under a selection of several (Ctrl+click). */
    GtkSingleSelection *single = strobe_table_set_model (self->column_view, traces,
                                                         GTK_FILTER (g_object_ref (self->filter)));

    self->selection = gtk_multi_selection_new (g_object_ref (gtk_single_selection_get_model (single)));
    gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
    g_object_unref (self->selection);   /* the column view holds it */
  }
  g_signal_connect_object (self->selection, "selection-changed",
                           G_CALLBACK (update_sensitivity), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->selection, "items-changed",
                           G_CALLBACK (update_empty), self, G_CONNECT_SWAPPED);
  update_sensitivity (self);
  update_empty (self);
}

void
strobe_browser_view_set_recorder (StrobeBrowserView *self,
                                  guint16            port,
                                  const GError      *error)
{
  g_return_if_fail (STROBE_IS_BROWSER_VIEW (self));

  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Programs cannot stream traces to this viewer: %s"),
                                               error->message);

      gtk_label_set_text (self->recorder_error_label, text);
    }
  strobe_a11y_show_info_bar (self->recorder_bar, error != NULL);
  self->recorder_port = port;
  update_empty (self);
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  gtk_widget_grab_focus (GTK_WIDGET (STROBE_BROWSER_VIEW (widget)->search_entry));
}

GListModel *
strobe_browser_view_get_model (StrobeBrowserView *self)
{
  g_return_val_if_fail (STROBE_IS_BROWSER_VIEW (self), NULL);
  return G_LIST_MODEL (self->selection);
}

static void
strobe_browser_view_dispose (GObject *object)
{
  StrobeBrowserView *self = STROBE_BROWSER_VIEW (object);

  /* Removing the columns re-sorts the list: its items-changed must not reach a page that
   * is going away. */
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_BROWSER_VIEW);
  /* The template's unnamed children too. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  self->selection = NULL;
  g_clear_object (&self->store);
  g_clear_object (&self->filter);
  g_clear_pointer (&self->search, g_free);

  G_OBJECT_CLASS (strobe_browser_view_parent_class)->dispose (object);
}

static void
strobe_browser_view_class_init (StrobeBrowserViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_browser_view_dispose;

  /**
   * StrobeBrowserView::open-trace:
   * @file: the trace file
   *
   * The user asked to open a trace (double-click, Enter or the Open button).
   */
  signals[OPEN_TRACE] = g_signal_new ("open-trace", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_FILE);
  /**
   * StrobeBrowserView::compare-traces:
   * @a: the older trace's file (the baseline)
   * @b: the newer one's
   *
   * The user asked to compare the two selected traces (the Compare button).
   */
  signals[COMPARE_TRACES] = g_signal_new ("compare-traces", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_FILE, G_TYPE_FILE);
  /**
   * StrobeBrowserView::open-group:
   * @files: (array length=n_files): the selected traces' files, oldest first
   * @n_files: how many (at least 2)
   *
   * The user asked to open the selected traces as one group tab (Open as Group).
   */
  signals[OPEN_GROUP] = g_signal_new ("open-group", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_UINT);
  /**
   * StrobeBrowserView::open-store-group:
   * @name: the group's name in the store (a session, or a group made by hand)
   *
   * The user chose a group in the Groups list.
   */
  signals[OPEN_STORE_GROUP] = g_signal_new ("open-store-group", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                            0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/browser/strobe-browser-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, recorder_bar);
  gtk_widget_class_install_action (widget_class, "view.find", NULL, find_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "view.find", NULL);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, recorder_error_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, another_port_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, store_bar);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, store_error_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, open_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, compare_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, open_group_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, group_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, groups_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, groups_popover);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, groups_list);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, rename_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, folder_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, delete_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, content_stack);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, column_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, empty_title);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, empty_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeBrowserView, footer_label);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, compare_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, open_group_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, group_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, rename_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, delete_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, folder_clicked_cb);
}

static void
strobe_browser_view_init (StrobeBrowserView *self)
{
  GtkColumnViewColumn *started;

  gtk_widget_init_template (GTK_WIDGET (self));
  strobe_a11y_fix_mnemonic_button (GTK_BUTTON (self->open_button));
  strobe_a11y_fix_mnemonic_button (GTK_BUTTON (self->compare_button));
  strobe_a11y_fix_mnemonic_button (GTK_BUTTON (self->open_group_button));
  strobe_a11y_fix_mnemonic_button (GTK_BUTTON (self->group_button));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->groups_button), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Groups"), -1);
  g_signal_connect_swapped (self->groups_popover, "show", G_CALLBACK (fill_groups), self);
  strobe_a11y_fix_mnemonic_button (GTK_BUTTON (self->another_port_button));
  /* F6 stops at the toolbar and at the list. */
  strobe_pane_mark (gtk_widget_get_parent (GTK_WIDGET (self->search_entry)));
  strobe_pane_mark (GTK_WIDGET (self->content_stack));
  strobe_table_add_columns (self->column_view, trace_columns, G_N_ELEMENTS (trace_columns));
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);

  /* Newest first, until the user clicks another column. */
  started = g_list_model_get_item (gtk_column_view_get_columns (self->column_view), 2);
  gtk_column_view_sort_by_column (self->column_view, started, GTK_SORT_DESCENDING);
  g_object_unref (started);

  strobe_browser_view_set_store (self, NULL, NULL);
  strobe_a11y_show_info_bar (self->store_bar, FALSE);
}

GtkWidget *
strobe_browser_view_new (void)
{
  return g_object_new (STROBE_TYPE_BROWSER_VIEW, NULL);
}
