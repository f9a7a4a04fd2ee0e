#!/usr/bin/env python3
"""One reader of a stream's framing (issue 19 item 1): outside core/protocol no file parses a
handshake, a packet header or an end marker by hand; they call the readers of
core/protocol/strobe-wire-framing.h (strobe_wire_read_handshake, _read_packet_header,
_packet_header_fields, _packet_is_end, _read_control).

What counts as parsing by hand, in a .c or .h file of core/, app/ or runtime/ outside
core/protocol (comments and strings removed first):
- the magic compared: STROBE_WIRE_MAGIC in a memcmp/strncmp/strcmp;
- bytes copied or cast into a handshake or packet header: memcpy into a variable declared
  StrobeWireHandshake or StrobeWirePacketHeader, or a pointer cast to one of those types;
- the end marker judged: STROBE_CONTROL_END compared with == or != (a switch on the kind
  strobe_wire_read_control gave, and the writers passing it, are not reading).

Before the tree is checked the checker runs on made-up files that break each rule, so a
checker that stopped finding anything fails too.

Usage: check-one-reader.py SOURCE-ROOT"""
import os
import re
import sys
import tempfile

TOPS = ('core', 'app', 'runtime')
PROTOCOL = os.path.join('core', 'protocol') + os.sep
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.DOTALL)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
MAGIC = re.compile(r'\b(?:memcmp|strncmp|strcmp)\s*\([^;]*\bSTROBE_WIRE_MAGIC\b')
DECL = re.compile(r'\bStrobeWire(?:Handshake|PacketHeader)\s+(\w+)\s*[;=\[]')
CAST = re.compile(r'\(\s*(?:const\s+)?StrobeWire(?:Handshake|PacketHeader)\s*\*\s*\)')
END = re.compile(r'[=!]=\s*STROBE_CONTROL_END\b|\bSTROBE_CONTROL_END\s*[=!]=')


def problems_in(rel, text):
    text = STRING.sub('""', COMMENT.sub(' ', text))
    out = []

    def at(m):
        return f'{rel}:{text.count(chr(10), 0, m.start()) + 1}'
    for m in MAGIC.finditer(text):
        out.append(f'{at(m)}: compares the magic by hand (strobe_wire_read_handshake judges it)')
    for name in set(DECL.findall(text)):
        for m in re.finditer(r'\bmemcpy\s*\(\s*&\s*' + re.escape(name) + r'\b', text):
            out.append(f'{at(m)}: copies bytes into {name}, a handshake or packet header, by hand '
                       '(strobe_wire_read_packet_header / _packet_header_fields read one)')
    for m in CAST.finditer(text):
        out.append(f'{at(m)}: casts bytes to a handshake or packet header')
    for m in END.finditer(text):
        out.append(f'{at(m)}: judges the end marker by hand (strobe_wire_packet_is_end)')
    return out


def check(root):
    problems = []
    for top in TOPS:
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if not x.startswith(('_build', '.')))
            for name in sorted(files):
                if not name.endswith(('.c', '.h')):
                    continue
                path = os.path.join(d, name)
                rel = os.path.relpath(path, root)
                if rel.startswith(PROTOCOL):
                    continue
                with open(path, encoding='utf-8') as f:
                    problems += problems_in(rel, f.read())
    return problems


def self_test():
    """Each rule is found in a made-up file; the readers' own use and a writer are not."""
    bad = {
        'core/store/a.c': 'int f (const char *m) { return memcmp (m, STROBE_WIRE_MAGIC, 4); }',
        'core/recorder/b.c': 'void g (const guint8 *p) { StrobeWirePacketHeader h;\n memcpy (&h, p, 12); }',
        'app/c.c': 'void h (const guint8 *p) { const StrobeWireHandshake *hs = (const StrobeWireHandshake *) p; }',
        'runtime/src/d.c': 'bool e (int kind) { return kind == STROBE_CONTROL_END; }',
    }
    good = {
        'core/protocol/strobe-wire-framing.c': 'bool r (const uint8_t *d) { return memcmp (d, STROBE_WIRE_MAGIC, 4) == 0; }',
        'core/analysis/e.c': ('void k (const guint8 *p) { StrobeWirePacketHeader h; guint8 kind;\n'
                              ' strobe_wire_read_packet_header (p, 12, 0, &h, NULL, NULL);\n'
                              ' switch (kind) { case STROBE_CONTROL_END: break; }\n'
                              ' /* memcmp (p, STROBE_WIRE_MAGIC, 4) in a comment */ }'),
        'runtime/src/f.c': 'void w (void) { strobe_wire_write_control (&b, STROBE_CONTROL_END, NULL, 0); }',
    }
    with tempfile.TemporaryDirectory() as d:
        for rel, text in list(bad.items()) + list(good.items()):
            os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
            with open(os.path.join(d, rel), 'w') as f:
                f.write(text + '\n')
        got = check(d)
    found = all(any(p.startswith(rel + ':') for p in got) for rel in bad)
    clean = not any(p.startswith(rel + ':') for p in got for rel in good)
    if not found or not clean or len(got) != len(bad):
        print('FAIL the checker does not find what it should on made-up files:', got)
        return False
    print('ok   the checker finds each way of reading the framing by hand')
    return True


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    if not self_test():
        return 1
    problems = check(sys.argv[1])
    for p in problems:
        print('FAIL ' + p)
    if not problems:
        print('ok   no file outside core/protocol reads a handshake, a packet header or an end marker by hand')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
