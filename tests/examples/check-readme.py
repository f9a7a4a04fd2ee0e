#!/usr/bin/env python3
"""The README's "instrument your program in five minutes" program, as a newcomer would use
it: compiled with the C compiler against the runtime, run with tracing on, and its trace read
back with strobe-cli.

Usage: check-readme.py README CC RUNTIME-INCLUDE-DIR LIBSTROBE-A STROBE-CLI [CFLAG…]
(the CFLAGs: what the build's libstrobe.a needs besides, e.g. its sanitizers)"""
import os
import re
import subprocess
import sys
import tempfile

readme, cc, include, lib, cli = sys.argv[1:6]
extra = sys.argv[6:]
text = open(readme, encoding='utf-8').read()
m = re.search(r'<!-- readme-example: begin -->\s*```c\n(.*?)```\s*<!-- readme-example: end -->', text, re.S)
if not m:
    sys.exit('FAIL: the README has no example between the readme-example markers')

with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, 'hello-strobe.c')
    exe = os.path.join(tmp, 'hello-strobe')
    trace = os.path.join(tmp, 'hello.strobe')
    open(src, 'w', encoding='utf-8').write(m.group(1))
    subprocess.run([cc, '-std=c11', '-Wall', '-Werror', *extra, '-I', include, src, lib, '-llz4', '-lzstd', '-lpthread',
                    '-lm', '-o', exe], check=True)
    subprocess.run([exe, '--trace=all', f'--tracefile={trace}'], check=True)
    env = dict(os.environ, LC_ALL='C')

    def cli_out(*args):
        return subprocess.run([cli, *args, trace], check=True, capture_output=True, text=True, env=env).stdout

    failed = False
    for what, ok in [
        ('100 Update scopes', re.search(r'^Update\s+100\s', cli_out('stats'), re.M)),
        ('100 packets', re.search(r'^\s+Net\.Packet\s.*\s100$', cli_out('info'), re.M)),
        ('4 log messages', len(cli_out('log').splitlines()) == 4),
        ('100 frames', re.search(r'^\s+Misc\.BeginFrame\s.*\s100$', cli_out('info'), re.M)),
        ('no leak', re.search(r'^Live at end:\s+0 bytes', cli_out('memory'), re.M)),
    ]:
        print(('ok   ' if ok else 'FAIL ') + what)
        failed |= not ok
    sys.exit(1 if failed else 0)
