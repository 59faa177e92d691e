"""A/B of the click's release as the input barrier's sentinel (`ChromiumBrowser.click_barrier`) against the sentinel
key after the click, in one `MiniWoBEnv`: each round runs a reset and the clicks in both ways, in turn (the order
flips every round), so both see the same machine. Clicks on MiniWoB's instruction bar (the side-by-side benchmark's,
`bench_peers.CLICK_AT`) or, with `--area`, in the task area. Medians of reset and step (wall clock around
`env.reset` / `env.step`), how many steps took the release as sentinel, and how many waited for the frame marker
in vain.

    .venv/bin/python benchmarks/ab_release_sentinel.py --rounds 12
    .venv/bin/python benchmarks/ab_release_sentinel.py --rounds 12 --area --out benchmarks/results/ab_release_sentinel_area.json
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ab_flags import play_round, write_report
from bench_peers import CLICK_AT, DEFAULT_TASKS as TASKS   # the side-by-side benchmark's tasks and clicks
from hybridgym.miniwob import MiniWoBEnv
from hybridgym.sandbox.browser import ChromiumBrowser
from hybridgym.sandbox.capture import XShmCapture

#: clicks in the task area (CSS px of MiniWoB's 160 x 210 page): they change a part of it on most tasks
AREA_CLICKS = [(10, 60), (10, 80), (10, 100), (60, 150)]


def main(argv=None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=12, help="rounds per task (default 12)")
    p.add_argument("--area", action="store_true", help="click in the task area instead of on the instruction bar")
    p.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "ab_release_sentinel.json")
    args = p.parse_args(argv)
    clicks = AREA_CLICKS if args.area else CLICK_AT
    way = ["release"]
    by_release = {"key": 0, "release": 0}
    missed = {"key": 0, "release": 0}
    click_barrier, read_marked = ChromiumBrowser.click_barrier, XShmCapture.read_marked

    def switched(self, *a, **k):   # the old way: no release counts, the sentinel key is sent
        if way[0] == "key":
            return None
        answer = click_barrier(self, *a, **k)
        by_release["release"] += answer is not None and answer[0] is True
        return answer

    def counted(self, *a, **k):
        frame = read_marked(self, *a, **k)
        missed[way[0]] += frame is None
        return frame
    ChromiumBrowser.click_barrier, XShmCapture.read_marked = switched, counted
    times = {w: {"reset": [], "step": []} for w in ("key", "release")}
    env = MiniWoBEnv()
    try:
        env.reset(seed=0, options={"task": TASKS[0]})
        for task in TASKS:
            env.reset(seed=10_000, options={"task": task})   # the task's page loaded
            for rnd in range(args.rounds):
                for w in (("key", "release") if rnd % 2 == 0 else ("release", "key")):
                    way[0] = w
                    play_round(env, task, rnd, clicks, times[w])
    finally:
        ChromiumBrowser.click_barrier, XShmCapture.read_marked = click_barrier, read_marked
        env.close()
    report = write_report(args.out, "benchmarks/ab_release_sentinel.py", argv, times, {
        "tasks": TASKS, "clicks": "task area" if args.area else "instruction bar", "rounds": args.rounds,
        "steps_with_the_release_as_sentinel": by_release, "marker_waits_in_vain": missed})
    print(f"steps with the release as sentinel {by_release}, marker waits in vain {missed}")
    return report


if __name__ == "__main__":
    main()
