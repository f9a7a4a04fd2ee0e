#!/usr/bin/python3
"""End to end, like a person: start `strobe FILE`, find its window through the
accessibility bus, read the trace's title and the program name on its overview, close the
trace's tab with its close button, and quit.

Usage: e2e-open-trace.py STROBE-BINARY TRACE-FILE [LANGUAGE]

With LANGUAGE (ru), the viewer runs in that language from the build tree and the labels
read are the translated ones.
Run inside dbus-run-session and xvfb-run (see tests/app/meson.build). Exits 77 (skip) when
the Atspi bindings are missing."""
import os
import subprocess
import sys
import tempfile
import time

try:
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi
except (ImportError, ValueError) as e:
    print(f'skip: no Atspi bindings ({e})')
    sys.exit(77)

TIMEOUT = 20


def walk(node, depth=0):
    """Every accessible under node, depth first."""
    if node is None or depth > 40:
        return
    yield node
    try:
        n = node.get_child_count()
    except Exception:
        return
    for i in range(n):
        try:
            child = node.get_child_at_index(i)
        except Exception:
            continue
        yield from walk(child, depth + 1)


def text_of(node):
    try:
        t = node.get_text_iface()
        if t is not None:
            return t.get_text(0, t.get_character_count())
    except Exception:
        pass
    return None


def wait_for(what, func):
    end = time.time() + TIMEOUT
    while time.time() < end:
        found = func()
        if found:
            return found
        time.sleep(0.2)
    sys.exit(f'FAIL: timed out waiting for {what}')


def find_app(pid):
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            continue
    return None


def find(app, predicate):
    for node in walk(app):
        try:
            if predicate(node):
                return node
        except Exception:
            continue
    return None


# What a person reads, per language: the overview's "Program" key, the tab's close button,
# the window's title once the tab is closed, and the header bar's Open button.
WORDS = {
    None: {'program': 'Program', 'close': 'Close “{}”', 'empty_title': 'Strobe', 'open': 'Open'},
    'ru': {'program': 'Программа', 'close': 'Закрыть «{}»', 'empty_title': 'Strobe', 'open': 'Открыть'},
}


def main():
    binary, trace = sys.argv[1], sys.argv[2]
    language = sys.argv[3] if len(sys.argv) > 3 else None
    words = WORDS[language]
    expected_title = os.path.basename(trace)[:-len('.strobe')]
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp, XDG_CACHE_HOME=tmp,
                   GTK_USE_PORTAL='0')
        env.pop('GTK_A11Y', None)
        env.pop('NO_AT_BRIDGE', None)
        if language:
            env.update(LANGUAGE=language, LANG='C.UTF-8')
            env.pop('LC_ALL', None)
        proc = subprocess.Popen([binary, '--store-dir', os.path.join(tmp, 'store'),
                                 '--recorder-port', '0', trace], env=env)
        try:
            app = wait_for('the application on the accessibility bus', lambda: find_app(proc.pid))
            frame = wait_for('the window', lambda: find(app, lambda n: n.get_role() == Atspi.Role.FRAME))
            title = wait_for('the trace title', lambda: (frame.get_name() or '').startswith(expected_title)
                             and frame.get_name())
            print(f'window title: {title!r}')
            program = wait_for('the program name on the overview',
                               lambda: find(app, lambda n: n.get_role() == Atspi.Role.LABEL
                                            and text_of(n) == 'rt-emitter'))
            print(f'overview shows: {text_of(program)!r}')
            key = wait_for(f'the overview key {words["program"]!r}',
                           lambda: find(app, lambda n: n.get_role() == Atspi.Role.LABEL
                                        and text_of(n) == words['program']))
            print(f'overview key reads: {text_of(key)!r}')
            # Buttons with mnemonics are named once, not "_Open Open".
            wait_for(f'the {words["open"]!r} button named plainly',
                     lambda: find(app, lambda n: n.get_role() == Atspi.Role.PUSH_BUTTON
                                  and n.get_name() == words['open']))
            close_name = words['close'].format(expected_title)
            close = wait_for('the tab close button',
                             lambda: find(app, lambda n: n.get_name() == close_name))
            action = close.get_action_iface()
            if action is None or action.get_n_actions() < 1:
                sys.exit('FAIL: the close button has no action')
            action.do_action(0)
            wait_for('the window title to drop the trace',
                     lambda: frame.get_name() == words['empty_title'])
            print('tab closed')
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    print('PASS')


if __name__ == '__main__':
    main()
