"""The gym ids: one per suite (a task drawn at each reset) and one per task of the catalogue.

Flat, in the Gymnasium style. Every id has a vector entry point: `gym.make_vec(id, n,
vectorization_mode="vector_entry_point")` gives a Ray vector env (`hybridgym.vector`);
"sync" and "async" give gymnasium's own.

The step budget is the env's own (the task's `max_steps`, or the `max_steps=` argument): at its
last step the env runs the task's checker and returns `truncated=True` with the check. So no id
registers a `max_episode_steps` (gymnasium's TimeLimit would cut the episode one step before the
checker could run). `gym.make(id, max_episode_steps=N)` still works: the env finds the TimeLimit
gymnasium puts around it and makes N its own budget (`HybridEnv.max_steps`).
"""

from __future__ import annotations

import functools

from gymnasium.envs.registration import register, registry

import hybridgym.tasks  # noqa: F401  (the catalogue: importing it registers every family's tasks)
from hybridgym.tasks.base import TASKS, UNAVAILABLE

from .suites import SUITE_SPECS


def _ray_vector(gym_id: str):
    from .vector import make_ray_vector
    return functools.partial(make_ray_vector, gym_id)


def _register(gym_id: str, entry_point: str, nondeterministic: bool, **kwargs) -> None:
    if gym_id not in registry:
        register(id=gym_id, entry_point=entry_point, vector_entry_point=_ray_vector(gym_id),
                 nondeterministic=nondeterministic, **kwargs)


def register_all() -> None:
    """Register the suites' ids and every task's id (idempotent)."""
    # real desktops and browsers are not pixel-deterministic (clocks, caret blinks, the
    # anti-aliasing of Chromium's tab strip); games run on a virtual clock and are: one seed, one run
    _register("hybridgym/Computer-v0", "hybridgym.computer:ComputerEnv", nondeterministic=True)
    _register("hybridgym/Browser-v0", "hybridgym.browser:BrowserEnv", nondeterministic=True)
    _register("hybridgym/MiniWoB-v0", "hybridgym.miniwob:MiniWoBEnv", nondeterministic=True)
    _register("hybridgym/Mobile-v0", "hybridgym.mobile:MobileEnv", nondeterministic=True)
    _register("hybridgym/Game-v0", "hybridgym.game:GameEnv", nondeterministic=False)
    for task_id, task in sorted(TASKS.items()):
        spec = SUITE_SPECS[task.suite]
        _register(f"hybridgym/{task_id}", spec.entry_point, not spec.deterministic, kwargs={"task": task_id})
    # tasks known but not runnable here (a missing optional package, a page that cannot run): their ids
    # exist, and making one says why it cannot run
    for task_id in sorted(UNAVAILABLE):
        suite = task_id.split(".", 1)[0]
        if "." in task_id and suite in SUITE_SPECS and task_id not in TASKS:
            spec = SUITE_SPECS[suite]
            _register(f"hybridgym/{task_id}", spec.entry_point, not spec.deterministic, kwargs={"task": task_id})
