"""Scores of a run: success rates and normalized scores per suite, task and agent, with 95% confidence
intervals over seeds; as rows, a Markdown table and CSV (what `bench` writes and `report` shows).

An episode's record is the summary `run_episode` returns (a line of `bench`'s JSON-lines output) or
`record_of(trajectory)`: at least task_id, suite, agent, seed, success, reward, steps.
"""

from __future__ import annotations

import csv
import io
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

#: two-sided 95% critical values of Student's t by degrees of freedom (1..30); 1.96 beyond
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042]
Z95 = 1.959964


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% by default); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(values: Sequence[float]) -> tuple[float, float, float] | None:
    """(mean, low, high): the mean and its 95% Student-t interval; None for no values. One value has no
    spread to measure: its interval is the value itself."""
    xs = [float(v) for v in values if v is not None]
    if not xs:
        return None
    n = len(xs)
    mean = sum(xs) / n
    if n == 1:
        return mean, mean, mean
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    t = _T95[n - 2] if n - 1 <= len(_T95) else Z95
    half = t * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def record_of(traj) -> dict:
    """A trajectory's episode record (the fields of a `bench` line that its folder holds)."""
    h, r = traj.header, traj.result or {}
    return {"task_id": h.get("task_id"), "suite": h.get("suite"), "agent": h.get("agent"), "seed": h.get("seed"),
            "success": bool(r.get("success")), "reward": r.get("reward", traj.reward), "steps": len(traj),
            "normalized_score": r.get("normalized_score"), "score": r.get("score"), "message": r.get("message", ""),
            "error": r.get("error"), "complete": traj.complete, "wall_s": r.get("wall_s"),
            "invalid_actions": r.get("invalid_actions"), "episode": traj.name}


GROUPINGS = {"suite": ("suite", "agent"), "task": ("task_id", "agent"), "agent": ("agent",)}


def summarize(records: Iterable[dict], by: Sequence[str] = ("task_id", "agent")) -> list[dict]:
    """One row per group of `by`: episodes, successes, the success rate and its Wilson interval, mean reward
    and steps, the normalized score's mean and t interval (games), sorted by the group's keys."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in records:
        groups[tuple(r.get(k) for k in by)].append(r)
    rows = []
    for key, rs in sorted(groups.items(), key=lambda kv: tuple("" if v is None else str(v) for v in kv[0])):
        n = len(rs)
        k = sum(bool(r.get("success")) for r in rs)
        lo, hi = wilson(k, n)
        norm = mean_ci([r["normalized_score"] for r in rs if r.get("normalized_score") is not None])
        walls = [float(r["wall_s"]) for r in rs if r.get("wall_s") is not None]
        rows.append({**dict(zip(by, key)), "episodes": n, "successes": k, "success_rate": k / n,
                     "success_low": lo, "success_high": hi,
                     "reward": sum(float(r.get("reward") or 0.0) for r in rs) / n,
                     "steps": sum(float(r.get("steps") or 0) for r in rs) / n,
                     "seeds": len({r.get("seed") for r in rs}),
                     "normalized_score": None if norm is None else norm[0],
                     "normalized_low": None if norm is None else norm[1],
                     "normalized_high": None if norm is None else norm[2],
                     "wall_s": sum(walls) / len(walls) if walls else None})
    return rows


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _cell(row: dict, key: str) -> str:
    v = row.get(key)
    if key == "success":
        return f"{_pct(row['success_rate'])} [{_pct(row['success_low'])}, {_pct(row['success_high'])}]"
    if key == "normalized":
        if row.get("normalized_score") is None:
            return ""
        return f"{row['normalized_score']:.1f} [{row['normalized_low']:.1f}, {row['normalized_high']:.1f}]"
    if isinstance(v, float):
        return f"{v:.2f}"
    return "" if v is None else str(v)


def markdown(rows: list[dict], by: Sequence[str]) -> str:
    """`summarize`'s rows as a Markdown table: success with its 95% interval, normalized score with its own."""
    cols = list(by) + ["episodes", "success", "normalized", "reward", "steps", "wall_s"]
    heads = {"task_id": "task", "success": "success [95% CI]", "normalized": "normalized score [95% CI]"}
    out = ["| " + " | ".join(heads.get(c, c) for c in cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in rows:
        out.append("| " + " | ".join(_cell(row, c) for c in cols) + " |")
    return "\n".join(out) + "\n"


def to_csv(rows: list[dict]) -> str:
    if not rows:
        return ""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in row.items()})
    return buf.getvalue()


def summary_markdown(records: list[dict], title: str = "hybridgym run") -> str:
    """The whole summary of a run: per agent, per suite and agent, per task and agent."""
    parts = [f"# {title}\n", f"{len(records)} episodes. Success rates with 95% Wilson intervals; normalized "
             "scores (games: 0 = random agent, 100 = scripted player) with 95% t intervals over seeds.\n"]
    for name, by in (("By agent", GROUPINGS["agent"]), ("By suite and agent", GROUPINGS["suite"]),
                     ("By task and agent", GROUPINGS["task"])):
        parts.append(f"## {name}\n\n" + markdown(summarize(records, by), by))
    return "\n".join(parts)
