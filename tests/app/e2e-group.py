#!/usr/bin/python3
"""End to end, like a person with a screen reader: `strobe --group CLIENT SERVER` (a client
and its server, tests/group/data) opens one tab with a section per process — a "Tracks of
…" button and a "Timeline of …" each —, and the flows between them listed ("Flows"):
activating one selects its span (the toolbar says "Selection: …"); the first process's
button hides its tracks; the Log, Memory and Timers pages are reached by their switcher
buttons and their controls are named (filter, Process selectors, Show the Peak, the
timers' grouping toggle, the tables).

Usage: e2e-group.py STROBE-BINARY CLIENT-TRACE SERVER-TRACE
Run inside dbus-run-session and xvfb-run (see tests/app/meson.build). Exits 77 (skip) when
the Atspi bindings are missing."""
import os
import subprocess
import sys
import shutil


if shutil.which('dbus-update-activation-environment') and os.environ.get('DISPLAY'):
    subprocess.run(['dbus-update-activation-environment', 'DISPLAY', 'XAUTHORITY'], check=False)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from atspi_common import Atspi, text_of, wait_for, find_app, find, find_all, viewer  # noqa: E402
import atspi_common  # noqa: E402
atspi_common.TIMEOUT = 30


def press(node):
    action = node.get_action_iface()
    if action is None or action.get_n_actions() < 1:
        sys.exit(f'FAIL: {node.get_name()!r} has no action')
    action.do_action(0)


def main():
    binary, client, server = sys.argv[1], sys.argv[2], sys.argv[3]
    with viewer(binary, ['--group', client, server]) as proc:
        app = wait_for('the application on the accessibility bus', lambda: find_app(proc.pid))

        def sections():
            found = find_all(app, lambda n: (n.get_name() or '').startswith('Tracks of group-pair (pid ')
                             and n.get_role() in (Atspi.Role.TOGGLE_BUTTON, Atspi.Role.PUSH_BUTTON))
            return found if len(found) == 2 else None
        buttons = wait_for('a "Tracks of" button per process', sections)
        print('sections:', [b.get_name() for b in buttons])

        def timelines():
            found = find_all(app, lambda n: (n.get_name() or '').startswith('Timeline of group-pair')
                             and (n.get_description() or '').startswith('Showing'))
            return found if len(found) == 2 else None
        shown = wait_for('a timeline per process', timelines)
        print('timelines:', [t.get_name() for t in shown])

        flows = wait_for('the flows list', lambda: find(app, lambda n: n.get_name() == 'Flows'))

        def rows():
            found = [n for n in find_all(flows, lambda n: n.get_role() == Atspi.Role.LABEL)
                     if '→' in (text_of(n) or '')]
            return found if len(found) == 3 else None
        labels = wait_for('three flows client → server → client', rows)
        for label in labels:
            text = text_of(label)
            if text.count('group-pair (pid') != 3:
                sys.exit(f'FAIL: a flow does not go client → server → client: {text!r}')
        print('flows:', [text_of(n) for n in labels])

        # Activate the first flow: its row is a button.
        press(labels[0].get_parent())

        def selection():
            node = find(app, lambda n: n.get_role() == Atspi.Role.LABEL
                        and (text_of(n) or '').startswith('Selection: '))
            return node
        label = wait_for('the selection of the flow\'s span', selection)
        print('after activating the first flow:', text_of(label))

        # The first process's button hides its tracks.
        press(buttons[0])

        def hidden():
            found = find_all(app, lambda n: (n.get_name() or '').startswith('Timeline of group-pair')
                             and n.get_state_set().contains(Atspi.StateType.VISIBLE))
            return found if len(found) == 1 else None
        wait_for('one timeline left showing', hidden)
        print('first process collapsed')

        # The other pages, each reached by its switcher button, their controls named.
        def page_button(title):
            return wait_for(f'the {title} page button',
                            lambda: find(app, lambda n: n.get_name() == title
                                         and n.get_role() in (Atspi.Role.PAGE_TAB, Atspi.Role.TOGGLE_BUTTON)))

        def named(name, roles):
            # GTK 4.8 reports no SHOWING state here: each page's controls are in the tree,
            # and the page button says which page is in front.
            return wait_for(f'{name!r} named', lambda: find(app, lambda n: n.get_name() == name
                                                            and n.get_role() in roles))

        def shown(title):
            button = page_button(title)
            press(button)
            wait_for(f'the {title} page in front',
                     lambda: button.get_state_set().contains(Atspi.StateType.CHECKED)
                     or button.get_state_set().contains(Atspi.StateType.SELECTED)
                     or button.get_state_set().contains(Atspi.StateType.PRESSED))

        shown('Log')
        named('Filter messages', (Atspi.Role.ENTRY, Atspi.Role.TEXT))
        named('Process', (Atspi.Role.COMBO_BOX,))
        named('Log messages', (Atspi.Role.TABLE, Atspi.Role.TREE_TABLE, Atspi.Role.LIST))
        print('log page: filter, process and table named')
        shown('Memory')
        named('Process', (Atspi.Role.COMBO_BOX,))
        named('Show the Peak', (Atspi.Role.PUSH_BUTTON,))
        print('memory page: process selector and peak button named')
        shown('Timers')
        # GTK 4.8 gives a toggle button the push button role.
        named('Group the timers by process', (Atspi.Role.TOGGLE_BUTTON, Atspi.Role.PUSH_BUTTON))
        named('Timers', (Atspi.Role.TABLE, Atspi.Role.TREE_TABLE, Atspi.Role.LIST))
        print('timers page: grouping toggle and table named')
    print('PASS')


if __name__ == '__main__':
    main()
