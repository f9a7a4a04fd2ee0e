/* strobe-log-cells.c
 *
 * The log table's columns: each cell is one GtkInscription with a fixed width (the
 * verbosity's: its icon, a StrobeLogLevelIcon, beside one), so a row that scrolls into view
 * costs a widget or two per column and no column is measured again. A level's colour and
 * weight are text attributes and the icon's own colour, never CSS classes (restyling).
 * Tooltips are worked out when asked.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-log-cells.h"
#include "strobe-log-format.h"
#include "strobe-log-labels.h"
#include "strobe-log-level-icon.h"
#include "strobe-log-list.h"
#include "strobe-log-rows.h"
#include "strobe-text.h"
#include "strobe-table.h"

typedef enum
{
  COL_TIME,
  COL_THREAD,
  COL_VERBOSITY,
  COL_CATEGORY,
  COL_MESSAGE,
  COL_SOURCE,
  COL_PROCESS,
  N_COLUMNS
} Column;

/* On a cell: the serial of the row it shows; on a table row widget: of the row its handler
 * follows. */
static GQuark row_serial_quark;

/* A fill turn of the cells off screen stops after this long; the rest waits for the next
 * turn (input and timers come between). A turn can start just before a timer is due, so
 * the main loop waits up to a turn longer than the timer's period: 2 ms turns made gaps of
 * 3 ms between the 1 ms ticks while a far jump's rows filled. */
#define FILL_SLICE_US 1000

void
strobe_log_cells_init (StrobeLogCells *self)
{
  if (row_serial_quark == 0)
    row_serial_quark = g_quark_from_static_string ("strobe-row-serial");
  self->thread_labels = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->category_labels = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->unfilled = g_ptr_array_new_with_free_func (g_object_unref);
  self->message_looks = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) pango_attr_list_unref);
  self->level_icons = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
}

/* A window's frame clock is disposed with its surface, handlers and all. */
static void
drop_clock (StrobeLogCells *self)
{
  if (self->clock != NULL && g_signal_handler_is_connected (self->clock, self->layout_id))
    g_signal_handler_disconnect (self->clock, self->layout_id);
  self->layout_id = 0;
  g_clear_object (&self->clock);
}

void
strobe_log_cells_clear (StrobeLogCells *self)
{
  g_clear_handle_id (&self->fill_source, g_source_remove);
  g_clear_pointer (&self->unfilled, g_ptr_array_unref);
  drop_clock (self);
  self->table = NULL;
  g_clear_pointer (&self->thread_labels, g_hash_table_unref);
  g_clear_pointer (&self->category_labels, g_hash_table_unref);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  self->settings = NULL;
  g_clear_pointer (&self->message_looks, g_hash_table_unref);
  g_clear_pointer (&self->level_icons, g_hash_table_unref);
  g_clear_object (&self->axis);
}

void
strobe_log_cells_get_clock (StrobeLogCells   *self,
                            StrobeTraceClock *clock)
{
  if (self->axis)
    strobe_time_axis_get_clock (self->axis, clock);
  else
    strobe_trace_clock_init (clock, NULL);
}

/* @item's clock, and its thread's label (NULL: show the id). */
static void
item_source (StrobeLogCells *self, StrobeLogItem *item, StrobeTraceClock *clock, const char **thread_label,
             const char **process)
{
  guint16 thread = strobe_log_item_get_thread_id (item);

  if (self->source != NULL)
    {
      StrobeLogCellsSource source = { NULL };

      strobe_trace_clock_init (&source.clock, NULL);
      self->source (item, &source, self->source_data);
      *clock = source.clock;
      *thread_label = source.thread_labels ? g_hash_table_lookup (source.thread_labels, GUINT_TO_POINTER (thread)) : NULL;
      *process = source.process;
      return;
    }
  strobe_log_cells_get_clock (self, clock);
  *thread_label = g_hash_table_lookup (self->thread_labels, GUINT_TO_POINTER (thread));
  *process = NULL;
}

/* The theme's named colour, or @fallback (Adwaita's light one). */
static void
theme_rgba (GtkWidget *widget, const char *name, const char *fallback, GdkRGBA *c)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), name, c))
    gdk_rgba_parse (c, fallback);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

/* The theme's error (or warning) colour, looked up once per theme. */
static const GdkRGBA *
level_color (StrobeLogCells *self, GtkWidget *widget, gboolean warning)
{
  if (!self->have_level_colors)
    {
      theme_rgba (widget, "error_color", "#c01c28", &self->level_colors[0]);
      theme_rgba (widget, "warning_color", "#9c6e03", &self->level_colors[1]);
      self->have_level_colors = TRUE;
    }
  return &self->level_colors[warning != FALSE];
}

static PangoAttribute *
color_attr (const GdkRGBA *c)
{
  return pango_attr_foreground_new ((guint16) (c->red * 65535), (guint16) (c->green * 65535), (guint16) (c->blue * 65535));
}

/* A level's (or a malformed message's) look, as the message and verbosity cells show it.
 * Changing a cell's CSS classes restyles it — selector matching, and a new font for the
 * bold and the italic ones — and a far jump changes them on every row on screen: 20 of a
 * jump's frame's 21 ms of CPU went with it, 7–10 ms without (tests/bench/README.md).
 * Text attributes only redraw. On a selected row the row's own colour (the level colours
 * are hard to read on the selection's): @selected drops the colour. */
static PangoAttrList *
message_look (StrobeLogCells *self, GtkWidget *cell, const char *look, gboolean selected)
{
  g_autofree char *joined = selected ? g_strconcat (look, ":selected", NULL) : NULL;
  const char *key = joined ? joined : look;
  PangoAttrList *attrs = g_hash_table_lookup (self->message_looks, key);

  if (attrs != NULL)
    return attrs;
  attrs = pango_attr_list_new ();
  if (!selected && (g_str_equal (look, "strobe-log-fatal") || g_str_equal (look, "strobe-log-error")))
    pango_attr_list_insert (attrs, color_attr (level_color (self, cell, FALSE)));
  else if (!selected && (g_str_equal (look, "strobe-log-warning") || g_str_equal (look, "strobe-log-malformed")))
    pango_attr_list_insert (attrs, color_attr (level_color (self, cell, TRUE)));
  if (g_str_equal (look, "strobe-log-fatal"))
    pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  else if (g_str_equal (look, "strobe-log-malformed"))
    pango_attr_list_insert (attrs, pango_attr_style_new (PANGO_STYLE_ITALIC));
  else if (g_str_equal (look, "strobe-log-verbose"))
    pango_attr_list_insert (attrs, pango_attr_foreground_alpha_new ((guint16) (0.6 * 65535)));
  /* The key's text lives as long as the table: the looks are static strings. */
  g_hash_table_insert (self->message_looks, (gpointer) g_intern_string (key), attrs);
  return attrs;
}

/* The message a cell's list item shows: the view's table has StrobeLogRows, a group's
 * log StrobeLogItems. */
static StrobeLogItem *
list_item_message (GtkListItem *list_item)
{
  gpointer item = list_item ? gtk_list_item_get_item (list_item) : NULL;

  if (item != NULL && STROBE_IS_LOG_ROW (item))
    return strobe_log_row_get_item (item);
  return item;
}

/* @text's look (NULL: plain), set on the inscription only when it changed (the looks'
 * lists are made again after a theme change: their generation says which a cell has). */
static void
apply_look (StrobeLogCells *self, GtkWidget *text, const char *look, gboolean selected)
{
  PangoAttrList *attrs = NULL;

  /* The display level has an icon only, no look of its own. */
  if (look != NULL && !g_str_equal (look, "strobe-log-display"))
    attrs = message_look (self, text, look, selected);
  if (g_object_get_data (G_OBJECT (text), "strobe-look") == attrs
      && GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (text), "strobe-look-generation")) == self->looks_generation)
    return;
  gtk_inscription_set_attributes (GTK_INSCRIPTION (text), attrs);
  g_object_set_data (G_OBJECT (text), "strobe-look", attrs);
  g_object_set_data (G_OBJECT (text), "strobe-look-generation", GUINT_TO_POINTER (self->looks_generation));
}

#define LEVEL_ICON_SIZE 14
#define LEVEL_ICON_GAP  6

/* The level's icon (none for the quiet levels): in the level's colour, or — selected, or
 * the display level, which has no colour — in the row's text colour. */
static void
apply_level_icon (StrobeLogCells *self, GtkWidget *widget, guint8 verbosity, gboolean selected)
{
  const char *name = verbosity == 1 || verbosity == 2 ? "dialog-error-symbolic"
                     : verbosity == 3 ? "dialog-warning-symbolic"
                     : verbosity == 4 ? "dialog-information-symbolic" : NULL;
  GtkIconPaintable *icon = NULL;

  if (name != NULL && (icon = g_hash_table_lookup (self->level_icons, name)) == NULL)
    {
      GtkIconTheme *theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (widget));

      icon = gtk_icon_theme_lookup_icon (theme, name, NULL, LEVEL_ICON_SIZE, gtk_widget_get_scale_factor (widget),
                                         gtk_widget_get_direction (widget), 0);
      g_hash_table_insert (self->level_icons, (gpointer) name, icon);
    }
  strobe_log_level_icon_set (STROBE_LOG_LEVEL_ICON (widget), icon,
                             icon != NULL && !selected && verbosity != 4 ? level_color (self, widget, verbosity == 3) : NULL);
}

static void
refresh_look (StrobeLogCells *self, GtkWidget *cell, StrobeLogItem *item)
{
  GtkListItem *list_item = g_object_get_data (G_OBJECT (cell), "strobe-list-item");
  gboolean selected = list_item != NULL && gtk_list_item_get_selected (list_item);
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (cell), "strobe-column"));

  if (col == COL_MESSAGE)
    apply_look (self, cell, item == NULL ? NULL
                            : !strobe_log_item_is_well_formed (item) ? "strobe-log-malformed"
                            : strobe_log_verbosity_css (strobe_log_item_get_verbosity (item)),
                selected);
  else if (col == COL_VERBOSITY)
    {
      guint8 v = item ? strobe_log_item_get_verbosity (item) : 0;

      apply_look (self, gtk_widget_get_last_child (cell), item ? strobe_log_verbosity_css (v) : NULL, selected);
      apply_level_icon (self, gtk_widget_get_first_child (cell), v, selected);
    }
}

static void
selected_changed_cb (GtkListItem *list_item, GParamSpec *pspec, GtkWidget *cell)
{
  StrobeLogCells *self = g_object_get_data (G_OBJECT (cell), "strobe-cells");

  if (self != NULL && self->message_looks != NULL)
    refresh_look (self, cell, list_item_message (list_item));
}

static void
theme_changed_cb (GtkSettings *settings, GParamSpec *pspec, StrobeLogCells *self)
{
  /* Cells take the new colours when they are next filled or selected. */
  g_hash_table_remove_all (self->message_looks);
  g_hash_table_remove_all (self->level_icons);
  self->have_level_colors = FALSE;
  self->looks_generation++;
}

/* Tooltips are worked out when asked for: setting one on every bind costs more than the
 * rest of the bind (GTK 4.8 looks for the pointer each time). */
static gboolean
query_tooltip_cb (GtkWidget     *cell,
                  int            x,
                  int            y,
                  gboolean       keyboard,
                  GtkTooltip    *tooltip,
                  StrobeLogCells *self)
{
  GtkListItem *list_item = g_object_get_data (G_OBJECT (cell), "strobe-list-item");
  StrobeLogItem *item = list_item_message (list_item);
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (cell), "strobe-column"));
  g_autofree char *text = NULL;

  if (item == NULL)
    return FALSE;
  if (col == COL_TIME)
    {
      StrobeTraceClock clock;
      const char *thread, *process;

      item_source (self, item, &clock, &thread, &process);
      text = strobe_log_format_time_long (&clock, strobe_log_item_get_time (item));
    }
  else if (col == COL_SOURCE && strobe_log_item_get_spec (item) && strobe_log_item_get_spec (item)->file)
    {
      g_autofree char *full = g_strdup_printf ("%s:%d", strobe_log_item_get_spec (item)->file,
                                               strobe_log_item_get_spec (item)->line);

      text = strobe_text_escape (full, STROBE_TEXT_PLAIN);
    }
  else if (col == COL_MESSAGE)
    text = g_strdup (strobe_log_item_get_display_text (item));
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
setup_cb (GtkSignalListItemFactory *factory,
          GtkListItem              *list_item,
          StrobeLogCells           *self)
{
  Column col = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "strobe-column"));
  GtkWidget *cell;

  switch (col)
    {
    case COL_TIME:
      cell = strobe_table_cell_new (12, 2, TRUE);
      break;
    case COL_VERBOSITY:
      {
        /* The level's icon, then its word (apply_level_icon, apply_look). */
        GtkWidget *icon = strobe_log_level_icon_new (LEVEL_ICON_SIZE), *text = strobe_table_cell_new (8, 2, FALSE);

        gtk_widget_add_css_class (text, "strobe-log-level");
        gtk_widget_set_hexpand (text, TRUE);
        cell = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, LEVEL_ICON_GAP);
        gtk_box_append (GTK_BOX (cell), icon);
        gtk_box_append (GTK_BOX (cell), text);
        g_signal_connect_object (list_item, "notify::selected", G_CALLBACK (selected_changed_cb), cell, 0);
      }
      break;
    case COL_MESSAGE:
      cell = strobe_table_cell_new (60, 2, FALSE);
      gtk_widget_add_css_class (cell, "monospace");
      g_signal_connect_object (list_item, "notify::selected", G_CALLBACK (selected_changed_cb), cell, 0);
      break;
    case COL_PROCESS:
      /* "program (pid N)": processes of one program differ only at the end, so that is
       * what stays when the column is narrow. */
      cell = strobe_table_cell_new (22, 2, FALSE);
      gtk_inscription_set_text_overflow (GTK_INSCRIPTION (cell), GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_START);
      break;
    case COL_THREAD:
    case COL_CATEGORY:
    case COL_SOURCE:
    case N_COLUMNS:
    default:
      cell = strobe_table_cell_new (12, 2, FALSE);
      break;
    }
  /* For the context menu and tooltips: the row under the pointer. */
  g_object_set_data (G_OBJECT (cell), "strobe-list-item", list_item);
  g_object_set_data (G_OBJECT (cell), "strobe-column", GINT_TO_POINTER (col));
  g_object_set_data (G_OBJECT (cell), "strobe-cells", self);
  /* The serial of the row the cell shows (0: none). */
  g_object_set_qdata_full (G_OBJECT (cell), row_serial_quark, g_new0 (guint64, 1), g_free);
  if (col == COL_TIME || col == COL_SOURCE || col == COL_MESSAGE)
    {
      gtk_widget_set_has_tooltip (cell, TRUE);
      g_signal_connect (cell, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);
    }
  gtk_list_item_set_child (list_item, cell);
}

static void
fill_cell (StrobeLogCells *self, Column col, StrobeLogItem *item, GtkWidget *cell)
{
  const StrobeLogSpecInfo *spec;

  if (item == NULL)
    {
      gtk_inscription_set_text (GTK_INSCRIPTION (col == COL_VERBOSITY ? gtk_widget_get_last_child (cell) : cell), NULL);
      refresh_look (self, cell, NULL);
      return;
    }
  spec = strobe_log_item_get_spec (item);
  switch (col)
    {
    case COL_TIME:
      {
        StrobeTraceClock clock;
        const char *thread, *process;
        g_autofree char *text = NULL;

        item_source (self, item, &clock, &thread, &process);
        text = strobe_log_format_time (&clock, strobe_log_item_get_time (item));

        gtk_inscription_set_text (GTK_INSCRIPTION (cell), text);
      }
      break;
    case COL_THREAD:
    case COL_PROCESS:
      {
        StrobeTraceClock clock;
        const char *label, *process;
        g_autofree char *id = NULL;

        item_source (self, item, &clock, &label, &process);
        if (col == COL_PROCESS)
          label = process ? process : "—";
        else if (label == NULL)
          label = id = g_strdup_printf ("%u", strobe_log_item_get_thread_id (item));
        gtk_inscription_set_text (GTK_INSCRIPTION (cell), label);
      }
      break;
    case COL_VERBOSITY:
      gtk_inscription_set_text (GTK_INSCRIPTION (gtk_widget_get_last_child (cell)),
                                strobe_log_verbosity_label (strobe_log_item_get_verbosity (item)));
      refresh_look (self, cell, item);
      break;
    case COL_CATEGORY:
      {
        const char *name = strobe_log_item_get_category_name (item);
        const char *label = NULL;

        /* Escaped once per category: its name lives as long as the model. */
        if (name != NULL && (label = g_hash_table_lookup (self->category_labels, name)) == NULL)
          {
            label = strobe_text_escape (name, STROBE_TEXT_PLAIN);
            g_hash_table_insert (self->category_labels, (gpointer) name, (gpointer) label);
          }
        gtk_inscription_set_text (GTK_INSCRIPTION (cell), label ? label : "—");
      }
      break;
    case COL_MESSAGE:
      {
        const char *text = strobe_log_item_get_display_text (item);

        /* Screen readers read the inscription's text (AT-SPI's text interface). */
        gtk_inscription_set_text (GTK_INSCRIPTION (cell), text);
        refresh_look (self, cell, item);
      }
      break;
    case COL_SOURCE:
      if (spec != NULL && spec->file != NULL)
        {
          g_autofree char *base = g_path_get_basename (spec->file);
          g_autofree char *text = g_strdup_printf ("%s:%d", base, spec->line);
          g_autofree char *escaped = strobe_text_escape (text, STROBE_TEXT_PLAIN);

          gtk_inscription_set_text (GTK_INSCRIPTION (cell), escaped);
        }
      else
        gtk_inscription_set_text (GTK_INSCRIPTION (cell), "—");
      break;
    case N_COLUMNS:
    default:
      break;
    }
}

static void
fill_now (StrobeLogCells *self, GtkWidget *cell)
{
  /* Its row was destroyed meanwhile (its list item with it). */
  if (gtk_widget_get_parent (cell) == NULL)
    return;
  g_object_set_data (G_OBJECT (cell), "strobe-unfilled", NULL);
  fill_cell (self, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (cell), "strobe-column")),
             list_item_message (g_object_get_data (G_OBJECT (cell), "strobe-list-item")), cell);
}

/* The table row widget a cell is in (cell → GtkColumnViewCell → the row), or NULL. */
static GtkWidget *
row_widget (GtkWidget *cell)
{
  GtkWidget *cell_box = gtk_widget_get_parent (cell);

  return cell_box ? gtk_widget_get_parent (cell_box) : NULL;
}

/* An entry of the unfilled: a cell, or a table row widget whose every cell is filled. */
static gboolean
is_cell (GtkWidget *widget)
{
  return g_object_get_data (G_OBJECT (widget), "strobe-cells") != NULL;
}

/* Our cell in @box, one of a table row's children (a GtkColumnViewCell), or NULL. */
static GtkWidget *
box_cell (GtkWidget *box)
{
  GtkWidget *cell = gtk_widget_get_first_child (box);

  return cell != NULL && is_cell (cell) ? cell : NULL;
}

static void
fill_entry (StrobeLogCells *self, GtkWidget *widget)
{
  if (is_cell (widget))
    {
      fill_now (self, widget);
      return;
    }
  g_object_set_data (G_OBJECT (widget), "strobe-unfilled", NULL);
  if (gtk_widget_get_parent (widget) == NULL)
    return;
  for (GtkWidget *box = gtk_widget_get_first_child (widget); box != NULL; box = gtk_widget_get_next_sibling (box))
    {
      GtkWidget *cell = box_cell (box);

      if (cell != NULL)
        fill_now (self, cell);
    }
}

static gboolean
fill_cb (gpointer data)
{
  StrobeLogCells *self = data;
  gint64 until = g_get_monotonic_time () + FILL_SLICE_US;
  guint done = 0;

  while (done < self->unfilled->len)
    {
      fill_entry (self, g_ptr_array_index (self->unfilled, done++));
      if (g_get_monotonic_time () >= until)
        break;
    }
  g_ptr_array_remove_range (self->unfilled, 0, done);
  if (self->unfilled->len > 0)
    return G_SOURCE_CONTINUE;
  self->fill_source = 0;
  return G_SOURCE_REMOVE;
}

/* The cells of rows on screen (the table's rows allocated), filled now; the rest stay. */
void
strobe_log_cells_fill_shown (StrobeLogCells *self)
{
  g_autoptr(GHashTable) rows = NULL;
  guint kept = 0;
  int height;

  self->layout_queued = FALSE;
  if (self->table == NULL || self->unfilled->len == 0)
    return;
  height = gtk_widget_get_height (self->table);
  rows = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < self->unfilled->len; i++)
    {
      GtkWidget *cell = g_ptr_array_index (self->unfilled, i);
      GtkWidget *row = is_cell (cell) ? row_widget (cell) : cell;
      gpointer shown;
      graphene_rect_t b;

      /* Its row was destroyed meanwhile. */
      if (row == NULL || gtk_widget_get_parent (row) == NULL)
        {
          g_object_set_data (G_OBJECT (cell), "strobe-unfilled", NULL);
          g_object_unref (cell);
          continue;
        }
      /* One look per row: its cells share it. */
      if (!g_hash_table_lookup_extended (rows, row, NULL, &shown))
        {
          shown = GINT_TO_POINTER (gtk_widget_get_child_visible (row) &&
                                   gtk_widget_compute_bounds (row, self->table, &b) &&
                                   b.origin.y + b.size.height > 0 && b.origin.y < height);
          g_hash_table_insert (rows, row, shown);
        }
      if (shown)
        {
          fill_entry (self, cell);
          g_object_unref (cell);
        }
      else
        self->unfilled->pdata[kept++] = cell;
    }
  /* Each reference was dropped or moved down above. */
  self->unfilled->len = kept;
}

static void
layout_cb (GdkFrameClock  *clock,
           StrobeLogCells *self)
{
  strobe_log_cells_fill_shown (self);
}

/* The table's frame clock: its root's (popups share their parent's). Not
 * gtk_widget_get_frame_clock(), which looks for the native up the widget tree — for each of
 * the 1 230 cells a far jump binds. */
static GdkFrameClock *
table_clock (StrobeLogCells *self)
{
  GtkRoot *root;
  GdkSurface *surface;

  if (self->table == NULL || !gtk_widget_get_realized (self->table))
    return NULL;
  root = gtk_widget_get_root (self->table);
  surface = root != NULL && GTK_IS_NATIVE (root) ? gtk_native_get_surface (GTK_NATIVE (root)) : NULL;
  return surface != NULL ? gdk_surface_get_frame_clock (surface) : NULL;
}

/* Formatting a message and setting six inscriptions is most of what a row costs when GTK
 * binds it, and a jump binds ~200 rows for ~45 on screen. A cell is filled when the frame
 * is laid out if it is on screen then (after GTK's own layout: this handler is connected
 * after the window's), else later, in slices below GTK's painting. @cell may be a table
 * row widget: its every cell. */
static void
queue_fill (StrobeLogCells *self, GtkWidget *cell)
{
  GdkFrameClock *clock = table_clock (self);

  if (g_object_get_data (G_OBJECT (cell), "strobe-unfilled") == NULL)
    {
      g_object_set_data (G_OBJECT (cell), "strobe-unfilled", GINT_TO_POINTER (TRUE));
      g_ptr_array_add (self->unfilled, g_object_ref (cell));
    }
  if (clock != self->clock)
    {
      drop_clock (self);
      g_set_object (&self->clock, clock);
      if (clock != NULL)
        self->layout_id = g_signal_connect_after (clock, "layout", G_CALLBACK (layout_cb), self);
    }
  /* A frame whose rows only show other messages has no layout phase otherwise. */
  if (clock != NULL && !self->layout_queued)
    {
      self->layout_queued = TRUE;
      gtk_widget_queue_allocate (self->table);
    }
  if (self->fill_source == 0)
    {
      /* Below the list's results (G_PRIORITY_DEFAULT_IDLE): GLib runs every source of the
       * same priority in one turn, and a fill turn with the filter's first answer was
       * 3.8 ms without a tick between. */
      self->fill_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE + 10, fill_cb, self, NULL);
      g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->fill_source),
                                "[strobe] log cells fill");
    }
}

/* The row stands for another message now (the table's rows are kept across a filter
 * change: GTK 4.8 would make their widgets anew): every cell of its table row is filled
 * again. @widget is the table row widget (or a cell outside one). */
static void
row_changed_cb (StrobeLogRow *row,
                GtkWidget    *widget)
{
  StrobeLogCells *self = g_object_get_data (G_OBJECT (widget), "strobe-cells");

  if (self != NULL)
    {
      queue_fill (self, widget);
      return;
    }
  /* The row queued, not its seven cells: a window's move or a far jump changes every row
   * GTK keeps (200, 1 400 cells), and going over each cell, cold in memory, twice (queued,
   * then looked at in the frame's layout) was a tenth of the jump's frame. */
  for (GtkWidget *box = gtk_widget_get_first_child (widget); box != NULL; box = gtk_widget_get_next_sibling (box))
    {
      GtkWidget *cell = box_cell (box);

      if (cell != NULL)
        {
          queue_fill (g_object_get_data (G_OBJECT (cell), "strobe-cells"), widget);
          return;
        }
    }
}

/* GTK 4.8 unbinds and binds again every row it keeps whose position changed — a
 * scroll-to-item, or messages removed before the rows on screen (a filter's first answer):
 * ~200 rows, 1 400 cells, the same rows most of the time. A cell bound again to the row it
 * shows keeps its text; only a new row is filled. One handler per table row (not per cell)
 * follows the row's changes: connecting and freeing 1 230 handlers was a third of a far
 * jump's scroll-to-item. Nothing is disconnected on unbind: a handler on a row the table
 * row left fills its cells again from what they show now (harmless), and goes with the row
 * or with the row widget (g_signal_connect_object), whichever is freed first. */
static void
bind_cb (GtkSignalListItemFactory *factory,
         GtkListItem              *list_item,
         StrobeLogCells           *self)
{
  gpointer item = gtk_list_item_get_item (list_item);
  GtkWidget *cell = gtk_list_item_get_child (list_item);

  if (item != NULL && STROBE_IS_LOG_ROW (item))
    {
      guint64 serial = strobe_log_row_get_serial (item);
      guint64 *bound = g_object_get_qdata (G_OBJECT (cell), row_serial_quark);
      GtkWidget *row = row_widget (cell);

      if (*bound == serial)
        return;
      *bound = serial;
      if (row != NULL)
        {
          guint64 *connected = g_object_get_qdata (G_OBJECT (row), row_serial_quark);

          if (connected == NULL)
            {
              connected = g_new0 (guint64, 1);
              g_object_set_qdata_full (G_OBJECT (row), row_serial_quark, connected, g_free);
            }
          if (*connected != serial)
            {
              *connected = serial;
              g_signal_connect_object (item, "changed", G_CALLBACK (row_changed_cb), row, 0);
            }
        }
      else
        g_signal_connect_object (item, "changed", G_CALLBACK (row_changed_cb), cell, 0);
    }
  queue_fill (self, cell);
}

/* The verbosity column is as wide as its longest word in the user's language, in bold
 * (fatal messages are) and beside its icon: "Предупреждение" does not fit the English
 * width. The other fixed widths hold names of the trace's own, which may be any length. */
static int
verbosity_width (GtkWidget *widget,
                 const char *title,
                 int         minimum)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, title);
  g_autoptr(PangoAttrList) attrs = pango_attr_list_new ();
  int widest = 0, w;

  /* The header's sort arrow takes about what the icon does. */
  pango_layout_get_pixel_size (layout, &widest, NULL);
  pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  pango_layout_set_attributes (layout, attrs);
  for (guint8 v = 1; v <= 7; v++)
    {
      pango_layout_set_text (layout, strobe_log_verbosity_label (v), -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      widest = MAX (widest, w);
    }
  /* The icon and its gap, and the cell's padding on both sides. */
  return MAX (minimum, widest + LEVEL_ICON_SIZE + LEVEL_ICON_GAP + 2 * 8);
}

void
strobe_log_cells_add_columns (StrobeLogCells *self,
                             GtkColumnView  *column_view)
{
  static const struct { const char *title; int width; gboolean expand; } columns[N_COLUMNS] = {
    [COL_TIME] = { N_("Time (s)"), 110, FALSE },
    [COL_THREAD] = { N_("Thread"), 110, FALSE },
    [COL_VERBOSITY] = { N_("Verbosity"), 110, FALSE },
    [COL_CATEGORY] = { N_("Category"), 130, FALSE },
    [COL_MESSAGE] = { N_("Message"), -1, TRUE },
    [COL_SOURCE] = { N_("Source"), 170, FALSE },
    [COL_PROCESS] = { N_("Process"), 190, FALSE },
  };
  /* The process right after the time: which side of a client and its server spoke. */
  static const Column single[] = { COL_TIME, COL_THREAD, COL_VERBOSITY, COL_CATEGORY, COL_MESSAGE, COL_SOURCE };
  static const Column several[] = { COL_TIME, COL_PROCESS, COL_THREAD, COL_VERBOSITY, COL_CATEGORY, COL_MESSAGE,
                                    COL_SOURCE };
  const Column *order = self->source ? several : single;

  self->table = GTK_WIDGET (column_view);
  if (self->settings == NULL)
    {
      self->settings = gtk_widget_get_settings (self->table);
      g_signal_connect (self->settings, "notify::gtk-theme-name", G_CALLBACK (theme_changed_cb), self);
      g_signal_connect (self->settings, "notify::gtk-application-prefer-dark-theme", G_CALLBACK (theme_changed_cb), self);
    }
  guint n = self->source ? G_N_ELEMENTS (several) : G_N_ELEMENTS (single);

  for (guint i = 0; i < n; i++)
    {
      Column c = order[i];
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;

      g_object_set_data (G_OBJECT (factory), "strobe-column", GINT_TO_POINTER (c));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cb), self);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cb), self);
      column = gtk_column_view_column_new (_(columns[c].title), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, columns[c].expand);
      /* Fixed widths: no column is measured again as rows scroll into view. */
      if (c == COL_VERBOSITY)
        gtk_column_view_column_set_fixed_width (column, verbosity_width (self->table, _(columns[c].title),
                                                                          columns[c].width));
      else if (columns[c].width > 0)
        gtk_column_view_column_set_fixed_width (column, columns[c].width);
      gtk_column_view_append_column (column_view, column);
    }
}

/* The row @widget belongs to (its cells carry their list item), searched up from @widget
 * to @stop; with @is_row, @widget is a row itself (the keyboard focus is on the row, the
 * data on its cells): then down its first children too. */
guint
strobe_log_cells_row_position (GtkWidget *widget,
                               GtkWidget *stop,
                               gboolean   is_row)
{
  for (GtkWidget *w = widget; w != NULL && w != stop; w = gtk_widget_get_parent (w))
    {
      GtkListItem *list_item = g_object_get_data (G_OBJECT (w), "strobe-list-item");

      if (list_item != NULL)
        return gtk_list_item_get_position (list_item);
    }
  for (GtkWidget *w = widget && is_row ? gtk_widget_get_first_child (widget) : NULL; w != NULL;
       w = gtk_widget_get_first_child (w))
    {
      GtkListItem *list_item = g_object_get_data (G_OBJECT (w), "strobe-list-item");

      if (list_item != NULL)
        return gtk_list_item_get_position (list_item);
    }
  return GTK_INVALID_LIST_POSITION;
}

GtkWidget *
strobe_log_cells_focused_row (GtkWidget *table,
                              guint     *position)
{
  GtkRoot *root;
  GtkWidget *w;

  g_return_val_if_fail (GTK_IS_WIDGET (table) && position != NULL, NULL);

  root = gtk_widget_get_root (table);
  w = root ? gtk_root_get_focus (root) : NULL;
  if (w == NULL || !gtk_widget_is_ancestor (w, table))
    return NULL;
  for (; w != NULL && w != table; w = gtk_widget_get_parent (w))
    if (g_strcmp0 (gtk_widget_get_css_name (w), "row") == 0)
      {
        *position = strobe_log_cells_row_position (w, table, TRUE);
        return *position != GTK_INVALID_LIST_POSITION ? w : NULL;
      }
  return NULL;
}
