#!/usr/bin/python3
"""tests/bench/study_plots.py - figures of the data-driven vs
topology-driven study (shared/papers/000) from clirr's own outputs, as SVG
and PNG (Debian's python3-matplotlib):

  study_plots.py trace TRACE.csv OUT [METRIC]
      one line per case of a `--trace` CSV, the metric per round
      (arcs_pct by default: Figure 7's edges relaxed per round; or
      items_in, items_out, kernel_ms; donated_g0: Figure 10's work
      donated in work-group 0 per round, from a `--donate T` run)
  study_plots.py hybrid BENCH.json OUT
      Figure 11: kernel ms of `--variant hybrid` against its --hybrid
      threshold, one panel per device x input x algorithm, with the
      data-driven and topology-driven times as horizontal lines

OUT is a path prefix: OUT.svg and OUT.png are written."""
import csv
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def save(fig, out):
    fig.tight_layout()
    fig.savefig(out + ".svg")
    fig.savefig(out + ".png", dpi=120)


def short(name):
    return name.split("/")[-1].split(",weights")[0].split(",seed")[0]


def trace(path, out, metric="arcs_pct"):
    cases = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            label = "%s %s, %s, %s" % (row["algorithm"], row["variant"], short(row["input"]), row["device"][:24])
            cases.setdefault((row["case"], label), []).append((int(row["round"]), float(row[metric])))
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for (_, label), points in sorted(cases.items(), key=lambda kv: int(kv[0][0])):
        ax.plot([p[0] for p in points], [p[1] for p in points], label=label, linewidth=1)
    ax.set_xlabel("round")
    ax.set_ylabel({"arcs_pct": "arcs relaxed (% of all)",
                   "donated_g0": "chunks donated in work-group 0"}.get(metric, metric))
    if metric not in ("arcs_pct", "donated_g0"):
        ax.set_yscale("log")
    ax.legend(fontsize=7)
    save(fig, out)


def hybrid(path, out):
    doc = json.load(open(path))
    devs = {d["index"]: d["name"] for d in doc["devices"]}
    panels = {}
    for r in doc["runs"]:
        if r.get("status") != "ok":
            continue
        key = (devs.get(r["device"], "?")[:24], short(r["input"]), r["algorithm"])
        p = panels.setdefault(key, {"hybrid": [], "lines": {}})
        variant = r["plan"]["variant"]
        ms = r["time_ms"]["kernel"]
        if variant == "hybrid":
            p["hybrid"].append((float(r["plan"]["params"]["hybrid"]), ms))
        else:
            p["lines"][variant] = ms
    if not panels:
        sys.exit("no finished runs in %s" % path)
    cols = min(3, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    for ax, (key, p) in zip(axes.flat, sorted(panels.items())):
        pts = sorted(p["hybrid"])
        ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", label="hybrid")
        for variant, ms in sorted(p["lines"].items()):
            ax.axhline(ms, linestyle="--", linewidth=1, label=variant, color={"data": "C1", "topo": "C2", "level": "C3"}.get(variant))
        ax.set_title("%s, %s, %s" % (key[2], key[1], key[0]), fontsize=8)
        ax.set_xlabel("threshold (fraction of the vertices)")
        ax.set_ylabel("kernel ms")
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    save(fig, out)


def bars(out, paths):
    panels = {}
    for path in paths:
        doc = json.load(open(path))
        devs = {d["index"]: d["name"] for d in doc["devices"]}
        for r in doc["runs"]:
            if r.get("status") != "ok":
                continue
            plan = r["plan"]
            dedup = plan["params"].get("dedup", "on")
            key = (devs.get(r["device"], "?")[:16], short(r["input"]), r["algorithm"], plan["template"],
                   "dedup " + dedup)
            label = plan["push"] + (" from %d" % plan["wl_capacity"] if plan.get("wl_capacity") else "")
            panels.setdefault(key, {})[label] = r["time_ms"]["kernel"]
    if not panels:
        sys.exit("no finished runs in %s" % ", ".join(paths))
    cols = min(4, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    for ax, (key, p) in zip(axes.flat, sorted(panels.items())):
        base = p.get("atomic")
        labels = sorted(p, key=lambda k: (k.split()[0] != "atomic", k))
        ys = [p[k] / base if base else p[k] for k in labels]
        colors = {"atomic": "C0", "compact": "C1", "hier": "C2", "scan": "C3", "chunk": "C4"}
        ax.bar(range(len(labels)), ys, color=[colors.get(k.split()[0], "C7") for k in labels],
               hatch=None, edgecolor=["black" if " from " in k else "none" for k in labels])
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=7)
        if base:
            ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_ylabel("kernel time / atomic" if base else "kernel ms", fontsize=8)
        ax.set_title("%s\n%s" % (key[0], ", ".join(key[1:])), fontsize=7)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    save(fig, out)


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[1] not in ("trace", "hybrid", "bars"):
        sys.exit(__doc__)
    if sys.argv[1] == "trace":
        trace(*sys.argv[2:5])
    elif sys.argv[1] == "bars":
        bars(sys.argv[2], sys.argv[3:])
    else:
        hybrid(sys.argv[2], sys.argv[3])
