"""Built-in agents: the oracle (each task's scripted solution), a random agent and a do-nothing agent."""

from __future__ import annotations

from typing import Any

import numpy as np

NOOP_ACTION = {"action_type": "wait", "seconds": 0}


class Agent:
    name = ""

    def reset(self, env, obs: dict, info: dict) -> None:
        """Called after each env.reset."""

    def act(self, obs: dict) -> Any:
        raise NotImplementedError


class OracleAgent(Agent):
    """Plays the task's oracle: a generator of actions that may read each new observation."""

    name = "oracle"

    def reset(self, env, obs, info):
        base = env.unwrapped
        ep = base.episode
        self._gen = ep.task.oracle(base.sandbox, ep.params)
        self._started = False

    def act(self, obs):
        try:
            if not self._started:
                self._started = True
                return next(self._gen)
            return self._gen.send(obs)
        except StopIteration:
            return {"action_type": "finished", "content": ""}


class NoopAgent(Agent):
    """Does nothing: waits zero seconds every step (on a game, the clock still advances)."""

    name = "noop"

    def act(self, obs):
        return NOOP_ACTION


class RandomAgent(Agent):
    """Uniformly random actions, seeded by the episode: from the task's discrete action set
    where it has one (games), else random clicks, scrolls, short typing and harmless keys."""

    name = "random"
    _KEYS = ["up", "down", "left", "right", "enter", "tab", "backspace", "space"]

    def reset(self, env, obs, info):
        self._rng = np.random.default_rng(info.get("seed", 0))
        h, w = obs["screenshot"].shape[:2]
        self._size = (w, h)
        task = env.unwrapped.episode.task
        self._choices = task.discrete_actions()

    def act(self, obs):
        rng, (w, h) = self._rng, self._size
        if self._choices:
            return self._choices[int(rng.integers(len(self._choices)))]
        kind = rng.choice(["click", "key", "key", "type", "scroll"])
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        if kind == "click":
            return {"action_type": "click", "x": x, "y": y}
        if kind == "key":
            return {"action_type": "hotkey", "keys": [str(rng.choice(self._KEYS))]}
        if kind == "type":
            return {"action_type": "type", "text": "".join(rng.choice(list("abcdefghij0123 "), size=6))}
        return {"action_type": "scroll", "direction": str(rng.choice(["up", "down"])), "x": x, "y": y, "amount": 3}


AGENTS: dict[str, type[Agent]] = {"oracle": OracleAgent, "random": RandomAgent, "noop": NoopAgent}


def make_agent(name: str) -> Agent:
    try:
        return AGENTS[name]()
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; built-in agents: {sorted(AGENTS)}") from None


def run_episode(env, agent: Agent, seed: int, task: str | None = None, on_step=None) -> dict:
    """One episode; returns its summary (success, reward, steps, timings)."""
    import time
    t0 = time.perf_counter()
    obs, info = env.reset(seed=seed, options={"task": task} if task else None)
    agent.reset(env, obs, info)
    total, steps, step_s = 0.0, 0, []
    reset_s = info["timings"]["reset_s"]
    while True:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs))
        total += reward
        steps += 1
        step_s.append(info["timings"]["step_s"])
        if on_step is not None:
            on_step(steps, obs, info)
        if terminated or truncated:
            break
    normalized = None
    if info.get("score") is not None:
        normalized = env.unwrapped.episode.task.normalized_score(info["score"])
    return {"task_id": info["task_id"], "suite": info["suite"], "agent": agent.name, "seed": seed,
            "normalized_score": None if normalized is None else round(normalized, 1),
            "success": bool(info["success"]), "reward": round(total, 4), "steps": steps,
            "score": info.get("score"), "message": info.get("message", ""), "error": info.get("error"),
            "invalid_actions": info["invalid_actions"], "wall_s": round(time.perf_counter() - t0, 3),
            "reset_s": round(reset_s, 4), "median_step_s": round(float(np.median(step_s)), 4)}
