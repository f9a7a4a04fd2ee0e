#!/usr/bin/env python3
"""Checks that libstrobe.so exports what the public headers name, and nothing else.

    build-aux/check-runtime-exports.py [--root DIR] [--nm NM] path/to/libstrobe.so

The expected set is every function and object runtime/include/strobe/*.h declares (not the
static inline ones, not macros or types), read with the parser of gen-api-reference.py.
It fails, naming them, on:
  - a symbol `nm -D --defined-only` shows that no header declares (a private function that
    leaked into the ABI),
  - a header declaration the library does not export (a public function a program cannot
    link against),
  - a name runtime/strobe.map lists that no header declares, or the reverse (the version
    script and the headers must say the same).
Prints the counts it compared. Only the Python standard library and binutils' nm."""
import argparse
import glob
import importlib.util
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def load_parser(root):
    path = os.path.join(root, 'build-aux', 'gen-api-reference.py')
    spec = importlib.util.spec_from_file_location('gen_api_reference', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def header_symbols(root):
    """name → 'file:line' for every function and object a public header declares."""
    gen = load_parser(root)
    found = {}
    problems = []
    for path in sorted(glob.glob(os.path.join(root, 'runtime', 'include', 'strobe', '*.h'))):
        header, parse_problems = gen.parse_header(path)
        problems += parse_problems
        for item in header.items:
            if not isinstance(item, gen.Entry):
                continue
            for signature, syms, _ in item.decls:
                if signature.lstrip().startswith(('static', '#')):
                    continue    # inline functions and macros: compiled into the program
                for sym in syms:
                    if sym.kind in ('function', 'object'):
                        found.setdefault(sym.name, '%s:%d' % (os.path.relpath(path, root), sym.line))
    return found, problems


def map_symbols(root):
    text = open(os.path.join(root, 'runtime', 'strobe.map'), encoding='utf-8').read()
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    global_part = text.split('global:', 1)[1].split('local:', 1)[0]
    return {n.strip() for n in global_part.split(';') if n.strip()}


def exported_symbols(nm, library):
    out = subprocess.run([nm, '-D', '--defined-only', library], check=True,
                         capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] != 'A':     # 'A': a version node's name, not code
            names.add(parts[2].split('@')[0])
    return names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--root', default=ROOT)
    parser.add_argument('--nm', default='nm')
    parser.add_argument('library')
    args = parser.parse_args()

    declared, problems = header_symbols(args.root)
    expected = set(declared)
    exported = exported_symbols(args.nm, args.library)
    listed = map_symbols(args.root)

    for name in sorted(exported - expected):
        problems.append('%s exports %s, which no public header declares' % (args.library, name))
    for name in sorted(expected - exported):
        problems.append('%s does not export %s (declared at %s)'
                        % (args.library, name, declared[name]))
    for name in sorted(listed - expected):
        problems.append('runtime/strobe.map lists %s, which no public header declares' % name)
    for name in sorted(expected - listed):
        problems.append('runtime/strobe.map does not list %s (declared at %s)'
                        % (name, declared[name]))

    public = sum(1 for n in declared if not n.startswith('strobe__'))
    print('exported %d; headers declare %d (%d API, %d fast-path internals)'
          % (len(exported), len(declared), public, len(declared) - public))
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
