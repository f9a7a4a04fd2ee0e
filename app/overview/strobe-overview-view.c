/* strobe-overview-view.c
 *
 * Every label is made once and updated in place: a live trace refreshes this page several
 * times a second, and rebuilding it would move the keyboard focus and the scroll position.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-a11y.h"
#include "strobe-format.h"
#include "strobe-info-row.h"
#include "strobe-overview-view.h"
#include "strobe-store.h"
#include "strobe-trace.h"
#include "strobe-table.h"

typedef enum
{
  ROW_PROGRAM,
  ROW_COMMAND_LINE,
  ROW_PROCESS_ID,
  ROW_STARTED,
  ROW_DURATION,
  ROW_STATUS,
  ROW_CLOCK,
  ROW_SIZE,
  ROW_EVENTS,
  ROW_PACKETS,
  ROW_GAPS,
  ROW_LATE,
  N_SUMMARY_ROWS
} SummaryRow;

typedef enum
{
  STAT_EMITTED,
  STAT_DROPPED,
  STAT_BYTES_EMITTED,
  STAT_BYTES_SENT,
  STAT_BUFFER_MEMORY,
  N_STAT_ROWS
} StatRow;

/* One row of the threads table: the thread table's entry and its event count. */
typedef struct
{
  StrobeThreadInfo info;
  guint64          events;
} ThreadRow;

struct _StrobeOverviewView
{
  StrobeView       parent_instance;

  GtkLabel        *program_label;
  GtkLabel        *status_label;
  GtkWidget       *dropped_box;
  GtkLabel        *dropped_label;
  GtkWidget       *scopes_dropped_box;
  GtkLabel        *scopes_dropped_label;
  GtkGrid         *summary_grid;
  GtkGrid         *stats_grid;
  GtkLabel        *stats_missing_label;
  GtkStack        *tables_stack;
  GtkStackSwitcher *tables_switcher;
  GtkStackPage    *event_types_page;
  GtkStackPage    *threads_page;
  GtkStackPage    *channels_page;
  GtkSearchEntry  *event_types_search;
  GtkColumnView   *event_types_view;
  GtkColumnView   *threads_view;
  GtkColumnView   *channels_view;

  GtkStringFilter *event_types_filter;
  GtkWidget       *summary_keys[N_SUMMARY_ROWS];
  GtkLabel        *summary[N_SUMMARY_ROWS];
  GtkWidget       *stat_keys[N_STAT_ROWS];
  GtkLabel        *stats[N_STAT_ROWS];

  GListStore      *event_types_list;
  GListStore      *threads_list;
  GListStore      *channels_list;
};

G_DEFINE_FINAL_TYPE (StrobeOverviewView, strobe_overview_view, STROBE_TYPE_VIEW)

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

static gpointer
thread_row_copy (gpointer src)
{
  const ThreadRow *from = src;
  ThreadRow *row = g_memdup2 (from, sizeof *row);

  row->info.name = g_strdup (from->info.name);
  row->info.group = g_strdup (from->info.group);
  return row;
}

static void
thread_row_free (gpointer data)
{
  ThreadRow *row = data;

  strobe_thread_info_clear (&row->info);
  g_free (row);
}

#define TH(i) (&ROW (i, ThreadRow)->info)

static char *th_id (gpointer i) { return g_strdup_printf ("%u", TH (i)->id); }
static char *th_name (gpointer i) { return g_strdup (*TH (i)->name ? TH (i)->name : _("(unnamed)")); }
static char *th_system_id (gpointer i) { return g_strdup_printf ("%" G_GUINT64_FORMAT, TH (i)->system_id); }
static char *th_group (gpointer i) { return g_strdup (*TH (i)->group ? TH (i)->group : "—"); }
static char *th_events (gpointer i) { return strobe_format_count (ROW (i, ThreadRow)->events); }
static char *th_state (gpointer i) { return g_strdup (strobe_thread_state_to_string (TH (i)->state)); }
static int th_cmp_id (gpointer a, gpointer b) { return strobe_table_compare_u64 (TH (a)->id, TH (b)->id); }
static int th_cmp_name (gpointer a, gpointer b) { return strobe_table_compare_str (TH (a)->name, TH (b)->name); }
static int th_cmp_system_id (gpointer a, gpointer b) { return strobe_table_compare_u64 (TH (a)->system_id, TH (b)->system_id); }
static int th_cmp_group (gpointer a, gpointer b) { return strobe_table_compare_str (TH (a)->group, TH (b)->group); }
static int th_cmp_events (gpointer a, gpointer b) { return strobe_table_compare_u64 (ROW (a, ThreadRow)->events, ROW (b, ThreadRow)->events); }
static int th_cmp_state (gpointer a, gpointer b) { return strobe_table_compare_u64 (TH (a)->state, TH (b)->state); }

static const StrobeTableColumn thread_columns[] = {
  { N_("Name"), th_name, th_cmp_name, 20, FALSE, TRUE },
  { N_("ID"), th_id, th_cmp_id, 5, TRUE, FALSE },
  { N_("System ID"), th_system_id, th_cmp_system_id, 10, TRUE, FALSE },
  { N_("Group"), th_group, th_cmp_group, 10, FALSE, FALSE },
  { N_("Events"), th_events, th_cmp_events, 12, TRUE, FALSE },
  { N_("State"), th_state, th_cmp_state, 14, FALSE, FALSE },
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

/* A "key  value" row, made once. The value is labelled by its key for screen readers;
 * it can be selected with the mouse but is not a Tab stop. */
static GtkLabel *
make_row (GtkGrid     *grid,
          int          row,
          const char  *key,
          const char  *tooltip,
          GtkWidget  **key_out)
{
  GtkWidget *key_label = gtk_label_new (key);
  GtkWidget *value_label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (key_label), 0.0f);
  gtk_label_set_yalign (GTK_LABEL (key_label), 0.0f);
  gtk_widget_add_css_class (key_label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value_label), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (value_label), PANGO_WRAP_WORD_CHAR);
  strobe_a11y_make_copyable (GTK_LABEL (value_label));
  gtk_widget_set_hexpand (value_label, TRUE);
  if (tooltip)
    {
      gtk_widget_set_tooltip_text (key_label, tooltip);
      gtk_widget_set_tooltip_text (value_label, tooltip);
    }
  gtk_accessible_update_relation (GTK_ACCESSIBLE (value_label),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, key_label, NULL,
                                  -1);
  gtk_grid_attach (grid, key_label, 0, row, 1, 1);
  gtk_grid_attach (grid, value_label, 1, row, 1, 1);
  *key_out = key_label;
  return GTK_LABEL (value_label);
}

static void
show_row (GtkWidget *key, GtkLabel *value, const char *text)
{
  gtk_widget_set_visible (key, text != NULL);
  gtk_widget_set_visible (GTK_WIDGET (value), text != NULL);
  if (text != NULL && g_strcmp0 (gtk_label_get_text (value), text) != 0)
    gtk_label_set_text (value, text);
}

static void
set_summary (StrobeOverviewView *self, SummaryRow row, const char *text)
{
  show_row (self->summary_keys[row], self->summary[row], text);
}

static void
set_summary_count (StrobeOverviewView *self, SummaryRow row, guint64 n)
{
  g_autofree char *text = strobe_format_count (n);

  set_summary (self, row, text);
}

static void
set_stat (StrobeOverviewView *self, StatRow row, char *text /* owned */)
{
  show_row (self->stat_keys[row], self->stats[row], text);
  g_free (text);
}

/* Whether the user ended this recording (the Stop button, or the viewer closed while it
 * recorded): the program's End or the cut then says nothing about the program. */
static gboolean
stopped_by_user (StrobeDocument *document)
{
  StrobeDocumentStatus status = strobe_document_get_status (document);
  StrobeStore *store = strobe_document_get_store (document);
  const char *id = strobe_document_get_trace_id (document);
  StrobeTrace *trace;

  if (status != STROBE_DOCUMENT_STATUS_FINISHED && status != STROBE_DOCUMENT_STATUS_CUT_OFF)
    return FALSE;
  trace = store && id ? strobe_store_lookup_trace (store, id) : NULL;
  return trace != NULL && strobe_trace_get_stopped (trace);
}

static void
set_status (StrobeOverviewView *self,
            StrobeDocument     *document)
{
  static const char *const classes[] = { "success", "warning", "error", "live" };
  const char *text = NULL;
  const char *css = NULL;

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
  if (stopped_by_user (document))
    {
      /* Translators: a recording the user ended (the Stop button, or the viewer was closed) */
      text = C_("trace status", "Stopped");
      css = "success";
    }
  gtk_label_set_text (self->status_label, text);
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    if (g_strcmp0 (classes[i], css) != 0)
      gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), classes[i]);
  if (css)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), css);
}

static const char *
status_description (StrobeDocument *document)
{
  if (stopped_by_user (document))
    return _("Stopped: you ended the recording; the program went on running");
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
fill_summary (StrobeOverviewView *self,
              StrobeDocument     *document)
{
  const StrobeWireMetadata *meta = strobe_document_get_metadata (document);
  StrobeDecoderStats dstats;
  StrobeTraceClock clock;
  guint64 first, last;

  strobe_document_get_decoder_stats (document, &dstats);
  strobe_document_get_clock (document, &clock);

  if (meta != NULL)
    {
      g_autofree char *program = g_utf8_make_valid (meta->program_name, (gssize) meta->program_name_len);
      g_autofree char *cmdline = strobe_metadata_dup_command_line (meta);
      g_autofree char *pid = g_strdup_printf ("%u", meta->process_id);
      g_autofree char *start = strobe_format_wall_time (meta->start_time_ns);
      g_autofree char *duration = NULL;
      g_autofree char *clock_text = NULL;
      g_autofree char *frequency = strobe_format_count (meta->clock_frequency);

      if (strobe_document_get_extent (document, &first, &last))
        {
          duration = strobe_format_duration_s (strobe_trace_clock_duration (&clock, last - first));
          /* A trace still read or recorded is longer than its extent so far: the 5 s shown
           * ten seconds into reading a minute's capture read as its length. */
          if (!strobe_document_is_loaded (document))
            {
              /* Translators: a trace's duration while it is still read or recorded */
              char *so_far = g_strdup_printf (_("%s so far"), duration);

              g_free (duration);
              duration = so_far;
            }
        }
      else
        duration = g_strdup (_("unknown (no timestamps)"));
      if (clock.frequency_valid)
        /* Translators: clock frequency in Hz, then the clock's kind */
        clock_text = g_strdup_printf (_("%s Hz (%s)"), frequency, strobe_metadata_clock_source_name (meta->clock_source));
      else
        /* Translators: an unusable clock frequency in Hz, then the clock's kind */
        clock_text = g_strdup_printf (_("%s Hz (%s) — not a usable frequency: times assume 1 GHz"),
                                      frequency, strobe_metadata_clock_source_name (meta->clock_source));

      if (g_strcmp0 (gtk_label_get_text (self->program_label), program) != 0)
        gtk_label_set_text (self->program_label, program);
      set_summary (self, ROW_PROGRAM, program);
      set_summary (self, ROW_COMMAND_LINE, *cmdline ? cmdline : "—");
      set_summary (self, ROW_PROCESS_ID, pid);
      set_summary (self, ROW_STARTED, start);
      set_summary (self, ROW_DURATION, duration);
      set_summary (self, ROW_CLOCK, clock_text);
    }
  else
    {
      gtk_label_set_text (self->program_label, strobe_document_get_title (document));
      for (SummaryRow r = ROW_PROGRAM; r <= ROW_CLOCK; r++)
        if (r != ROW_STATUS)
          set_summary (self, r, NULL);
    }
  set_summary (self, ROW_STATUS, status_description (document));

  {
    guint64 read = strobe_document_get_bytes_read (document);
    guint64 total = strobe_document_get_bytes_total (document);
    g_autofree char *size = strobe_format_size (read);

    /* While a file loads, how far: the page a user watches during a long load. */
    if (strobe_document_get_status (document) == STROBE_DOCUMENT_STATUS_LOADING && total > read)
      {
        g_autofree char *of = strobe_format_size (total);
        /* Translators: loading progress, e.g. "1.2 MB of 40 MB" */
        char *both = g_strdup_printf (_("%s of %s"), size, of);

        g_free (size);
        size = both;
      }
    set_summary (self, ROW_SIZE, size);
  }
  set_summary_count (self, ROW_EVENTS, strobe_info_analyzer_get_event_count (strobe_document_get_info (document)));
  set_summary_count (self, ROW_PACKETS, dstats.packets);
  if (dstats.gaps || dstats.late_events)
    {
      set_summary_count (self, ROW_GAPS, dstats.gaps);
      set_summary_count (self, ROW_LATE, dstats.late_events);
    }
  else
    {
      set_summary (self, ROW_GAPS, NULL);
      set_summary (self, ROW_LATE, NULL);
    }
}

/* What the timeline model did not keep of a hostile or runaway trace (its nesting caps). */
static void
fill_scopes_dropped (StrobeOverviewView *self,
                     StrobeDocument     *document)
{
  StrobeTimelineStats ts;
  guint64 dropped;

  strobe_timeline_model_get_stats (strobe_document_get_timeline (document), &ts);
  dropped = ts.depth_overflows + ts.budget_overflows;
  gtk_widget_set_visible (self->scopes_dropped_box, dropped > 0 || ts.memory_overflows > 0);
  if (ts.memory_overflows > 0)
    {
      /* Before the nesting caps: it is what a user of a big trace needs to know. */
      g_autofree char *count = strobe_format_count (ts.memory_overflows);
      g_autofree char *budget = strobe_format_count (ts.memory_budget >> 20);
      g_autofree char *text =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%s scope was not kept: the timeline reached its memory budget of "
                                      "%s MiB (half the memory available when the trace was opened, less when "
                                      "the machine or this process's limits had no more room as it was read).",
                                      "%s scopes were not kept: the timeline reached its memory budget of "
                                      "%s MiB (half the memory available when the trace was opened, less when "
                                      "the machine or this process's limits had no more room as it was read).",
                                      (gulong) MIN (ts.memory_overflows, G_MAXULONG)),
                         count, budget);

      gtk_label_set_text (self->scopes_dropped_label, text);
    }
  else if (dropped > 0)
    {
      g_autofree char *count = strobe_format_count (dropped);
      g_autofree char *text =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%s scope was not kept: nested deeper than %d levels on a thread "
                                      "or %d on all threads together.",
                                      "%s scopes were not kept: nested deeper than %d levels on a thread "
                                      "or %d on all threads together.",
                                      (gulong) MIN (dropped, G_MAXULONG)),
                         count, STROBE_TIMELINE_MAX_DEPTH, STROBE_TIMELINE_MAX_LEVELS);

      gtk_label_set_text (self->scopes_dropped_label, text);
    }
}

static void
fill_stats (StrobeOverviewView *self,
            StrobeDocument     *document)
{
  StrobeInfoStats stats;

  strobe_info_analyzer_get_stats (strobe_document_get_info (document), &stats);
  gtk_widget_set_visible (GTK_WIDGET (self->stats_missing_label), !stats.valid);
  gtk_widget_set_visible (GTK_WIDGET (self->stats_grid), stats.valid);
  gtk_widget_set_visible (self->dropped_box, stats.valid && stats.events_dropped > 0);
  if (!stats.valid)
    return;

  set_stat (self, STAT_EMITTED, strobe_format_count (stats.events_emitted));
  set_stat (self, STAT_DROPPED, strobe_format_count (stats.events_dropped));
  set_stat (self, STAT_BYTES_EMITTED, strobe_format_size (stats.bytes_emitted));
  set_stat (self, STAT_BYTES_SENT, strobe_format_size (stats.bytes_sent));
  set_stat (self, STAT_BUFFER_MEMORY, strobe_format_size (stats.buffer_memory));

  if (stats.events_dropped > 0)
    {
      g_autofree char *count = strobe_format_count (stats.events_dropped);
      g_autofree char *text =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                      "%s event was dropped by the runtime: this trace is incomplete.",
                                      "%s events were dropped by the runtime: this trace is incomplete.",
                                      (gulong) MIN (stats.events_dropped, G_MAXULONG)),
                         count);

      gtk_label_set_text (self->dropped_label, text);
    }
}

/* Takes @text. */
static void
set_page_title (GtkStackPage *page,
                char         *text)
{
  if (g_strcmp0 (gtk_stack_page_get_title (page), text) != 0)
    gtk_stack_page_set_title (page, text);
  g_free (text);
}

static void
strobe_overview_view_document_changed (StrobeView            *view,
                                       StrobeDocumentChanges  changes)
{
  StrobeOverviewView *self = STROBE_OVERVIEW_VIEW (view);
  StrobeDocument *document = strobe_view_get_document (view);
  StrobeInfoAnalyzer *info = strobe_document_get_info (document);

  set_status (self, document);
  fill_summary (self, document);
  fill_stats (self, document);
  fill_scopes_dropped (self, document);

  if (changes & STROBE_DOCUMENT_CHANGED_INFO)
    {
      g_autoptr(GPtrArray) types = strobe_info_analyzer_dup_event_types (info);
      g_autoptr(GPtrArray) channels = strobe_info_analyzer_dup_channels (info);

      strobe_info_row_list_update (self->event_types_list, types,
                                   strobe_info_event_type_copy, strobe_info_event_type_free);
      strobe_info_row_list_update (self->channels_list, channels,
                                   strobe_info_channel_copy, strobe_info_channel_free);
    }
  if (changes & (STROBE_DOCUMENT_CHANGED_THREADS | STROBE_DOCUMENT_CHANGED_INFO))
    {
      g_autoptr(GArray) threads = strobe_threads_model_get_threads (strobe_document_get_threads (document));
      g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_free);

      /* Shallow rows: the list copies them (strings included) while @threads lives. */
      for (guint i = 0; i < threads->len; i++)
        {
          ThreadRow *row = g_new0 (ThreadRow, 1);

          row->info = g_array_index (threads, StrobeThreadInfo, i);
          row->events = strobe_info_analyzer_get_thread_events (info, row->info.id);
          g_ptr_array_add (rows, row);
        }
      strobe_info_row_list_update (self->threads_list, rows, thread_row_copy, thread_row_free);
    }

  /* One message per tab, the count inside: where the mnemonic goes and how the count is
   * set off are the language's ("事件类型 (27)(_E)", not "事件类型(_E)（27）"). */
  /* Translators: a tab title with its mnemonic and the number of rows in it */
  set_page_title (self->event_types_page, g_strdup_printf (_("_Event Types (%u)"),
                                                           g_list_model_get_n_items (G_LIST_MODEL (self->event_types_list))));
  /* Translators: a tab title with its mnemonic and the number of rows in it */
  set_page_title (self->threads_page, g_strdup_printf (_("T_hreads (%u)"),
                                                       g_list_model_get_n_items (G_LIST_MODEL (self->threads_list))));
  /* Translators: a tab title with its mnemonic and the number of rows in it */
  set_page_title (self->channels_page, g_strdup_printf (_("Channe_ls (%u)"),
                                                        g_list_model_get_n_items (G_LIST_MODEL (self->channels_list))));
  strobe_a11y_fix_stack_switcher (self->tables_switcher);
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  StrobeOverviewView *self = STROBE_OVERVIEW_VIEW (widget);

  gtk_stack_set_visible_child_name (self->tables_stack, "event-types");
  gtk_widget_grab_focus (GTK_WIDGET (self->event_types_search));
}

static void
strobe_overview_view_dispose (GObject *object)
{
  StrobeOverviewView *self = STROBE_OVERVIEW_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_OVERVIEW_VIEW);
  g_clear_object (&self->event_types_filter);
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
  StrobeViewClass *view_class = STROBE_VIEW_CLASS (klass);

  object_class->dispose = strobe_overview_view_dispose;
  view_class->document_changed = strobe_overview_view_document_changed;
  strobe_view_class_set_page (view_class, "overview", N_("Overview"), "dialog-information-symbolic", 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/overview/strobe-overview-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, program_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, status_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, dropped_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, dropped_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, scopes_dropped_box);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, scopes_dropped_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, summary_grid);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, stats_grid);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, stats_missing_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, tables_stack);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, tables_switcher);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, event_types_page);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, threads_page);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, channels_page);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, event_types_search);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, event_types_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, threads_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeOverviewView, channels_view);
  gtk_widget_class_bind_template_callback (widget_class, event_types_search_changed_cb);

  gtk_widget_class_install_action (widget_class, "view.find", NULL, find_action);
}

static void
strobe_overview_view_init (StrobeOverviewView *self)
{
  GtkExpression *expression;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->summary[ROW_PROGRAM] = make_row (self->summary_grid, ROW_PROGRAM, _("Program"), NULL, &self->summary_keys[ROW_PROGRAM]);
  self->summary[ROW_COMMAND_LINE] = make_row (self->summary_grid, ROW_COMMAND_LINE, _("Command line"), NULL, &self->summary_keys[ROW_COMMAND_LINE]);
  self->summary[ROW_PROCESS_ID] = make_row (self->summary_grid, ROW_PROCESS_ID, _("Process ID"), NULL, &self->summary_keys[ROW_PROCESS_ID]);
  self->summary[ROW_STARTED] = make_row (self->summary_grid, ROW_STARTED, _("Started"), NULL, &self->summary_keys[ROW_STARTED]);
  self->summary[ROW_DURATION] = make_row (self->summary_grid, ROW_DURATION, _("Duration"),
                                          _("From the first to the last event of the trace"), &self->summary_keys[ROW_DURATION]);
  self->summary[ROW_STATUS] = make_row (self->summary_grid, ROW_STATUS, _("Status"), NULL, &self->summary_keys[ROW_STATUS]);
  self->summary[ROW_CLOCK] = make_row (self->summary_grid, ROW_CLOCK, _("Clock"), NULL, &self->summary_keys[ROW_CLOCK]);
  self->summary[ROW_SIZE] = make_row (self->summary_grid, ROW_SIZE, _("Size read"), NULL, &self->summary_keys[ROW_SIZE]);
  self->summary[ROW_EVENTS] = make_row (self->summary_grid, ROW_EVENTS, _("Events decoded"),
                                        _("Every event read from the trace, including the definitions, names and call stacks the runtime sends besides what the program emitted"),
                                        &self->summary_keys[ROW_EVENTS]);
  self->summary[ROW_PACKETS] = make_row (self->summary_grid, ROW_PACKETS, _("Packets"), NULL, &self->summary_keys[ROW_PACKETS]);
  self->summary[ROW_GAPS] = make_row (self->summary_grid, ROW_GAPS, _("Ordering gaps"),
                                      _("Serial numbers that never arrived: events from before a late connect, or lost"),
                                      &self->summary_keys[ROW_GAPS]);
  self->summary[ROW_LATE] = make_row (self->summary_grid, ROW_LATE, _("Late events"),
                                      _("Events that arrived after their place in the order had been given up"),
                                      &self->summary_keys[ROW_LATE]);
  self->stats[STAT_EMITTED] = make_row (self->stats_grid, STAT_EMITTED, _("Events emitted"),
                                        _("Events the program's instrumentation emitted, as the runtime counted them; records the runtime adds itself (definitions, call stacks) are not counted"),
                                        &self->stat_keys[STAT_EMITTED]);
  self->stats[STAT_DROPPED] = make_row (self->stats_grid, STAT_DROPPED, _("Dropped events"),
                                        _("Events the runtime could not send because its buffers were full"),
                                        &self->stat_keys[STAT_DROPPED]);
  self->stats[STAT_BYTES_EMITTED] = make_row (self->stats_grid, STAT_BYTES_EMITTED, _("Bytes emitted"), NULL, &self->stat_keys[STAT_BYTES_EMITTED]);
  self->stats[STAT_BYTES_SENT] = make_row (self->stats_grid, STAT_BYTES_SENT, _("Bytes sent"),
                                           _("After compression"), &self->stat_keys[STAT_BYTES_SENT]);
  self->stats[STAT_BUFFER_MEMORY] = make_row (self->stats_grid, STAT_BUFFER_MEMORY, _("Buffer memory"), NULL, &self->stat_keys[STAT_BUFFER_MEMORY]);

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
