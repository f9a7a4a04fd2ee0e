#!/usr/bin/env python3
"""Clean-room Strobe trace reader, written from PROTOCOL.md only.

    strobe_reader.py FILE

Prints the `dump` lines of PROTOCOL.md §10 followed by the status line.
"""

import struct
import sys

MIB16 = 16 * 1024 * 1024
META_SIZES = {1: 2, 2: 16, 3: 16, 5: 4, 6: 8, 7: 8, 8: 8, 9: 1, 11: 1, 12: 4}  # §1
SER_MOD = 1 << 24
HALF = 1 << 23
HELD_LIMIT = 64 * 1024 * 1024


class StrobeError(Exception):
    def __init__(self, cls, offset, msg=''):
        Exception.__init__(self, msg)
        self.cls = cls
        self.offset = offset
        self.msg = msg


# ---------------------------------------------------------------- serials (§0)

def before(a, b):
    d = (b - a) % SER_MOD
    return 1 <= d <= HALF - 1


# ---------------------------------------------------------------- zstd (§2)

class ZstdError(Exception):
    pass


class ZstdUnsupported(Exception):
    pass


class ZstdStream:
    """The stream of a trace's ZSTD payloads (PROTOCOL.md §2, "ZSTD payloads"; frames of
    RFC 8878). This reader decodes frame headers, Raw and RLE blocks; a Compressed block
    (FSE and Huffman coding) it reports as unsupported rather than guess."""

    def __init__(self):
        self.in_frame = False
        self.spent = False

    def feed(self, data, raw_size):
        if self.spent:
            raise ZstdError('an earlier ZSTD payload did not decode')
        self.spent = True
        out = bytearray()
        p = 0
        n = len(data)
        while p < n:
            if not self.in_frame:
                if n - p < 6 or data[p:p + 4] != b'\x28\xb5\x2f\xfd':
                    raise ZstdError('no zstd frame header')
                fhd = data[p + 4]
                fcs_flag, single, reserved, checksum, dict_flag = \
                    fhd >> 6, (fhd >> 5) & 1, (fhd >> 3) & 1, (fhd >> 2) & 1, fhd & 3
                if reserved:
                    raise ZstdError('reserved frame header bit')
                if single or fcs_flag or dict_flag or checksum:
                    raise ZstdUnsupported('a zstd frame header this reader does not decode')
                wd = data[p + 5]
                log = 10 + (wd >> 3)
                window = (1 << log) + ((1 << log) // 8) * (wd & 7)
                if window > 8 * 1024 * 1024:
                    raise ZstdError('window over 8 MiB')
                p += 6
                self.in_frame = True
                continue
            if n - p < 3:
                raise ZstdError('cut block header')
            h = data[p] | (data[p + 1] << 8) | (data[p + 2] << 16)
            last, btype, bsize = h & 1, (h >> 1) & 3, h >> 3
            p += 3
            if btype == 0:
                if n - p < bsize:
                    raise ZstdError('cut raw block')
                out += data[p:p + bsize]
                p += bsize
            elif btype == 1:
                if n - p < 1:
                    raise ZstdError('cut RLE block')
                out += bytes([data[p]]) * bsize
                p += 1
            elif btype == 2:
                raise ZstdUnsupported('compressed zstd blocks are not decoded by this reader')
            else:
                raise ZstdError('reserved block type')
            if len(out) > raw_size:
                raise ZstdError('more than raw_size bytes')
            if last:
                self.in_frame = False
        if len(out) != raw_size:
            raise ZstdError('fewer than raw_size bytes')
        self.spent = False
        return bytes(out)


# ---------------------------------------------------------------- LZ4 (§2)

class LZ4Error(Exception):
    pass


def lz4_block_decode(src, raw_size):
    """Decodes one LZ4 block into exactly raw_size bytes, by the rule of PROTOCOL.md §2,
    "LZ4 payloads"; raises LZ4Error wherever that rule makes the packet corrupt."""
    n_in = len(src)
    out = bytearray()
    ip = 0

    def fail(why):
        raise LZ4Error(why)

    def extra(ip, n):
        # more bytes, each added, the last being the first that is not 255; a length
        # past what is left of the output is corrupt whatever follows, so stop there
        while True:
            if ip >= n_in:
                fail('a length runs past the block')
            b = src[ip]
            ip += 1
            n += b
            if n > raw_size - len(out):
                fail('a length past the output')
            if b != 255:
                return n, ip

    if n_in == 0:
        fail('empty block')
    while True:
        if ip >= n_in:
            fail('the block ends right after a match')
        token = src[ip]
        ip += 1
        lit = token >> 4
        if lit == 15:
            lit, ip = extra(ip, lit)
        if lit > n_in - ip:
            fail('literals run past the block')
        if lit > raw_size - len(out):
            fail('the output would grow past raw_size')
        out += src[ip:ip + lit]
        ip += lit
        if ip == n_in:
            if token & 15:
                fail('the last token has match bits')
            if len(out) != raw_size:
                fail('the output is shorter than raw_size')
            return bytes(out)
        if n_in - ip < 2:
            fail('the offset runs past the block')
        offset = src[ip] | (src[ip + 1] << 8)
        ip += 2
        n = len(out)
        if offset == 0 or offset > n:
            fail('offset 0 or before the first byte of the output')
        if raw_size - n < 12:
            fail('a match starts in the last 12 bytes')
        length = token & 15
        if length == 15:
            length, ip = extra(ip, length)
        length += 4
        if n + length > raw_size - 5:
            fail('a match ends in the last 5 bytes')
        # byte by byte, each a copy of the one `offset` before: the last `offset` bytes
        # repeated
        start = n - offset
        if offset >= length:
            out += out[start:start + length]
        else:
            out += (out[start:] * (length // offset + 1))[:length]


# ---------------------------------------------------------------- text (§9, §10)

def ansi_text(b):
    try:
        return b.decode('utf-8', 'strict')
    except UnicodeDecodeError:
        return b.decode('latin-1')


def wide_text(b):
    units = [b[i] | (b[i + 1] << 8) for i in range(0, len(b) - 1, 2)]
    out = []
    i = 0
    while i < len(units):
        u = units[i]
        if 0xD800 <= u <= 0xDBFF:
            if i + 1 < len(units) and 0xDC00 <= units[i + 1] <= 0xDFFF:
                out.append(chr(0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00)))
                i += 2
                continue
            out.append('\ufffd')
        elif 0xDC00 <= u <= 0xDFFF:
            out.append('\ufffd')
        else:
            out.append(chr(u))
        i += 1
    return ''.join(out)


def escape(s, extra=''):
    out = []
    for ch in s:
        c = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == '\\':
            out.append('\\\\')
        elif ch == '\n':
            out.append('\\n')
        elif ch == '\r':
            out.append('\\r')
        elif ch == '\t':
            out.append('\\t')
        elif (c < 0x20 or c == 0x7f or 0x80 <= c <= 0x9f or c in (0x2028, 0x2029)
              or c in (0x061c, 0x200e, 0x200f) or 0x202a <= c <= 0x202e or 0x2066 <= c <= 0x2069
              or ch in extra):
            out.append('\\u%04x' % c)
        else:
            out.append(ch)
    return ''.join(out)


def name_text(b, logger=False):
    return escape(ansi_text(b), ' =.' if logger else ' =')


# ---------------------------------------------------------------- schemas (§4)

SCALAR_SIZES = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 4, 8: 8, 9: 8, 10: 4, 11: 8}
INT_FMT = {2: '<b', 3: '<B', 4: '<h', 5: '<H', 6: '<i', 7: '<I', 8: '<q', 9: '<Q'}

F_IMPORTANT = 0x01
F_NOSYNC = 0x02
F_HAS_AUX = 0x04
F_REQUIRED_UNKNOWN = 0x38


def is_aux(t):
    return (t & 0xc0) != 0


def known_kind(k):
    return 1 <= k <= 12


class Field:
    __slots__ = ('offset', 'size', 'type', 'name')


class Schema:
    pass


def parse_schema(body, known_uids):
    """Returns a Schema or raises ValueError (malformed, §4)."""
    if len(body) < 12:
        raise ValueError('body under 12 bytes')
    header_size, uid, payload_size, flags, field_count, lsize, esize, fes = \
        struct.unpack_from('<HHHBBBBB', body, 0)
    if header_size < 12 or header_size > len(body):
        raise ValueError('header_size')
    if uid < 16:
        raise ValueError('uid below 16')
    if fes < 8:
        raise ValueError('field_entry_size')
    names_at = header_size + field_count * fes
    if names_at > len(body):
        raise ValueError('entries past body')
    fields = []
    any_aux = False
    for i in range(field_count):
        p = header_size + i * fes
        f = Field()
        f.offset, f.size, f.type, nsz = struct.unpack_from('<HHBB', body, p)
        f.name = nsz  # replaced by the name below
        if is_aux(f.type):
            any_aux = True
            if (f.type & 0xc0) == 0x40:
                kind = f.type & 0x3f
                if known_kind(kind):
                    if kind == 12:
                        if f.size not in (4, 8):
                            raise ValueError('pointer array element size')
                    elif f.size != SCALAR_SIZES[kind]:
                        raise ValueError('array element size')
        else:
            if f.offset + f.size > payload_size:
                raise ValueError('field past payload')
            if known_kind(f.type):
                if f.type == 12:
                    if f.size not in (4, 8):
                        raise ValueError('pointer size')
                elif f.size != SCALAR_SIZES[f.type]:
                    raise ValueError('scalar size')
        fields.append(f)
    has_aux = bool(flags & F_HAS_AUX)
    if has_aux != any_aux:
        raise ValueError('HAS_AUX mismatch')
    p = names_at
    sizes = [lsize, esize] + [f.name for f in fields]
    names = []
    for s in sizes:
        if p + s > len(body):
            raise ValueError('names past body')
        names.append(body[p:p + s])
        p += s
    for nm in names:
        if b'\x00' in nm:
            raise ValueError('NUL in name')
    if uid in known_uids:
        raise ValueError('defined twice')
    sc = Schema()
    sc.uid = uid
    sc.payload_size = payload_size
    sc.flags = flags
    sc.fields = fields
    sc.logger = names[0]
    sc.event = names[1]
    for f, nm in zip(fields, names[2:]):
        f.name = nm
    sc.important = bool(flags & F_IMPORTANT)
    sc.nosync = bool(flags & F_NOSYNC) or sc.important
    sc.has_aux = has_aux
    sc.required_unknown = bool(flags & F_REQUIRED_UNKNOWN)
    sc.prefix = name_text(sc.logger, True) + '.' + name_text(sc.event)
    sc.field_names = [name_text(f.name) for f in fields]
    return sc


# ---------------------------------------------------------------- values (§10)

def fmt_scalar(kind, b):
    if kind == 1:
        return 'false' if b[0] == 0 else 'true'
    if kind in INT_FMT:
        return str(struct.unpack(INT_FMT[kind], b)[0])
    if kind == 10:
        return fmt_float(struct.unpack('<f', b)[0], 9)
    if kind == 11:
        return fmt_float(struct.unpack('<d', b)[0], 17)
    if kind == 12:
        return '0x%x' % int.from_bytes(b, 'little')
    return '0x' + b.hex()


def fmt_float(x, n):
    if x != x:
        return 'nan'
    if x == float('inf'):
        return 'inf'
    if x == float('-inf'):
        return '-inf'
    return ('%.' + str(n) + 'g') % x


def fmt_value(f, payload, aux):
    t = f.type
    if not is_aux(t):
        return fmt_scalar(t, payload[f.offset:f.offset + f.size])
    data = aux
    if (t & 0xc0) == 0x40 and known_kind(t & 0x3f):
        kind = t & 0x3f
        es = f.size
        elems = [fmt_scalar(kind, data[i:i + es]) for i in range(0, len(data), es)]
        return '[' + ', '.join(elems) + ']'
    if t == 0x80:
        return '"' + escape(ansi_text(data)) + '"'
    if t == 0x81:
        return '"' + escape(wide_text(data)) + '"'
    return 'x"' + data.hex() + '"'


def event_line(thread, serial, sc, payload, auxes):
    parts = [str(thread), '-' if serial is None else str(serial), sc.prefix]
    for i, f in enumerate(sc.fields):
        parts.append(sc.field_names[i] + '=' + fmt_value(f, payload, auxes.get(i, b'')))
    return ' '.join(parts)


def parse_aux(sc, data, p, end):
    """Reads AuxData records then AuxEnd from data[p:end]; returns (auxes, new p).
    Raises ValueError on any aux error (§3)."""
    auxes = {}
    while True:
        if end - p < 2:
            raise ValueError('no AuxEnd')
        uid = data[p] | (data[p + 1] << 8)
        if uid == 3:
            return auxes, p + 2
        if uid != 2:
            raise ValueError('aux event lacks its AuxEnd')
        if end - p < 8:
            raise ValueError('AuxData header runs past')
        idx = data[p + 2]
        size = struct.unpack_from('<I', data, p + 4)[0]
        if size > end - p - 8:
            raise ValueError('AuxData size runs past')
        if idx >= len(sc.fields) or not is_aux(sc.fields[idx].type):
            raise ValueError('not an aux field')
        f = sc.fields[idx]
        t = f.type
        if (t & 0xc0) == 0x40 and known_kind(t & 0x3f):
            if size % f.size:
                raise ValueError('not a whole number of elements')
        if t == 0x81 and size % 2:
            raise ValueError('wide string of odd size')
        v = data[p + 8:p + 8 + size]
        auxes[idx] = auxes.get(idx, b'') + v
        p += 8 + size


# ---------------------------------------------------------------- merge (§8)

class Thread:
    def __init__(self, tid):
        self.tid = tid
        self.queue = []   # [kind 's'/'n'/'z', serial, line, start offset, packet account]
        self.announced = False
        self.ended = False
        self.sent = False
        self.synced = False
        self.qi = 0

    def waiting(self):
        return self.qi < len(self.queue)

    def head(self):
        return self.queue[self.qi][1]

    def counts(self):
        return not self.ended and (self.synced or (self.announced and not self.sent))


class Reader:
    def __init__(self, out):
        self.out = out
        self.E = None
        self.zstd = ZstdStream()
        self.threads = {}
        self.schemas = {}
        self.held = 0   # bytes held by the merge (§8, memory bound)

    def thread(self, tid):
        t = self.threads.get(tid)
        if t is None:
            t = self.threads[tid] = Thread(tid)
        return t

    def deliver(self, line):
        self.out.append(line)

    def run(self, t):
        while t.qi < len(t.queue):
            kind, s, line, _, acct = t.queue[t.qi]
            if kind == 'n':
                self.deliver(line)
            elif kind == 'z':
                pass
            else:
                if self.E is not None and s == self.E:
                    self.deliver(line)
                    self.E = (s + 1) % SER_MOD
                elif self.E is not None and before(s, self.E):
                    self.deliver(line)
                else:
                    break
            t.qi += 1
            if acct is not None:
                acct[1] -= 1
                if acct[1] == 0:
                    self.held -= acct[0]
        if t.qi >= len(t.queue):
            t.queue = []
            t.qi = 0

    def waiting_threads(self):
        return [self.threads[k] for k in sorted(self.threads) if self.threads[k].waiting()]

    def smallest_head(self, waiting):
        if not waiting:
            return None
        m = waiting[0].head()
        for t in waiting[1:]:
            if before(t.head(), m):
                m = t.head()
        return m

    def merge_step(self, floor=None, end=False):
        while True:
            waiting = self.waiting_threads()
            if self.E is not None:
                due = [t for t in waiting if t.head() == self.E or before(t.head(), self.E)]
                if due:
                    self.run(due[0])
                    continue
            if floor is not None and self.E is not None and before(self.E, floor):
                m = self.smallest_head(waiting)
                if m is not None and before(m, floor):
                    self.E = m
                else:
                    self.E = floor
                continue
            if not waiting:
                return
            if end or self.held > HELD_LIMIT or \
                    all(t.waiting() for t in self.threads.values() if t.counts()):
                self.E = self.smallest_head(waiting)
                continue
            return

    # ------------------------------------------------------------ packets

    def thread_packet(self, tid, data, pkt_off):
        recs = []
        err = None
        p = 0
        n = len(data)
        synced = False
        try:
            while p < n:
                if n - p < 2:
                    raise StrobeError('corrupt', pkt_off, 'partial record')
                uid = data[p] | (data[p + 1] << 8)
                if uid <= 3:
                    raise StrobeError('corrupt', pkt_off, 'record uid %d on a thread stream' % uid)
                if uid < 16:
                    if n - p < 6:
                        raise StrobeError('corrupt', pkt_off, 'sized record runs past the packet')
                    size = struct.unpack_from('<I', data, p + 2)[0]
                    if size > n - p - 6:
                        raise StrobeError('corrupt', pkt_off, 'sized record runs past the packet')
                    recs.append(['z', None, None, p, None])
                    p += 6 + size
                    continue
                sc = self.schemas.get(uid)
                if sc is None:
                    raise StrobeError('corrupt', pkt_off, 'event uid %d has no schema' % uid)
                if sc.required_unknown:
                    raise StrobeError('unsupported', pkt_off, 'unknown required flags')
                if sc.important:
                    raise StrobeError('corrupt', pkt_off, 'Important event outside the importants stream')
                hdr = 2 if sc.nosync else 5
                if hdr + sc.payload_size > n - p:
                    raise StrobeError('corrupt', pkt_off, 'event runs past the packet')
                start = p
                serial = None
                if not sc.nosync:
                    serial = data[p + 2] | (data[p + 3] << 8) | (data[p + 4] << 16)
                payload = data[p + hdr:p + hdr + sc.payload_size]
                p += hdr + sc.payload_size
                auxes = {}
                if sc.has_aux:
                    try:
                        auxes, p = parse_aux(sc, data, p, n)
                    except ValueError as e:
                        raise StrobeError('corrupt', pkt_off, str(e))
                line = event_line(tid, serial, sc, payload, auxes)
                if serial is None:
                    recs.append(['n', None, line, start, None])
                else:
                    synced = True
                    recs.append(['s', serial, line, start, None])
        except StrobeError as e:
            err = e
        t = self.thread(tid)
        t.sent = True
        if synced:
            t.synced = True
        if t.waiting():
            self.account(recs, n)
            t.queue.extend(recs)
        else:
            t.queue = recs
            t.qi = 0
            self.run(t)
            if t.waiting():
                self.account(t.queue[t.qi:], n)
        self.merge_step()
        if err:
            raise err

    def account(self, recs, n):
        """Records of one packet are queued: the merge now holds the payload from the
        first of them to the end of the packet, until the last is delivered."""
        if not recs:
            return
        acct = [n - recs[0][3], len(recs)]
        for r in recs:
            r[4] = acct
        self.held += acct[0]

    def importants_packet(self, data, pkt_off):
        p = 0
        n = len(data)
        while p < n:
            if n - p < 6:
                raise StrobeError('corrupt', pkt_off, 'partial important record')
            uid, size = struct.unpack_from('<HI', data, p)
            if size > n - p - 6:
                raise StrobeError('corrupt', pkt_off, 'important record runs past the packet')
            body = data[p + 6:p + 6 + size]
            p += 6 + size
            if uid == 0:
                raise StrobeError('corrupt', pkt_off, 'important record uid 0')
            if uid == 1:
                try:
                    sc = parse_schema(body, self.schemas)
                except ValueError as e:
                    raise StrobeError('corrupt', pkt_off, 'malformed schema: %s' % e)
                self.schemas[sc.uid] = sc
                continue
            if uid < 16:
                continue
            sc = self.schemas.get(uid)
            if sc is None or sc.required_unknown:
                continue
            if len(body) < sc.payload_size:
                raise StrobeError('corrupt', pkt_off, 'important event smaller than its payload')
            payload = body[:sc.payload_size]
            auxes = {}
            if sc.has_aux:
                try:
                    auxes, _ = parse_aux(sc, body, sc.payload_size, len(body))
                except ValueError as e:
                    raise StrobeError('corrupt', pkt_off, str(e))
            self.deliver(event_line(1, None, sc, payload, auxes))
            self.system_event(sc, payload)
        self.merge_step()

    def system_event(self, sc, payload):
        if sc.logger != b'$Trace' or sc.event not in (b'ThreadInfo', b'ThreadEnd'):
            return
        for f in sc.fields:
            if f.name == b'ThreadId':
                if f.type not in INT_FMT:
                    return
                v = struct.unpack(INT_FMT[f.type], payload[f.offset:f.offset + f.size])[0]
                if 16 <= v <= 65535:
                    t = self.thread(v)
                    if sc.event == b'ThreadInfo':
                        t.announced = True
                    else:
                        t.ended = True
                return

    def control_packet(self, data, pkt_off):
        """Returns True on End."""
        if not data:
            raise StrobeError('corrupt', pkt_off, 'empty control packet')
        kind = data[0]
        if kind == 1:
            if len(data) < 5:
                raise StrobeError('corrupt', pkt_off, 'short Sync')
            S = struct.unpack_from('<I', data, 1)[0] & 0xffffff
            if self.E is None:
                self.E = S
                self.merge_step()
            elif before(self.E, S):
                self.merge_step(floor=S)
            else:
                self.merge_step()
            return False
        if kind == 2:
            return True
        return False

    # ------------------------------------------------------------ stream

    def read(self, data):
        n = len(data)
        magic = b'STRB'
        for i in range(4):
            if i < n and data[i] != magic[i]:
                raise StrobeError('not-strobe', 0, 'not a Strobe trace')
        if n > 4 and (data[4] == 0 or data[4] > 1):
            raise StrobeError('version', 4, 'transport version %d' % data[4])
        if n > 5 and (data[5] == 0 or data[5] > 1):
            raise StrobeError('version', 5, 'protocol version %d' % data[5])
        if n < 8:
            raise StrobeError('truncated', 0, 'inside the handshake')
        msize = data[6] | (data[7] << 8)
        if n < 8 + msize:
            raise StrobeError('truncated', 0, 'inside the handshake')
        md = data[8:8 + msize]
        entries = {}
        p = 0
        while p < msize:
            if msize - p < 4:
                raise StrobeError('corrupt', 8, 'corrupt metadata')
            mid, msz = struct.unpack_from('<HH', md, p)
            if msz > msize - p - 4:
                raise StrobeError('corrupt', 8, 'corrupt metadata')
            # a known id of the wrong size is as if absent; of the rest the last counts
            if META_SIZES.get(mid, msz) == msz:
                entries[mid] = md[p + 4:p + 4 + msz]
            p += 4 + msz
        feat = entries.get(12)
        if feat is not None and len(feat) == 4:
            fv = struct.unpack('<I', feat)[0]
            if fv & 0xffff:
                raise StrobeError('unsupported', 8, 'unknown required features 0x%08x' % fv)

        pos = 8 + msize
        while True:
            if pos == n:
                return 'no-end'
            if n - pos < 12:
                raise StrobeError('truncated', pos, 'inside the packet at offset %d' % pos)
            size, tid, flags, raw_size = struct.unpack_from('<IHHI', data, pos)
            if size < 12 or size > MIB16 + 12:
                raise StrobeError('corrupt', pos, 'packet size %d is out of range' % size)
            if flags & 0xf6:
                raise StrobeError('unsupported', pos, 'unknown required flags 0x%04x' % (flags & 0xf6))
            if tid == 0:
                raise StrobeError('corrupt', pos, 'thread id 0')
            lz4 = bool(flags & 1)
            zstd = bool(flags & 8)
            if raw_size > MIB16 or (not lz4 and not zstd and raw_size != size - 12):
                raise StrobeError('corrupt', pos, 'bad raw_size')
            if tid == 2 and lz4:
                raise StrobeError('corrupt', pos, 'control packets are never LZ4')
            if tid == 2 and zstd:
                raise StrobeError('corrupt', pos, 'control packets are never zstd')
            if lz4 and zstd:
                raise StrobeError('corrupt', pos, 'both LZ4 and ZSTD')
            if n - pos < size:
                raise StrobeError('truncated', pos, 'inside the packet at offset %d' % pos)
            body = data[pos + 12:pos + size]
            off = pos
            pos += size
            if zstd:
                # decoded even on a reserved thread id: the stream goes on from it
                try:
                    payload = self.zstd.feed(body, raw_size)
                except ZstdError as e:
                    raise StrobeError('corrupt', off, 'ZSTD payload does not decode: %s' % e)
                except ZstdUnsupported as e:
                    raise StrobeError('unsupported', off, str(e))
            if 3 <= tid <= 15:
                continue
            if zstd:
                pass
            elif lz4:
                try:
                    payload = lz4_block_decode(body, raw_size)
                except LZ4Error as e:
                    raise StrobeError('corrupt', off, 'LZ4 payload does not decode: %s' % e)
                if len(payload) != raw_size:
                    raise StrobeError('corrupt', off, 'LZ4 payload does not decode to raw_size')
            else:
                payload = body
            if tid == 1:
                self.importants_packet(payload, off)
            elif tid == 2:
                if self.control_packet(payload, off):
                    return 'end'
            else:
                self.thread_packet(tid, payload, off)


def main():
    args = [a for a in sys.argv[1:] if a != '--status']
    with open(args[0], 'rb') as f:
        data = f.read()
    out = []
    r = Reader(out)
    rc = 0
    try:
        status = r.read(data)
        r.merge_step(end=True)
        status_line = '# ' + status
    except StrobeError as e:
        r.merge_step(end=True)
        status_line = '# error %s %d' % (e.cls, e.offset)
        sys.stderr.write('strobe_reader: %s at offset %d: %s\n' % (e.cls, e.offset, e.msg))
        rc = 1
    out.append(status_line)
    sys.stdout.buffer.write(''.join(l + '\n' for l in out).encode('utf-8'))
    return rc


if __name__ == '__main__':
    sys.exit(main())
