"""A partially filled rollout pool for asynchronous RL, fed by the Ray vector env's `send`/`recv`.

An asynchronous trainer does not wait for the slowest sandbox: every sub-env is kept busy, steps
are taken as they finish (`RayVectorEnv.recv(min_num, timeout)`), each sub-env gets its next action
at once, and finished episodes collect in a pool from which the trainer takes a batch when it has
`B` of them. `RolloutPool` is that loop:

    venv = RayVectorEnv("hybridgym/game.snake-v0", num_envs=4)
    pool = RolloutPool(venv, policy)            # policy(index, obs) -> action
    pool.start(seed=0)
    for _ in range(updates):
        batch = pool.take(8)                    # 8 finished episodes, whichever sub-envs they came from
        learn(batch)
        pool.policy_version += 1                # steps record the version that chose their action
    pool.close()

Each `Rollout` is one episode of one sub-env, in order: the observations, the actions, the rewards,
the infos, and how it ended (terminated / truncated, success, the error of a sandbox that failed).
The sub-envs keep stepping only while the pool is in `take` (the policy is called from it), so a
step's action may be a version or more older than the trainer's newest: `Rollout.policy_versions`
says by how much, for off-policy corrections.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from gymnasium.vector.vector_env import AutoresetMode


@dataclass
class Rollout:
    """One finished episode of one sub-env."""
    index: int                                              # the sub-env it ran in
    observations: list = field(default_factory=list)       # the first, then one per step (len = steps + 1)
    actions: list = field(default_factory=list)
    rewards: list = field(default_factory=list)
    infos: list = field(default_factory=list)              # the reset's, then one per step
    policy_versions: list = field(default_factory=list)    # the pool's policy_version when each action was chosen
    terminated: bool = False
    truncated: bool = False

    @property
    def steps(self) -> int:
        return len(self.actions)

    @property
    def total_reward(self) -> float:
        return float(sum(self.rewards))

    @property
    def success(self) -> bool:
        """The checker's verdict at the end (False for an episode a fault cut short)."""
        return bool(self.infos[-1].get("success")) if self.infos else False

    @property
    def error(self) -> str | None:
        """What failed, when a sandbox died or hung and its sub-env was replaced."""
        return self.infos[-1].get("error") if self.infos else None

    @property
    def task_id(self) -> str | None:
        return self.infos[0].get("task_id") if self.infos else None


class RolloutPool:
    """Keeps every sub-env of a vector env with `send`/`recv` (the Ray one) busy and pools finished episodes.

    Arguments:
        venv: a `hybridgym.vector.RayVectorEnv` (or any VectorEnv with its `send`/`recv`/`pending`).
        policy: `policy(index, obs) -> action`, called for each sub-env whose step (or reset) has just finished.
        min_ready: `recv` returns once this many steps have finished ...
        timeout: ... or after this many seconds with whatever has finished (None: wait for min_ready).
        keep_obs: keep every observation in the rollouts (False: only the infos, rewards and actions:
            screenshots are 3 MB each).
    """

    def __init__(self, venv: Any, policy: Callable[[int, Any], Any], *, min_ready: int = 1,
                 timeout: float | None = None, keep_obs: bool = True):
        for attr in ("send", "recv", "pending", "num_envs"):
            if not hasattr(venv, attr):
                raise TypeError(f"RolloutPool needs a vector env with send/recv (hybridgym.vector.RayVectorEnv); "
                                f"{type(venv).__name__} has no {attr!r}")
        if not callable(policy):
            raise TypeError(f"policy must be a callable (index, obs) -> action, got {type(policy).__name__}")
        if min_ready < 1:
            raise ValueError(f"min_ready must be at least 1, got {min_ready}")
        self.venv, self.policy = venv, policy
        self.min_ready, self.timeout, self.keep_obs = int(min_ready), timeout, keep_obs
        self.same_step = AutoresetMode(venv.metadata.get("autoreset_mode", AutoresetMode.NEXT_STEP)) == AutoresetMode.SAME_STEP
        self.policy_version = 0
        self.finished: collections.deque[Rollout] = collections.deque()
        self._open: list[Rollout | None] = [None] * venv.num_envs
        self._last_obs: list[Any] = [None] * venv.num_envs
        self.transitions = 0          # steps received, resets not counted
        self.started = False

    def start(self, seed: int | None = None) -> None:
        """Reset every sub-env (sub-env i gets seed + i) and send each its first action."""
        from .verl_agent import unbatch_infos, unbatch_obs
        n = self.venv.num_envs
        obs, infos = self.venv.reset(seed=seed)
        for i, (o, info) in enumerate(zip(unbatch_obs(obs, n), unbatch_infos(infos, n))):
            self._begin(i, o, info)
        self.venv.send({i: self._act(i) for i in range(self.venv.num_envs)})
        self.started = True

    def episodes(self) -> Iterator[Rollout]:
        """Finished episodes as they come, for ever (stop when you have enough; the pool goes on where it was)."""
        while True:
            while not self.finished:
                self._pump()
            yield self.finished.popleft()

    def take(self, n: int) -> list[Rollout]:
        """The first `n` finished episodes (waiting for more only while fewer are pooled)."""
        if n < 1:
            raise ValueError(f"take() needs a positive number of episodes, got {n}")
        while len(self.finished) < n:
            self._pump()
        return [self.finished.popleft() for _ in range(n)]

    def close(self) -> None:
        """Let the steps in flight land (their episodes stay open); the vector env is the caller's to close."""
        while self.venv.pending:
            self.venv.recv(min_num=len(self.venv.pending))

    # -- inside ----------------------------------------------------------------------------
    def _pump(self) -> None:
        """One `recv`: record what finished, and send those sub-envs their next action at once."""
        if not self.started:
            raise RuntimeError("call start() before taking episodes")
        ready = self.venv.recv(min_num=self.min_ready, timeout=self.timeout)
        again = {}
        for t in ready:
            ep = self._open[t.index]
            self._last_obs[t.index] = t.obs
            if ep is None:   # NEXT_STEP: the sub-env's last episode ended; this was its reset
                self._begin(t.index, t.obs, t.info)
            else:
                self.transitions += 1
                info = dict(t.info)
                final_obs = info.pop("final_obs", None)
                final_info = info.pop("final_info", None)
                ep.rewards.append(float(t.reward))
                ep.infos.append(final_info if final_info is not None else info)
                if self.keep_obs:
                    ep.observations.append(final_obs if final_obs is not None else t.obs)
                if t.terminated or t.truncated:
                    ep.terminated, ep.truncated = bool(t.terminated), bool(t.truncated)
                    self.finished.append(ep)
                    self._open[t.index] = None
                    if self.same_step:   # the sub-env has already begun its next episode
                        self._begin(t.index, t.obs, info)
            again[t.index] = self._act(t.index)
        if again:
            self.venv.send(again)

    def _begin(self, i: int, obs: Any, info: dict) -> None:
        self._last_obs[i] = obs
        self._open[i] = Rollout(index=i, observations=[obs] if self.keep_obs else [], infos=[dict(info)])

    def _act(self, i: int) -> Any:
        """The policy's action for sub-env i (a NEXT_STEP sub-env waiting for its reset gets a no-op, which is ignored)."""
        ep = self._open[i]
        if ep is None:
            return {"action_type": "wait", "seconds": 0}
        action = self.policy(i, self._last_obs[i])
        ep.actions.append(action)
        ep.policy_versions.append(self.policy_version)
        return action
