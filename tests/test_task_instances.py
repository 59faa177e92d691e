"""The test split holds out, and no answer task can be won by a fixed guess (no display needed).

For every task (MiniWoB's pages bring their own data modes, tests/test_miniwob.py):
- **hold-out**: no instance of a test seed (its instruction and expected answer,
  `Task.instance_key`) equals the instance of a training seed;
- **guessability gate**: over 1,000 test seeds, the most common expected answer covers at most 10% of
  them (1/k for a task that declares k choices); a sample of fewer seeds is allowed two standard errors
  more (a task near the bound, at 9-10% over 1,000 seeds, shows 10-11% over 250).

The default run samples `TRAIN_SEEDS` training and `TEST_SEEDS` test seeds per task for the hold-out and
`GATE_SEEDS` test seeds for the gate (drawing an instance of a web app's task takes 10-30 ms, and these
sweeps were a fifth of the suite's time); the `slow` sweeps take 1,000 of each
(`pytest -m slow tests/test_task_instances.py`).
"""

from __future__ import annotations

from collections import Counter

import pytest

from hybridgym.tasks import TASKS

TASK_IDS = sorted(t for t in TASKS if TASKS[t].suite != "miniwob")
TRAIN_SEEDS, TEST_SEEDS, GATE_SEEDS, SWEEP_SEEDS = 50, 50, 250, 1000
GUESS_SHARE = 0.10


def held_out_seeds(task, n: int) -> list[int]:
    first = task.train_seeds.stop
    return list(range(first, first + n))


def instances(task, seeds) -> dict[tuple, int]:
    return {task.instance_key(task.draw(s)): s for s in seeds}


def hold_out(task_id: str, n_train: int, n_test: int) -> None:
    task = TASKS[task_id]
    train = instances(task, list(task.train_seeds)[:n_train])
    test = instances(task, held_out_seeds(task, n_test))
    same = [(test[k], train[k]) for k in test if k in train]
    assert not same, (f"{task_id}: {len(same)} of {len(test)} distinct test instances equal a training one, "
                      f"e.g. test seed {same[0][0]} = train seed {same[0][1]}: {next(k for k in test if k in train)}")


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_test_instances_are_not_training_instances(task_id):
    hold_out(task_id, TRAIN_SEEDS, TEST_SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("task_id", TASK_IDS)
def test_test_instances_are_not_training_instances_sweep(task_id):
    hold_out(task_id, SWEEP_SEEDS, SWEEP_SEEDS)


def answers(task, seeds) -> Counter:
    out = Counter()
    for s in seeds:
        expected = task.expected_answer(task.draw(s))
        if expected is None:
            return Counter()
        out[expected.key()] += 1
    return out


ANSWER_TASKS = [t for t in TASK_IDS if TASKS[t].expected_answer(TASKS[t].draw(0)) is not None]


def guess_gate(task_id: str, n_seeds: int) -> None:
    """The gate over the first `n_seeds` test seeds: exact at `SWEEP_SEEDS`, with two standard errors of a
    sample's share more below that."""
    task = TASKS[task_id]
    seeds = held_out_seeds(task, n_seeds)
    counts = answers(task, seeds)
    assert sum(counts.values()) == len(seeds), f"{task_id} asks for an answer on some seeds only"
    expected = task.expected_answer(task.draw(seeds[0]))
    allowed = max(GUESS_SHARE, 1 / expected.choices) if expected.choices else GUESS_SHARE
    if n_seeds < SWEEP_SEEDS:
        allowed += 2 * (allowed * (1 - allowed) / n_seeds) ** 0.5
    top, n = counts.most_common(1)[0]
    assert n / len(seeds) <= allowed, (f"{task_id}: the answer {top!r} is right on {n} of {len(seeds)} test seeds "
                                       f"({n / len(seeds):.0%} > {allowed:.0%}): a fixed guess wins too often")


@pytest.mark.parametrize("task_id", ANSWER_TASKS)
def test_no_answer_is_guessable(task_id):
    guess_gate(task_id, GATE_SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("task_id", ANSWER_TASKS)
def test_no_answer_is_guessable_sweep(task_id):
    guess_gate(task_id, SWEEP_SEEDS)


def test_the_gate_catches_a_guessable_task():
    """The gate is not vacuous: a task whose answer is one of three values fails it."""
    from hybridgym.reward.answers import Answer
    from hybridgym.tasks.base import Task

    class ThreeWay(Task):
        id, suite = "browser.three-way-v0", "browser"

        def sample(self, rng):
            return {"n": int(rng.integers(3))}

        def instruction(self, params):
            return "How many?"

        def expected_answer(self, params):
            return Answer(params["n"], "number")

    counts = answers(ThreeWay(), range(1000))
    assert counts.most_common(1)[0][1] / 1000 > GUESS_SHARE
