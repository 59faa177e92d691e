"""Pluggable rewards: what an episode earns, computed from its outcome, beside the task's own checker.

`gym.make(id, reward=...)` takes a registered name ("checker", "binary", "partial", "step_cost", "judge"),
a dict `{"name": ..., **options}`, or a callable `reward(outcome) -> float | RewardResult`. It is called
once, when the episode ends, with an `EpisodeOutcome` (the task, the checker's `CheckResult`, the final
state the task read, the agent's answer, every step's record and the last screenshots) and its value is
the last step's reward. The checker always runs and its verdict is always `info["success"]` (and
`info["check"]`), so a plugged reward never hides the ground truth; what the reward said beyond its value
is in `info["reward_info"]`.

`gym.make(id, process_reward=fn)` is called after every step with that step's `StepRecord` and the episode
so far (an `EpisodeOutcome` whose `check` is None until the end); its value is added to the step's reward
and shown in `info["process_reward"]`.

Write one:

    from hybridgym.rewards import register_reward, RewardResult

    @register_reward("fast-success")
    def fast_success(outcome, budget=10):
        '''1 for a success within `budget` steps, 0.5 for a slower one.'''
        if not outcome.success:
            return 0.0
        return 1.0 if len(outcome.steps) <= budget else RewardResult(0.5, {"slow": True})

    env = gym.make("hybridgym/browser.todo-add-v0", reward={"name": "fast-success", "budget": 6})
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hybridgym.reward import CheckResult


@dataclass
class StepRecord:
    """One step as a reward sees it: the parsed actions (dicts, absolute pixels), the action error, the SDK's
    output, the task's own reward for the step (`task_reward`), how it ended, the screenshot after it (kept
    for the last few steps only: `EpisodeOutcome.frames`)."""
    step: int
    actions: list[dict]
    action_error: str | None = None
    sdk_output: str = ""
    task_reward: float = 0.0
    terminated: bool = False
    truncated: bool = False
    answer: str | None = None
    error: str | None = None


@dataclass
class EpisodeOutcome:
    """An episode as a reward sees it when it ends.

    task_id, suite, seed, instruction: the episode. check: the checker's result (None before the end, for a
    process reward). state: the final state the task read for its check (files, records, a game's score;
    None when read back from a trajectory). answer / finished / called_user: how the agent ended it.
    steps: every step's record. frames: the last screenshots, the final one last (uint8 (H, W, 3)).
    score: a game's score. max_steps: the budget; truncated: it ran out (or the sandbox failed).
    """
    task_id: str
    suite: str
    seed: int
    instruction: str
    check: CheckResult | None = None
    state: Any = None
    answer: str | None = None
    finished: bool = False
    called_user: bool = False
    truncated: bool = False
    steps: list[StepRecord] = field(default_factory=list)
    frames: list[np.ndarray] = field(default_factory=list)
    score: float | None = None
    max_steps: int = 0
    platform: str = "computer"

    @property
    def success(self) -> bool:
        """The checker's verdict (False before the end)."""
        return bool(self.check is not None and self.check.success)


@dataclass
class RewardResult:
    """A reward's value and what it wants said about it (`info["reward_info"]`), e.g. a judge's verdict,
    or that it fell back to the checker."""
    reward: float
    info: dict = field(default_factory=dict)


RewardFn = Callable[[EpisodeOutcome], "float | RewardResult"]
#: name -> a function `fn(outcome, **options)`, or a factory `make(**options)` of a callable of the outcome
#: (a class; or a function registered with factory=True)
REWARDS: dict[str, Callable[..., Any]] = {}
_FACTORIES: set[str] = set()


def register_reward(name: str, factory: bool = False):
    """Register a reward under `name`: a function of (outcome, **options); or, with `factory=True` or for a
    class, something made with the options whose result is called with the outcome."""
    def add(obj):
        if name in REWARDS:
            raise ValueError(f"reward {name!r} is registered twice")
        REWARDS[name] = obj
        if factory or inspect.isclass(obj):
            _FACTORIES.add(name)
        return obj
    return add


class _Bound:
    """A registered reward function with its options bound."""

    def __init__(self, name: str, fn: Callable, options: dict):
        self.name, self.fn, self.options = name, fn, dict(options)

    def __call__(self, outcome: EpisodeOutcome):
        return self.fn(outcome, **self.options)

    def __repr__(self) -> str:
        return f"reward {self.name!r}{self.options or ''}"


def make_reward(spec: Any) -> RewardFn | None:
    """The reward callable of `spec`: None or "checker" (None: the task's own reward, unchanged), a registered
    name, {"name": name, **options}, or a callable taking the outcome. Unknown names and options are errors
    that list what is accepted."""
    if spec is None or spec == "checker":
        return None
    if callable(spec) and not isinstance(spec, (str, Mapping)):
        return spec
    if isinstance(spec, str):
        name, options = spec, {}
    elif isinstance(spec, Mapping):
        options = dict(spec)
        name = options.pop("name", None)
        if not isinstance(name, str):
            raise ValueError(f"a reward given as a dict needs its 'name' (one of {sorted(REWARDS)}), got {spec!r}")
        if name == "checker" and not options:
            return None
    else:
        raise TypeError(f"reward must be a name ({', '.join(sorted(REWARDS))}), a dict with 'name', or a callable "
                        f"of the outcome; got {type(spec).__name__}")
    if name not in REWARDS:
        raise ValueError(f"unknown reward {name!r}; registered: {', '.join(sorted(REWARDS))} "
                         f"(or pass a callable; hybridgym.rewards.register_reward adds one)")
    obj = REWARDS[name]
    if name in _FACTORIES:
        try:
            return obj(**options)
        except TypeError as e:
            raise ValueError(f"reward {name!r}: {e}") from None
    params = inspect.signature(obj).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())
    unknown = [k for k in options if k not in params or k == next(iter(params))] if not takes_any else []
    if unknown:
        accepted = [k for k in list(params)[1:]]
        raise ValueError(f"reward {name!r} has no option {unknown[0]!r}; its options: {accepted}")
    return _Bound(name, obj, options)


def value_of(result: Any) -> tuple[float, dict]:
    """(reward, info) of what a reward returned: a number or a RewardResult."""
    if isinstance(result, RewardResult):
        return float(result.reward), dict(result.info)
    if isinstance(result, (bool, int, float, np.floating, np.integer)):
        value = float(result)
        if not np.isfinite(value):
            raise ValueError(f"a reward returned {value}; rewards must be finite numbers")
        return value, {}
    raise TypeError(f"a reward must return a number or a RewardResult, got {type(result).__name__}")


# -- the built-in rewards ------------------------------------------------------------------------------------
@register_reward("binary")
def binary(outcome: EpisodeOutcome) -> float:
    """1 when the checker says the task is done, else 0 (for a game too, whatever its score)."""
    return 1.0 if outcome.success else 0.0


@register_reward("partial")
def partial(outcome: EpisodeOutcome) -> RewardResult:
    """Partial credit: the share of the checker's goal conditions that held (1 on success; 0 when a guard
    failed, i.e. the agent damaged what it should have kept; 0 for doing nothing). `CheckResult.partial`."""
    check = outcome.check
    if check is None:
        return RewardResult(0.0)
    conditions = getattr(check, "conditions", ())
    value = float(getattr(check, "partial", 1.0 if check.success else 0.0))
    return RewardResult(value, {"conditions_held": sum(c.held for c in conditions), "conditions": len(conditions)})


@register_reward("step_cost")
def step_cost(outcome: EpisodeOutcome, cost: float = 0.01, base: str = "binary", floor: float | None = None) -> float:
    """The `base` reward ("binary" or "partial") less `cost` per step taken, not below `floor` (default: no
    floor). A success in fewer steps earns more."""
    if base not in ("binary", "partial"):
        raise ValueError(f"step_cost's base must be 'binary' or 'partial', got {base!r}")
    value = binary(outcome) if base == "binary" else partial(outcome).reward
    value -= cost * len(outcome.steps)
    return value if floor is None else max(floor, value)


@register_reward("judge", factory=True)
def _judge(**options):
    """A model judge (`hybridgym.judge.JudgeReward`: base_url, model, ...)."""
    from .judge import JudgeReward     # the openai package, imported when a judge is made
    return JudgeReward(**options)


# -- outcomes read back from trajectories (judge-eval, offline rewards) ---------------------------------------
def outcome_from_trajectory(traj, frames: int = 3) -> EpisodeOutcome:
    """The outcome of a recorded episode (`hybridgym.trajectory.Trajectory`): the checker's result as recorded
    (its conditions when the recording has them), the steps, and the last `frames` screenshots. `state` is
    None: the task's state is not recorded."""
    from hybridgym import reward as R
    from .suites import SUITE_SPECS
    h, r = traj.header, traj.result or {}
    check = None
    if traj.complete:
        recorded = r.get("check") or {}
        make_condition = getattr(R, "Condition", None)
        conditions = tuple(make_condition(**{k: c[k] for k in ("name", "held", "message", "guard") if k in c})
                           for c in recorded.get("conditions", ()) if isinstance(c, Mapping)) \
            if make_condition is not None else ()
        kwargs = {"conditions": conditions, "fraction": recorded.get("fraction")} if make_condition is not None else {}
        check = CheckResult(bool(r.get("success")), float(recorded.get("reward", 1.0 if r.get("success") else 0.0)),
                            str(r.get("message", "")), dict(recorded.get("details", {}) or {}), **kwargs)
    steps = [StepRecord(step=int(s.get("step", i + 1)), actions=list(s.get("actions") or []),
                        action_error=s.get("action_error"), sdk_output=s.get("sdk_output") or "",
                        task_reward=float(s.get("reward") or 0.0), terminated=bool(s.get("terminated")),
                        truncated=bool(s.get("truncated")), answer=s.get("answer"), error=s.get("error"))
             for i, s in enumerate(traj.steps)]
    last = steps[-1] if steps else None
    shots = []
    for index in range(max(0, len(steps) + 1 - frames), len(steps) + 1):
        try:
            shots.append(traj.frame(index))
        except (KeyError, OSError, ValueError):
            pass
    suite = h.get("suite") or ""
    platform = SUITE_SPECS[suite].platform if suite in SUITE_SPECS else "computer"
    return EpisodeOutcome(task_id=h.get("task_id"), suite=suite, seed=h.get("seed"), instruction=h.get("instruction", ""),
                          check=check, answer=r.get("answer", last.answer if last else None),
                          finished=bool(last and last.terminated and last.answer is not None),
                          called_user=bool(traj.steps and traj.steps[-1].get("call_user")),
                          truncated=bool(last and last.truncated), steps=steps, frames=shots, score=r.get("score"),
                          max_steps=int(h.get("max_steps") or 0), platform=platform)
