/* test-x11-shm.c — app/util/strobe-x11-shm.c under Xvfb with GSK's cairo renderer: a window
 * repainted whole, frame after frame, is handed to the X server through one shared memory
 * segment that stays, and its frames do not fault that segment's pages in again (what cost a
 * whole-window frame 10–25 ms while a big trace loaded). Counts this thread's page faults
 * (getrusage) and the segments mapped (/proc/self/maps).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <string.h>
#include <gtk/gtk.h>
#include <gdk/x11/gdkx.h>

#include "strobe-heap-reserve.h"
#include "strobe-x11-shm.h"
#include "thread-faults.h"

#define WIDTH  800
#define HEIGHT 600
/* A whole frame's image is WIDTH × HEIGHT × 4 bytes: 469 pages. Faults allowed for a frame
 * besides: GTK's and cairo's own small allocations, and slack. */
#define FEW    120

/* The System V segments this process has mapped (X11's shared memory), by their inode. */
static GArray *
segments (void)
{
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *inodes = g_array_new (FALSE, FALSE, sizeof (guint64));

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], "/SYSV") != NULL)
      {
        g_auto(GStrv) f = g_strsplit_set (lines[i], " ", -1);
        guint n = 0;
        guint64 inode = 0;

        /* address perms offset dev inode path (fields split by runs of spaces). */
        for (guint k = 0; f[k] != NULL; k++)
          if (*f[k] != '\0' && ++n == 5)
            inode = g_ascii_strtoull (f[k], NULL, 10);
        g_array_append_val (inodes, inode);
      }
  return inodes;
}

static guint frame;

static void
draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  /* Another colour each frame: every pixel changes, the frame is the whole window. */
  cairo_set_source_rgb (cr, (frame % 7) / 7.0, (frame % 3) / 3.0, 0.5);
  cairo_paint (cr);
}

static void
after_paint (GdkFrameClock *clock, guint *painted)
{
  (*painted)++;
}

/* Repaints @area and waits for the frame to be painted; returns this thread's faults meanwhile. */
static long
repaint (GtkWidget *area, guint *painted)
{
  guint before = *painted;
  gint64 until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  long f0 = thread_faults ();

  frame++;
  gtk_widget_queue_draw (area);
  while (*painted == before && g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (*painted, >, before);
  return thread_faults () - f0;
}

static void
test_x11_shm (void)
{
  GtkWindow *window;
  GtkWidget *area;
  GdkFrameClock *clock;
  g_autoptr(GArray) first = NULL;
  guint painted = 0;
  long most = 0;

  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      g_test_skip ("not on X11");
      return;
    }
  window = GTK_WINDOW (gtk_window_new ());
  area = gtk_drawing_area_new ();
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw, NULL, NULL);
  gtk_window_set_default_size (window, WIDTH, HEIGHT);
  gtk_window_set_decorated (window, FALSE);
  gtk_window_set_child (window, area);
  strobe_x11_shm_keep (window);
  gtk_window_present (window);
  if (!GSK_IS_CAIRO_RENDERER (gtk_native_get_renderer (GTK_NATIVE (window))))
    {
      g_test_skip ("not GSK's cairo renderer");
      gtk_window_destroy (window);
      return;
    }
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint), &painted);

  /* The first frames set GTK up (its images, its caches). */
  for (int i = 0; i < 5; i++)
    repaint (area, &painted);
  first = segments ();
  g_test_message ("%u segment(s) mapped", first->len);
  g_assert_cmpuint (first->len, ==, 1);

  for (int i = 0; i < 10; i++)
    {
      g_autoptr(GArray) now = NULL;
      long faults = repaint (area, &painted);

      most = MAX (most, faults);
      now = segments ();
      g_assert_cmpuint (now->len, ==, 1);
      g_assert_cmpuint (g_array_index (now, guint64, 0), ==, g_array_index (first, guint64, 0));
    }
  g_test_message ("a whole-window frame: at most %ld faults", most);
  /* Under a sanitizer the frame's own image faults in its allocator: the segment alone. */
  if (!SANITIZER_ALLOCATOR)
    g_assert_cmpint (most, <, FEW);
  gtk_window_destroy (window);
}

int
main (int argc, char *argv[])
{
  /* As the viewer's main(): the frame's own image comes from a heap faulted in ahead. */
  strobe_heap_reserve_start ();
  g_setenv ("GTK_A11Y", "none", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/x11-shm", test_x11_shm);
  return g_test_run ();
}
