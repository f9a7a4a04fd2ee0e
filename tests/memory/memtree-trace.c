/* memtree-trace.c — writes tests/data/golden-memtree.strobe: allocations under known call
 * stacks (made-up addresses in no module, so they print the same on every machine), with
 * a recursive function and a function called from two places, for the golden outputs of
 * `strobe-cli memory --tree`, `--callers` and `--flame` (test-golden-logmem.c).
 *
 *   _build/tests/memory/memtree-trace tests/data/golden-memtree.strobe
 *
 * SPDX-License-Identifier: MIT
 */
#include <glib.h>

#include "test-stream-builder.h"

#define TID 16

enum
{
  UID_ALLOC = TSB_UID_USER,
  UID_FREE,
  UID_CALLSTACK,
};

/* Frames innermost first. 0x3000 "main" calls 0x2000 "parse" and 0x4000 "load"; both call
 * 0x1000 "alloc"; 0x5000 "walk" recurses under parse. */
static const guint64 stacks[][5] = {
  { 0x1000, 0x2000, 0x3000 },
  { 0x1000, 0x4000, 0x3000 },
  { 0x5000, 0x5000, 0x5000, 0x2000, 0x3000 },
  { 0x6000, 0x3000 },
};
static const guint n_frames[] = { 3, 3, 5, 2 };

int
main (int argc, char **argv)
{
  static const TsbField alloc[] = {
    { "Cycle", STROBE_TYPE_UINT64 }, { "Address", STROBE_TYPE_POINTER }, { "Size", STROBE_TYPE_UINT64 },
    { "Alignment", STROBE_TYPE_UINT32 }, { "HeapId", STROBE_TYPE_UINT32 }, { "Tag", STROBE_TYPE_UINT32 },
    { "CallstackId", STROBE_TYPE_UINT32 },
  };
  static const TsbField free_[] = {
    { "Cycle", STROBE_TYPE_UINT64 }, { "Address", STROBE_TYPE_POINTER }, { "HeapId", STROBE_TYPE_UINT32 },
  };
  static const TsbField stack[] = { { "Id", STROBE_TYPE_UINT32 }, { "Frames", STROBE_TYPE_ARRAY | STROBE_TYPE_POINTER } };
  /* (stack, size, freed): what each allocation was. */
  static const guint sizes[][3] = {
    { 1, 100, 1 }, { 1, 200, 0 }, { 2, 1000, 0 }, { 3, 50, 1 }, { 3, 70, 0 }, { 4, 5, 0 }, { 0, 9, 0 },
    { 1, 300, 1 },
  };
  g_autoptr (GError) error = NULL;
  Tsb *b;
  const guint8 *data;
  gsize len;
  guint64 t = 1000;

  if (argc != 2)
    {
      g_printerr ("usage: memtree-trace FILE\n");
      return 2;
    }
  b = tsb_new ();
  tsb_handshake (b);
  tsb_define_system (b);
  tsb_define (b, UID_ALLOC, "Memory", "Alloc", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (alloc), alloc);
  tsb_define (b, UID_FREE, "Memory", "Free", STROBE_EVENT_FLAG_NOSYNC, G_N_ELEMENTS (free_), free_);
  tsb_define (b, UID_CALLSTACK, "Memory", "Callstack", STROBE_EVENT_FLAG_IMPORTANT, G_N_ELEMENTS (stack), stack);
  tsb_flush_all (b, TSB_AUTO);
  for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
    {
      tsb_begin (b, STROBE_TID_IMPORTANTS, UID_CALLSTACK, 0);
      tsb_set_int (b, 0, i + 1);
      tsb_aux (b, 1, stacks[i], n_frames[i] * sizeof (guint64));
      tsb_end (b);
    }
  tsb_flush_all (b, TSB_AUTO);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      guint64 v[] = { t += 10, 0x10000 + 0x1000 * i, sizes[i][1], 0, 0, 0, sizes[i][0] };
      tsb_event (b, TID, UID_ALLOC, 0, G_N_ELEMENTS (v), v);
    }
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    if (sizes[i][2])
      {
        guint64 v[] = { t += 10, 0x10000 + 0x1000 * i, 0 };
        tsb_event (b, TID, UID_FREE, 0, G_N_ELEMENTS (v), v);
      }
  tsb_flush_all (b, TSB_AUTO);
  tsb_end_stream (b);
  data = tsb_data (b, &len);
  if (!g_file_set_contents (argv[1], (const char *) data, (gssize) len, &error))
    {
      g_printerr ("memtree-trace: %s\n", error->message);
      return 1;
    }
  tsb_free (b);
  return 0;
}
