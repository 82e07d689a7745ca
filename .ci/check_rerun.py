"""Fails if two executions of a notebook differ in a cell that is not
tagged measured-time (a cell whose output shows a time measured while it
ran). Usage: check_rerun.py DIR1 DIR2, each holding the executed notebooks.

The first run is nbconvert's and runs every cell; the second is papermill's,
which skips the cells tagged skip-execution (they fail on purpose), so those
are not compared. papermill stores a cell's stream output in pieces where
nbconvert joins them, and execution counts shift past a skipped cell: both
are normalised before comparing."""

import glob
import json
import os
import sys


def first_difference(a, b):
    ta, tb = json.dumps(a, sort_keys=True), json.dumps(b, sort_keys=True)
    k = next((i for i in range(min(len(ta), len(tb))) if ta[i] != tb[i]), min(len(ta), len(tb)))
    return ta[max(0, k - 80):k + 60], tb[max(0, k - 80):k + 60]


def normalised(outputs):
    out = []
    for o in outputs or []:
        o = dict(o)
        o.pop("execution_count", None)
        if o.get("output_type") == "stream":
            o["text"] = "".join(o["text"]) if isinstance(o["text"], list) else o["text"]
            if out and out[-1].get("output_type") == "stream" and out[-1]["name"] == o["name"]:
                out[-1] = dict(out[-1], text=out[-1]["text"] + o["text"])
                continue
        out.append(o)
    return out


bad = 0
for first in sorted(glob.glob(os.path.join(sys.argv[1], "*.ipynb"))):
    second = os.path.join(sys.argv[2], os.path.basename(first))
    a, b = json.load(open(first)), json.load(open(second))
    same = 0
    if len(a["cells"]) != len(b["cells"]):
        bad += 1
        print(f"{first}: {len(a['cells'])} cells, {len(b['cells'])} in the second run")
    for i, (ca, cb) in enumerate(zip(a["cells"], b["cells"])):
        if ca["cell_type"] != "code":
            continue
        tags = ca.get("metadata", {}).get("tags", [])
        if "measured-time" in tags or "skip-execution" in tags:
            continue
        oa, ob = normalised(ca.get("outputs")), normalised(cb.get("outputs"))
        if oa != ob:
            bad += 1
            x, y = first_difference(oa, ob)
            src = "".join(ca["source"]).splitlines()[:1]
            print(f"{first}: cell {i} ({src}) differs between two runs:\n  {x}\n  {y}")
        else:
            same += 1
    print(f"{os.path.basename(first)}: {same} cells identical in two runs")
sys.exit(1 if bad else 0)
