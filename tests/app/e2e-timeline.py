#!/usr/bin/python3
"""End to end, like a person with a screen reader: start `strobe FILE`, open the trace's
Timeline page, find the timeline by its accessible name, select a scope (Space), select a
range with the keyboard (Shift+Right), and read the timers table's rows, which must follow
the selection — and so must the details panel's "In the range" line for the selected
scope (issue 24 item 3: it kept the whole trace's count).

Usage: e2e-timeline.py STROBE-BINARY TRACE-FILE
Run inside dbus-run-session and xvfb-run (see tests/app/meson.build). Exits 77 (skip) when
the Atspi bindings are missing. The keys are synthesised by the accessibility registry
(Atspi.generate_keyboard_event), as an on-screen keyboard or a screen reader would."""
import os
import subprocess
import sys
import shutil
import time


# The accessibility registry synthesises the keys, on the X display: it is started by the
# session bus, which dbus-run-session began before the X server was chosen. Tell the bus
# before anything starts the registry.
if shutil.which('dbus-update-activation-environment') and os.environ.get('DISPLAY'):
    subprocess.run(['dbus-update-activation-environment', 'DISPLAY', 'XAUTHORITY'], check=False)


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from atspi_common import Atspi, walk, text_of, wait_for, find_app, find, viewer  # noqa: E402
import atspi_common  # noqa: E402
atspi_common.TIMEOUT = 30


def shift_right(times):
    """Shift held (as a locked modifier: the synthesis types are not flags, a keysym is
    always pressed and released) and Right pressed times."""
    shift_mask, right = 1, 0xff53   # ShiftMask, XK_Right
    Atspi.generate_keyboard_event(shift_mask, None, Atspi.KeySynthType.LOCKMODIFIERS)
    try:
        for _ in range(times):
            Atspi.generate_keyboard_event(right, None, Atspi.KeySynthType.SYM)
            time.sleep(0.05)
    finally:
        Atspi.generate_keyboard_event(shift_mask, None, Atspi.KeySynthType.UNLOCKMODIFIERS)


def table_rows(table):
    """The rows a column view has made (its list's rows, not the header's) as lists of
    cell texts."""
    rows = []
    body = find(table, lambda n: n.get_role() == Atspi.Role.LIST)
    if body is None:
        return rows
    for i in range(body.get_child_count()):
        row = body.get_child_at_index(i)
        cells = []
        for cell in walk(row):
            if cell.get_role() == Atspi.Role.LABEL:
                cells.append(text_of(cell) or '')
        if cells and cells[0]:
            rows.append(cells)
    return rows


def main():
    binary, trace = sys.argv[1], sys.argv[2]
    with viewer(binary, [trace]) as proc:
        app = wait_for('the application on the accessibility bus', lambda: find_app(proc.pid))
        page = wait_for('the Timeline page button',
                        lambda: find(app, lambda n: n.get_name() == 'Timeline'
                                     and n.get_role() in (Atspi.Role.TOGGLE_BUTTON, Atspi.Role.PUSH_BUTTON,
                                                          Atspi.Role.PAGE_TAB, Atspi.Role.RADIO_BUTTON)))
        action = page.get_action_iface()
        if action is None or action.get_n_actions() < 1:
            sys.exit('FAIL: the Timeline page button has no action')
        action.do_action(0)
        # The page holding the timeline is named after it too: the timeline itself is
        # the one that describes what it shows.
        timeline = wait_for('the timeline, by its accessible name',
                            lambda: find(app, lambda n: n.get_name() == 'Timeline'
                                         and n.get_role() in (Atspi.Role.PANEL, Atspi.Role.GROUPING,
                                                              Atspi.Role.FILLER)
                                         and (n.get_description() or '').startswith('Showing')))
        print(f'timeline: {timeline.get_role_name()}')
        table = wait_for('the timers table',
                         lambda: find(app, lambda n: n.get_name() == 'Timers'
                                      and n.get_role() in (Atspi.Role.TREE_TABLE, Atspi.Role.TABLE)))
        whole = wait_for('the timers of the whole trace', lambda: table_rows(table))
        print(f'whole trace: {len(whole)} rows, first {whole[0]}')
        names = [r[0] for r in whole]
        if 'Frame' not in names and 'RenderFrame' not in names:
            sys.exit(f'FAIL: the timers table has no Frame row: {names}')

        # Showing the page puts the keyboard focus on the timeline, as a person finds it
        # (ask for it too, where the toolkit implements that). Without a window manager
        # the window is never "active", so the focused state cannot be waited for: the
        # keys below show whether the focus is there.
        component = timeline.get_component_iface()
        if component is not None:
            try:
                component.grab_focus()
            except Exception:
                pass
        # Space selects the scope at the keyboard cursor: the details say its name's
        # statistics "In the range".
        Atspi.generate_keyboard_event(0x20, None, Atspi.KeySynthType.SYM)   # XK_space

        def details():
            node = find(app, lambda n: n.get_role() == Atspi.Role.LABEL
                        and 'In the range:' in (text_of(n) or ''))
            return node
        details_label = wait_for('the details of the selected scope', details, timeout=10)
        scope = (details_label.get_description() or '').split('\n')[0]
        print(f'selected scope {scope!r}: {text_of(details_label)!r}')

        shift_right(3)
        def described():
            timeline.clear_cache()     # the description is cached, and not announced
            d = timeline.get_description() or ''
            return d if 'Selection from' in d else None
        description = wait_for('a selection in the timeline description', described,
                               timeout=10)
        print(f'after Shift+Right ×3: {description!r}')
        label = wait_for('the timers panel to say it covers the selection',
                         lambda: find(app, lambda n: n.get_role() == Atspi.Role.LABEL
                                      and (text_of(n) or '').startswith('Selection (')))
        print(f'timers cover: {text_of(label)!r}')

        def changed():
            rows = table_rows(table)
            return rows if rows and rows != whole else None
        part = wait_for('the timers of the selected range', changed)
        print(f'selection: {len(part)} rows, first {part[0]}')
        # Three steps of Shift+Right select three twentieths of the view: fewer frames,
        # less time than the whole trace.
        def cells(rows, name):
            for r in rows:
                if r[0] == name and len(r) > 2:
                    return r
            return None
        # The details panel follows the new range: its count is the timers' row's.
        def range_calls(text):
            for line in (text or '').split('\n'):
                if line.startswith('In the range:'):
                    return line.split(':', 1)[1].split('calls')[0].strip()
            return None
        row = cells(part, scope)
        if scope and row is not None:
            def follows():
                details_label.clear_cache()
                got = range_calls(text_of(details_label))
                return got if got == row[1] else None
            try:
                wait_for(f'the details to say {row[1]} calls of {scope} in the range', follows, timeout=10)
            except Exception:
                sys.exit(f'FAIL: the details say {range_calls(text_of(details_label))!r} calls of {scope} '
                         f'in the range, the timers {row[1]!r}')
            print(f'details follow the range: {row[1]} calls of {scope}')
        else:
            sys.exit(f'FAIL: the selected scope {scope!r} has no row in the range {part}')
        w, p = cells(whole, 'Frame'), cells(part, 'Frame')
        print(f'Frame: whole {w[1:3] if w else None}, selection {p[1:3] if p else None}')
        if w is None or p is None:
            sys.exit('FAIL: no Frame row in the whole trace or the selection')
        if not 0 < int(p[1].replace(' ', '').replace('\u202f', '')) < int(w[1].replace(' ', '').replace('\u202f', '')):
            sys.exit(f'FAIL: the selection has {p[1]} frames, the whole trace {w[1]}')
    print('PASS')


if __name__ == '__main__':
    main()
