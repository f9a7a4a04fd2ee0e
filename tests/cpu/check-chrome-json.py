#!/usr/bin/env python3
"""check-chrome-json.py STROBE_CLI DATA_DIR: `strobe-cli export --format=chrome-json` of the
golden CPU traces parses as JSON and matches the trace: one complete ("X") event per
scope with the counts of `stats`, properly nested per thread, thread names, frames,
bookmarks, region begin/end pairs and counter samples."""
import json
import os
import subprocess
import sys

cli, data = sys.argv[1], sys.argv[2]
env = dict(os.environ, LC_ALL='C')


def run(*args):
    return subprocess.run([cli, *args], check=True, capture_output=True, text=True, env=env).stdout


def stats_counts(trace):
    counts = {}
    for line in run('stats', trace).splitlines()[1:]:
        cols = line.split()
        counts[cols[0]] = int(cols[1])
    return counts


def check(trace, expect):
    doc = json.loads(run('export', '--format=chrome-json', trace))
    assert doc['displayTimeUnit'] == 'ns'
    events = doc['traceEvents']
    names = {e['tid']: e['args']['name'] for e in events if e['ph'] == 'M' and e['name'] == 'thread_name'}
    frame_tids = {tid for tid, n in names.items() if n.startswith('Frames')}
    scopes = [e for e in events if e['ph'] == 'X' and e['tid'] not in frame_tids]
    counts = {}
    for e in scopes:
        counts[e['name']] = counts.get(e['name'], 0) + 1
        assert e['dur'] >= 0 and e['tid'] in names, e
    assert counts == stats_counts(trace), (counts, stats_counts(trace))
    # Nesting per thread: sorted by (ts, -dur), each event ends inside the enclosing one.
    eps = 0.0015  # the export rounds to ns
    by_tid = {}
    for e in scopes:
        by_tid.setdefault(e['tid'], []).append(e)
    for tid, evs in by_tid.items():
        evs.sort(key=lambda e: (e['ts'], -e['dur']))
        stack = []
        for e in evs:
            while stack and stack[-1]['ts'] + stack[-1]['dur'] <= e['ts'] + eps and not (
                    e['ts'] + e['dur'] <= stack[-1]['ts'] + stack[-1]['dur'] + eps and e['ts'] >= stack[-1]['ts']):
                stack.pop()
            if stack:
                top = stack[-1]
                assert e['ts'] + e['dur'] <= top['ts'] + top['dur'] + eps, (top, e)
            stack.append(e)
    kinds = {}
    for e in events:
        kinds[e['ph']] = kinds.get(e['ph'], 0) + 1
    for ph, n in expect.items():
        assert kinds.get(ph, 0) == n, (trace, ph, kinds.get(ph, 0), n)
    return names


names = check(os.path.join(data, 'golden-cpu-synthetic.strobe'),
              # 3 game frames + 1 render frame + 22 scopes; 2 bookmarks; 3 regions; 7 samples
              {'X': 26, 'i': 2, 'b': 3, 'e': 3, 'C': 7})
assert 'Main (Game)' in names.values() and 'Worker (Jobs)' in names.values(), names
names = check(os.path.join(data, 'golden-cpu-threads.strobe'), {'X': 218})
for n in ('Alpha (GroupA)', 'Beta (GroupA)', 'Gamma (GroupB)', 'Delta (GroupB)'):
    assert n in names.values(), names
print('ok')
