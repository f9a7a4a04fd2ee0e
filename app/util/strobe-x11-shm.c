/* strobe-x11-shm.c — see the header.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "strobe-x11-shm.h"

#ifdef STROBE_X11_SHM
#include <cairo-xlib.h>
#include <gdk/x11/gdkx.h>

static const char kept_key[] = "strobe-x11-shm-kept";

/* The largest monitor in pixels (0 × 0 when GDK knows none): a window's frame is at most
 * that, one spread over two monitors aside. */
static void
largest_monitor (GdkDisplay *display, int *width, int *height)
{
  GListModel *monitors = gdk_display_get_monitors (display);

  *width = *height = 0;
  for (guint i = 0; i < g_list_model_get_n_items (monitors); i++)
    {
      g_autoptr(GdkMonitor) m = g_list_model_get_item (monitors, i);
      GdkRectangle r;
      int scale = gdk_monitor_get_scale_factor (m);

      gdk_monitor_get_geometry (m, &r);
      if ((gint64) r.width * r.height * scale * scale > (gint64) *width * *height)
        {
          *width = r.width * scale;
          *height = r.height * scale;
        }
    }
}

/* cairo makes a segment eight times the first image it is made for and gives later images
 * room in it, so one made for the largest monitor holds any frame's. The image itself is
 * cleared by cairo, which faults the pages a whole-window frame will use in now, once.
 * The small image made next goes into the same segment and keeps it. */
static void
keep_on_display (GdkDisplay *display)
{
  Display *dpy = gdk_x11_display_get_xdisplay (display);
  int screen = DefaultScreen (dpy), width, height;
  cairo_surface_t *root, *whole, *pin;

  largest_monitor (display, &width, &height);
  if (width <= 0 || height <= 0)
    {
      /* The X screen, which spans every monitor. */
      width = DisplayWidth (dpy, screen);
      height = DisplayHeight (dpy, screen);
    }
  root = cairo_xlib_surface_create (dpy, RootWindow (dpy, screen), DefaultVisual (dpy, screen), 1, 1);
  whole = cairo_surface_create_similar_image (root, CAIRO_FORMAT_ARGB32, MAX (width, 1), MAX (height, 1));
  pin = cairo_surface_create_similar_image (root, CAIRO_FORMAT_ARGB32, 16, 16);
  cairo_surface_destroy (whole);
  cairo_surface_destroy (root);
  /* Kept with the display: cairo finishes it when the display closes. */
  g_object_set_data_full (G_OBJECT (display), kept_key, pin, (GDestroyNotify) cairo_surface_destroy);
}

static void
on_realize (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (widget));

  if (GDK_IS_X11_DISPLAY (display) && GSK_IS_CAIRO_RENDERER (renderer) &&
      g_object_get_data (G_OBJECT (display), kept_key) == NULL)
    keep_on_display (display);
}
#endif

void
strobe_x11_shm_keep (GtkWindow *window)
{
  g_return_if_fail (GTK_IS_WINDOW (window));

#ifdef STROBE_X11_SHM
  if (gtk_widget_get_realized (GTK_WIDGET (window)))
    on_realize (GTK_WIDGET (window));
  else
    g_signal_connect (window, "realize", G_CALLBACK (on_realize), NULL);
#endif
}
