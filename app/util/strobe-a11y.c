/* strobe-a11y.c
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-a11y.h"

#include <string.h>

char *
strobe_a11y_strip_mnemonic (const char *text)
{
  GString *out;

  g_return_val_if_fail (text != NULL, NULL);

  out = g_string_sized_new (strlen (text));
  for (const char *p = text; *p; p++)
    {
      if (*p == '_')
        {
          if (p[1] == '_')
            g_string_append_c (out, *++p);
          continue;
        }
      g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

void
strobe_a11y_set_name (GtkWidget  *widget,
                      const char *name)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (name != NULL);

  gtk_accessible_reset_relation (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

void
strobe_a11y_name_drop_down (GtkDropDown *drop_down,
                            const char  *name)
{
  g_return_if_fail (GTK_IS_DROP_DOWN (drop_down));
  g_return_if_fail (name != NULL);

  strobe_a11y_set_name (GTK_WIDGET (drop_down), name);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (drop_down)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      strobe_a11y_set_name (child, name);
}

void
strobe_a11y_fix_mnemonic_button (GtkButton *button)
{
  g_autofree char *plain = NULL;

  g_return_if_fail (GTK_IS_BUTTON (button));
  g_return_if_fail (gtk_button_get_label (button) != NULL);

  plain = strobe_a11y_strip_mnemonic (gtk_button_get_label (button));
  strobe_a11y_set_name (GTK_WIDGET (button), plain);
}

GtkWidget *
strobe_a11y_button_new_with_mnemonic (const char *text)
{
  GtkWidget *button;

  g_return_val_if_fail (text != NULL, NULL);

  button = gtk_button_new_with_mnemonic (text);
  strobe_a11y_fix_mnemonic_button (GTK_BUTTON (button));
  return button;
}

void
strobe_a11y_fix_stack_switcher (GtkStackSwitcher *switcher)
{
  g_return_if_fail (GTK_IS_STACK_SWITCHER (switcher));

  for (GtkWidget *button = gtk_widget_get_first_child (GTK_WIDGET (switcher)); button != NULL;
       button = gtk_widget_get_next_sibling (button))
    {
      GtkWidget *label = gtk_widget_get_first_child (button);

      /* The button's label shows the title without its underscore. */
      if (GTK_IS_LABEL (label))
        strobe_a11y_set_name (button, gtk_label_get_text (GTK_LABEL (label)));
    }
}

void
strobe_a11y_make_copyable (GtkLabel *label)
{
  g_return_if_fail (GTK_IS_LABEL (label));

  gtk_label_set_selectable (label, TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (label), FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (label), FALSE);
}

void
strobe_a11y_show_info_bar (GtkInfoBar *bar, gboolean shown)
{
  g_return_if_fail (GTK_IS_INFO_BAR (bar));
  gtk_widget_set_visible (GTK_WIDGET (bar), shown);
  gtk_info_bar_set_revealed (bar, shown);
}
