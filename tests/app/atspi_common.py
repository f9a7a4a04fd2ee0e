"""What the end-to-end tests (e2e-*.py) share: finding the viewer on the accessibility bus
and walking, searching and waiting on its accessible tree, as a screen reader sees it.
Importing it exits 77 (meson's skip) when the Atspi bindings are missing."""
import contextlib
import os
import subprocess
import sys
import tempfile
import time
import warnings

warnings.simplefilter('ignore', DeprecationWarning)   # the *_iface getters, still the portable way

# meson's environment makes GLib criticals fatal (G_DEBUG=fatal-criticals). That is for the
# viewer; in this process libatspi logs a critical when the accessibility bus answers late
# (a loaded machine), and wait_for's next try is what is wanted, not a trap. GLib reads
# G_DEBUG once it is loaded, so it goes before gi is imported.
VIEWER_G_DEBUG = os.environ.pop('G_DEBUG', None)

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


@contextlib.contextmanager
def viewer(binary, args, env_extra=None, env_drop=()):
    """Starts the viewer BINARY with ARGS in a throw-away home (its own store, recorder on
    a free port, no portal) with the accessibility bridge on, and yields its process; stops
    it by its PID on the way out, killing it if SIGTERM is not enough. env_extra overrides
    the environment; env_drop names variables to remove."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp, XDG_CACHE_HOME=tmp,
                   GTK_USE_PORTAL='0')
        if VIEWER_G_DEBUG is not None:
            env['G_DEBUG'] = VIEWER_G_DEBUG
        for name in ('GTK_A11Y', 'NO_AT_BRIDGE') + tuple(env_drop):
            env.pop(name, None)
        env.update(env_extra or {})
        proc = subprocess.Popen([binary, '--store-dir', os.path.join(tmp, 'store'),
                                 '--recorder-port', '0'] + list(args), env=env)
        try:
            yield proc
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
