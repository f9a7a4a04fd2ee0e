/* strobe-log-level-icon.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-log-level-icon.h"

struct _StrobeLogLevelIcon
{
  GtkWidget         parent_instance;

  int               size;
  GtkIconPaintable *icon;
  gboolean          has_color;
  GdkRGBA           color;
};

G_DEFINE_FINAL_TYPE (StrobeLogLevelIcon, strobe_log_level_icon, GTK_TYPE_WIDGET)

static void
strobe_log_level_icon_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *min, int *nat,
                               int *min_baseline, int *nat_baseline)
{
  *min = *nat = STROBE_LOG_LEVEL_ICON (widget)->size;
}

static void
strobe_log_level_icon_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  StrobeLogLevelIcon *self = STROBE_LOG_LEVEL_ICON (widget);
  GdkRGBA color = self->color;
  int y = (gtk_widget_get_height (widget) - self->size) / 2;

  if (self->icon == NULL)
    return;
  if (!self->has_color)
    {
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
      G_GNUC_END_IGNORE_DEPRECATIONS
    }
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, MAX (y, 0)));
  /* Foreground, error, warning, success: every part of the icon in the one colour. */
  gtk_symbolic_paintable_snapshot_symbolic (GTK_SYMBOLIC_PAINTABLE (self->icon), snapshot, self->size, self->size,
                                            (const GdkRGBA[]) { color, color, color, color }, 4);
  gtk_snapshot_restore (snapshot);
}

static void
strobe_log_level_icon_dispose (GObject *object)
{
  StrobeLogLevelIcon *self = STROBE_LOG_LEVEL_ICON (object);

  g_clear_object (&self->icon);
  G_OBJECT_CLASS (strobe_log_level_icon_parent_class)->dispose (object);
}

static void
strobe_log_level_icon_class_init (StrobeLogLevelIconClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = strobe_log_level_icon_dispose;
  widget_class->measure = strobe_log_level_icon_measure;
  widget_class->snapshot = strobe_log_level_icon_snapshot;
  gtk_widget_class_set_css_name (widget_class, "strobe-log-level-icon");
}

static void
strobe_log_level_icon_init (StrobeLogLevelIcon *self)
{
}

GtkWidget *
strobe_log_level_icon_new (int size)
{
  StrobeLogLevelIcon *self;

  g_return_val_if_fail (size > 0, NULL);

  self = g_object_new (STROBE_TYPE_LOG_LEVEL_ICON, "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION, NULL);
  self->size = size;
  gtk_accessible_update_state (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_STATE_HIDDEN, TRUE, -1);
  return GTK_WIDGET (self);
}

void
strobe_log_level_icon_set (StrobeLogLevelIcon *self,
                           GtkIconPaintable   *icon,
                           const GdkRGBA      *color)
{
  g_return_if_fail (STROBE_IS_LOG_LEVEL_ICON (self));
  g_return_if_fail (icon == NULL || GTK_IS_ICON_PAINTABLE (icon));

  if (self->icon == icon && self->has_color == (color != NULL) && (color == NULL || gdk_rgba_equal (&self->color, color)))
    return;
  g_set_object (&self->icon, icon);
  self->has_color = color != NULL;
  if (color != NULL)
    self->color = *color;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
