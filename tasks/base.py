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
from hybridgym.reward.answers import Answer

if TYPE_CHECKING:
    from hybridgym.sandbox import Sandbox

#: an action in any form the codec accepts (UI-TARS text, pyautogui code, dict, Action)
ActionLike = Any

#: the suites; each has a spec in the engine (`hybridgym.suites`): its screen, sandbox, observer and env
SUITES = ("computer", "browser", "mobile", "game", "miniwob")


@dataclass(frozen=True)
class Outcome:
    """How the agent ended the episode, as the checker sees it (`Task.check`'s `outcome`).

    answer: the content of `finished(content=...)` or `call_user(content=...)`; None when the
        agent did neither (the step budget ran out, or the task ended by itself).
    finished: the agent ended the episode (`finished()` or `call_user()`).
    called_user: the agent handed back with `call_user()` (the right end of an infeasible task),
        told apart from an empty `finished()`.
    """
    answer: str | None = None
    finished: bool = False
    called_user: bool = False


#: the outcome of an episode the agent did not end (also what the untouched state is judged with)
NOT_ENDED = Outcome()


@dataclass
class Episode:
    """One drawn instance of a task: its parameters and what it saw at the start."""
    task: "Task"
    seed: int
    params: dict
    instruction: str
    baseline: dict = field(default_factory=dict)   # state read right after setup
    start: Any = None   # the check of that untouched state (a CheckResult): its goals met are guards at the end


class SplitRng(np.random.Generator):
    """The generator `Task.draw` hands to `sample`: numpy's default generator for the seed (the
    same stream as `np.random.default_rng(seed)`), which also knows the seed's split ("train" or
    "test"), so that a task draws its names, products and dates from that split's own pool
    (`kit.data.Pool`, `split_of`)."""

    def __init__(self, seed: int, split: str):
        if split not in ("train", "test"):
            raise ValueError(f"split must be 'train' or 'test', got {split!r}")
        super().__init__(np.random.PCG64(seed))
        self.split = split


class Task:
    """Subclass and fill in. Class attributes are the task's card."""

    #: "<suite>.<name>-v<N>"; bump N when the reward changes
    id: ClassVar[str] = ""
    suite: ClassVar[str] = ""
    max_steps: ClassVar[int] = 15
    #: whether terminal/read_file/write_file are offered
    sdk: ClassVar[bool] = False
    #: whether the SDK terminal reaches the task's own web server (else it has no network at all)
    sdk_network: ClassVar[bool] = False
    #: "final": reward from the checker when the episode ends; "score": per-step score deltas
    reward_mode: ClassVar[str] = "final"
    #: seeds 0..n_train-1 are for training, the rest for testing
    train_seeds: ClassVar[range] = range(0, 1000)

    #: a JavaScript expression the env evaluates in the page with every observation, in the same
    #: round trip (a game's score and game over), handed to `progress`; None: none
    probe: ClassVar[str | None] = None
    #: whether `oracle` is implemented (MiniWoB pages without a scripted solver have none)
    has_oracle: ClassVar[bool] = True
    #: whether `setup` itself waits until the page saw the Escape the env pressed to close the last
    #: episode's browser dialogs (`Sandbox.unseen_escape`, in the set-up's own first round trip);
    #: else the env waits for it before `setup`
    waits_for_escape: ClassVar[bool] = False

    # -- generation --------------------------------------------------------
    def sample(self, rng: np.random.Generator) -> dict:
        """Parameters of one instance, drawn from the reset seed."""
        return {}

    def draw(self, seed: int) -> dict:
        """The parameters of the instance a reset seed gives: `sample` on a generator of that seed
        that knows the seed's split (`SplitRng`). A task whose train and test instances differ by
        more than the draw (MiniWoB's data mode) overrides it."""
        return self.sample(SplitRng(seed, self.split(seed)))

    def split(self, seed: int) -> str:
        """"train" or "test": which split a reset seed belongs to."""
        return "train" if seed in self.train_seeds else "test"

    def instruction(self, params: dict) -> str:
        raise NotImplementedError

    def expected_answer(self, params: dict) -> Answer | None:
        """For a task whose success needs a final answer: what it expects (`reward.answers.Answer`),
        computed from the parameters alone (the guessability gate and the test split read it for
        thousands of seeds without a display); None for a task that asks for no answer."""
        return None

    def instance_key(self, params: dict) -> tuple:
        """What makes two instances the same, for the test split's hold-out check: the instruction
        and the expected answer. A task whose instruction does not name its instance (a game's
        level) adds what does."""
        expected = self.expected_answer(params)
        return (self.instruction(params), None if expected is None else expected.key())

    def setup(self, sb: "Sandbox", params: dict) -> dict | None:
        """Prepare the sandbox: files, app records, pages, programs. May add to `params` what only
        the live page can tell (MiniWoB's utterance). May return the state as `read_state` would
        read it now (then the env does not read it again for the baseline)."""

    # -- checking ----------------------------------------------------------
    def read_state(self, sb: "Sandbox", params: dict) -> dict:
        """Read what the checker needs (files, records, game state)."""
        return {}

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        """Pure: judge `state` (and how the agent ended: `outcome.answer`, `outcome.called_user`)
        against the task; `baseline` is the state read right after setup."""
        raise NotImplementedError

    def ended(self, sb: "Sandbox", state: dict | None = None) -> bool:
        """Whether the task ended by itself (a game over)."""
        return False

    def score(self, sb: "Sandbox") -> float:
        """A running score, for reward_mode "score"."""
        return 0.0

    def progress(self, sb: "Sandbox", probed: Any = None) -> tuple[float, bool]:
        """(running score, ended by itself) after a step. `probed` is the value of `probe` read
        with the step's observation, or None when it was not read: then ask the sandbox."""
        return (self.score(sb) if self.reward_mode == "score" else 0.0), self.ended(sb)

    def normalized_score(self, score: float) -> float | None:
        """The score on a scale shared across tasks (games: 0 = random agent, 100 = scripted player); None if none."""
        return None

    def discrete_actions(self) -> list[ActionLike] | None:
        """A finite action set for classic RL agents, or None (any action)."""
        return None

    # -- solving -------------------------------------------------------------
    def oracle(self, sb: "Sandbox", params: dict) -> Iterator[ActionLike]:
        """Yield the actions that solve the task, one per step."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Task {self.id}>"


TASKS: dict[str, Task] = {}
#: task ids (or suite names) a family knows of but cannot offer here, and why (shown in errors)
UNAVAILABLE: dict[str, str] = {}


def register_task(cls: type[Task] | None = None, /, **card: Any):
    """Class decorator: add a task to the catalogue.

    `@register_task(id="browser.todo-add-v0", suite="browser", max_steps=10)` first sets the
    task's card: class attributes the class declares (the `Task` ones: id, suite, max_steps,
    sdk, reward_mode, train_seeds, probe; and its family base's, e.g. a phone task's
    `template`). A bare `@register_task` takes the class as it is."""
    def add(c: type[Task]) -> type[Task]:
        unknown = sorted(k for k in card if not hasattr(c, k))
        if unknown:
            raise TypeError(f"register_task: {c.__name__} declares no {unknown}; a card sets class attributes "
                            f"of the task (id, suite, max_steps, sdk, reward_mode, ...)")
        for key, value in card.items():
            setattr(c, key, value)
        add_task(c())
        return c
    return add(cls) if cls is not None else add


def add_task(task: Task) -> Task:
    """Add a task instance to the catalogue (for families that make many tasks of one class)."""
    if not task.id or task.suite not in SUITES or not task.id.startswith(task.suite + "."):
        raise ValueError(f"task {type(task).__name__} needs an id '<suite>.<name>-vN' with suite in {SUITES}")
    if task.id in TASKS:
        raise ValueError(f"task id {task.id} is registered twice")
    TASKS[task.id] = task
    return task


def tasks_of(suite: str) -> list[Task]:
    return [t for t in TASKS.values() if t.suite == suite]
