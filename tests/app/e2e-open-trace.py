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
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from atspi_common import Atspi, text_of, wait_for, find_app, find, viewer  # noqa: E402


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
    env_extra, env_drop = {}, ()
    if language:
        env_extra, env_drop = {'LANGUAGE': language, 'LANG': 'C.UTF-8'}, ('LC_ALL',)
    with viewer(binary, [trace], env_extra, env_drop) as proc:
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
    print('PASS')


if __name__ == '__main__':
    main()
