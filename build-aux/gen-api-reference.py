#!/usr/bin/env python3
"""Writes runtime/API.md, the runtime's API reference, from the comments of its public
headers (runtime/include/strobe/*.h), or checks that the committed one is current.

    build-aux/gen-api-reference.py            # rewrite runtime/API.md
    build-aux/gen-api-reference.py --check    # exit 1 if it differs or a symbol is undocumented

A public symbol is every macro, function, type, enumerator list and object a header declares
whose name does not start with strobe__ / STROBE__. Its documentation is the comment just
above it: a comment followed, without a blank line, by one or more declarations documents
all of them (they are shown together), and a comment on a declaration's own line documents
that declaration. A function's comment must also say what it costs, whether it may block
and from which threads it may be called, with the labels "Cost:", "Blocks:" and
"Threads:" (or several at once: "Blocks, Threads: as …"). Anything else is reported with its file and line, and the check fails.

Only the Python standard library: the test suite runs this (meson test api-reference)."""
import argparse
import difflib
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER_DIR = os.path.join('runtime', 'include', 'strobe')
OUTPUT = os.path.join('runtime', 'API.md')

# Reading order: the umbrella header, then from declaring events to memory. A header not
# listed comes after these, in name order, so a new one is never left out.
ORDER = ['strobe.h', 'strobe-channel.h', 'strobe-declare.h', 'strobe-log.h', 'strobe-cpu.h',
         'strobe-logging.h', 'strobe-counters.h', 'strobe-misc.h', 'strobe-memory.h',
         'strobe-clock.h']

LABELS = ('Cost', 'Blocks', 'Threads')
# "Cost:", or several at once: "Blocks, Threads: as strobe_cpu_begin()".
LABEL_GROUP = re.compile(r'(?<![\w*])((?:%s)(?:, (?:%s))*):' % ('|'.join(LABELS), '|'.join(LABELS)))

INTRO = """\
The public API of `libstrobe`, header by header: every macro, function, type and object of
`<strobe/…>` with its declaration and what its header says about it. Each function and
operation says what it **costs**, whether it **blocks** (and on what) and from which
**threads** it may be called.

Costs are in clock reads (one `strobe_time()`, about 10 ns on the 2-core benchmark machine)
where they were measured: `tests/bench/README.md` and `_build/tests/bench/strobe-bench*`.
"Any thread" means any thread of the program, each with its own buffers; what may run in
a signal handler is listed in [README.md, "Signal handlers"](README.md#signal-handlers)
and marked here. How the runtime works (threads, buffers, outputs, back-pressure, fork) is
in [README.md](README.md); the standard events and their fields are in
[INSTRUMENTATION.md](INSTRUMENTATION.md); the control server in [CONTROL.md](CONTROL.md).

Names starting with `strobe__` or `STROBE__` are the inline fast path's internals: not API.
"""


class Symbol:
    def __init__(self, name, kind, line):
        self.name = name
        self.kind = kind          # macro, function, type, object, constant
        self.line = line


class Entry:
    """One documented paragraph: a comment and the declarations it documents."""

    def __init__(self, comment, line):
        self.comment = comment    # list of text lines, or None
        self.line = line
        self.decls = []           # (signature text, [Symbol], own trailing comment or None)


class Header:
    def __init__(self, name):
        self.name = name
        self.intro = None
        self.items = []           # Entry, ('section', title) or ('prose', lines)


# ---- reading C ------------------------------------------------------------------------

def comment_lines(text):
    """The lines of a /* … */ comment without its delimiters and leading stars."""
    body = text.strip()
    assert body.startswith('/*') and body.endswith('*/')
    body = body[2:-2]
    out = []
    for i, raw in enumerate(body.split('\n')):
        if i == 0:
            line = raw.strip()
            line = line[1:].lstrip() if line.startswith('<') else line   # /*< private >*/
        else:
            line = re.sub(r'^\s*\* ?', '', raw, count=1) if re.match(r'^\s*\*', raw) else raw.strip()
        out.append(line.rstrip())
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


def strip_attributes(text):
    """Removes __attribute__ ((…)) with its nested parentheses, and the headers' own
    attribute macros (STROBE__ADDRESS_ONLY (n)): what the compiler is told, not API."""
    text = re.sub(r'\bSTROBE__ADDRESS_ONLY\s*\(\s*\d+\s*\)\s*', '', text)
    while True:
        m = re.search(r'__attribute__\s*\(', text)
        if not m:
            return text
        depth, i = 0, m.end() - 1
        while i < len(text):
            if text[i] == '(':
                depth += 1
            elif text[i] == ')':
                depth -= 1
                if depth == 0:
                    break
            i += 1
        text = text[:m.start()] + text[i + 1:]


def strip_comments(text):
    return re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)


def public(name):
    return not name.lower().startswith('strobe__')


def symbols_of(statement, line):
    """The names a top-level C statement declares, with their kinds."""
    code = ' '.join(strip_attributes(strip_comments(statement)).split())
    m = re.match(r'(STROBE_CHANNEL_EXTERN)\s*\(\s*(\w+)\s*\)', code)
    if m:
        return [Symbol(m.group(2), 'object', line)]
    if code.startswith('typedef'):
        inner = re.search(r'\{(.*)\}', code)
        tail = code[inner.end():] if inner else code
        names = re.findall(r'(\w+)\s*(?:\[[^\]]*\])?\s*;?\s*$', tail.rstrip(';'))
        syms = [Symbol(names[-1], 'type', line)] if names else []
        tag = re.match(r'typedef\s+(?:struct|enum|union)\s+(\w+)\s*\{', code)
        if tag and (not names or tag.group(1) != names[-1]):
            syms.append(Symbol(tag.group(1), 'type', line))
        return syms
    if re.match(r'enum\s*\{', code):
        body = re.search(r'\{(.*)\}', code).group(1)
        return [Symbol(n, 'constant', line) for n in re.findall(r'(\w+)\s*(?:=[^,]*)?(?:,|$)', body) if n]
    # A pointer to a function: the identifier in (*NAME) or (*const NAME).
    m = re.match(r'[^(]*\(\s*\*\s*(?:const\s+)?(\w+)\s*\)\s*\(', code)
    if m:
        return [Symbol(m.group(1), 'object', line)]
    # A function: the identifier before the first parenthesis at depth 0.
    head = code.split('{', 1)[0]
    depth = 0
    for i, c in enumerate(head):
        if c == '(':
            if depth == 0:
                m = re.search(r'(\w+)\s*$', head[:i])
                if m and m.group(1) not in ('if', 'while', 'for', 'sizeof'):
                    return [Symbol(m.group(1), 'function', line)]
            depth += 1
        elif c == ')':
            depth -= 1
    m = re.search(r'(\w+)\s*(?:\[[^\]]*\])?\s*;\s*$', code)
    if m:
        return [Symbol(m.group(1), 'object', line)]
    return []


def signature_of(statement):
    """What the reference shows of a statement: a function without its body, the rest whole
    (typedefs keep their member comments: they are the members' documentation)."""
    text = statement.rstrip()
    code = strip_comments(text)
    if re.match(r'\s*static\s+inline\b', code):
        return ' '.join(text[:text.index('{')].split()) + ';'
    if not code.lstrip().startswith('typedef') and not code.lstrip().startswith('enum'):
        text = ' '.join(strip_attributes(strip_comments(text)).split())
        text = re.sub(r'\s*__attribute__\s*\(\(.*\)\)\s*;$', ';', text)
    return text


def macro_signature(first_line, full):
    m = re.match(r'#\s*define\s+(\w+)(\([^)]*\))?(.*)', first_line)
    name, params, rest = m.group(1), m.group(2), m.group(3)
    if params is not None:
        return name, '#define ' + name + params, 'macro'
    value = strip_comments(full.replace('\\\n', ' '))
    value = ' '.join(value.split()[2:])
    return name, ('#define %s %s' % (name, value)).rstrip(), 'constant' if value else 'macro'


def parse_header(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    header = Header(os.path.basename(path))
    problems = []
    entry = None            # the paragraph being read
    pending = None          # (comment lines, line number) not yet attached
    i = 0
    seen_code = False

    def flush_pending_as_prose():
        nonlocal pending
        if pending:
            text, _ = pending
            title = re.match(r'^-+\s*(.*?)\s*-+$', ' '.join(t.strip() for t in text))
            header.items.append(('section', title.group(1)) if title else ('prose', text))
            pending = None

    def add_decl(signature, syms, trailing, line):
        nonlocal entry, pending
        if entry is None:
            entry = Entry(pending[0] if pending else None, pending[1] if pending else line)
            pending = None
            header.items.append(entry)
        entry.decls.append((signature, syms, trailing))

    while i < len(lines):
        raw = lines[i]
        s = raw.strip()
        lineno = i + 1
        if not s:
            entry = None
            flush_pending_as_prose()
            i += 1
            continue
        if s.startswith('/*'):
            start = i
            while '*/' not in lines[i]:
                i += 1
            text = '\n'.join(lines[start:i + 1])
            i += 1
            if not seen_code and header.intro is None:
                header.intro = comment_lines(text)
                continue
            if entry is not None:
                entry = None
            flush_pending_as_prose()
            pending = (comment_lines(text), start + 1)
            continue
        if s.startswith('#'):
            seen_code = True
            full = raw
            while full.endswith('\\'):
                i += 1
                full += '\n' + lines[i]
            i += 1
            m = re.match(r'#\s*define\s+(\w+)', s)
            if not m:
                # #pragma, #include, #if…: a paragraph ends, but a comment above an #ifdef'd
                # group of definitions still documents them.
                if not re.match(r'#\s*(if|ifdef|ifndef|else|elif|endif)\b', s):
                    entry = None
                    flush_pending_as_prose()
                continue
            name, sig, kind = macro_signature(s, full)
            trailing = re.search(r'/\*(.*?)\*/\s*$', full.split('\n')[0])
            add_decl(sig, [Symbol(name, kind, lineno)],
                     comment_lines('/*' + trailing.group(1) + '*/') if trailing else None, lineno)
            continue
        if s.startswith('extern "C"') or s == '}' and lines[i - 1].strip() == '#ifdef __cplusplus':
            i += 1
            continue
        if s == '}':
            i += 1
            continue
        # A C statement: up to a ';' at depth 0, or the closing brace of a function body.
        seen_code = True
        start = i
        depth = 0
        text = ''
        done = False
        while i < len(lines) and not done:
            text += lines[i] + '\n'
            code = strip_comments(text)
            depth = code.count('{') - code.count('}')
            body = re.match(r'\s*static\s+inline\b', code)
            if depth == 0 and (code.rstrip().endswith(';') or (body and code.rstrip().endswith('}'))):
                done = True
            i += 1
        syms = symbols_of(text, start + 1)
        if not syms:
            problems.append('%s:%d: cannot read this declaration' % (path, start + 1))
            continue
        first = text.split('\n')[0]
        trailing = None
        if text.count('\n') == 1:
            m = re.search(r'/\*(.*?)\*/\s*$', first)
            if m:
                trailing = comment_lines('/*' + m.group(1) + '*/')
        add_decl(signature_of(text), syms, trailing, start + 1)
    flush_pending_as_prose()
    return header, problems


# ---- checking -------------------------------------------------------------------------

def check(headers, paths):
    problems = []
    count = {}
    seen = set()
    for header in headers:
        for item in header.items:
            if not isinstance(item, Entry):
                continue
            text = ' '.join(item.comment or [])
            for signature, syms, trailing in item.decls:
                for sym in syms:
                    if not public(sym.name) or sym.name in seen:
                        continue
                    seen.add(sym.name)
                    count[sym.kind] = count.get(sym.kind, 0) + 1
                    where = '%s:%d' % (paths[header.name], sym.line)
                    if not item.comment and not trailing:
                        problems.append('%s: %s (%s) has no doc comment' % (where, sym.name, sym.kind))
                    elif sym.kind == 'function':
                        said = set()
                        for group in LABEL_GROUP.findall(text + ' ' + ' '.join(trailing or [])):
                            said.update(group.split(', '))
                        missing = [l + ':' for l in LABELS if l not in said]
                        if missing:
                            problems.append('%s: the comment of %s says nothing after %s'
                                            % (where, sym.name, ', '.join(missing)))
    return problems, count


# ---- writing Markdown -----------------------------------------------------------------

def anchor(name):
    """Lower case, as Markdown renderers make heading ids; macros get a prefix so
    STROBE_BOOKMARK and strobe_bookmark stay apart."""
    return ('m-' if name.isupper() else '') + name.lower()


def header_anchor(name):
    return name.replace('.', '-')


# What comment text shows as code: @parameters, --options, macros and variables (with a
# value: STROBE_TRACE=a,b), types and their members, names with an underscore, calls,
# file names.
IDENT = re.compile(r"""(@\w+
                       |(?<![\w-])--[a-z][\w-]*(?:=[\w,.:\[\]/-]*)?
                       |\b[A-Z][A-Z0-9]*_\w*(?:\*|\(\))?(?:=[\w,.:/-]+)?
                       |\b(?:lib)?strobe-[\w.-]*\w
                       |\b[a-z]+\.\w*_\w*
                       |\bStrobe[A-Z]\w*(?:\.\w+)*
                       |(?:\$|\b)[A-Z]\w*(?:\.[A-Z]\w*)+
                       |\b\w*_\w+(?:\s?\(\))?
                       |\b\w+\(\)
                       |\b(?:[\w-]+/)*[\w-]+\.(?:h|c|md|a|so)\b)""", re.X)


def inline(text):
    """Comment text as Markdown: identifiers and @parameters as code, the rest escaped."""
    out = []
    for k, part in enumerate(re.split(r'(`[^`]*`)', text)):
        if k % 2:
            out.append(part)
            continue
        pieces = []
        last = 0
        for m in IDENT.finditer(part):
            if m.start() < last:
                continue
            word = m.group(0)
            end = m.end()
            while word[-1] in ',.:' and word.count('[') == word.count(']'):
                word, end = word[:-1], end - 1   # punctuation after a value, not in it
            pieces.append(escape(part[last:m.start()]))
            pieces.append('`%s`' % (word[1:] if word.startswith('@') else word))
            last = end
        pieces.append(escape(part[last:]))
        out.append(''.join(pieces))
    return LABEL_GROUP.sub(r'**\1:**', ''.join(out))


def escape(text):
    text = text.replace('\\', '\\\\').replace('*', '\\*').replace('<', '&lt;')
    return re.sub(r'(?<!\w)_|_(?!\w)', r'\\_', text)


def prose(lines):
    """Comment lines as Markdown: lines indented by two or more spaces are code; a line
    that starts with a label (Cost: …) starts an item of a list."""
    out = []
    code = []
    in_item = False

    def end_code():
        if code:
            trailing = 0
            while not code[-1].strip():
                code.pop()
                trailing += 1
            width = min(len(l) - len(l.lstrip()) for l in code if l.strip())
            out.append('```c')
            out.extend(l[width:] for l in code)
            out.append('```')
            if trailing:
                out.append('')
            code.clear()

    for line in lines:
        if line.startswith('  ') and line.strip():
            code.append(line)
            continue
        if code and not line.strip():
            code.append(line)
            continue
        end_code()
        if not line.strip():
            in_item = False
            out.append('')
        elif LABEL_GROUP.match(line):
            if out and out[-1] and not in_item:
                out.append('')
            out.append('- ' + inline(line))
            in_item = True
        else:
            out.append(('  ' if in_item else '') + inline(line))
    end_code()
    return '\n'.join(out).strip('\n')


def render(headers):
    md = ['# libstrobe API reference', '',
          '<!-- Generated by build-aux/gen-api-reference.py from runtime/include/strobe/*.h. '
          'Do not edit: change the headers\' comments and run the script; the test '
          'api-reference fails when this file differs from what it writes. -->', '',
          INTRO, '## Contents', '', '| Header | Symbols |', '|---|---|']
    for header in headers:
        names = [s.name for item in header.items if isinstance(item, Entry)
                 for _, syms, _ in item.decls for s in syms if public(s.name)]
        md.append('| [`strobe/%s`](#%s) | %s |' % (header.name, header_anchor(header.name), ', '.join(
            '[`%s`](#%s)' % (n, anchor(n)) for n in dict.fromkeys(names))))
    md.append('')
    for header in headers:
        md += ['## <a id="%s"></a>strobe/%s' % (header_anchor(header.name), header.name), '']
        if header.intro:
            md += [prose(header.intro), '']
        sections = []
        for item in header.items:
            if not isinstance(item, Entry) and item[0] == 'section':
                sections.append(item[1])
                continue
            if not isinstance(item, Entry):
                # A comment of its own (followed by a blank line): text of the section.
                if sections:
                    md += ['### %s' % sections[-1][:1].upper() + sections[-1][1:], '']
                    sections = []
                md += [prose(item[1]), '']
                continue
            decls = [(sig, [s for s in syms if public(s.name)], tr) for sig, syms, tr in item.decls]
            decls = [d for d in decls if d[1]]
            if not decls:
                continue
            if sections:
                md += ['### %s' % sections[-1][:1].upper() + sections[-1][1:], '']
                sections = []
            names = [s.name for _, syms, _ in decls for s in syms]
            md += ['#### %s' % ', '.join('<a id="%s"></a>`%s`' % (anchor(n), n)
                                         for n in dict.fromkeys(names)), '']
            md.append('```c')
            for sig, _, trailing in decls:
                md.append(sig)
            md += ['```', '']
            if item.comment:
                md += [prose(item.comment), '']
            notes = [(syms[0].name, tr) for sig, syms, tr in decls if tr]
            if notes and (item.comment or len(notes) > 1):
                for name, tr in notes:
                    md.append('- `%s`: %s' % (name, inline(' '.join(tr))))
                md.append('')
            elif notes:
                md += [inline(' '.join(notes[0][1])), '']
    return '\n'.join(md).rstrip('\n') + '\n'


def header_paths(root):
    found = sorted(glob.glob(os.path.join(root, HEADER_DIR, '*.h')))
    rank = {name: i for i, name in enumerate(ORDER)}
    return sorted(found, key=lambda p: (rank.get(os.path.basename(p), len(ORDER)), os.path.basename(p)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--check', action='store_true',
                    help='write nothing; fail when a public symbol is undocumented or %s is not current' % OUTPUT)
    ap.add_argument('--root', default=ROOT, help='the source tree (default: this script\'s)')
    args = ap.parse_args()

    headers, problems, paths = [], [], {}
    for path in header_paths(args.root):
        header, p = parse_header(path)
        headers.append(header)
        problems += p
        paths[header.name] = os.path.relpath(path, args.root)
    if not headers:
        sys.exit('gen-api-reference: no headers in %s' % os.path.join(args.root, HEADER_DIR))
    undocumented, count = check(headers, paths)
    problems += undocumented
    text = render(headers)
    out = os.path.join(args.root, OUTPUT)
    summary = ', '.join('%d %ss' % (n, kind) for kind, n in sorted(count.items()))

    if not args.check:
        with open(out, 'w', encoding='utf-8') as f:
            f.write(text)
        print('gen-api-reference: wrote %s (%d public symbols: %s)' % (OUTPUT, sum(count.values()), summary))
        for p in problems:
            print('gen-api-reference: ' + p, file=sys.stderr)
        sys.exit(1 if problems else 0)

    try:
        committed = open(out, encoding='utf-8').read()
    except OSError as e:
        committed = ''
        problems.append('%s: %s' % (OUTPUT, e.strerror))
    if committed != text:
        diff = list(difflib.unified_diff(committed.splitlines(), text.splitlines(),
                                         'committed ' + OUTPUT, 'from the headers', lineterm='', n=1))
        problems.append('%s is not what the headers say: run build-aux/gen-api-reference.py and commit it'
                        % OUTPUT)
        print('\n'.join(diff[:80]))
        if len(diff) > 80:
            print('… %d more lines of difference' % (len(diff) - 80))
    for p in problems:
        print('FAIL ' + p)
    if problems:
        sys.exit(1)
    print('ok   %d public symbols documented (%s); %s is current' % (sum(count.values()), summary, OUTPUT))


if __name__ == '__main__':
    main()
