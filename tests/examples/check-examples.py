#!/usr/bin/env python3
"""Each program of runtime/examples runs with tracing on and writes a trace; strobe-cli
reads it back, and what the example is about must be in it.

Usage: check-examples.py STROBE-CLI DIR-OF-EXAMPLES"""
import os
import re
import subprocess
import sys
import tempfile

cli, bindir = sys.argv[1], sys.argv[2]
failed = []


def run(*args):
    out = subprocess.run(args, capture_output=True, text=True, env=dict(os.environ, LC_ALL='C', TZ='UTC'))
    if out.returncode != 0:
        raise AssertionError(f'{args[0]} exited {out.returncode}: {out.stderr}')
    return out.stdout


def count(pattern, text):
    return len(re.findall(pattern, text, re.M))


def example(name, channels, checks):
    exe = os.path.join(bindir, name)
    if not os.path.exists(exe):
        print(f'skip {name} (not built)')
        return
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, name + '.strobe')
        try:
            run(exe, f'--trace={channels}', f'--tracefile={trace}')
            for what, command, test in checks:
                text = run(cli, command, trace)
                if not test(text):
                    raise AssertionError(f'{what}: `strobe-cli {command}` printed\n{text[:2000]}')
            print(f'ok   {name}')
        except AssertionError as e:
            print(f'FAIL {name}: {e}')
            failed.append(name)


def stat_count(name, text):
    m = re.search(rf'^{re.escape(name)}\s+(\d+)\s', text, re.M)
    return int(m.group(1)) if m else -1


example('example-event', 'network', [
    ('100 packets', 'dump', lambda t: count(r'\bNet\.Packet\b.*Bytes=', t) == 100),
    ('the channel is the program\'s own', 'info', lambda t: re.search(r'^\s+Network\s+0x\w+\s+enabled', t, re.M)),
])
example('example-scopes', 'cpu,frame,counters,bookmark', [
    ('60 physics scopes', 'stats', lambda t: stat_count('Physics', t) == 60),
    ('dynamic names', 'stats', lambda t: stat_count('Think: Wolf', t) == 120),
    ('60 game frames', 'info', lambda t: re.search(r'Misc\.BeginFrame\s.*\s60$', t, re.M)),
    ('the counter', 'info', lambda t: re.search(r'Counters\.SetInt\s.*\s60$', t, re.M)),
])
example('example-logging', 'log', [
    ('every message but the filtered one', 'log', lambda t: len(t.splitlines()) == 6
     and 'attempt 3 of 3' in t and 'filtered out' not in t),
    ('formatted like printf', 'log', lambda t: 'connect to example.org:443 failed (attempt 1 of 3)' in t
     and 'round trip 23.50 ms' in t),
])
example('example-allocator', 'memory', [
    ('three leaks of 64 bytes', 'memory', lambda t: re.search(r'^Leaks \(\d+, 192 bytes\)', t, re.M)),
    ('the pool and its tags', 'memory', lambda t: 'Block pool' in t and 'Sounds' in t and 'Meshes' in t),
    ('the churn is temporary', 'memory', lambda t: re.search(r'^Allocations:\s+109 .*\b100 temporary', t, re.M)),
])
example('example-no-worker', 'cpu', [
    ('100 ticks shipped by strobe_update', 'stats', lambda t: stat_count('Tick', t) == 100),
])
example('example-cpp', 'cpu,log', [
    ('scopes named by dynamic type', 'stats', lambda t: stat_count('Circle::area', t) == 25
     and stat_count('Square::area', t) == 25),
    ('a message', 'log', lambda t: 'total area of 50 shapes' in t),
])

sys.exit(1 if failed else 0)
