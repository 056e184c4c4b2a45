#!/usr/bin/python3
"""tests/bench/irr_scatter.py - the irregularity study's Figure 1
(shared/papers/002): kernels placed in MAI-CFI space, from the CSV of
`clirr profile --csv` (and `clirr profile --calib ... --csv`).

    tests/bench/irr_scatter.py OUT_PREFIX FILE.csv [FILE.csv ...]
        [--kernels] [--device TEXT] [--paper] [--title TEXT]
        [--series S,M,L [--by-input]]

Writes OUT_PREFIX.svg and OUT_PREFIX.png. One point per case (its "all"
row: every instrumented kernel of the case together), or per kernel with
--kernels; one colour per device.

--series names the files in order (one name per FILE.csv) and joins the
points of one kernel across them, each marked with its file's name:
Figure 2 (input sensitivity) is --series S,M,L over three files of one
input each (small, medium, large); Figure 4 (vertex layout) is
--series none,bfs,rcm,degree --by-input over one file per layout, each
holding several inputs (a kernel and input per line, arrows from the
first layout to the others). --paper adds the study's Fermi values
(Table II of shared/papers/002, first input of each benchmark) as grey
crosses. Our axes are MAI_m and CFI_b: replays over memory instructions and
divergent over executed branches, not over every instruction as in the
study, so our values are larger than the study's for the same behaviour;
the plot says so. Needs python3-matplotlib (Debian)."""
import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Table II of shared/papers/002 (GTX 480): benchmark -> (MAI %, CFI %).
PAPER = {
    "BS": (0.23, 0.00), "HG": (22.25, 4.08), "MC": (5.02, 0.00), "MM": (0.57, 0.00),
    "NB": (0.20, 0.00), "BFS fla": (4.06, 0.84), "BHforce": (0.32, 0.00),
    "BHtree": (56.18, 1.69), "DC": (11.93, 0.66), "DMR": (10.38, 0.04), "PTA": (28.45, 0.03),
    "SP": (57.70, 0.65), "SSSP rmat10": (24.61, 1.36), "SSSP fla": (28.27, 2.24),
    "TSP": (26.18, 0.01),
}


def label(row, per_kernel):
    if row["algorithm"].startswith("calib:"):
        name = row["algorithm"][6:]
    else:
        name = row["algorithm"]
        if row["variant"] not in ("-", ""):
            name += "/" + row["variant"]
        if row["template"] not in ("-", "", "auto"):
            name += "/" + row["template"].replace("auto:", "")
    if per_kernel:
        name += ":" + row["kernel"]
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--kernels", action="store_true", help="a point per kernel")
    ap.add_argument("--device", default="", help="only devices whose name contains this")
    ap.add_argument("--paper", action="store_true", help="the study's Fermi values in grey")
    ap.add_argument("--title", default="Kernels in irregularity space (clirr profile)")
    ap.add_argument("--series", default="", help="a name per file: join a kernel's points across them")
    ap.add_argument("--by-input", action="store_true", help="with --series: a line per kernel and input")
    a = ap.parse_args()
    if a.series:
        return series(a)
    points = {}  # device -> [(mai, cfi, label)]
    for path in a.csv:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row["status"] != "ok" or row["verified"] == "false":
                    continue
                if a.device and a.device.lower() not in row["device"].lower():
                    continue
                if (row["kernel"] == "all") == a.kernels:
                    continue
                if int(row["branches"]) + int(row["gmem"]) + int(row["lmem"]) == 0:
                    continue
                key = "%s (W=%s, S=%s)" % (row["device"], row["simd_width"], row["segment"])
                points.setdefault(key, []).append(
                    (100 * float(row["mai_m"]), 100 * float(row["cfi_b"]), label(row, a.kernels)))
    if not points:
        sys.exit("irr_scatter.py: no usable rows (status ok, verified) in %s" % ", ".join(a.csv))
    fig, ax = plt.subplots(figsize=(9, 6.5))
    for dev, pts in sorted(points.items()):
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        ax.scatter(xs, ys, label=dev, s=28, alpha=0.8)
        for x, y, t in pts:
            ax.annotate(t, (x, y), fontsize=6, xytext=(3, 2), textcoords="offset points")
    if a.paper:
        xs = [v[0] for v in PAPER.values()]
        ys = [v[1] for v in PAPER.values()]
        ax.scatter(xs, ys, marker="x", color="grey", label="study (GTX 480, per instruction)")
        for name, (x, y) in PAPER.items():
            ax.annotate(name, (x, y), fontsize=6, color="grey", xytext=(3, -7),
                        textcoords="offset points")
    ax.set_xlabel("MAI_m: replays / (memory instructions + replays)  [%]")
    ax.set_ylabel("CFI_b: divergent / executed branches  [%]")
    ax.set_xlim(left=-1)
    ax.set_ylim(bottom=-1)
    ax.set_title(a.title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    fig.text(0.01, 0.01, "Model over instrumented branches and accesses; the study divides by all "
             "instructions, so its values are smaller for the same behaviour.", fontsize=6)
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(a.out + ".svg")
    fig.savefig(a.out + ".png", dpi=150)
    print("wrote %s.svg and %s.png (%d points)" % (a.out, a.out, sum(len(p) for p in points.values())))


def usable(row, a):
    return (row["status"] == "ok" and row["verified"] != "false"
            and (not a.device or a.device.lower() in row["device"].lower())
            and (row["kernel"] == "all") != a.kernels
            and int(row["branches"]) + int(row["gmem"]) + int(row["lmem"]) > 0)


def short_input(path):
    name = path.rsplit("/", 1)[-1]
    for ext in (".gz", ".mtx", ".gr", ".txt", ".el"):
        name = name[: -len(ext)] if name.endswith(ext) else name
    return name.split(",seed")[0]


def series(a):
    names = a.series.split(",")
    if len(names) != len(a.csv):
        sys.exit("irr_scatter.py: --series names %d files, %d given" % (len(names), len(a.csv)))
    lines = {}  # (device, kernel label[, input]) -> [(series index, mai, cfi)]
    backends = set()
    for i, path in enumerate(a.csv):
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if not usable(row, a):
                    continue
                # A kernel is its algorithm and variant: the plan may pick
                # another template for another input size.
                name = row["algorithm"] + ("/" + row["variant"] if row["variant"] not in ("-", "") else "")
                if a.kernels:
                    name += ":" + row["kernel"]
                key = (row["device"], name, short_input(row["input"]) if a.by_input else "")
                backends.add(row["backend"])
                lines.setdefault(key, []).append((i, 100 * float(row["mai_m"]), 100 * float(row["cfi_b"])))
    if not lines:
        sys.exit("irr_scatter.py: no usable rows (status ok, verified) in %s" % ", ".join(a.csv))
    fig, ax = plt.subplots(figsize=(9, 6.5))
    cmap = plt.get_cmap("tab10")
    for n, (key, pts) in enumerate(sorted(lines.items())):
        pts.sort()
        colour = cmap(n % 10)
        xs, ys = [p[1] for p in pts], [p[2] for p in pts]
        name = key[1] + (" " + key[2] if key[2] else "")
        if len(lines) > 1 and len({k[0] for k in lines}) > 1:
            name += " (%s)" % key[0]
        if a.by_input:
            ax.scatter(xs[:1], ys[:1], color=colour, s=30, label=name)
            for x, y in zip(xs[1:], ys[1:]):
                ax.annotate("", xy=(x, y), xytext=(xs[0], ys[0]),
                            arrowprops=dict(arrowstyle="->", color=colour, lw=0.8))
            ax.scatter(xs[1:], ys[1:], color=colour, s=16, marker="s")
        else:
            ax.plot(xs, ys, "-o", color=colour, ms=5, lw=0.8, label=name)
        for (i, x, y) in pts:
            ax.annotate(names[i], (x, y), fontsize=7, color=colour, xytext=(3, 2),
                        textcoords="offset points")
    ax.set_xlabel("MAI_m: replays / (memory instructions + replays)  [%]")
    ax.set_ylabel("CFI_b: divergent / executed branches  [%]")
    ax.set_title(a.title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    how = {"model": "SIMT model over per-work-item records",
           "warp": "hardware warp (inline PTX vote/match)"}
    fig.text(0.01, 0.01, "Points: %s. Back end: %s; ratios over instrumented branches and accesses "
             "(not the study's per-instruction ratios)." % (", ".join(names), ", ".join(
                 how.get(b, b) for b in sorted(backends))), fontsize=6)
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(a.out + ".svg")
    fig.savefig(a.out + ".png", dpi=150)
    print("wrote %s.svg and %s.png (%d lines)" % (a.out, a.out, len(lines)))


if __name__ == "__main__":
    main()
