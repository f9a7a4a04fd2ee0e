/* strobe-wire.c — encode/decode primitives of the wire format (PROTOCOL.md). */
#include "strobe-wire.h"

#include <errno.h>
#include <lz4.h>
#include <stdlib.h>

size_t
strobe_wire_scalar_size (uint8_t kind)
{
  switch (kind)
    {
    case STROBE_TYPE_BOOL:
    case STROBE_TYPE_INT8:
    case STROBE_TYPE_UINT8:
      return 1;
    case STROBE_TYPE_INT16:
    case STROBE_TYPE_UINT16:
      return 2;
    case STROBE_TYPE_INT32:
    case STROBE_TYPE_UINT32:
    case STROBE_TYPE_FLOAT32:
      return 4;
    case STROBE_TYPE_INT64:
    case STROBE_TYPE_UINT64:
    case STROBE_TYPE_FLOAT64:
      return 8;
    case STROBE_TYPE_POINTER:
      return sizeof (void *);
    default:
      return 0;
    }
}

const char *
strobe_wire_type_name (uint8_t type)
{
  static const char *const scalars[] = {
    "?", "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
    "int64", "uint64", "float32", "float64", "pointer",
  };
  static const char *const arrays[] = {
    "?[]", "bool[]", "int8[]", "uint8[]", "int16[]", "uint16[]", "int32[]", "uint32[]",
    "int64[]", "uint64[]", "float32[]", "float64[]", "pointer[]",
  };

  if (type == STROBE_TYPE_ANSI)
    return "ansi";
  if (type == STROBE_TYPE_WIDE)
    return "wide";
  if ((type & 0xc0) == STROBE_TYPE_ARRAY && (type & 0x3f) <= STROBE_TYPE_POINTER)
    return arrays[type & 0x3f];
  if (type <= STROBE_TYPE_POINTER)
    return scalars[type];
  return "unknown";
}

uint32_t
strobe_wire_channel_id (const char *name, size_t len)
{
  uint32_t h = 2166136261u;

  for (size_t i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) name[i];
      if (c >= 'A' && c <= 'Z')
        c = (unsigned char) (c - 'A' + 'a');
      h ^= c;
      h *= 16777619u;
    }
  return h;
}

/* ---- buffers ------------------------------------------------------------------------ */

bool
strobe_wire_buf_reserve (StrobeWireBuf *buf, size_t extra)
{
  size_t need, cap;
  uint8_t *data;

  if (extra > SIZE_MAX - buf->len)
    {
      errno = ENOMEM;
      return false;
    }
  need = buf->len + extra;
  if (need <= buf->cap)
    return true;
  cap = buf->cap ? buf->cap : 256;
  while (cap < need)
    cap = cap > SIZE_MAX / 2 ? need : cap * 2;
  data = realloc (buf->data, cap);
  if (data == NULL)
    {
      errno = ENOMEM;
      return false;
    }
  buf->data = data;
  buf->cap = cap;
  return true;
}

bool
strobe_wire_buf_append (StrobeWireBuf *buf, const void *data, size_t len)
{
  if (!strobe_wire_buf_reserve (buf, len))
    return false;
  if (len)
    memcpy (buf->data + buf->len, data, len);
  buf->len += len;
  return true;
}

void
strobe_wire_buf_clear (StrobeWireBuf *buf)
{
  free (buf->data);
  buf->data = NULL;
  buf->len = buf->cap = 0;
}

/* ---- handshake ---------------------------------------------------------------------- */

static bool
put_meta (StrobeWireBuf *out, uint16_t id, const void *value, size_t size)
{
  uint8_t head[4];

  if (size > UINT16_MAX)
    size = UINT16_MAX;   /* long command lines are cut, not rejected */
  strobe_wire_put_u16 (head, id);
  strobe_wire_put_u16 (head + 2, (uint16_t) size);
  return strobe_wire_buf_append (out, head, 4) && strobe_wire_buf_append (out, value, size);
}

bool
strobe_wire_write_handshake (StrobeWireBuf *out, const StrobeWireMetadata *meta)
{
  size_t start = out->len;
  size_t meta_start;
  uint8_t u16[2], u32[4], u64[8];
  StrobeWireHandshake hs;

  memcpy (hs.magic, STROBE_WIRE_MAGIC, 4);
  hs.transport_version = STROBE_WIRE_TRANSPORT_VERSION;
  hs.protocol_version = STROBE_WIRE_PROTOCOL_VERSION;
  hs.metadata_size = 0;
  if (!strobe_wire_buf_append (out, &hs, sizeof hs))
    return false;
  meta_start = out->len;

  strobe_wire_put_u16 (u16, meta->control_port);
  if (!put_meta (out, STROBE_META_CONTROL_PORT, u16, 2)
      || !put_meta (out, STROBE_META_SESSION_ID, meta->session_id, 16)
      || !put_meta (out, STROBE_META_TRACE_ID, meta->trace_id, 16)
      || !put_meta (out, STROBE_META_PROGRAM_NAME, meta->program_name ? meta->program_name : "",
                    meta->program_name ? meta->program_name_len : 0))
    return false;
  strobe_wire_put_u32 (u32, meta->process_id);
  if (!put_meta (out, STROBE_META_PROCESS_ID, u32, 4))
    return false;
  strobe_wire_put_u64 (u64, meta->start_time_ns);
  if (!put_meta (out, STROBE_META_START_TIME, u64, 8))
    return false;
  strobe_wire_put_u64 (u64, meta->clock_frequency);
  if (!put_meta (out, STROBE_META_CLOCK_FREQUENCY, u64, 8))
    return false;
  strobe_wire_put_u64 (u64, meta->clock_origin);
  if (!put_meta (out, STROBE_META_CLOCK_ORIGIN, u64, 8)
      || !put_meta (out, STROBE_META_POINTER_SIZE, &meta->pointer_size, 1)
      || !put_meta (out, STROBE_META_CLOCK_SOURCE, &meta->clock_source, 1))
    return false;
  strobe_wire_put_u32 (u32, meta->features);
  if (!put_meta (out, STROBE_META_FEATURES, u32, 4))
    return false;
  if (meta->session_name && meta->session_name_len
      && !put_meta (out, STROBE_META_SESSION_NAME, meta->session_name,
                    meta->session_name_len < 1024 ? meta->session_name_len : 1024))
    return false;
  strobe_wire_put_u32 (u32, meta->parent_process_id);
  if (!put_meta (out, STROBE_META_CLOCK_DOMAIN, meta->clock_domain, 16)
      || !put_meta (out, STROBE_META_PARENT_PROCESS, u32, 4))
    return false;
  /* The command line goes last and is cut so the metadata never exceeds its u16 size. */
  if (meta->command_line && meta->command_line_len)
    {
      size_t used = out->len - meta_start;
      size_t room = used + 4 < UINT16_MAX ? UINT16_MAX - used - 4 : 0;
      size_t n = meta->command_line_len < room ? meta->command_line_len : room;
      if (!put_meta (out, STROBE_META_COMMAND_LINE, meta->command_line, n))
        return false;
    }
  strobe_wire_put_u16 (out->data + start + 6, (uint16_t) (out->len - meta_start));
  return true;
}

bool
strobe_wire_parse_metadata (const uint8_t *data, size_t len, StrobeWireMetadata *meta)
{
  size_t pos = 0;

  memset (meta, 0, sizeof *meta);
  while (pos < len)
    {
      uint16_t id, size;
      const uint8_t *v;

      if (len - pos < 4)
        goto bad;
      id = strobe_wire_get_u16 (data + pos);
      size = strobe_wire_get_u16 (data + pos + 2);
      pos += 4;
      if (len - pos < size)
        goto bad;
      v = data + pos;
      pos += size;

      switch (id)
        {
        case STROBE_META_CONTROL_PORT:
          if (size == 2) meta->control_port = strobe_wire_get_u16 (v);
          break;
        case STROBE_META_SESSION_ID:
          if (size == 16) memcpy (meta->session_id, v, 16);
          break;
        case STROBE_META_TRACE_ID:
          if (size == 16) memcpy (meta->trace_id, v, 16);
          break;
        case STROBE_META_PROGRAM_NAME:
          meta->program_name = (const char *) v;
          meta->program_name_len = size;
          break;
        case STROBE_META_PROCESS_ID:
          if (size == 4) meta->process_id = strobe_wire_get_u32 (v);
          break;
        case STROBE_META_START_TIME:
          if (size == 8) meta->start_time_ns = strobe_wire_get_u64 (v);
          break;
        case STROBE_META_CLOCK_FREQUENCY:
          if (size == 8) meta->clock_frequency = strobe_wire_get_u64 (v);
          break;
        case STROBE_META_CLOCK_ORIGIN:
          if (size == 8) meta->clock_origin = strobe_wire_get_u64 (v);
          break;
        case STROBE_META_POINTER_SIZE:
          if (size == 1) meta->pointer_size = v[0];
          break;
        case STROBE_META_COMMAND_LINE:
          meta->command_line = (const char *) v;
          meta->command_line_len = size;
          break;
        case STROBE_META_CLOCK_SOURCE:
          if (size == 1) meta->clock_source = v[0];
          break;
        case STROBE_META_FEATURES:
          if (size == 4) meta->features = strobe_wire_get_u32 (v);
          break;
        case STROBE_META_SESSION_NAME:
          meta->session_name = size ? (const char *) v : NULL;
          meta->session_name_len = size;
          break;
        case STROBE_META_CLOCK_DOMAIN:
          if (size == 16) memcpy (meta->clock_domain, v, 16);
          break;
        case STROBE_META_PARENT_PROCESS:
          if (size == 4) meta->parent_process_id = strobe_wire_get_u32 (v);
          break;
        default:
          break;   /* newer writers: skip */
        }
    }
  return true;

bad:
  errno = EBADMSG;
  return false;
}

bool
strobe_wire_metadata_same_clock (const StrobeWireMetadata *a, const StrobeWireMetadata *b)
{
  static const uint8_t unknown[16];

  if (!a || !b)
    return false;
  return memcmp (a->clock_domain, unknown, 16) != 0
         && memcmp (a->clock_domain, b->clock_domain, 16) == 0
         && a->clock_source == b->clock_source;
}

/* ---- schemas ------------------------------------------------------------------------ */

bool
strobe_wire_write_new_event (StrobeWireBuf *out, const StrobeWireSchema *schema)
{
  StrobeWireImportantHeader ih;
  StrobeWireNewEvent ne;
  size_t body = sizeof ne + (size_t) schema->field_count * sizeof (StrobeWireFieldEntry)
                + schema->logger_size + schema->event_size;

  for (unsigned i = 0; i < schema->field_count; i++)
    body += schema->fields[i].name_size;

  ih.uid = STROBE_UID_NEW_EVENT;
  ih.size = (uint32_t) body;
  ne.header_size = sizeof ne;
  ne.uid = schema->uid;
  ne.payload_size = schema->payload_size;
  ne.flags = schema->flags;
  ne.field_count = schema->field_count;
  ne.logger_name_size = schema->logger_size;
  ne.event_name_size = schema->event_size;
  ne.field_entry_size = sizeof (StrobeWireFieldEntry);
  ne.reserved = 0;

  if (!strobe_wire_buf_reserve (out, sizeof ih + body)
      || !strobe_wire_buf_append (out, &ih, sizeof ih)
      || !strobe_wire_buf_append (out, &ne, sizeof ne))
    return false;
  for (unsigned i = 0; i < schema->field_count; i++)
    {
      StrobeWireFieldEntry fe;
      fe.offset = schema->fields[i].offset;
      fe.size = schema->fields[i].size;
      fe.type = schema->fields[i].type;
      fe.name_size = schema->fields[i].name_size;
      fe.reserved = 0;
      if (!strobe_wire_buf_append (out, &fe, sizeof fe))
        return false;
    }
  if (!strobe_wire_buf_append (out, schema->logger, schema->logger_size)
      || !strobe_wire_buf_append (out, schema->event, schema->event_size))
    return false;
  for (unsigned i = 0; i < schema->field_count; i++)
    if (!strobe_wire_buf_append (out, schema->fields[i].name, schema->fields[i].name_size))
      return false;
  return true;
}

bool
strobe_wire_scalar_size_valid (uint8_t kind, size_t size)
{
  if (kind == STROBE_TYPE_POINTER)
    return size == 4 || size == 8;
  return size == strobe_wire_scalar_size (kind);
}

static bool
has_nul (const char *s, size_t len)
{
  return len > 0 && memchr (s, '\0', len) != NULL;
}

static bool
schema_bad (const char **why, const char *what)
{
  if (why)
    *why = what;
  errno = EBADMSG;
  return false;
}

bool
strobe_wire_parse_new_event (const uint8_t *body, size_t len, StrobeWireSchema *schema,
                             const char **why)
{
  uint16_t header_size;
  uint8_t entry_size;
  size_t pos;
  bool any_aux = false;

  if (len < sizeof (StrobeWireNewEvent))
    return schema_bad (why, STROBE_N_ ("shorter than its 12-byte header"));
  header_size = strobe_wire_get_u16 (body);
  if (header_size < sizeof (StrobeWireNewEvent) || header_size > len)
    return schema_bad (why, STROBE_N_ ("header size out of range"));
  schema->uid = strobe_wire_get_u16 (body + 2);
  schema->payload_size = strobe_wire_get_u16 (body + 4);
  schema->flags = body[6];
  schema->field_count = body[7];
  schema->logger_size = body[8];
  schema->event_size = body[9];
  entry_size = body[10];
  if (schema->uid < STROBE_UID_FIRST_EVENT)
    return schema_bad (why, STROBE_N_ ("defines a uid below 16"));
  if (entry_size < sizeof (StrobeWireFieldEntry))
    return schema_bad (why, STROBE_N_ ("field entry size below 8"));

  pos = header_size;
  if ((len - pos) / entry_size < schema->field_count)
    return schema_bad (why, STROBE_N_ ("field entries run past the record"));
  for (unsigned i = 0; i < schema->field_count; i++)
    {
      const uint8_t *e = body + pos + (size_t) i * entry_size;
      StrobeWireField *f = &schema->fields[i];
      uint8_t kind;

      f->offset = strobe_wire_get_u16 (e);
      f->size = strobe_wire_get_u16 (e + 2);
      f->type = e[4];
      f->name_size = e[5];
      kind = f->type & 0x3f;
      if (!strobe_wire_type_is_aux (f->type))
        {
          if ((uint32_t) f->offset + f->size > schema->payload_size)
            return schema_bad (why, STROBE_N_ ("a field lies past the payload"));
          if (strobe_wire_scalar_size (kind) != 0 && !strobe_wire_scalar_size_valid (kind, f->size))
            return schema_bad (why, STROBE_N_ ("a field's size is not its type's"));
        }
      else
        {
          any_aux = true;
          if ((f->type & 0xc0) == STROBE_TYPE_ARRAY && strobe_wire_scalar_size (kind) != 0
              && !strobe_wire_scalar_size_valid (kind, f->size))
            return schema_bad (why, STROBE_N_ ("an array's element size is not its type's"));
        }
    }
  if (any_aux != ((schema->flags & STROBE_EVENT_FLAG_HAS_AUX) != 0))
    return schema_bad (why, any_aux ? STROBE_N_ ("aux fields without the HAS_AUX flag")
                                    : STROBE_N_ ("the HAS_AUX flag without aux fields"));
  pos += (size_t) schema->field_count * entry_size;

  if (len - pos < schema->logger_size)
    return schema_bad (why, STROBE_N_ ("names run past the record"));
  schema->logger = (const char *) body + pos;
  pos += schema->logger_size;
  if (len - pos < schema->event_size)
    return schema_bad (why, STROBE_N_ ("names run past the record"));
  schema->event = (const char *) body + pos;
  pos += schema->event_size;
  if (has_nul (schema->logger, schema->logger_size) || has_nul (schema->event, schema->event_size))
    return schema_bad (why, STROBE_N_ ("a name contains a NUL byte"));
  for (unsigned i = 0; i < schema->field_count; i++)
    {
      StrobeWireField *f = &schema->fields[i];
      if (len - pos < f->name_size)
        return schema_bad (why, STROBE_N_ ("names run past the record"));
      f->name = (const char *) body + pos;
      pos += f->name_size;
      if (has_nul (f->name, f->name_size))
        return schema_bad (why, STROBE_N_ ("a name contains a NUL byte"));
    }
  return true;
}

StrobeWireHeaderCheck
strobe_wire_check_packet_header (const uint8_t *header)
{
  uint32_t size = strobe_wire_get_u32 (header);
  uint16_t tid = strobe_wire_get_u16 (header + 4);
  uint16_t flags = strobe_wire_get_u16 (header + 6);
  uint32_t raw_size = strobe_wire_get_u32 (header + 8);

  if (size < sizeof (StrobeWirePacketHeader) || size > STROBE_WIRE_MAX_PACKET)
    return STROBE_WIRE_HEADER_BAD_SIZE;
  if (flags & STROBE_PACKET_FLAGS_REQUIRED)
    return STROBE_WIRE_HEADER_UNKNOWN_FLAGS;
  if (tid == STROBE_TID_INVALID)
    return STROBE_WIRE_HEADER_BAD_THREAD;
  if (raw_size > STROBE_WIRE_MAX_PAYLOAD
      || (!(flags & (STROBE_PACKET_FLAG_LZ4 | STROBE_PACKET_FLAG_ZSTD))
          && raw_size != size - sizeof (StrobeWirePacketHeader)))
    return STROBE_WIRE_HEADER_BAD_RAW_SIZE;
  if (tid == STROBE_TID_CONTROL && (flags & STROBE_PACKET_FLAG_LZ4))
    return STROBE_WIRE_HEADER_LZ4_CONTROL;
  if (tid == STROBE_TID_CONTROL && (flags & STROBE_PACKET_FLAG_ZSTD))
    return STROBE_WIRE_HEADER_ZSTD_CONTROL;
  if ((flags & STROBE_PACKET_FLAG_LZ4) && (flags & STROBE_PACKET_FLAG_ZSTD))
    return STROBE_WIRE_HEADER_TWO_CODECS;
  return STROBE_WIRE_HEADER_OK;
}

/* ---- LZ4 blocks --------------------------------------------------------------------- */

/* The rule is PROTOCOL.md §2, "LZ4 payloads", and nothing else: liblz4's decoder is not
 * used because what it accepts varies with its version and code path (a match offset of
 * 0, a match ending in the last 5 bytes). Checking costs nothing extra here: each check
 * sits next to the copy it guards, off the loop's critical path. */

static inline size_t
lz4_u16 (const uint8_t *p)
{
  return (size_t) p[0] | (size_t) p[1] << 8;
}

/* Adds the extension bytes of a length (each added, until one is not 255). False when
 * they run past @iend or the length past @limit, which also keeps it from overflowing. */
static inline bool
lz4_length (const uint8_t **ipp, const uint8_t *iend, size_t *len, size_t limit)
{
  const uint8_t *ip = *ipp;
  size_t n = *len;
  unsigned b;

  do
    {
      if (ip == iend)
        return false;
      b = *ip++;
      n += b;
      if (n > limit)
        return false;
    }
  while (b == 255);
  *ipp = ip;
  *len = n;
  return true;
}

/* A match, exactly: when it overlaps what it writes, the output repeats with period
 * @offset, so whole periods are copied from @match, as many as are written already. */
static inline void
lz4_match_exact (uint8_t *op, size_t offset, size_t len)
{
  const uint8_t *match = op - offset;

  for (size_t done = 0, n; done < len; done += n)
    {
      n = done + offset < len - done ? done + offset : len - done;
      memcpy (op + done, match, n);
    }
}

/* The same with room for up to 15 bytes of overshoot after @len: whole 8- or 16-byte
 * copies, none of which reads a byte not yet written. */
static inline void
lz4_match_wide (uint8_t *op, size_t offset, size_t len)
{
  const uint8_t *match = op - offset;

  if (offset >= 16)
    for (size_t i = 0; i < len; i += 16)
      memcpy (op + i, match + i, 16);
  else if (offset >= 8)
    for (size_t i = 0; i < len; i += 8)
      memcpy (op + i, match + i, 8);
  else
    {
      /* The output repeats with period @offset, so also with any multiple of it: copy
       * from a multiple of at least 8 back, once 8 bytes exist. */
      size_t period = offset * ((8 + offset - 1) / offset);

      for (size_t i = 0; i < 8; i++)
        op[i] = match[i];
      for (size_t i = 8; i < len; i += 8)
        memcpy (op + i, op + i - period, 8);
    }
}

#define LZ4_FAIL(text) do { *why = (text); goto bad; } while (0)

bool
strobe_wire_lz4_decode (const uint8_t *src, size_t len, uint8_t *dst, size_t raw_size,
                        const char **why)
{
  const char *unused;
  const uint8_t *ip = src, *iend;
  uint8_t *op = dst, *oend;

  if (why == NULL)
    why = &unused;
  if ((src == NULL && len > 0) || (dst == NULL && raw_size > 0))
    {
      *why = STROBE_N_ ("no buffer");
      errno = EINVAL;
      return false;
    }
  iend = src + len;
  oend = dst + raw_size;
  if (len == 0)
    LZ4_FAIL (STROBE_N_ ("an empty block (the shortest block is one token)"));

  /* Far from both ends, copies may run up to 31 bytes past what they need: a sequence
   * whose literals leave fewer than 32 input bytes (the last one among them) goes to
   * the exact loop below, before anything of it is written. */
  while (iend - ip >= 64 && oend - op >= 64)
    {
      const uint8_t *seq = ip;
      unsigned token = *ip++;
      size_t lit = token >> 4, offset, mlen;

      if (lit == 15)
        {
          if (!lz4_length (&ip, iend, &lit, raw_size))
            LZ4_FAIL (STROBE_N_ ("a literal length runs past the block or the output"));
          if ((size_t) (iend - ip) < lit + 32 || (size_t) (oend - op) < lit + 32)
            {
              ip = seq;
              break;
            }
          for (size_t i = 0; i < lit; i += 32)
            memcpy (op + i, ip + i, 32);
        }
      else
        memcpy (op, ip, 16);
      ip += lit;
      op += lit;

      offset = lz4_u16 (ip);
      ip += 2;
      if (offset - 1 >= (size_t) (op - dst))   /* 0 wraps around */
        LZ4_FAIL (offset == 0 ? STROBE_N_ ("a match offset of 0")
                              : STROBE_N_ ("a match offset before the first decoded byte"));
      mlen = token & 15;
      if (mlen == 15 && !lz4_length (&ip, iend, &mlen, raw_size))
        LZ4_FAIL (STROBE_N_ ("a match length runs past the block or the output"));
      mlen += 4;
      /* At least 32 output bytes are left after the literals: the match starts well
       * before the last 12. */
      if (mlen > (size_t) (oend - op) - 5)
        LZ4_FAIL (STROBE_N_ ("a match ends in the last 5 bytes of the output"));
      if (mlen + 32 > (size_t) (oend - op))
        lz4_match_exact (op, offset, mlen);
      else
        lz4_match_wide (op, offset, mlen);
      op += mlen;
    }

  for (;;)
    {
      unsigned token;
      size_t lit, offset, mlen;

      if (ip == iend)
        LZ4_FAIL (STROBE_N_ ("the block ends after a match (no last sequence)"));
      token = *ip++;
      lit = token >> 4;
      if (lit == 15 && !lz4_length (&ip, iend, &lit, raw_size))
        LZ4_FAIL (STROBE_N_ ("a literal length runs past the block or the output"));
      if (lit > (size_t) (iend - ip))
        LZ4_FAIL (STROBE_N_ ("literals run past the block"));
      if (lit > (size_t) (oend - op))
        LZ4_FAIL (STROBE_N_ ("it decodes to more than raw_size bytes"));
      if (lit > 0)
        memcpy (op, ip, lit);
      ip += lit;
      op += lit;
      if (ip == iend)
        {
          if (token & 15)
            LZ4_FAIL (STROBE_N_ ("the last sequence has a match length"));
          if (op != oend)
            LZ4_FAIL (STROBE_N_ ("it decodes to fewer than raw_size bytes"));
          return true;
        }

      if (iend - ip < 2)
        LZ4_FAIL (STROBE_N_ ("a match offset runs past the block"));
      offset = lz4_u16 (ip);
      ip += 2;
      if (offset - 1 >= (size_t) (op - dst))
        LZ4_FAIL (offset == 0 ? STROBE_N_ ("a match offset of 0")
                              : STROBE_N_ ("a match offset before the first decoded byte"));
      if ((size_t) (oend - op) < 12)
        LZ4_FAIL (STROBE_N_ ("a match starts in the last 12 bytes of the output"));
      mlen = token & 15;
      if (mlen == 15 && !lz4_length (&ip, iend, &mlen, raw_size))
        LZ4_FAIL (STROBE_N_ ("a match length runs past the block or the output"));
      mlen += 4;
      if (mlen > (size_t) (oend - op) - 5)
        LZ4_FAIL (STROBE_N_ ("a match ends in the last 5 bytes of the output"));
      lz4_match_exact (op, offset, mlen);
      op += mlen;
    }

bad:
  errno = EBADMSG;
  return false;
}

#undef LZ4_FAIL

/* ---- packets ------------------------------------------------------------------------ */

bool
strobe_wire_write_packet (StrobeWireBuf *out, StrobeWireBuf *scratch, uint16_t thread_id,
                          const uint8_t *payload, size_t len)
{
  StrobeWirePacketHeader h;

  if (len > STROBE_WIRE_MAX_PAYLOAD)
    {
      errno = EMSGSIZE;
      return false;
    }
  h.thread_id = thread_id;
  h.raw_size = (uint32_t) len;

  if (len >= STROBE_WIRE_COMPRESS_MIN)
    {
      int bound = LZ4_compressBound ((int) len);
      int n;

      if (!strobe_wire_buf_reserve (scratch, (size_t) bound))
        return false;
      n = LZ4_compress_default ((const char *) payload, (char *) scratch->data, (int) len, bound);
      if (n > 0 && (size_t) n <= len - len / 16)
        {
          h.size = (uint32_t) (sizeof h + (size_t) n);
          h.flags = STROBE_PACKET_FLAG_LZ4;
          return strobe_wire_buf_reserve (out, h.size)
                 && strobe_wire_buf_append (out, &h, sizeof h)
                 && strobe_wire_buf_append (out, scratch->data, (size_t) n);
        }
    }

  h.size = (uint32_t) (sizeof h + len);
  h.flags = 0;
  return strobe_wire_buf_reserve (out, h.size)
         && strobe_wire_buf_append (out, &h, sizeof h)
         && strobe_wire_buf_append (out, payload, len);
}

bool
strobe_wire_write_control (StrobeWireBuf *out, uint8_t kind, const void *body, size_t body_len)
{
  StrobeWirePacketHeader h;

  h.size = (uint32_t) (sizeof h + 1 + body_len);
  h.thread_id = STROBE_TID_CONTROL;
  h.flags = 0;
  h.raw_size = (uint32_t) (1 + body_len);
  return strobe_wire_buf_reserve (out, h.size)
         && strobe_wire_buf_append (out, &h, sizeof h)
         && strobe_wire_buf_append (out, &kind, 1)
         && strobe_wire_buf_append (out, body, body_len);
}
