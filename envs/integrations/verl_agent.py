"""A verl-agent environment manager over a vector of hybridgym envs: batched text + screenshot observations, text actions, won.

verl-agent (github.com/langfengQ/verl-agent; not on PyPI) trains with an `EnvironmentManagerBase`
(`base.py` of `agent_system.environments`) that its `TrajectoryCollector` drives:

    obs, infos = envs.reset(kwargs)                # obs = {"text": [str], "image": [array] | None, "anchor": [str]}
    for _ in range(max_steps):
        texts = model(obs)                         # one reply per sub-env
        obs, rewards, dones, infos = envs.step(texts)
        is_done |= dones                           # a done sub-env is masked out, but still gets an action
        if is_done.all(): break
    envs.success_evaluator(total_infos=..., total_batch_list=...)   # info["won"] of each last active step

`HybridEnvManager` is that manager for hybridgym: the text of each sub-env is a whole prompt (the
model family's action format, the task, the recent actions, the feedback on the last one, and
the screen as text when the env was made with obs_mode "axtree" or "som"), with `<image>` where
the screenshot goes; `image` is the screenshots; `anchor` a short string that is the same for
the same screen (GiGPO groups steps by it). Replies go to `env.step` as they are: the env's
codec reads every action schema. `info["won"]` is the checker's success, `info["is_action_valid"]`
whether the reply parsed and ran without an action error.

A sub-env that is done is not played again until `reset`: with the Ray vector env it is not
stepped at all (`send`/`recv` to the others); with a Gymnasium vector env it is given a no-op
(its autoreset starts a new episode that nobody sees), and it keeps returning its last
observation, reward 0, done True and its last info.
"""

from __future__ import annotations

import hashlib
from collections import deque
from typing import Any, Callable, Sequence

import gymnasium as gym
import numpy as np
from gymnasium.vector import VectorEnv
from gymnasium.vector.vector_env import AutoresetMode

from .text_env import family_of, feedback_text, opening_text, screen_text

try:   # subclass verl-agent's base where it is installed, so its type checks and helpers apply
    from agent_system.environments.base import EnvironmentManagerBase as _Base
except Exception:   # not installed (it is not on PyPI), or its torch import failed
    _Base = object   # type: ignore[assignment,misc]


def unbatch_infos(infos: dict, n: int) -> list[dict]:
    """Gymnasium's batched info dict (values per sub-env, `_key` masks) as one dict per sub-env,
    nested dicts too, numpy scalars as Python values."""
    out: list[dict] = [{} for _ in range(n)]
    for key, value in infos.items():
        if key.startswith("_"):
            continue
        mask = infos.get("_" + key)
        subs = unbatch_infos(value, n) if isinstance(value, dict) else None
        for i in range(n):
            if mask is not None and not mask[i]:
                continue
            v = subs[i] if subs is not None else value[i]
            out[i][key] = v.item() if isinstance(v, np.generic) else v
    return out


def unbatch_obs(obs: dict, n: int) -> list[dict]:
    """A batched Dict observation as one observation dict per sub-env."""
    return [{k: (v[i] if not isinstance(v, dict) else unbatch_obs(v, n)[i]) for k, v in obs.items()} for i in range(n)]


class HybridEnvManager(_Base):
    """verl-agent's environment manager interface over N hybridgym sub-envs.

    ## Observations
    `reset()` and `step()` give `{"text": list[str], "image": list[np.ndarray] | None, "anchor": list[str]}`:
    `text[i]` the whole prompt of sub-env i (with `image_placeholder` where its screenshot goes, when
    images are on), `image[i]` its uint8 (H, W, 3) screenshot, `anchor[i]` "<task id>:<16 hex>", the
    same for the same task instruction and screen (the tree's text when there is one, else the pixels).

    ## Actions
    `step(text_actions)`: one model reply per sub-env, in any schema the env reads; the manager
    tells the env which family it prompts for (`family`), so coordinates are read as the prompt said.

    ## Returns of step
    `(observations, rewards: float array (N,), dones: bool array (N,), infos: list of N dicts)`; each info is
    the env's own (`success`, `message`, `action_error`, `task_id`, ...) plus `won` (bool: the checker
    passed), `is_action_valid` (bool), `active` (False for a sub-env that was already done).

    ## Arguments
    envs: a hybridgym id (a Gymnasium vector of `num_envs` copies is made, `vectorization_mode`
        "sync" by default; `make_kwargs` go to each, e.g. obs_mode="axtree") or a VectorEnv you made
        (the Ray one: `hybridgym.vector.RayVectorEnv`; set its envs' `schema`/`coords` to the family's).
    num_envs: how many sub-envs, with an id. group_n: sub-envs per group; a group shares its reset
        seed (GRPO / GiGPO groups). seed: the first reset's base seed; each reset without one moves on.
    family: the model family of the prompt and of the replies (`hybridgym.chat_agent.FAMILIES`:
        "uitars", "qwen", "seed", "pyautogui", ...). history_length: recent actions shown in the text.
    include_image: give screenshots (`image`) and the placeholder; False for a text-only model.
    projection: optional `text -> action` applied to each reply before `env.step` (e.g. to cut an
        `<action>...</action>` tag out); a ValueError it raises marks the action invalid (a no-op is played).
    """

    def __init__(self, envs: str | VectorEnv, num_envs: int | None = None, *, group_n: int = 1, seed: int = 0,
                 family: str = "uitars", history_length: int = 2, include_image: bool = True,
                 image_placeholder: str = "<image>", projection: Callable[[str], Any] | None = None,
                 vectorization_mode: str = "sync", config: Any = None, **make_kwargs: Any):
        self.family_name, self.family = family, family_of(family)
        count = envs.num_envs if isinstance(envs, VectorEnv) else num_envs
        if isinstance(count, int) and (group_n < 1 or count % group_n):
            raise ValueError(f"group_n={group_n} must divide the number of sub-envs ({count})")
        if isinstance(envs, str):
            if num_envs is None or num_envs < 1:
                raise ValueError(f"num_envs must be a positive number of sub-envs, got {num_envs!r}")
            make_kwargs.setdefault("schema", self.family.schema)
            make_kwargs.setdefault("coords", self.family.coords)
            envs = gym.make_vec(envs, num_envs=num_envs, vectorization_mode=vectorization_mode, **make_kwargs)
            self._owns_envs = True
        elif isinstance(envs, VectorEnv):
            if make_kwargs:
                raise TypeError(f"make arguments {sorted(make_kwargs)} apply only with an env id, not to a VectorEnv")
            if num_envs is not None and num_envs != envs.num_envs:
                raise ValueError(f"num_envs={num_envs} but the VectorEnv has {envs.num_envs} sub-envs")
            self._owns_envs = False
        else:
            raise TypeError(f"envs must be a hybridgym id or a gymnasium VectorEnv, got {type(envs).__name__}")
        self.envs, self.config, self.projection_f = envs, config, projection
        self.num_envs = int(envs.num_envs)
        self.group_n, self.next_seed = int(group_n), int(seed)
        self.history_length, self.include_image, self.image_placeholder = int(history_length), include_image, image_placeholder
        self.autoreset_mode = AutoresetMode(envs.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP))
        if self.autoreset_mode == AutoresetMode.DISABLED:
            raise ValueError("the VectorEnv's autoreset_mode is DISABLED; HybridEnvManager needs NEXT_STEP or SAME_STEP")
        self._async = hasattr(envs, "send") and hasattr(envs, "recv")   # the Ray vector env: step only the live ones
        self._obs: list[dict] = []
        self._infos: list[dict] = []
        self._done = np.zeros(self.num_envs, dtype=bool)
        self._history: list[deque] = [deque(maxlen=max(1, self.history_length)) for _ in range(self.num_envs)]
        self._steps = np.zeros(self.num_envs, dtype=int)

    # -- the interface -------------------------------------------------------------------
    def reset(self, kwargs: Any = None, *, seed: int | Sequence[int] | None = None) -> tuple[dict, list[dict]]:
        """Start a new episode in every sub-env: (observations, infos). Sub-envs of a group get the
        same seed; `seed` (an int: the base, or one per sub-env) replaces the manager's running seed.
        `kwargs` is verl-agent's per-reset argument: a dict that may hold "seed" and "options" (e.g.
        {"task": id}), or one dict per sub-env (its `env_kwargs`) that may each hold a "seed"."""
        options = None
        if isinstance(kwargs, dict):
            seed = kwargs.get("seed", seed)
            options = kwargs.get("options")
        elif kwargs is not None and len(kwargs) == self.num_envs and all(isinstance(k, dict) for k in kwargs):
            if all("seed" in k for k in kwargs):
                seed = [int(k["seed"]) for k in kwargs]
        elif kwargs is not None:
            raise TypeError(f"reset(kwargs) takes a dict or one dict per sub-env ({self.num_envs}), got "
                            f"{type(kwargs).__name__}")
        if seed is None or isinstance(seed, (int, np.integer)):
            base = self.next_seed if seed is None else int(seed)
            seeds = [base + i // self.group_n for i in range(self.num_envs)]
            self.next_seed = base + self.num_envs // self.group_n
        else:
            seeds = [int(s) for s in seed]
            if len(seeds) != self.num_envs:
                raise ValueError(f"got {len(seeds)} seeds for {self.num_envs} sub-envs")
        obs, infos = self.envs.reset(seed=seeds, options=options)
        self._obs, self._infos = unbatch_obs(obs, self.num_envs), unbatch_infos(infos, self.num_envs)
        self._done[:] = False
        self._steps[:] = 0
        for h in self._history:
            h.clear()
        for info in self._infos:
            info.update(won=False, is_action_valid=True, active=True)
        return self._observations(), [dict(i) for i in self._infos]

    def step(self, text_actions: Sequence[str]) -> tuple[dict, np.ndarray, np.ndarray, list[dict]]:
        """Play one reply per sub-env: (observations, rewards, dones, infos) as verl-agent expects them."""
        text_actions = list(text_actions)
        if len(text_actions) != self.num_envs:
            raise ValueError(f"got {len(text_actions)} text actions for {self.num_envs} sub-envs")
        if not self._obs:
            raise RuntimeError("call reset() before step()")
        actions, valid = [], np.ones(self.num_envs, dtype=bool)
        for i, text in enumerate(text_actions):
            if not isinstance(text, str):
                raise TypeError(f"text action {i} must be a str (the model's reply), got {type(text).__name__}")
            action: Any = text
            if self.projection_f is not None and not self._done[i]:
                try:
                    action = self.projection_f(text)
                except ValueError:
                    action, valid[i] = self._noop(), False
            actions.append(action)
        live = [i for i in range(self.num_envs) if not self._done[i]]
        results = self._play({i: actions[i] for i in live})
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        infos: list[dict] = []
        for i in range(self.num_envs):
            if i not in results:   # already done: its last observation and info again
                infos.append({**self._infos[i], "active": False})
                continue
            obs, reward, terminated, truncated, info = results[i]
            self._steps[i] += 1
            self._history[i].append(text_actions[i].strip()[-300:])
            rewards[i] = reward
            info = dict(info)
            info["won"] = bool(info.get("success"))
            info["is_action_valid"] = bool(valid[i] and not info.get("action_error") and not info.get("error"))
            info["active"] = True
            self._obs[i], self._infos[i] = obs, info
            self._done[i] = bool(terminated or truncated)
            infos.append(info)
        return self._observations(), rewards, self._done.copy(), infos

    def build_text_obs(self) -> list[str]:
        """The text observation (the whole prompt) of every sub-env."""
        out = []
        for i, (obs, info) in enumerate(zip(self._obs, self._infos)):
            system, task = opening_text(self.family_name, suite=info["suite"], sdk=bool(info.get("sdk")),
                                        instruction=str(obs["instruction"]), screen=obs["screenshot"].shape[1::-1],
                                        marks="marks" in obs)
            parts = [system] if system else []
            parts.append(task)
            if self.history_length > 0 and self._history[i]:
                parts.append(f"Your last {len(self._history[i])} action(s), oldest first:\n" +
                             "\n---\n".join(self._history[i]))
            steps = info.get("max_steps")
            parts.append(f"Step {self._steps[i] + 1}" + (f" of {steps}." if steps else "."))
            feedback = feedback_text(obs)
            if feedback:
                parts.append(feedback)
            if self.include_image:
                parts.append(f"The current screen: {self.image_placeholder}")
            if "axtree" in obs or "marks" in obs or not self.include_image:
                parts.append(screen_text(obs))
            out.append("\n\n".join(parts))
        return out

    def success_evaluator(self, *args: Any, **kwargs: Any) -> dict[str, np.ndarray]:
        """verl-agent's success rate: `won` of each sub-env's last active step (`total_infos`,
        `total_batch_list` as its collector passes them); without them, `won` of the current episodes."""
        total_infos, batches = kwargs.get("total_infos"), kwargs.get("total_batch_list")
        if total_infos is None or batches is None:
            return {"success_rate": np.array([float(i.get("won", False)) for i in self._infos])}
        rates = []
        for infos, batch in zip(total_infos, batches):
            last = next((infos[t] for t in reversed(range(len(batch))) if batch[t].get("active_masks", True)), {})
            rates.append(float(last.get("won", False)))
        return {"success_rate": np.array(rates)}

    def close(self) -> None:
        """Close the sub-envs if the manager made them."""
        if self._owns_envs:
            self.envs.close()

    # -- inside ----------------------------------------------------------------------------
    def _observations(self) -> dict:
        images = [np.asarray(o["screenshot"]) for o in self._obs] if self.include_image else None
        return {"text": self.build_text_obs(), "image": images, "anchor": [self._anchor(o, i) for o, i in zip(self._obs, self._infos)]}

    @staticmethod
    def _anchor(obs: dict, info: dict) -> str:
        h = hashlib.sha1(str(obs.get("instruction", "")).encode())
        tree = obs.get("axtree") or obs.get("marks")
        h.update(str(tree).encode() if tree else np.ascontiguousarray(obs["screenshot"]).tobytes())
        return f"{info.get('task_id', '')}:{h.hexdigest()[:16]}"

    def _noop(self) -> Any:
        """A zero-second wait written in the family's form (what a done sub-env is given; the env may
        read only that family's schema)."""
        from hybridgym.actions import Wait, format_actions
        screen = tuple(self._obs[0]["screenshot"].shape[1::-1])
        return format_actions([Wait(0)], self.family.schema, screen, coords=self.family.coords)

    def _play(self, actions: dict[int, Any]) -> dict[int, tuple]:
        """Step the sub-envs in `actions` ({index: action}); {index: (obs, reward, terminated, truncated, info)}."""
        if not actions:
            return {}
        if self._async:
            self.envs.send(actions)
            got: dict[int, tuple] = {}
            while len(got) < len(actions):
                for t in self.envs.recv(min_num=len(actions) - len(got)):
                    obs, info = t.obs, t.info
                    if "final_obs" in info:   # SAME_STEP: the sub-env has begun its next episode
                        obs, info = info["final_obs"], info["final_info"]
                    got[t.index] = (obs, float(t.reward), bool(t.terminated), bool(t.truncated), info)
            return got
        noop = self._noop()
        full = [actions.get(i, noop) for i in range(self.num_envs)]
        obs, rewards, terms, truncs, infos = self.envs.step(full)
        obs_list, info_list = unbatch_obs(obs, self.num_envs), unbatch_infos(infos, self.num_envs)
        out = {}
        for i in actions:
            o, info = obs_list[i], info_list[i]
            if "final_obs" in info:
                o, info = info["final_obs"], info.get("final_info", {})
            out[i] = (o, float(rewards[i]), bool(terms[i]), bool(truncs[i]), info)
        return out
