"""Fails if two executions of a notebook differ in a cell that is not
tagged measured-time (a cell whose output shows a time measured while it
ran). Usage: check_rerun.py DIR1 DIR2, each holding the executed notebooks."""

import glob
import json
import os
import sys


def first_difference(a, b):
    ta, tb = json.dumps(a, sort_keys=True), json.dumps(b, sort_keys=True)
    k = next((i for i in range(min(len(ta), len(tb))) if ta[i] != tb[i]), min(len(ta), len(tb)))
    return ta[max(0, k - 80):k + 60], tb[max(0, k - 80):k + 60]


bad = 0
for first in sorted(glob.glob(os.path.join(sys.argv[1], "*.ipynb"))):
    second = os.path.join(sys.argv[2], os.path.basename(first))
    a, b = json.load(open(first)), json.load(open(second))
    same = 0
    for i, (ca, cb) in enumerate(zip(a["cells"], b["cells"])):
        if ca["cell_type"] != "code":
            continue
        if "measured-time" in ca.get("metadata", {}).get("tags", []):
            continue
        if ca.get("outputs") != cb.get("outputs"):
            bad += 1
            x, y = first_difference(ca.get("outputs"), cb.get("outputs"))
            src = "".join(ca["source"]).splitlines()[:1]
            print(f"{first}: cell {i} ({src}) differs between two runs:\n  {x}\n  {y}")
        else:
            same += 1
    print(f"{os.path.basename(first)}: {same} cells identical in two runs")
sys.exit(1 if bad else 0)
