"""Text views of the screen beside the picture: the accessibility tree, a pruned DOM and set-of-marks.

`obs_mode` of every env (`hybridgym.core.HybridEnv`) asks for them; this module reads them.

- **Browser pages** (the browser, MiniWoB, phone and game suites): Chromium's own accessibility tree
  (CDP `Accessibility.getFullAXTree`) joined with its layout (`DOMSnapshot.captureSnapshot`), through the
  page's Playwright CDP session: one round trip each, no script in the page (a page cannot fake its tree by
  rewriting a JavaScript function). Boxes are converted from the page's layout to screen pixels of the
  observation: the snapshot's layout is in device pixels (Chromium lays out with the device scale, the
  phone's 2x included), the scroll offset is taken off and the browser window's chrome offset added, so
  the centre of a node's box is where a click lands on it.
- **The desktop**: the AT-SPI tree of the real GTK apps, read inside the desktop's jail
  (`hybridgym.sandbox.atspi`), and the window manager's window list.

A node is a dict: `id` (its index), `parent` (-1 for a root), `depth`, `role`, `name`, `value`, `states`
(a list: "focused", "focusable", "checked", "pressed", "expanded", "selected", "disabled", "editable",
"offscreen", ...), `box` ([x, y, w, h] in screen pixels, or None) and, on the desktop, `app`. Everything in
it comes from the page or app, that is from the agent's side: it is data, capped (names and values at
`MAX_NAME` characters, at most `MAX_NODES` nodes, the text at the env's cap) and never evaluated.
"""

from __future__ import annotations

import itertools
import json
from typing import Any, Iterable, Sequence

import numpy as np

#: obs_mode values: the screenshot is always there; the others add views
MODES = ("screenshot", "axtree", "dom", "som")
#: most nodes kept in a tree (depth first: the first ones)
MAX_NODES = 3000
#: longest name or value kept (characters)
MAX_NAME = 200
#: default cap of a text view (characters)
TEXT_CAP = 30_000

# AX roles that carry no meaning of their own: their children take their place
_SKIP_ROLES = {"none", "generic", "InlineTextBox", "LineBreak", "presentation", "Ignored", "IgnoredRole", ""}
#: roles an agent acts on (set-of-marks draws these)
INTERACTIVE = {
    # Chromium's AX roles
    "button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "listbox", "option", "menuitem",
    "menuitemcheckbox", "menuitemradio", "tab", "switch", "slider", "spinbutton", "treeitem", "ListBoxOption",
    "PopUpButton", "MenuListPopup", "MenuListOption", "DisclosureTriangle", "textField", "TextField",
    # AT-SPI role names (the desktop)
    "push button", "toggle button", "check box", "radio button", "menu item", "check menu item",
    "radio menu item", "text", "entry", "password text", "combo box", "spin button", "page tab", "list item",
    "table cell", "tree item", "slider", "icon", "link", "menu", "toggle", "terminal", "editbar",
}
#: roots of a page or an app: focusable, but not a target
_ROOTS = {"RootWebArea", "WebArea", "document web", "document frame", "frame", "window", "application", "iframe"}
_AX_STATES = {"focused": "focused", "focusable": "focusable", "checked": "checked", "pressed": "pressed",
              "expanded": "expanded", "selected": "selected", "disabled": "disabled", "editable": "editable",
              "required": "required", "invalid": "invalid", "readonly": "readonly", "modal": "modal"}
#: DOM elements left out of the pruned DOM (with what is inside them)
_DOM_SKIP = {"SCRIPT", "STYLE", "HEAD", "META", "LINK", "NOSCRIPT", "TEMPLATE", "TITLE", "BASE"}
#: attributes the pruned DOM keeps
_DOM_ATTRS = ("id", "name", "type", "value", "placeholder", "href", "aria-label", "role", "title", "alt", "for",
              "checked", "selected", "disabled", "readonly", "contenteditable", "data-id")


def parse_modes(obs_mode: str | Sequence[str] | None, offered: Sequence[str], suite: str) -> tuple[str, ...]:
    """The views asked for, as a tuple of `MODES` without "screenshot": from "axtree", "axtree+som",
    "axtree,som" or a list. A view the suite does not offer is a ValueError naming those it offers."""
    if obs_mode is None:
        return ()
    if isinstance(obs_mode, str):
        parts = [p.strip() for p in obs_mode.replace("+", ",").split(",")]
    elif isinstance(obs_mode, (list, tuple)) and all(isinstance(p, str) for p in obs_mode):
        parts = [p.strip() for p in obs_mode]
    else:
        raise ValueError(f"obs_mode must be one of {list(MODES)}, a list of them or 'axtree+som', got {obs_mode!r}")
    modes: list[str] = []
    for p in parts:
        if p not in MODES:
            raise ValueError(f"unknown obs_mode {p!r}; accepted: {', '.join(MODES)} (or several: 'axtree+som')")
        if p != "screenshot" and p not in offered:
            raise ValueError(f"obs_mode {p!r} is not offered by the {suite} suite; it offers "
                             f"{', '.join(['screenshot', *offered])}")
        if p != "screenshot" and p not in modes:
            modes.append(p)
    return tuple(modes)


def _clip(text: Any, n: int = MAX_NAME) -> str:
    s = "" if text is None else str(text)
    s = " ".join(s.split())
    return s if len(s) <= n else s[: n - 1] + "…"


# -- Chromium ------------------------------------------------------------------------------------------------
def _send(cdp, method: str, params: dict) -> dict:
    """One CDP call on Playwright's session, its reply as plain data. Playwright's sync API walks every object
    of a reply to wrap its own objects (there are none in these): for a tree of 600 nodes that is a third of
    the call (measured on the mail app: 40 -> 26 ms). The session's own coroutine is awaited instead, and the
    public call is the fallback if that inner API differs."""
    impl, sync = getattr(cdp, "_impl_obj", None), getattr(cdp, "_sync", None)
    if impl is not None and callable(sync):
        try:
            call = impl.send(method, params, None)
        except TypeError:          # another Playwright's signature
            call = None
        if call is not None:
            return sync(call)
    return cdp.send(method, params)


def page_snapshot(cdp) -> dict:
    """DOMSnapshot.captureSnapshot of the page (every frame's document, with its layout boxes)."""
    return _send(cdp, "DOMSnapshot.captureSnapshot",
                    {"computedStyles": ["visibility", "cursor"], "includeDOMRects": False, "includePaintOrder": False})


def page_axtree(cdp, geometry: "Geometry", snapshot: dict) -> list[dict]:
    """The page's accessibility tree (Accessibility.getFullAXTree) as nodes with screen boxes."""
    ax = _send(cdp, "Accessibility.getFullAXTree", {})["nodes"]
    lines: dict[int, list[list[int]]] = {}
    boxes = _backend_boxes(snapshot, geometry, lines)
    return ax_nodes(ax, boxes, geometry, _clickable(snapshot), lines)


class Geometry:
    """Page CSS pixels -> screen pixels: screen = origin + (css - scroll) * scale; `screen` is the
    observation's size, for what is on it."""

    def __init__(self, origin: tuple[float, float], scale: float, screen: tuple[int, int]):
        self.origin, self.scale, self.screen = origin, float(scale), screen

    def box(self, x: float, y: float, w: float, h: float, scroll: tuple[float, float]) -> list[int]:
        ox, oy = self.origin
        s = self.scale
        x0, y0 = ox + (x - scroll[0]) * s, oy + (y - scroll[1]) * s
        return [round(x0), round(y0), max(0, round(w * s)), max(0, round(h * s))]

    def visible(self, box: Sequence[int] | None) -> bool:
        """Whether the box's centre is on the observed screen (and it has an area)."""
        if not box or box[2] <= 0 or box[3] <= 0:
            return False
        cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
        return 0 <= cx < self.screen[0] and 0 <= cy < self.screen[1]


def _strings(snap: dict):
    table = snap.get("strings", [])
    return lambda i: table[i] if isinstance(i, int) and 0 <= i < len(table) else ""


def _backend_boxes(snap: dict, geometry: Geometry, lines: dict | None = None) -> dict[int, list[int]]:
    """backendNodeId -> its layout box in screen pixels, over every document of the snapshot. An inline
    element that wraps over lines (a link at a line's end) has a bounding box whose centre can fall between
    its lines: its line boxes go into `lines` (backendNodeId -> boxes, the first line first), and a click
    on it is aimed at its first line (`click_point`)."""
    out: dict[int, list[int]] = {}
    for doc in snap.get("documents", []):
        backend = doc["nodes"].get("backendNodeId", [])
        layout = doc.get("layout", {})
        scroll = (doc.get("scrollOffsetX", 0.0), doc.get("scrollOffsetY", 0.0))
        firsts = _first_lines(doc, _strings(snap))
        for node_index, bounds in zip(layout.get("nodeIndex", []), layout.get("bounds", [])):
            if 0 <= node_index < len(backend) and len(bounds) == 4:
                bid = backend[node_index]
                if bid not in out:          # the element's own box (its text runs come later)
                    out[bid] = geometry.box(*bounds, scroll)
                    if lines is not None and node_index in firsts:
                        lines[bid] = [geometry.box(*b, scroll) for b in firsts[node_index]]
    return out


#: elements laid out in lines (a wrapped one's first line is where a click hits it)
_INLINE = {"A", "SPAN", "LABEL", "B", "STRONG", "EM", "I", "U", "CODE", "ABBR", "SMALL", "MARK", "Q", "CITE"}


def _first_lines(doc: dict, strings) -> dict[int, list[list[float]]]:
    """node index -> the boxes of its lines of text (the first first), for the inline elements whose text
    runs over more than one line and whose bounding box's centre is on none of them (snapshot units)."""
    layout, boxes = doc.get("layout", {}), doc.get("textBoxes", {})
    node_of = layout.get("nodeIndex", [])
    parents = doc["nodes"].get("parentIndex", [])
    frags: dict[int, list[list[float]]] = {}
    for li, b in zip(boxes.get("layoutIndex", []), boxes.get("bounds", [])):
        if 0 <= li < len(node_of) and len(b) == 4:
            ni = node_of[li]
            for _ in range(3):              # the text's element and two around it (a link's span)
                ni = parents[ni] if 0 <= ni < len(parents) else -1
                if ni < 0:
                    break
                frags.setdefault(ni, []).append(b)
    own = dict(zip(node_of, layout.get("bounds", [])))
    names, table = doc["nodes"].get("nodeName", []), strings
    out: dict[int, list[float]] = {}
    for ni, fs in frags.items():
        if len({round(f[1]) for f in fs}) < 2 or ni not in own or ni >= len(names):
            continue
        if table(names[ni]).upper() not in _INLINE:     # a block's box stays its own
            continue
        x, y, w, h = own[ni]
        cx, cy = x + w / 2, y + h / 2
        if any(f[0] <= cx < f[0] + f[2] and f[1] <= cy < f[1] + f[3] for f in fs):
            continue
        rows: dict[int, list[list[float]]] = {}
        for f in fs:
            rows.setdefault(round(f[1]), []).append(f)
        out[ni] = []
        for _, row in sorted(rows.items()):
            x0, x1 = min(f[0] for f in row), max(f[0] + f[2] for f in row)
            out[ni].append([x0, min(f[1] for f in row), x1 - x0, max(f[3] for f in row)])
    return out


def _clickable(snap: dict) -> set[int]:
    """backendNodeIds of the elements a pointer click means something on, by their computed `cursor: pointer`
    (the outermost of nested ones: the cursor is inherited). Pages that handle clicks on a container
    (`closest('[data-id]')`) give the rows no role, but do give them the pointer."""
    s = _strings(snap)
    out: set[int] = set()
    for doc in snap.get("documents", []):
        nodes, layout = doc["nodes"], doc.get("layout", {})
        backend, parents = nodes.get("backendNodeId", []), nodes.get("parentIndex", [])
        pointer = {ni for ni, st in zip(layout.get("nodeIndex", []), layout.get("styles", []))
                   if len(st) > 1 and s(st[1]) == "pointer"}
        for ni in pointer:
            parent = parents[ni] if 0 <= ni < len(parents) else -1
            if parent not in pointer and 0 <= ni < len(backend):
                out.add(backend[ni])
    return out


def _prop(node: dict, key: str) -> Any:
    v = node.get(key)
    return v.get("value") if isinstance(v, dict) else None


def ax_nodes(ax: list[dict], boxes: dict[int, list[int]], geometry: Geometry,
             clickable: set[int] = frozenset(), lines: dict[int, list[list[int]]] | None = None) -> list[dict]:
    """Chromium's AX nodes as hybridgym nodes: ignored and meaningless nodes left out (their children
    moved up) unless `clickable` (backend ids: then state "clickable", named by their text), static text
    that only repeats its parent's name left out, boxes in screen pixels."""
    by_id = {n.get("nodeId"): n for n in ax}
    children = {n.get("nodeId"): [c for c in n.get("childIds", []) if c in by_id] for n in ax}
    has_parent = {c for cs in children.values() for c in cs}
    roots = [n.get("nodeId") for n in ax if n.get("nodeId") not in has_parent]
    out: list[dict] = []
    stack: list[tuple[str, int, int]] = [(r, -1, 0) for r in reversed(roots)]
    seen: set = set()
    while stack and len(out) < MAX_NODES:
        nid, parent, depth = stack.pop()
        if nid in seen:
            continue
        seen.add(nid)
        n = by_id[nid]
        role = str(_prop(n, "role") or "")
        name = _clip(_prop(n, "name"))
        clicks = n.get("backendDOMNodeId") in clickable and role not in _ROOTS
        keep = not n.get("ignored") and (role not in _SKIP_ROLES or clicks)
        if keep and role == "StaticText" and parent >= 0 and (not name or name == out[parent]["name"]):
            keep = False
        if keep and role in ("StaticText",) and not name:
            keep = False
        here, next_depth = parent, depth
        if keep:
            states = []
            for p in n.get("properties", []):
                key, val = p.get("name"), (p.get("value") or {}).get("value")
                if key in _AX_STATES and val not in (False, None, "false", "none"):
                    states.append(_AX_STATES[key])
            if clicks:
                states.append("clickable")
            box = boxes.get(n.get("backendDOMNodeId"))
            if box is not None and not geometry.visible(box):
                states.append("offscreen")
            out.append({"id": len(out), "parent": parent, "depth": depth, "role": role, "name": name,
                        "value": _clip(_prop(n, "value")), "states": states, "box": box})
            if lines and n.get("backendDOMNodeId") in lines:
                out[-1]["lines"] = lines[n["backendDOMNodeId"]][:20]
            here, next_depth = len(out) - 1, depth + 1
        for c in reversed(children.get(nid, [])):
            stack.append((c, here, next_depth))
    _name_by_text(out)
    _boxes_from_children(out)
    return out


def click_point(node: dict) -> tuple[int, int]:
    """Where a click on a node lands on it: its box's centre, or for an element wrapped over lines (`lines`)
    its first line's centre (the bounding box's centre can be between the lines)."""
    x, y, w, h = (node.get("lines") or [node["box"]])[0]
    return x + w // 2, y + h // 2


def _acts(node: dict) -> bool:
    """Whether a node is one an agent acts on: an interactive role, or focusable, editable or clickable."""
    return node.get("role") in INTERACTIVE or bool({"focusable", "editable", "clickable"} & set(node.get("states", ())))


def _area(box) -> bool:
    return bool(box) and box[2] > 0 and box[3] > 0


def _boxes_from_children(nodes: list[dict]) -> None:
    """A node Chromium laid out with no area (a link around a block: its inline box is empty) takes the box
    that holds its children's, so that the link is where its picture is."""
    grown: set[int] = set()
    for n in reversed(nodes):               # depth first: a node's children come after it
        p, b = n["parent"], n["box"]
        if p < 0 or not _area(b):
            continue
        parent = nodes[p]
        if p in grown:
            pb = parent["box"]
            x0, y0 = min(pb[0], b[0]), min(pb[1], b[1])
            x1, y1 = max(pb[0] + pb[2], b[0] + b[2]), max(pb[1] + pb[3], b[1] + b[3])
            parent["box"] = [x0, y0, x1 - x0, y1 - y0]
        elif not _area(parent["box"]):
            parent["box"] = list(b)
            grown.add(p)


def _name_by_text(nodes: list[dict]) -> None:
    """A clickable node with no name of its own is named by the text inside it (its first texts)."""
    texts: dict[int, list[str]] = {}
    for n in nodes:
        if n["role"] == "StaticText" and n["name"]:
            p = n["parent"]
            while p >= 0:
                if "clickable" in nodes[p]["states"] and not nodes[p]["name"]:
                    texts.setdefault(p, []).append(n["name"])
                p = nodes[p]["parent"]
    for i, parts in texts.items():
        nodes[i]["name"] = _clip(" ".join(parts[:4]))


def dom_nodes(snap: dict, geometry: Geometry) -> list[dict]:
    """A pruned DOM of the snapshot's documents: elements that are rendered and visible (scripts, styles,
    head and hidden elements left out), with the attributes that matter (`_DOM_ATTRS`) and their own text,
    boxes in screen pixels. A node: id, parent, depth, `tag`, `attrs`, `text`, `box`, and `role`/`name`
    (the tag and the text) so the views share one form."""
    s = _strings(snap)
    out: list[dict] = []
    for doc in snap.get("documents", []):
        nodes = doc["nodes"]
        names, types = nodes.get("nodeName", []), nodes.get("nodeType", [])
        parents, values = nodes.get("parentIndex", []), nodes.get("nodeValue", [])
        attrs = nodes.get("attributes", [])
        input_values = {i: v for i, v in zip(nodes.get("inputValue", {}).get("index", []),
                                             nodes.get("inputValue", {}).get("value", []))}
        checked = set(nodes.get("inputChecked", {}).get("index", []))
        layout = doc.get("layout", {})
        scroll = (doc.get("scrollOffsetX", 0.0), doc.get("scrollOffsetY", 0.0))
        box_of: dict[int, list[int]] = {}
        hidden: set[int] = set()
        for k, (ni, b) in enumerate(zip(layout.get("nodeIndex", []), layout.get("bounds", []))):
            if ni not in box_of and len(b) == 4:
                box_of[ni] = geometry.box(*b, scroll)
            styles = layout.get("styles", [])
            if k < len(styles) and styles[k] and s(styles[k][0]) == "hidden":
                hidden.add(ni)
        count = len(names)
        kids: dict[int, list[int]] = {}
        for i in range(count):
            p = parents[i] if i < len(parents) else -1
            kids.setdefault(p, []).append(i)
        kept: dict[int, int] = {}

        def text_of(i: int) -> str:
            parts = [s(values[c]) for c in kids.get(i, []) if types[c] == 3 and c in box_of]
            return _clip(" ".join(p for p in parts if p.strip()))

        stack = [(r, -1, 0) for r in reversed(kids.get(-1, []))]
        while stack and len(out) < MAX_NODES:
            i, parent, depth = stack.pop()
            tag = s(names[i])
            if types[i] == 1 and tag.upper() in _DOM_SKIP:
                continue
            here, next_depth = parent, depth
            if types[i] == 1 and i in box_of and i not in hidden:
                a = attrs[i] if i < len(attrs) else []
                pairs = {s(a[k]): s(a[k + 1]) for k in range(0, len(a) - 1, 2)}
                kept_attrs = {k: _clip(pairs[k], 100) for k in _DOM_ATTRS if k in pairs}
                if i in input_values:
                    kept_attrs["value"] = _clip(s(input_values[i]), 100)
                if i in checked:
                    kept_attrs["checked"] = ""
                text = text_of(i)
                box = box_of[i]
                if geometry.visible(box) or text or kept_attrs:
                    out.append({"id": len(out), "parent": parent, "depth": depth, "tag": tag.lower(),
                                "attrs": kept_attrs, "text": text, "box": box, "role": tag.lower(),
                                "name": text or kept_attrs.get("aria-label", "") or kept_attrs.get("placeholder", ""),
                                "states": [] if geometry.visible(box) else ["offscreen"]})
                    kept[i] = here = len(out) - 1
                    next_depth = depth + 1
            if types[i] in (1, 9, 11) or tag.startswith("#document"):
                for c in reversed(kids.get(i, [])):
                    if types[c] != 3:
                        stack.append((c, here, next_depth))
    return out


# -- the text forms ------------------------------------------------------------------------------------------
def _box_text(box) -> str:
    return "" if not box else f" @{box[0]},{box[1]},{box[2]}x{box[3]}"


def _capped(lines: Iterable[str], cap: int, what: str) -> str:
    """The lines joined, as many as fit in `cap` characters with room for a last line that says how many
    `what` were left out."""
    room = max(0, cap - 80)
    out, size, left = [], 0, 0
    for line in lines:
        if left or size + len(line) + 1 > room:
            left += 1
            continue
        out.append(line)
        size += len(line) + 1
    if left:
        out.append(f"... {left} more {what} left out (the text is capped at {cap} characters)"[:max(0, cap - size)])
    return "\n".join(out)[:cap]


def _q(text: str) -> str:
    """Text of the page or app in double quotes, its quotes and backslashes escaped (JSON's way): a name
    cannot end its quotes and pass for more of the line."""
    return json.dumps(str(text), ensure_ascii=False)


def _indent(n: dict) -> str:
    return "  " * min(n.get("depth", 0), 40)


def tree_text(nodes: Iterable[dict], cap: int = TEXT_CAP, windows: Sequence[dict] = ()) -> str:
    """One line per node, indented by depth: `[id] role "name" value="..." (states) @x,y,wxh` (box in
    screen pixels: x, y of its top left corner, its width and height), after a line per window of
    `windows` (the desktop); at most `cap` characters, the last line saying how many were left out."""
    def line(n: dict) -> str:
        app = f"{n['app']}: " if n.get("app") and n.get("parent", -1) < 0 else ""
        value = f' value={_q(n["value"])}' if n.get("value") else ""
        states = f" ({', '.join(n['states'])})" if n.get("states") else ""
        name = f" {_q(n['name'])}" if n.get("name") else ""
        return f"{_indent(n)}[{n['id']}] {app}{n['role']}{name}{value}{states}{_box_text(n.get('box'))}"
    return _capped(itertools.chain(map(_window_line, windows), map(line, nodes)), cap, "nodes")


def dom_text(nodes: Iterable[dict], cap: int = TEXT_CAP) -> str:
    """The pruned DOM, one element a line: `[id] <tag attr="..."> text @x,y,wxh`, at most `cap` characters."""
    def line(n: dict) -> str:
        attrs = "".join(f" {k}={_q(v)}" if v else f" {k}" for k, v in n.get("attrs", {}).items())
        text = f" {_q(n['text'])}" if n.get("text") else ""
        return f"{_indent(n)}[{n['id']}] <{n['tag']}{attrs}>{text}{_box_text(n.get('box'))}"
    return _capped(map(line, nodes), cap, "elements")


def _window_line(w: dict) -> str:
    """A window of the window manager's list: `window "title" app=... @x,y,wxh (focused)`."""
    return (f'window {_q(_clip(w.get("title")))} app={_q(_clip(w.get("app"), 60))}{_box_text(w.get("geometry"))}'
            f'{" (focused)" if w.get("focused") else ""}')


# -- set-of-marks --------------------------------------------------------------------------------------------
def interactive(nodes: Sequence[dict], screen: tuple[int, int], windows: Sequence[dict] = ()) -> list[dict]:
    """The nodes set-of-marks numbers: interactive roles (or focusable, editable, clickable; not a page's or
    window's root, but the window of a desktop app that shows nothing inside it, "opaque") whose box centre
    is on the screen, not disabled or off screen, inside the modal dialog when one is open, and (the
    desktop, given its `windows` in stacking order) not under a window stacked above its own (another app's,
    or its own app's dialog): a node partly under one is marked on the part beside it; of nodes with the same box the first (outermost) is kept;
    numbered from 1 in tree order."""
    geometry = Geometry((0, 0), 1.0, screen)
    marks: list[dict] = []
    boxes: set[tuple] = set()
    modal = [n["id"] for n in nodes if "modal" in n.get("states", ())]   # a modal dialog: only what is in it
    within = _subtree(nodes, modal[-1]) if modal else None
    covers: dict[tuple, list[dict]] = {}                             # the desktop: node's place -> windows over it
    window_of = _windows_of(nodes, windows) if windows else {}
    for n in nodes:
        if within is not None and n["id"] not in within:
            continue
        st = n.get("states", ())
        if "disabled" in st or "offscreen" in st or not geometry.visible(n.get("box")):
            continue
        if windows and n.get("app"):
            where = (window_of.get(n["id"]), n["app"], tuple(n["box"]))
            if where not in covers:
                covers[where] = _covers(windows, *where)
            part = _visible_part(n["box"], covers[where])
            if part is None or not geometry.visible(part):
                continue                     # covered by a window above its own
            if part != n["box"]:
                n = {**n, "box": part}       # the mark is the part a click reaches
        if (n.get("role") in _ROOTS or n.get("parent", -1) < 0) and "opaque" not in st:
            continue   # a root is not a target; a window of an app that shows nothing inside it is
        if not (_acts(n) or "opaque" in st):
            continue
        key = tuple(n["box"])
        if key in boxes:
            continue
        boxes.add(key)
        marks.append(n)
    out = []
    for k, n in enumerate(marks, 1):
        cx, cy = click_point(n)
        cx, cy = min(max(0, cx), screen[0] - 1), min(max(0, cy), screen[1] - 1)
        out.append({"mark": k, "node": n["id"], "role": n["role"], "name": n.get("name", ""), "box": list(n["box"]),
                    "center": [cx, cy]})
    return out


def _covering(windows: Sequence[dict], app: str) -> list[dict]:
    """The windows stacked above the topmost window of `app` (the window list is in stacking order, bottom
    first, as X lists a root's children), of other apps: what can cover that app's widgets."""
    app = str(app).lower()
    mine = [i for i, w in enumerate(windows) if str(w.get("app", "")).lower() == app]
    if not mine:
        return []
    return [w for w in windows[max(mine) + 1:] if str(w.get("app", "")).lower() != app and w.get("geometry")]


def _windows_of(nodes: Sequence[dict], windows: Sequence[dict]) -> dict[int, int | None]:
    """Node id -> the index in `windows` (stacking order) of the window the node is drawn in, or None when
    it cannot be told. A node is in its root's window: the app's window titled as the root is named (a
    dialog's root is named as its window), else the app's topmost window that holds the root's box centre."""
    root_of: dict[int, int] = {}
    for n in nodes:   # depth first: a parent comes before its children
        p = n.get("parent", -1)
        root_of[n["id"]] = root_of[p] if p in root_of else n["id"]
    by_root: dict[int, int | None] = {}
    for n in nodes:
        if root_of[n["id"]] != n["id"]:
            continue
        app = str(n.get("app", "")).lower()
        mine = [i for i, w in enumerate(windows) if str(w.get("app", "")).lower() == app and w.get("geometry")]
        titled = [i for i in mine if n.get("name") and windows[i].get("title") == n.get("name")]
        if titled:
            by_root[n["id"]] = titled[-1]
            continue
        box = n.get("box")
        if box:
            cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
            holding = [i for i in mine if _holds(windows[i]["geometry"], cx, cy)]
            by_root[n["id"]] = holding[-1] if holding else None
        else:
            by_root[n["id"]] = None
    return {nid: by_root[r] for nid, r in root_of.items()}


def _holds(geometry: Sequence[int], x: float, y: float) -> bool:
    return geometry[0] <= x < geometry[0] + geometry[2] and geometry[1] <= y < geometry[1] + geometry[3]


def _covers(windows: Sequence[dict], index: int | None, app: str, box: Sequence[int] | None = None) -> list[dict]:
    """The windows that can cover a node with `box` in window `index`: every window stacked above it,
    another app's, or its own app's (a dialog) unless the node lies inside that one (a menu's items sit in
    the frame's tree but are drawn in the menu's popup window); when its window is not known, the other
    apps' windows above the app's topmost (`_covering`)."""
    if index is None:
        return _covering(windows, app)
    app = str(app).lower()
    return [w for w in windows[index + 1:] if w.get("geometry") and not (
        box and str(w.get("app", "")).lower() == app and _inside(box, w["geometry"]))]


def _inside(box: Sequence[int], geometry: Sequence[int]) -> bool:
    return (geometry[0] <= box[0] and geometry[1] <= box[1] and box[0] + box[2] <= geometry[0] + geometry[2]
            and box[1] + box[3] <= geometry[1] + geometry[3])


def _visible_part(box: Sequence[int], covers: Sequence[dict]) -> list[int] | None:
    """The part of a desktop node's box a click reaches: all of it, or, where windows of other apps lie over
    it, the largest strip of it beside each in turn; None when one covers it."""
    part = list(box)
    for win in covers:
        x, y, w, h = part
        fx, fy, fw, fh = win["geometry"]
        if fx >= x + w or fx + fw <= x or fy >= y + h or fy + fh <= y:
            continue                                 # not under this window
        strips = [[x, y, fx - x, h], [fx + fw, y, x + w - fx - fw, h],      # left and right of the window
                  [x, y, w, fy - y], [x, fy + fh, w, y + h - fy - fh]]      # above and below it
        strips = [s for s in strips if s[2] > 0 and s[3] > 0]
        if not strips:
            return None
        part = max(strips, key=lambda s: s[2] * s[3])
    return part


def _subtree(nodes: Sequence[dict], root: int) -> set[int]:
    """Ids of `root` and the nodes under it (nodes come depth first: a subtree is contiguous)."""
    out = {root}
    for n in nodes[root + 1:]:
        if n.get("parent") not in out:
            break
        out.add(n["id"])
    return out


_COLOURS = [(230, 25, 75), (60, 140, 60), (0, 100, 200), (200, 110, 0), (145, 30, 180), (0, 140, 140),
            (180, 40, 120), (90, 90, 20)]


def draw_marks(frame: np.ndarray, marks: Sequence[dict]) -> np.ndarray:
    """A copy of `frame` with each mark's box outlined and its number on a label at the box's top left."""
    from PIL import Image, ImageDraw
    img = Image.fromarray(frame)
    draw = ImageDraw.Draw(img)
    font = _font()
    for m in marks:
        x, y, w, h = m["box"]
        colour = _COLOURS[m["mark"] % len(_COLOURS)]
        draw.rectangle([x, y, x + max(1, w) - 1, y + max(1, h) - 1], outline=colour, width=2)
        label = str(m["mark"])
        tw = draw.textlength(label, font=font)
        lx, ly = max(0, x), max(0, y - 14) if y >= 14 else max(0, y)
        draw.rectangle([lx, ly, lx + tw + 5, ly + 14], fill=colour)
        draw.text((lx + 3, ly), label, fill=(255, 255, 255), font=font)
    return np.asarray(img).copy()


_FONT = None


def _font():
    global _FONT
    if _FONT is None:
        from PIL import ImageFont
        try:
            _FONT = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 12)
        except OSError:
            _FONT = ImageFont.load_default(size=12)
    return _FONT


def marks_text(marks: Sequence[dict], cap: int = TEXT_CAP) -> str:
    """The marks as lines `[N] role "name" @x,y,wxh`: what `click(mark=N)` clicks."""
    return _capped((f'[{m["mark"]}] {m["role"]}' + (f" {_q(m['name'])}" if m["name"] else "") + _box_text(m["box"])
                    for m in marks), cap, "marks")


# -- the views of an env -------------------------------------------------------------------------------------
class Views:
    """What `obs_mode` adds to an env's observations: read from the sandbox after each observation.

    `modes`: the views asked for (`parse_modes`); `screen`: the observation's (width, height); `cap`: the
    longest text of a view. After `read`, `nodes` (the accessibility tree), `dom` (the pruned DOM),
    `windows` (the desktop's window list) and `marks` (set-of-marks) hold the structured views and `error`
    what kept them from being read (a page mid-navigation, an app that does not answer): the views are then
    empty, never an exception of the step.
    """

    def __init__(self, modes: Sequence[str], screen: tuple[int, int], cap: int = TEXT_CAP):
        if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1000:
            raise ValueError(f"obs_text_cap must be an int of at least 1000 characters, got {cap!r}")
        self.modes, self.screen, self.cap = tuple(modes), tuple(screen), cap
        self.clear()

    def clear(self) -> None:
        self.nodes: list[dict] = []
        self.dom: list[dict] = []
        self.windows: list[dict] = []
        self.marks: list[dict] = []
        self.error: str | None = None

    def spaces(self) -> dict:
        """The observation space's entries of the views."""
        from gymnasium import spaces
        from .spaces import UnicodeText
        w, h = self.screen
        out: dict = {}
        if "axtree" in self.modes:
            out["axtree"] = UnicodeText(self.cap)
        if "dom" in self.modes:
            out["dom"] = UnicodeText(self.cap)
        if "som" in self.modes:
            out["som"] = spaces.Box(0, 255, (h, w, 3), np.uint8)
            out["marks"] = UnicodeText(self.cap)
        return out

    def read(self, sb) -> None:
        """Read the views of what the sandbox's screen shows now."""
        self.clear()
        if not self.modes:
            return
        tree = "axtree" in self.modes or "som" in self.modes
        try:
            if getattr(sb, "desktop", None) is not None:
                self.windows = list(sb.windows())
                if tree:
                    self.nodes = list(sb.desktop_tree(self.windows, max_nodes=MAX_NODES))
            elif getattr(sb, "browser", None) is not None and sb.browser.page is not None:
                browser = sb.browser
                cdp = browser.cdp()
                # the snapshot's layout is in device pixels (Chromium lays out with the device scale, the
                # phone's 2x included), which are the screen's: only the window's offset is added
                geometry = Geometry(browser.viewport_origin(), 1.0, self.screen)
                snapshot = page_snapshot(cdp)
                if tree:
                    self.nodes = page_axtree(cdp, geometry, snapshot)
                if "dom" in self.modes:
                    self.dom = dom_nodes(snapshot, geometry)
            if "som" in self.modes:
                self.marks = interactive(self.nodes, self.screen, self.windows)
        except Exception as e:   # what the page or app did (a navigation, a hang): no views this time
            self.nodes, self.dom, self.marks = [], [], []
            self.error = _clip(f"{type(e).__name__}: {e}", 300)

    def observation(self, frame: np.ndarray | None) -> dict:
        """The views as observation entries (text capped at `cap`; `som` a marked copy of `frame`)."""
        out: dict = {}
        note = f"(the tree could not be read this step: {self.error})\n" if self.error else ""
        if "axtree" in self.modes:
            out["axtree"] = (note + tree_text(self.nodes, self.cap - len(note), self.windows))[: self.cap]
        if "dom" in self.modes:
            out["dom"] = (note + dom_text(self.dom, self.cap - len(note)))[: self.cap]
        if "som" in self.modes:
            out["som"] = draw_marks(frame, self.marks) if frame is not None else None
            out["marks"] = (note + marks_text(self.marks, self.cap - len(note)))[: self.cap]
        return out

    def centres(self) -> dict[int, tuple[int, int]]:
        """mark -> the screen pixel `click(mark=N)` clicks."""
        return {m["mark"]: (int(m["center"][0]), int(m["center"][1])) for m in self.marks}

    def info(self) -> dict:
        """The structured views for `info["views"]`."""
        out: dict = {}
        if "axtree" in self.modes or "som" in self.modes:
            out["nodes"] = self.nodes
        if "dom" in self.modes:
            out["dom"] = self.dom
        if self.windows:
            out["windows"] = self.windows
        if "som" in self.modes:
            out["marks"] = self.marks
        if self.error:
            out["error"] = self.error
        return out


# -- checking a tree against the screen ----------------------------------------------------------------------
#: the element a click on a page acts on: the nearest of these around the element at the point
_ACTIONABLE = ("a,button,input,select,textarea,label,summary,option,[role],[onclick],[tabindex],"
               "[contenteditable],canvas")
_HIT_JS = """([x, y, cx, cy, sel]) => {
  const e = document.elementFromPoint(x, y);
  if (!e) return null;
  let pointer = null;                 // the outermost element with the pointer cursor around e
  for (let q = e; q && q !== document.body; q = q.parentElement)
    if (getComputedStyle(q).cursor === 'pointer') pointer = q;
  const near = e.closest(sel);        // the nearest actionable element around e
  // the target: the more specific (inner) of the two, or e itself
  const t = near && pointer ? (near.contains(pointer) ? pointer : near) : (near || pointer || e);
  const h = document.elementFromPoint(cx, cy);
  const name = el => el ? el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') : null;
  return {element: name(e), target: name(t), hit: name(h), actionable: !!(near || pointer),
          ok: !!h && (t === h || t.contains(h))};
}"""


def innermost(nodes: Sequence[dict], x: float, y: float) -> dict | None:
    """The node whose box holds screen pixel (x, y): inside the open modal dialog if it holds the point; of
    those an agent acts on (set-of-marks' kinds) if any, the deepest (of equally deep ones the smallest); a
    page's or app's root only when nothing else does."""
    hits = [n for n in nodes if _area(n.get("box")) and n["box"][0] <= x < n["box"][0] + n["box"][2]
            and n["box"][1] <= y < n["box"][1] + n["box"][3]]
    modal = [n["id"] for n in nodes if "modal" in n.get("states", ())]
    if modal and len(nodes) > modal[-1] and nodes[modal[-1]]["id"] == modal[-1]:
        within = _subtree(nodes, modal[-1])
        if any(n["id"] in within for n in hits):      # a modal dialog takes the clicks on it
            hits = [n for n in hits if n["id"] in within]
    best, key = None, None
    for n in hits:
        b = n["box"]
        acts = _acts(n)
        k = (n.get("role") not in _ROOTS and n.get("parent", -1) >= 0, acts, n.get("depth", 0), -b[2] * b[3])
        if key is None or k > key:
            best, key = n, k
    return best


def check_click(browser, nodes: Sequence[dict], x: int, y: int) -> dict:
    """Whether the tree knows what a click at screen pixel (x, y) of a page acts on: the innermost node at
    the point (`innermost`), and whether a click at that node's box centre hits the same element (the
    page's `elementFromPoint`, the element's actionable ancestor: a link, button, input, a node with a
    role, the outermost `cursor: pointer`). A diagnostic for tests and benchmarks: it runs a script in the
    page. Returns {"found", "ok", "node", "element", "target", "hit", "actionable"}; "actionable" is False
    for a click on a bare container (a click beside the controls, to close a menu), which a tree of
    controls need not hold."""
    node = innermost(nodes, x, y)
    if node is None:
        return {"found": False, "ok": False, "node": None, "point": [x, y]}
    px, py = browser.to_page(x, y)
    cx, cy = browser.to_page(*click_point(node))
    out = browser.page.evaluate(_HIT_JS, [px, py, cx, cy, _ACTIONABLE]) or {}
    return {"found": True, "ok": bool(out.get("ok")), "node": node, "point": [x, y], **out}


def _uncovered(nodes: Sequence[dict], windows: Sequence[dict], x: int, y: int) -> list[dict]:
    """The desktop nodes a click at (x, y) can reach: those that no window stacked above their own window
    (another app's, or a dialog of their own app's: `_windows_of`) covers at that point."""
    if not windows:
        return list(nodes)
    window_of = _windows_of(nodes, windows)
    out, covered = [], {}
    for n in nodes:
        where = (window_of.get(n["id"]), n.get("app", ""), tuple(n["box"]) if n.get("box") else None)
        if where not in covered:
            covered[where] = any(_holds(w["geometry"], x, y) for w in _covers(windows, *where))
        if not covered[where]:
            out.append(n)
    return out


def check_desktop_click(nodes: Sequence[dict], x: int, y: int, windows: Sequence[dict] = ()) -> dict:
    """`check_click` for the desktop's AT-SPI tree: the node at (x, y) an agent acts on (`innermost`), and
    whether the innermost node at its box centre (of the part other apps' windows leave uncovered, as
    set-of-marks clicks it) is that node or inside it (the tree's boxes agree; that a
    click at the centre acts on the app is tests/test_atspi.py's). Every click counts: one where the tree
    has no control at the point is a miss (the app cannot be asked what is there)."""
    node = innermost(_uncovered(nodes, windows, x, y), x, y)
    if node is None:
        return {"found": False, "ok": False, "node": None, "point": [x, y]}
    acts = _acts(node) or node.get("role") == "window"
    covers = _covers(windows, _windows_of(nodes, windows).get(node["id"]), node.get("app", ""),
                     node["box"]) if windows else []
    part = _visible_part(node["box"], covers) or node["box"]   # as marks click it
    bx, by, bw, bh = part
    cx, cy = bx + bw // 2, by + bh // 2
    at = innermost(_uncovered(nodes, windows, cx, cy), cx, cy)
    inside = at is not None and (at["id"] == node["id"] or at["id"] in _subtree(nodes, node["id"]))
    return {"found": True, "ok": bool(acts and inside), "node": node, "point": [x, y], "actionable": True,
            "element": node.get("role"), "target": node.get("name"), "hit": at and at.get("role")}


def click_points(actions: Iterable) -> list[tuple[int, int]]:
    """The screen pixels parsed actions click, tap or press on (drags: where they start)."""
    out = []
    for a in actions:
        kind = getattr(a, "action_type", "")
        if kind in ("click", "left_single", "left_double", "right_single", "middle_single", "tap", "long_press"):
            out.append((int(a.x), int(a.y)))
        elif kind in ("mouse_down",) and getattr(a, "x", None) is not None:
            out.append((int(a.x), int(a.y)))
    return out


def audit_oracle_clicks(env, task_id: str, seed: int = 0) -> dict:
    """Play `task_id`'s oracle in `env` (made with an obs_mode that reads the tree, on a page suite) and check
    every element it clicks against the tree of the screen it clicks on (`check_click`): {"clicks",
    "ok", "misses" (what was missed), "bare" (clicks beside the controls, not counted), "stale" (steps whose
    own tree differed from the tree re-read when the oracle acted), "success"}."""
    from hybridgym.agents import OracleAgent
    from .actions import ActionError
    base = env.unwrapped
    obs, info = env.reset(seed=seed, options={"task": task_id})
    agent = OracleAgent()
    agent.reset(env, obs, info)
    out = {"task_id": task_id, "clicks": 0, "ok": 0, "bare": 0, "stale": 0, "misses": [], "success": False}
    while True:
        action = agent.act(obs)
        try:
            points = click_points(base.codec.parse(action))
        except ActionError:
            points = []
        if points:
            seen = [(n["role"], n["name"], n["box"]) for n in info["views"]["nodes"]]
            base.views.read(base.sandbox)          # the tree of the screen the oracle clicks on now
            out["stale"] += seen != [(n["role"], n["name"], n["box"]) for n in base.views.nodes]
        for x, y in points:
            hit = (check_click(base.sandbox.browser, base.views.nodes, x, y) if base.sandbox.browser is not None
                   else check_desktop_click(base.views.nodes, x, y, base.views.windows))
            if hit["found"] and not hit.get("actionable"):
                out["bare"] += 1
                continue
            out["clicks"] += 1
            out["ok"] += hit["ok"]
            if not hit["ok"]:
                node = hit.get("node") or {}
                out["misses"].append({"point": [x, y], **{k: hit.get(k) for k in ("element", "target", "hit")},
                                      "node": {k: node.get(k) for k in ("role", "name", "box")}})
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            out["success"] = bool(info["success"])
            return out
