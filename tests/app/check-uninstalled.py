#!/usr/bin/env python3
"""Run from the build tree, the programs find their translations and the viewer its
settings schema without being installed; without a schema the viewer says what to do in
one sentence instead of aborting.

Usage: check-uninstalled.py STROBE-CLI STROBE TRACE"""
import os
import shutil
import subprocess
import sys
import tempfile

cli, viewer, trace = sys.argv[1:4]
failed = False


def check(what, ok, detail=''):
    global failed
    print(('ok   ' if ok else 'FAIL ') + what + ('' if ok else f': {detail}'))
    failed |= not ok


env = dict(os.environ, LANGUAGE='ru', LANG='C.UTF-8')
env.pop('LC_ALL', None)
out = subprocess.run([cli, 'info', trace], env=env, capture_output=True, text=True)
check('strobe-cli from the build tree speaks Russian', 'Программа:' in out.stdout, out.stdout[:200])
env['LANGUAGE'] = 'zh_CN'
out = subprocess.run([cli, 'info', trace], env=env, capture_output=True, text=True)
check('strobe-cli from the build tree speaks Chinese', '程序' in out.stdout, out.stdout[:200])

# A copy of the viewer outside the build tree, and no schema anywhere it may look.
with tempfile.TemporaryDirectory() as tmp:
    copy = os.path.join(tmp, 'strobe')
    shutil.copy(viewer, copy)
    env = dict(os.environ, GSETTINGS_SCHEMA_DIR=tmp, XDG_DATA_DIRS=tmp, LANGUAGE='', LANG='C.UTF-8')
    env.pop('DISPLAY', None)
    out = subprocess.run([copy, '--store-dir', os.path.join(tmp, 'store')], env=env,
                         capture_output=True, text=True, timeout=60)
    check('the viewer without a schema exits with an error', out.returncode == 1, str(out.returncode))
    lines = [l for l in out.stderr.splitlines() if l.strip()]
    check('…saying in one line how to run it',
          len(lines) == 1 and 'settings schema org.strobe.Viewer is not installed' in lines[0]
          and 'meson devenv' in lines[0], out.stderr)

sys.exit(1 if failed else 0)
