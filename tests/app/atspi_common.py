"""What the end-to-end tests (e2e-*.py) share: finding the viewer on the accessibility bus
and walking, searching and waiting on its accessible tree, as a screen reader sees it.
Importing it exits 77 (meson's skip) when the Atspi bindings are missing."""
import sys
import time
import warnings

warnings.simplefilter('ignore', DeprecationWarning)   # the *_iface getters, still the portable way

try:
    import gi
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi
except (ImportError, ValueError) as e:
    print(f'skip: no Atspi bindings ({e})')
    sys.exit(77)

TIMEOUT = 20


def walk(node, depth=0, max_depth=60):
    """Every accessible under node, depth first."""
    if node is None or depth > max_depth:
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
        yield from walk(child, depth + 1, max_depth)


def text_of(node):
    """The text a screen reader reads of node (its text interface), or None."""
    try:
        t = node.get_text_iface()
        if t is not None:
            return t.get_text(0, t.get_character_count())
    except Exception:
        pass
    return None


def wait_for(what, func, timeout=None):
    """func()'s first true answer, polled for timeout seconds (TIMEOUT when None, read at
    the call so a test may raise it); fails the test naming what."""
    end = time.time() + (TIMEOUT if timeout is None else timeout)
    while time.time() < end:
        try:
            found = func()
        except Exception:
            found = None
        if found:
            return found
        time.sleep(0.2)
    sys.exit(f'FAIL: timed out waiting for {what}')


def find_app(pid):
    """The application of process pid on the accessibility bus, or None."""
    desktop = Atspi.get_desktop(0)
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        try:
            if app is not None and app.get_process_id() == pid:
                return app
        except Exception:
            continue
    return None


def find_all(root, predicate):
    """Every accessible under root for which predicate holds (errors count as no)."""
    found = []
    for node in walk(root):
        try:
            if predicate(node):
                found.append(node)
        except Exception:
            continue
    return found


def find(root, predicate):
    """The first accessible under root for which predicate holds, or None."""
    for node in walk(root):
        try:
            if predicate(node):
                return node
        except Exception:
            continue
    return None
