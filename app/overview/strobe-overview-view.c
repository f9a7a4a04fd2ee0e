/* strobe-overview-view.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-format.h"
#include "strobe-info-row.h"
#include "strobe-metadata.h"
#include "strobe-overview-view.h"
#include "strobe-table.h"

struct _StrobeOverviewView
{
  GtkWidget        parent_instance;

  GtkLabel        *program_label;
  GtkLabel        *status_label;
  GtkWidget       *dropped_box;
  GtkLabel        *dropped_label;
  GtkGrid         *summary_grid;
  GtkGrid         *stats_grid;
  GtkStack        *tables_stack;
  GtkStackPage    *event_types_page;
  GtkStackPage    *threads_page;
  GtkStackPage    *channels_page;
  GtkSearchEntry  *event_types_search;
  GtkColumnView   *event_types_view;
  GtkColumnView   *threads_view;
  GtkColumnView   *channels_view;

  GtkStringFilter *event_types_filter;

  StrobeDocument  *document;
  GListStore      *event_types_list;
  GListStore      *threads_list;
  GListStore      *channels_list;
};

G_DEFINE_FINAL_TYPE (StrobeOverviewView, strobe_overview_view, GTK_TYPE_WIDGET)

#define ROW(item, type) ((const type *) strobe_info_row_get_data (STROBE_INFO_ROW (item)))

/* ---- event types ------------------------------------------------------------------ */

static const char *
event_type_kind (const StrobeInfoEventType *t)
{
  if (t->flags & STROBE_EVENT_FLAG_IMPORTANT)
    return C_("event kind", "important");
  if (t->flags & STROBE_EVENT_FLAG_NOSYNC)
    return C_("event kind", "no sync");
  return C_("event kind", "sync");
}

static char *et_name (gpointer i) { return g_strdup (ROW (i, StrobeInfoEventType)->full_name); }
static char *et_kind (gpointer i) { return g_strdup (event_type_kind (ROW (i, StrobeInfoEventType))); }
static char *et_uid (gpointer i) { return g_strdup_printf ("%u", ROW (i, StrobeInfoEventType)->uid); }
static char *et_fields (gpointer i) { return g_strdup_printf ("%u", ROW (i, StrobeInfoEventType)->n_fields); }
static char *et_count (gpointer i) { return strobe_format_count (ROW (i, StrobeInfoEventType)->count); }
static int et_cmp_name (gpointer a, gpointer b) { return strobe_table_compare_str (ROW (a, StrobeInfoEventType)->full_name, ROW (b, StrobeInfoEventType)->full_name); }
static int et_cmp_kind (gpointer a, gpointer b) { return strobe_table_compare_str (event_type_kind (ROW (a, StrobeInfoEventType)), event_type_kind (ROW (b, StrobeInfoEventType))); }
static int et_cmp_uid (gpointer a, gpointer b) { return strobe_table_compare_u64 (ROW (a, StrobeInfoEventType)->uid, ROW (b, StrobeInfoEventType)->uid); }
static int et_cmp_fields (gpointer a, gpointer b) { return strobe_table_compare_u64 (ROW (a, StrobeInfoEventType)->n_fields, ROW (b, StrobeInfoEventType)->n_fields); }
static int et_cmp_count (gpointer a, gpointer b) { return strobe_table_compare_u64 (ROW (a, StrobeInfoEventType)->count, ROW (b, StrobeInfoEventType)->count); }

static const StrobeTableColumn event_type_columns[] = {
  { N_("Event Type"), et_name, et_cmp_name, 28, FALSE, TRUE },
  { N_("Kind"), et_kind, et_cmp_kind, 10, FALSE, FALSE },
  { N_("UID"), et_uid, et_cmp_uid, 5, TRUE, FALSE },
  { N_("Fields"), et_fields, et_cmp_fields, 6, TRUE, FALSE },
  { N_("Count"), et_count, et_cmp_count, 12, TRUE, FALSE },
};

/* ---- threads ------------------------------------------------------------------------ */

static char *th_id (gpointer i) { return g_strdup_printf ("%u", ROW (i, StrobeInfoThread)->id); }
static char *th_name (gpointer i) { const char *n = ROW (i, StrobeInfoThread)->name; return g_strdup (n ? n : _("(unnamed)")); }
static char *th_system_id (gpointer i) { return g_strdup_printf ("%" G_GUINT64_FORMAT, ROW (i, StrobeInfoThread)->system_id); }
static char *th_group (gpointer i) { const char *g = ROW (i, StrobeInfoThread)->group; return g_strdup (g && *g ? g : "—"); }
static char *th_events (gpointer i) { return strobe_format_count (ROW (i, StrobeInfoThread)->events); }
static char *th_state (gpointer i) { return g_strdup (ROW (i, StrobeInfoThread)->ended ? C_("thread", "ended") : C_("thread", "running")); }
static int th_cmp_id (gpointer a, gpointer b) { return strobe_table_compare_u64 (ROW (a, StrobeInfoThread)->id, ROW (b, StrobeInfoThread)->id); }
static int th_cmp_name (gpointer a, gpointer b) { return strobe_table_compare_str (ROW (a, StrobeInfoThread)->name, ROW (b, StrobeInfoThread)->name); }
static int th_cmp_system_id (gpointer a, gpointer b) { return strobe_table_compare_u64 (ROW (a, StrobeInfoThread)->system_id, ROW (b, StrobeInfoThread)->system_id); }
static int th_cmp_group (gpointer a, gpointer b) { return strobe_table_compare_str (ROW (a, StrobeInfoThread)->group, ROW (b, StrobeInfoThread)->group); }
static int th_cmp_events (gpointer a, gpointer b) { return strobe_table_compare_u64 (ROW (a, StrobeInfoThread)->events, ROW (b, StrobeInfoThread)->events); }
static int th_cmp_state (gpointer a, gpointer b) { return strobe_table_compare_u64 (ROW (a, StrobeInfoThread)->ended, ROW (b, StrobeInfoThread)->ended); }

static const StrobeTableColumn thread_columns[] = {
  { N_("ID"), th_id, th_cmp_id, 5, TRUE, FALSE },
  { N_("Name"), th_name, th_cmp_name, 20, FALSE, TRUE },
  { N_("System ID"), th_system_id, th_cmp_system_id, 10, TRUE, FALSE },
  { N_("Group"), th_group, th_cmp_group, 10, FALSE, FALSE },
  { N_("Events"), th_events, th_cmp_events, 12, TRUE, FALSE },
  { N_("State"), th_state, th_cmp_state, 8, FALSE, FALSE },
};

/* ---- channels ------------------------------------------------------------------------ */

static char *ch_name (gpointer i) { const char *n = ROW (i, StrobeInfoChannel)->name; return g_strdup (n ? n : "?"); }
static char *ch_id (gpointer i) { return g_strdup_printf ("0x%08x", ROW (i, StrobeInfoChannel)->id); }
static char *ch_state (gpointer i) { return g_strdup (ROW (i, StrobeInfoChannel)->enabled ? C_("channel", "enabled") : C_("channel", "disabled")); }
static char *ch_toggles (gpointer i) { return g_strdup_printf ("%u", ROW (i, StrobeInfoChannel)->toggles); }
static int ch_cmp_name (gpointer a, gpointer b) { return strobe_table_compare_str (ROW (a, StrobeInfoChannel)->name, ROW (b, StrobeInfoChannel)->name); }
static int ch_cmp_id (gpointer a, gpointer b) { return strobe_table_compare_u64 (ROW (a, StrobeInfoChannel)->id, ROW (b, StrobeInfoChannel)->id); }
static int ch_cmp_state (gpointer a, gpointer b) { return strobe_table_compare_u64 (ROW (a, StrobeInfoChannel)->enabled, ROW (b, StrobeInfoChannel)->enabled); }
static int ch_cmp_toggles (gpointer a, gpointer b) { return strobe_table_compare_u64 (ROW (a, StrobeInfoChannel)->toggles, ROW (b, StrobeInfoChannel)->toggles); }

static const StrobeTableColumn channel_columns[] = {
  { N_("Channel"), ch_name, ch_cmp_name, 20, FALSE, TRUE },
  { N_("ID"), ch_id, ch_cmp_id, 10, TRUE, FALSE },
  { N_("State"), ch_state, ch_cmp_state, 8, FALSE, FALSE },
  { N_("Toggles"), ch_toggles, ch_cmp_toggles, 7, TRUE, FALSE },
};

/* ---- summary ------------------------------------------------------------------------- */

static char *
event_type_filter_key (StrobeInfoRow *row,
                       gpointer       user_data)
{
  return g_strdup (((const StrobeInfoEventType *) strobe_info_row_get_data (row))->full_name);
}

static void
event_types_search_changed_cb (StrobeOverviewView *self,
                               GtkSearchEntry     *entry)
{
  gtk_string_filter_set_search (self->event_types_filter,
                                gtk_editable_get_text (GTK_EDITABLE (entry)));
}

/* A "key  value" row; the value is labelled by the key for screen readers. */
static GtkLabel *
add_row (GtkGrid    *grid,
         int         row,
         const char *key,
         const char *value)
{
  GtkWidget *key_label = gtk_label_new (key);
  GtkWidget *value_label = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (key_label), 0.0f);
  gtk_label_set_yalign (GTK_LABEL (key_label), 0.0f);
  gtk_widget_add_css_class (key_label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value_label), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_widget_set_hexpand (value_label, TRUE);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (value_label),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, key_label, NULL,
                                  -1);
  gtk_grid_attach (grid, key_label, 0, row, 1, 1);
  gtk_grid_attach (grid, value_label, 1, row, 1, 1);
  return GTK_LABEL (value_label);
}

static void
add_count_row (GtkGrid    *grid,
               int         row,
               const char *key,
               guint64     value)
{
  g_autofree char *text = strobe_format_count (value);

  add_row (grid, row, key, text);
}

static void
set_status (StrobeOverviewView *self,
            StrobeDocument     *document)
{
  const char *text = NULL;
  const char *css = NULL;

  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "warning");
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "live");
  switch (strobe_document_get_status (document))
    {
    case STROBE_DOCUMENT_STATUS_LIVE:      text = _("Live"); css = "live"; break;
    case STROBE_DOCUMENT_STATUS_FINISHED:  text = _("Finished"); css = "success"; break;
    case STROBE_DOCUMENT_STATUS_CUT_OFF:   text = _("Cut off"); css = "warning"; break;
    case STROBE_DOCUMENT_STATUS_DAMAGED:   text = _("Damaged"); css = "error"; break;
    case STROBE_DOCUMENT_STATUS_CANCELLED: text = _("Partly loaded"); css = "warning"; break;
    case STROBE_DOCUMENT_STATUS_FAILED:    text = _("Unreadable"); css = "error"; break;
    case STROBE_DOCUMENT_STATUS_NEW:
    case STROBE_DOCUMENT_STATUS_LOADING:
    default:                               text = _("Loading"); break;
    }
  gtk_label_set_text (self->status_label, text);
  if (css)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), css);
}

static const char *
status_description (StrobeDocument *document)
{
  switch (strobe_document_get_status (document))
    {
    case STROBE_DOCUMENT_STATUS_LIVE:
      return _("Live: the program is still sending");
    case STROBE_DOCUMENT_STATUS_FINISHED:
      return _("Finished: the program ended the trace");
    case STROBE_DOCUMENT_STATUS_CUT_OFF:
      return _("Cut off: no end marker, the program or the recorder stopped");
    case STROBE_DOCUMENT_STATUS_DAMAGED:
      return _("Damaged: only the part before the error was read");
    case STROBE_DOCUMENT_STATUS_CANCELLED:
      return _("Partly loaded: loading was cancelled");
    case STROBE_DOCUMENT_STATUS_FAILED:
      return _("Unreadable");
    case STROBE_DOCUMENT_STATUS_NEW:
    case STROBE_DOCUMENT_STATUS_LOADING:
    default:
      return _("Loading");
    }
}

static void
clear_grid (GtkGrid *grid)
{
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL;)
    gtk_grid_remove (grid, child);
}

static void
fill_summary (StrobeOverviewView *self,
              StrobeDocument     *document,
              StrobeInfoAnalyzer *info)
{
  const StrobeWireMetadata *meta = strobe_info_analyzer_get_metadata (info);
  StrobeDecoderStats dstats;
  guint64 first, last;
  int row = 0;

  strobe_document_get_decoder_stats (document, &dstats);

  if (meta != NULL)
    {
      g_autofree char *program = g_utf8_make_valid (meta->program_name, (gssize) meta->program_name_len);
      g_autofree char *cmdline = strobe_metadata_dup_command_line (meta);
      g_autofree char *pid = g_strdup_printf ("%u", meta->process_id);
      g_autofree char *start = strobe_format_wall_time (meta->start_time_ns);
      g_autofree char *duration = NULL;
      g_autofree char *clock = NULL;
      g_autofree char *frequency = strobe_format_count (meta->clock_frequency);

      if (strobe_info_analyzer_get_time_range (info, &first, &last) && meta->clock_frequency)
        duration = strobe_format_duration_s ((double) (last - first) / (double) meta->clock_frequency);
      else
        duration = g_strdup (_("unknown (no timestamps)"));
      /* Translators: clock frequency in Hz, then the clock's kind */
      clock = g_strdup_printf (_("%s Hz (%s)"), frequency, strobe_metadata_clock_source_name (meta->clock_source));

      gtk_label_set_text (self->program_label, program);
      add_row (self->summary_grid, row++, _("Program"), program);
      add_row (self->summary_grid, row++, _("Command line"), *cmdline ? cmdline : "—");
      add_row (self->summary_grid, row++, _("Process ID"), pid);
      add_row (self->summary_grid, row++, _("Started"), start);
      add_row (self->summary_grid, row++, _("Duration"), duration);
      add_row (self->summary_grid, row++, _("Status"), status_description (document));
      add_row (self->summary_grid, row++, _("Clock"), clock);
    }
  else
    {
      gtk_label_set_text (self->program_label, strobe_document_get_title (document));
      add_row (self->summary_grid, row++, _("Status"), status_description (document));
    }

  {
    g_autofree char *size = strobe_format_size (strobe_document_get_bytes_read (document));

    add_row (self->summary_grid, row++, _("Size read"), size);
  }
  add_count_row (self->summary_grid, row++, _("Events"), strobe_info_analyzer_get_event_count (info));
  add_count_row (self->summary_grid, row++, _("Packets"), dstats.packets);
  if (dstats.gaps || dstats.late_events)
    {
      add_count_row (self->summary_grid, row++, _("Ordering gaps"), dstats.gaps);
      add_count_row (self->summary_grid, row++, _("Late events"), dstats.late_events);
    }
}

static void
fill_stats (StrobeOverviewView *self,
            StrobeInfoAnalyzer *info)
{
  const StrobeInfoStats *stats = strobe_info_analyzer_get_stats (info);
  int row = 0;

  gtk_widget_set_visible (self->dropped_box, FALSE);

  if (!stats->valid)
    {
      add_row (self->stats_grid, 0, _("Dropped events"), _("unknown: the trace has no runtime statistics"));
      return;
    }

  add_count_row (self->stats_grid, row++, _("Events emitted"), stats->events_emitted);
  add_count_row (self->stats_grid, row++, _("Dropped events"), stats->events_dropped);
  {
    g_autofree char *emitted = strobe_format_size (stats->bytes_emitted);
    g_autofree char *sent = strobe_format_size (stats->bytes_sent);
    g_autofree char *memory = strobe_format_size (stats->buffer_memory);

    add_row (self->stats_grid, row++, _("Bytes emitted"), emitted);
    add_row (self->stats_grid, row++, _("Bytes sent"), sent);
    add_row (self->stats_grid, row++, _("Buffer memory"), memory);
  }

  if (stats->events_dropped > 0)
    {
      g_autofree char *count = strobe_format_count (stats->events_dropped);
      g_autofree char *text =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%s event was dropped by the runtime: this trace is incomplete.",
                                      "%s events were dropped by the runtime: this trace is incomplete.",
                                      (gulong) MIN (stats->events_dropped, G_MAXULONG)),
                         count);

      gtk_label_set_text (self->dropped_label, text);
      gtk_widget_set_visible (self->dropped_box, TRUE);
    }
}

static void
set_page_title (GtkStackPage *page,
                const char   *title,
                guint         count)
{
  /* Translators: a tab title and the number of rows in it, e.g. "Threads (2)" */
  g_autofree char *text = g_strdup_printf (_("%s (%u)"), title, count);

  gtk_stack_page_set_title (page, text);
}

static void
refresh (StrobeOverviewView *self)
{
  StrobeDocument *document = self->document;
  StrobeInfoAnalyzer *info = strobe_document_lock_info (document);

  set_status (self, document);
  if (info == NULL)
    return;

  clear_grid (self->summary_grid);
  clear_grid (self->stats_grid);
  fill_summary (self, document, info);
  fill_stats (self, info);

  strobe_info_row_list_update (self->event_types_list, strobe_info_analyzer_get_event_types (info),
                               strobe_info_event_type_copy, strobe_info_event_type_free);
  strobe_info_row_list_update (self->threads_list, strobe_info_analyzer_get_threads (info),
                               strobe_info_thread_copy, strobe_info_thread_free);
  strobe_info_row_list_update (self->channels_list, strobe_info_analyzer_get_channels (info),
                               strobe_info_channel_copy, strobe_info_channel_free);
  strobe_document_unlock_info (document);

  set_page_title (self->event_types_page, _("Event Types"),
                  g_list_model_get_n_items (G_LIST_MODEL (self->event_types_list)));
  set_page_title (self->threads_page, _("Threads"),
                  g_list_model_get_n_items (G_LIST_MODEL (self->threads_list)));
  set_page_title (self->channels_page, _("Channels"),
                  g_list_model_get_n_items (G_LIST_MODEL (self->channels_list)));
}

void
strobe_overview_view_set_document (StrobeOverviewView *self,
                                   StrobeDocument     *document)
{
  g_return_if_fail (STROBE_IS_OVERVIEW_VIEW (self));
  g_return_if_fail (STROBE_IS_DOCUMENT (document));
  g_return_if_fail (strobe_document_is_loaded (document) || strobe_document_is_live (document));

  if (self->document != document)
    {
      if (self->document != NULL)
        g_signal_handlers_disconnect_by_data (self->document, self);
      g_set_object (&self->document, document);
      /* A live trace grows, and one that was live ends: follow both. */
      g_signal_connect_object (document, "updated", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::status", G_CALLBACK (refresh), self, G_CONNECT_SWAPPED);
    }
  refresh (self);
}

void
strobe_overview_view_focus_search (StrobeOverviewView *self)
{
  g_return_if_fail (STROBE_IS_OVERVIEW_VIEW (self));

  gtk_stack_set_visible_child_name (self->tables_stack, "event-types");
  gtk_widget_grab_focus (GTK_WIDGET (self->event_types_search));
}

static void
strobe_overview_view_dispose (GObject *object)
{
  StrobeOverviewView *self = STROBE_OVERVIEW_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_OVERVIEW_VIEW);
  /* The template's unnamed children too. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&self->event_types_filter);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  g_clear_object (&self->event_types_list);
  g_clear_object (&self->threads_list);
  g_clear_object (&self->channels_list);

  G_OBJECT_CLASS (strobe_overview_view_parent_class)->dispose (object);
}

static void
strobe_overview_view_class_init (StrobeOverviewViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strobe_overview_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/overview/strobe-overview-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, program_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, status_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, dropped_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, dropped_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, summary_grid);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, stats_grid);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, tables_stack);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, event_types_page);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, threads_page);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, channels_page);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, event_types_search);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, event_types_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, threads_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, channels_view);
  gtk_widget_class_bind_template_callback (widget_class, event_types_search_changed_cb);
}

static void
strobe_overview_view_init (StrobeOverviewView *self)
{
  GtkExpression *expression;

  gtk_widget_init_template (GTK_WIDGET (self));

  strobe_table_add_columns (self->event_types_view, event_type_columns, G_N_ELEMENTS (event_type_columns));
  strobe_table_add_columns (self->threads_view, thread_columns, G_N_ELEMENTS (thread_columns));
  strobe_table_add_columns (self->channels_view, channel_columns, G_N_ELEMENTS (channel_columns));

  expression = gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                            G_CALLBACK (event_type_filter_key), NULL, NULL);
  self->event_types_filter = gtk_string_filter_new (expression);
  gtk_string_filter_set_match_mode (self->event_types_filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);

  self->event_types_list = g_list_store_new (STROBE_TYPE_INFO_ROW);
  self->threads_list = g_list_store_new (STROBE_TYPE_INFO_ROW);
  self->channels_list = g_list_store_new (STROBE_TYPE_INFO_ROW);
  strobe_table_set_model (self->event_types_view, g_object_ref (G_LIST_MODEL (self->event_types_list)),
                          GTK_FILTER (g_object_ref (self->event_types_filter)));
  strobe_table_set_model (self->threads_view, g_object_ref (G_LIST_MODEL (self->threads_list)), NULL);
  strobe_table_set_model (self->channels_view, g_object_ref (G_LIST_MODEL (self->channels_list)), NULL);
}

GtkWidget *
strobe_overview_view_new (void)
{
  return g_object_new (STROBE_TYPE_OVERVIEW_VIEW, NULL);
}
