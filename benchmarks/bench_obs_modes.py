"""What obs_mode costs and how right its trees are (docs/observations.md).

1. **Extra time per step** of each view on each suite: the env's own `views_s` (reading the tree, the DOM,
   drawing the marks), median over `--steps` steps (wait(0) steps on a typical task; the game's clock advances
   with each), for `axtree`, `dom`, `som` and all three, each in its own env; plus the step's median with and
   without the views, the screenshot-only env run in the same loop, interleaved mode by mode.
2. **Tree sizes** on typical pages (nodes and characters of each text view) after a reset of each task listed.
3. **Oracle click targets** (`--audit`): every task's oracle (MiniWoB: the pages with a solver), each element
   it clicks checked against the tree of the screen (`audit_oracle_clicks`): on the page suites the share found
   with a box whose centre, as the page says (`elementFromPoint`), hits the element; on the desktop the share
   that lands on a control of the tree whose own box centre (the part the focused window leaves uncovered)
   is that control.

    .venv/bin/python benchmarks/bench_obs_modes.py --steps 30 --audit --out benchmarks/results/obs_modes.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import gymnasium as gym

import hybridgym
from hybridgym.tasks import TASKS

#: a typical task of each suite for the timing, and pages for the sizes
TIMED = {"browser": "browser.todo-add-v0", "miniwob": "miniwob.login-user-v0", "mobile": "mobile.contact-add-v1",
         "game": "game.2048-v0", "computer": "computer.editor-replace-word-v0"}
SIZED = {"browser": ["browser.todo-add-v0", "browser.mail-reply-v0", "browser.shop-checkout-v1",
                     "browser.calendar-book-room-v0", "browser.files-move-by-owner-month-v1",
                     "browser.admin-revert-role-v1", "browser.research-founder-university-city-v1"],
         "miniwob": ["miniwob.click-button-v0", "miniwob.login-user-v0", "miniwob.social-media-v0"],
         "mobile": ["mobile.contact-add-v1", "mobile.alarm-add-v1", "mobile.settings-toggle-v1"],
         "game": ["game.2048-v0", "game.breakout-v0"],
         "computer": ["computer.editor-replace-word-v0", "computer.files-rename-v0", "computer.sheet-sum-column-v1",
                      "computer.calculator-to-editor-v0", "computer.image-word-to-editor-v0"]}
MODES = ("axtree", "dom", "som", "axtree+dom+som")
NOOP = {"action_type": "wait", "seconds": 0}


def _existing(ids):
    return [t for t in ids if t in TASKS]


def timing(suite: str, steps: int) -> dict:
    """Per mode: median views_s and step_s over `steps` wait(0) steps, interleaved with a screenshot-only env."""
    task = TIMED[suite]
    offered = hybridgym.suites.SUITE_SPECS[suite].views
    modes = [m for m in MODES if all(p in offered for p in m.split("+"))]
    envs = {m: gym.make(f"hybridgym/{task}", obs_mode=m) for m in ["screenshot", *modes]}
    try:
        samples = {m: {"views_ms": [], "step_ms": []} for m in envs}
        for m, env in envs.items():
            env.reset(seed=0)
        for _ in range(steps):
            for m, env in envs.items():
                obs, _, terminated, truncated, info = env.step(NOOP)
                samples[m]["views_ms"].append(info["timings"]["views_s"] * 1e3)
                samples[m]["step_ms"].append(info["timings"]["step_s"] * 1e3)
                if terminated or truncated:
                    env.reset(seed=0)
        base = statistics.median(samples["screenshot"]["step_ms"])
        out = {"task": task, "steps": steps, "screenshot_step_ms": round(base, 2), "modes": {}}
        for m in modes:
            s = samples[m]
            out["modes"][m] = {"views_ms": round(statistics.median(s["views_ms"]), 2),
                               "views_p90_ms": round(sorted(s["views_ms"])[int(0.9 * (len(s["views_ms"]) - 1))], 2),
                               "step_ms": round(statistics.median(s["step_ms"]), 2),
                               "step_extra_ms": round(statistics.median(s["step_ms"]) - base, 2)}
        return out
    finally:
        for env in envs.values():
            env.close()


def sizes(suite: str, ids: list[str]) -> list[dict]:
    offered = hybridgym.suites.SUITE_SPECS[suite].views
    env = gym.make(hybridgym.SUITE_IDS[suite], obs_mode="+".join(offered))
    out = []
    try:
        for task in ids:
            obs, info = env.reset(seed=0, options={"task": task})
            v = info["views"]
            row = {"task": task, "axtree_nodes": len(v.get("nodes", [])), "axtree_chars": len(obs["axtree"]),
                   "marks": len(v.get("marks", [])), "marks_chars": len(obs["marks"])}
            if "dom" in obs:
                row |= {"dom_nodes": len(v.get("dom", [])), "dom_chars": len(obs["dom"])}
            if v.get("windows"):
                row["windows"] = len(v["windows"])
            out.append(row)
    finally:
        env.close()
    return out


def audit(suite: str) -> dict:
    from hybridgym.tasks.miniwob import ORACLES
    from hybridgym.trees import audit_oracle_clicks
    ids = sorted(t for t in TASKS if TASKS[t].suite == suite and (suite != "miniwob" or TASKS[t].name in ORACLES))
    env = gym.make(hybridgym.SUITE_IDS[suite], obs_mode="axtree")
    total = {"tasks": len(ids), "clicks": 0, "ok": 0, "bare": 0, "stale_steps": 0, "oracle_failed": [], "misses": []}
    try:
        for task in ids:
            a = audit_oracle_clicks(env, task, seed=0)
            total["clicks"] += a["clicks"]
            total["ok"] += a["ok"]
            total["bare"] += a["bare"]
            total["stale_steps"] += a["stale"]
            total["misses"] += [{"task": task, **m} for m in a["misses"]]
            if not a["success"]:
                total["oracle_failed"].append(task)
    finally:
        env.close()
    total["share_ok"] = round(total["ok"] / total["clicks"], 4) if total["clicks"] else None
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--suites", default="browser,miniwob,mobile,game,computer")
    ap.add_argument("--audit", action="store_true", help="check every oracle click target (page suites; ~15 min)")
    ap.add_argument("--no-timing", action="store_true", help="skip the timing and sizes (with --audit: only the audit)")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    suites = [s for s in args.suites.split(",") if s]
    t0 = time.time()
    result: dict = {"timing": {}, "sizes": {}, "audit": {}}
    for suite in [] if args.no_timing else suites:
        result["timing"][suite] = timing(suite, args.steps)
        print(suite, json.dumps(result["timing"][suite]), flush=True)
        ids = _existing(SIZED.get(suite, [])) or [TIMED[suite]]
        result["sizes"][suite] = sizes(suite, ids)
        for row in result["sizes"][suite]:
            print("  ", json.dumps(row), flush=True)
    if args.audit:
        for suite in suites:
            result["audit"][suite] = audit(suite)
            a = result["audit"][suite]
            print(suite, "audit:", {k: a[k] for k in ("tasks", "clicks", "ok", "share_ok", "bare", "stale_steps")},
                  "misses:", a["misses"][:10], flush=True)
    result["wall_s"] = round(time.time() - t0, 1)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
