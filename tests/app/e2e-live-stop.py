#!/usr/bin/python3
"""End to end, like a person (issue 24 item 11, the recording lifecycle): the viewer runs
with its recorder on a free port; tests/control/control-target programs stream to it.

1. A live trace's tab has a Stop Recording button: pressed, the program ends its tracing
   (it keeps running), the trace ends complete (its record: finished, stopped by the
   user) and the Traces list says "Stopped" — not "Cut off", a crash's word.
2. Closing a live trace's tab asks: Cancel keeps the tab; Keep Recording closes the tab
   and the program goes on recording (live); Stop Recording closes it and stops.
3. The viewer killed with SIGTERM while a program records finishes that trace's record:
   an end time (so a duration) and "stopped", not a record left open.

Usage: e2e-live-stop.py STROBE-BINARY CONTROL-TARGET
Run inside dbus-run-session and xvfb-run (see tests/app/meson.build). Exits 77 (skip) when
the Atspi bindings are missing."""
import configparser
import glob
import os
import socket
import subprocess
import sys
import tempfile
import time


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from atspi_common import VIEWER_G_DEBUG, Atspi, text_of, wait_for, find_app, find  # noqa: E402


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def info_of(path):
    """The trace's .info sidecar ([Trace] keys), {} when it has none yet."""
    kf = configparser.ConfigParser(interpolation=None)
    kf.optionxform = str
    if not kf.read(path[:-len('.strobe')] + '.strobe.info'):
        return {}
    return dict(kf['Trace']) if 'Trace' in kf else {}


class Target:
    """A control-target streaming to the viewer's recorder; its trace's path once live."""

    def __init__(self, exe, env, store):
        before = set(glob.glob(os.path.join(store, '*.strobe')))
        self.proc = subprocess.Popen([exe, '2000'], env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith('ready '):
            sys.exit(f'FAIL: control-target said {line!r}')
        self.path = wait_for('the program\'s live trace in the store',
                             lambda: next(iter(set(glob.glob(os.path.join(store, '*.strobe'))) - before), None))
        self.name = os.path.basename(self.path)[:-len('.strobe')]
        print(f'live trace: {self.name}')

    def quit(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write('quit\n')
                self.proc.stdin.flush()
            except BrokenPipeError:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def named(app, role, name):
    """The first accessible of role named name (a mnemonic's underscore or not)."""
    return find(app, lambda n: n.get_role() == role and (n.get_name() or '') in (name, '_' + name)
                or n.get_role() == role and (n.get_name() or '').replace('_', '') == name.replace('_', ''))


def press(node):
    node.get_action_iface().do_action(0)


def main():
    binary, target_exe = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        store = os.path.join(tmp, 'store')
        run = os.path.join(tmp, 'run')
        os.mkdir(run, 0o700)
        port = free_port()
        env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp, XDG_CACHE_HOME=tmp,
                   XDG_RUNTIME_DIR=run, GTK_USE_PORTAL='0', LC_ALL='C.UTF-8')
        if VIEWER_G_DEBUG is not None:
            env['G_DEBUG'] = VIEWER_G_DEBUG
        env.pop('GTK_A11Y', None)
        env.pop('NO_AT_BRIDGE', None)
        env.pop('STROBE_TRACEFILE', None)
        target_env = dict(env, STROBE_TRACEHOST=f'127.0.0.1:{port}')
        proc = subprocess.Popen([binary, '--store-dir', store, '--recorder-port', str(port)], env=env)
        targets = []
        try:
            app = wait_for('the application on the accessibility bus', lambda: find_app(proc.pid))
            wait_for('the Traces list', lambda: named(app, Atspi.Role.PAGE_TAB, 'Traces') or
                     find(app, lambda n: text_of(n) == 'Traces'))

            def open_in_viewer(target):
                # `strobe FILE` opens the file in the running viewer, through its store.
                subprocess.run([binary, target.path], env=env, check=True, timeout=30)
                return wait_for('the trace\'s Stop Recording button',
                                lambda: named(app, Atspi.Role.PUSH_BUTTON, 'Stop Recording'))

            # 1. Stop Recording.
            first = Target(target_exe, target_env, store)
            targets.append(first)
            stop = open_in_viewer(first)
            print('pressing Stop Recording')
            press(stop)
            info = wait_for('the trace finished and stopped in its record',
                            lambda: (lambda i: i if i.get('Status') == 'finished' and i.get('Stopped') == 'true' else None)(info_of(first.path)))
            print(f'record: Status={info["Status"]} Stopped={info["Stopped"]} Ended={info.get("Ended")}')
            if not info.get('Ended'):
                sys.exit('FAIL: the stopped trace has no end time')
            if first.proc.poll() is not None:
                sys.exit('FAIL: Stop Recording ended the program, not its tracing')
            wait_for('the Stop Recording button gone once the trace ended',
                     lambda: not named(app, Atspi.Role.PUSH_BUTTON, 'Stop Recording')
                     or not named(app, Atspi.Role.PUSH_BUTTON, 'Stop Recording').get_state_set().contains(Atspi.StateType.VISIBLE))
            # The Overview says who ended it: the user, not the program.
            said = wait_for('the Overview saying the user stopped it',
                            lambda: find(app, lambda n: (text_of(n) or '').startswith('Stopped: you ended the recording')))
            print(f'Overview says: {text_of(said)!r}')
            # No longer live: its tab closes without a question, and the Traces list shows.
            first_close = f'Close “{first.name}”'
            press(wait_for(f'the tab button {first_close!r}', lambda: named(app, Atspi.Role.PUSH_BUTTON, first_close)))
            wait_for('the tab closed', lambda: not named(app, Atspi.Role.PUSH_BUTTON, first_close))
            if find(app, lambda n: (text_of(n) or '').startswith('Keep recording “')):
                sys.exit('FAIL: closing a stopped trace asked whether to keep recording')
            wait_for('"Stopped" in the Traces list', lambda: find(app, lambda n: text_of(n) == 'Stopped'))
            print('Traces list says: Stopped')

            # 2. Closing a live tab asks.
            second = Target(target_exe, target_env, store)
            targets.append(second)
            open_in_viewer(second)
            close_name = f'Close “{second.name}”'

            def ask_close():
                """The question closing the live tab asks: its dialog."""
                press(wait_for(f'the tab button {close_name!r}', lambda: named(app, Atspi.Role.PUSH_BUTTON, close_name)))
                dialog = wait_for('the question',
                                  lambda: find(app, lambda n: n.get_role() in (Atspi.Role.DIALOG, Atspi.Role.ALERT)
                                               and find(n, lambda m: (text_of(m) or '').startswith('Keep recording “'))))
                print(f'asked: {[text_of(m) for m in __import__("atspi_common").find_all(dialog, lambda m: m.get_role() == Atspi.Role.LABEL)]!r}')
                return dialog

            def answer(dialog, name):
                # A dialog's button is named by its mnemonic label inside it.
                press(wait_for(name, lambda: named(dialog, Atspi.Role.PUSH_BUTTON, name)
                               or find(dialog, lambda n: n.get_role() == Atspi.Role.PUSH_BUTTON
                                       and find(n, lambda m: text_of(m) in (name, '_' + name)))))
                print(f'answered: {name}')
                # GTK 4.8 answers an AT-SPI query about a window being destroyed with a
                # critical (a NULL object path): let the dialog go before walking again.
                time.sleep(1.5)

            answer(ask_close(), 'Cancel')
            time.sleep(1)
            if not named(app, Atspi.Role.PUSH_BUTTON, close_name):
                sys.exit('FAIL: Cancel closed the tab')
            print('Cancel: the tab stays')

            answer(ask_close(), 'Keep Recording')
            wait_for('the tab closed', lambda: not named(app, Atspi.Role.PUSH_BUTTON, close_name))
            time.sleep(1)
            if info_of(second.path).get('Status') or not os.path.exists(second.path[:-len('.strobe')] + '.strobe.live'):
                sys.exit(f'FAIL: Keep Recording did not keep the recording: {info_of(second.path)}')
            print('Keep Recording: the tab closed, the trace is still live')

            third = Target(target_exe, target_env, store)
            targets.append(third)
            open_in_viewer(third)
            close_name = f'Close “{third.name}”'
            answer(ask_close(), 'Stop Recording')
            wait_for('the tab closed', lambda: not named(app, Atspi.Role.PUSH_BUTTON, close_name))
            info = wait_for('the third trace finished and stopped',
                            lambda: (lambda i: i if i.get('Status') == 'finished' and i.get('Stopped') == 'true' else None)(info_of(third.path)))
            print(f'Stop Recording: record Status={info["Status"]} Stopped={info["Stopped"]}')

            # 3. SIGTERM while a program records (the second one still does).
            wait_for('the second trace growing', lambda: os.path.getsize(second.path) > 0)
            before_ns = time.time_ns()
            proc.terminate()
            proc.wait(timeout=30)
            info = info_of(second.path)
            print(f'after SIGTERM: {info}')
            if info.get('Stopped') != 'true' or not info.get('Ended') or int(info['Ended']) < before_ns - 10**9:
                sys.exit(f'FAIL: SIGTERM left the record unfinished: {info}')
            if os.path.exists(second.path[:-len('.strobe')] + '.strobe.live'):
                sys.exit('FAIL: SIGTERM left the live marker')
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            for t in targets:
                t.quit()
    print('PASS')


if __name__ == '__main__':
    main()
