/* strobe-log-item.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-log-item.h"
#include "strobe-log-item-private.h"

#include "strobe-log-format.h"
#include "strobe-text.h"

#include <string.h>

#define DISPLAY_MAX 1024

struct _StrobeLogItem
{
  GObject         parent_instance;

  StrobeLogModel *model;
  StrobeLogEntry  entry;
  char           *text;          /* formatted on first use */
  char           *display_text;
  gboolean        well_formed;
  GByteArray     *args;          /* read on first use */
};

G_DEFINE_FINAL_TYPE (StrobeLogItem, strobe_log_item, G_TYPE_OBJECT)

static void
strobe_log_item_finalize (GObject *object)
{
  StrobeLogItem *self = STROBE_LOG_ITEM (object);

  g_clear_object (&self->model);
  g_free (self->text);
  g_free (self->display_text);
  g_clear_pointer (&self->args, g_byte_array_unref);
  G_OBJECT_CLASS (strobe_log_item_parent_class)->finalize (object);
}

static void
strobe_log_item_class_init (StrobeLogItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strobe_log_item_finalize;
}

static void
strobe_log_item_init (StrobeLogItem *self)
{
}

StrobeLogItem *
strobe_log_item_new (StrobeLogModel       *model,
                     const StrobeLogEntry *entry)
{
  StrobeLogItem *self;

  g_return_val_if_fail (STROBE_IS_LOG_MODEL (model), NULL);
  g_return_val_if_fail (entry != NULL, NULL);

  self = g_object_new (STROBE_TYPE_LOG_ITEM, NULL);
  self->model = g_object_ref (model);
  self->entry = *entry;
  return self;
}

const StrobeLogEntry *
strobe_log_item_get_entry (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), NULL);
  return &self->entry;
}

StrobeLogModel *
strobe_log_item_get_model (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), NULL);
  return self->model;
}

guint64
strobe_log_item_get_position (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), 0);
  return self->entry.position;
}

guint64
strobe_log_item_find_index (StrobeLogItem *self)
{
  g_autoptr(StrobeLogOrder) order = NULL;

  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), 0);
  order = strobe_log_model_ref_order (self->model);
  return strobe_log_model_lower_bound (self->model, order, self->entry.time, self->entry.record);
}

guint64
strobe_log_item_get_time (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), 0);
  return self->entry.time;
}

guint16
strobe_log_item_get_thread_id (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), 0);
  return self->entry.thread_id;
}

guint8
strobe_log_item_get_verbosity (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), 0);
  return self->entry.verbosity;
}

guint32
strobe_log_item_get_category_id (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), 0);
  return self->entry.category_id;
}

guint32
strobe_log_item_get_spec_id (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), 0);
  return self->entry.spec_id;
}

const StrobeLogSpecInfo *
strobe_log_item_get_spec (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), NULL);
  return self->entry.spec;
}

const char *
strobe_log_item_get_category_name (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), NULL);
  if (self->entry.spec != NULL && self->entry.spec->category != NULL)
    return self->entry.spec->category->name;
  return NULL;
}

static void
ensure_text (StrobeLogItem *self)
{
  GString *out;

  if (self->text != NULL)
    return;
  out = g_string_new (NULL);
  self->well_formed = strobe_log_model_format_entry (&self->entry, out);
  self->text = g_string_free (out, FALSE);
}

const char *
strobe_log_item_get_text (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), NULL);
  ensure_text (self);
  return self->text;
}

const char *
strobe_log_item_get_display_text (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), NULL);
  if (self->display_text == NULL)
    {
      gsize len;

      ensure_text (self);
      /* One line of a table shows a few hundred characters; shaping megabytes of a
       * hostile message would stall every frame it is on screen. */
      len = strlen (self->text);
      if (len > DISPLAY_MAX)
        {
          const char *end = g_utf8_find_prev_char (self->text, self->text + DISPLAY_MAX + 1);
          GString *out = g_string_new (NULL);

          strobe_text_append_escaped (out, self->text, end ? end - self->text : DISPLAY_MAX, STROBE_TEXT_PLAIN);
          g_string_append (out, "…");
          self->display_text = g_string_free (out, FALSE);
        }
      else
        self->display_text = strobe_text_escape (self->text, STROBE_TEXT_PLAIN);
    }
  return self->display_text;
}

gboolean
strobe_log_item_is_well_formed (StrobeLogItem *self)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), FALSE);
  ensure_text (self);
  return self->well_formed;
}

const guint8 *
strobe_log_item_get_args (StrobeLogItem *self,
                          gsize         *len)
{
  g_return_val_if_fail (STROBE_IS_LOG_ITEM (self), NULL);
  if (self->args == NULL)
    {
      self->args = g_byte_array_new ();
      /* Unreadable (the file changed): no bytes, as the text says. */
      strobe_log_model_get_args (&self->entry, self->args, NULL);
    }
  if (len)
    *len = self->args->len;
  return self->args->data;
}
