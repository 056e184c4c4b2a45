#!/usr/bin/env python3
"""tests/bench/bh_table.py FILE.json... - the
Barnes-Hut table of tests/bench/RESULTS.md from tests/bench/bh.sh's JSON:
per case the trial's total time (with the download of the 9 reals per
body) and its kernel time per step, the time per phase summed over the steps (tree =
bh_bbox + bh_root + bh_build; summarize = bh_sum_*; sort; force;
integrate), summarization passes + rounds per step, interactions of the
last step's force walk and the force kernel's rate (bh_force alone; link
is bh_link, the walk's layout). prim_fill launches are split by count: per
step 2 (the child slots and chain links; 3 with --cells store, the cells'
records) go to the tree, the rest (the worklist counters of data rounds)
to summarization. The force rate: interactions per second and GFLOP/s at
20 flops per interaction (GPU Gems 3's count for a softened interaction:
3 subtractions, 6 for d^2 + eps^2, the reciprocal square root as 1, 3
multiplications for m / r^3, 6 for the 3 multiply-adds into a, plus 1
not counted there for the potential's multiply-add, which the rsqrt's
count leaves out)."""
import json
import sys

FLOPS = 20


def phase(kernels, names):
    return sum(k["ms"] for k in kernels if k["name"] in names or any(
        n.endswith("*") and k["name"].startswith(n[:-1]) for n in names))


def fills(kernels):
    for k in kernels:
        if k["name"] == "prim_fill":
            return k["launches"], k["ms"]
    return 0, 0.0


def main():
    args = sys.argv[1:]
    print("| device | input | steps | variant | prec | sort | K | cells | walk | total ms | kernel ms/step | tree "
          "| summ. | sort | link | force | integ. | iters/step | interactions | Ginter/s | GFLOP/s | % peak |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for path in args:
        # errors="replace": a JSON written before 2026-11-23 could hold a
        # "walk" text whose memory was freed (fixed in host/algo/bh.c).
        doc = json.load(open(path, encoding="utf-8", errors="replace"))
        for r in doc["runs"]:
            if r.get("status") != "ok":
                print(f"| {r.get('device_name')} | {r.get('input')} | | {r['plan']['variant']} | | | | | | "
                      f"{r.get('status')} | | | | | | | | | | | |")
                continue
            p = r["plan"]["params"]
            ks = r["kernels"]
            steps = int(p["steps"])
            force = phase(ks, ["bh_force"])
            inter = r["results"]["interactions"]
            rate = inter / (force / steps / 1e3) / 1e9 if force else 0
            fr = r["results"].get("force", {})
            # Since issue 14-c the JSON has every step's interactions and
            # the rate against the estimated float peak (host/algo/bh.c).
            rate = fr.get("ginteractions_per_s", rate)
            peak = f"{fr['peak_percent']:.1f}" if "peak_percent" in fr else "" 
            name = r["device_name"].replace("NVIDIA ", "")[:12]
            k = p["prepasses"] if r["plan"]["variant"] == "hybrid" else "-"
            per_build = 3 if p.get("cells") == "store" else 2
            walk = r["results"].get("walk", "")
            if not walk.isprintable() or "," not in walk:
                walk = "(lost), ? bodies"
            vote = walk.split(",")[0].replace("NVIDIA ", "").replace("work-groups", "wg").replace("sub-groups", "sg")
            per = walk.split(" bod")[0].split(", ")[-1] if " bod" in walk else "?"
            wg = walk.split("work-groups of ")[1].split(",")[0] if "work-groups of " in walk else ""
            if walk.startswith("group walk"):
                vote, wg = "group", str(fr.get("group", ""))
            nf, fms = fills(ks)
            tree_fill = fms * min(nf, steps * per_build) / nf if nf else 0.0
            sum_fill = fms - tree_fill
            print(f"| {name} | {r['input'].replace('plummer:n=', '')} | {steps} | {r['plan']['variant']} | "
                  f"{p['precision']} | {p['sort']} | {k} | {p.get('cells', '-')} | {vote} {wg}x{per} | "
                  f"{r['time_ms']['total']:.2f} | "
                  f"{r['time_ms']['kernel'] / steps:.2f} | {phase(ks, ['bh_bbox', 'bh_root', 'bh_build']) + tree_fill:.2f} | "
                  f"{phase(ks, ['bh_sum_*']) + sum_fill:.2f} | {phase(ks, ['bh_sort']):.2f} | "
                  f"{phase(ks, ['bh_link']):.2f} | {force:.2f} | "
                  f"{phase(ks, ['bh_integrate']):.2f} | {r['iterations'] / steps:.1f} | {inter} | {rate:.2f} | "
                  f"{rate * FLOPS:.0f} | {peak} |")


if __name__ == "__main__":
    main()
