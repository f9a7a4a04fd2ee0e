/* strobe-compare-view.c — the comparison page: the tables of core/compare in column
 * views, the selected timer's distributions below them.
 *
 * The comparison runs in a GTask thread (the timer statistics of two large traces take a
 * while) and a newer request cancels the running one; the page shows a spinner and the
 * fraction done (each part of the comparison as it ends), and keeps
 * the last tables meanwhile.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>

#include "strobe-a11y.h"
#include "strobe-compare-chart.h"
#include "strobe-compare-histogram.h"
#include "strobe-compare-items.h"
#include "strobe-compare-view.h"
#include "strobe-panes.h"
#include "strobe-scope-search.h"
#include "strobe-table.h"
#include "strobe-text.h"

#define HISTOGRAM_BINS 64

/* What the worker has done, shared with the page (an rc box): thousandths once a part is
 * done, and the timers' pass, most of the work, step by step while it runs. */
typedef struct
{
  gint                  thousandths;
  StrobeCompareProgress timers;
} Progress;

struct _StrobeCompareView
{
  StrobeView            parent_instance;

  GtkMenuButton        *compare_button;
  GtkButton            *show_a_button, *show_b_button, *site_a_button, *site_b_button;
  GtkLabel             *other_label;
  GtkEntry             *range_entry;
  GtkDropDown          *norm_drop;
  GtkSearchEntry       *filter_entry;
  GtkSpinner           *spinner;
  GtkProgressBar       *progress_bar;
  GtkLabel             *status_label;
  GtkStackSwitcher     *switcher;
  GtkStack             *stack;
  GtkColumnView        *timers_view;
  GtkCheckButton       *log_check;
  StrobeCompareChart   *chart;
  GtkColumnView        *frames_view;
  GtkCheckButton       *frames_log_check;
  GtkSpinButton        *target_spin;
  StrobeCompareChart   *frames_chart;
  GtkLabel             *memory_label;
  GtkColumnView        *sites_view;
  GtkColumnView        *messages_view;
  GtkColumnView        *counts_view;

  GListStore           *timers, *frames, *sites, *messages, *counts;
  GListModel           *documents, *files;   /* where else B may come from */
  GtkCustomFilter      *filter;
  GtkSingleSelection   *timers_selection;
  GtkSingleSelection   *sites_selection;
  StrobeDocument       *other;
  StrobeCompareContext *context;
  GCancellable         *cancellable;
  GCancellable         *show_cancellable;  /* the timer's instance being looked for */
  gboolean              ready;
  Progress             *progress;          /* the running comparison's (rc box) */
  guint                 progress_source;
  /* The selected row's distributions: of a timer, of the frame times. */
  struct
  {
    GtkSingleSelection *selection;
    StrobeCompareChart *chart;
    GtkCheckButton     *log_check;
    GCancellable       *cancellable;
  } dist[2];
};

G_DEFINE_FINAL_TYPE (StrobeCompareView, strobe_compare_view, STROBE_TYPE_VIEW)

/* ---- the comparison, on a worker thread --------------------------------------------------- */

typedef struct
{
  StrobeDocument       *a, *b;
  StrobeCompareRange    range;
  StrobeCompareContext *context;
  GArray               *timers, *frames;
  StrobeCompareMemory  *memory;
  StrobeCompareLog     *log;
  Progress             *progress;
} Job;

/* How much of a comparison each part is, in thousandths once it is done: the timers' pass
 * over every scope of both traces is most of it. */
#define DONE_TIMERS 700
#define DONE_FRAMES 750
#define DONE_MEMORY 900

static void
job_free (Job *job)
{
  g_clear_object (&job->a);
  g_clear_object (&job->b);
  strobe_compare_range_clear (&job->range);
  g_clear_pointer (&job->context, strobe_compare_context_unref);
  g_clear_pointer (&job->timers, g_array_unref);
  g_clear_pointer (&job->frames, g_array_unref);
  g_clear_pointer (&job->memory, strobe_compare_memory_free);
  g_clear_pointer (&job->log, strobe_compare_log_free);
  g_clear_pointer (&job->progress, g_atomic_rc_box_release);
  g_free (job);
}

static void
compare_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *job = data;
  GError *error = NULL;

  if (!strobe_compare_range_resolve (&job->range, job->a, &job->context->span_a, &error) ||
      !strobe_compare_range_resolve (&job->range, job->b, &job->context->span_b, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  strobe_document_get_clock (job->a, &job->context->tables.clock_a);
  strobe_document_get_clock (job->b, &job->context->tables.clock_b);
  if (strobe_document_get_timeline (job->a) && strobe_document_get_timeline (job->b))
    {
      strobe_compare_progress_init (&job->progress->timers, job->a, &job->context->span_a, job->b,
                                    &job->context->span_b);
      job->timers = strobe_compare_timers_full (job->a, &job->context->span_a, job->b, &job->context->span_b,
                                                &job->context->sketches, &job->progress->timers, cancellable,
                                                &error);
      if (job->timers == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      g_atomic_int_set (&job->progress->thousandths, DONE_TIMERS);
      job->frames = strobe_compare_frames (job->a, &job->context->span_a, job->b, &job->context->span_b);
    }
  g_atomic_int_set (&job->progress->thousandths, DONE_FRAMES);
  if (strobe_document_get_memory (job->a) && strobe_document_get_memory (job->b))
    job->memory = strobe_compare_memory (job->a, &job->context->span_a, job->b, &job->context->span_b,
                                         STROBE_MEMORY_BY_FUNCTION, cancellable, NULL);
  g_atomic_int_set (&job->progress->thousandths, DONE_MEMORY);
  if (strobe_document_get_log (job->a) && strobe_document_get_log (job->b))
    job->log = strobe_compare_log (job->a, &job->context->span_a, job->b, &job->context->span_b, cancellable, NULL);
  if (g_task_return_error_if_cancelled (task))
    return;
  g_task_return_boolean (task, TRUE);
}

static void
fill_timers (GListStore *store, GArray *rows, StrobeCompareContext *context)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; rows && i < rows->len; i++)
    g_ptr_array_add (items, strobe_compare_item_new_timer (&g_array_index (rows, StrobeCompareTimer, i), context));
  g_list_store_splice (store, 0, g_list_model_get_n_items (G_LIST_MODEL (store)), items->pdata, items->len);
}

static void
show_memory_totals (StrobeCompareView *self, StrobeCompareMemory *m)
{
  g_autofree char *text = NULL;

  if (m == NULL)
    {
      gtk_label_set_text (self->memory_label, _("One of the traces has no memory model."));
      return;
    }
  text = g_strdup_printf (_("Peak: A %" PRId64 " B %" PRId64 " bytes · leaked: A %" PRId64 " B %" PRId64
                            " bytes · allocations: A %" PRIu64 " B %" PRIu64 " · temporary: A %" PRIu64 " B %" PRIu64),
                          m->totals_a.peak_bytes, m->totals_b.peak_bytes, m->totals_a.leaked_bytes,
                          m->totals_b.leaked_bytes, m->totals_a.allocations, m->totals_b.allocations,
                          m->totals_a.temporary, m->totals_b.temporary);
  gtk_label_set_text (self->memory_label, text);
}

static gboolean
progress_tick (gpointer data)
{
  StrobeCompareView *self = data;

  gint done = g_atomic_int_get (&self->progress->thousandths);

  /* Before the timers are done, their pass's own steps move the bar. */
  if (done < DONE_TIMERS)
    done = (gint) (strobe_compare_progress_fraction (&self->progress->timers) * DONE_TIMERS);
  gtk_progress_bar_set_fraction (self->progress_bar, done / 1000.0);
  return G_SOURCE_CONTINUE;
}

/* The bar shows the running comparison's progress, polled: the worker only stores a number. */
static void
progress_start (StrobeCompareView *self, Progress *progress)
{
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_pointer (&self->progress, g_atomic_rc_box_release);
  self->progress = g_atomic_rc_box_acquire (progress);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
  self->progress_source = g_timeout_add (100, progress_tick, self);
}

static void
progress_stop (StrobeCompareView *self)
{
  g_clear_handle_id (&self->progress_source, g_source_remove);
  gtk_progress_bar_set_fraction (self->progress_bar, 1);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
}

static void
compare_done (GObject *source, GAsyncResult *result, gpointer data)
{
  StrobeCompareView *self = STROBE_COMPARE_VIEW (source);
  Job *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) items = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      progress_stop (self);
      gtk_spinner_stop (self->spinner);
      gtk_label_set_text (self->status_label, error->message);
      self->ready = TRUE;
      return;
    }
  progress_stop (self);
  gtk_spinner_stop (self->spinner);
  g_clear_pointer (&self->context, strobe_compare_context_unref);
  self->context = strobe_compare_context_ref (job->context);
  self->context->tables.norm = gtk_drop_down_get_selected (self->norm_drop);
  fill_timers (self->timers, job->timers, self->context);
  fill_timers (self->frames, job->frames, self->context);
  /* The game frames' distributions at once: one or two rows, the chart is the point. */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->dist[1].selection)) > 0)
    {
      gtk_single_selection_set_selected (self->dist[1].selection, GTK_INVALID_LIST_POSITION);
      gtk_single_selection_set_selected (self->dist[1].selection, 0);
    }
  show_memory_totals (self, job->memory);
  items = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; job->memory && i < job->memory->sites->len; i++)
    g_ptr_array_add (items, strobe_compare_item_new_site (&g_array_index (job->memory->sites, StrobeCompareMemorySite, i)));
  g_list_store_splice (self->sites, 0, g_list_model_get_n_items (G_LIST_MODEL (self->sites)), items->pdata, items->len);
  g_ptr_array_set_size (items, 0);
  for (guint i = 0; job->log && i < job->log->problems->len; i++)
    g_ptr_array_add (items, strobe_compare_item_new_message (&g_array_index (job->log->problems, StrobeCompareLogProblem, i)));
  g_list_store_splice (self->messages, 0, g_list_model_get_n_items (G_LIST_MODEL (self->messages)), items->pdata, items->len);
  g_ptr_array_set_size (items, 0);
  for (guint i = 0; job->log && i < job->log->counts->len; i++)
    g_ptr_array_add (items, strobe_compare_item_new_count (&g_array_index (job->log->counts, StrobeCompareLogCount, i)));
  g_list_store_splice (self->counts, 0, g_list_model_get_n_items (G_LIST_MODEL (self->counts)), items->pdata, items->len);
  {
    g_autofree char *range = strobe_compare_range_describe (&job->range);
    g_autofree char *text = g_strdup_printf (_("A: %.3f s, %" PRIu64 " frames · B: %.3f s, %" PRIu64 " frames · %s"),
                                             job->context->span_a.seconds, job->context->span_a.frames[0],
                                             job->context->span_b.seconds, job->context->span_b.frames[0], range);
    gtk_label_set_text (self->status_label, text);
  }
  self->ready = TRUE;
}

/* The range entry: empty, the whole traces; "100-200" or "frames 100-200", game frames;
 * "1.5-3 s", seconds from each trace's start; "Checkpoint..Boss", from one bookmark to the
 * next of the other; anything else, a region's name. */
static void
parse_range (const char *text, StrobeCompareRange *out)
{
  g_autofree char *t = g_strstrip (g_strdup (text));
  const char *p = t, *dots;
  char *end;

  memset (out, 0, sizeof *out);
  if (*p == '\0')
    return;
  if ((dots = strstr (p, "..")) != NULL && dots != p && dots[2] != '\0')
    {
      out->kind = STROBE_COMPARE_RANGE_BOOKMARKS;
      out->region = g_strstrip (g_strndup (p, (gsize) (dots - p)));
      out->until = g_strstrip (g_strdup (dots + 2));
      return;
    }
  if (g_ascii_strncasecmp (p, "frames ", 7) == 0)
    p += 7;
  if (g_ascii_isdigit (*p))
    {
      gdouble from = g_ascii_strtod (p, &end), to;
      const char *m;

      if (*end == '-' && (g_ascii_isdigit (end[1]) || end[1] == '.'))
        {
          m = end + 1;
          to = g_ascii_strtod (m, &end);
          while (g_ascii_isspace (*end))
            end++;
          if (*end == 's' && end[1] == '\0' && to >= from)
            {
              out->kind = STROBE_COMPARE_RANGE_TIME;
              out->from = from;
              out->to = to;
              return;
            }
          if (*end == '\0' && from == floor (from) && to == floor (to) && to >= from)
            {
              out->kind = STROBE_COMPARE_RANGE_FRAMES;
              out->first_frame = (guint64) from;
              out->last_frame = (guint64) to;
              return;
            }
        }
    }
  out->kind = STROBE_COMPARE_RANGE_REGION;
  out->region = g_strdup (t);
}

/* A trace still being read is compared once it is all there (a live one as it stands):
 * a comparison of the part read so far would say the rest's scopes are gone. */
static gboolean
document_ready (StrobeDocument *document)
{
  return strobe_document_is_loaded (document) || strobe_document_is_live (document);
}

/* Until then, how far the reading is, in the comparison's own bar. */
static void
show_waiting (StrobeCompareView *self, StrobeDocument *a)
{
  g_autofree char *text = NULL;
  gdouble fraction;

  if (!document_ready (a))
    {
      fraction = strobe_document_get_progress (a);
      if (!document_ready (self->other))
        fraction = MIN (fraction, strobe_document_get_progress (self->other));
      /* Translators: a percentage follows */
      text = g_strdup_printf (_("Waiting for trace A to be read… %.0f %%"), 100 * fraction);
    }
  else
    {
      fraction = strobe_document_get_progress (self->other);
      text = g_strdup_printf (_("Waiting for trace B to be read… %.0f %%"), 100 * fraction);
    }
  g_clear_handle_id (&self->progress_source, g_source_remove);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
  gtk_progress_bar_set_fraction (self->progress_bar, fraction);
  gtk_spinner_start (self->spinner);
  gtk_label_set_text (self->status_label, text);
}

static void
start_compare (StrobeCompareView *self)
{
  StrobeDocument *a = strobe_view_get_document (STROBE_VIEW (self));
  g_autoptr(GTask) task = NULL;
  Job *job;

  if (self->other == NULL)
    return;
  if (!document_ready (a) || !document_ready (self->other))
    {
      show_waiting (self, a);
      return;
    }
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->ready = FALSE;
  job = g_new0 (Job, 1);
  job->a = g_object_ref (a);
  job->b = g_object_ref (self->other);
  job->context = strobe_compare_context_new ();
  parse_range (gtk_editable_get_text (GTK_EDITABLE (self->range_entry)), &job->range);
  job->progress = g_atomic_rc_box_new0 (Progress);
  progress_start (self, job->progress);
  gtk_spinner_start (self->spinner);
  gtk_label_set_text (self->status_label, _("Comparing…"));
  task = g_task_new (self, self->cancellable, compare_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, compare_thread);
}

/* ---- B -------------------------------------------------------------------------------------- */

/* A or B grew or was read to its end: a comparison not yet started starts, or says how
 * far the reading is. */
static void
either_changed (StrobeCompareView *self)
{
  if (self->other != NULL && !self->ready && self->cancellable == NULL)
    start_compare (self);
}

static void
other_changed (StrobeDocument *document, StrobeDocumentChanges changes, gpointer data)
{
  either_changed (data);
}

static void
strobe_compare_view_document_changed (StrobeView *view, StrobeDocumentChanges changes)
{
  either_changed (STROBE_COMPARE_VIEW (view));
}

void
strobe_compare_view_set_other (StrobeCompareView *self, StrobeDocument *other)
{
  g_autofree char *title = NULL;

  g_return_if_fail (STROBE_IS_COMPARE_VIEW (self));
  g_return_if_fail (STROBE_IS_DOCUMENT (other));

  if (self->other)
    g_signal_handlers_disconnect_by_data (self->other, self);
  g_set_object (&self->other, other);
  g_clear_object (&self->cancellable);
  self->ready = FALSE;
  title = g_strdup_printf (_("B: %s"), strobe_document_get_title (other));
  gtk_label_set_text (self->other_label, title);
  g_signal_connect (other, "changed", G_CALLBACK (other_changed), self);
  start_compare (self);
}

static void
other_loaded (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(StrobeCompareView) self = data;
  g_autoptr(GError) error = NULL;

  if (!strobe_document_load_finish (STROBE_DOCUMENT (source), result, &error))
    {
      gtk_label_set_text (self->status_label, error->message);
      if (!strobe_document_is_loaded (STROBE_DOCUMENT (source)))
        return;
    }
  if (STROBE_DOCUMENT (source) == self->other)
    start_compare (self);
}

void
strobe_compare_view_open_other (StrobeCompareView *self, GFile *file)
{
  g_autoptr(StrobeDocument) other = NULL;

  g_return_if_fail (STROBE_IS_COMPARE_VIEW (self));
  g_return_if_fail (G_IS_FILE (file));

  other = strobe_document_new (file, STROBE_DOCUMENT_MODEL_ALL);
  strobe_compare_view_set_other (self, other);
  gtk_spinner_start (self->spinner);
  gtk_label_set_text (self->status_label, _("Reading trace B…"));
  strobe_document_load_async (other, NULL, other_loaded, g_object_ref (self));
}

StrobeDocument *
strobe_compare_view_get_other (StrobeCompareView *self)
{
  g_return_val_if_fail (STROBE_IS_COMPARE_VIEW (self), NULL);
  return self->other;
}

gboolean
strobe_compare_view_is_ready (StrobeCompareView *self)
{
  g_return_val_if_fail (STROBE_IS_COMPARE_VIEW (self), FALSE);
  return self->ready;
}

GListModel *
strobe_compare_view_get_rows (StrobeCompareView *self, const char *table)
{
  GtkColumnView *view;

  g_return_val_if_fail (STROBE_IS_COMPARE_VIEW (self), NULL);
  view = g_str_equal (table, "timers") ? self->timers_view : g_str_equal (table, "frames") ? self->frames_view
       : g_str_equal (table, "sites") ? self->sites_view : g_str_equal (table, "messages") ? self->messages_view
       : self->counts_view;
  return G_LIST_MODEL (gtk_column_view_get_model (view));
}

static void
chooser_response (GtkNativeDialog *dialog, int response, gpointer data)
{
  StrobeCompareView *self = data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      if (file)
        strobe_compare_view_open_other (self, file);
    }
  g_object_unref (dialog);
}

static void
choose_file_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  StrobeCompareView *self = STROBE_COMPARE_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *chooser;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  chooser = gtk_file_chooser_native_new (_("Compare With"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Compare"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Strobe traces"));
  gtk_file_filter_add_pattern (filter, "*.strobe");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* ---- B from an open trace or the store ------------------------------------------------------ */

void
strobe_compare_view_set_sources (StrobeCompareView *self, GListModel *documents, GListModel *files)
{
  g_return_if_fail (STROBE_IS_COMPARE_VIEW (self));
  g_return_if_fail (documents == NULL || G_IS_LIST_MODEL (documents));
  g_return_if_fail (files == NULL || G_IS_LIST_MODEL (files));

  g_set_object (&self->documents, documents);
  g_set_object (&self->files, files);
}

/* An open trace other than A whose file is @file. */
static StrobeDocument *
find_open (StrobeCompareView *self, GFile *file)
{
  StrobeDocument *a = strobe_view_get_document (STROBE_VIEW (self));
  guint n = self->documents ? g_list_model_get_n_items (self->documents) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StrobeDocument) d = g_list_model_get_item (self->documents, i);
      GFile *f = strobe_document_get_file (d);

      if (d != a && f && g_file_equal (f, file))
        return d;   /* the window's list keeps it */
    }
  return NULL;
}

#define MENU_STORE_MAX 20

GMenuModel *
strobe_compare_view_build_menu (StrobeCompareView *self)
{
  StrobeDocument *a;
  GFile *file_a;
  GMenu *menu, *open, *store, *other;
  guint n;

  g_return_val_if_fail (STROBE_IS_COMPARE_VIEW (self), NULL);
  a = strobe_view_get_document (STROBE_VIEW (self));
  file_a = strobe_document_get_file (a);
  menu = g_menu_new ();
  open = g_menu_new ();
  store = g_menu_new ();
  other = g_menu_new ();
  n = self->documents ? g_list_model_get_n_items (self->documents) : 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(StrobeDocument) d = g_list_model_get_item (self->documents, i);
      GFile *f = strobe_document_get_file (d);
      g_autofree char *uri = NULL;
      g_autoptr(GMenuItem) item = NULL;

      if (d == a || f == NULL)
        continue;
      uri = g_file_get_uri (f);
      item = g_menu_item_new (strobe_document_get_title (d), NULL);
      g_menu_item_set_action_and_target (item, "compare.with", "s", uri);
      g_menu_append_item (open, item);
    }
  /* The store's newest first, as the browser lists them; open ones are above already. */
  n = self->files ? g_list_model_get_n_items (self->files) : 0;
  for (guint i = 0, shown = 0; i < n && shown < MENU_STORE_MAX; i++)
    {
      g_autoptr(GFile) f = g_list_model_get_item (self->files, i);
      g_autofree char *uri = g_file_get_uri (f), *name = g_file_get_basename (f);
      g_autoptr(GMenuItem) item = NULL;

      if ((file_a && g_file_equal (f, file_a)) || find_open (self, f))
        continue;
      item = g_menu_item_new (name, NULL);
      g_menu_item_set_action_and_target (item, "compare.with", "s", uri);
      g_menu_append_item (store, item);
      shown++;
    }
  g_menu_append (other, _("Other _File…"), "compare.choose-file");
  if (g_menu_model_get_n_items (G_MENU_MODEL (open)) > 0)
    g_menu_append_section (menu, _("Open Traces"), G_MENU_MODEL (open));
  if (g_menu_model_get_n_items (G_MENU_MODEL (store)) > 0)
    g_menu_append_section (menu, _("Trace Store"), G_MENU_MODEL (store));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (other));
  g_object_unref (open);
  g_object_unref (store);
  g_object_unref (other);
  return G_MENU_MODEL (menu);
}

/* Trace B by its file: the open trace's document when it is open (its analysis done
 * already, and B's tab then shows what the page compares), else read anew. */
void
strobe_compare_view_compare_with (StrobeCompareView *self, GFile *file)
{
  StrobeDocument *open;

  g_return_if_fail (STROBE_IS_COMPARE_VIEW (self));
  g_return_if_fail (G_IS_FILE (file));

  open = find_open (self, file);
  if (open)
    strobe_compare_view_set_other (self, open);
  else
    strobe_compare_view_open_other (self, file);
}

static void
with_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  strobe_compare_view_compare_with (STROBE_COMPARE_VIEW (widget), file);
}

static void
create_popup (GtkMenuButton *button, gpointer data)
{
  g_autoptr(GMenuModel) menu = strobe_compare_view_build_menu (STROBE_COMPARE_VIEW (data));

  gtk_menu_button_set_menu_model (button, menu);
}

static void
range_activated (StrobeCompareView *self)
{
  start_compare (self);
}

/* ---- the tables ---------------------------------------------------------------------------- */

static gboolean
filter_item (gpointer item, gpointer data)
{
  StrobeCompareView *self = data;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));
  g_autofree char *name = NULL, *needle = NULL;

  if (text == NULL || *text == '\0')
    return TRUE;
  name = g_utf8_casefold (strobe_compare_item_get_name (item), -1);
  needle = g_utf8_casefold (text, -1);
  return strstr (name, needle) != NULL;
}

static void
filter_changed (StrobeCompareView *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
norm_changed (StrobeCompareView *self)
{
  if (self->context == NULL)
    return;
  /* The rows read their figures through the context: a new one re-sorts them. */
  {
    g_autoptr(StrobeCompareContext) context = strobe_compare_context_new ();
    g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (StrobeCompareTimer));
    guint n = g_list_model_get_n_items (G_LIST_MODEL (self->timers));

    context->span_a = self->context->span_a;
    context->span_b = self->context->span_b;
    context->tables.clock_a = self->context->tables.clock_a;
    context->tables.clock_b = self->context->tables.clock_b;
    context->tables.norm = gtk_drop_down_get_selected (self->norm_drop);
    if (self->context->sketches)
      context->sketches = strobe_compare_sketches_ref (self->context->sketches);
    for (guint i = 0; i < n; i++)
      {
        g_autoptr(StrobeCompareItem) item = g_list_model_get_item (G_LIST_MODEL (self->timers), i);
        StrobeCompareTimer row = *strobe_compare_item_get_timer (item);

        row.name = (char *) strobe_compare_item_get_name (item);
        g_array_append_val (rows, row);
      }
    g_clear_pointer (&self->context, strobe_compare_context_unref);
    self->context = g_steal_pointer (&context);
    fill_timers (self->timers, rows, self->context);
  }
}

/* ---- the distributions ------------------------------------------------------------------ */

typedef struct
{
  StrobeDocument        *a, *b;
  StrobeCompareSpan      span_a, span_b;
  char                  *name;
  gboolean               log;
  StrobeCompareTimer     row;        /* its name is not set */
  StrobeCompareSketches *sketches;   /* a timer's durations from the table's pass; NULL: walk them */
  StrobeCompareChart    *chart;
} HistogramJob;

static void
histogram_job_free (HistogramJob *job)
{
  g_clear_object (&job->a);
  g_clear_object (&job->b);
  g_free (job->name);
  g_clear_pointer (&job->sketches, strobe_compare_sketches_unref);
  g_clear_object (&job->chart);
  g_free (job);
}

static void
histogram_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  HistogramJob *job = data;
  g_autoptr(GArray) da = NULL, db = NULL;
  StrobeTraceClock ca, cb;
  GError *error = NULL;

  strobe_document_get_clock (job->a, &ca);
  strobe_document_get_clock (job->b, &cb);
  if (job->sketches)
    {
      g_task_return_pointer (task, strobe_compare_histogram_new_sketched (job->sketches, &job->row, &ca, &cb,
                                                                          HISTOGRAM_BINS, job->log),
                             (GDestroyNotify) strobe_compare_histogram_free);
      return;
    }
  da = strobe_compare_durations (job->a, job->name, &job->span_a, cancellable, &error);
  if (da)
    db = strobe_compare_durations (job->b, job->name, &job->span_b, cancellable, &error);
  if (db == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, strobe_compare_histogram_new (da, &ca, db, &cb, HISTOGRAM_BINS, job->log),
                         (GDestroyNotify) strobe_compare_histogram_free);
}

static void
histogram_done (GObject *source, GAsyncResult *result, gpointer data)
{
  HistogramJob *job = g_task_get_task_data (G_TASK (result));
  StrobeCompareHistogram *h = g_task_propagate_pointer (G_TASK (result), NULL);

  if (h)
    strobe_compare_chart_set_histogram (job->chart, h, job->name);
}

/* @which: 0 the timers' chart, 1 the frame times'. */
static void
update_distribution (StrobeCompareView *self, guint which)
{
  g_autoptr(GTask) task = NULL;
  StrobeCompareItem *item = gtk_single_selection_get_selected_item (self->dist[which].selection);
  HistogramJob *job;

  if (item == NULL || self->context == NULL || self->other == NULL)
    return;
  g_cancellable_cancel (self->dist[which].cancellable);
  g_clear_object (&self->dist[which].cancellable);
  self->dist[which].cancellable = g_cancellable_new ();
  job = g_new0 (HistogramJob, 1);
  job->a = g_object_ref (strobe_view_get_document (STROBE_VIEW (self)));
  job->b = g_object_ref (self->other);
  job->span_a = self->context->span_a;
  job->span_b = self->context->span_b;
  job->name = g_strdup (strobe_compare_item_get_name (item));
  job->log = gtk_check_button_get_active (self->dist[which].log_check);
  job->row = *strobe_compare_item_get_timer (item);
  job->chart = g_object_ref (self->dist[which].chart);
  /* Frame rows are not among the statistics' names: their few frames are walked. */
  if (self->context->sketches && which == 0)
    job->sketches = strobe_compare_sketches_ref (self->context->sketches);
  task = g_task_new (self, self->dist[which].cancellable, histogram_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) histogram_job_free);
  g_task_run_in_thread (task, histogram_thread);
}

static void
update_histogram (StrobeCompareView *self)
{
  update_distribution (self, 0);
}

static void
update_frames_histogram (StrobeCompareView *self)
{
  update_distribution (self, 1);
}

static void
log_toggled (StrobeCompareView *self)
{
  update_histogram (self);
}

static void
frames_log_toggled (StrobeCompareView *self)
{
  update_frames_histogram (self);
}

static void
target_changed (StrobeCompareView *self)
{
  strobe_compare_chart_set_target (self->frames_chart, gtk_spin_button_get_value (self->target_spin) / 1000.0);
}

/* ---- a timer's longest instance, found on a worker thread --------------------------------- */

typedef struct
{
  StrobeDocument      *doc;
  StrobeTimelineModel *timeline;
  StrobeCompareIn      side;
  guint32              id;
  guint64              t0, t1;
  StrobeScopeMatch     match;
} ShowJob;

static void
show_job_free (ShowJob *job)
{
  g_clear_object (&job->doc);
  g_clear_object (&job->timeline);
  g_free (job);
}

/* Every scope of the compared range may be walked: seconds on a big trace. */
static void
show_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  ShowJob *job = data;
  GError *error = NULL;

  if (strobe_scope_search_longest (job->timeline, job->id, job->t0, job->t1, &job->match, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else if (error)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, FALSE);
}

/* The instance found: its span selected and brought into view in that trace's timeline.
 * FALSE when it could not be shown. */
static gboolean
show_match (StrobeCompareView *self, const ShowJob *job)
{
  const StrobeScopeMatch *match = &job->match;
  guint64 pad = (match->end - match->begin) / 4 + 1;

  if (job->side == STROBE_COMPARE_IN_A)
    {
      StrobeViewState *state = strobe_view_get_state (STROBE_VIEW (self));

      /* The selected scope is the timeline's own now: the shared selection marks it. */
      strobe_view_state_set_selection (state, match->begin, match->end);
      strobe_view_state_set_visible_range (state, match->begin > pad ? match->begin - pad : 0, match->end + pad);
      gtk_widget_activate_action (GTK_WIDGET (self), "document.show-page", "s", "timeline");
      return TRUE;
    }
  else
    {
      g_autofree char *uri = g_file_get_uri (strobe_document_get_file (job->doc));

      return gtk_widget_activate_action (GTK_WIDGET (self), "win.show-trace", "(ssttt)", uri, "timeline",
                                         match->begin, match->end, pad);
    }
}

static void
show_done (GObject *source, GAsyncResult *result, gpointer data)
{
  StrobeCompareView *self = STROBE_COMPARE_VIEW (source);
  GTask *task = G_TASK (result);
  g_autoptr(GTask) outer = data;
  g_autoptr(GError) error = NULL;
  gboolean found = g_task_propagate_boolean (task, &error);

  /* A later request or the view's end cancelled this one: it shows nothing. */
  if (error != NULL)
    g_task_return_error (outer, g_steal_pointer (&error));
  else
    g_task_return_boolean (outer, found && show_match (self, g_task_get_task_data (task)));
}

void
strobe_compare_view_show_in_async (StrobeCompareView   *self,
                                   guint                position,
                                   StrobeCompareIn      side,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) outer = NULL;
  g_autoptr(GTask) task = NULL;
  g_autoptr(StrobeCompareItem) item = NULL;
  StrobeDocument *doc;
  StrobeTimelineModel *timeline;
  const StrobeCompareSpan *span;
  ShowJob *job;

  g_return_if_fail (STROBE_IS_COMPARE_VIEW (self));
  g_return_if_fail (side == STROBE_COMPARE_IN_A || side == STROBE_COMPARE_IN_B);

  /* The last request is the one the user waits for. */
  g_cancellable_cancel (self->show_cancellable);
  g_clear_object (&self->show_cancellable);
  self->show_cancellable = g_cancellable_new ();
  outer = g_task_new (self, self->show_cancellable, callback, user_data);
  g_task_set_source_tag (outer, strobe_compare_view_show_in_async);

  doc = side == STROBE_COMPARE_IN_A ? strobe_view_get_document (STROBE_VIEW (self)) : self->other;
  timeline = doc ? strobe_document_get_timeline (doc) : NULL;
  item = position != GTK_INVALID_LIST_POSITION ? g_list_model_get_item (G_LIST_MODEL (self->timers_selection), position) : NULL;
  if (item == NULL || timeline == NULL || self->context == NULL || !(strobe_compare_item_get_in (item) & side))
    {
      g_task_return_boolean (outer, FALSE);
      return;
    }
  job = g_new0 (ShowJob, 1);
  job->doc = g_object_ref (doc);
  job->timeline = g_object_ref (timeline);
  job->side = side;
  span = side == STROBE_COMPARE_IN_A ? &self->context->span_a : &self->context->span_b;
  job->t0 = span->t0;
  job->t1 = span->t1;
  if (!strobe_timeline_model_find_name (timeline, strobe_compare_item_get_name (item), &job->id))
    {
      show_job_free (job);
      g_task_return_boolean (outer, FALSE);
      return;
    }
  task = g_task_new (self, self->show_cancellable, show_done, g_steal_pointer (&outer));
  g_task_set_task_data (task, job, (GDestroyNotify) show_job_free);
  g_task_run_in_thread (task, show_thread);
}

gboolean
strobe_compare_view_show_in_finish (StrobeCompareView *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (STROBE_IS_COMPARE_VIEW (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Enter or a double click: the scope in A's own timeline. */
static void
timer_activated (StrobeCompareView *self, guint position)
{
  strobe_compare_view_show_in_async (self, position, STROBE_COMPARE_IN_A, NULL, NULL);
}

static void
show_in_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  StrobeCompareView *self = STROBE_COMPARE_VIEW (widget);

  strobe_compare_view_show_in_async (self, gtk_single_selection_get_selected (self->timers_selection),
                                     g_str_equal (action_name, "compare.show-in-a") ? STROBE_COMPARE_IN_A : STROBE_COMPARE_IN_B,
                                     NULL, NULL);
}

gboolean
strobe_compare_view_show_site_in (StrobeCompareView *self, guint position, StrobeCompareIn side)
{
  g_autoptr(StrobeCompareItem) item = NULL;
  StrobeDocument *doc;
  const char *name;

  g_return_val_if_fail (STROBE_IS_COMPARE_VIEW (self), FALSE);
  g_return_val_if_fail (side == STROBE_COMPARE_IN_A || side == STROBE_COMPARE_IN_B, FALSE);

  doc = side == STROBE_COMPARE_IN_A ? strobe_view_get_document (STROBE_VIEW (self)) : self->other;
  item = position != GTK_INVALID_LIST_POSITION ? g_list_model_get_item (G_LIST_MODEL (self->sites_selection), position)
                                               : NULL;
  if (item == NULL || doc == NULL || !(strobe_compare_item_get_in (item) & side))
    return FALSE;
  name = strobe_compare_item_get_name (item);
  if (side == STROBE_COMPARE_IN_A)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "document.show-page", "s", "memory");
      strobe_view_state_set_selected_function (strobe_view_get_state (STROBE_VIEW (self)), name);
      return TRUE;
    }
  {
    g_autofree char *uri = g_file_get_uri (strobe_document_get_file (doc));

    return gtk_widget_activate_action (GTK_WIDGET (self), "win.show-function", "(sss)", uri, "memory", name);
  }
}

/* Enter or a double click on a site: that function in A's memory view. */
static void
site_activated (StrobeCompareView *self, guint position)
{
  strobe_compare_view_show_site_in (self, position, STROBE_COMPARE_IN_A);
}

static void
site_in_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  StrobeCompareView *self = STROBE_COMPARE_VIEW (widget);

  strobe_compare_view_show_site_in (self, gtk_single_selection_get_selected (self->sites_selection),
                                    g_str_equal (action_name, "compare.site-in-a") ? STROBE_COMPARE_IN_A
                                                                                   : STROBE_COMPARE_IN_B);
}

static void
update_site_in (StrobeCompareView *self)
{
  StrobeCompareItem *item = gtk_single_selection_get_selected_item (self->sites_selection);
  StrobeCompareIn in = item ? strobe_compare_item_get_in (item) : 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.site-in-a", (in & STROBE_COMPARE_IN_A) != 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.site-in-b", (in & STROBE_COMPARE_IN_B) != 0 && self->other);
}

static void
update_show_in (StrobeCompareView *self)
{
  StrobeCompareItem *item = gtk_single_selection_get_selected_item (self->timers_selection);
  StrobeCompareIn in = item ? strobe_compare_item_get_in (item) : 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.show-in-a", (in & STROBE_COMPARE_IN_A) != 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.show-in-b", (in & STROBE_COMPARE_IN_B) != 0 && self->other);
}

static GtkSingleSelection *
setup_table (StrobeCompareView *self, GtkColumnView *view, GListStore **store, const StrobeTableColumn *columns,
             guint n)
{
  *store = g_list_store_new (STROBE_TYPE_COMPARE_ITEM);
  strobe_table_add_columns (view, columns, n);
  strobe_pane_mark (GTK_WIDGET (view));
  return strobe_table_set_model (view, G_LIST_MODEL (g_object_ref (*store)), g_object_ref (GTK_FILTER (self->filter)));
}

static void
strobe_compare_view_focus_default (StrobeView *view)
{
  StrobeCompareView *self = STROBE_COMPARE_VIEW (view);

  gtk_widget_grab_focus (self->other ? GTK_WIDGET (self->timers_view)
                                     : gtk_widget_get_first_child (GTK_WIDGET (self->compare_button)));
}

static void
strobe_compare_view_dispose (GObject *object)
{
  StrobeCompareView *self = STROBE_COMPARE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->show_cancellable);
  g_clear_object (&self->show_cancellable);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_pointer (&self->progress, g_atomic_rc_box_release);
  for (guint i = 0; i < G_N_ELEMENTS (self->dist); i++)
    {
      g_cancellable_cancel (self->dist[i].cancellable);
      g_clear_object (&self->dist[i].cancellable);
    }
  if (self->other)
    g_signal_handlers_disconnect_by_data (self->other, self);
  g_clear_object (&self->other);
  g_clear_object (&self->documents);
  g_clear_object (&self->files);
  g_clear_pointer (&self->context, strobe_compare_context_unref);
  g_clear_object (&self->timers);
  g_clear_object (&self->frames);
  g_clear_object (&self->sites);
  g_clear_object (&self->messages);
  g_clear_object (&self->counts);
  g_clear_object (&self->filter);
  gtk_widget_dispose_template (GTK_WIDGET (self), STROBE_TYPE_COMPARE_VIEW);
  G_OBJECT_CLASS (strobe_compare_view_parent_class)->dispose (object);
}

static void
strobe_compare_view_class_init (StrobeCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  StrobeViewClass *view_class = STROBE_VIEW_CLASS (klass);

  object_class->dispose = strobe_compare_view_dispose;
  view_class->focus_default = strobe_compare_view_focus_default;
  view_class->document_changed = strobe_compare_view_document_changed;
  strobe_view_class_set_page (view_class, "compare", N_("Com_pare"), "view-dual-symbolic", 50);

  g_type_ensure (STROBE_TYPE_COMPARE_CHART);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/strobe/Viewer/compare/strobe-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, compare_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, show_a_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, site_a_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, site_b_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, show_b_button);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, other_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, range_entry);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, norm_drop);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, spinner);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, status_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, switcher);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, stack);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, timers_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, log_check);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, chart);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, frames_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, frames_log_check);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, target_spin);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, frames_chart);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, memory_label);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, sites_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, messages_view);
  gtk_widget_class_bind_template_child (widget_class, StrobeCompareView, counts_view);
  gtk_widget_class_install_action (widget_class, "compare.choose-file", NULL, choose_file_action);
  gtk_widget_class_install_action (widget_class, "compare.with", "s", with_action);
  gtk_widget_class_install_action (widget_class, "compare.show-in-a", NULL, show_in_action);
  gtk_widget_class_install_action (widget_class, "compare.show-in-b", NULL, show_in_action);
  gtk_widget_class_install_action (widget_class, "compare.site-in-a", NULL, site_in_action);
  gtk_widget_class_install_action (widget_class, "compare.site-in-b", NULL, site_in_action);
  gtk_widget_class_bind_template_callback (widget_class, site_activated);
  gtk_widget_class_bind_template_callback (widget_class, range_activated);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed);
  gtk_widget_class_bind_template_callback (widget_class, log_toggled);
  gtk_widget_class_bind_template_callback (widget_class, frames_log_toggled);
  gtk_widget_class_bind_template_callback (widget_class, target_changed);
  gtk_widget_class_bind_template_callback (widget_class, timer_activated);
}

static void
strobe_compare_view_init (StrobeCompareView *self)
{
  const StrobeTableColumn *columns;
  guint n;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->filter = gtk_custom_filter_new (filter_item, self, NULL);
  columns = strobe_compare_timer_columns (&n);
  self->timers_selection = setup_table (self, self->timers_view, &self->timers, columns, n);
  self->dist[1].selection = setup_table (self, self->frames_view, &self->frames, columns, n);
  self->dist[0].selection = self->timers_selection;
  self->dist[0].chart = self->chart;
  self->dist[0].log_check = self->log_check;
  self->dist[1].chart = self->frames_chart;
  self->dist[1].log_check = self->frames_log_check;
  columns = strobe_compare_site_columns (&n);
  self->sites_selection = setup_table (self, self->sites_view, &self->sites, columns, n);
  columns = strobe_compare_message_columns (&n);
  setup_table (self, self->messages_view, &self->messages, columns, n);
  columns = strobe_compare_count_columns (&n);
  setup_table (self, self->counts_view, &self->counts, columns, n);
  g_signal_connect_swapped (self->timers_selection, "notify::selected-item", G_CALLBACK (update_histogram), self);
  g_signal_connect_swapped (self->timers_selection, "notify::selected-item", G_CALLBACK (update_show_in), self);
  update_show_in (self);
  g_signal_connect_swapped (self->sites_selection, "notify::selected-item", G_CALLBACK (update_site_in), self);
  update_site_in (self);
  gtk_menu_button_set_create_popup_func (self->compare_button, create_popup, self, NULL);
  g_signal_connect_swapped (self->dist[1].selection, "notify::selected-item", G_CALLBACK (update_frames_histogram), self);
  target_changed (self);
  g_signal_connect_swapped (self->norm_drop, "notify::selected", G_CALLBACK (norm_changed), self);
  strobe_a11y_fix_mnemonic_button (self->show_a_button);
  strobe_a11y_fix_mnemonic_button (self->show_b_button);
  /* The menu button's label is its inner toggle button's: name both, as a button reads. */
  strobe_a11y_set_name (GTK_WIDGET (self->compare_button), _("Compare With…"));
  strobe_a11y_set_name (gtk_widget_get_first_child (GTK_WIDGET (self->compare_button)), _("Compare With…"));
  strobe_a11y_name_drop_down (self->norm_drop, _("Normalisation"));
  strobe_a11y_set_name (GTK_WIDGET (self->target_spin), _("Target frame time in milliseconds"));
  /* GTK 4.8's search entry drops the .ui's accessible label. */
  strobe_a11y_set_name (GTK_WIDGET (self->filter_entry), _("Filter names"));
  strobe_a11y_fix_stack_switcher (self->switcher);
}
