/* strobe-timeline-layouts.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <gio/gio.h>

#include "strobe-timeline-layouts.h"

#define SCHEMA_ID "org.strobe.Viewer"
#define KEY       "timeline-layouts"
/* Programs remembered; beyond, one is forgotten to make room. */
#define MAX_PROGRAMS 64

static GSettings *
settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, SCHEMA_ID, TRUE) : NULL;

  if (schema == NULL || !g_settings_schema_has_key (schema, KEY))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

char *
strobe_timeline_layouts_load (const char *program)
{
  g_autoptr(GSettings) s = NULL;
  g_autoptr(GVariant) dict = NULL;
  char *layout = NULL;

  if (program == NULL || *program == '\0' || (s = settings ()) == NULL)
    return NULL;
  dict = g_settings_get_value (s, KEY);
  if (!g_variant_lookup (dict, program, "s", &layout))
    return NULL;
  return layout;
}

void
strobe_timeline_layouts_store (const char *program, const char *layout)
{
  g_autoptr(GSettings) s = NULL;
  g_autoptr(GVariant) dict = NULL;
  GVariantBuilder b;
  GVariantIter it;
  const char *k, *v;
  guint n = 0;

  if (program == NULL || *program == '\0' || (s = settings ()) == NULL)
    return;
  dict = g_settings_get_value (s, KEY);
  g_variant_builder_init (&b, G_VARIANT_TYPE ("a{ss}"));
  if (layout)
    {
      g_variant_builder_add (&b, "{ss}", program, layout);
      n++;
    }
  g_variant_iter_init (&it, dict);
  while (g_variant_iter_next (&it, "{&s&s}", &k, &v))
    if (g_strcmp0 (k, program) != 0 && n < MAX_PROGRAMS)
      {
        g_variant_builder_add (&b, "{ss}", k, v);
        n++;
      }
  g_settings_set_value (s, KEY, g_variant_builder_end (&b));
}
