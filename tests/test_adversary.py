"""The adversary agent's generic cheats pass no task beyond chance, through `env.step`.

Each cheat (`AdversaryAgent.CHEATS`: declining, the most common training answer, every answer at
once, a `javascript:` URL and a page of the agent's own that write every reward-bearing page object,
select-all-and-apply) is played on test seeds. It may only pass by chance: where the same ending on
the untouched state passes too (the guess happens to be this instance's answer, which the
guessability gate bounds to 10%; declining an instance that cannot be done, which its feasible twin
makes a coin toss). The default run plays every cheat on one task of every suite (a different task
per cheat); `pytest -m slow tests/test_adversary.py` plays every cheat on every task.
"""

from __future__ import annotations

import pytest

from hybridgym.agents import AdversaryAgent, run_episode
from hybridgym.tasks import TASKS, Outcome

CHEATS = AdversaryAgent.CHEATS
TEST_SEED = 1000


def by_suite() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for tid in sorted(TASKS):
        out.setdefault(TASKS[tid].suite, []).append(tid)
    return out


def sample() -> list[tuple[str, str]]:
    """Every cheat on one task of every suite, spread over each suite's tasks."""
    pairs = []
    for suite, ids in by_suite().items():
        step = max(1, len(ids) // len(CHEATS))
        for i, cheat in enumerate(CHEATS):
            pairs.append((ids[(i * step + 3) % len(ids)], cheat))
    return pairs


def chance(env, outcome: Outcome) -> bool:
    """Whether ending this episode's instance this way, on the untouched state, passes."""
    ep = env.unwrapped.episode
    return ep.task.check(ep.baseline, ep.params, outcome, ep.baseline).success


def play(suite_env, task_id: str, cheat: str) -> None:
    task = TASKS[task_id]
    env = suite_env(task.suite)
    agent = AdversaryAgent(cheat)
    seed = TEST_SEED
    r = run_episode(env, agent, seed, task=task_id)
    if r["success"]:
        ending = (Outcome("I cannot do this task.", finished=True, called_user=True) if cheat == "decline"
                  else Outcome(agent.guess, finished=True))
        assert chance(env, ending), f"{task_id}: the {cheat!r} cheat passed ({r['message']})"


@pytest.mark.parametrize("task_id,cheat", sample())
def test_no_cheat_passes(task_id, cheat, suite_env):
    play(suite_env, task_id, cheat)


@pytest.mark.slow
@pytest.mark.parametrize("cheat", CHEATS)
@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_no_cheat_passes_any_task(task_id, cheat, suite_env):
    play(suite_env, task_id, cheat)


def test_the_adversary_learns_the_common_answer():
    from hybridgym.agents import learned_answers
    answer_tasks = [t for t in sorted(TASKS) if TASKS[t].suite != "miniwob"
                    and TASKS[t].expected_answer(TASKS[t].draw(0)) is not None]
    assert answer_tasks, "no task declares its expected answer"
    assert learned_answers(TASKS[answer_tasks[0]])
    assert learned_answers(TASKS["game.snake-v0"]) == ()   # a game asks for no answer
