"""`hybridgym bench --workers N` against `--workers 1` on the same episodes, on this machine.

    .venv/bin/python benchmarks/bench_workers.py --out benchmarks/results/bench_workers.json

Each run is the command a user types (a fresh process: its sandboxes start inside the measured time),
recording trajectories as `--record` does; runs alternate between the worker counts, `--repeats` of each;
medians of the wall time, and the speed-up of each count against 1.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HYBRIDGYM = str(Path(sys.executable).with_name("hybridgym"))


def one_run(workers: int, args, tmp: Path) -> dict:
    out = tmp / f"w{workers}"
    shutil.rmtree(out, ignore_errors=True)
    cmd = [HYBRIDGYM, "bench", "--suite", args.suite, "--agent", args.agent, "--episodes", str(args.episodes),
           "--workers", str(workers), "--record", str(out), "--no-progress"]
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    rows = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    return {"workers": workers, "wall_s": round(wall, 2), "episodes": len(rows),
            "successes": sum(r["success"] for r in rows), "steps": sum(r["steps"] for r in rows)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--suite", default="game")
    p.add_argument("--agent", default="oracle,random")
    p.add_argument("--episodes", type=int, default=1)
    p.add_argument("--workers", default="1,2", help="worker counts to compare (the first is the baseline)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--out", default="benchmarks/results/bench_workers.json")
    args = p.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    runs: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="hybridgym-workers-") as tmp:
        for rep in range(args.repeats):
            for w in (counts if rep % 2 == 0 else counts[::-1]):
                r = one_run(w, args, Path(tmp))
                runs.append(r)
                print(json.dumps(r), flush=True)
    medians = {w: statistics.median(r["wall_s"] for r in runs if r["workers"] == w) for w in counts}
    base = medians[counts[0]]
    summary = [{"workers": w, "median_wall_s": medians[w], "speedup": round(base / medians[w], 2),
                "episodes": next(r["episodes"] for r in runs if r["workers"] == w)} for w in counts]
    for s in summary:
        print(f"--workers {s['workers']}: {s['median_wall_s']:.1f} s for {s['episodes']} episodes "
              f"({s['speedup']:.2f}x)")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"command": "python benchmarks/bench_workers.py " + " ".join(sys.argv[1:]),
                                          "date": time.strftime("%Y-%m-%d %H:%M"), "cores": _cores(),
                                          "summary": summary, "runs": runs}, indent=2) + "\n")


def _cores() -> int:
    import os
    return len(os.sched_getaffinity(0))


if __name__ == "__main__":
    main()
