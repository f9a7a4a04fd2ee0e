# bench-python.py — the Python workload strobe-bench-mem runs with PYTHONMALLOC=malloc
# (every object a malloc): strings, dicts, lists and formatting in a loop, about ten
# allocations per iteration, a bounded live set. Usage: python3 bench-python.py [N]
import sys


def run(n):
    total = 0
    table = {}
    for i in range(n):
        s = "item-%d" % i
        d = {"name": s, "value": i, "tags": [s, str(i * 3)]}
        table[i % 1000] = d
        total += len(d["tags"][1]) + len(s.upper())
    return total


print(run(int(sys.argv[1]) if len(sys.argv) > 1 else 900000))
