/* bench-gtk-heavy.c — what strobe-bench-mem gives cc1 to compile (never linked, never
 * run): a C file that pulls in the whole GTK 4 header tree and has some code of its own,
 * as application sources do. cc1 makes about a million allocations for it. */
#include <gtk/gtk.h>

typedef struct
{
  GtkWidget *window;
  GtkWidget *list;
  GtkWidget *entry;
  GListStore *store;
  guint      count;
} App;

static void
on_activate_entry (GtkEntry *entry, App *app)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  GtkStringObject *item = gtk_string_object_new (text);

  g_list_store_append (app->store, item);
  g_object_unref (item);
  app->count++;
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
}

static void
setup_row (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_list_item_set_child (item, label);
}

static void
bind_row (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkStringObject *s = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  char *markup = g_markup_printf_escaped ("<b>%s</b>", gtk_string_object_get_string (s));

  gtk_label_set_markup (GTK_LABEL (label), markup);
  g_free (markup);
}

static gboolean
on_key (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state, App *app)
{
  if (keyval == GDK_KEY_Escape)
    {
      gtk_window_close (GTK_WINDOW (app->window));
      return TRUE;
    }
  return FALSE;
}

static void
activate (GtkApplication *application, App *app)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  app->window = gtk_application_window_new (application);
  app->store = g_list_store_new (GTK_TYPE_STRING_OBJECT);
  app->entry = gtk_entry_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), app);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), app);
  app->list = gtk_list_view_new (GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (app->store))), factory);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), app->list);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (box), app->entry);
  gtk_box_append (GTK_BOX (box), scrolled);
  g_signal_connect (app->entry, "activate", G_CALLBACK (on_activate_entry), app);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key), app);
  gtk_widget_add_controller (app->window, keys);
  gtk_window_set_child (GTK_WINDOW (app->window), box);
  gtk_window_set_default_size (GTK_WINDOW (app->window), 480, 640);
  gtk_window_present (GTK_WINDOW (app->window));
}

int
main (int argc, char **argv)
{
  App app = { 0 };
  GtkApplication *application = gtk_application_new ("org.strobe.BenchGtkHeavy", G_APPLICATION_DEFAULT_FLAGS);
  int status;

  g_signal_connect (application, "activate", G_CALLBACK (activate), &app);
  status = g_application_run (G_APPLICATION (application), argc, argv);
  g_object_unref (application);
  return status;
}
