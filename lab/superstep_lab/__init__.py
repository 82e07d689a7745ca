"""Superstep's live views in JupyterLab 4 and Notebook 7.

The package holds the prebuilt JupyterLab extension (labextension/): a MIME
renderer for application/vnd.superstep.view+json that draws Superstep's
views live, trusted notebook or not. See lab/src/index.js.
"""


def _jupyter_labextension_paths():
    return [{"src": "labextension", "dest": "superstep-lab"}]
