"""The checker registry and the checkers shared by the suites."""

from __future__ import annotations

import functools
import inspect
import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence


@dataclass(frozen=True)
class Condition:
    """One thing a checker tested, and whether it held.

    name: what was tested ("file_text_equals(notes/a.txt)", "one record added").
    held: whether it held in the state judged.
    message: why it failed (the checker's message), or what held.
    guard: a condition that holds when the agent does nothing (nothing damaged: other files intact, no other
        record changed, nothing sent); a goal condition (guard False) is one the agent's work makes hold.
    """
    name: str
    held: bool
    message: str = ""
    guard: bool = False

    def to_dict(self) -> dict:
        return {"name": self.name, "held": bool(self.held), "message": self.message, "guard": bool(self.guard)}


@dataclass(frozen=True)
class CheckResult:
    """`success` is whether the task is done; `reward` may grade partial work (0..1).

    `conditions` are what the checker tested, each held or not (`Condition`); `partial` grades the state by
    them. `fraction`, when set, is the checker's own share of the goal reached (a game's score / target) and
    stands for the goal conditions' share in `partial`.
    """
    success: bool
    reward: float
    message: str
    details: dict = field(default_factory=dict)
    conditions: tuple[Condition, ...] = ()
    fraction: float | None = None

    @classmethod
    def passed(cls, message: str = "ok", conditions: Sequence[Condition] = (), **details) -> "CheckResult":
        return cls(True, 1.0, message, details, tuple(conditions))

    @classmethod
    def failed(cls, message: str, reward: float = 0.0, conditions: Sequence[Condition] = (),
               fraction: float | None = None, **details) -> "CheckResult":
        return cls(False, reward, message, details, tuple(conditions), fraction)

    @property
    def partial(self) -> float:
        """Partial credit, 0..1: 1.0 on success; else 0.0 if a guard condition failed (a state that damaged
        something earns nothing); else `fraction` when the checker set one; else the share of the goal
        (non-guard) conditions that held, 0.0 when there are none."""
        if self.success:
            return 1.0
        if any(c.guard and not c.held for c in self.conditions):
            return 0.0
        if self.fraction is not None:
            return float(self.fraction)
        goals = [c for c in self.conditions if not c.guard]
        return sum(c.held for c in goals) / len(goals) if goals else 0.0

    def to_dict(self) -> dict:
        """The result as plain JSON-able data: success, reward, message, partial and the conditions."""
        return {"success": bool(self.success), "reward": float(self.reward), "message": self.message,
                "partial": self.partial, "fraction": self.fraction, "conditions": [c.to_dict() for c in self.conditions]}


def merged(conditions: Sequence[Condition]) -> tuple[Condition, ...]:
    """Conditions that share a name (one per record, or the same guard tested by two parts of a check)
    reported once, in first-seen order: held when all of them held, with the first failure's message, and a
    guard only when every one of them was a guard (so partial credit counts each test once)."""
    out: dict[str, Condition] = {}
    for c in conditions:
        seen = out.get(c.name)
        if seen is None:
            out[c.name] = c
        else:
            first = seen if (not seen.held or c.held) else c
            out[c.name] = replace(first, held=seen.held and c.held, guard=seen.guard and c.guard)
    return tuple(out.values())


def judged(conditions: Sequence[Condition], passed: str, reward: float = 0.0, **details) -> CheckResult:
    """The result of a checker that tested `conditions` in order: passed (with the message `passed`) when
    every one held, else failed (with `reward`) and the message of the first that did not. Conditions that
    share a name are reported once (`merged`)."""
    failure = next((c for c in conditions if not c.held), None)
    if failure is None:
        return CheckResult.passed(passed, merged(conditions))
    return CheckResult.failed(failure.message, reward=reward, conditions=merged(conditions), **details)


def goal(name: str, held: bool, message: str, already: bool = False) -> Condition:
    """A goal condition, or a guard when it `already` held in the starting state: a goal the agent finds done
    (a setting already at its target) is one that doing nothing keeps, so it must not earn partial credit."""
    return Condition(name, held, message, guard=already)


def holds(name: str, held: bool, message: str, passed: str = "", guard: bool = False) -> "CheckResult":
    """A one-condition result, for a task's own test beside the checkers it combines with `all_of`: passed
    (message `passed`, or the name) when `held`, else failed with `message`."""
    if held:
        return CheckResult.passed(passed or name, [Condition(name, True, passed or name, guard)])
    return CheckResult.failed(message, conditions=[Condition(name, False, message, guard)])


def as_condition(name: str, result: "CheckResult", guard: bool = False) -> Condition:
    """A sub-check's result as one condition of a larger check."""
    return Condition(name, result.success, result.message, guard)


def not_judged(names: Sequence[str], why: str, guard: bool = False) -> list[Condition]:
    """Conditions that could not be tested because an earlier one failed (`why`): they count as not held."""
    return [Condition(n, False, f"not judged: {why}", guard) for n in names]


Checker = Callable[..., CheckResult]
CHECKERS: dict[str, Checker] = {}


def checker(fn: Checker | None = None, /, *, guard: bool = False, subject: str | None = None):
    """Register a checker under its function name: `@checker`, or `@checker(guard=..., subject=...)`.

    A checker that reports no conditions of its own (`CheckResult.conditions`) is one condition: named after
    it, with the value of its `subject` argument when given ("file_text_equals(notes/a.txt)"), held when it
    succeeds, with its message; `guard` says it holds when the agent does nothing (files_unchanged)."""
    def register(f: Checker) -> Checker:
        if f.__name__ in CHECKERS:
            raise ValueError(f"checker {f.__name__!r} is registered twice")
        signature = inspect.signature(f) if subject else None

        @functools.wraps(f)
        def run(*args, **kwargs) -> CheckResult:
            result = f(*args, **kwargs)
            if result.conditions:
                return result
            name = f.__name__
            if signature is not None:
                bound = signature.bind(*args, **kwargs)
                bound.apply_defaults()
                name = f"{name}({bound.arguments[subject]})"
            return replace(result, conditions=(Condition(name, result.success, result.message, guard),))
        CHECKERS[f.__name__] = run
        return run
    return register(fn) if fn is not None else register


def get_checker(name: str) -> Checker:
    try:
        return CHECKERS[name]
    except KeyError:
        raise KeyError(f"no checker {name!r}; registered: {sorted(CHECKERS)}") from None


def all_of(*results: CheckResult) -> CheckResult:
    """Success only if every result succeeds; the first failure explains why (its message, reward, details
    and fraction). The result carries the conditions of every result, in order."""
    conditions = merged([c for r in results for c in r.conditions])
    for r in results:
        if not r.success:
            return replace(r, conditions=conditions)
    return CheckResult.passed("; ".join(r.message for r in results), conditions)


def settled(result: CheckResult, start: CheckResult | None) -> CheckResult:
    """`result` with each goal that already held in the untouched state's check (`start`, judged right after
    set-up) reported as a guard: a goal the agent found done (a file that had to exist and did, cells that
    already held their values) is one that doing nothing keeps, so it earns no partial credit. Success and the
    message are unchanged. The env applies it to every task's check."""
    if start is None:
        return result
    met = {c.name for c in start.conditions if c.held and not c.guard}
    if not met or not any(c.name in met and not c.guard for c in result.conditions):
        return result
    return replace(result, conditions=tuple(replace(c, guard=True) if c.name in met else c for c in result.conditions))


def normalize_text(text: str) -> str:
    """Case-folded, NFKC, whitespace collapsed, trailing punctuation dropped."""
    t = unicodedata.normalize("NFKC", text).casefold()
    t = re.sub(r"\s+", " ", t).strip()
    return t.rstrip(" .!。")


@checker(subject="path")
def file_text_equals(files: Mapping[str, bytes], path: str, expected: str,
                     strip_trailing_newline: bool = True) -> CheckResult:
    """The file at `path` holds exactly `expected` (one trailing newline allowed)."""
    if path not in files:
        return CheckResult.failed(f"{path} does not exist")
    try:
        text = files[path].decode("utf-8")
    except UnicodeDecodeError:
        return CheckResult.failed(f"{path} is not UTF-8 text")
    if strip_trailing_newline and text.endswith("\n"):
        text = text[:-1]
    if text != expected:
        return CheckResult.failed(f"{path} holds {text[:80]!r}, expected {expected[:80]!r}")
    return CheckResult.passed(f"{path} holds the expected text")


@checker(guard=True)
def files_unchanged(before: Mapping[str, bytes], after: Mapping[str, bytes],
                    ignore: Sequence[str] = (), ignore_prefixes: Sequence[str] = ()) -> CheckResult:
    """Every file present before is still there with the same bytes (except those ignored)."""
    def skip(p: str) -> bool:
        return p in ignore or any(p.startswith(x) for x in ignore_prefixes)
    missing = [p for p in before if not skip(p) and p not in after]
    changed = [p for p in before if not skip(p) and p in after and after[p] != before[p]]
    if missing or changed:
        return CheckResult.failed(f"other files were damaged: missing {missing[:5]}, changed {changed[:5]}")
    return CheckResult.passed("other files intact")


@checker
def records_contain(records: Sequence[Mapping[str, Any]], expected: Mapping[str, Any],
                    normalize: bool = True) -> CheckResult:
    """Exactly one record has all the expected field values."""
    def eq(a: Any, b: Any) -> bool:
        if normalize and isinstance(a, str) and isinstance(b, str):
            return normalize_text(a) == normalize_text(b)
        return a == b
    hits = [r for r in records if all(k in r and eq(r[k], v) for k, v in expected.items())]
    if len(hits) == 1:
        return CheckResult.passed(f"found the record {dict(expected)}")
    if not hits:
        return CheckResult.failed(f"no record with {dict(expected)}")
    return CheckResult.failed(f"{len(hits)} records with {dict(expected)}, expected exactly one")


@checker(guard=True)
def records_unchanged(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                      key: str = "id") -> CheckResult:
    """Every record present before is present after, unchanged."""
    now = {r[key]: r for r in after}
    damaged = [r[key] for r in before if now.get(r[key]) != r]
    if damaged:
        return CheckResult.failed(f"records {damaged[:5]} were changed or deleted")
    return CheckResult.passed("existing records intact")


@checker
def record_added(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]],
                 expected: Mapping[str, Any], normalize: bool = True, key: str = "id") -> CheckResult:
    """Exactly one record was added, it has the expected values, and the others are untouched.
    Conditions: "one record added", "the added record has the expected values", guard "existing records intact"."""
    old = {r[key] for r in before}
    new = [r for r in after if r[key] not in old]
    one = Condition("one record added", len(new) == 1, f"{len(new)} records were added, expected 1")
    if not one.held:
        values = not_judged(["the added record has the expected values"], one.message)[0]
    else:
        hit = records_contain(new, expected, normalize=normalize)
        values = Condition("the added record has the expected values", hit.success, hit.message)
    intact = records_unchanged(before, after, key)
    return judged([one, values, Condition("existing records intact", intact.success, intact.message, guard=True)],
                  f"found the record {dict(expected)}; existing records intact")


@checker
def score_at_least(score: float, target: float) -> CheckResult:
    """A game's score reached the target; reward is the fraction of the target reached, and so is the
    partial credit: one goal condition, and `fraction` = score / target (clipped to 0..1)."""
    if score >= target:
        return CheckResult.passed(f"score {score} >= {target}")
    share = max(0.0, min(1.0, score / target)) if target else 0.0
    return CheckResult.failed(f"score {score} < {target}", reward=share, fraction=share)
