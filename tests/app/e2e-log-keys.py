#!/usr/bin/python3
"""End to end, by keyboard only (issue 24 item 18): start `strobe FILE`, bring the trace's
Log page to the front (the table takes the keyboard focus), press Down then Space — the
row under the keyboard cursor must be selected, as in every list a person knows — then
Ctrl+C, and read the clipboard: it holds that row (time, thread, verbosity, category,
message, as TSV). On main, Space after Down left nothing selected and Ctrl+C copied
nothing.

Usage: e2e-log-keys.py STROBE-BINARY TRACE-FILE (tests/data/golden-logmem.strobe)
Run inside dbus-run-session and xvfb-run (see tests/app/meson.build). Exits 77 (skip) when
the Atspi or GTK 4 bindings are missing. The keys are synthesised by the accessibility
registry (Atspi.generate_keyboard_event) on the X display; the clipboard is read with
GDK, as another application would paste it."""
import os
import shutil
import subprocess
import sys
import time

# The accessibility registry synthesises the keys, on the X display: it is started by the
# session bus, which dbus-run-session began before the X server was chosen. Tell the bus
# before anything starts the registry.
if shutil.which('dbus-update-activation-environment') and os.environ.get('DISPLAY'):
    subprocess.run(['dbus-update-activation-environment', 'DISPLAY', 'XAUTHORITY'], check=False)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from atspi_common import Atspi, text_of, wait_for, find_app, find, viewer  # noqa: E402
try:
    import gi
    gi.require_version('Gdk', '4.0')
    gi.require_version('Gtk', '4.0')
    from gi.repository import Gdk, GLib, Gtk
except (ImportError, ValueError) as e:
    print(f'skip: no GTK 4 bindings ({e})')
    sys.exit(77)

# The trace's messages in time order (tests/data/golden-logmem.strobe): the second one is
# where Down lands from the first.
SECOND = 'pool: 2 items of 64 bytes'
XK_DOWN, XK_SPACE, XK_C, XK_1, XK_3 = 0xff54, 0x20, 0x63, 0x31, 0x33
CONTROL_MASK, MOD1_MASK = 1 << 2, 1 << 3   # X11's ControlMask, Mod1Mask (Alt)


def key(sym):
    Atspi.generate_keyboard_event(sym, None, Atspi.KeySynthType.SYM)
    time.sleep(0.3)


def chord(mask, sym):
    """sym with a modifier held: the modifier locked (the synthesis types are not flags,
    a keysym is pressed and released whole), the key, then unlocked."""
    Atspi.generate_keyboard_event(mask, None, Atspi.KeySynthType.LOCKMODIFIERS)
    try:
        Atspi.generate_keyboard_event(sym, None, Atspi.KeySynthType.SYM)
    finally:
        Atspi.generate_keyboard_event(mask, None, Atspi.KeySynthType.UNLOCKMODIFIERS)
    time.sleep(0.3)


def ctrl(sym):
    chord(CONTROL_MASK, sym)


def alt(sym):
    chord(MOD1_MASK, sym)


def clipboard_text():
    """The clipboard's text as another application pastes it; None when empty."""
    clipboard = Gdk.Display.get_default().get_clipboard()
    loop = GLib.MainLoop()
    out = {}

    def done(source, result):
        try:
            out['text'] = source.read_text_finish(result)
        except GLib.Error as e:
            out['error'] = e.message
        loop.quit()

    clipboard.read_text_async(None, done)
    GLib.timeout_add(5000, loop.quit)
    loop.run()
    return out.get('text')


def main():
    binary, trace = sys.argv[1], sys.argv[2]
    Gtk.init()
    with viewer(binary, [trace]) as proc:
        app = wait_for('the application on the accessibility bus', lambda: find_app(proc.pid))
        switch = wait_for('the Log page button',
                          lambda: find(app, lambda n: n.get_role() in (Atspi.Role.PAGE_TAB, Atspi.Role.TOGGLE_BUTTON)
                                       and n.get_name() == 'Log'))
        switch.get_action_iface().do_action(0)
        table = wait_for('the log table', lambda: find(app, lambda n: n.get_name() == 'Log messages'))
        wait_for(f'the message {SECOND!r} in the table',
                 lambda: find(table, lambda n: text_of(n) == SECOND))
        # Showing the page puts the keyboard focus in the table, as a person finds it
        # (in the filter entry while the table is still empty): Alt+1 then Alt+3 show
        # the Overview and the Log again now that the rows are there. Without a window
        # manager the window is never "active", so the focused state cannot be waited
        # for: the keys below show whether the focus is there.
        alt(XK_1)
        alt(XK_3)
        time.sleep(1)

        key(XK_DOWN)
        key(XK_SPACE)
        ctrl(XK_C)
        text = wait_for('the copied row on the clipboard',
                        lambda: (clipboard_text() or '').strip() or None, timeout=10)
        print(f'clipboard: {text!r}')
        rows = text.splitlines()
        if len(rows) != 1 or SECOND not in rows[0]:
            sys.exit(f'FAIL: Ctrl+C after Down, Space copied {text!r}, not the one row {SECOND!r}')
    print('PASS')


if __name__ == '__main__':
    main()
