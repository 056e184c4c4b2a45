#!/usr/bin/env python3
"""Independent oracle for clirr's --output files: BFS levels and Dijkstra
distances from networkx, on the same input file parsed here (not by
clirr's readers). Parallel arcs keep their smallest weight.

usage: oracle_networkx.py GRAPH SYMMETRIZE(0|1) SOURCE BFS_OUTPUT SSSP_OUTPUT
Prints the mismatch counts; exits 1 when any line differs."""
import gzip
import sys

import networkx as nx


def arcs(path):
    opener = gzip.open if path.endswith('.gz') else open
    name = path[:-3] if path.endswith('.gz') else path
    with opener(path, 'rt') as f:
        if name.endswith('.gr'):
            for line in f:
                if line.startswith('a '):
                    _, u, v, w = line.split()
                    yield int(u) - 1, int(v) - 1, int(w)
        elif name.endswith('.mtx'):
            symmetric, size_line = False, True
            for line in f:
                if line.startswith('%%'):
                    symmetric = 'symmetric' in line.lower()
                    continue
                if line.startswith('%') or not line.strip():
                    continue
                if size_line:
                    size_line = False
                    continue
                p = line.split()
                u, v = int(p[0]) - 1, int(p[1]) - 1
                w = round(float(p[2])) if len(p) > 2 else 1
                yield u, v, w
                if symmetric and u != v:
                    yield v, u, w
        else:
            for line in f:
                if not line.strip() or line[0] in '#%':
                    continue
                p = line.split()
                yield int(p[0]), int(p[1]), int(p[2]) if len(p) > 2 else 1


def main(path, symmetrize, source, bfs_out, sssp_out):
    g = nx.DiGraph()
    for u, v, w in arcs(path):
        for a, b in ([(u, v), (v, u)] if symmetrize == '1' else [(u, v)]):
            if g.has_edge(a, b):
                g[a][b]['w'] = min(g[a][b]['w'], w)
            else:
                g.add_edge(a, b, w=w)
    source = int(source)
    level = nx.single_source_shortest_path_length(g, source)
    dist = nx.single_source_dijkstra_path_length(g, source, weight='w')
    got_level = open(bfs_out).read().split()
    got_dist = open(sssp_out).read().split()
    bad_level = sum(str(level.get(i, -1)) != x for i, x in enumerate(got_level))
    bad_dist = sum((str(dist[i]) if i in dist else 'inf') != x for i, x in enumerate(got_dist))
    print(f'{path}: {len(got_level)} vertices, {len(level)} reached, '
          f'bfs mismatches {bad_level}, sssp mismatches {bad_dist}')
    return 1 if bad_level or bad_dist else 0


if __name__ == '__main__':
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
