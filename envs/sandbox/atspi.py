"""The desktop's accessibility tree (AT-SPI), read from the host.

The desktop session runs an accessibility bus (`Desktop.start`: `at-spi-bus-launcher`, with
`at-spi2-registryd`), and its GTK apps export their widgets there. `AccessibilityReader` starts
one persistent reader (`atspi_reader.py`, run by Debian's `/usr/bin/python3` with
`gi.repository.Atspi`) in the desktop's jail, as the jail's user, and asks it for the tree over
its stdin/stdout, one JSON line each way: a read pays no Python or gi start-up.

A node (the format shared with the browser trees):
`{"id", "parent" (-1 for a window), "depth", "role" (AT-SPI role name: "push button",
"toggle button", "text", "menu item", ...), "name", "value" (an editable text's text, a
slider's value, else ""), "states" (of "focused", "focusable", "selected", "checked",
"pressed", "expanded", "editable", "disabled"), "box" ([x, y, w, h] in screen pixels, None when
the app gives none), "app" (the application's name)}`, depth-first per window, the focused
window's app first. Only nodes that are SHOWING are kept, and of those only the ones with a box,
a name or kept children. xterm has no accessibility support: it exports nothing.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import select
import subprocess
import time
from pathlib import Path

from .processes import kill_group

#: the system Python that has gi and Atspi (not the package's virtualenv)
SYSTEM_PYTHON = "/usr/bin/python3"
_READER = Path(__file__).with_name("atspi_reader.py")


def _reader_constant(name: str):
    """A literal constant of the reader (which runs under the system Python, with gi, and is not imported here)."""
    for node in ast.parse(_READER.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise LookupError(f"{name} is not a constant of {_READER.name}")


#: the layout roles whose box is the union of their children's (the reader reads them once while they show)
CONTAINER_ROLES = frozenset(_reader_constant("CONTAINER_ROLES"))


class AccessibilityReader:
    """The AT-SPI tree of one desktop session (`Desktop`), through a reader process in its jail.

    `tree(max_nodes)` returns the node list (see the module); `last` holds the last answer's
    extras (`truncated`, `ms`). A reader that died or did not answer within `timeout` seconds is
    killed and started again at the next read; that read returns [] (a broken app never breaks
    the env's step)."""

    def __init__(self, desktop, timeout: float = 3.0):
        self.desktop = desktop
        self.timeout = timeout
        self._proc: subprocess.Popen | None = None
        self.last: dict = {}

    def _start(self) -> subprocess.Popen:
        d = self.desktop
        env = d.env(HOME=str(d.runtime), XDG_CACHE_HOME=str(d.runtime / "cache"))
        argv = d.jail.argv([SYSTEM_PYTHON, "-I", "-c", _READER.read_text()], env,
                           display=d.display_name, cwd=d.runtime)
        self._proc = subprocess.Popen(argv, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}, cwd="/",
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, start_new_session=True)
        self._buf = b""
        d.keep("reader", self._proc)   # a session process: a reset's kill of the apps spares it
        return self._proc

    def _ask(self, request: dict, timeout: float) -> dict | None:
        proc = self._proc if self._proc is not None and self._proc.poll() is None else self._start()
        try:
            proc.stdin.write((json.dumps(request) + "\n").encode())
            proc.stdin.flush()
        except OSError:
            self._stop()
            return None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self._stop()   # hung on an app: a fresh reader next time
                return None
            chunk = os.read(fd, 1 << 20)
            if not chunk or len(self._buf) + len(chunk) > MAX_ANSWER_BYTES:
                self._stop()    # gone, or not the reader's answer (it runs as the agent's user)
                return None
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            self._stop()
            return None

    def tree(self, max_nodes: int = 2000, time_limit: float = 1.0) -> list[dict]:
        """The showing accessible nodes of every app of the desktop (at most `max_nodes`; the walk
        stops after `time_limit` seconds, then `last["truncated"]` is True)."""
        t = time.perf_counter()
        ans = self._ask({"max_nodes": int(max_nodes), "time_limit": float(time_limit)},
                        timeout=time_limit + self.timeout)
        if ans is None or "nodes" not in ans:
            self.last = {"error": (ans or {}).get("error", "no answer from the reader"), "nodes": 0}
            return []
        nodes = _checked(ans["nodes"], max(0, int(max_nodes)))
        self.last = {"truncated": bool(ans.get("truncated")), "reader_ms": ans.get("ms"),
                     "phases_ms": ans.get("phases_ms"), "asked": ans.get("asked"),
                     "ms": (time.perf_counter() - t) * 1000, "nodes": len(nodes)}
        return nodes

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            self.desktop.keep("reader", None)
            with contextlib.suppress(Exception):
                proc.stdin.close()
            kill_group(proc, grace=0.5)
            with contextlib.suppress(Exception):
                proc.stdout.close()

    def close(self) -> None:
        self._stop()


#: the longest answer read from the reader (a 2,000-node tree is about 0.5 MB)
MAX_ANSWER_BYTES = 16 << 20
#: the longest name or value kept (as the reader cuts them)
MAX_TEXT = 200


def _checked(nodes, limit: int) -> list[dict]:
    """The reader's nodes in the node format, whatever it sent: the reader runs in the jail as the agent's
    user, so its answer is data from the agent's side. Fields of the wrong type become empty, text is cut,
    a box is four ints or None, parents point back into the list; anything that is not a node ends it."""
    out: list[dict] = []
    if not isinstance(nodes, list):
        return out

    def text(v, n=MAX_TEXT):
        return v[:n] if isinstance(v, str) else ""

    for n in nodes[:limit]:
        if not isinstance(n, dict):
            break
        box = n.get("box")
        ok_box = (isinstance(box, list) and len(box) == 4
                  and all(type(v) is int and -100_000 < v < 100_000 for v in box))
        parent = n.get("parent")
        depth = n.get("depth")
        states = n.get("states")
        out.append({"id": len(out),
                    "parent": parent if type(parent) is int and -1 <= parent < len(out) else -1,
                    "depth": depth if type(depth) is int and 0 <= depth < 1000 else 0,
                    "role": text(n.get("role"), 60), "name": text(n.get("name")), "value": text(n.get("value")),
                    "states": [text(x, 30) for x in states[:20] if isinstance(x, str)] if isinstance(states, list) else [],
                    "box": list(box) if ok_box else None, "app": text(n.get("app"), 100)})
    return out


def text_form(nodes: list[dict]) -> str:
    """A compact text form of a tree (one line per node, indented by depth): for sizes and prompts."""
    lines = []
    for n in nodes:
        box = "" if n["box"] is None else " @" + ",".join(str(v) for v in n["box"])
        extra = (f" value={n['value']!r}" if n["value"] else "") + (f" [{','.join(n['states'])}]" if n["states"] else "")
        lines.append(f"{'  ' * n['depth']}[{n['id']}] {n['role']} {n['name']!r}{extra}{box}")
    return "\n".join(lines)
