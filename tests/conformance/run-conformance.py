#!/usr/bin/env python3
"""run-conformance.py — runs a Strobe reader over the conformance vectors.

    run-conformance.py [--messages] [--only NAME] VECTOR_DIR READER [ARG...]

For every vector listed in VECTOR_DIR/index.txt the reader is run as
`READER ARG... VECTOR_DIR/NAME.strobe`; its standard output must equal NAME.out byte for
byte (the `dump` lines then the status line; see README.md). A READER ending in `.py`
is run with the Python that runs this script (one interpreter start per vector, not a
launcher's as well). With --messages, the
fourth column of index.txt must also appear in its standard error (only meaningful for
strobe-cli, whose messages those are). Exit status 0 when every vector passes.
"""

import argparse
import difflib
import os
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--messages', action='store_true',
                        help="also check strobe-cli's error messages")
    parser.add_argument('--only', metavar='NAME', action='append', help='run only this vector')
    parser.add_argument('dir')
    parser.add_argument('reader', nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if not args.reader:
        parser.error('no READER given')

    if args.reader[0].endswith('.py'):
        args.reader.insert(0, sys.executable)

    with open(os.path.join(args.dir, 'index.txt'), encoding='utf-8') as f:
        rows = [line.rstrip('\n').split('\t') for line in f if line.strip() and not line.startswith('#')]

    failed = []
    for name, section, rule, message in rows:
        if args.only and name not in args.only:
            continue
        path = os.path.join(args.dir, name + '.strobe')
        with open(os.path.join(args.dir, name + '.out'), 'rb') as f:
            want = f.read()
        try:
            run = subprocess.run(args.reader + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 timeout=30)
        except subprocess.TimeoutExpired:
            failed.append(name)
            print('FAIL %s (%s %s): timed out' % (name, section, rule))
            continue
        problems = []
        if run.stdout != want:
            diff = difflib.unified_diff(want.decode('utf-8', 'replace').splitlines(),
                                        run.stdout.decode('utf-8', 'replace').splitlines(),
                                        'expected', 'got', lineterm='')
            problems.append('output differs:\n  ' + '\n  '.join(diff))
        if args.messages and message and message.encode('utf-8') not in run.stderr:
            problems.append('stderr lacks %r: %s' % (message, run.stderr.decode('utf-8', 'replace').strip()))
        if problems:
            failed.append(name)
            print('FAIL %s (%s %s)\n  %s' % (name, section, rule, '\n  '.join(problems)))
        else:
            print('ok   %s' % name)

    total = len(args.only) if args.only else len(rows)
    print('%d of %d vectors passed' % (total - len(failed), total))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
