#!/usr/bin/python3
"""End to end, like a person: start `strobe FILE`, bring the trace's Memory page to the
front with its switcher button, run the leaks query with its button, and read the leaked
bytes: the query's totals, each leak's size from the allocations table, and the summary's
"Leaked at end"; then that every control shown on the page has an accessible name.

Usage: e2e-memory-leaks.py STROBE-BINARY TRACE-FILE (tests/data/golden-memview.strobe)
Run inside dbus-run-session and xvfb-run (see tests/app/meson.build). Exits 77 (skip) when
the Atspi bindings are missing."""
import os
import re
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from atspi_common import Atspi, walk, text_of, wait_for, find_app, find, find_all, viewer  # noqa: E402
# strobe_format_count groups digits with a narrow no-break space in the C locale, and
# g_format_size puts a no-break space before the unit.
LEAK_SIZE = '1\u202f234'
TOTALS = '10 allocations, 12\u202f340 bytes (12.3\u00a0kB)'
LEAKED = '12.3\u00a0kB (12\u202f340 bytes) in 10 allocations'


def cells(table, text):
    """The cells of the table showing text (what a screen reader reads of them)."""
    return find_all(table, lambda n: n.get_role() not in (Atspi.Role.TABLE, Atspi.Role.TREE_TABLE)
                    and text_of(n) == text)


CONTROLS = (Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON, Atspi.Role.CHECK_BOX, Atspi.Role.RADIO_BUTTON,
            Atspi.Role.COMBO_BOX, Atspi.Role.ENTRY, Atspi.Role.SPIN_BUTTON, Atspi.Role.PAGE_TAB,
            Atspi.Role.SLIDER, Atspi.Role.MENU_ITEM)


def page_of(app):
    """The Memory page: the smallest ancestor of its graph that holds the Run Query button."""
    graph = find(app, lambda n: n.get_name() == 'Memory over time')
    node = graph
    while node is not None:
        if find(node, lambda n: n.get_role() == Atspi.Role.PUSH_BUTTON and n.get_name() == 'Run Query'):
            return node
        node = node.get_parent()
    sys.exit('FAIL: no Memory page around the graph')


def unnamed_controls(app):
    """Each control a user can reach on the page, by role and position, that has no name."""
    found, checked = [], 0
    for node in walk(page_of(app)):
        try:
            if node.get_role() not in CONTROLS or not node.get_state_set().contains(Atspi.StateType.VISIBLE):
                continue
            checked += 1
            # GTK names a control it has no name for after its class.
            name = (node.get_name() or '').strip()
            if not name or re.fullmatch(r'Gtk[A-Za-z]+', name):
                found.append(f'{node.get_role_name()} in {node.get_parent().get_role_name()} '
                             f'{node.get_parent().get_name()!r}')
        except Exception:
            continue
    if checked < 10:
        sys.exit(f'FAIL: only {checked} controls found on the Memory page')
    print(f'controls checked: {checked}')
    return found


def main():
    binary, trace = sys.argv[1], sys.argv[2]
    with viewer(binary, [trace], {'LC_ALL': 'C.UTF-8'}) as proc:
        app = wait_for('the application on the accessibility bus', lambda: find_app(proc.pid))
        switch = wait_for('the Memory page button',
                          lambda: find(app, lambda n: n.get_role() in (Atspi.Role.PAGE_TAB, Atspi.Role.TOGGLE_BUTTON)
                                       and n.get_name() == 'Memory'))
        switch.get_action_iface().do_action(0)
        run = wait_for('the Run Query button',
                       lambda: find(app, lambda n: n.get_role() == Atspi.Role.PUSH_BUTTON and n.get_name() == 'Run Query'))
        query = wait_for('the query chooser', lambda: find(app, lambda n: n.get_name() == 'Query'))
        print(f'query chooser: {query.get_role_name()}')
        run.get_action_iface().do_action(0)
        print('clicked: Run Query')
        totals = wait_for(f'the totals {TOTALS!r}',
                          lambda: find(app, lambda n: n.get_role() == Atspi.Role.LABEL and text_of(n) == TOTALS))
        print(f'totals: {text_of(totals)!r}')
        table = wait_for('the allocations table', lambda: find(app, lambda n: n.get_name() == 'Allocations'
                                                               and n.get_role() in (Atspi.Role.TABLE, Atspi.Role.TREE_TABLE)))
        sizes = wait_for(f'leaks of {LEAK_SIZE!r} bytes in the table', lambda: cells(table, LEAK_SIZE))
        tags = cells(table, 'Leaky')
        print(f'table: {len(sizes)} rows of {LEAK_SIZE!r} bytes, {len(tags)} of tag Leaky shown')
        if len(sizes) < 3 or len(tags) != len(sizes):
            sys.exit('FAIL: the table does not show the leaks')
        leaked = wait_for('the summary\'s leaked bytes',
                          lambda: find(app, lambda n: n.get_role() == Atspi.Role.LABEL and text_of(n) == LEAKED))
        print(f'summary: {text_of(leaked)!r}')
        unnamed = unnamed_controls(app)
        print(f'controls of the page without an accessible name: {unnamed}')
        if unnamed:
            sys.exit('FAIL: controls without an accessible name')
    print('PASS')


if __name__ == '__main__':
    main()
