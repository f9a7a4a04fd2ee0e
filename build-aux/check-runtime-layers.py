#!/usr/bin/env python3
"""Checks that the runtime's files call downward only: no two objects of libstrobe.a
need each other, directly or through others (runtime/README.md, "Inside").
    build-aux/check-runtime-layers.py [--nm NM] path/to/libstrobe.a
An object needs another when it takes a symbol (a function or a variable, `nm` U) that
the other alone defines. A loop of such needs is a knot: its files can only be understood,
tested and linked together. It fails naming each knot's objects and, for every need inside
it, the symbols taken; a lower part reaches a higher one through a hook instead
(strobe-private.h, "the layers"). On success it prints the objects bottom first, each at
the height of the highest object it needs plus one. Only the Python standard library and
binutils' nm."""
import argparse
import collections
import re
import subprocess
import sys


def read_archive(nm, archive):
    """member → (defined symbols, undefined symbols)."""
    out = subprocess.run([nm, '--print-file-name', archive], check=True,
                         capture_output=True, text=True).stdout
    members = collections.defaultdict(lambda: (set(), set()))
    for line in out.splitlines():
        m = re.match(r'^.*?:([^:/]+\.o):\s*(.*)$', line)
        if not m:
            continue
        member, rest = m.group(1), m.group(2)
        parts = rest.split()
        if len(parts) == 2 and parts[0] == 'U':
            members[member][1].add(parts[1])
        elif len(parts) == 3 and parts[1] in 'TDBRVWGSC':
            members[member][0].add(parts[2])
    return members


def needs(members):
    """member → {member it needs: [symbols]}."""
    owners = collections.defaultdict(set)
    for member, (defined, _) in members.items():
        for symbol in defined:
            owners[symbol].add(member)
    graph = {member: collections.defaultdict(list) for member in members}
    for member, (_, undefined) in members.items():
        for symbol in sorted(undefined):
            found = owners.get(symbol, set())
            if len(found) == 1 and member not in found:
                graph[member][next(iter(found))].append(symbol)
    return graph


def knots(graph):
    """The strongly connected components of more than one object (Tarjan, iterative)."""
    index, low, on_stack, stack, result = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            pushed = False
            for succ in edges:
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    pushed = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if pushed:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    result.append(sorted(component))
    return result


def heights(graph):
    height = {}

    def of(member):
        if member not in height:
            height[member] = 0
            height[member] = 1 + max((of(m) for m in graph[member]), default=0)
        return height[member]

    for member in graph:
        of(member)
    return height


def name(member):
    return member.replace('src_', '').replace('.c.o', '.c')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--nm', default='nm')
    parser.add_argument('archive')
    args = parser.parse_args()
    graph = needs(read_archive(args.nm, args.archive))
    found = knots(graph)
    for component in found:
        inside = set(component)
        print('FAIL %d objects need each other: %s' % (len(component), ', '.join(map(name, component))))
        for member in component:
            for other, symbols in sorted(graph[member].items()):
                if other in inside:
                    print('  %s -> %s: %s' % (name(member), name(other), ', '.join(symbols)))
    if found:
        return 1
    height = heights(graph)
    by_height = collections.defaultdict(list)
    for member, h in height.items():
        by_height[h].append(name(member))
    for h in sorted(by_height):
        print('%2d  %s' % (h, ' '.join(sorted(by_height[h]))))
    print('ok   %d objects, %d needs between them, no knot'
          % (len(graph), sum(len(g) for g in graph.values())))
    return 0


if __name__ == '__main__':
    sys.exit(main())
