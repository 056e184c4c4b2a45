#!/usr/bin/env python3
"""Turn the output of tests/bench/color_matrix.sh into the README's markdown
table: per configuration and input, median kernel ms (median end-to-end ms)
/ colors; the serial greedy row is the median of the reference times.

    tests/bench/color_table.py OUT.csv
"""
import csv
import re
import sys

REF = re.compile(r'(?:\S+ )?\S+: reference color on (\S+) \(serial CPU\): ([\d.]+) ms, (\d+) colors')


def load(path):
    rows, refs, header = [], {}, None
    for line in open(path).read().splitlines():
        m = REF.match(line)
        if m:
            refs.setdefault(m.group(1), []).append((float(m.group(2)), int(m.group(3))))
        elif line.startswith('config,'):
            header = next(csv.reader([line]))
        elif header and line:
            rows.append(dict(zip(header, next(csv.reader([line])))))
    return rows, refs


def short(name):
    if 'a=0.45' in name:
        return 'rmat-g'
    if 'a=0.25' in name:
        return 'rmat-er'
    return 'grid' if name.startswith('grid') else name.rsplit('/', 1)[-1].split('.')[0]


def unique(seq):
    return list(dict.fromkeys(seq))


def main():
    rows, refs = load(sys.argv[1])
    inputs = unique(r['input'] for r in rows)
    print('| config | ' + ' | '.join(short(i) for i in inputs) + ' |')
    print('|---|' + '---|' * len(inputs))
    cells = []
    for i in inputs:
        times = sorted(t for t, _ in refs.get(i, []))
        cells.append(f'{times[len(times) // 2]:.1f} / {refs[i][0][1]}' if times else '-')
    print('| serial greedy (CPU) | ' + ' | '.join(cells) + ' |')
    for c in unique(r['config'] for r in rows):
        cells = []
        for i in inputs:
            r = next((x for x in rows if x['config'] == c and x['input'] == i), None)
            if r is None or r['status'] != 'ok':
                cells.append('n/a')
            else:
                cells.append(f"{float(r['kernel_ms_median']):.2f} ({float(r['total_ms_median']):.1f}) / {r['colors']}")
        print(f'| {c} | ' + ' | '.join(cells) + ' |')


if __name__ == '__main__':
    main()
