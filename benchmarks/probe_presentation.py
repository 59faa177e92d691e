"""Could a MiniWoB step end on a sign that its frame is on the screen, instead of 5 ms of quiet? (issue 21)

A step ends once the page drew the frame after the step's input (the input barrier) and then nothing was drawn on
the X screen for 5 ms (`observers.PAGE_QUIET_S`): the quiet is there because nothing tells which frame the screen
shows. The one web API that reports when a frame was presented below 16 ms is Element Timing: an element with an
`elementtiming` attribute gets a `PerformanceElementTiming` entry whose `renderTime` is the presentation time of
the first frame that painted it, and Chromium's X11 software presenter acknowledges a frame only after the X
server completed its `ShmPutImage`. So a probe element added in the page when the step's last key arrives (here a
transparent 1x1 image, which leaves the pixels unchanged) would say when the frame with the step's input is on
the screen.

This measures that signal against the screen, on click-test-2 (each step a click on the instruction bar, which
draws a dot, then a key, F20, that adds the probe; a real step's sentinel is Pause, which the page never sees):
- `key`: the page sees the key;
- `damage`: the last X DAMAGE event (read by a thread of this process) before the signal reached Python;
- `presented`: the entry's `renderTime` (on the page's clock, which runs on the same system clock);
- `observer`: the page's PerformanceObserver is called with the entry;
- `python`: a call waiting for the entry (Runtime.evaluate, as the env's barrier) has its answer in Python.
All in ms from the start of the click. For comparison, the env's own step is timed on the same page.

    .venv/bin/python benchmarks/probe_presentation.py --steps 60   # -> benchmarks/results/presentation_signal.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import select
import statistics
import threading
import time
from pathlib import Path

import gymnasium as gym

import hybridgym  # noqa: F401  (registers the envs)
from hybridgym.sandbox.capture import DamageWatch

OUT = Path(__file__).parent / "results" / "presentation_signal.json"

# on F20's keydown, a transparent 1x1 image with `elementtiming` is added (fixed at the corner, no pointer events) and
# removed 100 ms later; the entries are kept, with the time the observer was called
INSTALL_JS = """() => {
  const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
  const now = window.__hgRealNow || performance.now.bind(performance);
  window.__probe = {entries: {}, keys: {}, waiters: {}, n: 0};
  const P = window.__probe;
  new PerformanceObserver(list => { const t = now();
    for (const e of list.getEntries()) { P.entries[e.identifier] = [e.renderTime, t];
      const w = P.waiters[e.identifier]; if (w) w(P.entries[e.identifier]); } }).observe({type: 'element'});
  addEventListener('keydown', ev => {
    if (ev.code !== 'F20' && ev.key !== 'F20' && ev.key !== '\\u0000') return;
    const id = 'p' + (++P.n); P.keys[id] = now();
    const img = new Image(1, 1); img.src = PNG; img.setAttribute('elementtiming', id);
    img.style.cssText = 'position:fixed;left:0;top:0;pointer-events:none';
    document.documentElement.appendChild(img);
    (window.__hgRealTimeout || setTimeout)(() => img.remove(), 100);
  }, true);
  return performance.timeOrigin;
}"""
WAIT_JS = """(id) => new Promise(r => { const P = window.__probe, e = P.entries[id];
  if (e) r(e); else P.waiters[id] = r; (window.__hgRealTimeout || setTimeout)(() => r(null), 500); })"""


class DamageClock:
    """The local arrival time (time.time(), ms) of every X DAMAGE event on the display, read by a thread."""

    def __init__(self, display: str):
        self.watch, self.times, self._stop = DamageWatch(display), [], False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        d = self.watch._d
        while not self._stop:
            if select.select([d.fileno()], [], [], 0.05)[0]:
                t = time.time() * 1000
                if self.watch.take():
                    self.times.append(t)

    def close(self) -> None:
        self._stop = True
        self._thread.join()
        self.watch.close()


def median(xs: list[float]) -> float | None:
    return round(statistics.median(xs), 2) if xs else None


def run(steps: int) -> dict:
    env = gym.make("hybridgym/miniwob.click-test-2-v0", max_steps=10 ** 6)
    try:
        env.reset(seed=0)
        sb = env.unwrapped.sandbox
        br = sb.browser
        env_steps = []
        for i in range(steps + 5):   # the env's own step on the same page, for comparison
            x, y = br.to_screen(5 + 3 * (i % 50), 30)
            time.sleep(0.05)   # as before each probed step below
            t = time.perf_counter()
            env.step({"action_type": "click", "x": x, "y": y})
            if i >= 5:
                env_steps.append((time.perf_counter() - t) * 1000)
        origin = br.page.evaluate(INSTALL_JS)
        clock = DamageClock(sb.display.name)
        rows, missing = [], 0
        try:
            for i in range(steps + 5):
                x, y = br.to_screen(5 + 3 * (i % 50), 30)
                time.sleep(0.05)
                t0 = time.time() * 1000
                sb.input.click(x, y)
                sb.input.hotkey(("f20",), wait=False)
                got = br.evaluate_cdp(WAIT_JS, f"p{i + 1}")
                t_py = time.time() * 1000
                key = br.page.evaluate(f"window.__probe.keys['p{i + 1}'] || null")
                if got is None or key is None:
                    missing += 1
                    continue
                damage = [t for t in clock.times if t0 <= t <= t_py]
                if i >= 5 and damage:
                    rows.append({"key": key + origin - t0, "damage": damage[-1] - t0, "presented": got[0] + origin - t0,
                                 "observer": got[1] + origin - t0, "python": t_py - t0,
                                 "presented_after_damage": got[0] + origin - damage[-1]})
        finally:
            clock.close()
        med = {k: median([r[k] for r in rows]) for k in (rows[0] if rows else {})}
        return {"task": "miniwob.click-test-2-v0", "steps": len(rows), "missing_entries": missing,
                "median_ms": med, "min_presented_after_damage_ms": round(min(r["presented_after_damage"] for r in rows), 2)
                if rows else None, "env_step_median_ms": median(env_steps)}
    finally:
        env.close()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=60)
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    load = list(os.getloadavg())
    r = run(args.steps)
    print(json.dumps(r, indent=1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"command": "benchmarks/probe_presentation.py --steps %d" % args.steps,
                                    "machine": platform.node(), "date": time.strftime("%Y-%m-%d %H:%M"),
                                    "load_avg_before": load, "load_avg_after": list(os.getloadavg()),
                                    "result": r}, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
