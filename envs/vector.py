"""Many sandboxes at once: a Gymnasium VectorEnv whose sub-envs are Ray actors, with as-they-finish collection and fault recovery.

Ray is the distributed engine (placement, transport, actor lifetime); this module
adds only what an RL trainer needs on top of it:

* `RayVectorEnv`: the lock-step `gymnasium.vector.VectorEnv` API (`reset`, `step`,
  `metadata["autoreset_mode"]` NEXT_STEP or SAME_STEP, `reset(options={"reset_mask": m})`).
  Reached with `gym.make_vec("hybridgym/<id>", num_envs=N, vectorization_mode="vector_entry_point")`
  or directly.
* `send(actions)` / `recv(min_num, timeout)`: give some sub-envs an action and take
  whichever finish first, for the partially filled rollout pools of asynchronous RL.
* Faults: every remote call has a time-out; a sub-env whose actor dies or hangs is
  killed and replaced by a new actor, and its step comes back `truncated=True` with
  the error in `info["error"]` (the other sub-envs are not disturbed).
* Transport: screenshots cross the network as PNG or JPEG when asked (`transport=
  "png" | "jpeg"`, or "auto": compressed only for actors on another node) and raw
  otherwise (on one node Ray shares the array through its object store).

Example, asynchronous collection (also in docs/scale.md):

    venv = RayVectorEnv("hybridgym/game.snake-v0", num_envs=4)
    venv.reset(seed=0)
    venv.send({i: policy(i) for i in range(4)})
    for _ in range(100):
        for t in venv.recv(min_num=2, timeout=5.0):   # at least 2, or all done by 5 s
            pool.append(t)                            # t.index, t.obs, t.reward, t.terminated, ...
            venv.send({t.index: policy(t.index, t.obs)})
    venv.close()
"""

from __future__ import annotations

import io
import os
import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import gymnasium as gym
import numpy as np
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array
from gymnasium.vector.vector_env import AutoresetMode

from .sandbox.processes import kill_pid, marked

TRANSPORTS = ("raw", "png", "jpeg", "auto")

#: keyword arguments of make_ray_vector that configure the vector env; every other one goes to gym.make
VECTOR_KWARGS = ("address", "resources", "num_cpus", "autoreset_mode", "transport", "jpeg_quality",
                 "call_timeout_s", "start_timeout_s", "ray_init_kwargs", "record_dir", "record_agent",
                 "record_image_format")


def _ray():
    try:
        import ray
    except ImportError:
        raise ImportError("the Ray vector env needs Ray: pip install 'hybridgym[cluster]' "
                          "(or use vectorization_mode='sync' / 'async' for one machine)") from None
    return ray


# -- screenshots across the wire -------------------------------------------------------
@dataclass
class EncodedImage:
    """A screenshot compressed for transport (PNG or JPEG bytes)."""
    fmt: str
    data: bytes
    shape: tuple[int, ...]


def encode_image(img: np.ndarray, fmt: str, quality: int = 90) -> EncodedImage:
    from PIL import Image
    buf = io.BytesIO()
    if fmt == "png":
        Image.fromarray(img).save(buf, format="PNG", compress_level=1)
    elif fmt == "jpeg":
        Image.fromarray(img).save(buf, format="JPEG", quality=int(quality))
    else:
        raise ValueError(f"image transport must be 'png' or 'jpeg', got {fmt!r}")
    return EncodedImage(fmt, buf.getvalue(), tuple(img.shape))


def decode_image(enc: EncodedImage) -> np.ndarray:
    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(enc.data)).convert("RGB"))


def _map_images(obs: Any, fn) -> Any:
    """Apply fn to every screenshot-like value (uint8 HxWx3 arrays or EncodedImage) in obs."""
    if isinstance(obs, dict):
        return {k: _map_images(v, fn) for k, v in obs.items()}
    if isinstance(obs, EncodedImage) or (isinstance(obs, np.ndarray) and obs.dtype == np.uint8 and obs.ndim == 3):
        return fn(obs)
    return obs


def _encode_obs(obs: Any, fmt: str, quality: int) -> Any:
    if fmt == "raw":
        return obs
    return _map_images(obs, lambda a: encode_image(a, fmt, quality) if isinstance(a, np.ndarray) else a)


def _decode_obs(obs: Any) -> Any:
    return _map_images(obs, lambda a: decode_image(a) if isinstance(a, EncodedImage) else a)


# -- the actor -------------------------------------------------------------------------
OWNER_VAR = "HYBRIDGYM_SANDBOX_OWNER"


def owned_pids(token: str) -> list[int]:
    """Pids of this machine's processes that carry `OWNER_VAR=token` in their environment:
    an actor and everything its sandbox started (Xvfb, Chromium, apps inherit it)."""
    return marked(OWNER_VAR, token)


def reap(token: str, actor_pid: int | None = None) -> int:
    """Kill an actor's process and every process marked with its `token` (an actor that
    died or hung leaves its sandbox behind). The actor's own mark is not visible in
    /proc (it was set after the process started), hence `actor_pid`."""
    pids = owned_pids(token) + ([actor_pid] if actor_pid else [])
    for pid in pids:
        kill_pid(pid, timeout=0, group=False)
    return len(pids)


class EnvWorker:
    """One sub-env in its own process (a Ray actor): gym.make on the node it was placed on.

    The actor marks its environment with `OWNER_VAR=token` before the sandbox starts, so
    that what it started can be found and killed if the actor itself dies.
    """

    def __init__(self, env_id: str, env_kwargs: dict, token: str):
        os.environ[OWNER_VAR] = token
        import hybridgym  # noqa: F401  (register the ids in the actor's process)
        self.env = gym.make(env_id, **env_kwargs)
        self.fmt, self.quality = "raw", 90

    def where(self) -> dict:
        ray = _ray()
        sb = getattr(self.env.unwrapped, "sandbox", None)
        jail = getattr(sb, "jail", None)
        return {"node_id": ray.get_runtime_context().get_node_id(), "pid": os.getpid(),
                "jail_uid": jail.uid if jail is not None and jail.privileged else None}

    def set_transport(self, fmt: str, quality: int) -> None:
        self.fmt, self.quality = fmt, quality

    def reset(self, seed: int | None, options: dict | None):
        obs, info = self.env.reset(seed=seed, options=options)
        return _encode_obs(obs, self.fmt, self.quality), info

    def step(self, action: Any, same_step_reset: bool = False):
        obs, reward, terminated, truncated, info = self.env.step(action)
        final = None
        if same_step_reset and (terminated or truncated):
            final = (_encode_obs(obs, self.fmt, self.quality), info)
            obs, info = self.env.reset()
        return _encode_obs(obs, self.fmt, self.quality), float(reward), bool(terminated), bool(truncated), info, final

    def close(self) -> None:
        self.env.close()


@dataclass
class Transition:
    """One sub-env's step, as `recv` returns it."""
    index: int
    obs: Any
    reward: float
    terminated: bool
    truncated: bool
    info: dict = field(default_factory=dict)


@dataclass
class _Pending:
    ref: Any
    kind: str          # "step" | "reset"
    deadline: float
    sent_at: float
    action: Any = None


class RayVectorEnv(VectorEnv):
    """
    ## Description
    `num_envs` copies of a hybridgym env, each in a Ray actor placed on a node that
    offers the `sandbox` custom resource (configurable). Connects to a running
    cluster (`address=` or `RAY_ADDRESS`) or starts a local Ray that offers the
    resource.

    ## Spaces
    `single_observation_space`/`single_action_space` are the sub-env's; the batched
    spaces are gymnasium's `batch_space` of them (screenshots stacked, text in tuples).

    ## Autoreset
    `autoreset_mode` NEXT_STEP (default: a sub-env that ended is reset by the next
    `step`, whose action for it is ignored) or SAME_STEP (reset inside the same step;
    `info["final_obs"]`/`info["final_info"]` hold the last observation and info).
    `reset(options={"reset_mask": mask})` resets only the masked sub-envs.

    ## Faults
    Every remote call has a time-out (`call_timeout_s`). A sub-env whose actor dies or
    does not answer in time is killed and replaced; its step returns `truncated=True`
    with `info["error"]` (and `info["replaced"] = True`); with NEXT_STEP the new actor
    is reset by the next step, with SAME_STEP at once. Errors raised by the env's own
    code (a bad argument, a call in the wrong order) are raised to the caller.

    ## Arguments
    env_id: a registered id, e.g. "hybridgym/game.snake-v0". num_envs: how many.
    env_kwargs: passed to `gym.make` in each actor. address: a Ray cluster to join
    (default `RAY_ADDRESS`, else a local Ray is started and stopped at `close()`).
    resources: custom resources each actor needs (default `{"sandbox": 1}`; `{}` for none).
    num_cpus: CPUs reserved per actor (default 0: a sandbox is mostly waiting).
    transport: "raw", "png", "jpeg" or "auto" (compress only across nodes).
    jpeg_quality: 1-100. call_timeout_s / start_timeout_s: time-outs of a reset/step and of an actor's start.
    record_dir: record every sub-env's episodes as trajectories in this folder (`hybridgym.trajectory`),
    written here on the driver from what the actors send back (so it works across nodes), for `step` and
    `send`/`recv` alike; a fault ends the episode's trajectory with its error. record_agent: the agent
    name in them; record_image_format: "png" or "webp" (lossless).
    """

    def __init__(self, env_id: str, num_envs: int, *, env_kwargs: dict | None = None,
                 address: str | None = None, resources: Mapping[str, float] | None = None,
                 num_cpus: float = 0, autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 transport: str = "auto", jpeg_quality: int = 90, call_timeout_s: float = 120.0,
                 start_timeout_s: float = 180.0, ray_init_kwargs: dict | None = None,
                 record_dir: str | os.PathLike | None = None, record_agent: str = "policy",
                 record_image_format: str = "png"):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if transport not in TRANSPORTS:
            raise ValueError(f"transport must be one of {TRANSPORTS}, got {transport!r}")
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        if self.autoreset_mode == AutoresetMode.DISABLED:
            raise ValueError("autoreset_mode must be NEXT_STEP or SAME_STEP")
        ray = _ray()
        self.env_id, self.num_envs = env_id, int(num_envs)
        self.env_kwargs = dict(env_kwargs or {})
        self.resources = {"sandbox": 1} if resources is None else dict(resources)
        self.num_cpus, self.transport, self.jpeg_quality = num_cpus, transport, int(jpeg_quality)
        self.call_timeout_s, self.start_timeout_s = float(call_timeout_s), float(start_timeout_s)

        self._owns_ray = False
        if not ray.is_initialized():
            address = address or os.environ.get("RAY_ADDRESS")
            kwargs = dict(ray_init_kwargs or {})
            kwargs.setdefault("log_to_driver", False)
            if address:
                ray.init(address=address, **kwargs)
            else:   # a local Ray for this process: it offers the sandbox resource
                kwargs.setdefault("include_dashboard", False)
                kwargs.setdefault("resources", {"sandbox": max(64, self.num_envs)})
                ray.init(address="local", **kwargs)   # not a `ray start` cluster that happens to run here
                self._owns_ray = True
        self._driver_node = ray.get_runtime_context().get_node_id()

        # spaces from a local, unstarted instance (hybridgym envs start their sandbox at reset)
        probe = gym.make(env_id, **self.env_kwargs)
        try:
            self.single_observation_space = probe.observation_space
            self.single_action_space = probe.action_space
            self.metadata = dict(getattr(probe.unwrapped, "metadata", {}))
            self.render_mode = None
        finally:
            probe.close()
        self.metadata["autoreset_mode"] = self.autoreset_mode
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

        self._remote_cls = ray.remote(EnvWorker)
        self._reap = ray.remote(reap)
        self.actors: list[Any] = [None] * self.num_envs
        self.tokens: list[str] = [""] * self.num_envs
        self.pids: list[int | None] = [None] * self.num_envs
        self.nodes: list[str | None] = [None] * self.num_envs
        self.replacements = 0
        self.replace_s: list[float] = []
        self._pending: dict[int, _Pending] = {}
        self._obs: list[Any] = [None] * self.num_envs
        self._autoreset = np.zeros(self.num_envs, dtype=bool)
        self._observations = create_empty_array(self.single_observation_space, self.num_envs)
        self.closed = False
        self._recorder = None
        self._writers: list[Any] = [None] * self.num_envs
        self.record_agent = record_agent
        if record_dir is not None:
            from .trajectory import Recorder
            self._recorder = Recorder(record_dir, image_format=record_image_format)
        try:
            for i in range(self.num_envs):
                self.actors[i], self.tokens[i] = self._spawn()
            wheres = ray.get([h.where.remote() for h in self.actors], timeout=self.start_timeout_s)
            for i, w in enumerate(wheres):
                self._adopt(i, self.actors[i], w)
        except BaseException:
            self.close()
            raise

    # -- actors ---------------------------------------------------------------------
    def _spawn(self) -> tuple[Any, str]:
        import uuid
        opts: dict[str, Any] = {"num_cpus": self.num_cpus, "max_restarts": 0}
        if self.resources:
            opts["resources"] = self.resources
        token = uuid.uuid4().hex
        return self._remote_cls.options(**opts).remote(self.env_id, self.env_kwargs, token), token

    def _adopt(self, i: int, handle, where: dict) -> None:
        ray = _ray()
        self.actors[i], self.nodes[i], self.pids[i] = handle, where["node_id"], where["pid"]
        fmt = self.transport
        if fmt == "auto":
            fmt = "raw" if where["node_id"] == self._driver_node else "png"
        ray.get(handle.set_transport.remote(fmt, self.jpeg_quality), timeout=self.call_timeout_s)

    def _replace(self, i: int) -> float:
        """Kill sub-env i's actor (whatever state it is in) and start a new one; returns seconds taken."""
        ray = _ray()
        t = time.perf_counter()
        self._pending.pop(i, None)
        old, node = self.actors[i], self.nodes[i]
        if old is not None:
            try:
                ray.kill(old, no_restart=True)
            except Exception:
                pass
        self._reap_node(node, self.tokens[i], self.pids[i])
        handle, self.tokens[i] = self._spawn()
        where = ray.get(handle.where.remote(), timeout=self.start_timeout_s)
        self._adopt(i, handle, where)
        took = time.perf_counter() - t
        self.replacements += 1
        self.replace_s.append(took)
        return took

    def _reap_node(self, node: str | None, token: str, actor_pid: int | None) -> None:
        """Kill what a dead actor left running (its Xvfb, Chromium, apps) on its node."""
        if node is None:
            return
        ray = _ray()
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
        try:
            ray.get(self._reap.options(num_cpus=0, scheduling_strategy=NodeAffinitySchedulingStrategy(
                node, soft=False)).remote(token, actor_pid), timeout=self.call_timeout_s)
        except Exception:
            pass   # the node itself is gone: nothing of it is left to stop

    @staticmethod
    def _is_fault(e: BaseException) -> bool:
        """An actor that died or did not answer (not an error of the env's own code)."""
        from ray import exceptions as rx
        return isinstance(e, (rx.RayActorError, rx.GetTimeoutError, rx.ObjectLostError,
                              rx.WorkerCrashedError, rx.NodeDiedError, rx.OutOfMemoryError))

    @staticmethod
    def _raise_env_error(e: BaseException):
        from ray import exceptions as rx
        if isinstance(e, rx.RayTaskError):
            cause = e.as_instanceof_cause()
            raise cause from None
        raise e

    # -- sending and receiving ------------------------------------------------------
    def _launch(self, i: int, action: Any, kind: str | None = None, seed: int | None = None,
                options: dict | None = None) -> None:
        if i in self._pending:
            raise RuntimeError(f"sub-env {i} already has a step in flight; recv() it first")
        actor = self.actors[i]
        if kind is None:
            kind = "reset" if (self.autoreset_mode == AutoresetMode.NEXT_STEP and self._autoreset[i]) else "step"
        if kind == "reset":
            ref = actor.reset.remote(seed, options)
        else:
            ref = actor.step.remote(action, self.autoreset_mode == AutoresetMode.SAME_STEP)
        now = time.monotonic()
        self._pending[i] = _Pending(ref, kind, now + self.call_timeout_s, now, action)

    def _finish(self, i: int, result: Any = None, error: BaseException | None = None) -> Transition:
        """Turn a sub-env's answer (or its fault) into a Transition and update its state."""
        p = self._pending.pop(i)
        if error is not None:
            if not self._is_fault(error):
                self._raise_env_error(error)
            return self._after_fault(i, p, error)
        if p.kind == "reset":
            obs, info = result
            obs = _decode_obs(obs)
            self._obs[i], self._autoreset[i] = obs, False
            self._record_reset(i, obs, info)
            return Transition(i, obs, 0.0, False, False, info)
        obs, reward, terminated, truncated, info, final = result
        obs = _decode_obs(obs)
        if final is not None:   # SAME_STEP: the actor has already reset
            final_obs = _decode_obs(final[0])
            self._record_step(i, p.action, final_obs, reward, terminated, truncated, final[1])
            self._record_reset(i, obs, info)
            info = {**info, "final_obs": final_obs, "final_info": final[1]}
        else:
            self._record_step(i, p.action, obs, reward, terminated, truncated, info)
        self._obs[i] = obs
        self._autoreset[i] = (terminated or truncated) and self.autoreset_mode == AutoresetMode.NEXT_STEP
        return Transition(i, obs, reward, terminated, truncated, info)

    def _after_fault(self, i: int, p: _Pending, error: BaseException) -> Transition:
        reason = "did not answer within the time-out" if "Timeout" in type(error).__name__ else "died"
        message = f"sub-env {i}'s actor {reason} ({type(error).__name__}: {str(error)[:300]}); replaced"
        took = self._replace(i)
        info: dict[str, Any] = {"error": message, "replaced": True, "replace_s": took}
        if self._writers[i] is not None and not self._writers[i].ended:
            self._writers[i].end({"error": message})
        last = self._obs[i]
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            obs, reset_info = self._call(i, "reset", None, None)
            info = {**reset_info, **info, "final_obs": last, "final_info": {"error": message}}
            self._obs[i], self._autoreset[i] = obs, False
            self._record_reset(i, obs, reset_info)
            return Transition(i, obs, 0.0, False, True, info)
        self._autoreset[i] = True   # NEXT_STEP: the next step resets the new actor
        return Transition(i, last, 0.0, False, True, info)

    # -- recording ----------------------------------------------------------------------
    def _record_reset(self, i: int, obs: Any, info: dict) -> None:
        if self._recorder is None:
            return
        if self._writers[i] is not None:
            self._writers[i].abort()
        settings = {"env_id": self.env_id, "env_kwargs": self.env_kwargs, "vector_index": i, "node": self.nodes[i]}
        self._writers[i] = self._recorder.begin(obs, info, agent=self.record_agent, settings=settings)

    def _record_step(self, i: int, action: Any, obs: Any, reward: float, terminated: bool, truncated: bool,
                     info: dict) -> None:
        writer = self._writers[i]
        if writer is None or writer.ended:
            return
        writer.step(action, obs, reward, terminated, truncated, info)
        if terminated or truncated:
            writer.end(info)

    @property
    def record_folders(self) -> list:
        """The trajectory folder of each sub-env's current (or last) episode, when recording."""
        return [None if w is None else w.folder for w in self._writers]

    def _call(self, i: int, method: str, *args) -> Any:
        """A blocking call to sub-env i with the time-out (used for resets after a fault)."""
        ray = _ray()
        obs, info = ray.get(getattr(self.actors[i], method).remote(*args), timeout=self.call_timeout_s)
        return _decode_obs(obs), info

    def send(self, actions: Mapping[int, Any]) -> None:
        """Start a step on the given sub-envs ({index: action}); collect them with `recv`.

        A sub-env whose last episode ended is reset instead (its action is ignored) in
        NEXT_STEP mode, as in `step`.
        """
        for i, action in actions.items():
            if not 0 <= int(i) < self.num_envs:
                raise IndexError(f"sub-env index {i} out of range 0..{self.num_envs - 1}")
            self._launch(int(i), action)

    @property
    def pending(self) -> list[int]:
        """Indices of the sub-envs with a step in flight."""
        return sorted(self._pending)

    def recv(self, min_num: int = 1, timeout: float | None = None) -> list[Transition]:
        """Return the steps that have finished: at least `min_num` of those in flight, or all
        that finished by `timeout` seconds (never waits past a sub-env's call time-out:
        a sub-env that hangs is replaced and comes back truncated)."""
        ray = _ray()
        if not self._pending:
            return []
        want = max(1, min(int(min_num), len(self._pending)))
        start = time.monotonic()
        done: list[Transition] = []
        while True:
            by_ref = {p.ref: i for i, p in self._pending.items()}
            soonest = min(p.deadline for p in self._pending.values())
            wait_s = max(0.0, soonest - time.monotonic())
            if timeout is not None:
                wait_s = min(wait_s, max(0.0, start + timeout - time.monotonic()))
            ready, _ = ray.wait(list(by_ref), num_returns=min(want - len(done), len(by_ref)), timeout=wait_s)
            # everything else that is ready too, without waiting
            rest = [r for r in by_ref if r not in ready]
            if rest:
                more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
                ready = list(ready) + list(more)
            for ref in ready:
                i = by_ref[ref]
                try:
                    result = ray.get(ref, timeout=0)
                except Exception as e:  # noqa: BLE001 - sorted into faults and env errors by _finish
                    done.append(self._finish(i, error=e))
                else:
                    done.append(self._finish(i, result))
            now = time.monotonic()
            for i, p in list(self._pending.items()):
                if now >= p.deadline:
                    from ray.exceptions import GetTimeoutError
                    done.append(self._finish(i, error=GetTimeoutError(
                        f"no answer to {p.kind}() within {self.call_timeout_s:.0f} s")))
            if len(done) >= want or not self._pending:
                return done
            if timeout is not None and now >= start + timeout:
                return done

    # -- the lock-step API ------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict | None = None):
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        mask = np.ones(self.num_envs, dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
        if mask.shape != (self.num_envs,):
            raise ValueError(f"reset_mask must have shape ({self.num_envs},), got {mask.shape}")
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"got {len(seeds)} seeds for {self.num_envs} sub-envs")
        self._drain()
        idx = [i for i in range(self.num_envs) if mask[i]]
        for i in idx:
            self._launch(i, None, kind="reset", seed=seeds[i], options=options or None)
        infos: dict[str, Any] = {}
        results = {t.index: t for t in self._collect(idx)}
        for i in idx:
            t = results[i]
            if t.truncated and t.info.get("replaced"):   # the actor died during reset: try once more
                self._launch(i, None, kind="reset", seed=seeds[i], options=options or None)
                t = self._collect([i])[0]
                if t.truncated:
                    raise RuntimeError(f"sub-env {i} could not be reset: {t.info.get('error')}")
            infos = self._add_info(infos, t.info, i)
        return self._batch(), infos

    def step(self, actions: Any):
        actions = list(actions)
        if len(actions) != self.num_envs:
            raise ValueError(f"got {len(actions)} actions for {self.num_envs} sub-envs")
        if self._pending:
            raise RuntimeError(f"sub-envs {self.pending} have steps in flight (send/recv); recv() them first")
        for i, a in enumerate(actions):
            self._launch(i, a)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminations = np.zeros(self.num_envs, dtype=bool)
        truncations = np.zeros(self.num_envs, dtype=bool)
        infos: dict[str, Any] = {}
        for t in sorted(self._collect(range(self.num_envs)), key=lambda t: t.index):
            rewards[t.index], terminations[t.index], truncations[t.index] = t.reward, t.terminated, t.truncated
            infos = self._add_info(infos, t.info, t.index)
        return self._batch(), rewards, terminations, truncations, infos

    def _collect(self, indices) -> list[Transition]:
        want = set(indices)
        out: list[Transition] = []
        while want & set(self._pending):
            for t in self.recv(min_num=len(want & set(self._pending))):
                out.append(t)
        return [t for t in out if t.index in want]

    def _drain(self) -> None:
        """Wait out (and drop) steps still in flight from send()."""
        while self._pending:
            self.recv(min_num=len(self._pending))

    def _batch(self):
        self._observations = concatenate(self.single_observation_space, self._obs, self._observations)
        return self._observations

    # -- odds and ends ------------------------------------------------------------------
    def call(self, name: str, *args, **kwargs) -> tuple:
        raise NotImplementedError("RayVectorEnv.call is not offered; sub-envs live in other processes")

    def where(self) -> list[dict]:
        """Node and pid of each sub-env's actor, and the uid its sandbox's jail runs the agent's
        programs as (None before the first reset, or when the jail is not privileged)."""
        ray = _ray()
        return ray.get([a.where.remote() for a in self.actors], timeout=self.call_timeout_s)

    def close_extras(self, **kwargs) -> None:
        ray = _ray()
        actors = [a for a in getattr(self, "actors", []) if a is not None]
        if ray.is_initialized():
            refs = [a.close.remote() for a in actors]
            try:
                ray.wait(refs, num_returns=len(refs), timeout=min(60.0, getattr(self, "call_timeout_s", 60.0)))
            except Exception:
                pass
            for a in actors:
                try:
                    ray.kill(a, no_restart=True)
                except Exception:
                    pass
            for node, token, pid in zip(getattr(self, "nodes", []), getattr(self, "tokens", []),
                                        getattr(self, "pids", [])):
                if token:
                    self._reap_node(node, token, pid)   # whatever a hung or dead actor left running
        self.actors = []
        self._pending = {}
        for w in getattr(self, "_writers", []):
            if w is not None:
                w.abort()
        if getattr(self, "_recorder", None) is not None:
            self._recorder.close()
        if getattr(self, "_owns_ray", False) and ray.is_initialized():
            ray.shutdown()
            self._owns_ray = False


def make_ray_vector(env_id: str, num_envs: int = 1, **kwargs) -> RayVectorEnv:
    """Vector entry point of every hybridgym id (`gym.make_vec(..., vectorization_mode="vector_entry_point")`).

    Keyword arguments named in VECTOR_KWARGS configure the vector env; the others
    (task, step_ms, max_episode_steps, ...) go to `gym.make` in each actor.
    """
    vec = {k: kwargs.pop(k) for k in list(kwargs) if k in VECTOR_KWARGS}
    return RayVectorEnv(env_id, num_envs, env_kwargs=kwargs, **vec)
