/* strobe-view-state.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-view-state.h"

#include <string.h>

struct _StrobeViewState
{
  GObject         parent_instance;

  guint64         visible_start;
  guint64         visible_end;
  gboolean        has_selection;
  guint64         selection_start;
  guint64         selection_end;
  guint64         cursor;
  guint64         hover;
  guint64         message;
  char           *function;
  gboolean        follow_live;
};

G_DEFINE_FINAL_TYPE (StrobeViewState, strobe_view_state, G_TYPE_OBJECT)
G_DEFINE_BOXED_TYPE (StrobeScopeRef, strobe_scope_ref, strobe_scope_ref_copy, strobe_scope_ref_free)

enum
{
  PROP_0,
  PROP_VISIBLE_START,
  PROP_VISIBLE_END,
  PROP_HAS_SELECTION,
  PROP_SELECTION_START,
  PROP_SELECTION_END,
  PROP_CURSOR,
  PROP_HOVER,
  PROP_SELECTED_MESSAGE,
  PROP_SELECTED_FUNCTION,
  PROP_FOLLOW_LIVE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

StrobeScopeRef *
strobe_scope_ref_copy (const StrobeScopeRef *ref)
{
  return ref ? g_memdup2 (ref, sizeof *ref) : NULL;
}

void
strobe_scope_ref_free (StrobeScopeRef *ref)
{
  g_free (ref);
}

static void
set_u64 (StrobeViewState *self, guint64 *field, guint64 value, guint prop)
{
  if (*field == value)
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
strobe_view_state_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  StrobeViewState *self = STROBE_VIEW_STATE (object);

  switch (prop_id)
    {
    case PROP_VISIBLE_START:       g_value_set_uint64 (value, self->visible_start); break;
    case PROP_VISIBLE_END:         g_value_set_uint64 (value, self->visible_end); break;
    case PROP_HAS_SELECTION:       g_value_set_boolean (value, self->has_selection); break;
    case PROP_SELECTION_START:     g_value_set_uint64 (value, self->selection_start); break;
    case PROP_SELECTION_END:       g_value_set_uint64 (value, self->selection_end); break;
    case PROP_CURSOR:              g_value_set_uint64 (value, self->cursor); break;
    case PROP_SELECTED_FUNCTION:   g_value_set_string (value, self->function); break;
    case PROP_HOVER:               g_value_set_uint64 (value, self->hover); break;
    case PROP_SELECTED_MESSAGE:    g_value_set_uint64 (value, self->message); break;
    case PROP_FOLLOW_LIVE:         g_value_set_boolean (value, self->follow_live); break;
    default:                       G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_view_state_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  StrobeViewState *self = STROBE_VIEW_STATE (object);

  switch (prop_id)
    {
    case PROP_CURSOR:
      strobe_view_state_set_cursor (self, g_value_get_uint64 (value));
      break;
    case PROP_HOVER:
      strobe_view_state_set_hover (self, g_value_get_uint64 (value));
      break;
    case PROP_SELECTED_MESSAGE:
      strobe_view_state_set_selected_message (self, g_value_get_uint64 (value));
      break;
    case PROP_FOLLOW_LIVE:
      strobe_view_state_set_follow_live (self, g_value_get_boolean (value));
      break;
    case PROP_SELECTED_FUNCTION:
      strobe_view_state_set_selected_function (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strobe_view_state_finalize (GObject *object)
{
  g_free (STROBE_VIEW_STATE (object)->function);
  G_OBJECT_CLASS (strobe_view_state_parent_class)->finalize (object);
}

static void
strobe_view_state_class_init (StrobeViewStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->get_property = strobe_view_state_get_property;
  object_class->set_property = strobe_view_state_set_property;
  object_class->finalize = strobe_view_state_finalize;

  /* The ranges change as pairs: set them with the methods, which keep start <= end. */
  properties[PROP_VISIBLE_START] = g_param_spec_uint64 ("visible-start", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_VISIBLE_END] = g_param_spec_uint64 ("visible-end", NULL, NULL, 0, G_MAXUINT64, 1, ro);
  properties[PROP_HAS_SELECTION] = g_param_spec_boolean ("has-selection", NULL, NULL, FALSE, ro);
  properties[PROP_SELECTION_START] = g_param_spec_uint64 ("selection-start", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_SELECTION_END] = g_param_spec_uint64 ("selection-end", NULL, NULL, 0, G_MAXUINT64, 0, ro);
  properties[PROP_CURSOR] =
    g_param_spec_uint64 ("cursor", NULL, NULL, 0, G_MAXUINT64, STROBE_VIEW_STATE_NONE, rw);
  properties[PROP_HOVER] =
    g_param_spec_uint64 ("hover", NULL, NULL, 0, G_MAXUINT64, STROBE_VIEW_STATE_NONE, rw);
  properties[PROP_SELECTED_MESSAGE] =
    g_param_spec_uint64 ("selected-message", NULL, NULL, 0, G_MAXUINT64, STROBE_VIEW_STATE_NONE, rw);
  properties[PROP_FOLLOW_LIVE] = g_param_spec_boolean ("follow-live", NULL, NULL, FALSE, rw);
  properties[PROP_SELECTED_FUNCTION] = g_param_spec_string ("selected-function", NULL, NULL, NULL, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strobe_view_state_init (StrobeViewState *self)
{
  self->visible_end = 1;
  self->cursor = STROBE_VIEW_STATE_NONE;
  self->hover = STROBE_VIEW_STATE_NONE;
  self->message = STROBE_VIEW_STATE_NONE;
}

StrobeViewState *
strobe_view_state_new (void)
{
  return g_object_new (STROBE_TYPE_VIEW_STATE, NULL);
}

void
strobe_view_state_set_visible_range (StrobeViewState *self,
                                     guint64          start,
                                     guint64          end)
{
  g_return_if_fail (STROBE_IS_VIEW_STATE (self));

  if (end < start)
    {
      guint64 t = start;
      start = end;
      end = t;
    }
  if (end == start)
    {
      if (end < G_MAXUINT64)
        end++;
      else
        start--;
    }
  g_object_freeze_notify (G_OBJECT (self));
  set_u64 (self, &self->visible_start, start, PROP_VISIBLE_START);
  set_u64 (self, &self->visible_end, end, PROP_VISIBLE_END);
  g_object_thaw_notify (G_OBJECT (self));
}

void
strobe_view_state_get_visible_range (StrobeViewState *self,
                                     guint64         *start,
                                     guint64         *end)
{
  g_return_if_fail (STROBE_IS_VIEW_STATE (self));
  if (start)
    *start = self->visible_start;
  if (end)
    *end = self->visible_end;
}

void
strobe_view_state_set_selection (StrobeViewState *self,
                                 guint64          start,
                                 guint64          end)
{
  g_return_if_fail (STROBE_IS_VIEW_STATE (self));

  if (end < start)
    {
      guint64 t = start;
      start = end;
      end = t;
    }
  g_object_freeze_notify (G_OBJECT (self));
  set_u64 (self, &self->selection_start, start, PROP_SELECTION_START);
  set_u64 (self, &self->selection_end, end, PROP_SELECTION_END);
  if (!self->has_selection)
    {
      self->has_selection = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SELECTION]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

void
strobe_view_state_clear_selection (StrobeViewState *self)
{
  g_return_if_fail (STROBE_IS_VIEW_STATE (self));

  if (!self->has_selection)
    return;
  g_object_freeze_notify (G_OBJECT (self));
  self->has_selection = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_SELECTION]);
  set_u64 (self, &self->selection_start, 0, PROP_SELECTION_START);
  set_u64 (self, &self->selection_end, 0, PROP_SELECTION_END);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
strobe_view_state_get_selection (StrobeViewState *self,
                                 guint64         *start,
                                 guint64         *end)
{
  g_return_val_if_fail (STROBE_IS_VIEW_STATE (self), FALSE);
  if (start)
    *start = self->has_selection ? self->selection_start : 0;
  if (end)
    *end = self->has_selection ? self->selection_end : G_MAXUINT64;
  return self->has_selection;
}

void
strobe_view_state_set_cursor (StrobeViewState *self,
                              guint64          time)
{
  g_return_if_fail (STROBE_IS_VIEW_STATE (self));
  set_u64 (self, &self->cursor, time, PROP_CURSOR);
}

guint64
strobe_view_state_get_cursor (StrobeViewState *self)
{
  g_return_val_if_fail (STROBE_IS_VIEW_STATE (self), STROBE_VIEW_STATE_NONE);
  return self->cursor;
}

void
strobe_view_state_set_hover (StrobeViewState *self,
                             guint64          time)
{
  g_return_if_fail (STROBE_IS_VIEW_STATE (self));
  set_u64 (self, &self->hover, time, PROP_HOVER);
}

guint64
strobe_view_state_get_hover (StrobeViewState *self)
{
  g_return_val_if_fail (STROBE_IS_VIEW_STATE (self), STROBE_VIEW_STATE_NONE);
  return self->hover;
}

void
strobe_view_state_set_selected_message (StrobeViewState *self,
                                        guint64          index)
{
  g_return_if_fail (STROBE_IS_VIEW_STATE (self));
  set_u64 (self, &self->message, index, PROP_SELECTED_MESSAGE);
}

guint64
strobe_view_state_get_selected_message (StrobeViewState *self)
{
  g_return_val_if_fail (STROBE_IS_VIEW_STATE (self), STROBE_VIEW_STATE_NONE);
  return self->message;
}

void
strobe_view_state_set_selected_function (StrobeViewState *self,
                                         const char      *function)
{
  g_return_if_fail (STROBE_IS_VIEW_STATE (self));

  if (function == NULL && self->function == NULL)
    return;
  g_free (self->function);
  self->function = g_strdup (function);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_FUNCTION]);
}

const char *
strobe_view_state_get_selected_function (StrobeViewState *self)
{
  g_return_val_if_fail (STROBE_IS_VIEW_STATE (self), NULL);
  return self->function;
}

void
strobe_view_state_set_follow_live (StrobeViewState *self,
                                   gboolean         follow)
{
  g_return_if_fail (STROBE_IS_VIEW_STATE (self));

  follow = !!follow;
  if (self->follow_live == follow)
    return;
  self->follow_live = follow;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW_LIVE]);
}

gboolean
strobe_view_state_get_follow_live (StrobeViewState *self)
{
  g_return_val_if_fail (STROBE_IS_VIEW_STATE (self), FALSE);
  return self->follow_live;
}
