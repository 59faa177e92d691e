"""A hybridgym env served as text in, text out: for SkyRL-Gym (`HybridSkyRLEnv`) and GEM (`HybridGemEnv`) loops.

A text-protocol trainer hands the env the model's reply (a string) and gets back the next user
message (a string). Both classes here stand on `TextSession`, which does the work once:

* the opening: the model family's prompt (`hybridgym.prompts`: how to write actions, in which
  coordinates, whether the SDK is offered) and the task;
* each observation as text (`screen_text`): the SDK's output, the last action's error, and the
  screen as text from the tree modes of docs/observations.md: `obs["axtree"]` (obs_mode "axtree")
  and the set-of-marks list `obs["marks"]` (obs_mode "som"). Without a tree mode the text says
  so; the screenshot is always there (`metadata["screenshot"]` / `info["screenshot"]`, and
  `.screenshot`) for a multimodal model;
* the reply goes to `env.step` as it is: the env's own codec reads every action schema.

SkyRL-Gym 0.4.0 (`skyrl_gym.envs.base_text_env.BaseTextEnv`): `init(prompt) -> (messages, metadata)`,
`step(reply) -> BaseTextEnvStepOutput(observations=[{"role": "user", "content": ...}], reward, done,
metadata)`, `get_metrics()`, `close()`; made by `skyrl_gym.make(id, env_config=..., extras=...)`.
GEM 0.1.0 (`gem.Env`): `reset(seed) -> (text, info)`, `step(reply) -> (text, reward, terminated,
truncated, info)`, `sample_random_action()`, `spawn()`; made by `gem.make(id, seed=...)`.
When the library is installed the class subclasses its base class (the class is made on first
use, so importing this module does not import either library); `register_skyrl()` /
`register_gem()` add every hybridgym id ("hybridgym/<task>") to its registry.

    import skyrl_gym
    from hybridgym.integrations.text_env import register_skyrl
    register_skyrl()
    env = skyrl_gym.make("hybridgym/browser.todo-add-v0", env_config={"obs_mode": "axtree"}, extras={"seed": 3})
    messages, meta = env.init([])
    out = env.step("pyautogui.click(500, 253)")   # out["observations"], out["reward"], out["done"]
"""

from __future__ import annotations

import functools
from typing import Any, Mapping

import gymnasium as gym
import numpy as np

#: the model family a text env's prompt is written for by default: pyautogui calls in screenshot pixels,
#: the same pixels the tree's boxes are in (`@x,y,wxh`)
DEFAULT_FAMILY = "pyautogui"
#: how a mark is clicked in each action schema (docs/observations.md, "Clicking a mark")
MARK_CLICK = {"pyautogui": "pyautogui.click(mark=3)", "uitars": "click(mark=3)", "dict": '{"action_type": "click", "mark": 3}',
              "seed": "<function=click><parameter=mark>3</parameter></function>"}
NO_TREE_NOTE = ("(No text view of the screen: this env was made without a tree mode. Make it with "
                "obs_mode=\"axtree\" or \"som\" for one; the screenshot is in the metadata.)")


def screen_text(obs: Mapping[str, Any]) -> str:
    """The screen of one observation as text: the accessibility tree (`obs["axtree"]`) and the
    set-of-marks list (`obs["marks"]`) where the env gives them, else a note that it gives neither."""
    parts = []
    tree = obs.get("axtree")
    if tree:
        parts.append("Accessibility tree of the screen (a line per node: role, name, value, states, "
                     "@x,y,wxh box in screenshot pixels):\n" + str(tree))
    marks = obs.get("marks")
    if marks:
        parts.append("Numbered marks on the screen (click one by its number):\n" + str(marks))
    if "axtree" in obs or "marks" in obs:
        return "\n\n".join(parts) or "(The screen's tree is empty.)"
    return NO_TREE_NOTE


def feedback_text(obs: Mapping[str, Any]) -> str:
    """The feedback on the last action in one observation: the SDK's output and the action's error ("" when none)."""
    from hybridgym.chat_agent import turn_text
    return turn_text([], obs.get("sdk_output") or "", obs.get("action_error") or "")[1]


def family_of(name: str):
    """The `hybridgym.chat_agent.FAMILIES` entry `name`, or a ValueError that lists them."""
    from hybridgym.chat_agent import FAMILIES
    if name not in FAMILIES:
        raise ValueError(f"unknown model family {name!r}; families: {', '.join(FAMILIES)}")
    return FAMILIES[name]


def opening_text(family_name: str, *, suite: str, sdk: bool, instruction: str, screen: tuple[int, int],
                 marks: bool) -> tuple[str | None, str]:
    """(system prompt or None, first user text) of a task for a model family, as `ChatAgent` opens a
    conversation; a line on clicking marks is added when the observation carries marks."""
    from hybridgym.chat_agent import opening
    from hybridgym.suites import SUITE_SPECS
    family = family_of(family_name)
    platform = SUITE_SPECS[suite].platform
    system, task = opening(family, platform=platform, sdk=sdk, instruction=instruction, image_size=tuple(screen))
    if marks and family.schema in MARK_CLICK:
        task += f"\n\nYou can also click a numbered mark of the screen: {MARK_CLICK[family.schema]}"
    return (system[0]["content"] if system else None), task


def as_reply(env: gym.Env, action: Any) -> Any:
    """`action` (a dict, as the built-in agents give: `hybridgym.agents.OracleAgent`, `RandomAgent`) written
    as a model's reply in the form the env reads (its codec's schema and coordinates): a scripted
    stand-in for the model in examples and tests."""
    from hybridgym.actions import parse_action
    base = env.unwrapped
    return base.codec.format(parse_action(action, base.screen_size, platform=base.codec.platform))


class TextSession:
    """One hybridgym env played as text: `start` gives the opening messages, `reply` takes the model's text.

    Arguments:
        env_id: a hybridgym id ("hybridgym/browser.todo-add-v0"), made with `make_kwargs` (e.g. obs_mode="axtree").
        env: an env you made instead (it is not closed by `close()`); env_id is then only its name.
        family: the model family the prompt is written for and the env reads ("pyautogui": pixel
            coordinates, those of the tree's boxes; "uitars", "qwen", "seed", ... as `ChatAgent` takes).
        seed: the seed of the first episode (None: drawn by the env); later episodes without one draw theirs.
    """

    def __init__(self, env_id: str | None = None, *, env: gym.Env | None = None, family: str = DEFAULT_FAMILY,
                 seed: int | None = None, **make_kwargs: Any):
        if env_id is None and env is None:
            raise ValueError("give env_id (a hybridgym id, e.g. 'hybridgym/browser.todo-add-v0') or env (an env you made)")
        self.family_name, self.family = family, family_of(family)
        self._owns_env = env is None
        if env is None:
            make_kwargs.setdefault("schema", self.family.schema)
            make_kwargs.setdefault("coords", self.family.coords)
            env = gym.make(env_id, **make_kwargs)
        elif make_kwargs:
            raise TypeError(f"make arguments {sorted(make_kwargs)} apply only with env_id, not to an env given")
        self.env = env
        self.env_id = env_id or getattr(getattr(env, "spec", None), "id", None)
        self.seed = seed
        self.obs: dict | None = None
        self.info: dict = {}
        self.done = True
        self.steps = 0
        self.total_reward = 0.0

    @property
    def screenshot(self) -> np.ndarray | None:
        """The screenshot of the last observation (uint8 H x W x 3), for a multimodal model; None before `start`."""
        return None if self.obs is None else self.obs["screenshot"]

    def start(self, seed: int | None = None, task: str | None = None) -> tuple[str | None, str, dict]:
        """Reset the env: (system prompt or None, first user message: the task and the screen as text, info)."""
        base = self.env.unwrapped
        if not self._owns_env and hasattr(base, "set_action_format"):
            base.set_action_format(self.family.schema, self.family.coords)
        if seed is None:
            seed, self.seed = self.seed, None
        self.obs, self.info = self.env.reset(seed=seed, options={"task": task} if task else None)
        self.done, self.steps, self.total_reward = False, 0, 0.0
        system, task_text = opening_text(self.family_name, suite=self.info["suite"], sdk=bool(self.info.get("sdk")),
                                         instruction=str(self.obs["instruction"]),
                                         screen=self.obs["screenshot"].shape[1::-1], marks="marks" in self.obs)
        return system, task_text + "\n\n" + screen_text(self.obs), self.info

    def reply(self, text: str) -> tuple[str, float, bool, bool, dict]:
        """Play the model's reply: (next user message, reward, terminated, truncated, info). The message
        holds the feedback on the reply (SDK output, action error) and the screen as text; at the end,
        how the episode ended."""
        if self.obs is None or self.done:
            raise RuntimeError("the episode has ended (or not begun); start a new one first "
                               "(SkyRL: init(), GEM: reset())")
        if not isinstance(text, str):
            raise TypeError(f"a text env takes the model's reply as a str, got {type(text).__name__}")
        self.obs, reward, terminated, truncated, self.info = self.env.step(text)
        self.steps += 1
        self.total_reward += float(reward)
        self.done = bool(terminated or truncated)
        parts = [p for p in (feedback_text(self.obs),) if p]
        if self.done:
            how = "succeeded" if self.info.get("success") else "did not succeed"
            parts.append(f"The episode has ended ({'finished' if terminated else 'out of steps'}): the task {how}."
                         + (f" {self.info['message']}" if self.info.get("message") else ""))
        else:
            parts.append(screen_text(self.obs))
        return "\n\n".join(parts), float(reward), bool(terminated), bool(truncated), self.info

    def metrics(self) -> dict[str, float]:
        """The episode's numbers: success (0/1), steps, total reward, invalid actions."""
        return {"success": float(bool(self.info.get("success"))), "steps": float(self.steps),
                "total_reward": self.total_reward, "invalid_actions": float(self.info.get("invalid_actions", 0))}

    def close(self) -> None:
        if self._owns_env:
            self.env.close()


def _extras(info: dict, obs: dict | None) -> dict:
    """What the metadata of a SkyRL step / the info of a GEM step carries beside the text."""
    return {"screenshot": None if obs is None else obs["screenshot"], "success": bool(info.get("success")),
            "task_id": info.get("task_id"), "seed": info.get("seed"), "action_error": info.get("action_error"),
            "hybridgym_info": info}


# -- SkyRL-Gym -----------------------------------------------------------------------------------------------------
class _NoSkyRLBase:
    """Stands in for SkyRL-Gym's BaseTextEnv when skyrl-gym is not installed."""

    def __init__(self):
        self.turns, self.max_turns = 0, 1


def _config_dict(config: Any) -> dict:
    if config is None:
        return {}
    if isinstance(config, Mapping):
        return dict(config)
    try:   # an OmegaConf DictConfig, as SkyRL passes it
        from omegaconf import OmegaConf
        return dict(OmegaConf.to_container(config, resolve=True))
    except Exception:
        raise TypeError(f"env_config must be a mapping (a dict or an OmegaConf DictConfig), got "
                        f"{type(config).__name__}") from None


class _SkyRLTextEnv:
    """A hybridgym env as a SkyRL-Gym text env (`skyrl_gym.envs.base_text_env.BaseTextEnv`, 0.4.0).

    `init(prompt)` resets the env and returns the prompt messages: the family's system prompt, the
    dataset's `prompt` messages if any, then a user message with the task and the screen as text.
    `step(reply)` plays the reply and returns `observations=[{"role": "user", "content": ...}]` (empty
    once done), the step's reward (the checker's, at the end), `done`, and `metadata` with
    `screenshot`, `success`, `task_id`, `seed`, `action_error` and the env's `hybridgym_info`.

    Arguments, as `skyrl_gym.make(id, env_config=..., extras=...)` passes them: `env_config` (a
    mapping: `env_id`, `family`, and `gym.make` arguments such as `obs_mode`), `extras` (per sample:
    `seed`, `task`); or directly `env_id=`/`env=` and keyword arguments as `TextSession`'s.
    """

    def __init__(self, env_config: Any = None, extras: Mapping[str, Any] | None = None, *,
                 env_id: str | None = None, env: gym.Env | None = None, **kwargs: Any):
        super().__init__()
        config = {**_config_dict(env_config), **kwargs}
        extras = dict(extras or {})
        env_id = config.pop("env_id", env_id)
        self._seed, self._task = extras.get("seed", config.pop("seed", None)), extras.get("task")
        self.session = TextSession(env_id, env=env, **config)
        self.max_turns = 1

    def init(self, prompt: list[dict] | None = None) -> tuple[list[dict], dict]:
        system, user, info = self.session.start(self._seed, self._task)
        self.turns, self.max_turns = 0, int(info.get("max_steps") or 1)
        messages = list(prompt or [])
        if system and not any(m.get("role") == "system" for m in messages):
            messages.insert(0, {"role": "system", "content": system})
        messages.append({"role": "user", "content": user})
        return messages, _extras(info, self.session.obs)

    def step(self, action: str):
        text, reward, terminated, truncated, info = self.session.reply(action)
        self.turns += 1
        done = terminated or truncated
        return self._step_output(observations=[] if done else [{"role": "user", "content": text}], reward=reward,
                          done=done, metadata={**_extras(info, self.session.obs), "final_text": text if done else None})

    @property
    def screenshot(self) -> np.ndarray | None:
        """The last observation's screenshot."""
        return self.session.screenshot

    def get_metrics(self) -> dict[str, Any]:
        return self.session.metrics()

    def close(self) -> None:
        self.session.close()


# -- GEM -----------------------------------------------------------------------------------------------------------
class _GemTextEnv:
    """A hybridgym env as a GEM env (`gem.Env`, gem-llm 0.1.0): text observations, text actions.

    `reset(seed)` gives the first observation: the family's prompt, the task and the screen as text
    (GEM has no system message: the prompt opens the text). `step(reply)` gives `(text, reward,
    terminated, truncated, info)`; `info` has `screenshot`, `success`, `task_id`, `seed`,
    `action_error` and the env's `hybridgym_info`. Works under GEM's wrappers (e.g.
    `gem.wrappers.observation_wrapper.ObservationWrapper`, which adds the history).

    Arguments: `env_id` or `env`, `seed` (gem.make_vec gives each copy its own), `family`, `task`,
    and `gym.make` arguments (obs_mode="axtree", ...), as `TextSession`'s.
    """

    def __init__(self, env_id: str | None = None, *, env: gym.Env | None = None, seed: int | None = None,
                 task: str | None = None, **kwargs: Any):
        self._config = {"env_id": env_id, "seed": seed, "task": task, **kwargs}
        self.task = task
        self.session = TextSession(env_id, env=env, seed=seed, **kwargs)

    def reset(self, seed: int | None = None) -> tuple[str, dict]:
        system, user, info = self.session.start(seed, self.task)
        return (f"{system}\n\n{user}" if system else user), _extras(info, self.session.obs)

    def step(self, action: str) -> tuple[str, float, bool, bool, dict]:
        text, reward, terminated, truncated, info = self.session.reply(action)
        return text, reward, terminated, truncated, _extras(info, self.session.obs)

    def sample_random_action(self) -> str:
        """A random action written in the family's form (the env's random agent's choice)."""
        from hybridgym.agents import RandomAgent
        if self.session.obs is None:
            raise RuntimeError("call reset() before sample_random_action()")
        agent = RandomAgent()
        agent.reset(self.session.env, self.session.obs, {"seed": int(np.random.default_rng().integers(2**31))})
        return str(as_reply(self.session.env, agent.act(self.session.obs)))

    @property
    def screenshot(self) -> np.ndarray | None:
        """The last observation's screenshot."""
        return self.session.screenshot

    def spawn(self, same_state: bool = False, **kwargs: Any):
        """A new env of the same configuration (its own sandbox); `same_state` is not offered (a GUI's
        state cannot be copied)."""
        if same_state:
            raise NotImplementedError("a hybridgym env cannot copy its state (a live GUI); spawn(same_state=False)")
        if self._config["env_id"] is None:
            raise ValueError("spawn() needs an env made from an env_id, not one given as env=")
        return type(self)(**{**self._config, **kwargs})

    def close(self) -> None:
        self.session.close()


# -- the classes, made on first use -------------------------------------------------------------------------------
def _make_class(name: str) -> type:
    """HybridSkyRLEnv / HybridGemEnv: the adapter on the library's base class when the library is installed
    (imported only now: `import gem` takes a second and sets up logging), else on its own."""
    if name == "HybridSkyRLEnv":
        try:
            from skyrl_gym.envs.base_text_env import BaseTextEnv as base, BaseTextEnvStepOutput as output
        except ImportError:
            base, output = _NoSkyRLBase, dict
        core, extra = _SkyRLTextEnv, {"_step_output": staticmethod(output)}
    else:
        try:
            from gem.core import Env as base
        except ImportError:
            base = object
        core, extra = _GemTextEnv, {}
    cls = type(name, (core, base), {"__doc__": core.__doc__, "__module__": __name__, **extra})
    globals()[name] = cls
    return cls


def _adapter(name: str) -> type:
    return globals().get(name) or _make_class(name)


def __getattr__(name: str) -> Any:
    if name in ("HybridSkyRLEnv", "HybridGemEnv"):
        return _make_class(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- registries ----------------------------------------------------------------------------------------------------
def hybridgym_ids() -> list[str]:
    """Every registered hybridgym gym id ("hybridgym/<task>" and the suites' ids)."""
    return sorted(i for i in gym.registry if i.startswith("hybridgym/"))


def register_skyrl(ids: list[str] | None = None) -> list[str]:
    """Register hybridgym ids (default: all) with SkyRL-Gym, so `skyrl_gym.make("hybridgym/<task>",
    env_config=..., extras=...)` makes a `HybridSkyRLEnv`. Ids already there are left as they are.
    Returns the ids registered now."""
    try:
        import skyrl_gym
    except ImportError:
        raise ImportError("register_skyrl needs SkyRL-Gym: pip install skyrl-gym") from None
    added = []
    for env_id in ids or hybridgym_ids():
        if env_id not in skyrl_gym.registry:
            skyrl_gym.register(id=env_id, entry_point=f"{__name__}:HybridSkyRLEnv", kwargs={"env_id": env_id})
            added.append(env_id)
    return added


def register_gem(ids: list[str] | None = None) -> list[str]:
    """Register hybridgym ids (default: all) with GEM, so `gem.make("hybridgym/<task>", seed=...)` and
    `gem.make_vec([...])` make `HybridGemEnv`s. Ids already there are left. Returns the ids registered now."""
    try:
        from gem.envs.registration import ENV_REGISTRY, register
    except ImportError:
        raise ImportError("register_gem needs GEM: pip install gem-llm") from None
    added = []
    for env_id in ids or hybridgym_ids():
        if env_id not in ENV_REGISTRY:
            register(env_id, functools.partial(_adapter("HybridGemEnv"), env_id))   # (GEM's register takes env_id itself)
            added.append(env_id)
    return added
