# bench-python-churn.py — an irregular Python workload strobe-bench-mem runs with
# PYTHONMALLOC=malloc: dicts and lists of random shapes through json.dumps and json.loads,
# a live set of 2000 objects whose members die in random order — allocations whose sizes,
# call stacks and lifetimes do not repeat from one iteration to the next (bench-python.py's
# do). Seeded: the same allocations every run. Usage: python3 bench-python-churn.py [N]
import json
import random
import sys


def run(n):
    rng = random.Random(42)
    live = []
    total = 0
    for i in range(n):
        d = {"id": i, "name": "n%d" % rng.randrange(100000),
             "vals": [rng.random() for _ in range(rng.randrange(1, 8))],
             "sub": {str(k): k * i for k in range(rng.randrange(0, 5))}}
        s = json.dumps(d)
        e = json.loads(s)
        total += len(s) + len(e["vals"])
        if rng.random() < 0.3:
            live.append(e)
        if len(live) > 2000:
            del live[rng.randrange(len(live))]
    return total


print(run(int(sys.argv[1]) if len(sys.argv) > 1 else 100000))
