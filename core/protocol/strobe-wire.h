/* strobe-wire.h — the Strobe wire format (see PROTOCOL.md beside this file).
 *
 * Shared by the runtime (writer) and the analysis (reader), so it depends on nothing but
 * the C library and lz4: no GLib. Functions return bool and set errno on failure.
 * Headers compile as C++.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#define STROBE_WIRE_STATIC_ASSERT static_assert
#else
#define STROBE_WIRE_STATIC_ASSERT _Static_assert
#endif

/* Marks a message for translation without translating it here (no gettext in this
 * layer): readers with GLib pass it through _(). xgettext keyword STROBE_N_. */
#define STROBE_N_(text) text

#define STROBE_WIRE_MAGIC              "STRB"
#define STROBE_WIRE_TRANSPORT_VERSION  1
#define STROBE_WIRE_PROTOCOL_VERSION   1
#define STROBE_WIRE_DEFAULT_PORT       1980

/* ---- handshake ------------------------------------------------------------------ */

typedef struct __attribute__ ((packed))
{
  uint8_t  magic[4];
  uint8_t  transport_version;
  uint8_t  protocol_version;
  uint16_t metadata_size;
} StrobeWireHandshake;
STROBE_WIRE_STATIC_ASSERT (sizeof (StrobeWireHandshake) == 8, "handshake is 8 bytes");

typedef struct __attribute__ ((packed))
{
  uint16_t id;
  uint16_t size;
} StrobeWireMetaEntry;
STROBE_WIRE_STATIC_ASSERT (sizeof (StrobeWireMetaEntry) == 4, "metadata entry header is 4 bytes");

enum
{
  STROBE_META_CONTROL_PORT    = 1,
  STROBE_META_SESSION_ID      = 2,
  STROBE_META_TRACE_ID        = 3,
  STROBE_META_PROGRAM_NAME    = 4,
  STROBE_META_PROCESS_ID      = 5,
  STROBE_META_START_TIME      = 6,
  STROBE_META_CLOCK_FREQUENCY = 7,
  STROBE_META_CLOCK_ORIGIN    = 8,
  STROBE_META_POINTER_SIZE    = 9,
  STROBE_META_COMMAND_LINE    = 10,
  STROBE_META_CLOCK_SOURCE    = 11,
  STROBE_META_FEATURES        = 12,
  STROBE_META_SESSION_NAME    = 13,
  STROBE_META_CLOCK_DOMAIN    = 14,
  STROBE_META_PARENT_PROCESS  = 15,
};

/* Feature bits of STROBE_META_FEATURES. None is defined in this version; a reader stops
 * at a stream that sets a required bit it does not know and ignores unknown optional
 * ones (PROTOCOL.md §1). */
#define STROBE_FEATURES_REQUIRED  0x0000ffffu
#define STROBE_FEATURES_OPTIONAL  0xffff0000u
#define STROBE_FEATURES_KNOWN     0x00000000u

enum
{
  STROBE_CLOCK_SOURCE_MONOTONIC = 0,
  STROBE_CLOCK_SOURCE_TSC       = 1,
  STROBE_CLOCK_SOURCE_ARM_TIMER = 2,
};

/* The decoded metadata. Strings point into the buffer that was parsed. */
typedef struct
{
  uint16_t    control_port;
  uint8_t     session_id[16];
  uint8_t     trace_id[16];
  const char *program_name;
  size_t      program_name_len;
  uint32_t    process_id;
  uint64_t    start_time_ns;
  uint64_t    clock_frequency;
  uint64_t    clock_origin;
  uint8_t     pointer_size;
  const char *command_line;       /* NUL-separated arguments */
  size_t      command_line_len;
  uint8_t     clock_source;
  uint32_t    features;
  const char *session_name;       /* the session group (STROBE_SESSION); NULL: none */
  size_t      session_name_len;
  uint8_t     clock_domain[16];   /* the machine's boot id; all zero: unknown */
  uint32_t    parent_process_id;  /* 0: unknown */
} StrobeWireMetadata;

/* Do two traces read one clock, so that their raw timestamps compare directly (same
 * machine and boot, same clock source)? PROTOCOL.md §1, "Traces on one clock". */
bool strobe_wire_metadata_same_clock (const StrobeWireMetadata *a, const StrobeWireMetadata *b);

/* ---- packets -------------------------------------------------------------------- */

typedef struct __attribute__ ((packed))
{
  uint32_t size;        /* whole packet, header included */
  uint16_t thread_id;
  uint16_t flags;
  uint32_t raw_size;    /* payload size once decoded */
} StrobeWirePacketHeader;
STROBE_WIRE_STATIC_ASSERT (sizeof (StrobeWirePacketHeader) == 12, "packet header is 12 bytes");

enum
{
  STROBE_PACKET_FLAG_LZ4           = 1u << 0,
  STROBE_PACKET_FLAG_ZSTD          = 1u << 3,  /* the next piece of the stream's zstd stream */
  STROBE_PACKET_FLAGS_REQUIRED     = 0x00f6u,  /* unknown bits here: reader must stop */
  STROBE_PACKET_FLAGS_OPTIONAL     = 0xff00u,  /* unknown bits here: reader ignores */
};

/* The verdict on a packet header, checked in this order (PROTOCOL.md §2). Shared by the
 * decoder and the recorder so that both agree on what is a packet, and on End. */
typedef enum
{
  STROBE_WIRE_HEADER_OK,
  STROBE_WIRE_HEADER_BAD_SIZE,        /* size < 12 or > the packet limit */
  STROBE_WIRE_HEADER_UNKNOWN_FLAGS,   /* a required flag this reader does not know */
  STROBE_WIRE_HEADER_BAD_THREAD,      /* thread id 0 */
  STROBE_WIRE_HEADER_BAD_RAW_SIZE,    /* raw_size over the limit, or != size - 12 when raw */
  STROBE_WIRE_HEADER_LZ4_CONTROL,     /* a control packet (thread id 2) flagged LZ4 */
  STROBE_WIRE_HEADER_ZSTD_CONTROL,    /* a control packet flagged ZSTD */
  STROBE_WIRE_HEADER_TWO_CODECS,      /* flagged both LZ4 and ZSTD */
} StrobeWireHeaderCheck;

#define STROBE_WIRE_MAX_PAYLOAD      (16u * 1024u * 1024u)
#define STROBE_WIRE_MAX_PACKET       (STROBE_WIRE_MAX_PAYLOAD + sizeof (StrobeWirePacketHeader))
#define STROBE_WIRE_COMPRESS_MIN     256u

enum
{
  STROBE_TID_INVALID     = 0,
  STROBE_TID_IMPORTANTS  = 1,
  STROBE_TID_CONTROL     = 2,
  STROBE_TID_FIRST_USER  = 16,
};

enum
{
  STROBE_CONTROL_SYNC = 1,
  STROBE_CONTROL_END  = 2,
};

/* ---- event records -------------------------------------------------------------- */

enum
{
  STROBE_UID_INVALID         = 0,
  STROBE_UID_NEW_EVENT       = 1,
  STROBE_UID_AUX_DATA        = 2,
  STROBE_UID_AUX_END         = 3,
  STROBE_UID_SIZED_FIRST     = 4,   /* 4..15: u16 uid, u32 size, body; skipped */
  STROBE_UID_SIZED_LAST      = 15,
  STROBE_UID_FIRST_EVENT     = 16,
  STROBE_UID_MAX             = 65535,
};

#define STROBE_WIRE_SERIAL_BYTES  3
#define STROBE_WIRE_SERIAL_MASK   0xffffffu

typedef struct __attribute__ ((packed))
{
  uint16_t uid;
  uint8_t  field_index;
  uint8_t  reserved;
  uint32_t size;
} StrobeWireAuxHeader;
STROBE_WIRE_STATIC_ASSERT (sizeof (StrobeWireAuxHeader) == 8, "aux header is 8 bytes");

typedef struct __attribute__ ((packed))
{
  uint16_t uid;
  uint32_t size;
} StrobeWireImportantHeader;
STROBE_WIRE_STATIC_ASSERT (sizeof (StrobeWireImportantHeader) == 6, "important header is 6 bytes");

enum
{
  STROBE_EVENT_FLAG_IMPORTANT = 1,
  STROBE_EVENT_FLAG_NOSYNC    = 2,
  STROBE_EVENT_FLAG_HAS_AUX   = 4,
  STROBE_EVENT_FLAGS_KNOWN    = 0x07,
  STROBE_EVENT_FLAGS_REQUIRED = 0x38,   /* unknown bits here: the type cannot be read */
  STROBE_EVENT_FLAGS_OPTIONAL = 0xc0,   /* unknown bits here: ignored */
};

typedef struct __attribute__ ((packed))
{
  uint16_t header_size;
  uint16_t uid;
  uint16_t payload_size;
  uint8_t  flags;
  uint8_t  field_count;
  uint8_t  logger_name_size;
  uint8_t  event_name_size;
  uint8_t  field_entry_size;
  uint8_t  reserved;
} StrobeWireNewEvent;
STROBE_WIRE_STATIC_ASSERT (sizeof (StrobeWireNewEvent) == 12, "new-event header is 12 bytes");

typedef struct __attribute__ ((packed))
{
  uint16_t offset;
  uint16_t size;
  uint8_t  type;
  uint8_t  name_size;
  uint16_t reserved;
} StrobeWireFieldEntry;
STROBE_WIRE_STATIC_ASSERT (sizeof (StrobeWireFieldEntry) == 8, "field entry is 8 bytes");

typedef enum
{
  STROBE_TYPE_BOOL    = 1,
  STROBE_TYPE_INT8    = 2,
  STROBE_TYPE_UINT8   = 3,
  STROBE_TYPE_INT16   = 4,
  STROBE_TYPE_UINT16  = 5,
  STROBE_TYPE_INT32   = 6,
  STROBE_TYPE_UINT32  = 7,
  STROBE_TYPE_INT64   = 8,
  STROBE_TYPE_UINT64  = 9,
  STROBE_TYPE_FLOAT32 = 10,
  STROBE_TYPE_FLOAT64 = 11,
  STROBE_TYPE_POINTER = 12,
  STROBE_TYPE_ARRAY   = 0x40,   /* | scalar kind */
  STROBE_TYPE_ANSI    = 0x80,
  STROBE_TYPE_WIDE    = 0x81,
} StrobeWireType;

#define STROBE_WIRE_MAX_FIELDS   255
#define STROBE_WIRE_MAX_NAME     255

static inline bool
strobe_wire_type_is_aux (uint8_t type)
{
  return (type & (STROBE_TYPE_ARRAY | 0x80)) != 0;
}

/* Size of one element of a scalar kind; 0 for unknown kinds (pointer: this host's, but a
 * reader takes the size from the field entry, 4 or 8). */
size_t strobe_wire_scalar_size (uint8_t kind);
/* Whether @size is a valid size for the known scalar kind @kind (pointers: 4 or 8). */
bool strobe_wire_scalar_size_valid (uint8_t kind, size_t size);
const char *strobe_wire_type_name (uint8_t type);

/* A parsed NewEvent record; names point into the parsed buffer. */
typedef struct
{
  uint16_t    offset;
  uint16_t    size;
  uint8_t     type;
  const char *name;
  uint8_t     name_size;
} StrobeWireField;

typedef struct
{
  uint16_t        uid;
  uint16_t        payload_size;
  uint8_t         flags;
  uint8_t         field_count;
  const char     *logger;
  uint8_t         logger_size;
  const char     *event;
  uint8_t         event_size;
  StrobeWireField fields[STROBE_WIRE_MAX_FIELDS];
} StrobeWireSchema;

/* ---- little-endian primitives ----------------------------------------------------- */

static inline void strobe_wire_put_u8 (uint8_t *p, uint8_t v) { p[0] = v; }
static inline void strobe_wire_put_u16 (uint8_t *p, uint16_t v) { memcpy (p, &v, 2); }
static inline void strobe_wire_put_u24 (uint8_t *p, uint32_t v) { p[0] = (uint8_t) v; p[1] = (uint8_t) (v >> 8); p[2] = (uint8_t) (v >> 16); }
static inline void strobe_wire_put_u32 (uint8_t *p, uint32_t v) { memcpy (p, &v, 4); }
static inline void strobe_wire_put_u64 (uint8_t *p, uint64_t v) { memcpy (p, &v, 8); }
static inline uint16_t strobe_wire_get_u16 (const uint8_t *p) { uint16_t v; memcpy (&v, p, 2); return v; }
static inline uint32_t strobe_wire_get_u24 (const uint8_t *p) { return (uint32_t) p[0] | ((uint32_t) p[1] << 8) | ((uint32_t) p[2] << 16); }
static inline uint32_t strobe_wire_get_u32 (const uint8_t *p) { uint32_t v; memcpy (&v, p, 4); return v; }
static inline uint64_t strobe_wire_get_u64 (const uint8_t *p) { uint64_t v; memcpy (&v, p, 8); return v; }

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "Strobe's wire primitives assume a little-endian host"
#endif

/* True when serial a comes before serial b (24-bit, wrapping). */
static inline bool
strobe_wire_serial_before (uint32_t a, uint32_t b)
{
  uint32_t d = (b - a) & STROBE_WIRE_SERIAL_MASK;
  return d != 0 && d < 0x800000u;
}

/* FNV-1a 32-bit of the lower-cased name: channel ids. */
uint32_t strobe_wire_channel_id (const char *name, size_t len);

/* ---- builders (writer side) --------------------------------------------------------- */

/* A growable byte buffer with malloc; used by writers to build handshakes and records. */
typedef struct
{
  uint8_t *data;
  size_t   len;
  size_t   cap;
} StrobeWireBuf;

bool   strobe_wire_buf_reserve (StrobeWireBuf *buf, size_t extra);
bool   strobe_wire_buf_append (StrobeWireBuf *buf, const void *data, size_t len);
void   strobe_wire_buf_clear (StrobeWireBuf *buf);

/* Appends a whole handshake (magic, versions, metadata) for @meta. */
bool strobe_wire_write_handshake (StrobeWireBuf *out, const StrobeWireMetadata *meta);

/* Appends a NewEvent important record (important header + body) for @schema. */
bool strobe_wire_write_new_event (StrobeWireBuf *out, const StrobeWireSchema *schema);

/* Appends one packet: LZ4 when it gains (see PROTOCOL.md §2), raw otherwise. @scratch
 * holds the compressed form and is grown as needed. */
bool strobe_wire_write_packet (StrobeWireBuf *out, StrobeWireBuf *scratch, uint16_t thread_id,
                               const uint8_t *payload, size_t len);

/* Appends a control packet (kind + @body). */
bool strobe_wire_write_control (StrobeWireBuf *out, uint8_t kind, const void *body, size_t body_len);

/* ---- parsers (reader side) ---------------------------------------------------------- */

/* Parses the metadata TLV list; unknown ids skipped. EBADMSG on malformed entries. */
bool strobe_wire_parse_metadata (const uint8_t *data, size_t len, StrobeWireMetadata *meta);

/* Checks the 12 bytes of a packet header (PROTOCOL.md §2). */
StrobeWireHeaderCheck strobe_wire_check_packet_header (const uint8_t *header);

/* Decodes one LZ4 block of @len bytes at @src into exactly @raw_size bytes at @dst
 * (PROTOCOL.md §2, "LZ4 payloads": Strobe's own rule, not whatever a liblz4 version
 * accepts). EBADMSG when the block breaks it; @why (may be NULL) then names the rule.
 * @dst is written only within its @raw_size bytes. */
bool strobe_wire_lz4_decode (const uint8_t *src, size_t len, uint8_t *dst, size_t raw_size,
                             const char **why);

/* Parses a NewEvent body (after the important header). EBADMSG when malformed (every
 * condition of PROTOCOL.md §4, "When a schema is malformed"); @why (may be NULL) then
 * names the condition. Unknown flag bits are not an error here: see
 * STROBE_EVENT_FLAGS_REQUIRED. */
bool strobe_wire_parse_new_event (const uint8_t *body, size_t len, StrobeWireSchema *schema,
                                  const char **why);

#ifdef __cplusplus
}
#endif
