/* test-golden.c — a small trace recorded once by rt-emitter and checked into tests/data.
 *
 * The golden outputs pin the CLI's text and, through it, the decoder: a change in how a
 * field is read shows up as a diff. The same file is then cut at every byte offset and
 * damaged packet by packet: the decoder must report what went wrong and where, deliver
 * everything before it, and never crash.
 *
 * To re-record (only when the format changes on purpose):
 *   _build/tests/roundtrip/rt-emitter types tests/data/golden-types.strobe
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli dump tests/data/golden-types.strobe > tests/data/golden-types.dump
 *   TZ=UTC LC_ALL=C _build/core/cli/strobe-cli info tests/data/golden-types.strobe > tests/data/golden-types.info
 */
#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "strobe-analyzer.h"
#include "strobe-decoder.h"

static char *golden_dir;
static const char *cli;

static char *
data_path (const char *name)
{
  return g_build_filename (golden_dir, name, NULL);
}

/* ---- CLI output against the golden files ------------------------------------------ */

static void
check_cli_output (const char *command, const char *golden)
{
  g_autofree char *trace = data_path ("golden-types.strobe");
  g_autofree char *expected_path = data_path (golden);
  g_autofree char *expected = NULL;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;

  g_file_get_contents (expected_path, &expected, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_launcher_setenv (launcher, "TZ", "UTC", TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);
  proc = g_subprocess_launcher_spawn (launcher, &error, cli, command, trace, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  g_assert_cmpstr (out, ==, expected);
}

static void
test_dump (void)
{
  check_cli_output ("dump", "golden-types.dump");
}

static void
test_info (void)
{
  check_cli_output ("info", "golden-types.info");
}

/* ---- damaged copies --------------------------------------------------------------- */

#define GOLDEN_TYPE_LOG (golden_log_get_type ())
G_DECLARE_FINAL_TYPE (GoldenLog, golden_log, GOLDEN, LOG, GObject)

struct _GoldenLog
{
  GObject    parent_instance;
  GPtrArray *lines;
};

static void
golden_log_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, 0, "*", "*");
}

static void
golden_log_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  GString *s = g_string_new (ev->type->full_name);
  g_string_append_c (s, ' ');
  strobe_event_format_fields (ev, s);
  g_ptr_array_add (GOLDEN_LOG (analyzer)->lines, g_string_free (s, FALSE));
}

static void
golden_log_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = golden_log_begin;
  iface->on_event = golden_log_on_event;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (GoldenLog, golden_log, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, golden_log_iface_init))

static void
golden_log_finalize (GObject *object)
{
  g_ptr_array_unref (GOLDEN_LOG (object)->lines);
  G_OBJECT_CLASS (golden_log_parent_class)->finalize (object);
}

static void golden_log_class_init (GoldenLogClass *klass) { G_OBJECT_CLASS (klass)->finalize = golden_log_finalize; }
static void golden_log_init (GoldenLog *self) { self->lines = g_ptr_array_new_with_free_func (g_free); }

static GoldenLog *
decode (const guint8 *data, gsize len, gboolean *clean, GError **error)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  GoldenLog *log = g_object_new (GOLDEN_TYPE_LOG, NULL);

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (log));
  if (strobe_decoder_feed (decoder, data, len, error))
    strobe_decoder_finish (decoder, error);
  if (clean)
    *clean = strobe_decoder_get_ended_cleanly (decoder);
  return log;
}

static guint8 *
load_golden (gsize *len)
{
  g_autofree char *path = data_path ("golden-types.strobe");
  g_autoptr (GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, len, &error);
  g_assert_no_error (error);
  return (guint8 *) contents;
}

/* Offsets where a packet (or the handshake) ends: a cut there is a stream that simply
 * stopped, not a torn packet. */
static GHashTable *
packet_boundaries (const guint8 *data, gsize len)
{
  GHashTable *set = g_hash_table_new (NULL, NULL);
  gsize pos = sizeof (StrobeWireHandshake) + strobe_wire_get_u16 (data + 6);

  g_hash_table_add (set, GSIZE_TO_POINTER (pos));
  while (pos + 12 <= len)
    {
      pos += strobe_wire_get_u32 (data + pos);
      g_hash_table_add (set, GSIZE_TO_POINTER (pos));
    }
  g_assert_cmpuint (pos, ==, len);
  return set;
}

static void
assert_prefix (GPtrArray *part, GPtrArray *whole)
{
  g_assert_cmpuint (part->len, <=, whole->len);
  for (guint i = 0; i < part->len; i++)
    g_assert_cmpstr (part->pdata[i], ==, whole->pdata[i]);
}

static void
test_truncate_everywhere (void)
{
  gsize len;
  g_autofree guint8 *data = load_golden (&len);
  g_autoptr (GHashTable) boundaries = packet_boundaries (data, len);
  g_autoptr (GError) error = NULL;
  g_autoptr (GoldenLog) whole = NULL;
  gboolean clean = FALSE;
  guint last_len = 0;

  whole = decode (data, len, &clean, &error);
  g_assert_no_error (error);
  g_assert_true (clean);

  for (gsize cut = 0; cut < len; cut++)
    {
      g_autoptr (GError) cut_error = NULL;
      g_autoptr (GoldenLog) part = decode (data, cut, &clean, &cut_error);

      g_assert_false (clean);
      if (g_hash_table_contains (boundaries, GSIZE_TO_POINTER (cut)))
        g_assert_no_error (cut_error);
      else
        {
          g_assert_error (cut_error, STROBE_DECODER_ERROR, STROBE_DECODER_ERROR_TRUNCATED);
          /* The message says where: the offset of the cut is in it. */
          if (cut > 0)
            {
              g_autofree char *at = g_strdup_printf ("%" G_GSIZE_FORMAT, cut);
              g_assert_nonnull (strstr (cut_error->message, at));
            }
        }
      assert_prefix (part->lines, whole->lines);
      /* Longer prefixes never deliver fewer events. */
      g_assert_cmpuint (part->lines->len, >=, last_len);
      last_len = part->lines->len;
    }
}

/* A packet whose size field is absurd: CORRUPT, naming the packet's offset, with every
 * earlier event delivered. */
static void
test_corrupt_size (void)
{
  gsize len;
  g_autofree guint8 *data = load_golden (&len);
  g_autoptr (GError) error = NULL;
  g_autoptr (GoldenLog) whole = decode (data, len, NULL, &error);
  gsize pos = sizeof (StrobeWireHandshake) + strobe_wire_get_u16 (data + 6);
  guint n_packets = 0;

  g_assert_no_error (error);
  while (pos + 12 <= len)
    {
      g_autofree guint8 *copy = g_memdup2 (data, len);
      g_autoptr (GError) bad_error = NULL;
      g_autoptr (GoldenLog) part = NULL;
      g_autofree char *at = g_strdup_printf ("%" G_GSIZE_FORMAT, pos);

      strobe_wire_put_u32 (copy + pos, 0xfffffff0u);
      part = decode (copy, len, NULL, &bad_error);
      g_assert_error (bad_error, STROBE_DECODER_ERROR, STROBE_DECODER_ERROR_CORRUPT);
      g_assert_nonnull (strstr (bad_error->message, at));
      assert_prefix (part->lines, whole->lines);
      pos += strobe_wire_get_u32 (data + pos);
      n_packets++;
    }
  g_assert_cmpuint (n_packets, >, 2);
}

/* Every single byte of every packet flipped in turn: whatever the decoder makes of it, it
 * must not crash, hang or read out of bounds (run under ASan in the extended check). */
static void
test_flip_every_byte (void)
{
  gsize len;
  g_autofree guint8 *data = load_golden (&len);
  g_autofree guint8 *copy = g_memdup2 (data, len);
  guint errors = 0;

  for (gsize i = 0; i < len; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (GoldenLog) log = NULL;

      copy[i] ^= 0x5a;
      log = decode (copy, len, NULL, &error);
      if (error)
        {
          g_assert_true (error->domain == STROBE_DECODER_ERROR);
          errors++;
        }
      copy[i] = data[i];
    }
  /* Most flips in headers, sizes, uids and LZ4 data must be caught. */
  g_assert_cmpuint (errors, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  golden_dir = g_strdup (g_getenv ("GOLDEN_DIR"));
  cli = g_getenv ("STROBE_CLI");
  g_assert_nonnull (golden_dir);
  g_assert_nonnull (cli);

  g_test_add_func ("/golden/dump", test_dump);
  g_test_add_func ("/golden/info", test_info);
  g_test_add_func ("/golden/truncate-everywhere", test_truncate_everywhere);
  g_test_add_func ("/golden/corrupt-size", test_corrupt_size);
  g_test_add_func ("/golden/flip-every-byte", test_flip_every_byte);

  return g_test_run ();
}
