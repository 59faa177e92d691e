"""MiniWoB++ side by side: our env, the `miniwob` package's env and BrowserGym on the same tasks, in one
run, interleaved, at N sandboxes per node: reset and step latency (median, p90) and PSS per sandbox.

The three systems:
- ours: `hybridgym.miniwob.MiniWoBEnv`, N of them in this process and thread (one Python and one
  Playwright driver serve all N; each has its own Xvfb display and Chromium). The observation is
  the whole 1280x800 screen; MiniWoB's task area is zoomed 2x (the env's default).
- `miniwob`: the package's gymnasium env (`miniwob/<task>-v1`, Selenium + /usr/bin/chromedriver,
  headless Chromium, 160x210 screenshot of the task area + DOM elements), N of them in one worker.
- BrowserGym: `browsergym/miniwob.<task>` with its default observation (screenshot, DOM snapshot,
  accessibility tree) and its MiniWoB task settings, N of them in one worker; the JSON records what
  the observation holds and the env's settings. It launches Debian's /usr/bin/chromium.

The peers are installed from PyPI into their own virtual environment (`sh benchmarks/peers/setup.sh`
makes /work/main/.venv-peers) and run in `benchmarks/peers/worker.py`, one worker process per peer
kind, driven over a JSON-lines pipe.

For each N and each task: the N envs of each system are made (ours once per N: the task is switched
at reset), each env is reset once to warm up (seed 10000), then `--runs` rounds; in a round, for
i = 0..N-1: ours env i, `miniwob` env i, BrowserGym env i, each reset with the round's seed and then
stepped `--steps` times. A step is a left click on MiniWoB's instruction bar at CSS pixel (20, 25),
(80, 25) or (140, 25) of the task page, a new point each step (in ours and in the `miniwob` package,
MiniWoB draws a dot where the page was clicked, so the screen changes; BrowserGym removes MiniWoB's
human display, dots included). The click never ends the episode. Times are wall-clock around
`env.reset` / `env.step`, as the caller sees them, measured in the process that holds the env (the
pipe to a worker is not counted). `--settle S` pauses S seconds before each episode of every system: a
system's reset then does not share the two cores with what the last system's call may have left running; by
default there is no pause (on 2026-12-07, N = 1, 4 runs: ours' reset 21.1 ms, p90 24.3, with 0.3 s; 22.4 ms,
p90 40.0, without; the step 12.0 and 11.9 ms).

PSS per sandbox, measured after the last round of each task (every env reset and stepped; the
BrowserGym browsers live): the sum of `Pss:` over /proc/<pid>/smaps_rollup of the process tree that
holds the N envs, divided by N. For ours: this process and its descendants, minus the workers' trees,
minus what the same sum was before the N envs were made. For a peer: the worker's tree (its Python
included). Shared pages are divided among all processes that map them, the other systems' included
(all three run the same /usr/bin/chromium), so these figures are lower than for one system alone.
After the interleaved run, the PSS per sandbox is also measured for each system alone at each N
(the others holding no env; `--no-solo` skips it): N envs on the first task, each reset once and
stepped.

The machine may be shared: the JSON records the load average before and after.

    flock /root/scratch/gui.lock .venv/bin/python benchmarks/bench_peers.py --n 1 --n 8 \\
        --out benchmarks/results/peers.json
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import select
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hybridgym.miniwob import MiniWoBEnv
from hybridgym.sandbox.processes import descendants

ROOT = Path(__file__).resolve().parent.parent
PEERS_PYTHON = ROOT / ".venv-peers" / "bin" / "python"
WORKER = ROOT / "benchmarks" / "peers" / "worker.py"
ALL_TASKS = ["click-test", "click-button", "enter-text", "click-checkboxes", "focus-text", "login-user"]
DEFAULT_TASKS = ALL_TASKS[:4]
PEER_KINDS = ("miniwob", "browsergym")
SYSTEMS = ("ours",) + PEER_KINDS
# CSS pixels of the task page, on MiniWoB's instruction bar: a new point each step
CLICK_AT = [(20, 25), (80, 25), (140, 25)]
WARMUP_SEED = 10_000


class PeerError(RuntimeError):
    """A worker answered a command with an error, or did not answer in time."""


class PeerWorker:
    """One `benchmarks/peers/worker.py` process of the peers' venv, and the JSON-lines pipe to it.

    `request(cmd, **args)` sends one command and returns the worker's answer (a dict); it raises
    `PeerError` with the worker's error (and the end of its log) when the command failed.
    """

    def __init__(self, python: os.PathLike | str = PEERS_PYTHON, timeout: float = 180.0):
        python = Path(python)
        if not python.exists():
            raise FileNotFoundError(f"no peers venv at {python.parent.parent}: run `sh benchmarks/peers/setup.sh`")
        self.timeout = timeout
        self.log = tempfile.NamedTemporaryFile("w+", prefix="hybridgym-peers-", suffix=".log", delete=False)
        self.proc = subprocess.Popen([str(python), str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, text=True, bufsize=1, cwd=ROOT)
        self.pid = self.proc.pid

    def request(self, cmd: str, **args) -> dict:
        if self.proc.poll() is not None:
            raise PeerError(f"the peers worker exited with {self.proc.returncode}{self._log_tail()}")
        self.proc.stdin.write(json.dumps({"cmd": cmd, **args}) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            raise PeerError(f"the peers worker gave no answer to {cmd!r} within {self.timeout:.0f} s"
                            f"{self._log_tail()}")
        out = json.loads(line)
        if not out.pop("ok", False):
            raise PeerError(f"{cmd} {args}: {out.get('error')}{self._log_tail()}")
        return out

    def _log_tail(self, chars: int = 2000) -> str:
        self.log.flush()
        text = Path(self.log.name).read_text(errors="replace")[-chars:]
        return f"\n--- worker log {self.log.name} (end) ---\n{text}" if text else ""

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.request("quit")
            except (PeerError, OSError, ValueError):
                pass
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            if f:
                f.close()
        self.log.close()


def pss_kb(pids) -> int:
    """Sum of `Pss:` (kB) of the given processes (those gone are skipped)."""
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            pass
    return total


def ours_pids(workers: list[PeerWorker]) -> set[int]:
    """This process and its descendants, without the peers' workers and theirs."""
    tree = {os.getpid()} | descendants()
    for w in workers:
        tree -= {w.pid} | descendants(w.pid)
    return tree


def mb(kb: float) -> float:
    return round(kb * 1024 / 1e6, 1)


def p90(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(0.9 * len(xs)))]


def stats(xs: list[float]) -> dict:
    if not xs:
        return {"median": None, "p90": None, "count": 0}
    return {"median": round(statistics.median(xs), 1), "p90": round(p90(xs), 1), "count": len(xs)}


def timed(fn, *args, **kwargs):
    t = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, (time.perf_counter() - t) * 1000


class Ours:
    """N `MiniWoBEnv`s in this process and thread, stepped as the workers step theirs."""

    def __init__(self, n: int):
        self.envs, self.clicks = [], []
        t = time.perf_counter()
        try:
            for _ in range(n):
                self.envs.append(MiniWoBEnv())
        except BaseException:
            self.close()
            raise
        self.make_ms = (time.perf_counter() - t) * 1000

    def reset(self, i: int, seed: int, task: str) -> dict:
        (obs, _), ms = timed(self.envs[i].reset, seed=seed, options={"task": task})
        if len(self.clicks) <= i:
            browser = self.envs[i].sandbox.browser
            self.clicks.append([{"action_type": "click", "x": sx, "y": sy}
                                for sx, sy in (browser.to_screen(*p) for p in CLICK_AT)])
        return {"ms": ms, "observation": {"screenshot": list(obs["screenshot"].shape),
                                          "instruction": obs["instruction"]}}

    def step(self, i: int, k: int) -> dict:
        (_, reward, term, trunc, info), ms = timed(self.envs[i].step, self.clicks[i][k % len(CLICK_AT)])
        return {"ms": ms, "reward": float(reward), "terminated": bool(term), "truncated": bool(trunc),
                "error": info.get("error")}

    def close(self) -> None:
        envs, self.envs = self.envs, []
        for env in envs:
            env.close()


def bench_task(task: str, n: int, ours: Ours, workers: dict[str, PeerWorker], runs: int, steps: int,
               ours_base_kb: int, settle: float = 0.0) -> dict:
    """One task at N envs per system: interleaved rounds, then the PSS per sandbox."""
    times = {s: {"reset": [], "step": []} for s in (["ours"] if ours else []) + list(workers)}
    ended = {s: 0 for s in times}          # episodes a click ended (should stay 0)
    errors = {s: [] for s in times}
    made, observation = {}, {}
    for kind, w in workers.items():
        made[kind] = w.request("make", kind=kind, task=task, n=n)
    for i in range(n):                      # warm-up: loads the page (ours), starts the episode
        if ours:
            ours.reset(i, WARMUP_SEED, task)
        for w in workers.values():
            w.request("reset", i=i, seed=WARMUP_SEED)

    def episode(system: str, i: int, seed: int) -> None:
        if settle:   # the last system's work that outlived its call (its browser's) ends before this one's reset
            time.sleep(settle)
        if system == "ours":
            out = ours.reset(i, seed, task)
        else:
            out = workers[system].request("reset", i=i, seed=seed)
        times[system]["reset"].append(out["ms"])
        observation[system] = out["observation"]
        for k in range(steps):
            if system == "ours":
                r = ours.step(i, k)
            else:
                x, y = CLICK_AT[k % len(CLICK_AT)]
                r = workers[system].request("step", i=i, x=x, y=y)
            times[system]["step"].append(r["ms"])
            if r.get("error"):
                errors[system].append(str(r["error"])[:200])
            if r["terminated"] or r["truncated"]:
                ended[system] += 1
                break

    for seed in range(runs):
        for i in range(n):
            for system in SYSTEMS:
                if system in times:
                    episode(system, i, seed)
    pss = {}
    if ours:
        pss["ours"] = {"tree_kb": pss_kb(ours_pids(list(workers.values()))) - ours_base_kb}
    for kind, w in workers.items():
        out = w.request("pss")
        pss[kind] = {"tree_kb": out["pss_kb"], "processes": out["processes"]}
    for p in pss.values():
        p["per_sandbox_mb"] = mb(p["tree_kb"] / n)
    for w in workers.values():
        w.request("close")
    return {
        "task": task, "n": n, "runs": runs, "steps_per_run": steps,
        "reset_ms": {s: stats(t["reset"]) for s, t in times.items()},
        "step_ms": {s: stats(t["step"]) for s, t in times.items()},
        "pss_per_sandbox_mb": {s: p["per_sandbox_mb"] for s, p in pss.items()},
        "pss_tree_mb": {s: mb(p["tree_kb"]) for s, p in pss.items()},
        "episodes_ended_by_a_click": ended,
        "step_errors": {s: e[:3] for s, e in errors.items() if e},
        "make_ms": {k: m["make_ms"] for k, m in made.items()},
        "observation": observation,
        "_samples": times,
    }


def solo_pss(system: str, n: int, task: str, steps: int, workers: dict[str, PeerWorker]) -> float:
    """PSS per sandbox (MB) of N envs of one system while the other systems hold no env: each env reset
    once and stepped `steps` times, then the same sum as in the interleaved run, divided by N."""
    if system == "ours":
        base_kb = pss_kb(ours_pids(list(workers.values())))
        ours = Ours(n)
        try:
            for i in range(n):
                ours.reset(i, 0, task)
                for k in range(steps):
                    ours.step(i, k)
            kb = pss_kb(ours_pids(list(workers.values()))) - base_kb
        finally:
            ours.close()
        return mb(kb / n)
    w = workers[system]
    w.request("make", kind=system, task=task, n=n)
    try:
        for i in range(n):
            w.request("reset", i=i, seed=0)
            for k in range(steps):
                x, y = CLICK_AT[k % len(CLICK_AT)]
                w.request("step", i=i, x=x, y=y)
        return mb(w.request("pss")["pss_kb"] / n)
    finally:
        w.request("close")


def ratios(ours: float | None, peer: float | None) -> float | None:
    return round(ours / peer, 3) if ours and peer else None


def summarize(rows: list[dict], systems: list[str]) -> dict:
    """All tasks of one N: pooled medians and p90s, median PSS per sandbox, ours/peer ratios."""
    out = {}
    for s in systems:
        resets = [x for r in rows for x in r["_samples"][s]["reset"]]
        steps = [x for r in rows for x in r["_samples"][s]["step"]]
        out[s] = {"reset_ms": stats(resets), "step_ms": stats(steps),
                  "pss_per_sandbox_mb": round(statistics.median(r["pss_per_sandbox_mb"][s] for r in rows), 1),
                  "pss_per_sandbox_mb_by_task": {r["task"]: r["pss_per_sandbox_mb"][s] for r in rows}}
    if "ours" in out:
        o = out["ours"]
        for s in systems:
            if s != "ours":
                p = out[s]
                out[f"ours_over_{s}"] = {
                    "reset_median": ratios(o["reset_ms"]["median"], p["reset_ms"]["median"]),
                    "step_median": ratios(o["step_ms"]["median"], p["step_ms"]["median"]),
                    "pss_per_sandbox": ratios(o["pss_per_sandbox_mb"], p["pss_per_sandbox_mb"]),
                }
    return out


def print_table(n: int, summary: dict, systems: list[str]) -> None:
    print(f"\nN = {n} sandboxes per system         reset ms          step ms      PSS/sandbox MB")
    print(f"{'system':12s}{'':18s}{'median':>8s}{'p90':>8s}{'median':>9s}{'p90':>8s}{'':>6s}")
    for s in systems:
        r = summary[s]
        print(f"{s:30s}{r['reset_ms']['median']:8.1f}{r['reset_ms']['p90']:8.1f}"
              f"{r['step_ms']['median']:9.1f}{r['step_ms']['p90']:8.1f}{r['pss_per_sandbox_mb']:12.1f}")
    for s in systems:
        q = summary.get(f"ours_over_{s}")
        if q:
            print(f"{'ours/' + s:30s}{q['reset_median']:8.3f}{'':8s}{q['step_median']:9.3f}{'':8s}"
                  f"{q['pss_per_sandbox']:12.3f}")
    sys.stdout.flush()


def versions(workers: dict[str, PeerWorker]) -> dict:
    out = {"hybridgym": importlib.metadata.version("hybridgym"),
           "playwright (ours)": importlib.metadata.version("playwright"),
           "python": platform.python_version()}
    try:
        out["chromium"] = subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True, text=True,
                                         timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        pass
    try:
        out["peers"] = subprocess.run([str(PEERS_PYTHON), "-m", "pip", "freeze", "--disable-pip-version-check"],
                                      capture_output=True, text=True, timeout=60).stdout.split()
        out["peers"] = [p for p in out["peers"] if p.split("==")[0].lower() in
                        ("miniwob", "browsergym-core", "browsergym-miniwob", "playwright", "selenium", "gymnasium")]
    except (OSError, subprocess.TimeoutExpired):
        pass
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", default=",".join(DEFAULT_TASKS),
                    help=f"comma-separated MiniWoB tasks (default {','.join(DEFAULT_TASKS)}; any of {','.join(ALL_TASKS)}"
                         " or another MiniWoB task that all three systems have)")
    ap.add_argument("--n", type=int, action="append", help="sandboxes per system (repeat: --n 1 --n 8; default both)")
    ap.add_argument("--runs", type=int, default=2, help="resets per env and task, after a warm-up reset (default 2)")
    ap.add_argument("--steps", type=int, default=3, help="clicks after each reset (default 3)")
    ap.add_argument("--settle", type=float, default=0.0,
                    help="seconds of pause before each episode (reset and its steps) of every system, so that no "
                         "system's reset shares the cores with the work the last one left running (default 0)")
    ap.add_argument("--no-solo", dest="solo", action="store_false",
                    help="skip the PSS of each system alone at each N (after the interleaved run)")
    ap.add_argument("--systems", default=",".join(SYSTEMS), help=f"subset of {','.join(SYSTEMS)} (default all)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "peers.json"), help="JSON file for the figures")
    args = ap.parse_args(argv)
    tasks = [t for t in args.tasks.split(",") if t]
    ns = args.n or [1, 8]
    systems = [s for s in args.systems.split(",") if s]
    bad = [s for s in systems if s not in SYSTEMS]
    if bad or not systems:
        ap.error(f"--systems takes a subset of {','.join(SYSTEMS)}, got {args.systems!r}")
    if any(n < 1 for n in ns) or args.runs < 1 or args.steps < 1 or not tasks:
        ap.error("--n, --runs and --steps must be >= 1, and --tasks must name a task")
    systems = [s for s in SYSTEMS if s in systems]

    load_before = os.getloadavg()
    started = time.perf_counter()
    workers = {kind: PeerWorker() for kind in PEER_KINDS if kind in systems}
    results, by_n = [], {}
    try:
        info = versions(workers)
        for n in ns:
            base_kb = pss_kb(ours_pids(list(workers.values())))
            ours = Ours(n) if "ours" in systems else None
            try:
                rows = []
                for task in tasks:
                    row = bench_task(task, n, ours, workers, args.runs, args.steps, base_kb, args.settle)
                    rows.append(row)
                    print(f"N={n} {task:18s} " + "  ".join(
                        f"{s} reset {row['reset_ms'][s]['median']:7.1f} step {row['step_ms'][s]['median']:7.1f}"
                        f" pss {row['pss_per_sandbox_mb'][s]:6.1f}" for s in systems), flush=True)
            finally:
                if ours:
                    ours.close()
            summary = summarize(rows, systems)
            if ours:
                summary["ours"]["make_ms_all_envs"] = round(ours.make_ms, 1)
            by_n[str(n)] = summary
            print_table(n, summary, systems)
            for r in rows:
                del r["_samples"]
            results.extend(rows)
        solo = {}
        if args.solo:
            print(f"\nPSS per sandbox (MB), each system alone ({tasks[0]}, 1 reset + {args.steps} steps per env):")
            for n in ns:
                solo[str(n)] = {s: solo_pss(s, n, tasks[0], args.steps, workers) for s in systems}
                if "ours" in solo[str(n)]:
                    for s in systems[1:]:
                        solo[str(n)][f"ours_over_{s}"] = ratios(solo[str(n)]["ours"], solo[str(n)][s])
                print(f"N={n}  " + "  ".join(f"{k} {v}" for k, v in solo[str(n)].items()), flush=True)
        settings = {}
        for kind, w in workers.items():
            settings[kind] = w.request("make", kind=kind, task=tasks[0], n=1)["settings"]
            w.request("close")
    finally:
        for w in workers.values():
            w.close()
    report = {
        "command": "flock /root/scratch/gui.lock .venv/bin/python benchmarks/bench_peers.py "
                   + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "wall_s": round(time.perf_counter() - started, 1),
        "machine": {"cpus": os.cpu_count(), "loadavg_before": [round(x, 2) for x in load_before],
                    "loadavg_after": [round(x, 2) for x in os.getloadavg()],
                    "mem_total_gb": round(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 1e9, 1)},
        "versions": info,
        "tasks": tasks, "n": ns, "runs": args.runs, "steps_per_run": args.steps, "settle_s": args.settle,
        "click_at_css_px": CLICK_AT,
        "systems": {
            "ours": "hybridgym MiniWoBEnv: headful Chromium window on its own Xvfb (1280x800), XTEST input, "
                    "XShm capture of the whole screen, task area zoomed 2x; the N envs in one process and "
                    "thread (one Python, one Playwright driver)",
            **{k: v for k, v in settings.items()},
        },
        "pss_method": "sum of Pss over /proc/<pid>/smaps_rollup of the tree holding the N envs, after the "
                      "last round of each task, divided by N; ours: this process's tree minus the workers' "
                      "trees minus the same sum before the envs; a peer: its worker's tree",
        "summary_by_n": by_n,
        "solo_pss_per_sandbox_mb": solo,
        "solo_pss_method": "N envs of one system while the others hold none (their workers idle), on the "
                           "first task, each env reset once and stepped; same sum and division as above",
        "results": results,
    }
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        print(f"\nwrote {args.out}")
    return report


if __name__ == "__main__":
    main()
