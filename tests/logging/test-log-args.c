/* test-log-args.c — the log model leaves message arguments in the trace file.
 *
 * - One trace read two ways: from its file (arguments left there, read back on demand)
 *   and fed from memory (no file: arguments copied into the arena). Every message —
 *   across LZ4 and raw packets, three threads, arguments split over two AuxData records,
 *   none at all, 70 KB strings (past a segment's 64 KiB of offsets), time jumps past 2^32
 *   ticks and a clock that steps back (past a segment's time range) — must read the same
 *   (the arena's full chunks packed as LZ4 blocks, read back across block boundaries):
 *   time, thread, site, arguments byte for byte, text; and the file-backed model must
 *   have copied no argument at all.
 * - The file replaced (renamed over) after it was read: still read from the file that
 *   was open. Written over in place instead: the messages still list with their time and
 *   thread, and their text says the arguments cannot be read, instead of showing
 *   someone else's bytes or crashing.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log-stream.h"
#include "strobe-decoder.h"
#include "strobe-log-item-private.h"
#include "strobe-log-list.h"
#include "strobe-log-model-private.h"

/* Enough for the arena to fill and pack several chunks (a MiB each). */
#define N_MESSAGES 60000

static const char *const words[] = { "alice", "bob", "example.org", "textures", "meshes" };

static GBytes *
make_trace (void)
{
  g_autoptr(Tsb) b = log_stream_new ();
  g_autofree char *big = g_strnfill (70000, 'b');
  guint64 t[3] = { 1000, 1500, 1200 };

  log_stream_category (b, 1, "Net", 5);
  log_stream_spec (b, 1, 1, "net.c", 10, 5, "request %d from %s took %.3f ms");
  log_stream_spec (b, 2, 1, "net.c", 20, 3, "big %s");
  log_stream_spec (b, 3, 1, "net.c", 30, 4, "no arguments");
  for (guint i = 0; i < N_MESSAGES; i++)
    {
      guint k = i % 3;
      guint16 tid = (guint16) (16 + k);

      t[k] += 1 + i % 7;
      if (i == N_MESSAGES / 2)
        t[k] += G_GUINT64_CONSTANT (1) << 33;   /* past a segment's 32-bit times */
      if (i % 1001 == 500)
        t[k] -= 100;                            /* a clock that stepped back */
      if (i % 997 == 13)
        {
          g_autoptr(GBytes) args = log_args ("s", big);

          log_stream_message (b, tid, t[k], 2, args);
        }
      else if (i % 211 == 7)
        log_stream_message (b, tid, t[k], 3, NULL);
      else
        {
          g_autoptr(GBytes) args = log_args ("isd", (int) i, words[i % G_N_ELEMENTS (words)], i / 7.0);

          if (i % 50 == 3)
            log_stream_message_split (b, tid, t[k], 1, args, 5);
          else
            log_stream_message (b, tid, t[k], 1, args);
        }
      if (i % 97 == 96)
        tsb_flush (b, tid, (i / 97) % 2 ? TSB_LZ4 : TSB_RAW);
    }
  tsb_flush_all (b, TSB_AUTO);
  tsb_end_stream (b);
  return tsb_bytes (b);
}

static char *
write_trace (GBytes *bytes)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("strobe-log-args-XXXXXX.strobe", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return path;
}

static StrobeLogModel *
read_file (const char *path)
{
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  StrobeLogModel *model = strobe_log_model_new ();
  g_autoptr(GError) error = NULL;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  strobe_decoder_read_file (decoder, path, NULL, &error);
  g_assert_no_error (error);
  return model;
}

static StrobeLogModel *
feed_bytes (GBytes *bytes)
{
  g_autoptr(StrobeDecoder) decoder = strobe_decoder_new ();
  StrobeLogModel *model = strobe_log_model_new ();
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (model));
  for (gsize pos = 0; pos < len && error == NULL; pos += 4096)
    strobe_decoder_feed (decoder, data + pos, MIN (4096, len - pos), &error);
  g_assert_no_error (error);
  strobe_decoder_finish (decoder, &error);
  g_assert_no_error (error);
  return model;
}

static void
test_file_and_arena (void)
{
  g_autoptr(GBytes) bytes = make_trace ();
  g_autofree char *path = write_trace (bytes);
  g_autoptr(StrobeLogModel) in_file = read_file (path);
  g_autoptr(StrobeLogModel) in_memory = feed_bytes (bytes);
  g_autoptr(StrobeLogOrder) a = strobe_log_model_ref_order (in_file);
  g_autoptr(StrobeLogOrder) b = strobe_log_model_ref_order (in_memory);
  g_autoptr(GString) text_a = g_string_new (NULL);
  g_autoptr(GString) text_b = g_string_new (NULL);
  g_autoptr(GByteArray) args_a = g_byte_array_new ();
  g_autoptr(GByteArray) args_b = g_byte_array_new ();
  StrobeLogModelMemory mem_a, mem_b;
  guint split = 0, big = 0, none = 0, expect_big = 0;
  gsize raw_args = 0;

  strobe_log_model_get_memory (in_file, &mem_a);
  strobe_log_model_get_memory (in_memory, &mem_b);
  g_assert_cmpuint (mem_a.messages, ==, N_MESSAGES);
  /* Nothing copied, nothing read yet: every argument is still in the file. */
  g_assert_cmpuint (mem_a.arguments, ==, 0);
  g_assert_cmpuint (mem_b.arguments, >, 0);
  /* 8 bytes a message and a segment per run: well under the 16 the records took. */
  g_assert_cmpuint (mem_a.records, <, 12 * N_MESSAGES);

  g_assert_cmpuint (a->n, ==, N_MESSAGES);
  g_assert_cmpuint (b->n, ==, N_MESSAGES);
  for (guint64 p = 0; p < a->n; p++)
    {
      StrobeLogEntry ea, eb;

      g_assert_cmpuint (strobe_log_model_read (in_file, a, p, 1, &ea), ==, 1);
      g_assert_cmpuint (strobe_log_model_read (in_memory, b, p, 1, &eb), ==, 1);
      g_assert_cmpuint (ea._args.kind, ==, STROBE_LOG_ARGS_FILE);
      g_assert_cmpuint (eb._args.kind, ==, STROBE_LOG_ARGS_ARENA);
      g_assert_cmpuint (ea.time, ==, eb.time);
      g_assert_cmpuint (ea.record, ==, eb.record);
      g_assert_cmpuint (ea.thread_id, ==, eb.thread_id);
      g_assert_cmpuint (ea.spec_id, ==, eb.spec_id);
      g_assert_cmpuint (ea.verbosity, ==, eb.verbosity);
      g_byte_array_set_size (args_a, 0);
      g_byte_array_set_size (args_b, 0);
      g_assert_true (strobe_log_model_get_args (&ea, args_a, NULL));
      g_assert_true (strobe_log_model_get_args (&eb, args_b, NULL));
      g_assert_cmpmem (args_a->data, args_a->len, args_b->data, args_b->len);
      raw_args += args_b->len;
      g_assert_true (strobe_log_model_format_entry (&ea, text_a));
      g_assert_true (strobe_log_model_format_entry (&eb, text_b));
      g_assert_cmpstr (text_a->str, ==, text_b->str);
      if (ea.spec_id == 2)
        {
          g_assert_cmpuint (text_a->len, ==, 4 + 70000);
          big++;
        }
      else if (ea.spec_id == 3)
        {
          g_assert_cmpstr (text_a->str, ==, "no arguments");
          none++;
        }
      else
        {
          guint i;
          char word[32];

          g_assert_cmpint (sscanf (text_a->str, "request %u from %31s", &i, word), ==, 2);
          g_assert_cmpstr (word, ==, words[i % G_N_ELEMENTS (words)]);
          split += i % 50 == 3;
        }
    }
  for (guint i = 0; i < N_MESSAGES; i++)
    expect_big += i % 997 == 13;
  g_assert_cmpuint (big, ==, expect_big);
  /* The arena's full chunks are packed: well under the arguments' own bytes. */
  g_assert_cmpuint (raw_args, >, 4u << 20);
  g_assert_cmpuint (mem_b.arguments, <, raw_args / 2);
  g_assert_cmpuint (none, >, 20);
  g_assert_cmpuint (split, >, 1000);

  /* Reading them back keeps a few decoded packets, not the trace's arguments. */
  strobe_log_model_get_memory (in_file, &mem_a);
  g_assert_cmpuint (mem_a.arguments, >, 0);
  g_assert_cmpuint (mem_a.arguments, <=, 17u << 20);

  /* The item's arguments are its own copy, read from the file. */
  {
    g_autoptr(StrobeLogList) list = strobe_log_list_new (in_file);
    g_autoptr(StrobeLogItem) item = g_list_model_get_item (G_LIST_MODEL (list), 1);
    StrobeLogEntry e;
    gsize len;
    const guint8 *data = strobe_log_item_get_args (item, &len);

    strobe_log_model_read (in_memory, b, strobe_log_item_get_position (item), 1, &e);
    g_byte_array_set_size (args_b, 0);
    strobe_log_model_get_args (&e, args_b, NULL);
    g_assert_cmpmem (data, len, args_b->data, args_b->len);
  }
  g_unlink (path);
}

static void
test_file_changed (void)
{
  g_autoptr(GBytes) bytes = make_trace ();
  g_autofree char *path = write_trace (bytes);
  g_autoptr(StrobeLogModel) model = read_file (path);
  g_autoptr(StrobeLogModel) reference = feed_bytes (bytes);
  g_autoptr(StrobeLogOrder) order = strobe_log_model_ref_order (model);
  g_autoptr(StrobeLogOrder) ref_order = strobe_log_model_ref_order (reference);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  StrobeLogEntry e, r;

  /* Replaced by another file (a new inode, as an atomic save makes): the open file is
   * still the one that was read. */
  g_file_set_contents (path, "", 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strobe_log_model_read (model, order, 1, 1, &e), ==, 1);
  g_assert_true (strobe_log_model_format_entry (&e, text));
  g_assert_true (g_str_has_prefix (text->str, "request "));
  g_unlink (path);
  g_clear_object (&model);
  g_clear_pointer (&order, strobe_log_order_unref);
  g_free (path);
  path = write_trace (bytes);
  model = read_file (path);
  order = strobe_log_model_ref_order (model);

  /* Written over in place: the same size, other bytes. */
  {
    g_autofree guint8 *junk = g_malloc0 (g_bytes_get_size (bytes));
    FILE *f = fopen (path, "r+b");

    g_assert_nonnull (f);
    g_assert_cmpuint (fwrite (junk, 1, g_bytes_get_size (bytes), f), ==, g_bytes_get_size (bytes));
    fclose (f);
  }
  for (guint64 p = 0; p < order->n; p += 577)
    {
      g_assert_cmpuint (strobe_log_model_read (model, order, p, 1, &e), ==, 1);
      g_assert_cmpuint (strobe_log_model_read (reference, ref_order, p, 1, &r), ==, 1);
      g_assert_cmpuint (e.time, ==, r.time);
      g_assert_cmpuint (e.thread_id, ==, r.thread_id);
      g_assert_false (strobe_log_model_format_entry (&e, text));
      g_assert_true (g_str_has_prefix (text->str, "(arguments unreadable: "));
    }

  /* Gone altogether. */
  g_assert_cmpint (truncate (path, 0), ==, 0);
  g_assert_cmpuint (strobe_log_model_read (model, order, order->n - 1, 1, &e), ==, 1);
  g_assert_false (strobe_log_model_format_entry (&e, text));
  g_assert_true (g_str_has_prefix (text->str, "(arguments unreadable: "));
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/log-args/file-and-arena", test_file_and_arena);
  g_test_add_func ("/log-args/file-changed", test_file_changed);
  return g_test_run ();
}
