"""`hybridgym report RUN_DIR`: a static HTML report of a run's trajectories, to score models by and to see
what each episode did.

    python -m hybridgym.report runs/bench            # writes runs/bench/report/index.html
    from hybridgym.report import write_report
    write_report("runs/bench", out_dir="/tmp/rep", title="UI-TARS vs oracle")

The report is a folder: `index.html` (success rate and normalized score per agent, per suite and agent,
per task and agent, with 95% intervals over seeds from `hybridgym.scores`; every episode in a table; filters
by suite, agent and outcome) and `episodes/<episode>.html` (the header, the result, then each step: the
screenshot the agent saw when it acted with its actions drawn over it, its raw output, the parsed actions,
SDK output, errors, reward and timings; then the final screenshot). Screenshots are referenced in place
(relative paths into the trajectory folders), so the report opens from file:// as long as it stays beside
the run, and needs no network.

Everything a trajectory holds may come from the agent, an adversary: every text is HTML-escaped where it is
shown, every path is URL-quoted, and a Content-Security-Policy lets only the report's own script run.
"""

from __future__ import annotations

import argparse
import base64
import datetime as _dt
import hashlib
import html
import json
import math
import os
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .actions.model import ACTION_TYPES
from .scores import record_of, summarize
from .trajectory import Trajectory, TrajectoryError, load_run

#: the most characters of one text (raw output, SDK output, ...) a page shows; the rest is counted
MAX_TEXT = 20000
#: the most characters of a typed text or hotkey drawn on a screenshot
MAX_LABEL = 48
#: pointer actions drawn as a numbered circle, with the kind of circle
POINTS = {"click": "click", "tap": "click", "left_double": "double", "right_single": "right",
          "middle_single": "right", "hover": "hover", "mouse_down": "press", "mouse_up": "press"}
#: actions drawn as a label on the screenshot (they act where the focus is)
LABELS = ("type", "hotkey", "keydown", "keyup", "press_home", "press_back", "open_app")


def esc(value: Any) -> str:
    """`value` as HTML text (attribute-safe: quotes escaped); None is empty."""
    return "" if value is None else html.escape(str(value), quote=True)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"… ({len(text) - limit:,} more characters)"


def _as_text(value: Any) -> str:
    """A recorded value as text to show: strings as they are, anything else as JSON (indented when long)."""
    if isinstance(value, str):
        return value
    try:
        text = json.dumps(value, ensure_ascii=False)
        if len(text) <= 100:
            return text
        if isinstance(value, list) and all(isinstance(v, dict) for v in value):   # a list of actions: one a line
            return "[" + ",\n ".join(json.dumps(v, ensure_ascii=False) for v in value) + "]"
        return json.dumps(value, ensure_ascii=False, indent=1)
    except (TypeError, ValueError):
        return repr(value)


def _pre(value: Any, cls: str = "") -> str:
    return f'<pre class="{cls}">{esc(_clip(_as_text(value), MAX_TEXT))}</pre>'


def _num(value: Any) -> float | None:
    """A finite number from a record, or None (a hand-edited or hostile file may hold anything)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _fmt(value: Any, digits: int = 2) -> str:
    v = _num(value)
    if v is None:
        return "" if value is None else esc(value)
    return f"{v:.{digits}f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def _url(path: Path | None, start: Path) -> str | None:
    """`path` as a URL relative to the folder `start` (quoted: a file name is agent-reachable text)."""
    if path is None:
        return None
    return quote(Path(os.path.relpath(path, start)).as_posix())


def _outcome(traj: Trajectory) -> str:
    return "incomplete" if not traj.complete else "success" if traj.success else "failure"


OUTCOME_TEXT = {"success": "✓ success", "failure": "✗ failure", "incomplete": "⚠ did not end"}


# -- actions: in words, and drawn over the screenshot -----------------------------------------------------------
def _xy(a: dict, x: str = "x", y: str = "y") -> tuple[float, float] | None:
    px, py = _num(a.get(x)), _num(a.get(y))
    return None if px is None or py is None else (px, py)


def describe(action: Any) -> str:
    """One parsed action (a dict of `hybridgym.actions`) in a few words, as plain text (escape it to show)."""
    if not isinstance(action, dict):
        return _clip(_as_text(action), 300)
    kind = str(action.get("action_type", "?"))
    at = lambda p: f" ({_fmt(p[0])}, {_fmt(p[1])})" if p else ""   # noqa: E731
    quoted = lambda key: json.dumps(str(action.get(key, "")), ensure_ascii=False)   # noqa: E731
    names = {"left_double": "double click", "right_single": "right click", "middle_single": "middle click",
             "mouse_down": "mouse down", "mouse_up": "mouse up", "long_press": "long press",
             "press_home": "press home", "press_back": "press back", "open_app": "open app"}
    name = names.get(kind, kind)
    if kind in ("drag", "swipe"):
        text = f"{name}{at(_xy(action, 'x1', 'y1'))} → {at(_xy(action, 'x2', 'y2')).strip()}"
    elif kind == "scroll":
        text = f"scroll {action.get('direction')} ×{_fmt(action.get('amount'))}{at(_xy(action))}"
    elif kind in ("type", "finished", "call_user"):
        text = f"{name} {quoted('text' if kind == 'type' else 'content')}"
    elif kind == "hotkey":
        keys = action.get("keys")
        text = "hotkey " + ("+".join(map(str, keys)) if isinstance(keys, (list, tuple)) else str(keys))
    elif kind in ("keydown", "keyup"):
        text = f"{kind} {action.get('key')}"
    elif kind == "long_press":
        text = f"long press{at(_xy(action))} {_fmt(action.get('duration'))} s"
    elif kind == "open_app":
        text = f"open app {quoted('app_name')}"
    elif kind == "terminal":
        text = f"terminal $ {action.get('command')}"
    elif kind in ("read_file", "write_file", "edit_file"):
        extra = f" ({len(str(action.get('content', '')))} chars)" if kind == "write_file" else ""
        command = f"{action.get('command')} " if kind == "edit_file" else ""
        text = f"{kind} {command}{action.get('path')}{extra}"
    elif kind == "wait":
        text = f"wait {_fmt(action.get('seconds'))} s"
    elif kind in POINTS:
        button = action.get("button")
        text = f"{name}{' ' + str(button) if kind in ('mouse_down', 'mouse_up') and button else ''}{at(_xy(action))}"
    else:
        rest = {k: v for k, v in action.items() if k != "action_type"}
        text = f"{name} {json.dumps(rest, ensure_ascii=False)}" if rest else name
    return _clip(text, 300)


def _on_screen(action: Any) -> bool:
    """Whether `overlay` draws the action (a pointer action with a position, or a typed text or key)."""
    if not isinstance(action, dict):
        return False
    kind = action.get("action_type")
    if kind in ("drag", "swipe"):
        return bool(_xy(action, "x1", "y1") and _xy(action, "x2", "y2"))
    if kind in POINTS or kind in ("long_press",):
        return _xy(action) is not None
    return kind == "scroll" or kind in LABELS


def _arrow(x1: float, y1: float, x2: float, y2: float, u: float, cls: str) -> str:
    """A line from (x1, y1) to (x2, y2) with an arrowhead at the end (drawn, not an SVG marker: no ids)."""
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    head = 2.2 * u
    bx, by = x2 - ux * head, y2 - uy * head
    px, py = -uy * head * 0.55, ux * head * 0.55
    return (f'<g class="{cls}"><line x1="{x1:.1f}" y1="{y1:.1f}" x2="{bx:.1f}" y2="{by:.1f}"/>'
            f'<polygon points="{x2:.1f},{y2:.1f} {bx + px:.1f},{by + py:.1f} {bx - px:.1f},{by - py:.1f}"/></g>')


def _label(x: float, y: float, text: str, u: float, width: float) -> str:
    size = 1.8 * u
    w = 0.62 * size * len(text) + 1.2 * u
    x = max(0.0, min(x, width - w))
    return (f'<g class="label"><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{2.5 * u:.1f}" rx="{0.4 * u:.1f}"/>'
            f'<text x="{x + 0.6 * u:.1f}" y="{y + 1.8 * u:.1f}" font-size="{size:.1f}">{esc(text)}</text></g>')


def last_point(actions: Any) -> tuple[float, float] | None:
    """Where the pointer is after a step's actions (the end of a drag), or None if none moved it."""
    last = None
    for a in actions if isinstance(actions, list) else []:
        if isinstance(a, dict) and _on_screen(a) and a.get("action_type") not in LABELS:
            end = _xy(a, "x2", "y2") if a.get("action_type") in ("drag", "swipe") else _xy(a)
            last = end or last
    return last


def overlay(actions: list, width: int, height: int, focus: tuple[float, float] | None = None) -> str:
    """An SVG in the screenshot's pixel coordinates (viewBox 0 0 width height) that draws a step's actions:
    clicks and taps as rings with a dot at the point (two rings for a double click, a square for a right
    click), drags and swipes as arrows, a scroll as an arrow in its direction, a long press as a thick ring;
    each numbered by its place in the step. Typed text and keys are labels beside the pointer: where this
    step's last pointer action was, else `focus` (where the pointer was before the step), else top left."""
    u = max(width, height) / 100
    r = 1.8 * u
    parts: list[str] = []
    labels: list[str] = []

    def mark(n: int, x: float, y: float, cls: str, shape: str = "circle", radius: float = r) -> None:
        if shape == "rect":
            parts.append(f'<rect class="act {cls}" data-n="{n}" x="{x - radius:.1f}" y="{y - radius:.1f}" '
                         f'width="{2 * radius:.1f}" height="{2 * radius:.1f}"/>')
        else:
            parts.append(f'<circle class="act {cls}" data-n="{n}" cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}"/>')
        parts.append(f'<circle class="dot {cls}" cx="{x:.1f}" cy="{y:.1f}" r="{0.35 * u:.1f}"/>'
                     f'<text class="n" x="{x + 0.8 * radius:.1f}" y="{y - 0.8 * radius:.1f}" '
                     f'font-size="{2.0 * u:.1f}" stroke-width="{0.4 * u:.1f}">{n}</text>')

    for n, a in enumerate(actions if isinstance(actions, list) else [], start=1):
        if not _on_screen(a):
            continue
        kind = a.get("action_type")
        if kind in ("drag", "swipe"):
            (x1, y1), (x2, y2) = _xy(a, "x1", "y1"), _xy(a, "x2", "y2")
            parts.append(_arrow(x1, y1, x2, y2, u, f"act {kind}"))
            mark(n, x1, y1, kind)
        elif kind == "scroll":
            x, y = _xy(a) or (width / 2, height / 2)
            dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}.get(a.get("direction"), (0, 1))
            parts.append(_arrow(x, y, x + dx * 9 * u, y + dy * 9 * u, u, "act scroll"))
            mark(n, x, y, "scroll")
            labels.append(f"{n} scroll {a.get('direction')} ×{_fmt(a.get('amount'))}")
        elif kind in LABELS:
            text = describe(a)
            labels.append(f"{n} {text if len(text) <= MAX_LABEL else text[:MAX_LABEL] + '…'}")
        elif kind == "long_press":
            mark(n, *_xy(a), "long", radius=2.8 * u)
        else:
            style, (x, y) = POINTS[kind], _xy(a)
            mark(n, x, y, style, "rect" if style in ("right", "press") else "circle")
            if style == "double":
                parts.append(f'<circle class="act double outer" cx="{x:.1f}" cy="{y:.1f}" r="{2.6 * u:.1f}"/>')
    anchor = last_point(actions) or focus
    x, y = (anchor[0] + 2.4 * u, anchor[1] + 1.2 * u) if anchor else (u, u)
    y = max(0.0, min(y, height - 2.8 * u * len(labels)))
    for i, text in enumerate(labels):
        parts.append(_label(x, y + 2.8 * u * i, text, u, width))
    return (f'<svg class="overlay" viewBox="0 0 {width} {height}" preserveAspectRatio="none" '
            f'xmlns="http://www.w3.org/2000/svg" aria-hidden="true">{"".join(parts)}</svg>')


# -- pages ----------------------------------------------------------------------------------------------------
CSS = """
:root { --ok: #1a7f37; --bad: #c62828; --warn: #b26a00; --muted: #667; --line: #dde; --bg: #f6f7fb; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1d2330;
       background: var(--bg); }
main { max-width: 1500px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 22px; margin: 4px 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; }
h3 { font-size: 15px; margin: 0 0 6px; }
a { color: #1f5fbf; text-decoration: none; } a:hover { text-decoration: underline; }
.meta { color: var(--muted); margin: 0 0 12px; }
table { border-collapse: collapse; background: #fff; width: 100%; border: 1px solid var(--line); }
th, td { padding: 5px 9px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: #eef0f6; font-weight: 600; position: sticky; top: 44px; z-index: 1; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr[hidden] { display: none; }
tbody tr:hover { background: #f3f6ff; }
.ok { color: var(--ok); font-weight: 600; } .bad { color: var(--bad); font-weight: 600; }
.warn { color: var(--warn); font-weight: 600; }
tr.incomplete td { background: #fff7e6; }
.banner { border: 1px solid #f0c36d; background: #fff7e6; padding: 8px 12px; border-radius: 6px; margin: 8px 0; }
.filters { position: sticky; top: 0; z-index: 2; background: var(--bg); padding: 8px 0; display: flex; gap: 16px;
           align-items: center; flex-wrap: nowrap; overflow-x: auto; border-bottom: 1px solid var(--line);
           height: 44px; white-space: nowrap; }
.filters label { font-weight: 600; }
select { font: inherit; padding: 2px 4px; margin-left: 4px; max-width: 18em; text-overflow: ellipsis; }
.count { color: var(--muted); }
.bar { display: inline-block; position: relative; width: 90px; height: 10px; background: #e6e8ef;
       border-radius: 2px; vertical-align: middle; margin-right: 6px; }
.bar i { position: absolute; left: 0; top: 0; bottom: 0; background: #7aa7e8; border-radius: 2px; }
.bar b { position: absolute; top: 4px; height: 2px; background: #1d2330; }
small { color: var(--muted); }
td.msg { max-width: 420px; overflow-wrap: anywhere; }
pre { background: #fff; border: 1px solid var(--line); padding: 6px 8px; margin: 2px 0 8px; white-space: pre-wrap;
      overflow-wrap: anywhere; max-height: 320px; overflow: auto; font: 12px/1.4 ui-monospace, Menlo, monospace;
      unicode-bidi: isolate; }
pre.err { border-color: #e8a0a0; background: #fff3f3; }
.nav { display: flex; gap: 18px; padding: 8px 0; flex-wrap: wrap; }
.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; }
.kv dt { color: var(--muted); } .kv dd { margin: 0; overflow-wrap: anywhere; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; margin: 10px 0; }
.cols { display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: 0 16px; }
.step { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; align-items: start; }
.step.portrait { grid-template-columns: auto minmax(0, 1fr); }
.shot { position: relative; max-width: 100%; }
.shot img { display: block; width: 100%; height: auto; border: 1px solid #bbc; }
.shot svg { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; overflow: visible; }
.noshot { color: var(--muted); padding: 30px; border: 1px dashed #bbc; text-align: center; }
.overlay .act { fill: rgba(230, 25, 75, .12); stroke: #e6194b; stroke-width: VAR_STROKE; }
.overlay .dot { fill: #e6194b; stroke: #fff; stroke-width: 0.1%; }
.overlay .double { stroke: #f58231; } .overlay .double.outer { fill: none; } .overlay .dot.double { fill: #f58231; }
.overlay .right, .overlay .press { fill: rgba(145, 30, 180, .12); stroke: #911eb4; }
.overlay .dot.right, .overlay .dot.press { fill: #911eb4; }
.overlay .hover { fill: none; stroke-dasharray: 4 3; }
.overlay .long { fill: none; stroke: #f032e6; stroke-width: VAR_THICK; } .overlay .dot.long { fill: #f032e6; }
.overlay g.drag, .overlay g.swipe { stroke: #0a8f3c; fill: #0a8f3c; }
.overlay .drag, .overlay .swipe { stroke: #0a8f3c; } .overlay .dot.drag, .overlay .dot.swipe { fill: #0a8f3c; }
.overlay circle.drag, .overlay circle.swipe { fill: rgba(10, 143, 60, .12); }
.overlay g.scroll { stroke: #1f5fbf; fill: #1f5fbf; }
.overlay circle.scroll { fill: rgba(31, 95, 191, .12); stroke: #1f5fbf; } .overlay .dot.scroll { fill: #1f5fbf; }
.overlay g.act line { stroke-width: VAR_THICK; } .overlay g.act polygon { stroke: none; }
.overlay text.n { fill: #fff; font-weight: 700; paint-order: stroke; stroke: #14182a; stroke-linejoin: round;
                  font-family: system-ui, sans-serif; }
.overlay .label rect { fill: rgba(20, 24, 36, .85); }
.overlay .label text { fill: #fff; font-family: ui-monospace, Menlo, monospace; white-space: pre; }
ol.actions { margin: 0 0 8px; padding-left: 22px; } ol.actions li { overflow-wrap: anywhere; }
.tag { display: inline-block; font-size: 11px; padding: 0 5px; border-radius: 3px; background: #e6e8ef;
       color: #445; margin-left: 6px; }
.tag.off { background: #fde7c8; }
details summary { cursor: pointer; color: var(--muted); }
@media (max-width: 900px) { .step { grid-template-columns: 1fr; } }
"""
# the overlay's line widths are in screenshot pixels; the CSS above is shared by every page
CSS = CSS.replace("VAR_STROKE", "0.25%").replace("VAR_THICK", "0.45%")

INDEX_JS = """
(function () {
  var sel = {suite: document.getElementById('f-suite'), agent: document.getElementById('f-agent'),
             outcome: document.getElementById('f-outcome')};
  var count = document.getElementById('count'), none = document.getElementById('none');
  var scope = document.getElementById('agent-scope');
  function apply() {
    var s = sel.suite.value, a = sel.agent.value, o = sel.outcome.value, shown = 0, total = 0;
    document.querySelectorAll('table[data-kind] tbody tr[data-agent]').forEach(function (tr) {
      var kind = tr.closest('table').getAttribute('data-kind'), d = tr.dataset;
      var ok = !a || d.agent === a;
      if (kind === 'agent') ok = ok && (s ? d.scope === 'suite' && d.suite === s : d.scope === 'all');
      else ok = ok && (!s || d.suite === s);
      if (kind === 'episodes') { total++; ok = ok && (!o || d.outcome === o); if (ok) shown++; }
      tr.hidden = !ok;
    });
    count.textContent = shown + ' of ' + total + ' episodes shown';
    none.hidden = shown > 0;
    scope.textContent = s ? 'suite ' + s : 'all suites';
    var q = new URLSearchParams();
    ['suite', 'agent', 'outcome'].forEach(function (k) { if (sel[k].value) q.set(k, sel[k].value); });
    try { history.replaceState(null, '', '#' + q.toString()); } catch (e) {}
  }
  function load() {
    var q = new URLSearchParams(location.hash.slice(1));
    ['suite', 'agent', 'outcome'].forEach(function (k) {
      var v = q.get(k) || '';
      if (Array.prototype.some.call(sel[k].options, function (o) { return o.value === v; })) sel[k].value = v;
    });
    apply();
  }
  ['suite', 'agent', 'outcome'].forEach(function (k) { sel[k].addEventListener('change', apply); });
  document.getElementById('f-reset').addEventListener('click', function (e) {
    e.preventDefault(); sel.suite.value = sel.agent.value = sel.outcome.value = ''; apply();
  });
  window.addEventListener('hashchange', load);
  load();
})();
"""


def _page(title: str, body: str, script: str = "") -> str:
    """A whole page: its CSS inline, and a Content-Security-Policy under which no script runs but `script`
    (named by its hash), nothing is fetched but the screenshots, and no form or link can leave quietly."""
    script_src = "'none'"
    if script:
        digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
        script_src = f"'sha256-{digest}'"
    csp = (f"default-src 'none'; img-src 'self' file: data:; style-src 'unsafe-inline'; script-src {script_src}; "
           "base-uri 'none'; form-action 'none'")
    tail = f"<script>{script}</script>" if script else ""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{esc(title)}</title><style>{CSS}</style></head>\n<body><main>\n{body}\n</main>{tail}</body></html>\n')


def _rate_cell(row: dict) -> str:
    rate, lo, hi = row["success_rate"], row["success_low"], row["success_high"]
    return (f'<td class="n" title="{row["successes"]} of {row["episodes"]}; 95% Wilson interval {100 * lo:.0f}%–'
            f'{100 * hi:.0f}%"><span class="bar"><i style="width:{100 * rate:.1f}%"></i><b style="left:{100 * lo:.1f}%;'
            f'width:{100 * (hi - lo):.1f}%"></b></span>{100 * rate:.0f}% <small>[{100 * lo:.0f}, {100 * hi:.0f}]</small></td>')


def _norm_cell(row: dict) -> str:
    if row.get("normalized_score") is None:
        return '<td class="n"><small>–</small></td>'
    return (f'<td class="n">{row["normalized_score"]:.1f} <small>[{row["normalized_low"]:.1f}, '
            f'{row["normalized_high"]:.1f}]</small></td>')


def _score_table(kind: str, rows: list[tuple[dict, dict]], cols: list[tuple[str, str]], incomplete: Counter) -> str:
    """An aggregate table; `rows` are (summarize row, data attributes) pairs; `cols` the (key, heading) of
    the group columns; `incomplete` counts the episodes that did not end per (suite, agent, task)."""
    has_norm = any(r.get("normalized_score") is not None for r, _ in rows)
    head = "".join(f"<th>{esc(h)}</th>" for _, h in cols) + (
        '<th class="n">episodes</th><th class="n">seeds</th><th class="n">did not end</th>'
        '<th class="n">success [95% CI]</th>' + ('<th class="n">normalized score [95% CI]</th>' if has_norm else "")
        + '<th class="n">mean reward</th><th class="n">mean steps</th>')
    body = []
    for row, data in rows:
        attrs = "".join(f' data-{k}="{esc(v)}"' for k, v in data.items())
        cells = "".join(f"<td>{esc(row.get(k))}</td>" for k, _ in cols)
        bad = sum(n for key, n in incomplete.items() if all(
            key[i] == row.get(k) for i, k in enumerate(("suite", "agent", "task_id")) if k in row))
        cells += (f'<td class="n">{row["episodes"]}</td><td class="n">{row["seeds"]}</td>'
                  f'<td class="n">{f"""<span class="warn">{bad}</span>""" if bad else "0"}</td>'
                  + _rate_cell(row) + (_norm_cell(row) if has_norm else "")
                  + f'<td class="n">{row["reward"]:.2f}</td><td class="n">{row["steps"]:.1f}</td>')
        body.append(f"<tr{attrs}>{cells}</tr>")
    return f'<table data-kind="{kind}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _index(trajs: list[Trajectory], records: list[dict], pages: list[str], title: str, run_dir: Path) -> str:
    incomplete = Counter((r["suite"], r["agent"], r["task_id"]) for r in records if not r["complete"])
    n_bad = sum(incomplete.values())
    suites = sorted({str(r["suite"]) for r in records})
    agents = sorted({str(r["agent"]) for r in records})
    tasks = {r["task_id"] for r in records}
    seeds = {r["seed"] for r in records}
    # the suite and agent of each row as the filters compare them (str: a None suite is "None" everywhere)
    data = lambda r, **kw: {**{"suite": str(r.get("suite")), "agent": str(r.get("agent"))}, **kw}   # noqa: E731
    by_suite = summarize(records, ("suite", "agent"))
    agent_rows = ([(r, data(r, suite="", scope="all")) for r in summarize(records, ("agent",))]
                  + [(r, data(r, scope="suite")) for r in by_suite])
    parts = [f"<h1>{esc(title)}</h1>",
             f'<p class="meta">{_count(len(records), "episode")} · {_count(len(suites), "suite")} · '
             f'{_count(len(tasks), "task")} · {_count(len(agents), "agent")} · {_count(len(seeds), "seed")} · '
             f'run <code>{esc(run_dir)}</code> · written '
             f'{_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}</p>']
    if n_bad:
        parts.append(f'<p class="banner"><span class="warn">⚠ {n_bad} of {len(records)} episodes did not end</span> '
                     '(their folder has no result.json: a crash, a kill or a run still going). They count as failures '
                     'in the rates below; <a href="#outcome=incomplete">show them</a>.</p>')
    option = lambda v, text=None: f'<option value="{esc(v)}">{esc(text if text is not None else v)}</option>'  # noqa: E731
    parts.append(
        '<div class="filters">'
        f'<label>Suite<select id="f-suite">{option("", "all")}{"".join(option(s) for s in suites)}</select></label>'
        f'<label>Agent<select id="f-agent">{option("", "all")}{"".join(option(a) for a in agents)}</select></label>'
        f'<label>Outcome<select id="f-outcome">{option("", "all")}{option("success")}{option("failure")}'
        f'{option("incomplete", "did not end")}</select></label>'
        '<a href="#" id="f-reset">clear</a><span class="count" id="count"></span></div>')
    parts.append('<p class="meta">Success rates with 95% Wilson intervals over the episodes (seeds) of a group; '
                 'normalized scores (games: 0 = random agent, 100 = scripted player) with 95% Student-t intervals. '
                 'The suite and agent filters apply to every table, the outcome filter to the episode list.</p>')
    parts.append('<h2>By agent <small id="agent-scope">all suites</small></h2>'
                 + _score_table("agent", agent_rows, [("agent", "agent")], incomplete))
    parts.append("<h2>By suite and agent</h2>" + _score_table(
        "suite", [(r, data(r)) for r in by_suite], [("suite", "suite"), ("agent", "agent")], incomplete))
    parts.append("<h2>By task and agent</h2>" + _score_table(
        "task", [(r, data(r)) for r in summarize(records, ("suite", "task_id", "agent"))],
        [("task_id", "task"), ("agent", "agent")], incomplete))
    rows = []
    for i, (traj, rec, page) in enumerate(zip(trajs, records, pages), start=1):
        outcome = _outcome(traj)
        cls = {"success": "ok", "failure": "bad", "incomplete": "warn"}[outcome]
        message = _clip(_as_text(rec.get("message") or rec.get("error") or ""), 400)
        attrs = "".join(f' data-{k}="{esc(v)}"' for k, v in data(rec, outcome=outcome).items())
        rows.append(
            f'<tr{attrs}{" class=incomplete" if outcome == "incomplete" else ""}><td class="n">{i}</td>'
            f'<td><a href="episodes/{quote(page)}">{esc(rec["task_id"])}</a></td><td>{esc(rec["suite"])}</td>'
            f'<td>{esc(rec["agent"])}</td><td class="n">{esc(rec["seed"])}</td>'
            f'<td class="{cls}">{OUTCOME_TEXT[outcome]}</td><td class="n">{_fmt(rec["reward"], 3)}</td>'
            f'<td class="n">{rec["steps"]}</td><td class="n">{_fmt(rec.get("normalized_score"), 1)}</td>'
            f'<td class="msg">{esc(message)}</td></tr>')
    parts.append(
        '<h2>Episodes</h2><table data-kind="episodes"><thead><tr><th class="n">#</th><th>task</th><th>suite</th>'
        '<th>agent</th><th class="n">seed</th><th>outcome</th><th class="n">reward</th><th class="n">steps</th>'
        '<th class="n">normalized</th><th>checker message</th></tr></thead><tbody>' + "".join(rows)
        + '<tr id="none" hidden><td colspan="10"><small>no episode matches the filters</small></td></tr></tbody></table>')
    return _page(title, "\n".join(parts), INDEX_JS)


def _kv(pairs: list[tuple[str, Any]]) -> str:
    items = []
    for key, value in pairs:
        if value is None or value == "" or value == {}:
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        items.append(f"<dt>{esc(key)}</dt><dd>{esc(_clip(text, 2000))}</dd>")
    return f'<dl class="kv">{"".join(items)}</dl>'


def _shot(traj: Trajectory, index: int, size: tuple[int, int] | None, page_dir: Path, actions: list | None,
          alt: str, focus: tuple[float, float] | None = None) -> str:
    """The screenshot after step `index` (0: after reset), with `actions` drawn over it when given."""
    try:
        path = traj.frame_path(index)
    except TrajectoryError as e:        # a frame named outside the episode's frames/ folder
        return f'<div class="noshot">screenshot refused: {esc(e)}</div>'
    if path is None or size is None:
        return '<div class="noshot">no screenshot recorded</div>'
    if not path.is_file():
        return f'<div class="noshot">the screenshot file is missing: {esc(path.name)}</div>'
    w, h = size
    # shown at most 80% of the window high (a phone's screen), and a portrait one at most 45% of it wide
    width = f"min(45vw, calc(80vh * {w} / {h}))" if h > w else f"min(100%, calc(80vh * {w} / {h}))"
    svg = overlay(actions, w, h, focus) if actions else ""
    return (f'<div class="shot" style="width:{width}"><img src="{_url(path, page_dir)}" '
            f'width="{w}" height="{h}" alt="{esc(alt)}" loading="lazy">{svg}</div>')


def _timings(timings: Any) -> str:
    if not isinstance(timings, dict):
        return ""
    parts = [f"{esc(k.removesuffix('_s'))} {1000 * v:.0f} ms" for k, v in timings.items()
             if isinstance(k, str) and _num(v) is not None]
    return " · ".join(parts)


def _step(traj: Trajectory, k: int, rec: dict, size: tuple[int, int] | None, page_dir: Path,
          focus: tuple[float, float] | None) -> str:
    actions = rec.get("actions") if isinstance(rec.get("actions"), list) else []
    flags = [f'reward <b>{_fmt(rec.get("reward"), 3)}</b>']
    if rec.get("terminated"):
        flags.append('<span class="tag">terminated</span>')
    if rec.get("truncated"):
        flags.append('<span class="tag off">truncated: out of steps</span>')
    if rec.get("success"):
        flags.append('<span class="ok">success</span>')
    if _num(rec.get("t")) is not None:
        flags.append(f"t = {_fmt(rec['t'], 2)} s")
    items = []
    for n, a in enumerate(actions, start=1):
        where = "" if _on_screen(a) else f'<span class="tag off">{esc(_channel(a))}</span>'
        items.append(f"<li>{esc(describe(a))}{where}</li>")
    side = [f'<h3 id="step-{k}">Step {k}</h3><p>{" · ".join(flags)}</p>']
    side.append(f'<ol class="actions">{"".join(items)}</ol>' if items else "<p><small>no parsed actions</small></p>")
    raw = rec.get("agent_output")
    side.append("<h3>Agent output</h3>" + _pre(raw) if raw not in (None, "") else
                "<h3>Action sent <small>(no raw model output recorded)</small></h3>" + _pre(rec.get("action")))
    if actions and (raw not in (None, "") or rec.get("action") not in (actions, actions[0])):
        side.append(f"<details><summary>parsed actions (JSON)</summary>{_pre(actions)}</details>")
    if rec.get("sdk_output"):
        side.append("<h3>SDK output</h3>" + _pre(rec["sdk_output"]))
    if rec.get("action_error"):
        side.append("<h3>Action error</h3>" + _pre(rec["action_error"], "err"))
    side.append(_kv([("message", rec.get("message")), ("answer", rec.get("answer")),
                     ("asked the user", "yes" if rec.get("call_user") else None), ("score", rec.get("score")),
                     ("invalid actions", rec.get("invalid_actions") or None), ("error", rec.get("error"))]))
    if rec.get("timings"):
        side.append(f"<p><small>{_timings(rec['timings'])}</small></p>")
    shot = _shot(traj, k - 1, size, page_dir, actions, f"the screen the agent saw at step {k}", focus)
    portrait = " portrait" if size and size[1] > size[0] else ""
    return f'<section class="card step{portrait}"><div>{shot}</div><div>{"".join(side)}</div></section>'


def _channel(action: Any) -> str:
    """Where a not-drawn action goes: "sdk", "control" (wait, finished, call_user), or "gui"."""
    cls = ACTION_TYPES.get(action.get("action_type")) if isinstance(action, dict) else None
    return getattr(cls, "channel", "unknown")


def _frame_size(traj: Trajectory) -> tuple[int, int] | None:
    """(width, height) of the episode's screenshots: the header's screenshot_shape, else the first frame's
    own header (read, not decoded)."""
    shape = traj.header.get("screenshot_shape")
    if isinstance(shape, list) and len(shape) >= 2 and all(_num(v) and v > 0 for v in shape[:2]):
        return int(shape[1]), int(shape[0])
    path = traj.frame_path(0)
    if path is None or not path.is_file():
        return None
    try:
        from PIL import Image
        with Image.open(path) as img:
            return img.size
    except OSError:
        return None


def _episode(traj: Trajectory, rec: dict, title: str, nav: str, page_dir: Path) -> str:
    h, r = traj.header, traj.result
    outcome = _outcome(traj)
    cls = {"success": "ok", "failure": "bad", "incomplete": "warn"}[outcome]
    size = _frame_size(traj)
    parts = [nav, f'<h1>{esc(traj.task_id)} <small>· {esc(traj.agent)} · seed {esc(traj.seed)}</small></h1>',
             f'<p class="meta">episode <code>{esc(traj.name)}</code> · suite {esc(traj.suite)} · '
             f'<span class="{cls}">{OUTCOME_TEXT[outcome]}</span> · {_count(len(traj), "step")}</p>']
    parts.append(f'<div class="card"><h3>Instruction</h3>{_pre(traj.instruction)}</div>')
    if r is None:
        parts.append(f'<p class="banner"><span class="warn">⚠ This episode did not end</span>: its folder has no '
                     f'result.json (a crash, a kill, or a run still going). {len(traj)} steps were recorded.</p>')
    else:
        known = ("complete", "success", "message", "reward", "steps", "score", "normalized_score", "answer", "error",
                 "invalid_actions", "wall_s", "ended", "agent_stats")
        parts.append(
            f'<div class="card"><h3>Result: <span class="{cls}">{OUTCOME_TEXT[outcome]}</span></h3>'
            + ("<b>Checker message</b>" + _pre(r.get("message")) if r.get("message") else "")
            + _kv([("reward", _fmt(r.get("reward"), 4)), ("steps", r.get("steps")), ("score", r.get("score")),
                   ("normalized score", r.get("normalized_score")), ("answer", r.get("answer")),
                   ("error", r.get("error")), ("invalid actions", r.get("invalid_actions")),
                   ("wall time", f"{_fmt(r.get('wall_s'), 2)} s" if _num(r.get("wall_s")) is not None else None),
                   ("ended", r.get("ended")), ("agent stats", r.get("agent_stats"))]
                  + [(k, v) for k, v in r.items() if k not in known])
            + "</div>")
    settings = [("env id", h.get("env_id")), ("env kwargs", h.get("env_kwargs")), ("screen", h.get("screen")),
                ("screenshot", f"{size[0]}×{size[1]}" if size else None), ("codec", h.get("codec")),
                ("max steps", h.get("max_steps")), ("sdk", h.get("sdk")), ("image format", h.get("image_format")),
                ("started", h.get("started")), ("reset timings", _timings(h.get("reset_timings")) or None)]
    versions = h.get("versions") if isinstance(h.get("versions"), dict) else {}
    parts.append(f'<div class="cols"><div class="card"><h3>Env settings</h3>{_kv(settings)}</div>'
                 f'<div class="card"><h3>Versions</h3>{_kv(list(versions.items()))}</div></div>'
                 f'<details><summary>the whole header (episode.json)</summary>{_pre(h)}</details>')
    parts.append("<h2>Steps</h2>" if traj.steps else "<h2>Steps</h2><p><small>no steps recorded</small></p>")
    focus = None       # where the pointer was before a step: its typed text is drawn there
    for k, rec_k in enumerate(traj.steps, start=1):
        parts.append(_step(traj, k, rec_k, size, page_dir, focus))
        focus = last_point(rec_k.get("actions")) or focus
    last = len(traj)
    verdict = (f'<h3>Result: <span class="{cls}">{OUTCOME_TEXT[outcome]}</span></h3>'
               + (_pre(r.get("message")) if r and r.get("message") else ""))
    portrait = " portrait" if size and size[1] > size[0] else ""
    parts.append(f'<h2>Final screen <small>after step {last}</small></h2><div class="card step{portrait}">'
                 f'<div>{_shot(traj, last, size, page_dir, None, "the final screen")}</div><div>{verdict}</div></div>')
    parts.append(nav)
    return _page(f"{traj.task_id} · {traj.agent} · seed {traj.seed} — {title}", "\n".join(parts))


def _order(traj: Trajectory) -> tuple:
    seed = traj.seed
    return (str(traj.suite), str(traj.task_id), str(traj.agent),
            seed if isinstance(seed, int) and not isinstance(seed, bool) else float("inf"), traj.name)


def _clean(record: dict) -> dict:
    """An episode record whose group keys are text and whose numbers are numbers (a hand-edited header may
    hold a list for a task id, a result a string for a reward), so that `summarize` can group and add them."""
    out = dict(record)
    for key in ("task_id", "suite", "agent"):
        if out.get(key) is not None and not isinstance(out[key], str):
            out[key] = json.dumps(out[key], ensure_ascii=False)[:200]
    if not isinstance(out.get("seed"), (int, str, type(None))):
        out["seed"] = str(out["seed"])[:50]
    out["reward"] = _num(out.get("reward")) or 0.0
    for key in ("normalized_score", "wall_s"):
        out[key] = _num(out.get(key))
    return out


def _page_names(trajs: list[Trajectory]) -> list[str]:
    """One file name per episode page: the folder's name (safe characters only), numbered on a clash
    (two runs below RUN_DIR may hold folders of the same name)."""
    seen: set[str] = set()
    out = []
    for traj in trajs:
        base = re.sub(r"[^A-Za-z0-9._-]+", "_", traj.name)[:150].lstrip(".") or "episode"
        name, k = base, 2
        while name.lower() in seen:
            name, k = f"{base}-{k}", k + 1
        seen.add(name.lower())
        out.append(name + ".html")
    return out


def _write(path: Path, text: str) -> None:
    # a lone surrogate from a JSON file cannot be encoded: it becomes '?' rather than stopping the report
    path.write_text(text, encoding="utf-8", errors="replace")


def write_report(run_dir: str | os.PathLike, out_dir: str | os.PathLike | None = None,
                 title: str | None = None) -> Path:
    """Write the HTML report of the trajectories under `run_dir` into `out_dir` (default RUN_DIR/report/)
    and return the path of its index.html. Raises FileNotFoundError for a missing folder and
    TrajectoryError for one that holds no trajectories."""
    run = Path(run_dir)
    trajs = sorted(load_run(run), key=_order)
    if not trajs:
        raise TrajectoryError(f"{run} holds no trajectories (no episode folder with an episode.json below it); "
                              "record some with hybridgym.trajectory.RecordTrajectory or `hybridgym bench --record`")
    out = Path(out_dir) if out_dir is not None else run / "report"
    pages_dir = out / "episodes"
    pages_dir.mkdir(parents=True, exist_ok=True)
    page_dir = pages_dir.resolve()      # frame paths are resolved: so is the folder they are made relative to
    title = title or f"hybridgym report: {run.resolve().name}"
    records = [_clean(record_of(t)) for t in trajs]
    pages = _page_names(trajs)
    for i, (traj, rec, page) in enumerate(zip(trajs, records, pages)):
        links = ['<a href="../index.html">↑ all episodes</a>', f"<span>{i + 1} / {len(trajs)}</span>"]
        if i > 0:
            links.append(f'<a href="{quote(pages[i - 1])}" rel="prev">‹ previous: {esc(trajs[i - 1].name)}</a>')
        if i + 1 < len(trajs):
            links.append(f'<a href="{quote(pages[i + 1])}" rel="next">next: {esc(trajs[i + 1].name)} ›</a>')
        nav = f'<nav class="nav">{"".join(links)}</nav>'
        _write(pages_dir / page, _episode(traj, rec, title, nav, page_dir))
    current = set(pages)
    for stale in pages_dir.glob("*.html"):     # pages of episodes no longer in the run
        if stale.name not in current:
            stale.unlink()
    index = out / "index.html"
    _write(index, _index(trajs, records, pages, title, run))
    return index


def main(argv: list[str] | None = None) -> int:
    """`hybridgym report RUN_DIR [--out DIR] [--title T]`: write the report, print its index.html."""
    parser = argparse.ArgumentParser(prog="hybridgym report", description=(
        "Write a static HTML report of a run's trajectories: scores per agent, suite and task with 95% "
        "intervals, every episode, each step's screenshot with its actions drawn over it."))
    parser.add_argument("run_dir", help="the run's folder (episode folders below it)")
    parser.add_argument("--out", default=None, help="where to write the report (default RUN_DIR/report)")
    parser.add_argument("--title", default=None, help="the report's title")
    args = parser.parse_args(argv)
    try:
        path = write_report(args.run_dir, args.out, args.title)
    except (FileNotFoundError, TrajectoryError) as e:
        print(f"hybridgym report: {e}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
