"""Superstep's outputs in a sanitized HTML export (nbconvert --sanitize-html).

A Superstep view's output carries application/vnd.superstep.view+json and a
text/html that holds, per view, a <div class="superstep-display"> with the
view's static PNG and the scripts that make it live. nbconvert 7 sanitizes
text/html with bleach, which allows no <img>: every picture would come out
as escaped markup. Sanitizing, ViewPictures replaces such an output by one
image/png output per view (the PNG the HTML holds, at its display size, its
alt text as text/plain), and shows Superstep's other HTML outputs (tables,
progress bars) as their text/plain. A plain export keeps everything: there
the views go live.

superstep-lab enables it for nbconvert's HTML exporters through
etc/jupyter/jupyter_nbconvert_config.json in the environment.
"""

from html.parser import HTMLParser

from nbconvert.preprocessors import Preprocessor
from nbformat import NotebookNode

VIEW_MIME = "application/vnd.superstep.view+json"
PNG_PREFIX = "data:image/png;base64,"


class _Pictures(HTMLParser):
    """Collects the first PNG <img> of every .superstep-display element."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.pictures = []  # dicts: png (base64), width, height, alt
        self._open = []  # tag names from the display's root down
        self._taken = False

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if not self._open:
            if "superstep-display" in a.get("class", "").split():
                self._open, self._taken = [tag], False
            return
        if tag == "img":
            src = a.get("src", "")
            if not self._taken and src.startswith(PNG_PREFIX):
                self._taken = True
                self.pictures.append(
                    {
                        "png": src[len(PNG_PREFIX):],
                        "width": a.get("width", ""),
                        "height": a.get("height", ""),
                        "alt": a.get("alt", ""),
                    }
                )
            return
        if tag not in _VOID:
            self._open.append(tag)

    def handle_endtag(self, tag):
        if self._open and tag in self._open:
            del self._open[len(self._open) - 1 - self._open[::-1].index(tag):]


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def _text(value):
    return "".join(value) if isinstance(value, list) else value


def _superstep_html(html):
    """Whether an output's HTML is one of Superstep's (class superstep-…)."""
    return 'class="superstep-' in html[:400]


class ViewPictures(Preprocessor):
    """In a sanitized HTML export, shows each Superstep view as its PNG."""

    def preprocess(self, nb, resources):
        if not resources.get("should_sanitize_html"):
            return nb, resources
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            outputs = []
            for output in cell.get("outputs", []):
                outputs.extend(self._sanitizable(output, index))
            cell.outputs = outputs
        return nb, resources

    def _sanitizable(self, output, index):
        data = output.get("data")
        if output.get("output_type") not in ("display_data", "execute_result") or not data or "text/html" not in data:
            return [output]
        html = _text(data["text/html"])
        if VIEW_MIME in data:
            parser = _Pictures()
            parser.feed(html)
            parser.close()
            if parser.pictures:
                return [_picture(p, output) for p in parser.pictures]
            self.log.warning("cell %d: a Superstep view without a PNG picture; shown as text", index)
        elif not _superstep_html(html):
            return [output]
        kept = NotebookNode(output)
        kept.data = NotebookNode({k: v for k, v in data.items() if k not in ("text/html", VIEW_MIME)})
        if not kept.data:
            kept.data["text/plain"] = ""
        return [kept]


def _picture(picture, like):
    metadata = {}
    for key in ("width", "height"):
        if picture[key].isdigit():
            metadata[key] = int(picture[key])
    out = NotebookNode(
        {
            "output_type": "display_data",
            "data": NotebookNode({"image/png": picture["png"], "text/plain": picture["alt"]}),
            "metadata": NotebookNode({"image/png": NotebookNode(metadata)} if metadata else {}),
        }
    )
    if like.get("output_type") == "execute_result":
        out.output_type = "execute_result"
        out.execution_count = like.get("execution_count")
    return out
