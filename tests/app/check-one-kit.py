#!/usr/bin/env python3
"""One time-and-cost kit (issue 19 item 2): every chart piece below exists once, in app/chart,
and only the clock type turns ticks into seconds.

- One flame graph widget and one callers/callees panel: a GObject type whose name says
  "Flame" (or "Callers") is declared once in app/, in app/chart/.
- No file in app/ or core/ but the clock type divides (or multiplies) by a clock's
  frequency: no "/ …frequency" or "frequency … /" in an expression.
- No widget (or other GObject instance structure, "struct _Strobe…") in app/ keeps a copy
  of the clock: it asks the document through its StrobeTimeAxis each time. A value handed
  to a worker thread (a tile's spec) is a typedef'd struct, not an instance, and may.

Before the tree is checked the checker runs on made-up files that break each rule, so a
checker that stopped finding anything fails too.

Usage: check-one-kit.py SOURCE-ROOT"""
import os
import re
import sys
import tempfile

CLOCK_TYPE = os.path.join('core', 'analysis', 'strobe-trace-clock.c')

# Each kind of widget that must exist once, in app/chart: a pattern on a type's name.
ONCE_IN_CHART = {
    'flame graph': re.compile(r'Flame', re.IGNORECASE),
    'callers/callees panel': re.compile(r'Callers|Callees|Butterfly', re.IGNORECASE),
}

DECLARE = re.compile(r'G_DECLARE_(?:FINAL|DERIVABLE)_TYPE\s*\(\s*(\w+)')
# A division or multiplication with a frequency on either side (comments and strings removed
# first; "* x.frequency" only through a member, as "char *frequency" declares).
FREQ_ARITH = re.compile(r'/\s*[()\s\w]*?[\w.>-]*frequency\b|\*\s*[()\s\w]*?\w(?:\.|->)\w*frequency\b'
                        r'|frequency\w*\s*[)\s]*[/*](?![/*])')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.DOTALL)
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
INSTANCE = re.compile(r'struct\s+(_Strobe\w+)\s*\{([^{}]*)\}', re.DOTALL)
CLOCK_FIELD = re.compile(r'\bStrobeTraceClock\s+\w+\s*;')


def sources(root, top):
    for d, dirs, files in os.walk(os.path.join(root, top)):
        dirs[:] = sorted(x for x in dirs if not x.startswith(('_build', '.')))
        for name in sorted(files):
            if name.endswith(('.c', '.h')):
                path = os.path.join(d, name)
                yield os.path.relpath(path, root), path


def check(root):
    problems = []
    found = {kind: [] for kind in ONCE_IN_CHART}
    for rel, path in sources(root, 'app'):
        with open(path, encoding='utf-8') as f:
            text = f.read()
        for m in DECLARE.finditer(text):
            for kind, pattern in ONCE_IN_CHART.items():
                if pattern.search(m.group(1)):
                    found[kind].append((rel, m.group(1)))
    for kind, where in found.items():
        if len(where) != 1 or not where[0][0].startswith(os.path.join('app', 'chart') + os.sep):
            problems.append(f'{kind}: {len(where)} widget types, wanted one in app/chart: '
                            + ', '.join(f'{t} ({r})' for r, t in where))
    for rel, path in sources(root, 'app'):
        with open(path, encoding='utf-8') as f:
            text = COMMENT.sub(' ', f.read())
        for m in INSTANCE.finditer(text):
            if CLOCK_FIELD.search(m.group(2)):
                line = text.count('\n', 0, m.start()) + 1
                problems.append(f'{rel}:{line}: {m.group(1)[1:]} keeps a copy of the clock: '
                                'ask a StrobeTimeAxis (strobe_time_axis_get_clock) when it is needed')
    for top in ('app', 'core'):
        for rel, path in sources(root, top):
            if rel == CLOCK_TYPE:
                continue
            with open(path, encoding='utf-8') as f:
                text = STRING.sub('""', COMMENT.sub(' ', f.read()))
            for m in FREQ_ARITH.finditer(text):
                line = text.count('\n', 0, m.start()) + 1
                problems.append(f'{rel}:{line}: divides by a clock frequency outside the clock type '
                                f'({m.group(0).strip()}): use strobe-trace-clock.h')
    return problems


def self_test():
    """The checker finds a second flame graph and a division by a frequency."""
    with tempfile.TemporaryDirectory() as d:
        for sub in ('app/chart', 'app/memory', 'core/analysis', 'core/cli'):
            os.makedirs(os.path.join(d, sub))

        def write(rel, text):
            with open(os.path.join(d, rel), 'w', encoding='utf-8') as f:
                f.write(text)

        write('app/chart/strobe-flame-graph.h',
              'G_DECLARE_FINAL_TYPE (StrobeFlameGraph, strobe_flame_graph, STROBE, FLAME_GRAPH, GtkWidget)\n')
        write('app/chart/strobe-callers-panel.h',
              'G_DECLARE_FINAL_TYPE (StrobeCallersPanel, strobe_callers_panel, STROBE, CALLERS_PANEL, GtkWidget)\n')
        write(CLOCK_TYPE, 'double s = ticks / (double) clock->frequency;\n')
        write('core/cli/ok.c', '/* ticks / frequency */\nprintf ("%s / frequency", x);\nuint64_t f = clock.frequency;\n')
        if check(d):
            print('FAIL the checker finds problems in a made-up tree that has none:', check(d))
            return False
        write('app/memory/strobe-memory-flame.h',
              'G_DECLARE_FINAL_TYPE (StrobeMemoryFlame, strobe_memory_flame, STROBE, MEMORY_FLAME, GtkWidget)\n')
        write('app/memory/strobe-memory-callers-panel.h',
              'G_DECLARE_FINAL_TYPE (StrobeMemoryCallersPanel, strobe_memory_callers_panel, STROBE, X, GtkWidget)\n')
        write('app/memory/strobe-memory-thing.c',
              'struct _StrobeMemoryThing\n{\n  GtkWidget parent;\n  StrobeTraceClock  clock;\n};\n'
              'typedef struct\n{\n  StrobeTraceClock clock;\n} Spec;\n')
        write('core/cli/bad.c', 'double ms = 1e3 * ticks / (double) clock.frequency;\n')
        write('core/cli/bad2.c', 'double hz = meta->clock_frequency * 2.0;\n')
        write('core/cli/bad3.c', 'guint64 t = s * (gdouble) c->frequency;\nchar *frequency = NULL;\n')
        got = check(d)
    expected = ['flame graph: 2', 'callers/callees panel: 2', 'core/cli/bad.c:1', 'core/cli/bad2.c:1',
                'core/cli/bad3.c:1', 'StrobeMemoryThing keeps a copy']
    if len(got) != 6 or not all(any(e in p for p in got) for e in expected):
        print('FAIL the checker does not find what it should on made-up files:', got)
        return False
    print('ok   the checker finds a second flame graph, a second callers panel, divisions by a frequency '
              'and a widget keeping the clock')
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
        print('ok   one ' + ', one '.join(ONCE_IN_CHART) + ' (in app/chart); '
              'only the clock type divides by a frequency; no widget keeps a copy of the clock')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
