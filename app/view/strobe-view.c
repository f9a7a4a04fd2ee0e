/* strobe-view.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strobe-view.h"

typedef struct
{
  StrobeDocument  *document;
  StrobeViewState *state;
} StrobeViewPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (StrobeView, strobe_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
changed_cb (StrobeView            *self,
            StrobeDocumentChanges  changes)
{
  StrobeViewClass *klass = STROBE_VIEW_GET_CLASS (self);

  if (klass->document_changed)
    klass->document_changed (self, changes);
}

static void
status_cb (StrobeView *self)
{
  changed_cb (self, STROBE_DOCUMENT_MODEL_ALL | STROBE_DOCUMENT_CHANGED_EXTENT);
}

static void
strobe_view_constructed (GObject *object)
{
  StrobeView *self = STROBE_VIEW (object);
  StrobeViewPrivate *priv = strobe_view_get_instance_private (self);

  G_OBJECT_CLASS (strobe_view_parent_class)->constructed (object);

  g_return_if_fail (priv->document != NULL && priv->state != NULL);
  g_signal_connect_object (priv->document, "changed", G_CALLBACK (changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (priv->document, "notify::status", G_CALLBACK (status_cb), self, G_CONNECT_SWAPPED);
  status_cb (self);
}

static void
strobe_view_dispose (GObject *object)
{
  StrobeView *self = STROBE_VIEW (object);
  StrobeViewPrivate *priv = strobe_view_get_instance_private (self);

  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&priv->document);
  g_clear_object (&priv->state);

  G_OBJECT_CLASS (strobe_view_parent_class)->dispose (object);
}

static void
strobe_view_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  StrobeViewPrivate *priv = strobe_view_get_instance_private (STROBE_VIEW (object));

  switch (prop_id)
    {
    case PROP_DOCUMENT: g_value_set_object (value, priv->document); break;
    case PROP_STATE:    g_value_set_object (value, priv->state); break;
    default:            G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_view_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  StrobeViewPrivate *priv = strobe_view_get_instance_private (STROBE_VIEW (object));

  switch (prop_id)
    {
    case PROP_DOCUMENT: priv->document = g_value_dup_object (value); break;
    case PROP_STATE:    priv->state = g_value_dup_object (value); break;
    default:            G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_view_real_focus_default (StrobeView *self)
{
  gtk_widget_child_focus (GTK_WIDGET (self), GTK_DIR_TAB_FORWARD);
}

static void
strobe_view_class_init (StrobeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = strobe_view_constructed;
  object_class->dispose = strobe_view_dispose;
  object_class->get_property = strobe_view_get_property;
  object_class->set_property = strobe_view_set_property;
  klass->focus_default = strobe_view_real_focus_default;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, STROBE_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_object ("state", NULL, NULL, STROBE_TYPE_VIEW_STATE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
strobe_view_init (StrobeView *self)
{
}

void
strobe_view_class_set_page (StrobeViewClass *klass,
                            const char      *page_name,
                            const char      *title,
                            const char      *icon_name,
                            int              position)
{
  g_return_if_fail (STROBE_IS_VIEW_CLASS (klass));
  g_return_if_fail (page_name != NULL && title != NULL);

  klass->page_name = page_name;
  klass->title = title;
  klass->icon_name = icon_name;
  klass->position = position;
}

const char *
strobe_view_class_get_page_name (StrobeViewClass *klass)
{
  g_return_val_if_fail (STROBE_IS_VIEW_CLASS (klass), NULL);
  return klass->page_name;
}

const char *
strobe_view_class_get_title (StrobeViewClass *klass)
{
  g_return_val_if_fail (STROBE_IS_VIEW_CLASS (klass), NULL);
  return klass->title ? _(klass->title) : NULL;
}

const char *
strobe_view_class_get_icon_name (StrobeViewClass *klass)
{
  g_return_val_if_fail (STROBE_IS_VIEW_CLASS (klass), NULL);
  return klass->icon_name;
}

StrobeDocument *
strobe_view_get_document (StrobeView *self)
{
  StrobeViewPrivate *priv;

  g_return_val_if_fail (STROBE_IS_VIEW (self), NULL);
  priv = strobe_view_get_instance_private (self);
  return priv->document;
}

StrobeViewState *
strobe_view_get_state (StrobeView *self)
{
  StrobeViewPrivate *priv;

  g_return_val_if_fail (STROBE_IS_VIEW (self), NULL);
  priv = strobe_view_get_instance_private (self);
  return priv->state;
}

void
strobe_view_focus_default (StrobeView *self)
{
  g_return_if_fail (STROBE_IS_VIEW (self));
  STROBE_VIEW_GET_CLASS (self)->focus_default (self);
}

/* ---- registry ------------------------------------------------------------------------ */

static GArray *registered;   /* GType, main thread only */

static gint
by_position (gconstpointer a, gconstpointer b)
{
  g_autoptr(GTypeClass) ca = g_type_class_ref (*(const GType *) a);
  g_autoptr(GTypeClass) cb = g_type_class_ref (*(const GType *) b);
  int pa = STROBE_VIEW_CLASS (ca)->position, pb = STROBE_VIEW_CLASS (cb)->position;

  return (pa > pb) - (pa < pb);
}

void
strobe_view_register (GType view_type)
{
  g_return_if_fail (g_type_is_a (view_type, STROBE_TYPE_VIEW));

  if (registered == NULL)
    registered = g_array_new (FALSE, FALSE, sizeof (GType));
  for (guint i = 0; i < registered->len; i++)
    if (g_array_index (registered, GType, i) == view_type)
      return;
  g_array_append_val (registered, view_type);
  g_array_sort (registered, by_position);
}

const GArray *
strobe_view_get_registered (void)
{
  if (registered == NULL)
    registered = g_array_new (FALSE, FALSE, sizeof (GType));
  return registered;
}

StrobeView *
strobe_view_new (GType            view_type,
                 StrobeDocument  *document,
                 StrobeViewState *state)
{
  g_return_val_if_fail (g_type_is_a (view_type, STROBE_TYPE_VIEW), NULL);
  g_return_val_if_fail (STROBE_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (STROBE_IS_VIEW_STATE (state), NULL);

  return g_object_new (view_type, "document", document, "state", state, NULL);
}
