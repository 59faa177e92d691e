"""How far a reward agrees with the checkers on recorded episodes: `hybridgym judge-eval RUN_DIR`.

Before training on a reward other than the task's checker (a model judge, partial credit, a reward of your
own), measure how often it says what the checker says. `evaluate(run_dir, rewards)` reads every complete
trajectory of a run (`hybridgym.trajectory.load_run`), rebuilds each episode's outcome
(`hybridgym.rewards.outcome_from_trajectory`: the recorded check and its conditions, the steps, the last
screenshots), computes each reward on it, calls a value >= `threshold` a predicted success, and compares it
with the checker's recorded verdict:

    from hybridgym.judge_eval import evaluate
    table = evaluate("runs/all", ["binary", "partial", {"name": "judge", "base_url": URL, "model": M}])
    for row in table["rewards"]:
        print(row["reward"], row["overall"]["f1"], row["mean_on_success"], row["mean_on_failure"])

Per reward: the confusion matrix (tp: both say success; fp: the reward says success, the checker failure;
fn, tn), precision, recall, F1 and accuracy, overall and per agent and per suite; the reward's mean value on
the checker's successes and failures and its AUC (the chance that a success scores above a failure, ties
half: how well it separates, whatever the threshold); the episodes it fell back on (a judge whose endpoint
failed reports `reward_info["judge"]["fallback"]`; those episodes agree with the checker by construction,
so the agreement without them is given too); the episodes it raised on (counted as errors, with the first
messages: one bad episode never ends the evaluation); and, for rewards computed from the checker's
conditions (partial, step_cost with base partial), the episodes recorded without conditions (older
recordings: their result.json has no "check"), left out of that reward's figures rather than scored as if
no condition held. The reward "checker" is the recorded verdict itself (1 or 0), a row that agrees by
definition.

Every string read from a run (agent names, messages, a reward's errors) is data: it is escaped before it
is printed.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from .replay import printable
from .rewards import make_reward, outcome_from_trajectory, value_of
from .trajectory import _redacted, jsonable, load_run

#: the rewards compared when none is named
DEFAULT_REWARDS = ("binary", "partial", "step_cost")
#: error messages kept per reward (the others are counted)
MAX_MESSAGES = 3
#: characters kept of one error message
MAX_MESSAGE_CHARS = 300


class EvalError(ValueError):
    """Input judge-eval cannot evaluate: a folder without complete trajectories, a bad threshold."""


# -- which rewards -------------------------------------------------------------------------------------------
def reward_label(spec: Any) -> str:
    """A reward's name in the tables: its registered name, with its options (secrets and URLs left out) when
    given as a dict; a callable's `__name__`."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, Mapping):
        options = {k: v for k, v in spec.items() if k != "name" and k not in ("base_url", "prompt", "extra_body")}
        shown = ", ".join(f"{k}={v}" for k, v in _redacted(options).items())
        return f"{spec.get('name')}({shown})" if shown else str(spec.get("name"))
    return getattr(spec, "__name__", None) or getattr(spec, "name", None) or type(spec).__name__


def needs_conditions(spec: Any) -> bool:
    """Whether a reward is computed from the checker's conditions (then episodes recorded without them are
    left out of its figures): "partial", and "step_cost" with base "partial"."""
    name = spec if isinstance(spec, str) else spec.get("name") if isinstance(spec, Mapping) else None
    base = spec.get("base", "binary") if isinstance(spec, Mapping) else "binary"
    return name == "partial" or (name == "step_cost" and base == "partial")


class _Entry:
    """One reward under evaluation: its label, its callable (None: the checker's verdict), whether it needs
    conditions, and whether evaluate made it (then evaluate closes it)."""

    def __init__(self, label: str, spec: Any):
        self.label, self.spec = label, spec
        self.fn: Callable | None = make_reward(spec)
        self.owned = not callable(spec) or isinstance(spec, (str, Mapping))
        self.conditions = needs_conditions(spec)

    def close(self) -> None:
        close = getattr(self.fn, "close", None)
        if self.owned and callable(close):
            close()


def _entries(rewards: Sequence[Any] | Mapping[str, Any]) -> list[_Entry]:
    """The rewards as entries, each with a label of its own (a repeated label gets #2, #3)."""
    pairs = list(rewards.items()) if isinstance(rewards, Mapping) else [(reward_label(s), s) for s in rewards]
    if not pairs:
        raise EvalError("no reward to evaluate: name at least one (e.g. binary, partial, step_cost, judge)")
    entries: list[_Entry] = []
    seen: dict[str, int] = {}
    try:
        for label, spec in pairs:
            seen[label] = seen.get(label, 0) + 1
            entries.append(_Entry(label if seen[label] == 1 else f"{label}#{seen[label]}", spec))
    except BaseException:
        for entry in entries:
            entry.close()
        raise
    return entries


# -- one episode ---------------------------------------------------------------------------------------------
def _message(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= MAX_MESSAGE_CHARS else text[:MAX_MESSAGE_CHARS] + "..."


def _fallback_of(info: Mapping) -> tuple[bool, str]:
    """(fell back, why) from a reward's info: `info["judge"]["fallback"]`, or a top-level "fallback"."""
    for where in (info.get("judge"), info):
        if isinstance(where, Mapping) and "fallback" in where:
            return where.get("fallback") is True, str(where.get("error") or "")
    return False, ""


def _has_conditions(outcome) -> bool:
    return bool(getattr(outcome.check, "conditions", ()))


def _key(value: Any) -> str:
    """A header field (agent, suite) as a grouping key: recorded data may hold anything."""
    return value if isinstance(value, str) else json.dumps(jsonable(value))


def _score_episode(traj, entries: list[_Entry], frames: int) -> dict:
    """Every reward's value on one trajectory (None where it raised or could not be computed)."""
    record = {"episode": traj.name, "task_id": _key(traj.task_id), "agent": _key(traj.agent),
              "suite": _key(traj.suite), "seed": jsonable(traj.seed), "success": traj.success,
              "values": {}, "errors": {}, "fallbacks": {}, "seconds": {}}
    try:
        outcome = outcome_from_trajectory(traj, frames=frames)
    except Exception as e:            # a damaged recording: counted, the run goes on
        record["unreadable"] = _message(e)
        return record
    record["conditions"] = _has_conditions(outcome)
    for entry in entries:
        if entry.fn is None:
            record["values"][entry.label] = 1.0 if traj.success else 0.0
            continue
        if entry.conditions and not record["conditions"]:
            record["values"][entry.label] = None
            continue
        t0 = time.perf_counter()
        try:
            value, info = value_of(entry.fn(outcome))
            if not math.isfinite(value):
                raise ValueError(f"the reward returned {value}")
        except Exception as e:
            record["values"][entry.label] = None
            record["errors"][entry.label] = _message(e)
            continue
        finally:
            record["seconds"][entry.label] = time.perf_counter() - t0
        record["values"][entry.label] = value
        fell_back, why = _fallback_of(info)
        if fell_back:
            record["fallbacks"][entry.label] = why[:MAX_MESSAGE_CHARS]
    return record


# -- the figures ---------------------------------------------------------------------------------------------
def agreement(pairs: Sequence[tuple[bool, bool]]) -> dict:
    """The confusion matrix of (predicted, actual) pairs and its precision, recall, F1 and accuracy (None when
    the denominator is 0: recall of a group with no success)."""
    tp = sum(p and a for p, a in pairs)
    fp = sum(p and not a for p, a in pairs)
    fn = sum(a and not p for p, a in pairs)
    tn = len(pairs) - tp - fp - fn

    def ratio(num: int, den: int) -> float | None:
        return num / den if den else None

    return {"n": len(pairs), "tp": tp, "fp": fp, "fn": fn, "tn": tn, "precision": ratio(tp, tp + fp),
            "recall": ratio(tp, tp + fn), "f1": ratio(2 * tp, 2 * tp + fp + fn), "accuracy": ratio(tp + tn, len(pairs))}


def auc(on_success: Sequence[float], on_failure: Sequence[float]) -> float | None:
    """The chance that a success's value is above a failure's (ties count half); None without both."""
    if not on_success or not on_failure:
        return None
    pos, neg = np.asarray(on_success, float), np.asarray(on_failure, float)
    wins = 0.0
    for chunk in np.array_split(pos, max(1, len(pos) * len(neg) // 1_000_000 + 1)):   # bounded memory
        diff = chunk[:, None] - neg[None, :]
        wins += float((diff > 0).sum() + 0.5 * (diff == 0).sum())
    return wins / (len(pos) * len(neg))


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _reward_row(entry: _Entry, records: list[dict], threshold: float) -> dict:
    label = entry.label
    scored = [r for r in records if r["values"].get(label) is not None]
    pairs = [(r["values"][label] >= threshold, r["success"]) for r in scored]
    by: dict[str, dict] = {}
    for field in ("agent", "suite"):
        groups: dict[str, list] = {}
        for r, pair in zip(scored, pairs):
            groups.setdefault(r[field], []).append(pair)
        by[field] = {k: agreement(v) for k, v in sorted(groups.items())}
    errors = [(r["episode"], r["errors"][label]) for r in records if label in r["errors"]]
    fallbacks = [(r["episode"], r["fallbacks"][label]) for r in records if label in r["fallbacks"]]
    on_success = [r["values"][label] for r in scored if r["success"]]
    on_failure = [r["values"][label] for r in scored if not r["success"]]
    seconds = [r["seconds"][label] for r in records if label in r["seconds"]]
    row = {"reward": label, "spec": jsonable(_redacted(entry.spec)) if not callable(entry.spec) else label,
           "threshold": threshold, "overall": agreement(pairs), "by_agent": by["agent"], "by_suite": by["suite"],
           "mean_on_success": _mean(on_success), "mean_on_failure": _mean(on_failure),
           "auc": auc(on_success, on_failure),
           "errors": len(errors), "error_messages": [f"{e}: {m}" for e, m in errors[:MAX_MESSAGES]],
           "no_conditions": sum(1 for r in records if entry.conditions and not r.get("conditions")),
           "fallbacks": len(fallbacks), "fallback_errors": [f"{e}: {m}" for e, m in fallbacks[:MAX_MESSAGES]],
           "seconds_per_episode": _mean(seconds)}
    if fallbacks:
        fell = {e for e, _ in fallbacks}
        row["without_fallbacks"] = agreement([p for r, p in zip(scored, pairs) if r["episode"] not in fell])
    return row


def evaluate(run_dir: str | Path, rewards: Sequence[Any] | Mapping[str, Any] = DEFAULT_REWARDS, *,
             threshold: float = 0.5, frames: int = 3, workers: int = 1) -> dict:
    """Each reward's agreement with the checkers on the complete trajectories under `run_dir`.

    rewards: specs as `make_reward` takes them (names, {"name": ..., **options}, callables of the outcome;
        "checker" is the recorded verdict), or a dict {label: spec} to name them in the tables.
    threshold: a value >= threshold is a predicted success. frames: screenshots each outcome carries (a
    judge sees the last ones). workers: episodes scored at once (threads: a judge waits on its endpoint).

    Returns {"run_dir", "threshold", "episodes" (complete ones scored), "successes", "failures", "incomplete",
    "unreadable" (count and "unreadable_messages"), "no_conditions" (episodes recorded without conditions),
    "rewards": one row per reward (see the module's docstring), "episode_values": per episode its agent,
    suite, verdict and every reward's value}. Raises FileNotFoundError for a missing folder, EvalError when it
    holds no complete trajectory or an argument is out of range, and ValueError / TypeError (from
    `make_reward`) for an unknown reward or option."""
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not math.isfinite(threshold):
        raise EvalError(f"threshold must be a finite number, got {threshold!r}")
    if isinstance(frames, bool) or not isinstance(frames, int) or frames < 0:
        raise EvalError(f"frames must be a whole number of screenshots >= 0, got {frames!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise EvalError(f"workers must be a whole number >= 1, got {workers!r}")
    trajectories = load_run(run_dir)
    complete = [t for t in trajectories if t.complete]
    if not complete:
        raise EvalError(f"{run_dir} holds no complete trajectory ({len(trajectories)} without result.json); "
                        f"record one with `hybridgym bench --record DIR`")
    entries = _entries(rewards)
    try:
        if workers == 1:
            records = [_score_episode(t, entries, frames) for t in complete]
        else:
            with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="judge-eval") as pool:
                records = list(pool.map(lambda t: _score_episode(t, entries, frames), complete))
    finally:
        for entry in entries:
            entry.close()
    unreadable = [r for r in records if "unreadable" in r]
    read = [r for r in records if "unreadable" not in r]
    return {"run_dir": str(run_dir), "threshold": float(threshold), "episodes": len(read),
            "successes": sum(r["success"] for r in read), "failures": sum(not r["success"] for r in read),
            "incomplete": len(trajectories) - len(complete), "unreadable": len(unreadable),
            "unreadable_messages": [f"{r['episode']}: {r['unreadable']}" for r in unreadable[:MAX_MESSAGES]],
            "no_conditions": sum(not r["conditions"] for r in read),
            "rewards": [_reward_row(e, read, float(threshold)) for e in entries],
            "episode_values": [{k: r[k] for k in ("episode", "task_id", "agent", "suite", "seed", "success", "values")}
                               for r in read]}


# -- tables --------------------------------------------------------------------------------------------------
def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.3f}"
    return printable(str(value)).replace("|", "\\|")


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table with aligned columns (readable in a terminal too); None shows as –."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(h)] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(values):
        return "| " + " | ".join(v.ljust(w) for v, w in zip(values, widths)) + " |"

    return "\n".join([line(headers), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] + [line(r) for r in cells])


_COUNTS = ("n", "tp", "fp", "fn", "tn", "precision", "recall", "f1", "accuracy")


def markdown(result: Mapping) -> str:
    """The tables of an `evaluate` result: every reward overall, then per agent and per suite."""
    out = [f"Agreement with the checkers: {result['episodes']} complete episodes of {_cell(result['run_dir'])} "
           f"({result['successes']} successes, {result['failures']} failures; {result['incomplete']} incomplete "
           f"and {result['unreadable']} unreadable left out; {result['no_conditions']} recorded without the "
           f"checker's conditions). A value >= the threshold is a predicted success.", ""]
    rows = []
    for row in result["rewards"]:
        o = row["overall"]
        rows.append([row["reward"], row["threshold"]] + [o[k] for k in _COUNTS]
                    + [row["mean_on_success"], row["mean_on_failure"], row["auc"], row["errors"],
                       row["no_conditions"], row["fallbacks"]])
    out.append(table(["reward", "threshold", *_COUNTS, "mean|success", "mean|failure", "AUC", "errors",
                      "no conditions", "fallbacks"], rows))
    for field in ("agent", "suite"):
        rows = [[row["reward"], row["threshold"], group] + [m[k] for k in _COUNTS]
                for row in result["rewards"] for group, m in row[f"by_{field}"].items()]
        out += ["", f"By {field}:", "", table(["reward", "threshold", field, *_COUNTS], rows)]
    notes = []
    for row in result["rewards"]:
        if row["no_conditions"]:
            notes.append(f"- {_cell(row['reward'])}: {row['no_conditions']} episodes have no conditions recorded "
                         f"(result.json without \"check\"): not computed, left out of its figures")
        for message in row["error_messages"]:
            notes.append(f"- {_cell(row['reward'])} raised ({row['errors']} episodes in all): {_cell(message)}")
        for message in row["fallback_errors"]:
            notes.append(f"- {_cell(row['reward'])} fell back to the checker ({row['fallbacks']} episodes): "
                         f"{_cell(message)}")
        if "without_fallbacks" in row:
            w = row["without_fallbacks"]
            notes.append(f"- {_cell(row['reward'])} without its fallbacks: n {w['n']}, F1 {_cell(w['f1'])}, "
                         f"accuracy {_cell(w['accuracy'])}")
    for message in result["unreadable_messages"]:
        notes.append(f"- unreadable: {_cell(message)}")
    if notes:
        out += ["", "Notes:", *notes]
    return "\n".join(out) + "\n"


# -- the command ---------------------------------------------------------------------------------------------
def _json_file(path: str, obj: Any) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(jsonable(obj), indent=1) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """`hybridgym judge-eval RUN_DIR [--reward NAME ...] [--reward-json JSON ...] [--threshold T] [--base-url URL
    --model M] [--workers N] [--json OUT] [--markdown OUT]`: print the agreement tables; exit 0, or 2 on bad
    input (no complete trajectory, an unknown reward: the registered ones are listed)."""
    from .rewards import REWARDS
    p = argparse.ArgumentParser(prog="hybridgym judge-eval", description=__doc__.split("\n\n")[0],
                                epilog="exit status: 0 evaluated, 2 bad input")
    p.add_argument("run_dir", metavar="RUN_DIR", help="a run folder (hybridgym bench --record) or one episode")
    p.add_argument("--reward", action="append", default=[], metavar="NAME",
                   help=f"a registered reward ({', '.join(sorted(REWARDS))}, or checker); repeat for more "
                        f"(default: {', '.join(DEFAULT_REWARDS)})")
    p.add_argument("--reward-json", action="append", default=[], metavar="JSON",
                   help='a reward with options, e.g. \'{"name": "step_cost", "cost": 0.05}\'; repeatable')
    p.add_argument("--threshold", type=float, default=0.5, help="a value >= T is a predicted success (0.5)")
    p.add_argument("--base-url", help="the judge's OpenAI-compatible endpoint (adds the reward judge)")
    p.add_argument("--model", help="the judge's model, with --base-url")
    p.add_argument("--frames", type=int, default=3, help="screenshots a judge is shown (3)")
    p.add_argument("--workers", type=int, default=1, help="episodes scored at once (a judge's requests) (1)")
    p.add_argument("--json", metavar="OUT", help="write the whole result as JSON")
    p.add_argument("--markdown", metavar="OUT", help="write the tables as Markdown")
    args = p.parse_args(argv)

    def bad(message: str) -> int:
        print(f"hybridgym judge-eval: {printable(message)}", file=sys.stderr)
        return 2

    specs: list[Any] = list(args.reward)
    for text in args.reward_json:
        try:
            spec = json.loads(text)
        except json.JSONDecodeError as e:
            return bad(f"--reward-json {text[:100]!r} is not JSON: {e}")
        if not isinstance(spec, dict):
            return bad(f"--reward-json must be an object with 'name', got {text[:100]!r}")
        specs.append(spec)
    if (args.base_url is None) != (args.model is None):
        return bad("the judge needs both --base-url and --model")
    if args.base_url is not None:
        judge = {"name": "judge", "base_url": args.base_url, "model": args.model, "frames": args.frames}
        specs = [judge if s == "judge" else s for s in specs] if "judge" in specs else specs + [judge]
        if not args.reward and not args.reward_json:
            specs = list(DEFAULT_REWARDS) + specs
    elif "judge" in specs:
        return bad("the reward judge needs --base-url URL and --model M")
    try:
        result = evaluate(args.run_dir, specs or DEFAULT_REWARDS, threshold=args.threshold, frames=args.frames,
                          workers=args.workers)
    except (FileNotFoundError, ValueError, TypeError) as e:
        return bad(str(e))
    text = markdown(result)
    print(text, end="")
    if args.json:
        _json_file(args.json, result)
    if args.markdown:
        Path(args.markdown).parent.mkdir(parents=True, exist_ok=True)
        Path(args.markdown).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
