"""Fails if an executed notebook has an error output in a cell that is not
tagged raises-exception, or a tagged cell that raised nothing; if a notebook
with live displays does not hold the browser runtime exactly once, or stores
a picture twice (an image/svg+xml beside a live display's text/html); or if
a notebook exceeds its size budget (issue 11: executed 01-heartbeats at
most 1.2 MB, 02-layout at most 3 MB, 5 MB since issue 27 added the
Facebook drawings; issue 12: 03-fattree at most 1.5 MB;
issue 13: 04-torus at most 2.5 MB; issue 14: 05-traces at most 6 MB, 3 MB
since its canvas views' specs were packed;
issue 15: 06-mpi at most 1.5 MB; issue 16: 07-teaching at most 2 MB; and no single output of any notebook over
3 MB)."""

import json
import os
import sys

BUDGET = {"01-heartbeats.ipynb": 1_200_000, "02-layout.ipynb": 5_000_000, "03-fattree.ipynb": 1_500_000, "04-torus.ipynb": 2_500_000, "05-traces.ipynb": 3_000_000, "06-mpi.ipynb": 1_500_000, "07-teaching.ipynb": 2_000_000}
OUTPUT_BUDGET = 3_000_000  # bytes of one output (issue 14: each view's notebook output)
RUNTIME_MARK = "window.superstepPending=[]"  # in the runtime, not in a display's call

bad = 0
for path in sys.argv[1:]:
    nb = json.load(open(path))
    n_outputs = 0
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        tags = cell.get("metadata", {}).get("tags", [])
        errors = [o for o in cell.get("outputs", []) if o["output_type"] == "error"]
        n_outputs += len(cell.get("outputs", []))
        src = "".join(cell["source"]).splitlines()[:1]
        if errors and "raises-exception" not in tags:
            bad += 1
            print(f"{path}: cell {i} ({src}) failed: {errors[0]['ename']}: {errors[0]['evalue']}")
        if not errors and "raises-exception" in tags:
            bad += 1
            print(f"{path}: cell {i} ({src}) is tagged raises-exception but raised nothing")
        if cell.get("execution_count") is None:
            bad += 1
            print(f"{path}: cell {i} ({src}) did not run")
    htmls = []
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            h = data.get("text/html")
            if h is None:
                continue
            h = "".join(h) if isinstance(h, list) else h
            htmls.append(h)
            if len(h) > OUTPUT_BUDGET:
                bad += 1
                print(f"{path}: an output of {len(h):,} bytes, over {OUTPUT_BUDGET:,}")
            # views.SVG keeps its SVG (image/svg+xml) as IPython's SVG does;
            # every other view stores its picture once.
            if "superstep-display" in h and "image/svg+xml" in data and 'data-kind="svg"' not in h:
                bad += 1
                print(f"{path}: a live display stores its picture twice (image/svg+xml beside text/html)")
    live = sum(h.count('class="superstep-display"') for h in htmls)
    runtimes = sum(h.count(RUNTIME_MARK) for h in htmls)
    if live and runtimes != 1:
        bad += 1
        print(f"{path}: {live} live displays and the runtime {runtimes} times; want once")
    size = os.path.getsize(path)
    budget = BUDGET.get(os.path.basename(path))
    if budget and size > budget:
        bad += 1
        print(f"{path}: {size:,} bytes, over its budget of {budget:,}")
    print(f"{path}: {n_outputs} outputs checked, {live} live displays, {size:,} bytes")
sys.exit(1 if bad else 0)
