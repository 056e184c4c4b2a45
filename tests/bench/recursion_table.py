#!/usr/bin/env python3
"""tests/bench/recursion_table.py OUT.json [OUT.json ...] - the recursion
study's tables (shared/papers/001, Fig. 7-9) from tests/bench/recursion.sh
runs: one row per device x algorithm x input x variant (the recursion
template of a recursive variant) (x streams), the
median kernel and total times, the speedup over the better serial CPU
version on the same input (serial-rec, serial-iter: their total time, as
the study takes the better of the recursive and iterative codes), and the
counters (kernel calls, atomics) where the run counted them."""
import json
import sys


def short(name):
    name = name.replace("tree:kind=regular,depth=4,", "").replace("random:", "")
    return name.replace(",seed=1", "")


def main(paths):
    runs = []
    for p in paths:
        d = json.load(open(p))
        devs = {x["index"]: x["name"] for x in d["devices"]}
        for r in d["runs"]:
            if r.get("status") != "ok":
                runs.append((devs.get(r.get("device")), r, None))
                continue
            runs.append((devs.get(r["device"]), r, r["plan"]))
    serial = {}
    for dev, r, plan in runs:
        if plan and plan["variant"].startswith("serial"):
            key = (r["algorithm"], r["input"])
            t = r["time_ms"]["total"]
            serial[key] = min(serial.get(key, t), t)
    print("| device | algo | input | variant | streams | kernel ms | total ms | speedup (total) | kernel calls | atomics |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for dev, r, plan in runs:
        if not plan:
            print("| %s | %s | %s | %s | | %s | | | | |" % (dev, r.get("algorithm"), short(r.get("input", "")),
                                                      "?", r.get("status")))
            continue
        v = plan["variant"]
        if v == "recursive":
            v = plan["template"]
        params = plan.get("params", {})
        streams = params.get("streams", "") if v.startswith("rec") else ""
        base = serial.get((r["algorithm"], r["input"]))
        tot = r["time_ms"]["total"]
        sp = "%.2fx" % (base / tot) if base and not v.startswith("serial") else ""
        res = r.get("results") or {}
        print("| %s | %s | %s | %s | %s | %.3f | %.3f | %s | %s | %s |" % (
            dev, r["algorithm"], short(r["input"]), v, streams, r["time_ms"]["kernel"], tot, sp,
            res.get("kernel_calls", ""), res.get("atomics", "")))


if __name__ == "__main__":
    main(sys.argv[1:])
