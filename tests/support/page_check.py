"""A static check of a report page: the markup is ours, engine strings only as escaped text."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

#: Every element the report template and the board drawings use.
ALLOWED = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "h4", "p", "nav", "a",
           "section", "article", "small", "svg", "line", "text", "circle", "table", "tr", "th", "td", "div",
           "label", "select", "option", "span", "button", "input", "ol", "thead", "tbody", "template", "g",
           "polygon", "path", "rect", "script"}


class _Scan(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self.scripts: list[dict] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED:
            self.problems.append(f"unexpected element <{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"event handler attribute {name} on <{tag}>")
            if value and value.strip().lower().startswith("javascript:"):
                self.problems.append(f"javascript: URL in {name} of <{tag}>")
        if tag == "script":
            self.scripts.append(dict(attrs))


def static_markup_problems(html: str) -> list[str]:
    """Everything wrong with `html`: foreign elements, event handlers, scripts other than our two."""
    scan = _Scan()
    scan.feed(html)
    scan.close()
    problems = list(scan.problems)
    if scan.scripts != [{"type": "application/json", "id": "report-data"}, {}]:
        problems.append(f"scripts: {scan.scripts}")
    for raw in ("<img", "<script>alert"):           # as text: &lt;img, or \\u003cimg in JSON
        if raw in html:
            problems.append(f"raw {raw!r} in the page")
    return problems


def page_data(html: str) -> dict:
    """The page's JSON data island (the games the viewer shows)."""
    island = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html, re.S)
    assert island is not None, "the page has no data island"
    return json.loads(island.group(1))
