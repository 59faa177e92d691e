"""The task model: what a task is (data plus small code), apart from the env that runs it.

A task draws its parameters from the reset seed (`sample`), prepares the
sandbox (`setup`), reads the resulting state (`read_state`), judges it with a
pure function (`check`), and carries an oracle (`oracle`): a scripted
sequence of the env's own actions that solves it, computed from what is on
the screen at each step (positions come from the live page or windows; the
oracle acts only through `env.step`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Iterator

import numpy as np

from hybridgym.reward import CheckResult

if TYPE_CHECKING:
    from hybridgym.sandbox import Sandbox

#: an action in any form the codec accepts (UI-TARS text, pyautogui code, dict, Action)
ActionLike = Any

SUITES = ("computer", "browser", "mobile", "game")


@dataclass
class Episode:
    """One drawn instance of a task: its parameters and what it saw at the start."""
    task: "Task"
    seed: int
    params: dict
    instruction: str
    baseline: dict = field(default_factory=dict)   # state read right after setup


class Task:
    """Subclass and fill in. Class attributes are the task's card."""

    #: "<suite>.<name>-v<N>"; bump N when the reward changes
    id: ClassVar[str] = ""
    suite: ClassVar[str] = ""
    max_steps: ClassVar[int] = 15
    #: whether terminal/read_file/write_file are offered
    sdk: ClassVar[bool] = False
    #: "final": reward from the checker when the episode ends; "score": per-step score deltas
    reward_mode: ClassVar[str] = "final"
    #: seeds 0..n_train-1 are for training, the rest for testing
    train_seeds: ClassVar[range] = range(0, 1000)

    # -- generation --------------------------------------------------------
    def sample(self, rng: np.random.Generator) -> dict:
        """Parameters of one instance, drawn from the reset seed."""
        return {}

    def instruction(self, params: dict) -> str:
        raise NotImplementedError

    def setup(self, sb: "Sandbox", params: dict) -> None:
        """Prepare the sandbox: files, app records, pages, programs."""

    # -- checking ----------------------------------------------------------
    def read_state(self, sb: "Sandbox", params: dict) -> dict:
        """Read what the checker needs (files, records, game state)."""
        return {}

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        """Pure: judge `state` (and the agent's final answer) against the task."""
        raise NotImplementedError

    def ended(self, sb: "Sandbox", state: dict | None = None) -> bool:
        """Whether the task ended by itself (a game over)."""
        return False

    def score(self, sb: "Sandbox") -> float:
        """A running score, for reward_mode "score"."""
        return 0.0

    # -- solving -------------------------------------------------------------
    def oracle(self, sb: "Sandbox", params: dict) -> Iterator[ActionLike]:
        """Yield the actions that solve the task, one per step."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Task {self.id}>"


TASKS: dict[str, Task] = {}


def register_task(cls: type[Task]) -> type[Task]:
    """Class decorator: add a task to the catalogue."""
    task = cls()
    if not task.id or task.suite not in SUITES or not task.id.startswith(task.suite + "."):
        raise ValueError(f"task {cls.__name__} needs an id '<suite>.<name>-vN' with suite in {SUITES}")
    if task.id in TASKS:
        raise ValueError(f"task id {task.id} is registered twice")
    TASKS[task.id] = task
    return cls


def tasks_of(suite: str) -> list[Task]:
    return [t for t in TASKS.values() if t.suite == suite]
