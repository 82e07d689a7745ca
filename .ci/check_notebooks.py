"""Fails if an executed notebook has an error output in a cell that is not
tagged raises-exception, or a tagged cell that raised nothing."""

import json
import sys

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
    print(f"{path}: {n_outputs} outputs checked")
sys.exit(1 if bad else 0)
