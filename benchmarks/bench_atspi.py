"""The desktop's accessibility tree (AT-SPI): the time of one tree read per app and the tree sizes, and what accessibility costs a desktop reset and step.

Per app of the computer suite (opened alone by a reset, as the suite's tasks do): the median
and p90 over `--reads` reads of `Sandbox.accessibility_tree()` (one request to the persistent
reader in the jail and its answer; the reader's own time beside it), the nodes, the characters
of the text form (`atspi.text_form`) and of the JSON. xterm has no accessibility support (0
nodes). Then the reset and step latency of a few app sets (`bench_desktop.bench_app_set`) with
accessibility on (the desktop as it is) and off (the bridge disabled in the apps' environment
and no bus started: the desktop before issue 19), in the same process one after the other.

    .venv/bin/python benchmarks/bench_atspi.py --reads 30 --runs 8 --out benchmarks/results/atspi.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import gymnasium as gym

import hybridgym
from hybridgym.sandbox import desktop as desktop_mod
from hybridgym.sandbox.atspi import text_form

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_desktop import AppSetTask, bench_app_set  # noqa: E402

APPS = ["calculator", "editor", "files", "spreadsheet", "images", "browser", "terminal"]
AB_SETS = [("calculator",), ("editor",), ("spreadsheet",), ("files", "editor", "spreadsheet")]


def read_times(env, app: str, reads: int) -> dict:
    env.reset(seed=0, options={"task": AppSetTask((app,))})
    sb = env.unwrapped.sandbox
    deadline = time.monotonic() + 5
    nodes = sb.accessibility_tree()
    while app != "terminal" and len(nodes) < 5 and time.monotonic() < deadline:   # registering on the bus
        time.sleep(0.1)
        nodes = sb.accessibility_tree()
    times, reader = [], []
    for _ in range(reads):
        t = time.perf_counter()
        nodes = sb.accessibility_tree()
        times.append((time.perf_counter() - t) * 1000)
        reader.append(sb._a11y.last.get("reader_ms") or 0.0)
    times.sort()
    return {"app": app, "reads": reads, "read_ms_median": round(statistics.median(times), 1),
            "read_ms_p90": round(times[int(0.9 * len(times))], 1),
            "reader_ms_median": round(statistics.median(reader), 1),
            "nodes": len(nodes), "text_chars": len(text_form(nodes)),
            "json_chars": len(json.dumps(nodes)), "truncated": sb._a11y.last.get("truncated")}


class _A11yOff:
    """The desktop without accessibility (as before issue 19): the bridge off in every app's
    environment, no accessibility bus."""

    def __enter__(self):
        self._env, self._launcher = desktop_mod.Desktop.env, desktop_mod.A11Y_LAUNCHER
        orig = self._env

        def env(self_, **extra):
            out = orig(self_, **extra)
            out.update(NO_AT_BRIDGE="1", GTK_A11Y="none")
            out.pop("GTK_MODULES", None)
            return out
        desktop_mod.Desktop.env = env
        desktop_mod.A11Y_LAUNCHER = "/bin/true"
        return self

    def __exit__(self, *exc):
        desktop_mod.Desktop.env, desktop_mod.A11Y_LAUNCHER = self._env, self._launcher


def reset_step(runs: int, off: bool) -> list[dict]:
    if off:
        with _A11yOff():
            env = gym.make(hybridgym.SUITE_IDS["computer"], max_steps=10 ** 6)
            env.unwrapped.start()
    else:
        env = gym.make(hybridgym.SUITE_IDS["computer"], max_steps=10 ** 6)
        env.unwrapped.start()
    try:
        if off:
            with _A11yOff():
                return [bench_app_set(env, s, runs) for s in AB_SETS]
        return [bench_app_set(env, s, runs) for s in AB_SETS]
    finally:
        env.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reads", type=int, default=30)
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--skip-ab", action="store_true", help="only the read times")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/atspi.json"))
    args = ap.parse_args()
    load_before = os.getloadavg()[0]
    env = gym.make(hybridgym.SUITE_IDS["computer"], max_steps=10 ** 6)
    try:
        env.unwrapped.start()
        per_app = []
        for app in APPS:
            row = read_times(env, app, args.reads)
            print(row, flush=True)
            per_app.append(row)
    finally:
        env.close()
    ab = {}
    if not args.skip_ab:
        for label, off in (("a11y_off", True), ("a11y_on", False), ("a11y_off_again", True), ("a11y_on_again", False)):
            ab[label] = reset_step(args.runs, off)
            print(label, [(r["apps"], r["reset_ms_median"], r["step_ms_median"]) for r in ab[label]], flush=True)
    result = {
        "command": f"python benchmarks/bench_atspi.py --reads {args.reads} --runs {args.runs}",
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load_average_1min_before": round(load_before, 1),
                    "load_average_1min_after": round(os.getloadavg()[0], 1)},
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "target_read_ms": 50,
        "reads": per_app,
        "reset_step_a11y_off_vs_on": {
            k: [{"apps": r["apps"], "reset_ms_median": r["reset_ms_median"], "step_ms_median": r["step_ms_median"],
                 "step_ms_p90": r["step_ms_p90"], "no_change_step_ms_median": r["no_change_step_ms_median"]}
                for r in v] for k, v in ab.items()},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
