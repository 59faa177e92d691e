"""The AT-SPI reader that runs INSIDE a desktop's jail, as the jail's user, with Debian's system
Python (`/usr/bin/python3` with gi: `Gio` for D-Bus, `Atspi` of `gir1.2-atspi-2.0` for the
role names); see `hybridgym.sandbox.atspi` for the host side that starts it.

It is one persistent process: each request is one JSON line on stdin (`{"max_nodes": N,
"time_limit": S}`), each answer one JSON line on stdout (`{"nodes": [...], "truncated": bool,
"ms": float}` or `{"error": str}`).

A read speaks the AT-SPI D-Bus interface itself, on the session's accessibility bus, with every
call of a round in flight at once (the apps answer them back to back; no round trip per
property): (1) the registry's list of apps; (2) per app, `Collection.GetMatches` for every
SHOWING object, in canonical (depth-first) order; (3) per object, its name, parent, states
and screen extents (its role the first time only: it is kept); (4) the text of editable texts and the value of
value widgets. The tree is rebuilt from the parent links.

Containers (`CONTAINER_ROLES`: panels, fillers, panes; about half of a GTK app's objects) are asked once:
their name and parent are kept while they show, and their box is the union of their children's. A
read then asks only the objects an agent can see and act on (of a spreadsheet's 190 objects, 95). A
container that takes the focus, or has no children (a canvas), is read as any object.

The apps are the agent's: whatever they expose (names of any size or content, any shape,
parent links that loop, wrong types, an app that hangs or dies mid-read) only ever leaves
nodes out or ends the read early, never this process. Names and values are cut to `TEXT_CAP`
characters, the objects asked per app to `max_nodes` (and `APP_CAP`), each call to
`CALL_TIMEOUT_MS`, the read to `time_limit` seconds.

This file uses only the standard library and gi: it must run under the system Python, not the
package's virtualenv (it is passed to `python3 -c` as text; the jail does not see the checkout).
"""

import json
import os
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, Gio, GLib  # noqa: E402

TEXT_CAP = 200
APP_CAP = 5000
MAX_APPS = 50
CALL_TIMEOUT_MS = 500
_S = Atspi.StateType
#: the states reported (AT-SPI names); "disabled" is added when ENABLED is absent
STATES = (("focused", _S.FOCUSED), ("focusable", _S.FOCUSABLE), ("selected", _S.SELECTED),
          ("checked", _S.CHECKED), ("pressed", _S.PRESSED), ("expanded", _S.EXPANDED),
          ("editable", _S.EDITABLE))
STATE_BITS = [(label, int(s)) for label, s in STATES]
SHOWING, ENABLED, EDITABLE, ACTIVE = int(_S.SHOWING), int(_S.ENABLED), int(_S.EDITABLE), int(_S.ACTIVE)
FOCUSABLE = int(_S.FOCUSABLE)
#: roles whose text is their value even when not editable (a calculator's display); never the
#: text of a "password text"
TEXT_ROLES = {"text", "entry", "terminal", "document text", "paragraph"}
#: roles whose value is a number (the Value interface)
VALUE_ROLES = {"slider", "scroll bar", "progress bar", "level bar", "dial"}
#: layout objects: read once while they show (name, parent); their box is their children's union
CONTAINER_ROLES = {"panel", "filler", "split pane", "scroll pane", "viewport", "layered pane", "glass pane",
                   "root pane"}
_ROLE_NAMES: dict = {}
_MIN = -(2 ** 31)
ROOT = "/org/a11y/atspi/accessible/root"
A11Y = "org.a11y.atspi."


def _cap(s) -> str:
    if not s:
        return ""
    s = s if isinstance(s, str) else str(s)
    return s if len(s) <= TEXT_CAP else s[:TEXT_CAP]


def role_name(r) -> str:
    try:
        r = int(r)
    except Exception:
        return "unknown"
    if r not in _ROLE_NAMES:
        try:
            _ROLE_NAMES[r] = Atspi.role_get_name(Atspi.Role(r)) or "unknown"
        except Exception:
            _ROLE_NAMES[r] = "unknown"
    return _ROLE_NAMES[r]


def _has(bits, state: int) -> bool:
    try:
        return bool((int(bits[state // 32]) >> (state % 32)) & 1)
    except Exception:
        return False


class Bus:
    """The accessibility bus and a batch of calls in flight."""

    def __init__(self):
        self.conn = None
        self.ctx = GLib.MainContext.default()
        #: (bus name, object path) -> role name: an object's role does not change, it is asked once
        self.roles = {}
        #: (bus name, object path) of a container with children -> its (GetAll answer, GetState answer),
        #: kept while it shows
        self.containers = {}
        #: containers that had no children at the last read (a canvas such as a spreadsheet's sheet): asked
        #: in full, extents included, at every read
        self.leaves = set()
        #: containers that take the focus (a file manager's icon view: a layered pane): an agent acts on them,
        #: on all of their box; read as any object
        self.solid = set()

    def connect(self):
        if self.conn is not None and not self.conn.is_closed():
            return self.conn
        session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        addr = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                                 GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, 2000, None).unpack()[0]
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        self.conn = Gio.DBusConnection.new_for_address_sync(addr, flags, None, None)
        return self.conn

    def batch(self, calls, deadline: float) -> list:
        """Run calls (bus, path, interface, method, params Variant or None) all at once; their
        unpacked answers in order (None for an error or no answer by the deadline)."""
        conn = self.connect()
        out = [None] * len(calls)
        left = [len(calls)]
        cancel = Gio.Cancellable()

        def done(c, res, i):
            try:
                out[i] = c.call_finish(res).unpack()
            except Exception:
                out[i] = None
            left[0] -= 1

        for i, (bus, path, iface, method, params) in enumerate(calls):
            conn.call(bus, path, iface, method, params, None, Gio.DBusCallFlags.NO_AUTO_START,
                      CALL_TIMEOUT_MS, cancel, done, i)
        while left[0] > 0:
            if time.monotonic() > deadline:
                cancel.cancel()
                while left[0] > 0:   # the cancelled calls complete at once
                    self.ctx.iteration(True)
                break
            self.ctx.iteration(True)
        return out


def _match_rule() -> tuple:
    """A Collection match rule: states ALL of {SHOWING}; attributes, roles, interfaces: ALL of
    nothing (any); not inverted."""
    bits = [0, 0]
    bits[SHOWING // 32] |= 1 << (SHOWING % 32)
    return (bits, 1, {}, 1, [], 1, [], 1, False)


def read_tree(bus: Bus, max_nodes: int, time_limit: float) -> dict:
    t0 = time.monotonic()
    deadline = t0 + max(0.01, float(time_limit))
    max_nodes = max(0, int(max_nodes))
    truncated = False
    (apps,) = bus.batch([("org.a11y.atspi.Registry", ROOT, A11Y + "Accessible", "GetChildren", None)], deadline)
    apps = [a for a in (apps or ((),))[0] if isinstance(a, tuple) and len(a) == 2][:MAX_APPS]
    # per app: its name, its windows (for the focus order), its showing objects
    per = max(1, min(APP_CAP, max_nodes * 2))
    rule = _match_rule()
    calls = []
    for b, p in apps:
        calls.append((b, p, "org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (A11Y + "Accessible", "Name"))))
        calls.append((b, p, A11Y + "Collection", "GetMatches",
                      GLib.Variant("((aiia{ss}iaiiasib)uib)", (rule, 1, per, True))))
    ans = bus.batch(calls, deadline)
    phases = [round((time.monotonic() - t0) * 1000, 2)]
    objs = []   # (app index, bus, path)
    cut = set()   # apps whose objects were cut at `per`: their containers are read as any object (a union of
    #               the children read would not be the container's box)
    app_names = []
    for k, (b, p) in enumerate(apps):
        name, matches = ans[2 * k], ans[2 * k + 1]
        app_names.append(_cap(name[0]) if name else "")
        refs = matches[0] if matches else []
        if len(refs) >= per:
            truncated = True
            cut.add(k)
        for r in refs[:per]:
            if isinstance(r, tuple) and len(r) == 2 and isinstance(r[1], str):
                objs.append((k, r[0] or b, r[1]))
    calls = []
    if len(bus.roles) > 50_000:   # objects come and go: forget them now and then
        bus.roles.clear()
    showing = {(b, p) for _, b, p in objs}
    for key in [key for key in bus.containers if key not in showing]:
        del bus.containers[key]   # gone or hidden: read again when it shows again
    asked = []   # (bus, path, where its answers start, whether its extents are asked)
    for k, b, p in objs:
        if (b, p) in bus.containers and k not in cut:
            continue
        extents = (bus.roles.get((b, p)) not in CONTAINER_ROLES or (b, p) in bus.leaves or (b, p) in bus.solid
                   or k in cut)
        asked.append((b, p, len(calls), extents))
        # GetAll, not Get of Name and Parent: Chromium builds an object's children only once asked for its
        # ChildCount (which GetAll asks); with Get alone its windows stay empty frames
        calls += [(b, p, "org.freedesktop.DBus.Properties", "GetAll", GLib.Variant("(s)", (A11Y + "Accessible",))),
                  (b, p, A11Y + "Accessible", "GetState", None)]
        if extents:
            calls.append((b, p, A11Y + "Component", "GetExtents", GLib.Variant("(u)", (0,))))
    new_roles = [(b, p) for _, b, p in objs if (b, p) not in bus.roles]
    first_role = len(calls)
    calls += [(b, p, A11Y + "Accessible", "GetRole", None) for b, p in new_roles]
    ans = bus.batch(calls, deadline)
    phases.append(round((time.monotonic() - t0) * 1000, 2))
    for key, role in zip(new_roles, ans[first_role:]):
        if role is not None:
            bus.roles[key] = role_name(role[0])
    answers = {}
    for b, p, at, extents in asked:
        if bus.roles.get((b, p)) in CONTAINER_ROLES and ans[at + 1] is not None and \
                _has(list(ans[at + 1][0]), FOCUSABLE):
            bus.solid.add((b, p))
        container = bus.roles.get((b, p)) in CONTAINER_ROLES and (b, p) not in bus.solid
        answers[(b, p)] = (ans[at], ans[at + 1], ans[at + 2] if extents else None)
        if container and ans[at] is not None and ans[at + 1] is not None:
            bus.containers[(b, p)] = (ans[at], ans[at + 1])
    nodes = {}   # (bus, path) -> node fields, in the matches' order
    order = []
    for j, (k, b, p) in enumerate(objs):
        if (b, p) in answers:
            props, state, ext = answers[(b, p)]
        else:
            (props, state), ext = bus.containers[(b, p)], None
        if props is None or state is None:
            continue
        try:
            props = props[0] if isinstance(props[0], dict) else {}
            name = (props.get("Name"),)
            par = props.get("Parent")
            bits = list(state[0])
            if not _has(bits, SHOWING):
                continue
            box = None
            if ext is not None:
                x, y, w, h = (int(v) for v in ext[0])
                if x != _MIN and y != _MIN and w > 0 and h > 0:
                    box = [x, y, w, h]
            parent = (par[0] or b, par[1]) if isinstance(par, tuple) and len(par) == 2 else None
            st = [label for label, s in STATE_BITS if _has(bits, s)]
            if not _has(bits, ENABLED):
                st.append("disabled")
            node = {"role": bus.roles.get((b, p), "unknown"), "name": _cap(name[0]),
                    "value": "", "states": st, "box": box, "app": app_names[k]}
        except Exception:
            continue
        key = (b, p)
        if key in nodes:
            continue
        nodes[key] = (node, parent, k, _has(bits, EDITABLE), _has(bits, ACTIVE))
        order.append(key)
    # values: the text of editable texts, the number of value widgets
    calls, targets = [], []
    for key in order:
        node, _, _, editable, _ = nodes[key]
        if (editable or node["role"] in TEXT_ROLES) and node["role"] != "password text":
            calls.append((key[0], key[1], A11Y + "Text", "GetText", GLib.Variant("(ii)", (0, TEXT_CAP))))
            targets.append((key, "text"))
        elif node["role"] in VALUE_ROLES:
            calls.append((key[0], key[1], "org.freedesktop.DBus.Properties", "Get",
                          GLib.Variant("(ss)", (A11Y + "Value", "CurrentValue"))))
            targets.append((key, "value"))
    if calls and time.monotonic() < deadline:
        for (key, kind), a in zip(targets, bus.batch(calls, deadline)):
            try:
                if a is not None:
                    nodes[key][0]["value"] = _cap(a[0]) if kind == "text" else _cap(repr(float(a[0])))
            except Exception:
                pass
    # the tree from the parent links (a link to an object not kept, or a loop: a root)
    kids = {key: [] for key in order}
    roots = []
    for key in order:
        parent = nodes[key][1]
        if parent in kids and parent != key:
            kids[parent].append(key)
        else:
            roots.append(key)
    # a container's box: the union of its children's (post-order); one without children keeps its own
    # extents and is asked in full next time
    for key in order:
        if nodes[key][0]["role"] in CONTAINER_ROLES and nodes[key][2] not in cut and key not in bus.solid:
            if kids[key]:
                nodes[key][0]["box"] = None
                bus.leaves.discard(key)
            else:
                bus.leaves.add(key)
                bus.containers.pop(key, None)
    if len(bus.leaves) + len(bus.solid) > 50_000:
        bus.leaves.clear()
        bus.solid.clear()

    def union(key, depth):
        node = nodes[key][0]
        boxes = [b for b in (union(c, depth + 1) for c in kids[key]) if b] if depth < 100 else []
        if node["box"] is None and node["role"] in CONTAINER_ROLES and key not in bus.solid and boxes:
            x0 = min(b[0] for b in boxes)
            y0 = min(b[1] for b in boxes)
            x1 = max(b[0] + b[2] for b in boxes)
            y1 = max(b[1] + b[3] for b in boxes)
            node["box"] = [x0, y0, x1 - x0, y1 - y0]
        return node["box"]

    for r in roots:
        union(r, 0)
    # prune (post-order): no box, no name and no kept children
    keep = {}

    def kept(key, depth):
        if depth > 100:
            return False
        node = nodes[key][0]
        any_kid = False
        for c in kids[key]:
            any_kid = kept(c, depth + 1) or any_kid
        keep[key] = bool(node["box"] or node["name"] or any_kid)
        return keep[key]

    for r in roots:
        kept(r, 0)
    # the focused window's app first (an ACTIVE window among its roots), then the registry's order
    active_apps = {nodes[r][2] for r in roots if nodes[r][4]}
    roots.sort(key=lambda r: (0 if nodes[r][2] in active_apps else 1, nodes[r][2]))
    out = []

    def emit(key, parent, depth):
        if len(out) >= max_nodes or depth > 100 or not keep.get(key):
            return
        me = len(out)
        out.append({"id": me, "parent": parent, "depth": depth, **nodes[key][0]})
        for c in kids[key]:
            emit(c, me, depth + 1)

    for r in roots:
        emit(r, -1, 0)
    if len(out) >= max_nodes and sum(keep.values()) > max_nodes:
        truncated = True
    if time.monotonic() > deadline:
        truncated = True
    return {"nodes": out, "truncated": truncated, "ms": round((time.monotonic() - t0) * 1000, 2),
            "phases_ms": phases, "asked": len(objs)}


def main() -> None:
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)   # whatever a library prints goes to stderr, not into the answers
    sys.setrecursionlimit(10000)
    bus = Bus()
    for line in sys.stdin:
        try:
            req = json.loads(line)
            ans = read_tree(bus, int(req.get("max_nodes", 2000)), float(req.get("time_limit", 2.0)))
        except Exception as e:   # noqa: BLE001 (an answer, whatever happened)
            bus.conn = None
            ans = {"error": f"{type(e).__name__}: {e}"[:500]}
        out.write(json.dumps(ans) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
