"""Issue 15's figures per suite, offline (no display): how many distinct instances the seeds give, whether
the test split holds out, and how guessable the answers are; with `--bench`, the adversary's and the
oracle's success from a `hybridgym bench` run's JSON lines.

    .venv/bin/python benchmarks/task_instances.py --seeds 1000 --out benchmarks/results/task_instances.json
    .venv/bin/python -m hybridgym bench --agent oracle,adversary --episodes 6 --seed 1000 --out runs/adv.jsonl
    .venv/bin/python benchmarks/task_instances.py --from benchmarks/results/task_instances.json --bench runs/adv.jsonl

Per task: distinct instances (`Task.instance_key`: instruction and expected answer) over `--seeds` test
seeds; the share of those test seeds whose instance equals the instance of one of `--seeds` training
seeds (target 0); for answer tasks, the share of test seeds won by the single most common answer
(target <= 10%, or 1/k for k declared choices). MiniWoB's instances are its pages' own (seed, data mode).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def measure(args: tuple[str, int]) -> dict:
    from hybridgym.tasks import TASKS
    task_id, n = args
    task = TASKS[task_id]
    first = task.train_seeds.stop
    train = {task.instance_key(task.draw(s)) for s in list(task.train_seeds)[:n]}
    keys, answers = [], Counter()
    choices = None
    for s in range(first, first + n):
        params = task.draw(s)
        keys.append(task.instance_key(params))
        expected = task.expected_answer(params)
        if expected is not None:
            answers[expected.key()] += 1
            choices = expected.choices
    out = {"task": task_id, "suite": task.suite, "distinct": len(set(keys)),
           "test_equal_train": sum(k in train for k in keys) / n}
    if answers:
        out["top_answer_share"] = answers.most_common(1)[0][1] / n
        out["allowed_share"] = max(0.10, 1 / choices) if choices else 0.10
    return out


def table(rows: list[dict], bench: dict[tuple[str, str], list[bool]]) -> str:
    by_suite = defaultdict(list)
    for r in rows:
        by_suite[r["suite"]].append(r)
    head = ("| suite | tasks | distinct instances (median, min) | test = train (max share) | "
            "top answer share (max) | adversary success | oracle success |")
    lines = [head, "|" + "---|" * 7]
    for suite in sorted(by_suite):
        rs = by_suite[suite]
        distinct = [r["distinct"] for r in rs]
        tops = [r["top_answer_share"] for r in rs if "top_answer_share" in r]

        def rate(agent: str) -> str:
            xs = [x for (t, a), v in bench.items() if a == agent and t.split(".")[0] == suite for x in v]
            return f"{sum(xs)} of {len(xs)}" if xs else "–"
        lines.append(f"| {suite} | {len(rs)} | {statistics.median(distinct):.0f}, {min(distinct)} | "
                     f"{max(r['test_equal_train'] for r in rs):.1%} | "
                     f"{(f'{max(tops):.1%} ({len(tops)} answer tasks)') if tops else '–'} | "
                     f"{rate('adversary')} | {rate('oracle')} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=1000, help="test seeds and training seeds per task")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", help="write the per-task rows as JSON")
    ap.add_argument("--from", dest="load", help="read the rows from a JSON file instead of measuring")
    ap.add_argument("--bench", help="JSON lines of a `hybridgym bench` run (oracle, adversary)")
    args = ap.parse_args()
    if args.load:
        rows = json.loads(Path(args.load).read_text())["tasks"]
    else:
        from hybridgym.tasks import TASKS
        ids = sorted(TASKS)
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(measure, [(t, args.seeds) for t in ids], chunksize=1))
        if args.out:
            Path(args.out).write_text(json.dumps({"seeds": args.seeds, "tasks": rows}, indent=1) + "\n")
    bench: dict[tuple[str, str], list[bool]] = defaultdict(list)
    if args.bench:
        for line in Path(args.bench).read_text().splitlines():
            r = json.loads(line)
            bench[(r["task_id"], r["agent"])].append(bool(r["success"]))
    print(table(rows, bench))
    worst = sorted((r for r in rows if r["test_equal_train"] > 0), key=lambda r: -r["test_equal_train"])[:10]
    for r in worst:
        print(f"  not held out: {r['task']} {r['test_equal_train']:.1%}", file=sys.stderr)
    over = [r for r in rows if r.get("top_answer_share", 0) > r.get("allowed_share", 1)]
    for r in over:
        print(f"  guessable: {r['task']} {r['top_answer_share']:.1%}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
