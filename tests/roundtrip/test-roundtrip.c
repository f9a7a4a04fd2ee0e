/* test-roundtrip.c — emit → record → decode → compare, through the real runtime.
 *
 * rt-emitter (a program linked with the runtime) writes a trace to a file or to a TCP
 * listener this test opens on loopback; the decoder reads it back and every field is
 * compared with what the emitter set.
 */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "strobe-analyzer.h"
#include "strobe-decoder.h"
#include "strobe-info-analyzer.h"

/* ---- a recording analyzer ---------------------------------------------------------- */

#define RT_TYPE_RECORDER (rt_recorder_get_type ())
G_DECLARE_FINAL_TYPE (RtRecorder, rt_recorder, RT, RECORDER, GObject)

struct _RtRecorder
{
  GObject    parent_instance;
  GPtrArray *lines;      /* "Logger.Event Field=value ..." in delivery order */
  GArray    *sequence;   /* Test.Ordered Sequence values in delivery order */
  GArray    *order_thread;
  GArray    *serials;
  gboolean   ended;
};

static StrobeFieldAccessor seq_field = STROBE_FIELD_ACCESSOR_INIT ("Sequence");
static StrobeFieldAccessor thread_field = STROBE_FIELD_ACCESSOR_INIT ("Thread");

static void
rt_recorder_begin (StrobeAnalyzer *analyzer, StrobeAnalysisContext *ctx)
{
  strobe_analysis_context_subscribe (ctx, 1, "*", "*");
  strobe_analysis_context_subscribe (ctx, 2, "Test", "Ordered");
}

static void
rt_recorder_on_event (StrobeAnalyzer *analyzer, guint route, const StrobeEvent *ev)
{
  RtRecorder *self = RT_RECORDER (analyzer);

  if (route == 1)
    {
      GString *s = g_string_new (ev->type->full_name);
      g_string_append_c (s, ' ');
      strobe_event_format_fields (ev, s);
      g_ptr_array_add (self->lines, g_string_free (s, FALSE));
    }
  else
    {
      guint64 seq = strobe_event_get_uint (ev, &seq_field);
      guint32 thread = (guint32) strobe_event_get_uint (ev, &thread_field);
      g_array_append_val (self->sequence, seq);
      g_array_append_val (self->order_thread, thread);
      g_array_append_val (self->serials, ev->serial);
    }
}

static void
rt_recorder_end (StrobeAnalyzer *analyzer, const GError *error)
{
  RT_RECORDER (analyzer)->ended = TRUE;
}

static void
rt_recorder_iface_init (StrobeAnalyzerInterface *iface)
{
  iface->begin = rt_recorder_begin;
  iface->on_event = rt_recorder_on_event;
  iface->end = rt_recorder_end;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (RtRecorder, rt_recorder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (STROBE_TYPE_ANALYZER, rt_recorder_iface_init))

static void
rt_recorder_finalize (GObject *object)
{
  RtRecorder *self = RT_RECORDER (object);
  g_ptr_array_unref (self->lines);
  g_array_unref (self->sequence);
  g_array_unref (self->order_thread);
  g_array_unref (self->serials);
  G_OBJECT_CLASS (rt_recorder_parent_class)->finalize (object);
}

static void
rt_recorder_class_init (RtRecorderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = rt_recorder_finalize;
}

static void
rt_recorder_init (RtRecorder *self)
{
  self->lines = g_ptr_array_new_with_free_func (g_free);
  self->sequence = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->order_thread = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->serials = g_array_new (FALSE, FALSE, sizeof (guint32));
}

/* ---- helpers ------------------------------------------------------------------------ */

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  f->dir = g_dir_make_tmp ("strobe-rt-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  g_autoptr (GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
}

static GSubprocess *
spawn_emitter (const char *const *env, GError **error, const char *scenario, ...)
{
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  const char *emitter = g_getenv ("RT_EMITTER");
  const char *arg;
  va_list ap;

  g_assert_nonnull (emitter);
  g_ptr_array_add (argv, (gpointer) emitter);
  g_ptr_array_add (argv, (gpointer) scenario);
  va_start (ap, scenario);
  while ((arg = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);

  /* The test's own environment must not switch channels or outputs behind its back. */
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACE");
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACEFILE");
  g_subprocess_launcher_unsetenv (launcher, "STROBE_TRACEHOST");
  for (; env && *env; env += 2)
    g_subprocess_launcher_setenv (launcher, env[0], env[1], TRUE);
  return g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, error);
}

static void
run_emitter (const char *const *env, const char *scenario, ...)
{
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  const char *args[4] = { NULL, NULL, NULL, NULL };
  va_list ap;
  int n = 0;

  va_start (ap, scenario);
  while (n < 3 && (args[n] = va_arg (ap, const char *)) != NULL)
    n++;
  va_end (ap);

  proc = spawn_emitter (env, &error, scenario, args[0], args[1], args[2], NULL);
  g_assert_no_error (error);
  g_subprocess_wait_check (proc, NULL, &error);
  g_assert_no_error (error);
}

static RtRecorder *
decode_bytes (const guint8 *data, gsize len, gsize chunk, StrobeInfoAnalyzer **info_out,
              gboolean *ended_cleanly, GError **error)
{
  g_autoptr (StrobeDecoder) decoder = strobe_decoder_new ();
  RtRecorder *rec = g_object_new (RT_TYPE_RECORDER, NULL);
  g_autoptr (StrobeInfoAnalyzer) info = strobe_info_analyzer_new ();
  gboolean ok = TRUE;

  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (rec));
  strobe_decoder_add_analyzer (decoder, STROBE_ANALYZER (info));
  for (gsize pos = 0; ok && pos < len; pos += chunk)
    ok = strobe_decoder_feed (decoder, data + pos, MIN (chunk, len - pos), error);
  if (ok)
    strobe_decoder_finish (decoder, error);
  if (ended_cleanly)
    *ended_cleanly = strobe_decoder_get_ended_cleanly (decoder);
  if (info_out)
    *info_out = g_steal_pointer (&info);
  return rec;
}

static RtRecorder *
decode_file (const char *path, StrobeInfoAnalyzer **info_out, gboolean *ended_cleanly)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len;
  RtRecorder *rec;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  rec = decode_bytes ((const guint8 *) contents, len, len ? len : 1, info_out, ended_cleanly, &error);
  g_assert_no_error (error);
  return rec;
}

/* The lines of one logger, in order. */
static GPtrArray *
lines_of (RtRecorder *rec, const char *prefix)
{
  GPtrArray *out = g_ptr_array_new ();
  for (guint i = 0; i < rec->lines->len; i++)
    if (g_str_has_prefix (rec->lines->pdata[i], prefix))
      g_ptr_array_add (out, rec->lines->pdata[i]);
  return out;
}

static void
assert_lines (GPtrArray *got, const char *const *want)
{
  guint n = g_strv_length ((char **) want);
  for (guint i = 0; i < MIN (n, got->len); i++)
    g_assert_cmpstr (got->pdata[i], ==, want[i]);
  g_assert_cmpuint (got->len, ==, n);
}

/* ---- field types, arrays, strings, importants ------------------------------------ */

static const char *const types_expected[] = {
  "Test.Scalars Bool=true Int8=-128 Int16=-32768 Int32=-2147483648 Int64=-9223372036854775808 "
    "UInt8=255 UInt16=65535 UInt32=4294967295 UInt64=18446744073709551615 Float=0.5 "
    "Double=-1.2499999999999999e-07 Pointer=0x7f0012345678",
  "Test.Scalars Bool=false Int8=0 Int16=0 Int32=0 Int64=0 UInt8=0 UInt16=0 UInt32=0 UInt64=0 "
    "Float=0 Double=0 Pointer=0x0",
  "Test.Arrays Tag=1 Bools=[true, false, true] Int8s=[-128, 0, 127] Int16s=[-32768, 1, 32767] "
    "Int32s=[-2147483648, -1, 2147483647] Int64s=[-9223372036854775808, -1, 9223372036854775807] "
    "UInt8s=[0, 1, 255] UInt16s=[0, 2, 65535] UInt32s=[0, 3, 4294967295] "
    "UInt64s=[0, 4, 18446744073709551615] Floats=[-1.5, 0.25, 3.00000001e+38] "
    "Doubles=[-2.5, 1e-300, 1.0000000000000001e+300] "
    "Pointers=[0x0, 0x1234, 0xdeadbeefcafe]",
  "Test.Arrays Tag=2 Bools=[] Int8s=[] Int16s=[] Int32s=[] Int64s=[] UInt8s=[0, 1] UInt16s=[] "
    "UInt32s=[] UInt64s=[] Floats=[] Doubles=[] Pointers=[]",
  "Test.Strings Tag=1 Ansi=\"hello, strobe\" Wide=\"grüße\"",
  "Test.Strings Tag=2 Ansi=\"explicit-length\" Wide=\"wide\360\237\230\200\"",
  "Test.Strings Tag=3 Ansi=\"cafi A\" Wide=\"\"",
  "Test.Strings Tag=4 Ansi=\"\" Wide=\"\"",
  NULL
};

static void
check_types (RtRecorder *rec)
{
  g_autoptr (GPtrArray) test_lines = lines_of (rec, "Test.");
  g_autoptr (GPtrArray) without_spec = g_ptr_array_new ();
  gboolean saw_spec = FALSE;

  for (guint i = 0; i < test_lines->len; i++)
    {
      if (g_str_equal (test_lines->pdata[i], "Test.Spec Id=7 Name=\"important-spec\""))
        saw_spec = TRUE;
      else
        g_ptr_array_add (without_spec, test_lines->pdata[i]);
    }
  g_assert_true (saw_spec);
  assert_lines (without_spec, types_expected);
}

static void
test_types_file (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "types.strobe", NULL);
  g_autoptr (RtRecorder) rec = NULL;
  g_autoptr (StrobeInfoAnalyzer) info = NULL;
  gboolean clean = FALSE;

  run_emitter (NULL, "types", path, NULL);
  rec = decode_file (path, &info, &clean);
  g_assert_true (clean);
  g_assert_true (rec->ended);
  check_types (rec);
}

/* The same trace fed one byte at a time, then in odd-sized chunks: same events. */
static void
test_types_chunks (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "types.strobe", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (RtRecorder) whole = NULL;
  gsize len;
  const gsize chunks[] = { 1, 7, 4093 };

  run_emitter (NULL, "types", path, NULL);
  whole = decode_file (path, NULL, NULL);
  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);

  for (guint c = 0; c < G_N_ELEMENTS (chunks); c++)
    {
      g_autoptr (RtRecorder) rec = decode_bytes ((const guint8 *) contents, len, chunks[c],
                                                 NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (rec->lines->len, ==, whole->lines->len);
      for (guint i = 0; i < rec->lines->len; i++)
        g_assert_cmpstr (rec->lines->pdata[i], ==, whole->lines->pdata[i]);
    }
}

/* TCP output to a real loopback listener: the same events as the file. */
static void
test_types_tcp (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSocket) listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                               G_SOCKET_PROTOCOL_TCP, &error);
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any = g_inet_socket_address_new (lo, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GSocket) conn = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  g_autoptr (RtRecorder) rec = NULL;
  g_autofree char *target = NULL;
  gboolean clean = FALSE;
  guint8 buf[65536];
  gssize n;

  g_assert_no_error (error);
  g_socket_bind (listener, any, TRUE, &error);
  g_assert_no_error (error);
  g_socket_listen (listener, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (listener, &error);
  g_assert_no_error (error);
  target = g_strdup_printf ("tcp:127.0.0.1:%u",
                            g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));

  proc = spawn_emitter (NULL, &error, "types", target, NULL);
  g_assert_no_error (error);

  g_assert_true (g_socket_condition_timed_wait (listener, G_IO_IN, 20 * G_USEC_PER_SEC, NULL, &error));
  conn = g_socket_accept (listener, NULL, &error);
  g_assert_no_error (error);
  g_socket_set_timeout (conn, 20);
  while ((n = g_socket_receive (conn, (char *) buf, sizeof buf, NULL, &error)) > 0)
    g_byte_array_append (bytes, buf, (guint) n);
  g_assert_no_error (error);
  g_subprocess_wait_check (proc, NULL, &error);
  g_assert_no_error (error);

  rec = decode_bytes (bytes->data, bytes->len, 4096, NULL, &clean, &error);
  g_assert_no_error (error);
  g_assert_true (clean);
  check_types (rec);
}

/* ---- channels -------------------------------------------------------------------- */

static void
test_channels (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "channels.strobe", NULL);
  const char *env[] = { "STROBE_TRACE", "aLpHa", NULL };
  g_autoptr (RtRecorder) rec = NULL;
  g_autoptr (GPtrArray) sites = NULL;
  g_autoptr (GPtrArray) toggles = NULL;
  g_autoptr (GPtrArray) announces = NULL;
  g_autofree char *beta_on = NULL, *alpha_off = NULL;
  static const char *const want[] = {
    /* Phase 1: Alpha from STROBE_TRACE, case-insensitive. Multi-channel sites need all. */
    "Test.Site Phase=1 Site=1",
    /* Phase 2: Beta enabled by API. */
    "Test.Site Phase=2 Site=1",
    "Test.Site Phase=2 Site=2",
    "Test.Site Phase=2 Site=3",
    /* Phase 3: Alpha disabled by its plural. */
    "Test.Site Phase=3 Site=2",
    NULL
  };

  run_emitter (env, "channels", path, NULL);
  rec = decode_file (path, NULL, NULL);
  sites = lines_of (rec, "Test.Site ");
  assert_lines (sites, want);

  /* Every channel announced with its state at the time, and every toggle. */
  announces = lines_of (rec, "$Trace.ChannelAnnounce ");
  toggles = lines_of (rec, "$Trace.ChannelToggle ");
  {
    gboolean alpha = FALSE, beta = FALSE, gamma = FALSE;
    for (guint i = 0; i < announces->len; i++)
      {
        const char *l = announces->pdata[i];
        alpha |= strstr (l, "Name=\"Alpha\"") != NULL;
        beta |= strstr (l, "Name=\"Beta\"") != NULL;
        gamma |= strstr (l, "Name=\"Gamma\"") != NULL;
      }
    g_assert_true (alpha && beta && gamma);
  }
  beta_on = g_strdup_printf ("Id=%u Enabled=true", strobe_wire_channel_id ("beta", 4));
  alpha_off = g_strdup_printf ("Id=%u Enabled=false", strobe_wire_channel_id ("ALPHA", 5));
  {
    gboolean saw_beta_on = FALSE, saw_alpha_off = FALSE;
    for (guint i = 0; i < toggles->len; i++)
      {
        saw_beta_on |= strstr (toggles->pdata[i], beta_on) != NULL;
        saw_alpha_off |= strstr (toggles->pdata[i], alpha_off) != NULL;
      }
    g_assert_true (saw_beta_on);
    g_assert_true (saw_alpha_off);
  }
}

/* ---- several threads: serial order restored ---------------------------------------- */

static void
check_threads (const char *path, guint32 first_serial)
{
  g_autoptr (RtRecorder) rec = NULL;
  g_autoptr (StrobeInfoAnalyzer) info = NULL;
  g_autoptr (GPtrArray) infos = NULL;
  guint per_thread[4] = { 0 };
  gboolean wrapped = FALSE;

  rec = decode_file (path, &info, NULL);
  g_assert_cmpuint (rec->sequence->len, ==, 4 * 20000);
  for (guint i = 0; i < rec->sequence->len; i++)
    {
      guint32 t = g_array_index (rec->order_thread, guint32, i);
      guint32 serial = g_array_index (rec->serials, guint32, i);
      g_assert_cmpuint (g_array_index (rec->sequence, guint64, i), ==, i);
      g_assert_cmpuint (serial, ==, (first_serial + i) & 0xffffff);
      g_assert_cmpuint (t, <, 4);
      per_thread[t]++;
      if (i > 0 && serial < g_array_index (rec->serials, guint32, i - 1))
        wrapped = TRUE;
    }
  for (guint t = 0; t < 4; t++)
    g_assert_cmpuint (per_thread[t], ==, 20000);
  if (first_serial > 0xffffff - 4 * 20000)
    g_assert_true (wrapped);

  infos = lines_of (rec, "$Trace.ThreadInfo ");
  for (guint t = 0; t < 4; t++)
    {
      g_autofree char *name = g_strdup_printf ("Name=\"worker-%u\" Group=\"rt-workers\"", t);
      gboolean found = FALSE;
      for (guint i = 0; i < infos->len; i++)
        found |= strstr (infos->pdata[i], name) != NULL;
      g_assert_true (found);
    }
}

static void
test_threads (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "threads.strobe", NULL);
  run_emitter (NULL, "threads", path, NULL);
  check_threads (path, 0);
}

/* The 24-bit serial wraps in the middle of the run: order must survive it. */
static void
test_threads_wrap (Fixture *f, gconstpointer data)
{
  g_autofree char *path = g_build_filename (f->dir, "threads-wrap.strobe", NULL);
  const char *env[] = { "RT_SERIAL_START", "16757216", NULL };   /* 2^24 - 20000 */
  run_emitter (env, "threads", path, NULL);
  check_threads (path, 16757216);
}

/* ---- output switched at run time ------------------------------------------------- */

static void
test_switch (Fixture *f, gconstpointer data)
{
  g_autofree char *first = g_build_filename (f->dir, "first.strobe", NULL);
  g_autofree char *second = g_build_filename (f->dir, "second.strobe", NULL);
  const char *files[] = { first, second };

  run_emitter (NULL, "switch", first, second, NULL);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (RtRecorder) rec = NULL;
      g_autoptr (GPtrArray) test_lines = NULL;
      g_autofree char *tick = g_strdup_printf ("Test.NoSyncTick Phase=%u ", i + 1);
      g_autofree char *site = g_strdup_printf ("Test.Site Phase=%u Site=9", i + 1);
      gboolean clean = FALSE;

      rec = decode_file (files[i], NULL, &clean);
      g_assert_true (clean);
      test_lines = lines_of (rec, "Test.");
      /* Each file is complete on its own: the important event from before the switch is
       * replayed into the second file, and each holds its own phase only. */
      g_assert_cmpuint (test_lines->len, ==, 3);
      g_assert_cmpstr (test_lines->pdata[0], ==, "Test.Spec Id=1 Name=\"before-switch\"");
      g_assert_true (g_str_has_prefix (test_lines->pdata[1], tick));
      g_assert_cmpstr (test_lines->pdata[2], ==, site);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/roundtrip/types/file", test_types_file);
  ADD ("/roundtrip/types/chunks", test_types_chunks);
  ADD ("/roundtrip/types/tcp", test_types_tcp);
  ADD ("/roundtrip/channels", test_channels);
  ADD ("/roundtrip/threads/order", test_threads);
  ADD ("/roundtrip/threads/wrap", test_threads_wrap);
  ADD ("/roundtrip/switch", test_switch);
#undef ADD

  return g_test_run ();
}
