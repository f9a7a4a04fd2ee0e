#!/usr/bin/env python3
"""gen-vectors.py — writes the Strobe conformance vectors (see README.md beside this file).

    gen-vectors.py --out DIR      write every vector into DIR
    gen-vectors.py --check DIR    exit 1 unless DIR holds exactly what --out would write

Each vector is a crafted stream, the exact output a conforming reader prints for it (the
`dump` lines and the status line of PROTOCOL.md §10) and one line naming the rule it
checks. Expected outputs are written out literally from the rules of PROTOCOL.md, not
computed by a reader: that is what makes them a check. A new rule gets a new vector here.
"""

import argparse
import os
import struct
import sys

sys.dont_write_bytecode = True   # nothing is written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from strobewire import *  # noqa: E402,F401,F403

VECTORS = []


def vector(name, section, rule, stream, lines, status='end', message=None):
    """@status: 'end', 'no-end', or (class, offset); @message: a piece of what
    strobe-cli says on stderr (informative for other readers)."""
    if isinstance(status, tuple):
        status_line = '# error %s %d' % status
    else:
        status_line = '# ' + status
    assert '\t' not in rule and '\n' not in rule
    VECTORS.append((name, section, rule, stream.bytes() if isinstance(stream, Stream) else stream,
                    ''.join(line + '\n' for line in lines) + status_line + '\n', message or ''))


# ---- a prelude most vectors share ---------------------------------------------------------

THREAD_INFO, THREAD_END, SYNC_EV, FREE_EV, NOTE_EV, STR_EV = 16, 17, 20, 21, 22, 23


def prelude_records():
    return (new_event(THREAD_INFO, '$Trace', 'ThreadInfo', [Field('ThreadId', UINT16)], flags=IMPORTANT)
            + new_event(THREAD_END, '$Trace', 'ThreadEnd', [Field('ThreadId', UINT16)], flags=IMPORTANT)
            + new_event(SYNC_EV, 'T', 'Sync', [Field('N', UINT32)])
            + new_event(FREE_EV, 'T', 'Free', [Field('N', UINT32)], flags=NOSYNC)
            + new_event(NOTE_EV, 'T', 'Note', [Field('Text', ANSI)], flags=IMPORTANT | HAS_AUX)
            + new_event(STR_EV, 'T', 'Str', [Field('A', ANSI), Field('W', WIDE)], flags=NOSYNC | HAS_AUX))


def base(announce=(), sync_at=None, more_importants=b''):
    """Handshake, the prelude's schemas (+ ThreadInfo for @announce), then Sync(@sync_at)."""
    s = Stream()
    s.add(packet(TID_IMPORTANTS, prelude_records() + b''.join(info(t) for t in announce)
                 + more_importants))
    if sync_at is not None:
        s.add(sync(sync_at))
    return s


def info(tid):
    return important(THREAD_INFO, u16(tid))


def thread_end(tid):
    return important(THREAD_END, u16(tid))


def note(text):
    return important(NOTE_EV, aux(0, text.encode()) + AUX_END)


def S(n, serial=None):
    """A T.Sync event whose N is its serial (unless @serial says otherwise)."""
    return event(SYNC_EV, u32(n), serial=n if serial is None else serial)


def F(n):
    return event(FREE_EV, u32(n))


def thread(tid, *records, **kw):
    return packet(tid, b''.join(records), **kw)


def L_info(tid):
    return '1 - $Trace.ThreadInfo ThreadId=%d' % tid


def L_end(tid):
    return '1 - $Trace.ThreadEnd ThreadId=%d' % tid


def L_S(tid, n):
    return '%d %d T.Sync N=%d' % (tid, n, n)


def L_F(tid, n):
    return '%d - T.Free N=%d' % (tid, n)


def L_note(text):
    return '1 - T.Note Text="%s"' % text


def infos(*tids):
    return [L_info(t) for t in tids]


def strs(a=None, w=None):
    """A T.Str event with ANSI bytes @a and UTF-16 code units @w (list of ints)."""
    auxes = []
    if a is not None:
        auxes.append(aux(0, a))
    if w is not None:
        auxes.append(aux(1, b''.join(u16(c) for c in w)))
    return event(STR_EV, b'', auxes=auxes)


def utf16(text):
    raw = text.encode('utf-16-le')
    return [struct.unpack_from('<H', raw, i)[0] for i in range(0, len(raw), 2)]


# ==== §1 Handshake =========================================================================

def handshake_vectors():
    s = Stream()
    s.add(end())
    vector('hs-empty-metadata', '§1', 'metadata may be empty (metadata_size 0)', s, [])

    vector('hs-empty-file', '§1', 'an empty input is cut off inside the handshake',
           b'', [], ('truncated', 0), 'the stream is empty')
    vector('hs-short', '§1', 'a handshake shorter than 8 bytes whose magic so far matches is truncated',
           b'STR', [], ('truncated', 0), 'inside the handshake')
    vector('hs-bad-magic', '§1', 'a stream not starting with STRB is not a Strobe trace',
           b'GET / HTTP/1.1\r\n', [], ('not-strobe', 0), 'not a Strobe trace')
    vector('hs-bad-magic-short', '§1', 'the magic is judged on the bytes present: 2 wrong bytes are enough',
           b'PK', [], ('not-strobe', 0), 'not a Strobe trace')
    vector('hs-magic-before-version', '§1', 'the magic is checked before the versions',
           b'XTRB\x09\x09\x00\x00', [], ('not-strobe', 0))
    vector('hs-transport-newer', '§1', 'a transport version above 1 is refused at offset 4',
           handshake(transport=2) + end(), [], ('version', 4), 'transport version 2 at offset 4')
    vector('hs-protocol-newer', '§1', 'a protocol version above 1 is refused at offset 5',
           handshake(protocol=3) + end(), [], ('version', 5), 'protocol version 3 at offset 5')
    vector('hs-version-zero', '§1', 'version 0 is refused like an unknown version',
           handshake(transport=0) + end(), [], ('version', 4), 'version 0')
    vector('hs-transport-before-protocol', '§1', 'the transport version is checked before the protocol version',
           handshake(transport=7, protocol=7), [], ('version', 4))
    vector('hs-version-before-truncation', '§1', 'a version present in a cut-off handshake is still checked first',
           b'STRB\x02', [], ('version', 4))
    vector('hs-cut-after-versions', '§1', 'an input of 6 bytes (magic and versions right, metadata_size missing) is truncated at 0',
           b'STRB\x01\x01', [], ('truncated', 0), 'inside the handshake')
    vector('hs-cut-in-metadata-size', '§1', 'an input of 7 bytes (half a metadata_size) is truncated at 0',
           b'STRB\x01\x01\x04', [], ('truncated', 0), 'inside the handshake')
    vector('hs-metadata-cut', '§1', 'metadata shorter than metadata_size is a truncated handshake',
           handshake(size=20) + b'\x01\x00\x02\x00\x34', [], ('truncated', 0), 'inside the handshake')

    md = (meta(1, u16(1985)) + meta(2, bytes(range(16))) + meta(3, bytes(range(16, 32)))
          + meta(4, b'game') + meta(5, u32(4242)) + meta(6, u64(1700000000000000000))
          + meta(7, u64(1000000000)) + meta(8, u64(0)) + meta(9, u8(8)) + meta(10, b'game\0-x')
          + meta(11, u8(0)) + meta(12, u32(0)) + meta(13, b'checkout')
          + meta(14, bytes(range(32, 48))) + meta(15, u32(4241)))
    s = Stream(handshake(md))
    s.add(packet(1, prelude_records()))
    s.add(thread(17, F(1)))
    s.add(end())
    vector('md-all-entries', '§1', 'every metadata entry of this version, in id order', s, [L_F(17, 1)])

    md = meta(77, b'future') + meta(4, b'x') + meta(1, b'\x01\x02\x03') + meta(9, b'')
    s = Stream(handshake(md))
    s.add(packet(1, prelude_records()))
    s.add(thread(17, F(1)))
    s.add(end())
    vector('md-unknown-and-wrong-size', '§1',
           'unknown metadata ids are skipped; a known id with the wrong size is ignored, not an error',
           s, [L_F(17, 1)])

    vector('md-repeat-wrong-size', '§1',
           'an entry of the wrong size is ignored before repeats count: 4-byte features with bit 0, then a 2-byte one',
           handshake(meta(12, u32(0x0001)) + meta(12, u16(0))) + end(), [], ('unsupported', 8),
           'unknown required features 0x00000001')
    s = Stream(handshake(meta(12, u32(0x0001)) + meta(12, u32(0))))
    s.add(packet(1, prelude_records()))
    s.add(thread(17, F(1)))
    s.add(end())
    vector('md-repeat-last', '§1', 'of entries of the right size, the last of an id counts: features 1, then 0',
           s, [L_F(17, 1)])

    vector('md-entry-overruns', '§1', 'a metadata entry whose size runs past the metadata is corrupt (offset 8)',
           handshake(meta(4, b'abc')[:-1]) + end(), [], ('corrupt', 8), 'corrupt metadata at offset 8')
    vector('md-partial-entry', '§1', 'trailing bytes too short for an entry header are corrupt metadata',
           handshake(meta(4, b'abc') + b'\x01\x00\x02') + end(), [], ('corrupt', 8), 'corrupt metadata')
    vector('md-features-required', '§1', 'an unknown required feature bit (0..15) stops the reader at the metadata',
           handshake(meta(12, u32(0x0001))) + end(), [], ('unsupported', 8), 'unknown required features 0x00000001')
    s = Stream(handshake(meta(12, u32(0x00010000))))
    s.add(packet(1, prelude_records()))
    s.add(thread(17, F(1)))
    s.add(end())
    vector('md-features-optional', '§1', 'unknown optional feature bits (16..31) are ignored', s, [L_F(17, 1)])

    # Two processes of one session, each its own stream: the metadata that groups and
    # aligns them changes nothing in how either is read (§1, "Traces on one clock").
    flow = new_event(30, 'Misc', 'Flow', [Field('Cycle', UINT64), Field('Id', UINT64), Field('Phase', UINT8)])
    for name, pid, ppid, phase, cycle in (('md-session-client', 500, 1, 0, 1000), ('md-session-server', 501, 500, 2, 1250)):
        md = (meta(4, name.encode()) + meta(5, u32(pid)) + meta(7, u64(1000000000)) + meta(8, u64(0))
              + meta(11, u8(1)) + meta(13, b'checkout-test') + meta(14, bytes(range(16)))
              + meta(15, u32(ppid)))
        s = Stream(handshake(md))
        s.add(packet(1, prelude_records() + flow))
        s.add(sync(7))
        s.add(thread(17, event(30, u64(cycle) + u64(0xfeedface00000001) + u8(phase), serial=7)))
        s.add(end())
        vector(name, '§1',
               'session_name, clock_domain and parent_process_id are read like any entry; a flow point (Misc.Flow) is an ordinary synchronised event',
               s, ['17 7 Misc.Flow Cycle=%d Id=%d Phase=%d' % (cycle, 0xfeedface00000001, phase)])

    s = Stream()
    vector('hs-only', '§6', 'a stream that ends after its handshake is complete but has no End', s, [], 'no-end')


# ==== §2 Packets ===========================================================================

def packet_vectors():
    def simple():
        s = base()
        s.add(thread(17, F(1)))
        return s

    s = simple()
    off = s.add(packet(17, F(2), size=11, raw_size=0, body=b''))
    vector('pk-size-small', '§2', 'a packet size below 12 is corrupt', s, [L_F(17, 1)],
           ('corrupt', off), 'packet size 11 is out of range')

    s = simple()
    off = s.add(u32(16 * 1024 * 1024 + 13) + u16(17) + u16(0) + u32(16 * 1024 * 1024 + 1))
    vector('pk-size-large', '§2', 'a packet size above 16 MiB + 12 is corrupt, judged from the header alone',
           s, [L_F(17, 1)], ('corrupt', off), 'out of range')

    s = simple()
    off = s.add(thread(17, F(2), flags=0x0002))
    vector('pk-required-flag', '§2', 'an unknown required packet flag (bits 1..7) stops the reader',
           s, [L_F(17, 1)], ('unsupported', off), 'unknown required flags 0x0002')

    s = simple()
    s.add(thread(17, F(2), flags=0x8100))
    s.add(end())
    vector('pk-optional-flag', '§2', 'unknown optional packet flags (bits 8..15) are ignored',
           s, [L_F(17, 1), L_F(17, 2)])

    s = simple()
    off = s.add(thread(0, F(2)))
    vector('pk-thread-zero', '§2', 'thread id 0 is corrupt', s, [L_F(17, 1)],
           ('corrupt', off), 'thread id 0')

    s = simple()
    off = s.add(thread(17, F(2), raw_size=5))
    vector('pk-raw-size-mismatch', '§2', 'a raw packet whose raw_size is not size - 12 is corrupt',
           s, [L_F(17, 1)], ('corrupt', off), 'claims a decoded size')

    s = simple()
    off = s.add(thread(17, F(2), lz4=True, raw_size=16 * 1024 * 1024 + 1))
    vector('pk-raw-size-limit', '§2', 'raw_size above 16 MiB is corrupt even for LZ4',
           s, [L_F(17, 1)], ('corrupt', off), 'over the limit')

    s = simple()
    off = s.add(packet(17, F(2), size=11, flags=0x0004, raw_size=0, body=b''))
    vector('pk-order-size-first', '§2', 'header checks go in order: size before flags',
           s, [L_F(17, 1)], ('corrupt', off), 'out of range')
    s = simple()
    off = s.add(thread(0, F(2), flags=0x0004))
    vector('pk-order-flags-before-thread', '§2', 'header checks go in order: required flags before thread id 0',
           s, [L_F(17, 1)], ('unsupported', off))
    s = simple()
    off = s.add(thread(0, F(2), raw_size=99))
    vector('pk-order-thread-before-raw-size', '§2', 'header checks go in order: thread id before raw_size',
           s, [L_F(17, 1)], ('corrupt', off), 'thread id 0')
    s = simple()
    off = s.add(packet(2, b'\x02', flags=FLAG_LZ4, raw_size=2, body=b'\x10\x02'))
    vector('pk-control-lz4', '§2', 'a control packet flagged LZ4 is corrupt, even if it would decode to End',
           s, [L_F(17, 1)], ('corrupt', off), 'never LZ4')

    s = base()
    s.add(thread(17, *[F(i) for i in range(40)], lz4=True))
    s.add(thread(17, F(40), lz4=True))
    s.add(end())
    vector('pk-lz4', '§2', 'an LZ4 payload (one block, with matches) decodes to raw_size bytes of events',
           s, [L_F(17, i) for i in range(41)])

    s = simple()
    off = s.add(packet(17, F(2), flags=FLAG_LZ4, raw_size=6, body=b'\xff\xff\xff\xff\xff\xff'))
    vector('pk-lz4-garbage', '§2', 'an LZ4 payload that does not decode is corrupt',
           s, [L_F(17, 1)], ('corrupt', off), 'LZ4 payload does not decode')
    s = simple()
    off = s.add(packet(17, F(2), flags=FLAG_LZ4, raw_size=7, body=lz4_literals_only(F(2))))
    vector('pk-lz4-short', '§2', 'an LZ4 payload that decodes to fewer than raw_size bytes is corrupt',
           s, [L_F(17, 1)], ('corrupt', off), 'LZ4')
    s = simple()
    off = s.add(packet(17, F(2), flags=FLAG_LZ4, raw_size=5, body=lz4_literals_only(F(2))))
    vector('pk-lz4-long', '§2', 'an LZ4 payload that would decode to more than raw_size bytes is corrupt',
           s, [L_F(17, 1)], ('corrupt', off), 'LZ4')

    # The rule of "LZ4 payloads", one condition at a time, on blocks written out by hand.
    def lz4_case(name, rule, payload_size, block, lines=None, message='LZ4 payload does not decode'):
        s = simple()
        off = s.add(packet(17, b'', flags=FLAG_LZ4, raw_size=payload_size, body=block))
        if lines is None:
            vector(name, '§2', rule, s, [L_F(17, 1)], ('corrupt', off), message)
        else:
            s.add(end())
            vector(name, '§2', rule, s, [L_F(17, 1)] + lines)

    # 100 events in 600 bytes: offset = everything decoded so far, a literal count and a
    # match length with a 255 byte, overlapping matches, a match starting exactly 12
    # bytes before the end and one ending exactly 5 bytes before it.
    lits = b''.join(F(n) for n in range(100, 146))
    lz4_case('pk-lz4-limits', 'a block may reach every limit of the LZ4 rule: offset back to byte 0, long lengths, a match 12 bytes from the end ending 5 before it',
             600, lz4_block((F(7), 6, 282), (lits, 6, 24), (b'', 6, 7), (F(145)[1:],)),
             [L_F(17, 7)] * 48 + [L_F(17, n) for n in range(100, 146)] + [L_F(17, 145)] * 6)
    lz4_case('pk-lz4-offset-zero', 'a match offset of 0 is corrupt (even where a match of zeros would make valid events)',
             18, lz4_block((F(0)[:2], 0, 4), (F(1) + F(2),)))
    lz4_case('pk-lz4-offset-before-start', 'a match offset reaching before the first decoded byte is corrupt',
             18, lz4_block((F(0)[:2], 3, 4), (F(1) + F(2),)))
    lz4_case('pk-lz4-match-in-last-5', 'a match that ends in the last 5 bytes of the output is corrupt (here 4 before the end)',
             36, lz4_block((F(3) * 2 + F(3)[:2], 12, 18), (F(3)[2:],)))
    lz4_case('pk-lz4-match-in-last-12', 'a match that starts in the last 12 bytes of the output is corrupt (here 11 before the end)',
             24, lz4_block((F(4) * 2 + F(4)[:1], 6, 6), (F(4)[1:],)))
    lz4_case('pk-lz4-last-token-bits', 'the token of the last sequence must have its low 4 bits 0',
             6, b'\x61' + F(2))
    lz4_case('pk-lz4-trailing-byte', 'a block ends right after its last literals: one byte more is a cut-off offset',
             6, lz4_literals_only(F(2)) + b'\x00')
    lz4_case('pk-lz4-empty-block', 'an LZ4 payload of 0 bytes is not a block, even for raw_size 0 (that block is the byte 00)',
             0, b'')

    # ZSTD payloads: one zstd stream over the ZSTD packets, built here from raw blocks.
    imp = prelude_records()
    ev = F(1) + F(2)
    s = Stream()
    s.add(zstd_packet(TID_IMPORTANTS, zstd_frame_header() + zstd_raw_block(imp), len(imp)))
    s.add(zstd_packet(17, zstd_raw_block(ev), len(ev)))
    s.add(thread(17, F(3)))
    s.add(zstd_packet(17, zstd_raw_block(F(4), last=True), 6))
    s.add(zstd_packet(17, zstd_frame_header() + zstd_raw_block(F(5), last=True), 6))
    s.add(end())
    vector('pk-zstd', '§2', 'ZSTD packets are one zstd stream: a frame begun in one packet goes on in the next, raw packets between them take no part, a second frame may follow',
           s, [L_F(17, n) for n in range(1, 6)])

    s = base()
    s.add(zstd_packet(15, zstd_frame_header() + zstd_raw_block(b'skipped'), 7))
    s.add(zstd_packet(17, zstd_raw_block(F(1), last=True), 6))
    s.add(end())
    vector('pk-zstd-reserved', '§2', 'a ZSTD packet on a reserved thread id is decoded, then skipped: the next ZSTD packet goes on from it',
           s, [L_F(17, 1)])

    def zstd_case(name, rule, zstd_bytes, raw_size, message, tid=17, flags=FLAG_ZSTD):
        s = simple()
        off = s.add(zstd_packet(tid, zstd_bytes, raw_size, flags=flags))
        vector(name, '§2', rule, s, [L_F(17, 1)], ('corrupt', off), message)

    zstd_case('pk-zstd-short', 'a ZSTD payload that decodes to fewer than raw_size bytes is corrupt',
              zstd_frame_header() + zstd_raw_block(F(2)), 7, 'ZSTD payload does not decode')
    zstd_case('pk-zstd-long', 'a ZSTD payload that decodes to more than raw_size bytes is corrupt',
              zstd_frame_header() + zstd_raw_block(F(2) + F(3)), 6, 'ZSTD payload does not decode')
    zstd_case('pk-zstd-garbage', 'a ZSTD payload that is not zstd data is corrupt',
              b'\xff' * 12, 6, 'ZSTD payload does not decode')
    zstd_case('pk-zstd-window', 'a zstd frame whose window is over 8 MiB is corrupt',
              zstd_frame_header(window_exponent=14) + zstd_raw_block(F(2)), 6, 'ZSTD payload does not decode')
    zstd_case('pk-zstd-control', 'a control packet flagged ZSTD is corrupt',
              zstd_frame_header() + zstd_raw_block(b'\x02'), 1, 'never zstd', tid=TID_CONTROL)
    zstd_case('pk-zstd-two-codecs', 'a packet flagged both LZ4 and ZSTD is corrupt',
              zstd_frame_header() + zstd_raw_block(F(2)), 6, 'both LZ4 and ZSTD', flags=FLAG_ZSTD | FLAG_LZ4)

    s = simple()
    s.add(packet(3, b'anything at all'))
    s.add(packet(15, b'zz', flags=FLAG_LZ4, raw_size=1000))
    s.add(thread(17, F(2)))
    s.add(end())
    vector('pk-reserved-threads', '§2', 'packets on thread ids 3..15 are skipped without decoding their payload',
           s, [L_F(17, 1), L_F(17, 2)])

    s = simple()
    s.add(thread(17))
    s.add(thread(18, lz4=True))
    s.add(packet(1, b''))
    s.add(thread(17, F(2)))
    s.add(end())
    vector('pk-empty-payloads', '§2', 'empty thread and importants payloads are allowed (raw or LZ4)',
           s, [L_F(17, 1), L_F(17, 2)])

    s = simple()
    off = s.add(thread(17, F(2))[:5])
    vector('pk-cut-in-header', '§2', 'input ending inside a packet header is truncated at the packet',
           s, [L_F(17, 1)], ('truncated', off), 'inside the packet at offset %d' % off)
    s = simple()
    off = s.add(thread(17, F(2), F(3))[:-1])
    vector('pk-cut-in-payload', '§2', 'input ending inside a payload is truncated at the packet',
           s, [L_F(17, 1)], ('truncated', off), 'inside the packet at offset %d' % off)
    s = simple()
    off = s.add(thread(0, F(2), F(3))[:14])
    vector('pk-header-before-body', '§2', 'a complete bad header is reported even when its payload is missing',
           s, [L_F(17, 1)], ('corrupt', off), 'thread id 0')


# ==== §3 Records on thread streams =========================================================

def record_vectors():
    def simple():
        s = base()
        s.add(thread(17, F(1)))
        return s

    for uid, what in ((0, 'uid 0 is invalid'), (1, 'NewEvent'), (2, 'AuxData'), (3, 'AuxEnd')):
        s = simple()
        off = s.add(thread(17, F(2), u16(uid) + b'\x00' * 8))
        vector('rec-uid-%d' % uid, '§3', 'record uid %d on a thread stream is corrupt' % uid,
               s, [L_F(17, 1), L_F(17, 2)], ('corrupt', off), what)

    s = simple()
    s.add(thread(17, sized(4, b'four'), F(2), sized(7, b''), sized(8, b'\x00' * 9), F(3), sized(15, b'x')))
    s.add(end())
    vector('rec-sized', '§3', 'records with uids 4..15 carry a u32 size and are skipped',
           s, [L_F(17, 1), L_F(17, 2), L_F(17, 3)])
    s = simple()
    off = s.add(thread(17, F(2), u16(9) + u32(10) + b'abc'))
    vector('rec-sized-overrun', '§3', 'a sized record running past its packet is corrupt',
           s, [L_F(17, 1), L_F(17, 2)], ('corrupt', off), 'runs past the packet')
    s = simple()
    off = s.add(thread(17, F(2), u16(9) + b'\x01\x00'))
    vector('rec-sized-partial', '§3', 'a sized record whose size field is cut by the packet end is corrupt',
           s, [L_F(17, 1), L_F(17, 2)], ('corrupt', off), 'runs past the packet')
    s = simple()
    off = s.add(thread(17, F(2), event(99, b'\x00\x00\x00\x00')))
    vector('rec-no-schema', '§3', 'an event uid without a schema is corrupt on a thread stream',
           s, [L_F(17, 1), L_F(17, 2)], ('corrupt', off), 'event uid 99')
    s = Stream()
    off = s.add(thread(17, F(1)))
    s.add(packet(1, prelude_records()))
    vector('rec-schema-later', '§3', 'a schema must come before the packet that uses it, in stream order',
           s, [], ('corrupt', off), 'has no schema')
    s = simple()
    off = s.add(thread(17, F(2), event(NOTE_EV, b'', auxes=[])))
    vector('rec-important-on-thread', '§3', 'an event of an Important type on a thread stream is corrupt',
           s, [L_F(17, 1), L_F(17, 2)], ('corrupt', off), 'outside the importants stream')
    s = base(more_importants=new_event(30, 'T', 'ReqImp', [Field('N', UINT32)], flags=IMPORTANT | 0x10))
    s.add(thread(17, F(1)))
    off = s.add(thread(17, F(2), u16(30) + b'\x01'))
    vector('rec-required-flag-first', '§3',
           'an unknown required flag is checked first: an event of an Important type with one, cut by its packet end, is unsupported',
           s, [L_F(17, 1), L_F(17, 2)], ('unsupported', off), 'unknown required flags 0x10')
    s = simple()
    off = s.add(thread(17, F(2), b'\x15'))
    vector('rec-partial-uid', '§3', 'one byte left in a packet is a partial record: corrupt',
           s, [L_F(17, 1), L_F(17, 2)], ('corrupt', off), 'partial record')
    s = simple()
    off = s.add(thread(17, F(2), F(3)[:-1]))
    vector('rec-event-split', '§3', 'an event never continues in the next packet: one cut by its packet end is corrupt',
           s, [L_F(17, 1), L_F(17, 2)], ('corrupt', off), 'runs past the packet')
    s = simple()
    off = s.add(thread(17, F(2), S(0)[:-2]))
    vector('rec-serial-cut', '§3', 'a synchronised event carries a 3-byte serial before its payload',
           s, [L_F(17, 1), L_F(17, 2)], ('corrupt', off), 'runs past the packet')

    # Aux data
    s = base()
    s.add(thread(17, strs(), strs(a=b'x'), strs(w=utf16('y')), strs(a=b'', w=[])))
    s.add(end())
    vector('aux-unset', '§3', 'an aux field without AuxData is empty; AuxEnd alone ends the event',
           s, ['17 - T.Str A="" W=""', '17 - T.Str A="x" W=""', '17 - T.Str A="" W="y"',
               '17 - T.Str A="" W=""'])
    s = base()
    s.add(thread(17, event(STR_EV, b'', auxes=[aux(1, u16(ord('b'))), aux(0, b'ab'), aux(1, u16(ord('c'))),
                                                aux(0, b''), aux(0, b'c')])))
    s.add(end())
    vector('aux-joined', '§3', 'AuxData records may come in any field order; those of one field are joined in order',
           s, ['17 - T.Str A="abc" W="bc"'])
    s = base()
    s.add(thread(17, event(STR_EV, b'', auxes=[aux(0, b'ok', reserved=0x7f)])))
    s.add(end())
    vector('aux-reserved', '§3', 'the reserved byte of an AuxData header is ignored', s, ['17 - T.Str A="ok" W=""'])

    def bad_aux(name, rule, tail, message):
        s = base()
        s.add(thread(17, F(1)))
        off = s.add(thread(17, F(2), event(STR_EV, b'') + tail))
        vector(name, '§3', rule, s, [L_F(17, 1), L_F(17, 2)], ('corrupt', off), message)

    bad_aux('aux-no-end', 'an event with aux fields must end with AuxEnd before its packet ends',
            aux(0, b'abc'), 'no AuxEnd')
    bad_aux('aux-other-record', 'only AuxData or AuxEnd may follow an aux event\'s payload',
            F(3), 'lacks its AuxEnd')
    bad_aux('aux-header-cut', 'an AuxData header cut by the packet end is corrupt',
            u16(2) + b'\x00\x00\x01', 'header runs past')
    bad_aux('aux-size-overrun', 'an AuxData size past the packet end is corrupt',
            u16(2) + b'\x00\x00' + u32(100) + b'abc', 'size runs past')
    bad_aux('aux-index-range', 'an AuxData field index past the schema\'s fields is corrupt',
            aux(2, b'a') + AUX_END, 'not an aux field')
    bad_aux('aux-wide-odd', 'wide string aux data of an odd size is corrupt',
            aux(1, b'abc') + AUX_END, 'odd size')

    s = base(more_importants=new_event(30, 'T', 'Mix', [Field('N', UINT32), Field('A', ARRAY | INT16)],
                                       flags=NOSYNC | HAS_AUX))
    s.add(thread(17, F(1)))
    off = s.add(thread(17, event(30, u32(5), auxes=[aux(0, b'ab')])))
    vector('aux-index-scalar', '§3', 'AuxData for a scalar field is corrupt', s, [L_F(17, 1)],
           ('corrupt', off), 'not an aux field')
    s = base(more_importants=new_event(30, 'T', 'Mix', [Field('N', UINT32), Field('A', ARRAY | INT16)],
                                       flags=NOSYNC | HAS_AUX))
    s.add(thread(17, F(1)))
    off = s.add(thread(17, event(30, u32(5), auxes=[aux(1, b'abc')])))
    vector('aux-array-partial', '§3', 'each AuxData of an array holds whole elements',
           s, [L_F(17, 1)], ('corrupt', off), 'whole number of elements')


# ==== §4 The importants stream and schemas ==================================================

def importants_vectors():
    s = base()
    s.add(packet(1, important(200, b'\x01\x02\x03') + important(2, b'') + important(3, b'x')
                 + important(4, b'yy') + important(15, b'') + note('after')))
    s.add(end())
    vector('imp-skipped', '§4', 'important records of uids 2..15 or without a schema are skipped by their size',
           s, [L_note('after')])
    s = base()
    off = s.add(packet(1, note('a') + important(0, b'') + note('b')))
    vector('imp-uid-0', '§4', 'record uid 0 on the importants stream is corrupt; records before it count',
           s, [L_note('a')], ('corrupt', off), 'record uid 0')
    s = base()
    off = s.add(packet(1, note('a') + b'\x16\x00\x01'))
    vector('imp-partial-header', '§4', 'fewer than 6 bytes left is a partial important record',
           s, [L_note('a')], ('corrupt', off), 'partial important record')
    s = base()
    off = s.add(packet(1, note('a') + u16(NOTE_EV) + u32(50) + b'\x02\x00'))
    vector('imp-size-overrun', '§4', 'an important record whose size runs past its packet is corrupt',
           s, [L_note('a')], ('corrupt', off), 'past the packet')
    s = base(more_importants=new_event(30, 'T', 'Imp', [Field('N', UINT32)], flags=IMPORTANT))
    off = s.add(packet(1, important(30, u32(1)) + important(30, b'\x02\x00')))
    vector('imp-short-payload', '§4', 'an important event smaller than its payload is corrupt',
           s, ['1 - T.Imp N=1'], ('corrupt', off), 'smaller than its payload')
    s = base(more_importants=new_event(30, 'T', 'Imp', [Field('N', UINT32)], flags=IMPORTANT))
    s.add(packet(1, important(30, u32(7) + b'future') + note('x') + important(NOTE_EV, aux(0, b'y') + AUX_END + b'zz')))
    s.add(end())
    vector('imp-extra-bytes', '§4', 'bytes after an important event\'s payload or AuxEnd are ignored',
           s, ['1 - T.Imp N=7', L_note('x'), L_note('y')])
    s = base()
    off = s.add(packet(1, note('a') + important(NOTE_EV, aux(0, b'y'))))
    vector('imp-aux-error', '§4', 'aux errors inside an important record are corrupt',
           s, [L_note('a')], ('corrupt', off), 'no AuxEnd')
    s = base(more_importants=new_event(30, 'T', 'Req', [Field('N', UINT32)], flags=IMPORTANT | 0x08))
    s.add(packet(1, important(30, b'\x01') + important(30, b'') + note('after')))
    s.add(end())
    vector('imp-required-flag-first', '§4',
           'an important event of a type with an unknown required flag is skipped before its body is checked: a short body is no error',
           s, [L_note('after')])
    s = base()
    s.add(packet(1, important(SYNC_EV, u32(5)) + important(FREE_EV, u32(6))))
    s.add(end())
    vector('imp-any-type', '§4', 'any type may be sent on the importants stream: thread 1, no serial',
           s, ['1 - T.Sync N=5', '1 - T.Free N=6'])
    s = Stream()
    s.add(packet(1, new_event(30, 'T', 'Imp', [Field('N', UINT8)], flags=IMPORTANT) + important(30, u8(9))))
    s.add(end())
    vector('imp-define-then-use', '§4', 'a schema counts from the next record of the same packet on',
           s, ['1 - T.Imp N=9'])

    # Schemas
    def schema_case(name, rule, body, ok_lines=None, message=None, events=b''):
        s = base()
        s.add(thread(17, F(1)))
        off = s.add(packet(1, note('a') + important(UID_NEW_EVENT, body) + events))
        if ok_lines is None:
            vector(name, '§4', rule, s, [L_F(17, 1), L_note('a')], ('corrupt', off), message)
        else:
            s.add(end())
            vector(name, '§4', rule, s, [L_F(17, 1), L_note('a')] + ok_lines)

    one = [Field('N', UINT8)]
    schema_case('sch-twice', 'a uid may be defined once per stream, even identically',
                schema_body(SYNC_EV, 'T', 'Sync', [Field('N', UINT32)]), message='defined twice')
    schema_case('sch-short', 'a schema body under 12 bytes is malformed', b'\x0c\x00\x1e\x00\x01',
                message='malformed schema')
    schema_case('sch-header-size-small', 'header_size below 12 is malformed',
                schema_body(30, 'T', 'X', one, header_size=10), message='malformed schema')
    schema_case('sch-header-size-past', 'header_size past the body is malformed',
                schema_body(30, 'T', 'X', one, header_size=200), message='malformed schema')
    schema_case('sch-uid-low', 'a schema for a uid below 16 is malformed',
                schema_body(15, 'T', 'X', one), message='below 16')
    schema_case('sch-entry-size-small', 'field_entry_size below 8 is malformed',
                schema_body(30, 'T', 'X', one, entry_size=7), message='malformed schema')
    schema_case('sch-entries-past', 'field entries running past the body are malformed',
                schema_body(30, 'T', 'X', one, counts=(9, 1, 1)), message='malformed schema')
    schema_case('sch-names-past', 'names running past the body are malformed',
                schema_body(30, 'T', 'X', one, counts=(1, 1, 9)), message='names run past')
    schema_case('sch-field-past-payload', 'a scalar field past payload_size is malformed',
                schema_body(30, 'T', 'X', [Field('N', UINT32)], payload_size=3), message='past the payload')
    schema_case('sch-scalar-size', 'a known scalar type of another size than its own is malformed',
                schema_body(30, 'T', 'X', [Field('N', UINT32, size=2)]), message='size is not its type')
    schema_case('sch-pointer-size', 'a pointer field is 4 or 8 bytes, no other size',
                schema_body(30, 'T', 'X', [Field('P', POINTER, size=2)]), message='size is not its type')
    schema_case('sch-array-size', 'an array of a known type must give that type\'s element size',
                schema_body(30, 'T', 'X', [Field('A', ARRAY | UINT16, size=0)]), message='element size')
    schema_case('sch-aux-no-flag', 'aux fields without the HAS_AUX flag are malformed',
                schema_body(30, 'T', 'X', [Field('A', ANSI)], flags=NOSYNC), message='HAS_AUX')
    schema_case('sch-flag-no-aux', 'the HAS_AUX flag without aux fields is malformed',
                schema_body(30, 'T', 'X', one, flags=HAS_AUX), message='HAS_AUX')
    schema_case('sch-name-nul', 'a name with a NUL byte is malformed',
                schema_body(30, 'T', 'X', [Field(b'a\x00b', UINT8)]), message='NUL')
    s = base()
    s.add(thread(17, F(1)))
    s.add(packet(1, note('a') + important(UID_NEW_EVENT, schema_body(
        30, 'T', 'X', [Field('N', UINT8), Field('M', INT16)], flags=NOSYNC, header_extra=b'\x99' * 4,
        entry_extra=b'\x77\x77', trailing=b'future', reserved=5, entry_reserved=0xbeef))))
    s.add(thread(17, event(30, u8(3) + u16(-2))))
    s.add(end())
    vector('sch-extensions', '§4', 'a longer header, longer field entries and trailing bytes are skipped; reserved bytes ignored',
           s, [L_F(17, 1), L_note('a'), '17 - T.X N=3 M=-2'])

    s = base(more_importants=new_event(30, 'T', 'Wide', [Field('P', POINTER, size=4), Field('Q', POINTER, size=8),
                                                          Field('N', UINT8, offset=20)],
                                       flags=NOSYNC, payload_size=24))
    s.add(thread(17, event(30, u32(0x1234) + u64(0xfedcba9876543210) + b'\xee' * 8 + u8(7) + b'\xee' * 3)))
    s.add(end())
    vector('sch-layout', '§4', 'pointers are 4 or 8 bytes; fields may leave payload bytes unused; offsets are the schema\'s',
           s, ['17 - T.Wide P=0x1234 Q=0xfedcba9876543210 N=7'])

    s = base(more_importants=new_event(30, 'T', 'Lap', [Field('W', UINT16), Field('Lo', UINT8, offset=0),
                                                         Field('Hi', UINT8, offset=1)], flags=NOSYNC))
    s.add(thread(17, event(30, u16(0x0201))))
    s.add(end())
    vector('sch-overlap', '§4', 'fields may overlap; each reads its own bytes', s, ['17 - T.Lap W=513 Lo=1 Hi=2'])

    s = base(more_importants=new_event(30, 'Lib', 'Ev', [Field('A', UINT8)], flags=NOSYNC)
             + new_event(31, 'Lib', 'Ev', [Field('B', UINT16)], flags=NOSYNC))
    s.add(thread(17, event(31, u16(2)), event(30, u8(1))))
    s.add(end())
    vector('sch-same-name', '§4', 'several uids may share a logger and event name', s,
           ['17 - Lib.Ev B=2', '17 - Lib.Ev A=1'])

    s = base(more_importants=new_event(30, '', '', [Field('', UINT8)], flags=NOSYNC))
    s.add(thread(17, event(30, u8(1))))
    s.add(end())
    vector('sch-empty-names', '§4', 'names may be empty', s, ['17 - . =1'])

    # Schema flags: required (0x08..0x20) and optional (0x40, 0x80) bits
    s = base(more_importants=new_event(30, 'T', 'Opt', [Field('N', UINT8)], flags=NOSYNC | 0xc0))
    s.add(thread(17, event(30, u8(4))))
    s.add(end())
    vector('sch-optional-flags', '§4', 'unknown optional schema flags (0x40, 0x80) are ignored', s, ['17 - T.Opt N=4'])
    s = base(more_importants=new_event(30, 'T', 'Req', [Field('N', UINT8)], flags=IMPORTANT | 0x08)
             + new_event(31, 'T', 'Req2', [Field('N', UINT8)], flags=NOSYNC | 0x20))
    s.add(packet(1, important(30, u8(1)) + note('kept')))
    s.add(thread(17, F(1)))
    off = s.add(thread(17, F(2), event(31, u8(1)), F(3)))
    vector('sch-required-flags', '§4',
           'a type with an unknown required flag (0x08..0x20): skipped on the importants stream, unsupported on a thread stream',
           s, [L_note('kept'), L_F(17, 1), L_F(17, 2)], ('unsupported', off), 'unknown required flags 0x20')


# ==== §5 System events and §8 delivery order =================================================

def order_vectors():
    s = base(announce=(17, 18), sync_at=0)
    s.add(thread(17, S(0), S(2), S(4)))
    s.add(thread(18, S(1), S(3), S(5)))
    s.add(end())
    vector('ord-merge', '§8', 'synchronised events of threads announced by ThreadInfo come out in serial order',
           s, infos(17, 18) + [L_S(17, 0), L_S(18, 1), L_S(17, 2), L_S(18, 3), L_S(17, 4), L_S(18, 5)])

    s = base(announce=(17, 18), sync_at=0xfffffe)
    s.add(thread(17, S(0xfffffe), S(0)))
    s.add(thread(18, S(0xffffff), S(1)))
    s.add(end())
    vector('ord-wrap', '§8', 'serials wrap at 2^24: 16777215 is followed by 0', s,
           infos(17, 18) + [L_S(17, 0xfffffe), L_S(18, 0xffffff), L_S(17, 0), L_S(18, 1)])

    s = base(announce=(17, 18), sync_at=0)
    s.add(thread(17, F(1), S(1), F(2)))
    s.add(packet(1, note('now')))
    s.add(thread(18, F(3), S(0), F(4)))
    s.add(end())
    vector('ord-nosync', '§8',
           'NoSync events go out when their thread reaches them: at once, or after the thread\'s waiting event; importants at once',
           s, infos(17, 18) + [L_F(17, 1), L_note('now'), L_F(18, 3), L_S(18, 0), L_F(18, 4), L_S(17, 1), L_F(17, 2)])

    s = base(announce=(17, 18), sync_at=0)
    s.add(thread(17, S(0), S(2), S(4)))
    s.add(thread(18, S(1), S(5)))
    s.add(end())
    vector('ord-gap', '§8', 'a serial nobody holds is skipped once every thread that counts is waiting',
           s, infos(17, 18) + [L_S(17, 0), L_S(18, 1), L_S(17, 2), L_S(17, 4), L_S(18, 5)])

    s = base(announce=(17, 18, 19), sync_at=0)
    s.add(thread(17, S(0), S(3)))
    s.add(thread(18, S(1), S(4)))
    s.add(thread(20, F(9)))
    s.add(end())
    vector('ord-silent-thread', '§8', 'an announced thread that never sends holds a gap until End (or the end of input)',
           s, infos(17, 18, 19) + [L_S(17, 0), L_S(18, 1), L_F(20, 9), L_S(17, 3), L_S(18, 4)])

    s = base(announce=(17, 18, 19), sync_at=0)
    s.add(thread(17, S(0), S(3)))
    s.add(thread(18, S(1), S(5)))
    vector('ord-end-of-input', '§8', 'at the end of the input every waiting event goes out in serial order, gaps skipped',
           s, infos(17, 18, 19) + [L_S(17, 0), L_S(18, 1), L_S(17, 3), L_S(18, 5)], 'no-end')

    s = base(announce=(17, 18), sync_at=0)
    s.add(thread(17, S(0), S(2)))
    s.add(packet(1, thread_end(18)))
    s.add(thread(19, F(5)))
    s.add(end())
    vector('ord-thread-end', '§8', 'after ThreadEnd a thread no longer counts; the merge step runs after the importants packet',
           s, infos(17, 18) + [L_S(17, 0), L_end(18), L_S(17, 2), L_F(19, 5)])

    s = base(announce=(17, 18), sync_at=0)
    s.add(thread(18, F(1)))
    s.add(thread(17, S(0), S(2)))
    s.add(end())
    vector('ord-nosync-thread', '§8', 'a thread that has sent only NoSync events does not count',
           s, infos(17, 18) + [L_F(18, 1), L_S(17, 0), L_S(17, 2)])

    s = base(sync_at=0)
    s.add(thread(17, S(1), S(2)))
    s.add(thread(18, S(0)))
    s.add(end())
    vector('ord-unannounced', '§8',
           'a thread nobody announced counts only from its first packet: its older serials come late, delivered at once',
           s, [L_S(17, 1), L_S(17, 2), L_S(18, 0)])

    s = base(announce=(17, 18, 19))
    s.add(thread(19, S(5000), S(5003)))
    s.add(thread(17, S(5001), S(5004)))
    s.add(thread(18, S(5002), S(5005)))
    vector('ord-no-sync', '§8', 'without Sync the first serial is the smallest waiting one once every counted thread waits',
           s, infos(17, 18, 19) + [L_S(19, 5000), L_S(17, 5001), L_S(18, 5002), L_S(19, 5003),
                                   L_S(17, 5004), L_S(18, 5005)], 'no-end')

    s = base(announce=(17, 18), sync_at=10)
    s.add(thread(17, S(8), S(10), S(12)))
    s.add(thread(18, S(9), S(11)))
    s.add(end())
    vector('ord-late-after-sync', '§8', 'serials before the expected one are late: delivered when their thread reaches them',
           s, infos(17, 18) + [L_S(17, 8), L_S(17, 10), L_S(18, 9), L_S(18, 11), L_S(17, 12)])

    s = base(announce=(17, 18))
    s.add(thread(17, S(3), S(6)))
    s.add(sync(5))
    s.add(thread(18, S(5)))
    s.add(end())
    vector('ord-sync-releases-late', '§8', 'a Sync that comes after a thread began waiting makes its earlier serial late',
           s, infos(17, 18) + [L_S(17, 3), L_S(18, 5), L_S(17, 6)])

    s = base(announce=(17, 18), sync_at=0)
    s.add(thread(18, S(1), S(2)))
    s.add(thread(17, S(1), S(3)))
    s.add(end())
    vector('ord-same-serial', '§8', 'when two threads may go, the lower thread id goes first (a duplicate serial then comes late)',
           s, infos(17, 18) + [L_S(17, 1), L_S(18, 1), L_S(18, 2), L_S(17, 3)])

    s = base(announce=(17, 18, 19))
    s.add(thread(18, S(3)))
    s.add(thread(17, S(5)))
    s.add(sync(5))
    s.add(end())
    vector('ord-due-by-thread-id', '§8', 'of several threads that may go, the lowest id goes first, whatever their serials',
           s, infos(17, 18, 19) + [L_S(17, 5), L_S(18, 3)])

    s = base(announce=(17, 18, 19))
    s.add(thread(17, S(0x800000)))
    s.add(thread(18, S(0)))
    s.add(end())
    vector('ord-half-window', '§8',
           'serials 2^23 apart are neither before nor after each other: the smallest is found scanning in thread-id order',
           s, infos(17, 18, 19) + [L_S(17, 0x800000), L_S(18, 0)])

    s = base(announce=(17, 18, 19), sync_at=0)
    s.add(thread(17, S(0), S(3), S(7)))
    s.add(thread(18, S(1), S(8)))
    s.add(sync(6))
    s.add(thread(20, F(9)))
    s.add(end())
    vector('ord-later-sync', '§6', 'a later Sync ahead of the expected serial skips every serial before it that nobody holds',
           s, infos(17, 18, 19) + [L_S(17, 0), L_S(18, 1), L_S(17, 3), L_F(20, 9), L_S(17, 7), L_S(18, 8)])

    s = base(announce=(17,), sync_at=0)
    s.add(thread(17, S(0), S(1)))
    s.add(sync(1))
    s.add(sync(2))
    s.add(thread(17, S(2)))
    s.add(end())
    vector('ord-later-sync-behind', '§6', 'a later Sync at or before the expected serial changes nothing',
           s, infos(17) + [L_S(17, 0), L_S(17, 1), L_S(17, 2)])

    s = base(announce=(17, 18), sync_at=0, more_importants=thread_end(18))
    s.add(thread(18, S(1)))
    s.add(thread(17, S(0)))
    s.add(end())
    vector('ord-after-thread-end', '§8', 'events a thread sends after its ThreadEnd are still merged in serial order',
           s, infos(17, 18) + [L_end(18), L_S(17, 0), L_S(18, 1)])

    # The 64 MiB bound. Thread 18 counts and stays silent, so thread 17 waits on serial 1
    # while its packets pile up: four of exactly 16 MiB, each mostly one sized record of
    # zeros (an LZ4 block of about 64 KiB). The first packet's F(0) goes out at once, so
    # that packet holds 16 MiB - 6; a 6-byte packet of one empty sized record then makes
    # exactly 64 MiB, not over it (Note "64 MiB" comes out before anything of thread 17);
    # the next record makes 64 MiB + 9 and the gap is skipped at once. Serial 0 comes
    # late. Without the bound: both Notes, then 0, 1, ..., 5.
    mib16 = 16 * 1024 * 1024

    def zeros_packet(*records):
        head = b''.join(records) + u16(4) + u32(mib16 - len(b''.join(records)) - 6)
        zeros = mib16 - len(head)
        return packet(17, b'', flags=FLAG_LZ4, raw_size=mib16,
                      body=lz4_block((head + b'\x00', 1, zeros - 6), (b'\x00' * 5,)))

    s = base(announce=(17, 18), sync_at=0)
    s.add(zeros_packet(F(0), S(1)))
    for k in (2, 3, 4):
        s.add(zeros_packet(S(k)))
    s.add(packet(1, note('64 MiB - 6')))
    s.add(thread(17, sized(4, b'')))
    s.add(packet(1, note('64 MiB')))
    s.add(thread(17, S(5)))
    s.add(thread(18, S(0)))
    s.add(end())
    vector('ord-memory-bound', '§8',
           'the merge skips a gap once the payload it holds, from each packet\'s first queued record on, exceeds 64 MiB (not at exactly 64 MiB)',
           s, infos(17, 18) + [L_F(17, 0), L_note('64 MiB - 6'), L_note('64 MiB')]
           + [L_S(17, n) for n in range(1, 6)] + [L_S(18, 0)])

    # §5: what makes a ThreadInfo count
    bad_info = new_event(40, '$Trace', 'ThreadInfo', [Field('ThreadId', FLOAT32)], flags=IMPORTANT)
    s = Stream()
    s.add(packet(1, bad_info + new_event(SYNC_EV, 'T', 'Sync', [Field('N', UINT32)])
                 + new_event(FREE_EV, 'T', 'Free', [Field('N', UINT32)], flags=NOSYNC)
                 + important(40, struct.pack('<f', 18.0))))
    s.add(sync(0))
    s.add(thread(17, S(0), S(2)))
    s.add(thread(20, F(1)))
    s.add(end())
    vector('sys-thread-id-type', '§5', 'a ThreadId that is not an integer field announces nothing',
           s, ['1 - $Trace.ThreadInfo ThreadId=18', L_S(17, 0), L_S(17, 2), L_F(20, 1)])
    s = base(announce=(5, 2, 1), sync_at=0)
    s.add(thread(17, S(0), S(2)))
    s.add(thread(20, F(1)))
    s.add(end())
    vector('sys-thread-id-range', '§5', 'a ThreadId below 16 announces nothing',
           s, infos(5, 2, 1) + [L_S(17, 0), L_S(17, 2), L_F(20, 1)])
    s = base(sync_at=0, more_importants=new_event(40, '$Trace', 'ThreadInfo', [Field('ThreadId', UINT16)], flags=NOSYNC))
    s.add(thread(19, event(40, u16(18))))
    s.add(thread(17, S(0), S(2)))
    s.add(thread(20, F(1)))
    s.add(end())
    vector('sys-thread-info-importants-only', '§5', 'a ThreadInfo counts only on the importants stream',
           s, ['19 - $Trace.ThreadInfo ThreadId=18', L_S(17, 0), L_S(17, 2), L_F(20, 1)])
    s = base(announce=(18,), sync_at=0)
    s.add(thread(17, S(0), S(2)))
    s.add(thread(20, F(1)))
    s.add(end())
    vector('sys-thread-info', '§5', 'a ThreadInfo on the importants stream makes the merge wait for its thread',
           s, infos(18) + [L_S(17, 0), L_F(20, 1), L_S(17, 2)])


# ==== §6 Control packets =====================================================================

def control_vectors():
    def simple():
        s = base()
        s.add(thread(17, F(1)))
        return s

    s = simple()
    off = s.add(packet(2, b''))
    vector('ctl-empty', '§6', 'an empty control packet is corrupt', s, [L_F(17, 1)], ('corrupt', off), 'empty control')
    s = simple()
    off = s.add(control(SYNC, b'\x01\x02\x03'))
    vector('ctl-short-sync', '§6', 'a Sync with fewer than 4 bytes after its kind is corrupt',
           s, [L_F(17, 1)], ('corrupt', off), 'short Sync')
    s = simple()
    s.add(control(77, b'whatever'))
    s.add(control(0))
    s.add(thread(17, F(2)))
    s.add(end())
    vector('ctl-unknown-kind', '§6', 'control packets of unknown kinds are skipped', s, [L_F(17, 1), L_F(17, 2)])
    s = base(announce=(17,))
    s.add(control(SYNC, u32(0xab000005) + b'more'))
    s.add(thread(17, S(5), S(6)))
    s.add(end())
    vector('ctl-sync-bits', '§6', 'Sync: the low 24 bits of its u32 count; bytes after it are ignored',
           s, infos(17) + [L_S(17, 5), L_S(17, 6)])
    s = simple()
    s.add(control(END, b'future'))
    vector('ctl-end-extra', '§6', 'an End packet with bytes after its kind is still End', s, [L_F(17, 1)])
    s = simple()
    s.add(end())
    s.add(b'\x00garbage after the end, not even a packet')
    vector('ctl-after-end', '§6', 'nothing after End is read: bytes there are not checked', s, [L_F(17, 1)])
    s = simple()
    s.add(end())
    s.add(thread(17, F(2)))
    s.add(thread(17, F(3))[:7])
    vector('ctl-after-end-packets', '§6', 'packets after End are ignored, and so is a cut-off one', s, [L_F(17, 1)])
    s = simple()
    vector('ctl-no-end', '§6', 'a stream without End was cut off: it ends with "# no-end"', s, [L_F(17, 1)], 'no-end')
    s = base(announce=(17, 18, 19), sync_at=0)
    s.add(thread(17, S(0), S(2)))
    s.add(end())
    s.add(thread(18, S(1)))
    vector('ctl-end-delivers', '§6', 'End delivers every waiting event as the end of input would',
           s, infos(17, 18, 19) + [L_S(17, 0), L_S(17, 2)])


# ==== §7 Errors: what is delivered ===========================================================

def error_vectors():
    s = base(announce=(17, 18), sync_at=0)
    s.add(thread(17, S(0), S(2)))
    off = s.add(thread(0, F(1)))
    s.add(thread(18, S(1)))
    vector('err-delivers-waiting', '§7', 'on an error, events held for ordering go out as at the end of input, then nothing',
           s, infos(17, 18) + [L_S(17, 0), L_S(17, 2)], ('corrupt', off), 'thread id 0')
    s = base(announce=(17, 18), sync_at=0)
    off = s.add(thread(17, F(1), S(1), F(2), event(99), F(3)))
    vector('err-bad-record', '§7', 'records of the bad packet before the bad record are delivered (waiting ones too), none after',
           s, infos(17, 18) + [L_F(17, 1), L_S(17, 1), L_F(17, 2)], ('corrupt', off), 'event uid 99')
    s = base(announce=(17, 18), sync_at=0)
    s.add(thread(17, S(1)))
    s.add(thread(18, F(7)))
    off = s.add(thread(17, F(2), event(99)))
    vector('err-bad-record-waiting-thread', '§7', 'a bad record in a packet of a waiting thread: the records before it still go out',
           s, infos(17, 18) + [L_F(18, 7), L_S(17, 1), L_F(17, 2)], ('corrupt', off), 'event uid 99')
    s = base(announce=(17, 18), sync_at=0)
    s.add(thread(17, S(0), S(2)))
    off = s.add(thread(17, S(3), F(9))[:-2])
    vector('err-truncated-delivers', '§7', 'a cut-off packet: everything before it goes out, held events included',
           s, infos(17, 18) + [L_S(17, 0), L_S(17, 2)], ('truncated', off), 'inside the packet')


# ==== §9 Text ===============================================================================

def text_vectors():
    s = base()
    s.add(thread(17, strs(a='héllo €'.encode(), w=utf16('日本 😀'))))
    s.add(end())
    vector('txt-utf8', '§9', 'valid UTF-8 ANSI values and UTF-16 wide values print as their characters',
           s, ['17 - T.Str A="héllo €" W="日本 😀"'])
    s = base()
    s.add(thread(17, strs(a=b'caf\xe9'), strs(a=b'\xc3\xa9\xff'), strs(a=b'\xc0\xaf'), strs(a=b'\xed\xa0\x80'),
                 strs(a=b'\xf4\x90\x80\x80'), strs(a=b'\xe2\x82')))
    s.add(end())
    vector('txt-latin1', '§9',
           'an ANSI value that is not valid UTF-8 as a whole (overlong, surrogate, > U+10FFFF, cut) is Latin-1, byte by byte',
           s, ['17 - T.Str A="café" W=""', '17 - T.Str A="Ã©ÿ" W=""', '17 - T.Str A="À¯" W=""',
               '17 - T.Str A="í\u00a0\\u0080" W=""', '17 - T.Str A="ô\\u0090\\u0080\\u0080" W=""',
               '17 - T.Str A="â\\u0082" W=""'])
    s = base()
    s.add(thread(17, strs(a=b'a\x00b', w=[0x61, 0, 0x62]), strs(a=b'\x00\xff')))
    s.add(end())
    vector('txt-nul', '§9', 'NUL does not end a value: it is U+0000, printed \\u0000',
           s, ['17 - T.Str A="a\\u0000b" W="a\\u0000b"', '17 - T.Str A="\\u0000ÿ" W=""'])
    s = base()
    s.add(thread(17, strs(w=[0xd800, 0x61]), strs(w=[0xdc00]), strs(w=[0x61, 0xd83d]), strs(w=[0xde00, 0xd83d]),
                 strs(w=[0xd83d, 0xd83d, 0xde00])))
    s.add(end())
    vector('txt-surrogates', '§9', 'each unpaired UTF-16 surrogate is U+FFFD; a high then low pair is one character',
           s, ['17 - T.Str A="" W="\ufffda"', '17 - T.Str A="" W="\ufffd"', '17 - T.Str A="" W="a\ufffd"',
               '17 - T.Str A="" W="\ufffd\ufffd"', '17 - T.Str A="" W="\ufffd😀"'])
    s = base()
    s.add(thread(17, event(STR_EV, b'', auxes=[aux(1, u16(0xd83d)), aux(1, u16(0xde00))])))
    s.add(end())
    vector('txt-pair-across-records', '§9', 'a value is decoded after its AuxData records are joined',
           s, ['17 - T.Str A="" W="😀"'])
    s = base(more_importants=new_event(30, b'L\xe9', b'\xff', [Field(b'f\xc3', UINT8), Field('é', UINT8)], flags=NOSYNC))
    s.add(thread(17, event(30, b'\x01\x02')))
    s.add(end())
    vector('txt-names', '§9', 'names follow the ANSI rule: UTF-8 when valid, else Latin-1', s, ['17 - Lé.ÿ fÃ=1 é=2'])
    s = base()
    s.add(thread(17, strs(a='"\\\n\r\t\x01\x1f\x7f\u0085\u00a0\u2028\u2029 ='.encode())))
    s.add(end())
    vector('txt-escapes', '§10', 'in values: \\" \\\\ \\n \\r \\t, and \\uXXXX for other controls, DEL, C1, U+2028/2029',
           s, ['17 - T.Str A="\\"\\\\\\n\\r\\t\\u0001\\u001f\\u007f\\u0085\u00a0\\u2028\\u2029 =" W=""'])
    s = base()
    s.add(thread(17, strs(a='a\u202eb\u061c\u200e\u200f\u202a\u2066\u2069\u2067\u2068\u200d'.encode())))
    s.add(end())
    vector('txt-bidi', '§10', 'bidirectional formatting characters are \\uXXXX (U+202E would reorder what a terminal shows); other format characters such as U+200D are themselves',
           s, ['17 - T.Str A="a\\u202eb\\u061c\\u200e\\u200f\\u202a\\u2066\\u2069\\u2067\\u2068\u200d" W=""'])
    s = base(more_importants=new_event(30, 'a.b c', 'e.f=g\th', [Field('x y=z\n"', UINT8)], flags=NOSYNC))
    s.add(thread(17, event(30, b'\x01')))
    s.add(end())
    vector('txt-name-escapes', '§10', 'names are escaped too: also space and = as \\u0020 \\u003d, and . in a logger name',
           s, ['17 - a\\u002eb\\u0020c.e.f\\u003dg\\th x\\u0020y\\u003dz\\n\\"=1'])


# ==== §10 The dump text form =================================================================

def dump_vectors():
    fields = [Field('B', BOOL), Field('I8', INT8), Field('U8', UINT8), Field('I16', INT16), Field('U16', UINT16),
              Field('I32', INT32), Field('U32', UINT32), Field('I64', INT64), Field('U64', UINT64),
              Field('P', POINTER), Field('P4', POINTER, size=4)]
    s = base(more_importants=new_event(30, 'T', 'Ints', fields, flags=NOSYNC))
    low = (u8(0) + u8(-128) + u8(0) + u16(-32768) + u16(0) + u32(-2 ** 31) + u32(0) + u64(-2 ** 63) + u64(0)
           + u64(0) + u32(0))
    high = (u8(2) + u8(127) + u8(255) + u16(32767) + u16(65535) + u32(2 ** 31 - 1) + u32(2 ** 32 - 1)
            + u64(2 ** 63 - 1) + u64(2 ** 64 - 1) + u64(0xdeadbeef) + u32(0xffffffff))
    s.add(thread(17, event(30, low), event(30, high)))
    s.add(end())
    vector('dump-integers', '§10', 'integers in decimal; bool false/true (any non-zero byte); pointers 0x + lowercase hex',
           s, ['17 - T.Ints B=false I8=-128 U8=0 I16=-32768 U16=0 I32=-2147483648 U32=0 I64=-9223372036854775808 '
               'U64=0 P=0x0 P4=0x0',
               '17 - T.Ints B=true I8=127 U8=255 I16=32767 U16=65535 I32=2147483647 U32=4294967295 '
               'I64=9223372036854775807 U64=18446744073709551615 P=0xdeadbeef P4=0xffffffff'])

    def f32(x):
        return struct.pack('<f', x)

    def f64(x):
        return struct.pack('<d', x)

    s = base(more_importants=new_event(30, 'T', 'Floats', [Field('F', FLOAT32), Field('D', FLOAT64)], flags=NOSYNC))
    values = [(0.1, 0.1), (1.0, -0.0), (3.4028234663852886e+38, 1e300), (1.401298464324817e-45, 5e-324),
              (16777216.0, 123456789012345678.0), (float('inf'), float('-inf'))]
    recs = [event(30, f32(a) + f64(b)) for a, b in values]
    recs.append(event(30, b'\x00\x00\xc0\x7f' + b'\x01\x00\x00\x00\x00\x00\xf8\xff'))   # nan, -nan
    s.add(thread(17, *recs))
    s.add(end())
    vector('dump-floats', '§10', 'floats as C printf %.9g (float32) and %.17g (float64); nan, inf, -inf spelt so',
           s, ['17 - T.Floats F=0.100000001 D=0.10000000000000001', '17 - T.Floats F=1 D=-0',
               '17 - T.Floats F=3.40282347e+38 D=1.0000000000000001e+300',
               '17 - T.Floats F=1.40129846e-45 D=4.9406564584124654e-324',
               '17 - T.Floats F=16777216 D=1.2345678901234568e+17', '17 - T.Floats F=inf D=-inf',
               '17 - T.Floats F=nan D=nan'])

    arr = [Field('A', ARRAY | INT32), Field('B', ARRAY | BOOL), Field('D', ARRAY | FLOAT64),
           Field('P', ARRAY | POINTER), Field('Q', ARRAY | POINTER, size=4), Field('U', ARRAY | UINT8),
           Field('E', ARRAY | INT16)]
    s = base(more_importants=new_event(30, 'T', 'Arrays', arr, flags=NOSYNC | HAS_AUX))
    s.add(thread(17, event(30, b'', auxes=[aux(0, u32(1) + u32(-2) + u32(3)), aux(1, b'\x01\x00\x07'),
                                            aux(2, f64(0.5) + f64(-1.0)), aux(3, u64(16)), aux(4, u32(255)),
                                            aux(5, b'')])))
    s.add(end())
    vector('dump-arrays', '§10', 'arrays as [a, b] with ", " between elements, each as its scalar; unset or empty: []',
           s, ['17 - T.Arrays A=[1, -2, 3] B=[true, false, true] D=[0.5, -1] P=[0x10] Q=[0xff] U=[] E=[]'])

    opaque = [Field('K', 13, size=3), Field('Z', 0, size=0), Field('X', 63, size=2), Field('Y', ARRAY | 13, size=3),
              Field('V', 0x82), Field('W', 0xc5, size=1)]
    s = base(more_importants=new_event(30, 'T', 'Future', opaque, flags=NOSYNC | HAS_AUX))
    s.add(thread(17, event(30, b'\x01\x02\x03\xab\xcd', auxes=[aux(3, b'\x01\x02\x03\x04'), aux(4, b'\x00\xff'),
                                                               aux(5, b'')])))
    s.add(end())
    vector('dump-unknown-types', '§10',
           'a scalar of unknown type prints its bytes as 0x + hex in wire order; an aux field of unknown type as x"hex"',
           s, ['17 - T.Future K=0x010203 Z=0x X=0xabcd Y=x"01020304" V=x"00ff" W=x""'])

    s = base(more_importants=new_event(30, 'T', 'Empty', [], flags=NOSYNC)
             + new_event(31, 'T', 'EmptySync', []) + new_event(32, 'T', 'EmptyImp', [], flags=IMPORTANT)
             + important(32, b''))
    s.add(sync(41))
    s.add(thread(65535, event(30), event(31, serial=41)))
    s.add(end())
    vector('dump-no-fields', '§10', 'an event without fields is just thread, serial and name; thread ids up to 65535',
           s, ['1 - T.EmptyImp', '65535 - T.Empty', '65535 41 T.EmptySync'])


# ==== §5 Sampling events ===================================================================

def sampling_vectors():
    status = [Field('Time', UINT64), Field('Mode', UINT8), Field('Flags', UINT8), Field('Frequency', UINT32),
              Field('Paranoid', INT32), Field('Error', INT32), Field('Message', ANSI)]
    batch = [Field('Thread', UINT32), Field('Base', UINT64), Field('Lost', UINT32), Field('Data', ARRAY | UINT8)]
    schemas = (new_event(40, 'Sampling', 'Status', status, flags=IMPORTANT | HAS_AUX)
               + new_event(41, 'Sampling', 'Batch', batch, flags=NOSYNC | HAS_AUX))

    s = base(more_importants=schemas
             + important(40, u64(1000) + u8(3) + u8(0) + u32(1000) + u32(3) + u32(13)
                         + aux(6, b'sampling is not permitted') + AUX_END))
    s.add(end())
    vector('std-sampling-status', '§5',
           'Sampling.Status: Time, Mode (3 not permitted), Flags, Frequency, Paranoid, Error, Message',
           s, ['1 - Sampling.Status Time=1000 Mode=3 Flags=0 Frequency=1000 Paranoid=3 Error=13 '
               'Message="sampling is not permitted"'])

    # Thread 4242 from Base 5000: a sample in stack 5 at 5000; switched out to wait at 6000
    # (varint 1000 << 2 | 3); in at 6300 (300 << 2 | 1); preempted at 6302 (2 << 2 | 2);
    # in at 6400 (98 << 2 | 1); a sample in stack 300 at 6402 (2 << 2 | 0, varint 300).
    data = bytes([0x00, 0x05, 0xa3, 0x1f, 0xb1, 0x09, 0x0a, 0x89, 0x03, 0x08, 0xac, 0x02])
    s = base(more_importants=schemas
             + important(40, u64(4000) + u8(2) + u8(2) + u32(1000) + u32(2) + u32(0)
                         + aux(6, b'sampling the CPU clock') + AUX_END))
    s.add(thread(17, event(41, u32(4242) + u64(5000) + u32(7), auxes=[aux(3, data)])))
    s.add(end())
    vector('std-sampling-batch', '§5',
           'Sampling.Batch: Thread (an OS id), Base, Lost, and Data: varint (delta << 2 | kind), a varint stack for kind 0',
           s, ['1 - Sampling.Status Time=4000 Mode=2 Flags=2 Frequency=1000 Paranoid=2 Error=0 '
               'Message="sampling the CPU clock"',
               '17 - Sampling.Batch Thread=4242 Base=5000 Lost=7 Data=[%s]' % ', '.join(str(b) for b in data)])

    # A sample with a copy of its user stack (STROBE_SAMPLING_STACK): Sampling.UserStack for
    # thread 4242 at 5000 (the registers, 16 bytes of stack from Sp up), then the Batch whose
    # record at that time is the sample it belongs to (stack 5, the kernel's chain).
    user_stack = [Field('Thread', UINT32), Field('Time', UINT64), Field('Ip', UINT64), Field('Sp', UINT64),
                  Field('Bp', UINT64), Field('Data', ARRAY | UINT8)]
    copy = bytes([0x10, 0x32, 0x54, 0x76, 0x98, 0x00, 0x00, 0x00, 0xef, 0xbe, 0xad, 0xde, 0x00, 0x00, 0x00, 0x00])
    s = base(more_importants=schemas + new_event(43, 'Sampling', 'UserStack', user_stack, flags=NOSYNC | HAS_AUX))
    s.add(thread(17, event(43, u32(4242) + u64(5000) + u64(0x401136) + u64(0x7ffc0000f000) + u64(0x7ffc0000f040),
                           auxes=[aux(5, copy)]),
                 event(41, u32(4242) + u64(5000) + u32(0), auxes=[aux(3, bytes([0x00, 0x05]))])))
    s.add(end())
    vector('std-sampling-user-stack', '§5',
           'Sampling.UserStack: Thread, Time (its sample\'s, in the Batch after it), Ip, Sp, Bp, Data (the stack from Sp up)',
           s, ['17 - Sampling.UserStack Thread=4242 Time=5000 Ip=4198710 Sp=140720308547584 Bp=140720308547648 '
               'Data=[%s]' % ', '.join(str(b) for b in copy),
               '17 - Sampling.Batch Thread=4242 Base=5000 Lost=0 Data=[0, 5]'])


# ==== §5 ClockOffset ========================================================================

def clock_offset_vectors():
    fields = [Field('Timestamp', UINT64), Field('Offset', INT64), Field('Uncertainty', UINT64),
              Field('RoundTrips', UINT32), Field('PeerSource', UINT8), Field('PeerDomain', ANSI)]
    peer = b'0f1e2d3c4b5a69788796a5b4c3d2e1f0'
    s = base(more_importants=new_event(42, '$Trace', 'ClockOffset', fields, flags=IMPORTANT | HAS_AUX)
             + important(42, u64(123456789) + u64(-5517382) + u64(6654970) + u32(8) + u8(0)
                         + aux(5, peer) + AUX_END))
    s.add(end())
    vector('std-clock-offset', '§5',
           '$Trace.ClockOffset: a peer measured this clock (ns) minus its CLOCK_MONOTONIC: Offset (signed) '
           '± Uncertainty ns over RoundTrips, PeerSource 0, PeerDomain its boot id in 32 hex digits',
           s, ['1 - $Trace.ClockOffset Timestamp=123456789 Offset=-5517382 Uncertainty=6654970 RoundTrips=8 '
               'PeerSource=0 PeerDomain="%s"' % peer.decode()])


def build():
    handshake_vectors()
    packet_vectors()
    record_vectors()
    importants_vectors()
    order_vectors()
    control_vectors()
    error_vectors()
    text_vectors()
    dump_vectors()
    sampling_vectors()
    clock_offset_vectors()
    names = [v[0] for v in VECTORS]
    assert len(names) == len(set(names)), 'duplicate vector names'


def files():
    """{file name: bytes} of the whole vector folder."""
    out = {}
    index = ['# Strobe conformance vectors, written by tests/conformance/gen-vectors.py: do not edit.',
             '# name<TAB>rule section of core/protocol/PROTOCOL.md<TAB>rule checked<TAB>'
             'part of strobe-cli\'s error message (informative; empty when the stream decodes)']
    for name, section, rule, data, expected, message in VECTORS:
        out[name + '.strobe'] = data
        out[name + '.out'] = expected.encode('utf-8')
        index.append('\t'.join((name, section, rule, message)))
    out['index.txt'] = ('\n'.join(index) + '\n').encode('utf-8')
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument('--out', metavar='DIR')
    group.add_argument('--check', metavar='DIR')
    args = parser.parse_args()
    build()
    want = files()

    if args.out:
        os.makedirs(args.out, exist_ok=True)
        for name in os.listdir(args.out):
            if name not in want:
                os.remove(os.path.join(args.out, name))
        for name, data in want.items():
            with open(os.path.join(args.out, name), 'wb') as f:
                f.write(data)
        print('%d vectors written to %s' % (len(VECTORS), args.out))
        return 0

    have = set(os.listdir(args.check))
    bad = sorted((set(want) ^ have)
                 | {n for n in set(want) & have if open(os.path.join(args.check, n), 'rb').read() != want[n]})
    for n in bad:
        print('differs from the generator: %s' % n)
    if bad:
        print('run: %s --out %s' % (sys.argv[0], args.check))
        return 1
    print('%d vectors match the generator' % len(VECTORS))
    return 0


if __name__ == '__main__':
    sys.exit(main())
