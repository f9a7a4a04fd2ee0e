"""strobewire.py — build Strobe byte streams by hand, for the conformance vectors.

Written from core/protocol/PROTOCOL.md, not from the C code: every helper here is a
sentence of that document. Nothing is validated; vectors break rules on purpose.
"""

import struct

# §2 thread ids, §6 control kinds
TID_IMPORTANTS = 1
TID_CONTROL = 2
SYNC = 1
END = 2
FLAG_LZ4 = 0x0001

# §3 record uids
UID_NEW_EVENT = 1
UID_AUX_DATA = 2
UID_AUX_END = 3

# §4 schema flags and field types
IMPORTANT = 0x01
NOSYNC = 0x02
HAS_AUX = 0x04

BOOL, INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64, UINT64 = range(1, 10)
FLOAT32, FLOAT64, POINTER = 10, 11, 12
ARRAY = 0x40
ANSI = 0x80
WIDE = 0x81

NATURAL_SIZE = {BOOL: 1, INT8: 1, UINT8: 1, INT16: 2, UINT16: 2, INT32: 4, UINT32: 4,
                INT64: 8, UINT64: 8, FLOAT32: 4, FLOAT64: 8, POINTER: 8}


def u8(v):
    return struct.pack('<B', v & 0xff)


def u16(v):
    return struct.pack('<H', v & 0xffff)


def u24(v):
    return struct.pack('<I', v & 0xffffff)[:3]


def u32(v):
    return struct.pack('<I', v & 0xffffffff)


def u64(v):
    return struct.pack('<Q', v & 0xffffffffffffffff)


def is_aux(type_):
    return (type_ & 0xc0) != 0


# ---- LZ4 (§2: one LZ4 block, no frame) ------------------------------------------------

def lz4_literals_only(data):
    """The simplest valid block: one sequence made of literals."""
    return _lz4_sequence(data, None, 0)


def _lz4_length(n):
    return b'\xff' * (n // 255) + bytes([n % 255])


def _lz4_sequence(literals, offset, match_len):
    lit = len(literals)
    token = (min(lit, 15) << 4)
    if offset is not None:
        token |= min(match_len - 4, 15)
    out = bytearray([token])
    if lit >= 15:
        out += _lz4_length(lit - 15)
    out += literals
    if offset is not None:
        out += u16(offset)
        if match_len - 4 >= 15:
            out += _lz4_length(match_len - 4 - 15)
    return bytes(out)


def lz4_block(*sequences):
    """A block from its sequences written out: (literals, offset, match_length) each, then
    the last one as (literals,). Nothing is checked, so a vector can break any rule."""
    out = bytearray()
    for seq in sequences:
        if len(seq) == 1:
            out += _lz4_sequence(seq[0], None, 0)
        else:
            out += _lz4_sequence(*seq)
    return bytes(out)


def lz4_compress(data):
    """A small greedy LZ4 block compressor (matches of 4+ bytes, 64 KiB window), keeping
    the block-format rules: the last 5 bytes are literals and no match starts in the
    last 12 bytes."""
    n = len(data)
    out = bytearray()
    table = {}
    anchor = 0
    i = 0
    while i + 12 <= n:
        key = data[i:i + 4]
        cand = table.get(key)
        table[key] = i
        if cand is not None and i - cand <= 65535:
            length = 4
            while i + length < n - 5 and data[cand + length] == data[i + length]:
                length += 1
            out += _lz4_sequence(data[anchor:i], i - cand, length)
            i += length
            anchor = i
        else:
            i += 1
    out += _lz4_sequence(data[anchor:], None, 0)
    return bytes(out)


# ---- handshake (§1) --------------------------------------------------------------------

# ---- zstd (§2, "ZSTD payloads"): frames of RFC 8878 built from raw blocks ------------------

FLAG_ZSTD = 0x0008


def zstd_frame_header(window_exponent=10):
    """A frame header without content size, checksum or dictionary: magic, descriptor 0,
    a window of 2^(10 + @window_exponent) bytes."""
    return u32(0xFD2FB528) + u8(0) + u8(window_exponent << 3)


def zstd_raw_block(data, last=False):
    """A Raw_Block: its 3-byte header (Last_Block, type 0, size), then @data."""
    return (u24((len(data) << 3) | (1 if last else 0)) + data)


def zstd_packet(tid, zstd_bytes, raw_size, flags=FLAG_ZSTD):
    return u32(12 + len(zstd_bytes)) + u16(tid) + u16(flags) + u32(raw_size) + zstd_bytes


def meta(id_, value):
    return u16(id_) + u16(len(value)) + value


def handshake(metadata=b'', transport=1, protocol=1, size=None):
    return (b'STRB' + u8(transport) + u8(protocol)
            + u16(len(metadata) if size is None else size) + metadata)


# ---- packets (§2) ----------------------------------------------------------------------

def packet(tid, payload, flags=0, lz4=False, raw_size=None, size=None, body=None):
    """A packet; @lz4 compresses @payload (and sets the flag). @body replaces the bytes
    after the header, @raw_size and @size the header fields, to break them."""
    if lz4:
        flags |= FLAG_LZ4
        wire = lz4_compress(payload)
    else:
        wire = payload
    if body is not None:
        wire = body
    return (u32(12 + len(wire) if size is None else size) + u16(tid) + u16(flags)
            + u32(len(payload) if raw_size is None else raw_size) + wire)


def control(kind, rest=b''):
    return packet(TID_CONTROL, u8(kind) + rest)


def sync(serial):
    return control(SYNC, u32(serial))


def end():
    return control(END)


# ---- records (§3, §4) ------------------------------------------------------------------

class Field:
    def __init__(self, name, type_, size=None, offset=None):
        self.name = name.encode('utf-8') if isinstance(name, str) else name
        self.type = type_
        if size is None:
            if is_aux(type_):
                size = NATURAL_SIZE.get(type_ & 0x3f, 0) if type_ & 0xc0 == ARRAY else 0
            else:
                size = NATURAL_SIZE.get(type_, 0)
        self.size = size
        self.offset = offset


def schema_body(uid, logger, event, fields, flags=None, payload_size=None,
                header_extra=b'', entry_extra=b'', trailing=b'', reserved=0,
                entry_reserved=0, header_size=None, entry_size=None, counts=None):
    """A NewEvent body. Scalar offsets are packed in order unless a Field says
    otherwise; HAS_AUX is set when a field is an aux field unless @flags is given."""
    logger = logger.encode('utf-8') if isinstance(logger, str) else logger
    event = event.encode('utf-8') if isinstance(event, str) else event
    pos = 0
    entries = bytearray()
    for f in fields:
        if is_aux(f.type):
            off = 0 if f.offset is None else f.offset
        else:
            off = pos if f.offset is None else f.offset
            pos = max(pos, off + f.size)
        entries += (u16(off) + u16(f.size) + u8(f.type) + u8(len(f.name)) + u16(entry_reserved)
                    + entry_extra)
    if flags is None:
        flags = HAS_AUX if any(is_aux(f.type) for f in fields) else 0
    if payload_size is None:
        payload_size = pos
    n_fields, n_logger, n_event = (len(fields), len(logger), len(event)) if counts is None else counts
    head = (u16(12 + len(header_extra) if header_size is None else header_size) + u16(uid)
            + u16(payload_size) + u8(flags) + u8(n_fields) + u8(n_logger) + u8(n_event)
            + u8(8 + len(entry_extra) if entry_size is None else entry_size) + u8(reserved)
            + header_extra)
    names = logger + event + b''.join(f.name for f in fields)
    return head + bytes(entries) + names + trailing


def important(uid, body, size=None):
    """An importants-stream record: u16 uid, u32 size, body."""
    return u16(uid) + u32(len(body) if size is None else size) + body


def new_event(*args, **kwargs):
    return important(UID_NEW_EVENT, schema_body(*args, **kwargs))


def aux(index, data, reserved=0):
    return u16(UID_AUX_DATA) + u8(index) + u8(reserved) + u32(len(data)) + data


AUX_END = u16(UID_AUX_END)


def event(uid, payload=b'', serial=None, auxes=None):
    """A thread-stream event record: uid, the serial when given, the payload, then the
    aux records and AuxEnd when @auxes is a list (even an empty one)."""
    out = u16(uid)
    if serial is not None:
        out += u24(serial)
    out += payload
    if auxes is not None:
        out += b''.join(auxes) + AUX_END
    return out


def sized(uid, body):
    """A sized record of a thread stream (uids 4..15): u16 uid, u32 size, body."""
    return u16(uid) + u32(len(body)) + body


class Stream:
    """Bytes being built, with the offsets of what was appended."""

    def __init__(self, head=None):
        self.data = bytearray(handshake() if head is None else head)

    def add(self, raw):
        """Appends @raw and returns the offset it starts at."""
        at = len(self.data)
        self.data += raw
        return at

    def bytes(self):
        return bytes(self.data)
