#!/usr/bin/env python3
"""No .c file over 1 500 lines, no function in one over 150, in each folder given (app/,
core/, runtime/: issue 19 — a file that grows past that holds more than one role and is split
by role instead).

Functions are found the way the project writes them (GNU style): the name at the start of a
line followed by " (", the body from a "{" to a "}" alone at the start of a line. Before the
tree is checked, the checker is run on made-up files that break each rule, so a checker that
stopped finding anything fails too.

Usage: check-sizes.py DIR…"""
import os
import re
import sys
import tempfile

MAX_FILE_LINES = 1500
MAX_FUNCTION_LINES = 150

# Files still over a limit, each with the issue that splits it; remove an entry when the
# file is split. An entry for a file that is within the limits is an error, so the list
# cannot go stale.
ALLOWED = {
}

FUNCTION_START = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*) \(')


def functions(lines):
    """(name, first line, number of lines) of each function definition."""
    out = []
    i = 0
    while i < len(lines):
        m = FUNCTION_START.match(lines[i])
        if m and i > 0 and lines[i - 1].strip() and not lines[i - 1].rstrip().endswith((';', '}', ',')):
            # The parameter list may span lines; a definition's body opens at column 0.
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith((')', ';', '{')):
                j += 1
            if j + 1 < len(lines) and lines[j].rstrip().endswith(')') and lines[j + 1].startswith('{'):
                k = j + 1
                while k < len(lines) and not lines[k].startswith('}'):
                    k += 1
                out.append((m.group(1), i + 1, k - i + 1))
                i = k
        i += 1
    return out


def check(app_dir):
    problems = []
    for root, dirs, files in os.walk(app_dir):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith('.c'):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, app_dir)
            with open(path, encoding='utf-8') as f:
                lines = f.read().split('\n')
            if lines and lines[-1] == '':
                lines.pop()
            found = []
            if len(lines) > MAX_FILE_LINES:
                found.append(f'{rel}: {len(lines)} lines (at most {MAX_FILE_LINES})')
            for fn, line, n in functions(lines):
                if n > MAX_FUNCTION_LINES:
                    found.append(f'{rel}:{line}: {fn} is {n} lines (at most {MAX_FUNCTION_LINES})')
            if rel in ALLOWED:
                if not found:
                    problems.append(f'{rel} is within the limits now: remove it from ALLOWED in check-sizes.py')
                else:
                    for p in found:
                        print(f'allowed ({ALLOWED[rel]}): {p}')
                continue
            problems += found
    return problems


def self_test():
    """The checker finds a file too long and a function too long, and passes short ones."""
    body = ['  x++;'] * (MAX_FUNCTION_LINES - 4)
    ok_fn = ['static void', 'ok (int x,', '    int y)', '{'] + body + ['}', '']
    long_fn = ['static int', 'too_long (void)', '{'] + body + ['  x++;', '  return x;', '}', '']
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, 'sub'))
        with open(os.path.join(d, 'sub', 'a.c'), 'w') as f:
            f.write('\n'.join(ok_fn + long_fn))
        with open(os.path.join(d, 'b.c'), 'w') as f:
            f.write('\n'.join(['int x;'] * (MAX_FILE_LINES + 1) + ok_fn))
        with open(os.path.join(d, 'c.c'), 'w') as f:
            f.write('\n'.join(['int y;'] * (MAX_FILE_LINES - len(ok_fn)) + ok_fn))
        got = check(d)
    expected = ['b.c: ', 'sub/a.c:', 'too_long is']
    if len(got) != 2 or not all(any(e in p for p in got) for e in expected) or any('ok is' in p for p in got):
        print('FAIL the checker does not find what it should on made-up files:', got)
        return False
    print('ok   the checker finds a file over the limit and a function over the limit')
    return True


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    if not self_test():
        return 1
    failed = False
    for folder in sys.argv[1:]:
        name = os.path.basename(os.path.normpath(folder))
        problems = check(folder)
        for p in problems:
            print(f'FAIL {name}/{p}')
        if not problems:
            print(f'ok   no .c file in {name}/ over {MAX_FILE_LINES} lines, no function over {MAX_FUNCTION_LINES}')
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
