/* strobe-declare.h — declaring event types, modelled on UE_TRACE_EVENT_BEGIN/FIELD/END.
 *
 * C cannot attach names to struct members from a list, so an event's fields are a
 * preprocessor *sequence* of tuples, STROBE_FIELD(uint32, Value) STROBE_ARRAY(float, S)…,
 * walked with two macros that call each other (the _A/_B pairs below): each step consumes
 * one tuple and names the other macro, which the next tuple then invokes. There is thus no
 * fixed maximum number of fields. Each walk ends in STROBE__X_A_END or _B_END, empty.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#define STROBE__STATIC_ASSERT(c, m) static_assert (c, m)
#define STROBE__ZERO {}
#else
#define STROBE__STATIC_ASSERT(c, m) _Static_assert (c, m)
#define STROBE__ZERO {0}
#endif

#pragma GCC visibility push (default) /* exported even from -fvisibility=hidden code (README.md, "Exports") */

/* Event flags, combinable with |; 0 is a plain synchronised event, which carries a
 * 24-bit serial from one global counter so a reader can order events across threads.
 *
 * STROBE_EVENT_IMPORTANT: kept in memory for the process lifetime and replayed to every
 * output, late ones included: for rare events that name things (schemas, specs). Each
 * emit takes a mutex and a copy into the important cache: not for a hot path, not in a
 * signal handler.
 *
 * STROBE_EVENT_NOSYNC: no serial, ordered only within its thread: no global atomic add
 * (cheaper when many threads log: strobe-bench cost.event_nosync_16B against
 * cost.event_sync_16B). */
#define STROBE_EVENT_IMPORTANT  1
#define STROBE_EVENT_NOSYNC     2

/* Wire type codes (PROTOCOL.md §4); the library asserts they match strobe-wire.h. */
#define STROBE__T_BOOL    1
#define STROBE__T_INT8    2
#define STROBE__T_UINT8   3
#define STROBE__T_INT16   4
#define STROBE__T_UINT16  5
#define STROBE__T_INT32   6
#define STROBE__T_UINT32  7
#define STROBE__T_INT64   8
#define STROBE__T_UINT64  9
#define STROBE__T_FLOAT   10
#define STROBE__T_DOUBLE  11
#define STROBE__T_PTR     12
#define STROBE__T_ARRAY   0x40
#define STROBE__T_ANSI    0x80
#define STROBE__T_WIDE    0x81

/* The C type of a `ptr` field: an address, recorded as a number and never dereferenced. */
typedef const void *strobe_ptr_t;

/* Internal: a field descriptor, what the NewEvent schema is built from
 * (STROBE_EVENT_DECLARE makes the table). */
typedef struct
{
  const char *name;
  uint8_t     type;
  uint16_t    offset;
  uint16_t    size;
} StrobeFieldDesc;

/* Internal: one event type, defined by STROBE_EVENT_DEFINE (named L_E_type); its uid is
 * assigned at registration. */
typedef struct StrobeEventDef
{
  uint16_t               uid;           /* first: the log site loads it */
  uint8_t                flags;
  uint8_t                field_count;
  uint16_t               payload_size;
  const char            *logger;
  const char            *event;
  const StrobeFieldDesc *(*fields) (void);
} StrobeEventDef;

/* Registers @type (idempotent; safe before main and before strobe_init) and returns its
 * uid, or 0 when uids are exhausted. */
uint16_t strobe__event_register (StrobeEventDef *type);

/* ---- field tuples: (kind, C type, wire type, name) ------------------------------- */

/* Field @N of type @T, one element of the field sequence of STROBE_EVENT_DECLARE. @T:
 * bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float double (also the _t
 * spellings and _Bool), ptr (an address), ansi (8-bit string) or wide (UTF-16 string).
 * Scalars are members of the fixed payload, packed in declaration order and zero unless
 * set (STROBE_SET); strings are aux data after it, absent unless set (STROBE_SET_STRING,
 * STROBE_SET_WSTRING), and cost nothing then. */
#define STROBE_FIELD(T, N) (STROBE__KIND_##T, STROBE__CTYPE_##T, STROBE__WTYPE_##T, N)
/* Array field @N of scalar type @T (not ansi or wide): aux data, absent unless set with
 * STROBE_SET_ARRAY, which takes a pointer to @T (for ptr, void *const *). */
#define STROBE_ARRAY(T, N) (STROBE__K_ARRAY, STROBE__ATYPE_##T, (STROBE__T_ARRAY | STROBE__WTYPE_##T), N)

#ifdef __cplusplus
#define STROBE__CTYPE_bool  bool
#define STROBE__CTYPE__Bool bool
#else
#define STROBE__CTYPE_bool  _Bool
#define STROBE__CTYPE__Bool _Bool
#endif
#define STROBE__CTYPE_int8     int8_t
#define STROBE__CTYPE_int16    int16_t
#define STROBE__CTYPE_int32    int32_t
#define STROBE__CTYPE_int64    int64_t
#define STROBE__CTYPE_uint8    uint8_t
#define STROBE__CTYPE_uint16   uint16_t
#define STROBE__CTYPE_uint32   uint32_t
#define STROBE__CTYPE_uint64   uint64_t
#define STROBE__CTYPE_int8_t   int8_t
#define STROBE__CTYPE_int16_t  int16_t
#define STROBE__CTYPE_int32_t  int32_t
#define STROBE__CTYPE_int64_t  int64_t
#define STROBE__CTYPE_uint8_t  uint8_t
#define STROBE__CTYPE_uint16_t uint16_t
#define STROBE__CTYPE_uint32_t uint32_t
#define STROBE__CTYPE_uint64_t uint64_t
#define STROBE__CTYPE_float    float
#define STROBE__CTYPE_double   double
#define STROBE__CTYPE_ptr      strobe_ptr_t
#define STROBE__CTYPE_ansi     char
#define STROBE__CTYPE_wide     uint16_t

/* Array element types: as scalars, but pointer arrays take void *const * input. */
#define STROBE__ATYPE_bool      STROBE__CTYPE_bool
#define STROBE__ATYPE__Bool     STROBE__CTYPE__Bool
#define STROBE__ATYPE_int8      STROBE__CTYPE_int8
#define STROBE__ATYPE_int16     STROBE__CTYPE_int16
#define STROBE__ATYPE_int32     STROBE__CTYPE_int32
#define STROBE__ATYPE_int64     STROBE__CTYPE_int64
#define STROBE__ATYPE_uint8     STROBE__CTYPE_uint8
#define STROBE__ATYPE_uint16    STROBE__CTYPE_uint16
#define STROBE__ATYPE_uint32    STROBE__CTYPE_uint32
#define STROBE__ATYPE_uint64    STROBE__CTYPE_uint64
#define STROBE__ATYPE_int8_t    STROBE__CTYPE_int8_t
#define STROBE__ATYPE_int16_t   STROBE__CTYPE_int16_t
#define STROBE__ATYPE_int32_t   STROBE__CTYPE_int32_t
#define STROBE__ATYPE_int64_t   STROBE__CTYPE_int64_t
#define STROBE__ATYPE_uint8_t   STROBE__CTYPE_uint8_t
#define STROBE__ATYPE_uint16_t  STROBE__CTYPE_uint16_t
#define STROBE__ATYPE_uint32_t  STROBE__CTYPE_uint32_t
#define STROBE__ATYPE_uint64_t  STROBE__CTYPE_uint64_t
#define STROBE__ATYPE_float     STROBE__CTYPE_float
#define STROBE__ATYPE_double    STROBE__CTYPE_double
#define STROBE__ATYPE_ptr       void *

#define STROBE__WTYPE_bool     STROBE__T_BOOL
#define STROBE__WTYPE__Bool    STROBE__T_BOOL
#define STROBE__WTYPE_int8     STROBE__T_INT8
#define STROBE__WTYPE_int16    STROBE__T_INT16
#define STROBE__WTYPE_int32    STROBE__T_INT32
#define STROBE__WTYPE_int64    STROBE__T_INT64
#define STROBE__WTYPE_uint8    STROBE__T_UINT8
#define STROBE__WTYPE_uint16   STROBE__T_UINT16
#define STROBE__WTYPE_uint32   STROBE__T_UINT32
#define STROBE__WTYPE_uint64   STROBE__T_UINT64
#define STROBE__WTYPE_int8_t   STROBE__T_INT8
#define STROBE__WTYPE_int16_t  STROBE__T_INT16
#define STROBE__WTYPE_int32_t  STROBE__T_INT32
#define STROBE__WTYPE_int64_t  STROBE__T_INT64
#define STROBE__WTYPE_uint8_t  STROBE__T_UINT8
#define STROBE__WTYPE_uint16_t STROBE__T_UINT16
#define STROBE__WTYPE_uint32_t STROBE__T_UINT32
#define STROBE__WTYPE_uint64_t STROBE__T_UINT64
#define STROBE__WTYPE_float    STROBE__T_FLOAT
#define STROBE__WTYPE_double   STROBE__T_DOUBLE
#define STROBE__WTYPE_ptr      STROBE__T_PTR
#define STROBE__WTYPE_ansi     STROBE__T_ANSI
#define STROBE__WTYPE_wide     STROBE__T_WIDE

#define STROBE__KIND_bool     STROBE__K_SCALAR
#define STROBE__KIND__Bool    STROBE__K_SCALAR
#define STROBE__KIND_int8     STROBE__K_SCALAR
#define STROBE__KIND_int16    STROBE__K_SCALAR
#define STROBE__KIND_int32    STROBE__K_SCALAR
#define STROBE__KIND_int64    STROBE__K_SCALAR
#define STROBE__KIND_uint8    STROBE__K_SCALAR
#define STROBE__KIND_uint16   STROBE__K_SCALAR
#define STROBE__KIND_uint32   STROBE__K_SCALAR
#define STROBE__KIND_uint64   STROBE__K_SCALAR
#define STROBE__KIND_int8_t   STROBE__K_SCALAR
#define STROBE__KIND_int16_t  STROBE__K_SCALAR
#define STROBE__KIND_int32_t  STROBE__K_SCALAR
#define STROBE__KIND_int64_t  STROBE__K_SCALAR
#define STROBE__KIND_uint8_t  STROBE__K_SCALAR
#define STROBE__KIND_uint16_t STROBE__K_SCALAR
#define STROBE__KIND_uint32_t STROBE__K_SCALAR
#define STROBE__KIND_uint64_t STROBE__K_SCALAR
#define STROBE__KIND_float    STROBE__K_SCALAR
#define STROBE__KIND_double   STROBE__K_SCALAR
#define STROBE__KIND_ptr      STROBE__K_SCALAR
#define STROBE__KIND_ansi     STROBE__K_STRING
#define STROBE__KIND_wide     STROBE__K_STRING

#define STROBE__CAT(a, b)  STROBE__CAT_ (a, b)
#define STROBE__CAT_(a, b) a##b
#define STROBE__PICK(a, b)  STROBE__PICK_ (a, b)
#define STROBE__PICK_(a, b) a##b

/* Walks @seq with operation @op. Each step dispatches on the tuple's kind and hands the
 * name of the other step to the kind's macro, which puts it last in its output so the
 * next tuple invokes it; the END tuple appended here drops it, ending the walk. Nothing
 * of the output passes through another macro's arguments, so it may contain commas. */
#define STROBE__SEQ(op, seq) STROBE__##op##_A seq (STROBE__K_END, ~, ~, ~)

/* PAYLOAD: scalar members only, in declaration order. */
#define STROBE__PAYLOAD_A(k, c, w, n) STROBE__PICK (STROBE__PAYLOAD_, k) (c, w, n, STROBE__PAYLOAD_B)
#define STROBE__PAYLOAD_B(k, c, w, n) STROBE__PICK (STROBE__PAYLOAD_, k) (c, w, n, STROBE__PAYLOAD_A)
#define STROBE__PAYLOAD_STROBE__K_SCALAR(c, w, n, next) c n; next
#define STROBE__PAYLOAD_STROBE__K_ARRAY(c, w, n, next) next
#define STROBE__PAYLOAD_STROBE__K_STRING(c, w, n, next) next
#define STROBE__PAYLOAD_STROBE__K_END(c, w, n, next)

/* SIZE: the sum of the scalar sizes, to assert the payload is packed. */
#define STROBE__SIZE_A(k, c, w, n) STROBE__PICK (STROBE__SIZE_, k) (c, w, n, STROBE__SIZE_B)
#define STROBE__SIZE_B(k, c, w, n) STROBE__PICK (STROBE__SIZE_, k) (c, w, n, STROBE__SIZE_A)
#define STROBE__SIZE_STROBE__K_SCALAR(c, w, n, next) + sizeof (c) next
#define STROBE__SIZE_STROBE__K_ARRAY(c, w, n, next) next
#define STROBE__SIZE_STROBE__K_STRING(c, w, n, next) next
#define STROBE__SIZE_STROBE__K_END(c, w, n, next)

/* INDEX: one char per field, so offsetof gives the field's position in the schema. */
#define STROBE__INDEX_A(k, c, w, n) STROBE__PICK (STROBE__INDEX_, k) (c, w, n, STROBE__INDEX_B)
#define STROBE__INDEX_B(k, c, w, n) STROBE__PICK (STROBE__INDEX_, k) (c, w, n, STROBE__INDEX_A)
#define STROBE__INDEX_STROBE__K_SCALAR(c, w, n, next) char n[1]; next
#define STROBE__INDEX_STROBE__K_ARRAY(c, w, n, next) char n[1]; next
#define STROBE__INDEX_STROBE__K_STRING(c, w, n, next) char n[1]; next
#define STROBE__INDEX_STROBE__K_END(c, w, n, next)

/* KINDS: sizeof of each member is the field's wire type (only ever used in sizeof). */
#define STROBE__KINDS_A(k, c, w, n) STROBE__PICK (STROBE__KINDS_, k) (c, w, n, STROBE__KINDS_B)
#define STROBE__KINDS_B(k, c, w, n) STROBE__PICK (STROBE__KINDS_, k) (c, w, n, STROBE__KINDS_A)
#define STROBE__KINDS_STROBE__K_SCALAR(c, w, n, next) char n[w]; next
#define STROBE__KINDS_STROBE__K_ARRAY(c, w, n, next) char n[w]; next
#define STROBE__KINDS_STROBE__K_STRING(c, w, n, next) char n[w]; next
#define STROBE__KINDS_STROBE__K_END(c, w, n, next)

/* PTR: the element pointer type of each array, to type-check STROBE_SET_ARRAY. */
#define STROBE__PTR_A(k, c, w, n) STROBE__PICK (STROBE__PTR_, k) (c, w, n, STROBE__PTR_B)
#define STROBE__PTR_B(k, c, w, n) STROBE__PICK (STROBE__PTR_, k) (c, w, n, STROBE__PTR_A)
#define STROBE__PTR_STROBE__K_SCALAR(c, w, n, next) next
#define STROBE__PTR_STROBE__K_ARRAY(c, w, n, next) c const *n; next
#define STROBE__PTR_STROBE__K_STRING(c, w, n, next) next
#define STROBE__PTR_STROBE__K_END(c, w, n, next)

/* AUX: counts the aux fields. */
#define STROBE__AUX_A(k, c, w, n) STROBE__PICK (STROBE__AUX_, k) (c, w, n, STROBE__AUX_B)
#define STROBE__AUX_B(k, c, w, n) STROBE__PICK (STROBE__AUX_, k) (c, w, n, STROBE__AUX_A)
#define STROBE__AUX_STROBE__K_SCALAR(c, w, n, next) next
#define STROBE__AUX_STROBE__K_ARRAY(c, w, n, next) + 1 next
#define STROBE__AUX_STROBE__K_STRING(c, w, n, next) + 1 next
#define STROBE__AUX_STROBE__K_END(c, w, n, next)

/* DESC: descriptor table entries (uses the local typedef strobe__payload_t). */
#define STROBE__DESC_A(k, c, w, n) STROBE__PICK (STROBE__DESC_, k) (c, w, n, STROBE__DESC_B)
#define STROBE__DESC_B(k, c, w, n) STROBE__PICK (STROBE__DESC_, k) (c, w, n, STROBE__DESC_A)
#define STROBE__DESC_STROBE__K_SCALAR(c, w, n, next) { #n, w, offsetof (strobe__payload_t, n), sizeof (c) }, next
#define STROBE__DESC_STROBE__K_ARRAY(c, w, n, next) { #n, w, 0, sizeof (c) }, next
#define STROBE__DESC_STROBE__K_STRING(c, w, n, next) { #n, w, 0, 0 }, next
#define STROBE__DESC_STROBE__K_END(c, w, n, next)

#define STROBE__ID(L, E, x) L##_##E##_##x

/* Internal: the in-flight state of one log site with aux fields; see strobe-log.h. */
typedef struct
{
  const StrobeEventDef *type;
  uint8_t               *start;     /* header slot in the thread buffer, NULL until first aux */
  size_t                 used;      /* bytes from start: header, payload, aux records */
  uint8_t               *end;       /* real end of the block while the event is open */
  uint8_t               *heap;      /* Important events collect their aux records here */
  size_t                 heap_len;
  size_t                 heap_cap;
  bool                   failed;
} StrobeAux;

/* Declares event @E of logger @L (in a header). @L and @E are identifiers, the names the
 * trace shows (L.E). @F: flags (0, STROBE_EVENT_NOSYNC, STROBE_EVENT_IMPORTANT); @seq: a
 * sequence of STROBE_FIELD / STROBE_ARRAY, without commas between them. No limit on the
 * number of fields in the macros; the wire allows 255, and a payload of at most 65535
 * bytes (both checked at compile time). Declarations only: no code runs. */
#define STROBE_EVENT_DECLARE(L, E, F, seq)                                              \
  typedef struct __attribute__ ((packed))                                                  \
  {                                                                                        \
    STROBE__SEQ (PAYLOAD, seq)                                                          \
    uint8_t strobe__end[1];                                                                \
  } STROBE__ID (L, E, Payload);                                                            \
  STROBE__STATIC_ASSERT (offsetof (STROBE__ID (L, E, Payload), strobe__end)                \
                         == 0 STROBE__SEQ (SIZE, seq), "payload of " #L "." #E " is packed"); \
  typedef struct { STROBE__SEQ (INDEX, seq) char strobe__end[1]; } STROBE__ID (L, E, Index); \
  typedef struct { STROBE__SEQ (KINDS, seq) char strobe__end[1]; } STROBE__ID (L, E, Kinds); \
  typedef struct { STROBE__SEQ (PTR, seq) char strobe__end[1]; } STROBE__ID (L, E, Ptrs); \
  typedef struct                                                                           \
  {                                                                                        \
    STROBE__ID (L, E, Index) index;                                                        \
    STROBE__ID (L, E, Kinds) kind;                                                         \
    STROBE__ID (L, E, Ptrs)  ptr;                                                          \
  } STROBE__ID (L, E, Info);                                                               \
  enum                                                                                     \
  {                                                                                        \
    STROBE__ID (L, E, Flags) = (F),                                                        \
    STROBE__ID (L, E, PayloadSize) = offsetof (STROBE__ID (L, E, Payload), strobe__end),   \
    STROBE__ID (L, E, FieldCount) = offsetof (STROBE__ID (L, E, Index), strobe__end),      \
    STROBE__ID (L, E, AuxCount) = 0 STROBE__SEQ (AUX, seq),                             \
  };                                                                                       \
  STROBE__STATIC_ASSERT (STROBE__ID (L, E, FieldCount) <= 255, #L "." #E ": at most 255 fields"); \
  STROBE__STATIC_ASSERT (STROBE__ID (L, E, PayloadSize) <= 65535, #L "." #E ": payload too large"); \
  static inline const StrobeFieldDesc *                                                    \
  STROBE__ID (L, E, fields) (void)                                                         \
  {                                                                                        \
    typedef STROBE__ID (L, E, Payload) strobe__payload_t;                                  \
    static const StrobeFieldDesc d[] = { STROBE__SEQ (DESC, seq) { 0, 0, 0, 0 } };      \
    return d;                                                                              \
  }                                                                                        \
  extern StrobeEventDef STROBE__ID (L, E, type);                                          \
  typedef struct                                                                           \
  {                                                                                        \
    STROBE__ID (L, E, Payload) p;                                                          \
    int                        done;                                                       \
    StrobeAux                  aux;   /* unused, so optimised away, without aux fields */  \
  } STROBE__ID (L, E, Writer);

/* Defines event @E of logger @L (in exactly one .c) and registers it before main (or at
 * dlopen for a loadable module): its uid and its schema, an Important record every output
 * gets. A site that runs before that registers the type itself, once. */
#define STROBE_EVENT_DEFINE(L, E) STROBE__EVENT_DEFINE_NAMED (L, E, #L, #E)

#define STROBE__EVENT_DEFINE_NAMED(L, E, logger_name, event_name)                          \
  StrobeEventDef STROBE__ID (L, E, type) = {                                              \
    0, (uint8_t) (STROBE__ID (L, E, Flags) | ((int) STROBE__ID (L, E, AuxCount) > 0 ? 4 : 0)),       \
    (uint8_t) STROBE__ID (L, E, FieldCount), (uint16_t) STROBE__ID (L, E, PayloadSize),    \
    logger_name, event_name, STROBE__ID (L, E, fields)                                     \
  };                                                                                       \
  __attribute__ ((constructor)) static void STROBE__ID (L, E, ctor) (void)                 \
  {                                                                                        \
    strobe__event_register (&STROBE__ID (L, E, type));                                     \
  }

/* STROBE_EVENT_DECLARE and STROBE_EVENT_DEFINE in one go, for an event used in one .c
 * only. */
#define STROBE_EVENT(L, E, F, seq)                                                         \
  STROBE_EVENT_DECLARE (L, E, F, seq)                                                   \
  STROBE_EVENT_DEFINE (L, E)

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
