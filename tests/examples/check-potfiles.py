#!/usr/bin/env python3
"""check-potfiles.py ROOT: every source of the viewer and core that marks strings for
translation is listed in po/POTFILES.in, and every file listed there exists. A file
missing from the list is never extracted, so its strings stay English in every language
(the status bar's "Recording on ..." did)."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
MARK = re.compile(r'\b(?:N?C?_|g_dpgettext2|g_dngettext|ngettext|NC_)\s*\(\s*"|translatable="yes"')
listed = set()
for line in (root / 'po' / 'POTFILES.in').read_text().splitlines():
    line = line.strip()
    if line and not line.startswith('#'):
        listed.add(line)

marked = set()
for top in ('app', 'core'):
    for path in sorted((root / top).rglob('*')):
        if path.suffix not in ('.c', '.ui') or not path.is_file():
            continue
        if MARK.search(path.read_text(errors='replace')):
            marked.add(str(path.relative_to(root)))

missing = sorted(marked - listed)
gone = sorted(p for p in listed if not (root / p).exists())
for p in missing:
    print(f'po/POTFILES.in: {p} marks strings for translation but is not listed')
for p in gone:
    print(f'po/POTFILES.in: {p} is listed but does not exist')
if missing or gone:
    sys.exit(1)
print(f'{len(listed)} files listed, {len(marked)} with translatable strings: all listed')
