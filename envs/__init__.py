"""hybridgym: Gymnasium environments for GUI agents, with an SDK channel beside the GUI.

`import hybridgym` registers one gym id per task (`hybridgym/<suite>.<task>-v0`)
and one per suite that samples a task at each reset (`hybridgym/Browser-v0`, ...).
"""

import functools

from gymnasium.envs.registration import register, registry

from hybridgym.tasks import SUITES, TASKS

from .actions import ActionError, Codec, parse_action

__all__ = ["ActionError", "Codec", "parse_action", "SUITE_ENTRY_POINTS", "SUITE_IDS"]
__version__ = "0.1.0"

SUITE_ENTRY_POINTS = {
    "computer": "hybridgym.computer:ComputerEnv",
    "browser": "hybridgym.browser:BrowserEnv",
    "mobile": "hybridgym.mobile:MobileEnv",
    "game": "hybridgym.game:GameEnv",
}
SUITE_IDS = {suite: f"hybridgym/{suite.capitalize()}-v0" for suite in SUITES}
#: Real desktops and browsers are not pixel-deterministic (clocks, caret blinks, the
#: anti-aliasing of Chromium's tab strip); games run on a virtual clock and are.
NONDETERMINISTIC = {"computer": True, "browser": True, "mobile": True, "game": False}


def _ray_vector(gym_id: str):
    """The vector entry point of an id: `gym.make_vec(id, n, vectorization_mode="vector_entry_point")`
    gives a RayVectorEnv (hybridgym.vector); "sync" and "async" give gymnasium's own."""
    from .vector import make_ray_vector
    return functools.partial(make_ray_vector, gym_id)


def _register_all() -> None:
    for suite in SUITES:
        if SUITE_IDS[suite] not in registry:
            register(id=SUITE_IDS[suite], entry_point=SUITE_ENTRY_POINTS[suite],
                     vector_entry_point=_ray_vector(SUITE_IDS[suite]),
                     nondeterministic=NONDETERMINISTIC[suite])
    for task_id, task in sorted(TASKS.items()):
        gym_id = f"hybridgym/{task_id}"
        if gym_id not in registry:
            register(id=gym_id, entry_point=SUITE_ENTRY_POINTS[task.suite],
                     max_episode_steps=task.max_steps, kwargs={"task": task_id},
                     vector_entry_point=_ray_vector(gym_id),
                     nondeterministic=NONDETERMINISTIC[task.suite])


_register_all()


from .miniwob import register_miniwob  # noqa: E402  (MiniWoB++ pages of the installed package)

register_miniwob()
