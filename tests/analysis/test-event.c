/* test-event.c — every field type read back through the accessors.
 *
 * SPDX-License-Identifier: MIT
 */
#include "strobe-analysis.h"
#include "test-log-analyzer.h"
#include "test-stream-builder.h"

#include <math.h>

enum { UID_ALL = TSB_UID_USER, UID_A, UID_B, UID_LATIN };

enum
{
  F_B, F_I8, F_U8, F_I16, F_U16, F_I32, F_U32, F_I64, F_U64, F_F32, F_F64, F_P,
  F_ARR, F_NAME, F_WIDE, F_BYTES, F_UNSET, F_ODD, N_ALL
};

static const TsbField all_fields[N_ALL] = {
  { "B", STROBE_TYPE_BOOL }, { "I8", STROBE_TYPE_INT8 }, { "U8", STROBE_TYPE_UINT8 },
  { "I16", STROBE_TYPE_INT16 }, { "U16", STROBE_TYPE_UINT16 }, { "I32", STROBE_TYPE_INT32 },
  { "U32", STROBE_TYPE_UINT32 }, { "I64", STROBE_TYPE_INT64 }, { "U64", STROBE_TYPE_UINT64 },
  { "F32", STROBE_TYPE_FLOAT32 }, { "F64", STROBE_TYPE_FLOAT64 }, { "P", STROBE_TYPE_POINTER, 8 },
  { "Arr", STROBE_TYPE_ARRAY | STROBE_TYPE_INT32 }, { "Name", STROBE_TYPE_ANSI },
  { "Wide", STROBE_TYPE_WIDE }, { "Bytes", STROBE_TYPE_ARRAY | STROBE_TYPE_UINT8 },
  { "Unset", STROBE_TYPE_ANSI }, { "Odd", 0x3f, 3 },
};

static const guint16 wide_text[] = { 'a', 0xd83d, 0xde00, 'b', '"' };

static GBytes *
build_fields_stream (void)
{
  g_autoptr(Tsb) b = tsb_new ();
  const gint32 arr[] = { 1, -2, 3 };
  const TsbField a_fields[] = { { "Pad", STROBE_TYPE_UINT8 }, { "Value", STROBE_TYPE_INT16 } };
  const TsbField b_fields[] = { { "Value", STROBE_TYPE_UINT64 } };
  const TsbField latin_fields[] = { { "Text", STROBE_TYPE_ANSI } };
  const guint8 odd[3] = { 0xab, 0xcd, 0xef };

  tsb_handshake (b);
  tsb_define (b, UID_ALL, "Test", "All", STROBE_EVENT_FLAG_NOSYNC, N_ALL, all_fields);
  tsb_define (b, UID_A, "Test", "A", 0, 2, a_fields);
  tsb_define (b, UID_B, "Test", "B", STROBE_EVENT_FLAG_NOSYNC, 1, b_fields);
  tsb_define (b, UID_LATIN, "Test", "Latin", STROBE_EVENT_FLAG_IMPORTANT, 1, latin_fields);
  tsb_begin (b, STROBE_TID_IMPORTANTS, UID_LATIN, 0);
  tsb_aux (b, 0, "caf\xe9", 4);
  tsb_end (b);
  tsb_flush (b, STROBE_TID_IMPORTANTS, TSB_AUTO);

  tsb_begin (b, 17, UID_ALL, 0);
  tsb_set_int (b, F_B, 1);
  tsb_set_int (b, F_I8, (guint64) -5);
  tsb_set_int (b, F_U8, 250);
  tsb_set_int (b, F_I16, (guint64) -30000);
  tsb_set_int (b, F_U16, 65000);
  tsb_set_int (b, F_I32, (guint64) -2000000000);
  tsb_set_int (b, F_U32, 4000000000u);
  tsb_set_int (b, F_I64, (guint64) (-(G_GINT64_CONSTANT (1) << 62)));
  tsb_set_int (b, F_U64, G_MAXUINT64);
  tsb_set_f32 (b, F_F32, 1.5f);
  tsb_set_f64 (b, F_F64, 0.1);
  tsb_set_int (b, F_P, G_GUINT64_CONSTANT (0xdeadbeefcafe));
  tsb_set_int (b, F_ODD, 0xefcdab);
  tsb_aux (b, F_ARR, arr, sizeof arr);
  tsb_aux (b, F_NAME, "h\xc3\xa9l", 4);   /* "hél" + "lo": split over two records */
  tsb_aux (b, F_WIDE, wide_text, sizeof wide_text);
  tsb_aux (b, F_NAME, "lo\n", 3);
  tsb_end (b);
  (void) odd;

  tsb_event (b, 17, UID_A, 0, 2, (const guint64[]) { 9, (guint64) -7 });
  tsb_event (b, 17, UID_B, 0, 1, (const guint64[]) { 123456789012345 });
  tsb_event (b, 17, UID_A, 1, 2, (const guint64[]) { 9, 300 });
  tsb_flush (b, 17, TSB_LZ4);
  tsb_end_stream (b);
  return tsb_bytes (b);
}

typedef struct
{
  guint n_all, n_value, n_latin;
  gint64 values[4];
  guint rereads;     /* reads of each Value again, racing another decoder's */
} FieldsState;

static void
check_all (const StrobeEvent *ev)
{
  static StrobeFieldAccessor b = STROBE_FIELD_ACCESSOR_INIT ("B");
  static StrobeFieldAccessor i8 = STROBE_FIELD_ACCESSOR_INIT ("I8");
  static StrobeFieldAccessor u8 = STROBE_FIELD_ACCESSOR_INIT ("U8");
  static StrobeFieldAccessor i16 = STROBE_FIELD_ACCESSOR_INIT ("I16");
  static StrobeFieldAccessor u16 = STROBE_FIELD_ACCESSOR_INIT ("U16");
  static StrobeFieldAccessor i32 = STROBE_FIELD_ACCESSOR_INIT ("I32");
  static StrobeFieldAccessor u32 = STROBE_FIELD_ACCESSOR_INIT ("U32");
  static StrobeFieldAccessor i64 = STROBE_FIELD_ACCESSOR_INIT ("I64");
  static StrobeFieldAccessor u64 = STROBE_FIELD_ACCESSOR_INIT ("U64");
  static StrobeFieldAccessor f32 = STROBE_FIELD_ACCESSOR_INIT ("F32");
  static StrobeFieldAccessor f64 = STROBE_FIELD_ACCESSOR_INIT ("F64");
  static StrobeFieldAccessor p = STROBE_FIELD_ACCESSOR_INIT ("P");
  static StrobeFieldAccessor arr = STROBE_FIELD_ACCESSOR_INIT ("Arr");
  static StrobeFieldAccessor name = STROBE_FIELD_ACCESSOR_INIT ("Name");
  static StrobeFieldAccessor wide = STROBE_FIELD_ACCESSOR_INIT ("Wide");
  static StrobeFieldAccessor bytes = STROBE_FIELD_ACCESSOR_INIT ("Bytes");
  static StrobeFieldAccessor unset = STROBE_FIELD_ACCESSOR_INIT ("Unset");
  static StrobeFieldAccessor missing = STROBE_FIELD_ACCESSOR_INIT ("Missing");
  g_autofree char *s_name = NULL, *s_wide = NULL, *s_unset = NULL, *s_missing = NULL;
  g_autoptr(GString) line = g_string_new (NULL);
  const guint8 *data;
  guint8 kind;
  gsize n;
  gint32 elems[3];

  g_assert_cmpuint (ev->serial, ==, STROBE_EVENT_NO_SERIAL);
  g_assert_cmpuint (ev->thread_id, ==, 17);
  g_assert_true (strobe_event_get_bool (ev, &b));
  g_assert_cmpint (strobe_event_get_int (ev, &i8), ==, -5);
  g_assert_cmpuint (strobe_event_get_uint (ev, &i8), ==, (guint64) -5);
  g_assert_cmpint (strobe_event_get_int (ev, &u8), ==, 250);
  g_assert_cmpint (strobe_event_get_int (ev, &i16), ==, -30000);
  g_assert_cmpint (strobe_event_get_int (ev, &u16), ==, 65000);
  g_assert_cmpint (strobe_event_get_int (ev, &i32), ==, -2000000000);
  g_assert_cmpint (strobe_event_get_int (ev, &u32), ==, 4000000000);
  g_assert_cmpint (strobe_event_get_int (ev, &i64), ==, -(G_GINT64_CONSTANT (1) << 62));
  g_assert_cmpuint (strobe_event_get_uint (ev, &u64), ==, G_MAXUINT64);
  g_assert_cmpfloat (strobe_event_get_double (ev, &u64), ==, 18446744073709551615.0);
  g_assert_cmpfloat (strobe_event_get_double (ev, &i16), ==, -30000.0);
  g_assert_cmpfloat (strobe_event_get_double (ev, &f32), ==, 1.5);
  g_assert_cmpint (strobe_event_get_int (ev, &f32), ==, 1);
  g_assert_cmpfloat (strobe_event_get_double (ev, &f64), ==, 0.1);
  g_assert_cmpuint (strobe_event_get_pointer (ev, &p), ==, G_GUINT64_CONSTANT (0xdeadbeefcafe));

  data = strobe_event_get_array (ev, &arr, &kind, &n);
  g_assert_nonnull (data);
  g_assert_cmpuint (kind, ==, STROBE_TYPE_INT32);
  g_assert_cmpuint (n, ==, 3);
  memcpy (elems, data, sizeof elems);
  g_assert_cmpint (elems[0], ==, 1);
  g_assert_cmpint (elems[1], ==, -2);
  g_assert_cmpint (elems[2], ==, 3);

  s_name = strobe_event_get_string (ev, &name);
  g_assert_cmpstr (s_name, ==, "h\xc3\xa9llo\n");
  data = strobe_event_get_aux (ev, &name, &n);
  g_assert_cmpuint (n, ==, 7);
  g_assert_cmpmem (data, n, "h\xc3\xa9llo\n", 7);
  s_wide = strobe_event_get_string (ev, &wide);
  g_assert_cmpstr (s_wide, ==, "a\xf0\x9f\x98\x80" "b\"");

  /* Aux fields that were not set */
  g_assert_null (strobe_event_get_array (ev, &bytes, &kind, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (kind, ==, STROBE_TYPE_UINT8);
  g_assert_null (strobe_event_get_aux (ev, &unset, &n));
  s_unset = strobe_event_get_string (ev, &unset);
  g_assert_cmpstr (s_unset, ==, "");

  /* A field the type lacks */
  g_assert_false (strobe_event_has_field (ev, &missing));
  g_assert_true (strobe_event_has_field (ev, &name));
  g_assert_cmpint (strobe_event_get_int (ev, &missing), ==, 0);
  g_assert_null (strobe_event_get_aux (ev, &missing, &n));
  s_missing = strobe_event_get_string (ev, &missing);
  g_assert_null (s_missing);
  /* Scalar getters on aux fields and string getters on scalars read as nothing */
  g_assert_cmpint (strobe_event_get_int (ev, &name), ==, 0);

  strobe_event_format (ev, line);
  g_assert_cmpstr (line->str, ==,
                   "17 - Test.All B=true I8=-5 U8=250 I16=-30000 U16=65000 I32=-2000000000 "
                   "U32=4000000000 I64=-4611686018427387904 U64=18446744073709551615 F32=1.5 "
                   "F64=0.10000000000000001 P=0xdeadbeefcafe Arr=[1, -2, 3] Name=\"h\xc3\xa9llo\\n\" "
                   "Wide=\"a\xf0\x9f\x98\x80" "b\\\"\" Bytes=[] Unset=\"\" Odd=0xabcdef");
}

static void
on_fields_event (guint route_id, const StrobeEvent *ev, gpointer data)
{
  static StrobeFieldAccessor value = STROBE_FIELD_ACCESSOR_INIT ("Value");
  static StrobeFieldAccessor text = STROBE_FIELD_ACCESSOR_INIT ("Text");
  FieldsState *st = data;

  if (ev->type->uid == UID_ALL)
    {
      check_all (ev);
      st->n_all++;
    }
  else if (ev->type->uid == UID_LATIN)
    {
      g_autofree char *s = strobe_event_get_string (ev, &text);
      g_assert_cmpuint (ev->thread_id, ==, STROBE_TID_IMPORTANTS);
      g_assert_cmpstr (s, ==, "caf\xc3\xa9");
      st->n_latin++;
    }
  else
    {
      /* One accessor over two layouts: the cache follows the type. */
      g_assert_cmpuint (st->n_value, <, 4);
      st->values[st->n_value] = strobe_event_get_int (ev, &value);
      for (guint i = 0; i < st->rereads; i++)
        g_assert_cmpint (strobe_event_get_int (ev, &value), ==, st->values[st->n_value]);
      st->n_value++;
    }
}

static void
decode_fields (GBytes *stream, guint rereads)
{
  g_autoptr(StrobeDecoder) dec = strobe_decoder_new ();
  FieldsState st = { .rereads = rereads };
  g_autoptr(TestFuncAnalyzer) a = test_func_analyzer_new (0, "Test", "*", on_fields_event, &st);
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (stream, &len);

  strobe_decoder_add_analyzer (dec, STROBE_ANALYZER (a));
  g_assert_true (strobe_decoder_feed (dec, data, len, &error));
  g_assert_no_error (error);
  g_assert_true (strobe_decoder_finish (dec, &error));
  g_assert_no_error (error);
  g_assert_true (strobe_decoder_get_ended_cleanly (dec));
  g_assert_cmpuint (st.n_all, ==, 1);
  g_assert_cmpuint (st.n_latin, ==, 1);
  g_assert_cmpuint (st.n_value, ==, 3);
  g_assert_cmpint (st.values[0], ==, -7);
  g_assert_cmpint (st.values[1], ==, 123456789012345);
  g_assert_cmpint (st.values[2], ==, 300);
}

static void
test_fields (void)
{
  g_autoptr(GBytes) stream = build_fields_stream ();

  decode_fields (stream, 0);
}

static gpointer
decode_fields_often (gpointer stream)
{
  for (guint i = 0; i < 1000; i++)
    decode_fields (stream, 2000);
  return NULL;
}

/* Two decoders at once share the analyzers' static accessors (the viewer opens two traces
 * at once; compare loads A and B): each must still read its own layout's field, however
 * the threads interleave. With the type and the index cached as two words, a thread read
 * "Value" at the index the other thread had found for its own layout. */
static void
test_accessor_two_decoders (void)
{
  g_autoptr(GBytes) stream = build_fields_stream ();
  GThread *other = g_thread_new ("decoder-b", decode_fields_often, stream);

  decode_fields_often (stream);
  g_thread_join (other);
}

static void
test_scalar_read (void)
{
  const guint8 neg[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
  gfloat nanf = NAN;
  gdouble huge = 1e300;
  guint8 buf[8];

  g_assert_cmpint (strobe_scalar_read_int (STROBE_TYPE_INT16, 2, neg), ==, -1);
  g_assert_cmpint (strobe_scalar_read_int (STROBE_TYPE_UINT16, 2, neg), ==, 65535);
  g_assert_cmpint (strobe_scalar_read_int (STROBE_TYPE_INT32, 3, neg), ==, -1);   /* odd width */
  memcpy (buf, &nanf, 4);
  g_assert_cmpint (strobe_scalar_read_int (STROBE_TYPE_FLOAT32, 4, buf), ==, 0);
  memcpy (buf, &huge, 8);
  g_assert_cmpint (strobe_scalar_read_int (STROBE_TYPE_FLOAT64, 8, buf), ==, G_MAXINT64);
  g_assert_cmpuint (strobe_scalar_read_uint (STROBE_TYPE_FLOAT64, 8, buf), ==, G_MAXUINT64);
  g_assert_cmpfloat (strobe_scalar_read_double (STROBE_TYPE_FLOAT64, 4, buf), ==, 0.0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/event/fields", test_fields);
  g_test_add_func ("/analysis/event/scalar-read", test_scalar_read);
  g_test_add_func ("/analysis/event/accessor-two-decoders", test_accessor_two_decoders);
  return g_test_run ();
}
