#!/usr/bin/python3
"""End to end, like a person: start `strobe FILE`, bring the trace's Log page to the front
with its switcher button, read a message from the table, type a filter into the filter
entry, and read the one message left from the table (and that another one went away).

Usage: e2e-log-filter.py STROBE-BINARY TRACE-FILE (tests/data/golden-logmem.strobe)
Run inside dbus-run-session and xvfb-run (see tests/app/meson.build). Exits 77 (skip) when
the Atspi bindings are missing."""
import os
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from atspi_common import Atspi, text_of, wait_for, find_app, find, viewer  # noqa: E402
KEPT = 'connection to example.org:443 lost after 1.50 s'
GONE = 'pool: 2 items of 64 bytes'


def table_cell(table, text):
    """A cell of the table showing text (what a screen reader reads of it)."""
    return find(table, lambda n: n.get_role() not in (Atspi.Role.TABLE, Atspi.Role.TREE_TABLE)
                and text_of(n) == text)


def main():
    binary, trace = sys.argv[1], sys.argv[2]
    with viewer(binary, [trace]) as proc:
        app = wait_for('the application on the accessibility bus', lambda: find_app(proc.pid))
        switch = wait_for('the Log page button',
                          lambda: find(app, lambda n: n.get_role() in (Atspi.Role.PAGE_TAB, Atspi.Role.TOGGLE_BUTTON)
                                       and n.get_name() == 'Log'))
        switch.get_action_iface().do_action(0)
        table = wait_for('the log table', lambda: find(app, lambda n: n.get_name() == 'Log messages'))
        wait_for(f'the message {GONE!r} in the table', lambda: table_cell(table, GONE))
        print(f'table shows: {GONE!r}')

        entry = wait_for('the filter entry',
                         lambda: find(app, lambda n: n.get_name() == 'Filter messages'
                                      and n.get_editable_text_iface() is not None))
        editable = entry.get_editable_text_iface()
        editable.set_text_contents('example.org')
        print('typed: example.org')
        cell = wait_for(f'the message {KEPT!r} alone in the table',
                        lambda: not table_cell(table, GONE) and table_cell(table, KEPT))
        print(f'table shows: {text_of(cell)!r}')
        count = wait_for('the count', lambda: find(app, lambda n: n.get_role() == Atspi.Role.LABEL
                                                    and text_of(n) == '1 of 6 messages'))
        print(f'status bar: {text_of(count)!r}')
    print('PASS')


if __name__ == '__main__':
    main()
