"""Sandbox density: PSS per sandbox at N sandboxes in one Python process, per suite, and a sweep of
Chromium flags (and the Xvfb depth) that may lower it.

What one measurement is (`measure`, run in a fresh Python process per measurement: `--one`):
- the sum of `Pss:` over /proc/<pid>/smaps_rollup of this process and all its descendants is read
  (the "before" sum: this Python with hybridgym and gymnasium imported, nothing else);
- N envs of one suite are made with `gym.make` in this process and thread (so one Python and one
  Playwright driver serve all N; each env has its own Xvfb display, jail and Chromium), each is reset
  (seed i) and then clicked three times in the middle of its screen (`{"action_type": "click"}`);
- after a one-second settle the same sum is read again; PSS per sandbox = (after - before) / N.
  The split: Chromium (every process of the browser, its bwrap jail wrappers and crashpad handlers
  included), the Playwright driver (node), Xvfb, Python (this process's own PSS, after - before) and
  other (the sandbox reaper and anything else in the tree, after - before). The parts add up to the
  total.
- then (optional) the step time: the median of 20 click steps on env 0 (wall clock around
  `env.step`), and (optional) whether the task still works: one episode of the task's oracle on env 0
  (`hybridgym.agents.run_episode` with the `OracleAgent`), success recorded.
- the envs are closed.

Chromium flags are added through HYBRIDGYM_CHROMIUM_FLAGS (space-separated; read by
`extra_flags_from_env()` in envs/sandbox/browser.py at each Chromium launch), set in the measuring
process. Chromium keeps only the last `--disable-features=` (and the last `--js-flags=`) switch and
the base flags (`BASE_FLAGS`) already have one, so the sweep merges every entry's
`--disable-features=` values with the base flags' (`merged_flags`).

The suite table: for each suite and each N, `--repeats` measurements (each in its own process, the
suites and N interleaved round by round), median of each figure. The sweep (`--sweep`): N = 8
(`--sweep-n`) on browser.todo-add, baseline and flag entries interleaved (baseline, entry 1,
baseline, entry 2, ..., baseline), the whole sequence `--sweep-repeats` times; an entry's delta is
its PSS per sandbox minus the mean of the two baselines next to it in the same round, median over
the rounds. Every sweep measurement also records the step time and the oracle's success. The best
set (the entries that lowered PSS by more than `--keep-mb` with the oracle working, merged) is then
measured the same way, and also on the other suites (`--best-suites`).

PSS divides a shared page among all the processes that map it: Chromium processes of other programs
on the machine (another helper's envs) lower these figures a little; the JSON records the load
average and the number of other Chromium processes on the machine before and after.

`--compare=FLAGS`: instead of the table, each suite and N with the default flags and with FLAGS added,
interleaved (the flags a sweep kept, measured before they join `BASE_FLAGS`).

The runs behind benchmarks/results/ (2026-12-06):

    .venv/bin/python benchmarks/bench_density.py --no-table --sweep --sweep-repeats 2 \\
        --out benchmarks/results/density_sweep.json
    .venv/bin/python benchmarks/bench_density.py --suites browser,mobile,game --n 1 --n 8 --repeats 2 \\
        --compare="--in-process-gpu --disable-features=SpareRendererForSitePerProcess" \\
        --out benchmarks/results/density.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITES = {
    "browser": "hybridgym/browser.todo-add-v0",
    "mobile": "hybridgym/mobile.contact-add-v1",
    "game": "hybridgym/game.snake-v0",
}
PARTS = ("chromium", "driver", "xvfb", "python", "other")
from hybridgym.sandbox.browser import BASE_FLAGS  # noqa: E402  (only the flag list: no env is made here)

BASE_FEATURES = next(f for f in BASE_FLAGS if f.startswith("--disable-features=")).split("=", 1)[1].split(",")
FLAGS_VAR = "HYBRIDGYM_CHROMIUM_FLAGS"
CLICKS = 3
STEP_SAMPLES = 20
METHOD = ("PSS per sandbox: sum of Pss over /proc/<pid>/smaps_rollup of the measuring Python process and "
          "all its descendants, after N envs were made, reset (seed i) and clicked 3 times in the middle of "
          "the screen and 1 s of settle, minus the same sum before the envs were made, divided by N; each "
          "measurement in a fresh process; split by process kind (chromium = browser processes + their bwrap "
          "wrappers + crashpad; driver = Playwright's node; xvfb; python = this process's own delta; other = "
          "reaper etc.). Step time: median wall-clock of 20 click steps on env 0. Oracle: one episode of the "
          "task's oracle on env 0 (run_episode + OracleAgent).")

# The sweep's entries, most promising first. A `--disable-features=` value is merged with the base
# flags' three features (and with the others of a set) by `merged_flags`.
SWEEP = [
    ("renderer-process-limit=1", ["--renderer-process-limit=1"]),
    ("site-isolation off", ["--disable-site-isolation-trials",
                            "--disable-features=SitePerProcess,IsolateOrigins"]),
    ("disable-site-isolation-trials only", ["--disable-site-isolation-trials"]),
    ("spare renderer off", ["--disable-features=SpareRendererForSitePerProcess"]),
    ("in-process-gpu", ["--in-process-gpu"]),
    ("js max-old-space-size=64", ["--js-flags=--max-old-space-size=64"]),
    ("process-per-site", ["--process-per-site"]),
    ("js lite-mode", ["--js-flags=--lite-mode"]),
    ("js single-threaded", ["--js-flags=--single-threaded"]),
    ("no-zygote", ["--no-zygote"]),
    ("network service in process", ["--enable-features=NetworkServiceInProcess,CDPScreenshotNewSurface,SkipListAccountsWithoutGaiaCookies"]),  # Playwright enables the other two
    ("audio service in process", ["--disable-features=AudioServiceOutOfProcess"]),
    ("single-process", ["--single-process"]),
    ("disable-breakpad (control: Playwright sets it; the noise floor)", ["--disable-breakpad"]),
]


def merged_flags(flags) -> list[str]:
    """`flags` with every `--disable-features=` merged into one switch that also holds the base
    flags' features, and every `--js-flags=` merged into one (Chromium keeps only the last of each)."""
    features, js, out = [], [], []
    for f in flags:
        if f.startswith("--disable-features="):
            features += [x for x in f.split("=", 1)[1].split(",") if x and x not in features]
        elif f.startswith("--js-flags="):
            js += f.split("=", 1)[1].split()
        elif f not in out:
            out.append(f)
    if features:
        out.append("--disable-features=" + ",".join(BASE_FEATURES + [x for x in features if x not in BASE_FEATURES]))
    if js:
        out.append("--js-flags=" + " ".join(js))
    return out


def _pss_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return 0


def kind(pid: int) -> str:
    """Which part of a sandbox a process of this process's tree is (one of PARTS)."""
    from hybridgym.sandbox.processes import cmdline
    if pid == os.getpid():
        return "python"
    cmd = cmdline(pid)
    try:
        with open(f"/proc/{pid}/comm") as f:
            comm = f.read().strip()
    except OSError:
        comm = ""
    if comm == "Xvfb" or os.path.basename(cmd.split(" ", 1)[0]) == "Xvfb":
        return "xvfb"
    if "playwright/driver" in cmd:
        return "driver"
    if "chromium" in cmd or "chrome" in comm or comm == "bwrap":
        return "chromium"
    return "other"


def tree_pss() -> dict:
    """PSS (kB) of this process and its descendants, by part, and the number of processes of each."""
    from hybridgym.sandbox.processes import descendants
    kb = dict.fromkeys(PARTS, 0)
    count = dict.fromkeys(PARTS, 0)
    for p in {os.getpid()} | descendants():
        v = _pss_kb(p)
        if v is None:
            continue
        k = kind(p)
        kb[k] += v
        count[k] += 1
    return {"kb": kb, "processes": count}


def mb(kb: float) -> float:
    """kB (1024 bytes) to MB (10^6 bytes), one decimal."""
    return round(kb * 1024 / 1e6, 1)


def other_chromiums() -> int:
    """Chromium processes on the machine outside this process's tree (they share pages with ours)."""
    from hybridgym.sandbox.processes import cmdline, descendants, pids
    mine = {os.getpid()} | descendants()
    return sum(1 for p in pids() if p not in mine and "/usr/lib/chromium/chromium" in cmdline(p))


def measure(suite: str, n: int, flags=(), steps: int = 0, oracle: bool = False, settle: float = 1.0) -> dict:
    """One measurement in this process: N envs of `suite` ("browser", "mobile", "game" or a full
    env id) made, reset and clicked three times each; returns PSS per sandbox (MB) and its split,
    the processes per part, and optionally the median step time (`steps` click steps on env 0, ms)
    and whether the task's oracle succeeds on env 0. `flags` are extra Chromium flags (set in
    HYBRIDGYM_CHROMIUM_FLAGS for the launches of this call)."""
    import gymnasium as gym
    import hybridgym  # noqa: F401  (registers the envs)
    from hybridgym.agents import OracleAgent, run_episode

    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    env_id = SUITES.get(suite, suite)
    if env_id not in gym.registry:
        raise ValueError(f"unknown suite or env id {suite!r}; suites: {sorted(SUITES)}")
    flags = list(flags)
    old = os.environ.get(FLAGS_VAR)
    os.environ[FLAGS_VAR] = " ".join(flags)
    envs = []
    out = {"suite": suite, "env_id": env_id, "n": n, "flags": flags}
    try:
        gc.collect()
        before = tree_pss()
        t = time.perf_counter()
        for _ in range(n):
            envs.append(gym.make(env_id))
        obs = []
        for i, env in enumerate(envs):
            obs.append(env.reset(seed=i)[0])
        out["make_reset_s"] = round(time.perf_counter() - t, 2)
        invalid, ended = 0, []
        for i, (env, o) in enumerate(zip(envs, obs)):
            h, w = o["screenshot"].shape[:2]
            for _ in range(CLICKS):
                _, _, term, trunc, info = env.step({"action_type": "click", "x": w // 2, "y": h // 2})
                if term or trunc:   # recorded, and the env goes on in a new episode
                    ended.append({"env": i, "error": info.get("error"), "message": info.get("message")})
                    env.reset(seed=i)
            invalid += info.get("invalid_actions", 0)
        out["invalid_clicks"] = invalid
        out["ended_episodes"] = ended
        gc.collect()
        time.sleep(settle)
        after = tree_pss()
        delta = {k: after["kb"][k] - before["kb"][k] for k in PARTS}
        out["pss_per_sandbox_mb"] = mb(sum(delta.values()) / n)
        out["split_mb"] = {k: mb(delta[k] / n) for k in PARTS}
        out["processes"] = after["processes"]
        out["before_mb"] = mb(sum(before["kb"].values()))
        if steps:
            env = envs[0]
            h, w = obs[0]["screenshot"].shape[:2]
            times = []
            for k in range(steps):
                x = w // 2 + (k % 3 - 1) * 40
                t = time.perf_counter()
                _, _, term, trunc, _ = env.step({"action_type": "click", "x": x, "y": h // 2})
                times.append((time.perf_counter() - t) * 1000)
                if term or trunc:   # the task's step budget: a new episode, its reset not timed
                    env.reset(seed=k)
            out["step_ms"] = round(statistics.median(times), 1)
        if oracle:
            try:
                ep = run_episode(envs[0], OracleAgent(), seed=1)
                out["oracle_ok"] = ep["success"]
                if not ep["success"]:
                    out["oracle_message"] = f"{ep.get('message')} {ep.get('error') or ''}".strip()
            except Exception as e:  # a flag that breaks the page breaks the oracle: record it
                out["oracle_ok"] = False
                out["oracle_message"] = f"{type(e).__name__}: {e}"[:500]
    finally:
        for env in envs:
            try:
                env.close()
            except Exception:
                pass
        if old is None:
            os.environ.pop(FLAGS_VAR, None)
        else:
            os.environ[FLAGS_VAR] = old
    return out


def run_one(suite: str, n: int, flags=(), steps: int = 0, oracle: bool = False, timeout: float = 900) -> dict:
    """`measure` in a fresh Python process (`--one`); its result, or {"error": ...}."""
    argv = [sys.executable, str(Path(__file__).resolve()), "--one", suite, str(n),
            "--flags=" + " ".join(flags), "--steps", str(steps)] + (["--oracle"] if oracle else [])
    # ("--flags=...": argparse takes a separate value that starts with "--" for an option)
    t = time.perf_counter()
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"suite": suite, "n": n, "flags": list(flags), "error": f"timed out after {timeout:.0f} s"}
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        return {"suite": suite, "n": n, "flags": list(flags),
                "error": f"exit {p.returncode}: {p.stderr[-1500:]}"}
    out = json.loads(lines[-1])
    out["wall_s"] = round(time.perf_counter() - t, 1)
    return out


def median_of(runs: list[dict]) -> dict:
    """Median of each figure over the runs that did not fail."""
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return {"runs": len(runs), "errors": [r["error"] for r in runs]}
    out = {"runs": len(ok), "pss_per_sandbox_mb": round(statistics.median(r["pss_per_sandbox_mb"] for r in ok), 1),
           "split_mb": {k: round(statistics.median(r["split_mb"][k] for r in ok), 1) for k in PARTS},
           "all_mb": [r["pss_per_sandbox_mb"] for r in ok], "processes": ok[-1]["processes"]}
    if all("step_ms" in r for r in ok):
        out["step_ms"] = round(statistics.median(r["step_ms"] for r in ok), 1)
    if all("oracle_ok" in r for r in ok):
        out["oracle_ok"] = all(r["oracle_ok"] for r in ok)
        msgs = [r["oracle_message"] for r in ok if r.get("oracle_message")]
        if msgs:
            out["oracle_message"] = msgs[0]
    if len(ok) < len(runs):
        out["errors"] = [r["error"] for r in runs if "error" in r]
    return out


def machine() -> dict:
    return {"loadavg": list(os.getloadavg()), "other_chromium_processes": other_chromiums(),
            "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def versions() -> dict:
    import importlib.metadata
    try:
        chromium = subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True, text=True,
                                  timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        chromium = None
    return {"python": platform.python_version(), "playwright": importlib.metadata.version("playwright"),
            "chromium": chromium, "cpus": os.cpu_count()}


def log(*a) -> None:
    print(*a, file=sys.stderr, flush=True)


def sweep(result: dict, save, n: int, repeats: int, keep_mb: float, best_suites: list[str]) -> None:
    """The flag sweep at N=n on browser (baseline and entries interleaved), then the best set."""
    rounds = result["sweep"]["rounds"]
    entries = [(name, merged_flags(f)) for name, f in SWEEP]
    result["sweep"]["entries"] = [{"name": nm, "flags": f} for nm, f in entries]
    for r in range(repeats):
        seq = [{"baseline": True, **run_one("browser", n, (), STEP_SAMPLES, True)}]
        rounds.append(seq)
        save()
        for name, flags in entries:
            log(f"sweep round {r}: {name} {flags}")
            seq.append({"name": name, **run_one("browser", n, flags, STEP_SAMPLES, True)})
            save()
            seq.append({"baseline": True, **run_one("browser", n, (), STEP_SAMPLES, True)})
            summarize_sweep(result)
            save()
    best = [f for e in result["sweep"]["summary"] if e.get("delta_mb") is not None
            and e["delta_mb"] < -keep_mb and e.get("oracle_ok") for f in e["flags"]]
    best = merged_flags(best)
    result["sweep"]["best_flags"] = best
    if not best:
        return
    runs = {s: {"best": [], "baseline": []} for s in ["browser"] + best_suites}
    result["sweep"]["best"] = {"flags": best, "runs": runs}
    for _ in range(repeats):
        for s in runs:
            runs[s]["baseline"].append(run_one(s, n, (), STEP_SAMPLES, True))
            runs[s]["best"].append(run_one(s, n, best, STEP_SAMPLES, True))
            save()
    summ = {}
    for s, rr in runs.items():
        b, f = median_of(rr["baseline"]), median_of(rr["best"])
        summ[s] = {"baseline": b, "best": f}
        if "pss_per_sandbox_mb" in b and "pss_per_sandbox_mb" in f:
            summ[s]["delta_mb"] = round(f["pss_per_sandbox_mb"] - b["pss_per_sandbox_mb"], 1)
    result["sweep"]["best"]["summary"] = summ
    save()


def summarize_sweep(result: dict) -> None:
    """Each entry's delta vs the baselines next to it (per round, then median), step time, oracle."""
    by_name: dict[str, list] = {}
    for seq in result["sweep"]["rounds"]:
        for i, m in enumerate(seq):
            if m.get("baseline") or i + 1 >= len(seq):
                continue
            near = [seq[j] for j in (i - 1, i + 1) if "pss_per_sandbox_mb" in seq[j]]
            d = None
            if "pss_per_sandbox_mb" in m and near:
                d = m["pss_per_sandbox_mb"] - statistics.mean(x["pss_per_sandbox_mb"] for x in near)
            base_step = [x["step_ms"] for x in near if "step_ms" in x]
            by_name.setdefault(m["name"], []).append((m, d, statistics.mean(base_step) if base_step else None))
    summary = []
    for entry in result["sweep"]["entries"]:
        name, flags = entry["name"], entry["flags"]
        got = by_name.get(name)
        if not got:
            continue
        ms = [m for m, _, _ in got]
        ds = [d for _, d, _ in got if d is not None]
        e = {"name": name, "flags": flags, "rounds": len(got),
             "delta_mb": round(statistics.median(ds), 1) if ds else None,
             "deltas_mb": [round(d, 1) for d in ds]}
        med = median_of(ms)
        for k in ("pss_per_sandbox_mb", "split_mb", "step_ms", "oracle_ok", "oracle_message", "errors"):
            if k in med:
                e[k] = med[k]
        bs = [b for _, _, b in got if b is not None]
        if bs and "step_ms" in e:
            e["baseline_step_ms"] = round(statistics.median(bs), 1)
        summary.append(e)
    result["sweep"]["summary"] = summary


def print_table(result: dict) -> None:
    print(f"{'suite':8} {'N':>3} {'PSS/sandbox':>12} " + " ".join(f"{k:>9}" for k in PARTS))
    for row in result["table"]:
        m = row["median"]
        if "pss_per_sandbox_mb" not in m:
            print(f"{row['suite']:8} {row['n']:>3} failed: {m.get('errors')}")
            continue
        print(f"{row['suite']:8} {row['n']:>3} {m['pss_per_sandbox_mb']:>12} "
              + " ".join(f"{m['split_mb'][k]:>9}" for k in PARTS))
    for e in result.get("sweep", {}).get("summary", []):
        print(f"{e['name'][:48]:48} delta {e['delta_mb']} MB  oracle {e.get('oracle_ok')}  "
              f"step {e.get('step_ms')} ms (baseline {e.get('baseline_step_ms')})")


def main(argv: list[str] | None = None) -> dict | None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--one", nargs=2, metavar=("SUITE", "N"), help="one measurement in this process; prints JSON")
    ap.add_argument("--flags", default="", help="with --one: extra Chromium flags (space-separated)")
    ap.add_argument("--steps", type=int, default=0, help="with --one: click steps timed on env 0")
    ap.add_argument("--oracle", action="store_true", help="with --one: run the task's oracle once on env 0")
    ap.add_argument("--suites", default="browser,mobile,game")
    ap.add_argument("--n", type=int, action="append", help="sandboxes per process (repeatable; default 1 and 8)")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--no-table", action="store_true", help="skip the suite x N table")
    ap.add_argument("--sweep", action="store_true", help="also run the flag sweep on browser")
    ap.add_argument("--sweep-n", type=int, default=8)
    ap.add_argument("--sweep-repeats", type=int, default=None, help="rounds of the sweep (default --repeats)")
    ap.add_argument("--sweep-only", default="", help="comma-separated entry names (prefixes) to run only those")
    ap.add_argument("--keep-mb", type=float, default=5.0, help="an entry joins the best set below -keep-mb")
    ap.add_argument("--best-suites", default="mobile,game")
    ap.add_argument("--compare", metavar="FLAGS", help="instead of the table: each suite and N with the default flags"
                    " and with these extra flags (space-separated), interleaved, --repeats rounds (the flags kept"
                    " after a sweep, measured before they join the defaults)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "density.json"))
    a = ap.parse_args(argv)

    if a.one:
        suite, n = a.one[0], int(a.one[1])
        print(json.dumps(measure(suite, n, shlex.split(a.flags), a.steps, a.oracle)), flush=True)
        return None

    suites = [s for s in a.suites.split(",") if s]
    for s in suites:
        if s not in SUITES:
            ap.error(f"unknown suite {s!r}; suites: {sorted(SUITES)}")
    ns = a.n or [1, 8]
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    result = {"method": METHOD, "versions": versions(), "machine_before": machine(),
              "command": " ".join([Path(sys.executable).name, *sys.argv]),
              "suites": {s: SUITES[s] for s in suites}, "table": []}
    if out.exists():   # keep what an earlier run measured that this run does not redo
        try:
            old = json.loads(out.read_text())
            if a.no_table and "table" in old:
                result["table"] = old["table"]
            if not a.sweep and "sweep" in old:
                result["sweep"] = old["sweep"]
        except ValueError:
            pass

    def save():
        out.write_text(json.dumps(result, indent=1) + "\n")

    if a.compare is not None:
        flags = merged_flags(shlex.split(a.compare))
        runs = {(s, n, v): [] for s in suites for n in ns for v in ("default", "flags")}
        result["compare"] = {"flags": flags, "rows": []}
        for r in range(a.repeats):
            for (s, n, v), rr in runs.items():
                log(f"compare round {r}: {s} N={n} {v}")
                rr.append(run_one(s, n, flags if v == "flags" else (), STEP_SAMPLES, True))
                rows = []
                for s2 in suites:
                    for n2 in ns:
                        d, f = median_of(runs[(s2, n2, "default")]), median_of(runs[(s2, n2, "flags")])
                        row = {"suite": s2, "n": n2, "default": d, "flags": f}
                        if "pss_per_sandbox_mb" in d and "pss_per_sandbox_mb" in f:
                            row["delta_mb"] = round(f["pss_per_sandbox_mb"] - d["pss_per_sandbox_mb"], 1)
                        rows.append(row)
                result["compare"]["rows"] = rows
                result["compare"]["runs"] = {f"{s2} N={n2} {v2}": x for (s2, n2, v2), x in runs.items()}
                save()
        for row in result["compare"]["rows"]:
            d, f = row["default"], row["flags"]
            print(f"{row['suite']:8} N={row['n']:<3} default {d.get('pss_per_sandbox_mb')} MB, step {d.get('step_ms')} ms,"
                  f" oracle {d.get('oracle_ok')}  |  flags {f.get('pss_per_sandbox_mb')} MB, step {f.get('step_ms')} ms,"
                  f" oracle {f.get('oracle_ok')}  |  delta {row.get('delta_mb')} MB")
        return result
    if not a.no_table:
        runs = {(s, n): [] for s in suites for n in ns}
        for r in range(a.repeats):
            for (s, n), rr in runs.items():
                log(f"table round {r}: {s} N={n}")
                rr.append(run_one(s, n))
                result["table"] = [{"suite": s2, "env_id": SUITES[s2], "n": n2, "median": median_of(v), "runs": v}
                                   for (s2, n2), v in runs.items() if v]
                save()
    if a.sweep:
        global SWEEP
        if a.sweep_only:
            keep = [x.strip() for x in a.sweep_only.split(",")]
            SWEEP = [e for e in SWEEP if any(e[0].startswith(k) for k in keep)]
        result["sweep"] = {"n": a.sweep_n, "suite": SUITES["browser"], "rounds": [],
                           "keep_mb": a.keep_mb}
        sweep(result, save, a.sweep_n, a.sweep_repeats or a.repeats, a.keep_mb,
              [s for s in a.best_suites.split(",") if s])
    result["machine_after"] = machine()
    save()
    print_table(result)
    return result


if __name__ == "__main__":
    main()
