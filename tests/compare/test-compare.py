#!/usr/bin/env python3
"""test-compare.py — `strobe-cli compare` end to end.

  golden      tests/data/golden-compare-{a,b}.strobe (compare-emitter, then with --changed):
              the text, CSV and JSON outputs and a gate over a range of frames, byte for byte
  must-show   the program recorded twice now, with the deliberate change: the comparison
              shows exactly that change (Physics twice as slow, spawn_particles new, one new
              warning) and nothing else; --fail-if exits 1 on the slower function, 0 on a
              threshold it does not cross, 2 on bad input
  exactness   every figure of A and of B equals what `strobe-cli stats` and `memory --by`
              print for that trace alone, on the golden pair and on two unrelated traces

Usage: test-compare.py STROBE_CLI COMPARE_EMITTER DATA_DIR [TEST…]
To re-record the goldens (only on purpose):
  _build/tests/compare/compare-emitter tests/data/golden-compare-a.strobe
  _build/tests/compare/compare-emitter tests/data/golden-compare-b.strobe --changed
  then run this with STROBE_UPDATE_GOLDEN=1.
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

CLI, EMITTER, DATA = sys.argv[1:4]
ENV = dict(os.environ, TZ="UTC", LC_ALL="C", LANGUAGE="")
GOLDENS = [
    ("golden-compare.text", ["--memory-by=tag"]),
    ("golden-compare.csv", ["--memory-by=tag", "--format=csv"]),
    ("golden-compare.json", ["--memory-by=tag", "--format=json"]),
    ("golden-compare-gate.text", ["--memory-by=tag", "--frames", "10-19", "--per", "frame",
                                  "--fail-if", "Physics:mean>+5%", "--fail-if", "Render:mean>+5%",
                                  "--fail-if", "memory.peak>+10%", "--fail-if", "log.warnings>+0"]),
    ("golden-compare-region.text", ["--memory-by=tag", "--region", "Level 1", "--metrics", "count,incl,p95"]),
]


def run(*args, cwd=None):
    p = subprocess.run([CLI, *args], cwd=cwd, env=ENV, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def test_golden():
    for name, args in GOLDENS:
        rc, out, err = run("compare", *args, "golden-compare-a.strobe", "golden-compare-b.strobe", cwd=DATA)
        want_rc = 1 if "--fail-if" in args else 0
        check(rc == want_rc, f"{name}: exit {rc}, not {want_rc}: {err}")
        path = os.path.join(DATA, name)
        if os.environ.get("STROBE_UPDATE_GOLDEN"):
            with open(path, "w") as f:
                f.write(out)
        with open(path) as f:
            want = f.read()
        check(out == want, f"{name} differs:\n{out}")
    # The JSON is JSON.
    with open(os.path.join(DATA, "golden-compare.json")) as f:
        json.load(f)


def compare_json(a, b, *args):
    rc, out, err = run("compare", "--format=json", *args, a, b)
    check(rc == 0, f"compare exit {rc}: {err}")
    return json.loads(out)


def changed(fig, tolerance=0.01):
    """A figure changed: by more than @tolerance % (two clocks' rounding stays below)."""
    if fig["a"] is None or fig["b"] is None:
        return True
    if fig["a"] == 0:
        return fig["b"] != 0
    return abs(fig["delta_percent"]) > tolerance


def test_must_show():
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "before.strobe"), os.path.join(tmp, "after.strobe")
        subprocess.run([EMITTER, a], check=True, timeout=60)
        subprocess.run([EMITTER, b, "--changed"], check=True, timeout=60)

        j = compare_json(a, b)
        timers = {r["name"]: r for r in j["sections"]["timers"]}
        check(set(timers) == {"Frame", "Update", "Physics", "AI", "Render"}, f"timers: {sorted(timers)}")
        for name, r in timers.items():
            check(r["in"] == "both", f"{name} is {r['in']}")
            moved = [k for k in ("count", "incl", "mean", "median", "p95", "max", "min") if changed(r[k])]
            if name == "Physics":
                check(moved == ["incl", "mean", "median", "p95", "max", "min"], f"Physics: {moved}")
                check(abs(r["mean"]["delta_percent"] - 100) < 0.01, f"Physics mean {r['mean']}")
                check(abs(r["mean"]["delta"] - 1.0) < 1e-4, f"Physics mean delta {r['mean']}")
                check(r["samples_a"] == 60 and r["samples_b"] == 60, "Physics samples")
            else:
                check(moved == [], f"{name} changed: {moved}")
                # Update's exclusive time gave Physics its extra millisecond.
                check(changed(r["excl"]) == (name == "Update"), f"{name} excl {r['excl']}")
        frames = j["sections"]["frames"]
        check([f["name"] for f in frames] == ["frame.game"] and not changed(frames[0]["mean"]), f"frames {frames}")

        sites = {r["name"]: r for r in j["sections"]["memory-sites"]}
        new = [n for n, r in sites.items() if r["in"] != "both"]
        check(new == ["spawn_particles"], f"new or gone sites: {new} of {sorted(sites)}")
        p = sites["spawn_particles"]
        check(p["in"] == "new" and p["allocations"]["b"] == 60 and p["bytes"]["b"] == 60 * 256
              and p["leaked"]["b"] == 60 * 256, f"spawn_particles {p}")
        for name in ("load_level", "spawn_entity"):
            r = sites[name]
            check(r["allocations"]["delta"] == 0 and r["bytes"]["delta"] == 0 and r["leaked"]["delta"] == 0,
                  f"{name} changed: {r}")
        total = j["sections"]["memory"][0]
        check(total["allocations"]["delta"] == 60 and total["bytes"]["delta"] == 15360
              and total["leaked"]["delta"] == 15360, f"memory total {total}")

        problems = j["sections"]["log-problems"]
        check(len(problems) == 1 and problems[0]["in"] == "new" and problems[0]["detail"] == "warning"
              and problems[0]["samples_b"] == 6 and "Physics over budget" in problems[0]["name"],
              f"warnings {problems}")

        # Between two bookmarks: Checkpoint and Boss mark frames 10 and 20's starts, so the
        # timers are those of frames 10–19, row for row.
        by_marks = compare_json(a, b, "--section", "timers,frames", "--bookmarks", "Checkpoint..Boss")
        by_frames = compare_json(a, b, "--section", "timers,frames", "--frames", "10-19")
        check(by_marks["sections"] == by_frames["sections"] and by_marks["sections"]["timers"],
              f"bookmarks vs frames:\n{by_marks['sections']}\n{by_frames['sections']}")
        rc, _, err = run("compare", "--bookmarks", "Boss..Checkpoint", a, b)
        check(rc == 2 and "no bookmark" in err, f"bookmarks in the wrong order: {rc} {err}")
        rc, _, err = run("compare", "--bookmarks", "Boss", a, b)
        check(rc == 2 and "FROM..TO" in err, f"--bookmarks without ..: {rc} {err}")

        # The gate: 1 for the slower function, with its row; 0 under the threshold; 2 on bad input.
        rc, out, _ = run("compare", "--fail-if", "Physics:mean>+5%", a, b)
        check(rc == 1 and "FAIL Physics:mean>+5%" in out and "    Physics: A 1.000 B 2.000" in out, f"gate {rc}:\n{out}")
        rc, out, _ = run("compare", "--fail-if", "Physics:mean>+150%", "--fail-if", "Render:p95>+1ms", a, b)
        check(rc == 0 and "FAIL" not in out, f"gate under the threshold: {rc}")
        rc, out, _ = run("compare", "--section", "timers", "--fail-if", "*:excl>+20%", a, b)
        failed = [l.split(":")[0].strip() for l in out.splitlines() if l.startswith("    ")]
        check(rc == 1 and failed == ["Physics"], f"*:excl>+20%: {rc} {failed}")
        rc, _, _ = run("compare", "--fail-if", "memory.leaked>+1000", "--fail-if", "log.warnings>+0", a, b)
        check(rc == 1, "memory and log checks")
        rc, _, _ = run("compare", "--min-count", "100", "--fail-if", "Physics:mean>+5%", a, b)
        check(rc == 0, "--min-count: 60 calls are too few to judge")
        rc, _, _ = run("compare", "--fail-if", "Physics:mean<-5%", a, b)
        check(rc == 0, "< is for a drop")
        rc, out, _ = run("compare", "--format=json", "--fail-if", "Physics:p95>+0.5ms", a, b)
        g = json.loads(out)["gate"]
        check(rc == 1 and g["failed"] == 1 and g["rows"][0]["samples_b"] == 60, f"json gate {g}")
        rc, out, _ = run("compare", "--format=csv", "--fail-if", "Physics:p95>+0.5ms", a, b)
        check(rc == 1 and "gate,Physics,failed,,60,60,Physics:p95>+0.5ms" in out, "csv gate")
        for bad in (["--fail-if", "Phyiscs:mean>+5%"], ["--fail-if", "Physics:avg>+5%"],
                    ["--fail-if", "Physics:count>+1ms"], ["--fail-if", "Physics:mean"],
                    ["--frames", "50-70"], ["--region", "Level 9"], ["--format", "xml"]):
            rc, _, err = run("compare", *bad, a, b)
            check(rc == 2 and err, f"{bad}: exit {rc}")
        rc, _, _ = run("compare", a, os.path.join(tmp, "missing.strobe"))
        check(rc == 2, "a missing trace is bad input")
        with open(os.path.join(tmp, "cut.strobe"), "wb") as f, open(b, "rb") as g:
            f.write(g.read()[:2000])
        rc, _, _ = run("compare", a, os.path.join(tmp, "cut.strobe"))
        check(rc == 2, "a damaged trace is bad input")


def stats_rows(trace):
    rc, out, err = run("stats", "--units", "ms", trace)
    check(rc == 0, err)
    rows = {}
    for line in out.splitlines()[1:]:
        f = line.split()
        rows[" ".join(f[:-7])] = f[-7:]   # count incl excl min max mean median
    return rows


def memory_rows(trace):
    rc, out, err = run("memory", "--by=tag", "--top=-1", "--max-leaks=0", trace)
    check(rc == 0, err)
    lines = out.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("By peak contribution")) + 2
    rows = {}
    for line in lines[start:]:
        f = line.split()
        if len(f) < 6:
            break
        rows[" ".join(f[5:])] = f[:5]      # peak leaked allocations temporary bytes
    return rows


def test_exactness():
    pairs = [(os.path.join(DATA, "golden-compare-a.strobe"), os.path.join(DATA, "golden-compare-b.strobe")),
             (os.path.join(DATA, "golden-timeline.strobe"), os.path.join(DATA, "golden-cpu-synthetic.strobe")),
             (os.path.join(DATA, "golden-memview.strobe"), os.path.join(DATA, "golden-logmem.strobe"))]
    checked = 0
    for a, b in pairs:
        rc, out, err = run("compare", "--format=csv", "--memory-by=tag", "--units", "ms", a, b)
        check(rc == 0, err)
        rows = list(csv.DictReader(io.StringIO(out)))
        for side, trace in (("a", a), ("b", b)):
            want = stats_rows(trace)
            got = {}
            for r in rows:
                if r["section"] == "timers" and r[side] != "":
                    got.setdefault(r["name"], {})[r["figure"]] = r[side]
            check(set(got) == set(want), f"{trace}: names {sorted(got)} vs {sorted(want)}")
            for name, w in want.items():
                g = got[name]
                mine = [g["count"], g["incl"], g["excl"], g["min"], g["max"], g["mean"], g["median"]]
                check(mine == w, f"{trace} {name}: compare {mine}, stats {w}")
                checked += 1
            want = memory_rows(trace)
            got = {}
            for r in rows:
                if r["section"] in ("memory", "memory-sites") and r[side] != "":
                    got.setdefault("(total)" if r["section"] == "memory" else r["name"], {})[r["figure"]] = r[side]
            check(set(got) == set(want), f"{trace}: memory rows {sorted(got)} vs {sorted(want)}")
            for name, w in want.items():
                g = got[name]
                mine = [g["peak"], g["leaked"], g["allocations"], g["temporary"], g["bytes"]]
                check(mine == w, f"{trace} memory {name}: compare {mine}, memory --by {w}")
                checked += 1
    print(f"exactness: {checked} rows equal")


TESTS = {"golden": test_golden, "must-show": test_must_show, "exactness": test_exactness}

if __name__ == "__main__":
    names = sys.argv[4:] or list(TESTS)
    for name in names:
        TESTS[name]()
        print(f"ok {name}")
