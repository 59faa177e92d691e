"""The Content-Security-Policy of a page of static files: the page's own inline code by hash, scripts only from the
server (MiniWoB's pages, `tasks/miniwob.py`: markup a page writes from what the agent typed runs no code)."""

from __future__ import annotations

import base64
import functools
import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit


class _InlineCode(HTMLParser):
    """The code a page runs from its own markup: the text of its inline `<script>`s, its event handler attributes
    (`onclick="..."`), and the `src` of its other scripts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scripts: list[str] = []
        self.handlers: list[str] = []
        self.sources: list[str] = []
        self._script: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.handlers += [v for k, v in attrs.items() if k.startswith("on") and v is not None]
        if tag == "script":
            if attrs.get("src"):
                self.sources.append(attrs["src"])
            else:
                self._script = []

    def handle_data(self, data):
        if self._script is not None:
            self._script.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.scripts.append("".join(self._script))
            self._script = None


#: an event handler attribute in a script's string literal (`'<a onclick="Alaska.datepickrDone();">'`), or one it
#: sets (`setAttribute("onclick","return false")`): the handler's code is the second group
_HANDLER_IN_JS = re.compile(r"""\bon[a-z]+\s*=\s*\\?(["'])(.*?)\\?\1"""
                            r"""|setAttribute\(\s*["']on[a-z]+["']\s*,\s*(["'])(.*?)\3\s*\)""")
#: code that compiles strings at run time (jscolor and FlightWoB's AA site need it)
_EVAL_IN_JS = re.compile(r"\beval\s*\(|\bnew\s+Function\s*\(")


def _sha256(code: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode() + "'"


@functools.lru_cache(maxsize=512)
def page_policy(page: Path, mtime_ns: int = 0) -> str:
    """The Content-Security-Policy a package page is served with: scripts only from the server's files, and inline
    code only as the package wrote it (its inline `<script>`s and event handler attributes, in the page and in
    the string literals of its scripts, by hash). Markup that a page writes from what the agent typed
    (terminal's `innerHTML = command`: `<img src=x onerror=...>`) runs no code, so it cannot end the episode
    with a reward it chose. `'unsafe-eval'` only for a page whose scripts compile strings (jscolor, the AA site),
    since jQuery 1's `.html()` runs a `<script>` in its markup through eval."""
    text = page.read_text("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    found = _InlineCode()
    found.feed(text)
    found.close()
    hashes, handlers = {_sha256(c) for c in found.scripts}, {_sha256(c) for c in found.handlers}
    codes = list(found.scripts)
    for src in found.sources:
        js = (page.parent / urlsplit(src).path).resolve()
        if js.is_file():
            codes.append(js.read_text("utf-8", errors="replace"))
            if js.name.startswith("jquery") and "focusin" in codes[-1]:
                handlers.add(_sha256("t"))   # jQuery 1's feature test sets onfocusin="t" on a div (it runs nothing)
    for code in codes:
        handlers |= {_sha256(m.group(2) if m.group(1) else m.group(4)) for m in _HANDLER_IN_JS.finditer(code)}
    needs_eval = any(_EVAL_IN_JS.search(code) for code in codes)
    script_src = ["'self'", "'report-sample'"] + (["'unsafe-eval'"] if needs_eval else []) + (["'unsafe-hashes'"] if handlers else [])
    return "; ".join([" ".join(["script-src", *script_src, *sorted(hashes | handlers)]), "object-src 'none'",
                      "base-uri 'self'"])
