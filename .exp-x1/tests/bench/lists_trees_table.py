#!/usr/bin/env python3
"""tests/bench/lists_trees_table.py H100.json POCL.json - the tables of
tests/bench/RESULTS.md ("List ranking and tree computations") from the
JSON of tests/bench/lists_trees.sh on each device, with the study's GTX 280
numbers (shared/papers/003, its tables as printed) beside them. Times in ms:
kernel time (the sum of the profiled kernels) unless the column says total
(one trial end to end: kernels, transfers, host waits); medians of 3."""
import json
import sys

SIZES = [2 ** k for k in range(10, 27)]
NAMES = ["1K", "2K", "4K", "8K", "16K", "32K", "64K", "128K", "256K", "512K",
         "1M", "2M", "4M", "8M", "16M", "32M", "64M"]
# The study's rows, 1K..64M (Wyllie vs Core i7, original / stepwise /
# optimized, RHJ with both rules), 1K..32K (32-bit), 1M..16M (configs),
# 512K..16M (ordered lists), trees 1M..16M.
STUDY = {
    "gtx280_wyllie": [0.065, 0.087, 0.127, 0.22, 0.359, 0.686, 1.21, 2.747, 6.313, 12.48, 26.4, 56.84,
                      130.1, 279.6, 615.6, 1359, 2841],
    "core_i7": [0.006, 0.01, 0.018, 0.047, 0.105, 0.535, 1.357, 3.051, 6.395, 14.8, 35.09, 128.3, 324.3,
                730.1, 1582, 3352, 6929],
    "w32": [0.054, 0.069, 0.104, 0.166, 0.234, 0.417],
    "original": [0.07, 0.095, 0.153, 0.272, 0.395, 0.751, 1.242, 2.908, 6.603, 13.35, 28.85, 64.37, 148.4,
                 321.7, 708.4, 1565, 3294],
    "stepwise": [0.387, 0.423, 0.463, 0.543, 0.68, 0.942, 1.269, 2.109, 4.313, 9.165, 20.47, 46.7, 102.8,
                 221.3, 462.9, 1952, 3094],
    "optimized": [0.052, 0.058, 0.059, 0.083, 0.125, 0.237, 0.419, 1.123, 2.86, 6.535, 14.49, 32.83, 73.01,
                  163.3, 377.6, 840.2, 1718],
    "rhj_logn": [0.297, 0.27, 0.351, 0.378, 0.501, 0.538, 0.692, 0.926, 1.576, 3.001, 6.188, 13.04, 27.64,
                 57.52, 117.8, 239.7, 488.9],
    "rhj_2log2n": [0.259, 0.493, 0.501, 1.089, 0.954, 1.444, 2.369, 2.914, 3.731, 4.992, 8.557, 16.32,
                   30.09, 49.75, 99.08, 200.7, 388.2],
    "cfg": {"sequential": [2.719, 4.956, 9.56, 18.615, 36.432],
            "ordered-unbalanced": [5.897, 12.111, 24.523, 49.585, 99.716],
            "random-balanced": [5.649, 12.211, 26.164, 54.992, 112.59],
            "random": [6.188, 13.038, 27.638, 57.516, 117.771]},
    "ordered": {"cpu": [3.55, 7.12, 14.27, 28.55, 56.62, 113.96], "rhj": [1.61, 2.72, 4.96, 9.56, 18.62, 36.43],
                "cudpp": [0.32, 0.59, 1.13, 2.21, 4.37, 8.68]},
    "trees": {"ett": [7.50, 14.71, 28.11, 56.70, 111.28], "gpu_bfs": [17.29, 32.14, 63.94, 125.90, 253.42],
              "cpu_bfs": [66.59, 142.29, 319.59, 578.73, 1174.66]},
    "ett_kernels": {"EP construction": [1.52, 2.96, 5.90, 11.65, 23.23],
                    "List Ranking": [5.21, 10.26, 19.28, 39.17, 76.35],
                    "FindParent": [1.12, 2.16, 4.24, 8.40, 16.90],
                    "CUDPP Scan": [0.55, 0.98, 1.72, 3.31, 6.50],
                    "Last Kernel": [0.66, 1.30, 2.60, 5.17, 10.36]},
}


def load(path):
    runs = {}
    for r in json.load(open(path))["runs"]:
        if r.get("status") != "ok":
            continue
        v = r["plan"]["variant"]
        if v == "rhj":
            v += "/" + r["plan"]["params"]["splitters"]
        runs[(r["algorithm"], r["input"], v)] = r
    return runs


def t(runs, algo, inp, v, what="kernel"):
    r = runs.get((algo, inp, v))
    return r["time_ms"][what] if r else None


def ref(runs, algo, inp):
    for (a, i, _), r in runs.items():
        if a == algo and i == inp and r.get("reference_ms"):
            return r["reference_ms"]
    return None


def f(x):
    if x is None:
        return "-"
    return "%.3f" % x if x < 10 else "%.1f" % x if x < 1000 else "%.0f" % x


def row(cells):
    print("| " + " | ".join(cells) + " |")


def head(cells):
    row(cells)
    row(["---"] * len(cells))


def lst(n, order="random"):
    return "list:n=%d,order=%s" % (n, order)


def main():
    h, p = load(sys.argv[1]), load(sys.argv[2])
    L = "listrank"
    print("\n#### Wyllie (64-bit packing) against the serial CPU ranking, random lists\n")
    head(["n", "GTX 280", "Core i7 (study)", "H100 wyllie", "PoCL wyllie", "serial (Xeon)",
          "H100 rhj", "PoCL rhj"])
    for i, n in enumerate(SIZES):
        row([NAMES[i], f(STUDY["gtx280_wyllie"][i]), f(STUDY["core_i7"][i]), f(t(h, L, lst(n), "wyllie")),
             f(t(p, L, lst(n), "wyllie")), f(ref(h, L, lst(n))), f(t(h, L, lst(n), "rhj/nlogn")),
             f(t(p, L, lst(n), "rhj/nlogn"))])
    print("\n#### 32-bit against 64-bit packing, random lists\n")
    head(["n", "GTX 280 32-bit", "GTX 280 64-bit", "H100 wyllie32", "H100 wyllie", "PoCL wyllie32",
          "PoCL wyllie"])
    for i, n in enumerate(SIZES[:6]):
        row([NAMES[i], f(STUDY["w32"][i]), f(STUDY["gtx280_wyllie"][i]), f(t(h, L, lst(n), "wyllie32")),
             f(t(h, L, lst(n), "wyllie")), f(t(p, L, lst(n), "wyllie32")), f(t(p, L, lst(n), "wyllie"))])
    print("\n#### Original, stepwise and optimized Wyllie, random lists\n")
    head(["n", "GTX 280 orig.", "GTX 280 stepwise", "GTX 280 opt.", "H100 wyllie", "H100 stepwise",
          "H100 opt", "PoCL wyllie", "PoCL stepwise", "PoCL opt"])
    for i, n in enumerate(SIZES):
        row([NAMES[i], f(STUDY["original"][i]), f(STUDY["stepwise"][i]), f(STUDY["optimized"][i])] +
            [f(t(d, L, lst(n), v)) for d in (h, p) for v in ("wyllie", "wyllie-stepwise", "wyllie-opt")])
    print("\n#### Wyllie against rhj with both splitter rules, random lists\n")
    head(["n", "GTX 280 Wyllie (opt.)", "GTX 280 RHJ log n", "GTX 280 RHJ 2log^2 n", "H100 wyllie",
          "H100 rhj nlogn", "H100 rhj n2log2n", "PoCL wyllie", "PoCL rhj nlogn", "PoCL rhj n2log2n"])
    for i, n in enumerate(SIZES):
        row([NAMES[i], f(STUDY["optimized"][i]), f(STUDY["rhj_logn"][i]), f(STUDY["rhj_2log2n"][i])] +
            [f(t(d, L, lst(n), v)) for d in (h, p) for v in ("wyllie", "rhj/nlogn", "rhj/n2log2n")])
    print("\n#### The four list configurations, rhj (n/log n)\n")
    head(["n", "order", "GTX 280", "H100 rhj", "PoCL rhj", "serial (Xeon)"])
    for i, n in enumerate(SIZES[10:15]):
        for o in ("sequential", "ordered-unbalanced", "random-balanced", "random"):
            row([NAMES[10 + i], o, f(STUDY["cfg"][o][i]), f(t(h, L, lst(n, o), "rhj/nlogn")),
                 f(t(p, L, lst(n, o), "rhj/nlogn")), f(ref(h, L, lst(n, o)))])
    print("\n#### Ordered lists: the serial CPU, rhj and a scan (the lower bound)\n")
    head(["n", "study CPU", "study GPU RHJ", "study CUDPP scan", "serial (Xeon)", "H100 rhj", "H100 scan",
          "PoCL rhj", "PoCL scan"])
    for i, n in enumerate(SIZES[9:15]):
        o = "sequential"
        row([NAMES[9 + i], f(STUDY["ordered"]["cpu"][i]), f(STUDY["ordered"]["rhj"][i]),
             f(STUDY["ordered"]["cudpp"][i]), f(ref(h, L, lst(n, o))), f(t(h, L, lst(n, o), "rhj/nlogn")),
             f(t(h, L, lst(n, o), "scan")), f(t(p, L, lst(n, o), "rhj/nlogn")), f(t(p, L, lst(n, o), "scan"))])
    T = "treestats"
    print("\n#### Random binary trees: Euler tour (rooting, sizes, preorder, level) against BFS\n")
    head(["n", "GTX 280 ETT", "GTX 280 BFS", "study CPU BFS", "H100 ETT (rhj)", "H100 rooting + sizes",
          "H100 BFS", "PoCL ETT (rhj)", "PoCL BFS", "serial DFS (Xeon)"])
    for i, n in enumerate(SIZES[10:15]):
        inp = "tree:kind=binary,n=%d" % n
        r = h.get((T, inp, "rhj/nlogn"))
        rooting = None
        if r:
            rooting = sum(k["ms"] for k in r["kernels"] if k["name"].startswith(("lr_", "ett_tour", "ett_parent"))
                          or (k["name"] == "prim_fill" and False))
        row([NAMES[10 + i], f(STUDY["trees"]["ett"][i]), f(STUDY["trees"]["gpu_bfs"][i]),
             f(STUDY["trees"]["cpu_bfs"][i]), f(t(h, T, inp, "rhj/nlogn")), f(rooting), f(t(h, T, inp, "bfs")),
             f(t(p, T, inp, "rhj/nlogn")), f(t(p, T, inp, "bfs")), f(ref(h, T, inp))])
    print("\n#### The Euler tour's kernels (ms), H100, rhj (n/log n)\n")
    groups = [("EP construction", ("ett_tour",)), ("List Ranking", ("lr_",)), ("FindParent", ("ett_parent",)),
              ("CUDPP Scan", ("prim_",)), ("Last Kernel", ("ett_child_sizes", "ett_weights", "ett_finish"))]
    head(["kernel (study's name)", "clirr kernels"] + ["GTX 280 %s / H100 %s" % (m, m) for m in NAMES[10:15]])
    for name, prefixes in groups:
        cells = [name, ", ".join(x + ("*" if x.endswith("_") else "") for x in prefixes)]
        for i, n in enumerate(SIZES[10:15]):
            r = h.get((T, "tree:kind=binary,n=%d" % n, "rhj/nlogn"))
            ms = sum(k["ms"] for k in r["kernels"] if k["name"].startswith(prefixes)) if r else None
            cells.append("%s / %s" % (f(STUDY["ett_kernels"][name][i]), f(ms)))
        row(cells)


if __name__ == "__main__":
    main()
