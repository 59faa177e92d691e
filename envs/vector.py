"""Many sandboxes at once: a Gymnasium VectorEnv whose sub-envs are Ray actors, with as-they-finish collection and fault recovery.

Ray is the distributed engine (placement, transport, actor lifetime); this module
adds only what an RL trainer needs on top of it:

* `RayVectorEnv`: the lock-step `gymnasium.vector.VectorEnv` API (`reset`, `step`,
  `metadata["autoreset_mode"]` NEXT_STEP or SAME_STEP, `reset(options={"reset_mask": m})`).
  Reached with `gym.make_vec("hybridgym/<id>", num_envs=N, vectorization_mode="vector_entry_point")`
  or directly.
* `send(actions)` / `recv(min_num, timeout)`: give some sub-envs an action and take
  whichever finish first, for the partially filled rollout pools of asynchronous RL.
* Several sub-envs per actor (`envs_per_actor=k`): one Python process and one
  Playwright driver serve k sandboxes (each with its own Xvfb, Chromium and jail).
* Faults: every remote call has a time-out. A sandbox that dies inside its actor is
  replaced there; an actor that dies or hangs is killed and replaced with all its
  sub-envs. A faulty sub-env's step comes back `truncated=True` with the error in
  `info["error"]` and `info["replaced"]`; the other sub-envs (a sandbox fault: also
  its siblings on the same actor) are not disturbed.
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
import math
import os
import time
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import gymnasium as gym
import numpy as np
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array
from gymnasium.vector.vector_env import AutoresetMode

from .sandbox.processes import children, cmdline, descendants, has_mark, is_gone, kill_pid, marked

TRANSPORTS = ("raw", "png", "jpeg", "auto")

#: keyword arguments of make_ray_vector that configure the vector env; every other one goes to gym.make
VECTOR_KWARGS = ("address", "resources", "num_cpus", "envs_per_actor", "autoreset_mode", "transport",
                 "jpeg_quality", "call_timeout_s", "start_timeout_s", "ray_init_kwargs", "record_dir",
                 "record_agent", "record_image_format")


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


class EnvGroupWorker:
    """`count` sub-envs in one process (a Ray actor): gym.make on the node it was placed on.

    The envs share the actor's Python and its one Playwright driver (envs made in one thread
    share it); each keeps its own Xvfb, Chromium and jail. Ray runs an actor's calls one at a
    time, so the envs are stepped one after the other (one driver serves one thread).

    Fault isolation: a call on env `j` whose sandbox is found dead (its Chromium or Xvfb gone,
    an error the dead part caused) closes that env and makes a new one in its place; the call
    answers `("fault", (message, seconds))` instead of `("ok", result)`, and the other envs keep
    their episodes. Errors of the
    caller (a step after the episode ended, a bad action) are raised as they are. If the shared
    Playwright driver itself is gone, no env of the actor can work: the actor exits, and the
    vector env replaces it with all its envs.

    The actor marks its environment with `OWNER_VAR=token` before any sandbox starts, so that
    what it started can be found and killed if the actor itself dies.
    """

    def __init__(self, env_id: str, env_kwargs: dict, token: str, count: int = 1):
        os.environ[OWNER_VAR] = token
        import hybridgym  # noqa: F401  (register the ids in the actor's process)
        self.env_id, self.env_kwargs = env_id, env_kwargs
        self.envs = [gym.make(env_id, **env_kwargs) for _ in range(count)]
        self.fmt, self.quality = "raw", 90
        self._driver_pid: int | None = None

    # -- where things run -------------------------------------------------------------
    def where(self) -> list[dict]:
        """Node, actor pid and jail uid of each env of the actor."""
        ray = _ray()
        node = ray.get_runtime_context().get_node_id()
        out = []
        for env in self.envs:
            sb = getattr(env.unwrapped, "sandbox", None)
            jail = getattr(sb, "jail", None)
            out.append({"node_id": node, "pid": os.getpid(),
                        "jail_uid": jail.uid if jail is not None and jail.privileged else None})
        return out

    def sandbox_pids(self) -> list[dict]:
        """Each env's own processes: its Xvfb (`display`), its Chromium's browser process
        (`browser`) and all of its Chromium processes (`browser_processes`); None / [] before
        the sandbox has started. Chromium is told apart by the display it draws on."""
        mine = descendants(os.getpid())
        out = []
        for env in self.envs:
            sb = getattr(env.unwrapped, "sandbox", None)
            display = getattr(sb, "display", None)
            entry: dict[str, Any] = {"display": None, "browser": None, "browser_processes": []}
            if display is not None:
                entry["display"] = display.pid
                for p in sorted(mine):
                    argv0 = cmdline(p).split(" ", 1)[0]
                    if "chrom" not in os.path.basename(argv0) or "crashpad" in argv0:
                        continue
                    if not has_mark(p, "DISPLAY", display.name):
                        continue
                    entry["browser_processes"].append(p)
                    if entry["browser"] is None and "--type=" not in cmdline(p):
                        entry["browser"] = p
            out.append(entry)
        return out

    def set_transport(self, fmt: str, quality: int) -> None:
        self.fmt, self.quality = fmt, quality

    # -- the env calls ----------------------------------------------------------------
    def reset(self, j: int, seed: int | None, options: dict | None):
        try:
            obs, info = self.envs[j].reset(seed=seed, options=options)
        except Exception as e:  # noqa: BLE001 - a dead sandbox is replaced, the caller's errors are raised
            return self._fault(j, e)
        self._note_driver()
        return "ok", (_encode_obs(obs, self.fmt, self.quality), info)

    def step(self, j: int, action: Any, same_step_reset: bool = False):
        env = self.envs[j]
        try:
            obs, reward, terminated, truncated, info = env.step(action)
        except Exception as e:  # noqa: BLE001 - as in reset
            return self._fault(j, e)
        if truncated and info.get("error"):   # the env saw a part die: is it still dead?
            dead = self._dead_part(j)
            if dead is not None:
                error = str(info["error"])
                return self._replace(j, error if error.startswith(dead) else f"{dead}: {error}")
        final = None
        if same_step_reset and (terminated or truncated):
            final = (_encode_obs(obs, self.fmt, self.quality), info)
            try:
                obs, info = env.reset()
            except Exception as e:  # noqa: BLE001
                return self._fault(j, e)
        return "ok", (_encode_obs(obs, self.fmt, self.quality), float(reward), bool(terminated), bool(truncated),
                      info, final)

    def close(self) -> None:
        for env in self.envs:
            try:
                env.close()
            except Exception:
                pass

    # -- faults -----------------------------------------------------------------------
    def _dead_part(self, j: int) -> str | None:
        sb = getattr(self.envs[j].unwrapped, "sandbox", None)
        return None if sb is None else sb.health()

    def _fault(self, j: int, error: Exception):
        """Replace env j if `error` came from a dead part of its sandbox; else raise it (the caller's error)."""
        from .sandbox.errors import SandboxError
        dead = self._dead_part(j)
        if dead is None and not isinstance(error, SandboxError):
            raise error
        return self._replace(j, f"{dead or 'the sandbox failed'}: {type(error).__name__}: {str(error)[:300]}")

    def _replace(self, j: int, message: str):
        t = time.perf_counter()
        if self._driver_pid is not None and is_gone(self._driver_pid):
            os._exit(70)   # the shared driver is dead: every env here is; the vector env replaces the actor
        old, self.envs[j] = self.envs[j], None
        try:
            old.close()
        except Exception:
            pass
        self._driver_pid = None   # closing the last env stops the driver; the next reset notes the new one
        self.envs[j] = gym.make(self.env_id, **self.env_kwargs)
        return "fault", (message, time.perf_counter() - t)

    def _note_driver(self) -> None:
        """Remember the pid of the Playwright driver the envs share (started by the first browser)."""
        if self._driver_pid is None:
            for p in children(os.getpid()):
                if "/playwright/driver/" in cmdline(p):
                    self._driver_pid = p
                    break



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
    ref: Any           # None: answered already (see `lost`)
    kind: str          # "step" | "reset"
    deadline: float    # math.inf while queued behind another call on the same actor
    sent_at: float
    action: Any = None
    lost: str | None = None   # the sub-env's actor was replaced while it was idle: this is the fault to report


class RayVectorEnv(VectorEnv):
    """
    ## Description
    `num_envs` copies of a hybridgym env in Ray actors placed on nodes that offer the
    `sandbox` custom resource (configurable), one sub-env per actor or `envs_per_actor`
    of them. Connects to a running cluster (`address=` or `RAY_ADDRESS`) or starts a
    local Ray that offers the resource.

    ## Spaces
    `single_observation_space`/`single_action_space` are the sub-env's; the batched
    spaces are gymnasium's `batch_space` of them (screenshots stacked, text in tuples).

    ## Autoreset
    `autoreset_mode` NEXT_STEP (default: a sub-env that ended is reset by the next
    `step`, whose action for it is ignored) or SAME_STEP (reset inside the same step;
    `info["final_obs"]`/`info["final_info"]` hold the last observation and info).
    `reset(options={"reset_mask": mask})` resets only the masked sub-envs.

    ## Several sub-envs per actor
    `envs_per_actor=k` puts k sub-envs (consecutive indices; the last actor may hold
    fewer) in one actor: one Python process and one Playwright driver serve k sandboxes,
    each with its own Xvfb, Chromium and jail. The actor runs their calls one at a time.

    ## Faults
    Every remote call has a time-out (`call_timeout_s`, counted from when the actor can
    take the call). A faulty sub-env's step returns `truncated=True` with `info["error"]`
    and `info["replaced"] = True`; with NEXT_STEP the new sub-env is reset by the next
    step, with SAME_STEP at once.
    * A sandbox that died inside a living actor (its Chromium or Xvfb gone): the actor
      closes that sub-env and makes a new one in its place; its siblings on the same actor
      are not disturbed.
    * An actor that died or did not answer in time: it is killed and replaced, with all its
      sub-envs; each is truncated (one in flight at once, an idle one at its next step).
    Errors raised by the env's own code (a bad argument, a call in the wrong order) are
    raised to the caller.

    ## Arguments
    env_id: a registered id, e.g. "hybridgym/game.snake-v0". num_envs: how many.
    env_kwargs: passed to `gym.make` in each actor. address: a Ray cluster to join
    (default `RAY_ADDRESS`, else a local Ray is started and stopped at `close()`).
    resources: custom resources each sub-env needs (default `{"sandbox": 1}`; `{}` for none);
    an actor of k sub-envs asks for k times as much. num_cpus: CPUs reserved per sub-env
    (default 0: a sandbox is mostly waiting). envs_per_actor: sub-envs per actor (default 1).
    transport: "raw", "png", "jpeg" or "auto" (compress only across nodes).
    jpeg_quality: 1-100. call_timeout_s / start_timeout_s: time-outs of a reset/step and of an actor's start.
    record_dir: record every sub-env's episodes as trajectories in this folder (`hybridgym.trajectory`),
    written here on the driver from what the actors send back (so it works across nodes), for `step` and
    `send`/`recv` alike; a fault ends the episode's trajectory with its error. record_agent: the agent
    name in them; record_image_format: "png" or "webp" (lossless).
    """

    def __init__(self, env_id: str, num_envs: int, *, env_kwargs: dict | None = None,
                 address: str | None = None, resources: Mapping[str, float] | None = None,
                 num_cpus: float = 0, envs_per_actor: int = 1,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 transport: str = "auto", jpeg_quality: int = 90, call_timeout_s: float = 120.0,
                 start_timeout_s: float = 180.0, ray_init_kwargs: dict | None = None,
                 record_dir: str | os.PathLike | None = None, record_agent: str = "policy",
                 record_image_format: str = "png"):
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if isinstance(envs_per_actor, bool) or not isinstance(envs_per_actor, (int, np.integer)) \
                or envs_per_actor < 1:
            raise ValueError(f"envs_per_actor must be a whole number of at least 1, got {envs_per_actor!r}")
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
        k = self.envs_per_actor = min(int(envs_per_actor), self.num_envs)
        #: the sub-env indices of each actor; sub-env i is local index i % k of actor i // k
        self.members: list[list[int]] = [list(range(g, min(g + k, self.num_envs)))
                                         for g in range(0, self.num_envs, k)]

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

        self._remote_cls = ray.remote(EnvGroupWorker)
        self._reap = ray.remote(reap)
        # per sub-env (siblings on one actor share the actor's handle, token, pid and node)
        self.actors: list[Any] = [None] * self.num_envs
        self.tokens: list[str] = [""] * self.num_envs
        self.pids: list[int | None] = [None] * self.num_envs
        self.nodes: list[str | None] = [None] * self.num_envs
        self.replacements = 0            # actors replaced (each with all its sub-envs)
        self.sandbox_replacements = 0    # sandboxes replaced inside a living actor
        self.replace_s: list[float] = []
        self._pending: dict[int, _Pending] = {}
        self._lost: dict[int, str] = {}
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
            handles = [self._spawn(g) for g in range(len(self.members))]
            wheres = ray.get([h.where.remote() for h in handles], timeout=self.start_timeout_s)
            for g, w in enumerate(wheres):
                self._adopt(g, handles[g], w)
        except BaseException:
            self.close()
            raise

    # -- actors ---------------------------------------------------------------------
    def _group(self, i: int) -> int:
        return i // self.envs_per_actor

    def _local(self, i: int) -> int:
        return i % self.envs_per_actor

    def _spawn(self, g: int) -> Any:
        """Start actor g (its sub-envs are made, their sandboxes start at their first reset)."""
        import uuid
        n = len(self.members[g])
        opts: dict[str, Any] = {"num_cpus": self.num_cpus * n, "max_restarts": 0}
        if self.resources:
            opts["resources"] = {name: amount * n for name, amount in self.resources.items()}
        token = uuid.uuid4().hex
        handle = self._remote_cls.options(**opts).remote(self.env_id, self.env_kwargs, token, n)
        for i in self.members[g]:
            self.actors[i], self.tokens[i] = handle, token   # set now: close() reaps by token
        return handle

    def _adopt(self, g: int, handle, wheres: list[dict]) -> None:
        ray = _ray()
        for i, where in zip(self.members[g], wheres):
            self.actors[i], self.nodes[i], self.pids[i] = handle, where["node_id"], where["pid"]
        fmt = self.transport
        if fmt == "auto":
            fmt = "raw" if wheres[0]["node_id"] == self._driver_node else "png"
        ray.get(handle.set_transport.remote(fmt, self.jpeg_quality), timeout=self.call_timeout_s)

    def _replace(self, g: int) -> float:
        """Kill actor g (whatever state it is in) and start a new one with new sub-envs; returns seconds taken."""
        ray = _ray()
        t = time.perf_counter()
        first = self.members[g][0]
        for i in self.members[g]:
            self._pending.pop(i, None)
        old, node, token, pid = self.actors[first], self.nodes[first], self.tokens[first], self.pids[first]
        if old is not None:
            try:
                ray.kill(old, no_restart=True)
            except Exception:
                pass
        self._reap_node(node, token, pid)
        handle = self._spawn(g)
        wheres = ray.get(handle.where.remote(), timeout=self.start_timeout_s)
        self._adopt(g, handle, wheres)
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
        if kind is None:
            kind = "reset" if (self.autoreset_mode == AutoresetMode.NEXT_STEP and self._autoreset[i]) else "step"
        now = time.monotonic()
        if kind == "reset":
            self._lost.pop(i, None)    # a new episode on the new actor: nothing to report
        elif i in self._lost:          # its episode was lost with its actor: this step reports it
            self._pending[i] = _Pending(None, kind, now, now, action, lost=self._lost.pop(i))
            return
        actor, j = self.actors[i], self._local(i)
        if kind == "reset":
            ref = actor.reset.remote(j, seed, options)
        else:
            ref = actor.step.remote(j, action, self.autoreset_mode == AutoresetMode.SAME_STEP)
        queued = any(s in self._pending and self._pending[s].ref is not None for s in self.members[self._group(i)])
        self._pending[i] = _Pending(ref, kind, math.inf if queued else now + self.call_timeout_s, now, action)

    def _pop(self, i: int) -> _Pending:
        """Take sub-env i's call off the books; the next call queued on its actor starts its time-out."""
        p = self._pending.pop(i)
        queued = [s for s in self.members[self._group(i)]
                  if s in self._pending and self._pending[s].deadline == math.inf]
        if queued:
            nxt = min(queued, key=lambda s: self._pending[s].sent_at)
            self._pending[nxt].deadline = time.monotonic() + self.call_timeout_s
        return p

    def _finish(self, i: int, result: Any = None, error: BaseException | None = None) -> list[Transition]:
        """Turn a sub-env's answer (or its fault) into Transitions (an actor's fault: one per
        sub-env of it that had a call in flight) and update their state."""
        p = self._pop(i)
        if error is not None:
            if not self._is_fault(error):
                self._raise_env_error(error)
            return self._actor_fault(i, p, error)
        status, payload = result
        if status == "fault":   # its sandbox died; the actor made a new one in its place
            message, took = payload
            self.sandbox_replacements += 1
            return [self._after_fault(i, p, f"sub-env {i}'s sandbox failed ({message}); replaced in its actor",
                                      took)]
        if p.kind == "reset":
            obs, info = payload
            obs = _decode_obs(obs)
            self._obs[i], self._autoreset[i] = obs, False
            self._record_reset(i, obs, info)
            return [Transition(i, obs, 0.0, False, False, info)]
        obs, reward, terminated, truncated, info, final = payload
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
        return [Transition(i, obs, reward, terminated, truncated, info)]

    def _actor_fault(self, i: int, p: _Pending, error: BaseException) -> list[Transition]:
        """Sub-env i's actor died or hung: replace it with all its sub-envs. Those with a call in
        flight are truncated now, the idle ones at their next step."""
        reason = "did not answer within the time-out" if "Timeout" in type(error).__name__ else "died"
        g = self._group(i)
        in_flight = {i: p}
        for s in self.members[g]:
            if s != i and s in self._pending:
                in_flight[s] = self._pending.pop(s)
        took = self._replace(g)
        out = []
        for s in self.members[g]:
            shared = f" (shared with sub-env {i})" if s != i else ""
            message = f"sub-env {s}'s actor{shared} {reason} ({type(error).__name__}: {str(error)[:300]}); replaced"
            if s in in_flight:
                out.append(self._after_fault(s, in_flight[s], message, took))
            else:
                self._lost[s] = message
        return out

    def _after_fault(self, i: int, p: _Pending, message: str, took: float) -> Transition:
        """Sub-env i has a new sandbox (or a new actor): its episode ends truncated, with the error."""
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
        self._autoreset[i] = True   # NEXT_STEP: the next step resets the new sub-env
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
        status, payload = ray.get(getattr(self.actors[i], method).remote(self._local(i), *args),
                                  timeout=self.call_timeout_s)
        if status == "fault":
            raise RuntimeError(f"sub-env {i}'s new sandbox failed too: {payload[0]}")
        obs, info = payload
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
        for i, p in list(self._pending.items()):   # sub-envs whose actor was lost while they were idle
            if p.ref is None:
                self._pop(i)
                done.append(self._after_fault(i, p, p.lost or "its actor was replaced", 0.0))
        while len(done) < want and self._pending:
            by_ref = {p.ref: i for i, p in self._pending.items()}
            soonest = min(p.deadline for p in self._pending.values())
            wait_s = min(max(0.0, soonest - time.monotonic()), self.call_timeout_s)
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
                if i not in self._pending or self._pending[i].ref is not ref:
                    continue   # already answered: its actor was replaced by a sibling's fault
                try:
                    result = ray.get(ref, timeout=0)
                except Exception as e:  # noqa: BLE001 - sorted into faults and env errors by _finish
                    done += self._finish(i, error=e)
                else:
                    done += self._finish(i, result)
            now = time.monotonic()
            for i, p in list(self._pending.items()):
                if self._pending.get(i) is p and now >= p.deadline:
                    from ray.exceptions import GetTimeoutError
                    done += self._finish(i, error=GetTimeoutError(
                        f"no answer to {p.kind}() within {self.call_timeout_s:.0f} s"))
            if timeout is not None and now >= start + timeout:
                break
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
        """Node and pid of each sub-env's actor (siblings on one actor share its pid), and the uid
        its sandbox's jail runs the agent's programs as (None before the first reset, or when the
        jail is not privileged)."""
        return self._per_sub_env("where")

    def sandbox_pids(self) -> list[dict]:
        """Each sub-env's own processes, on its node: `display` (its Xvfb), `browser` (its Chromium's
        browser process) and `browser_processes` (all of its Chromium's); None / [] before its first reset."""
        return self._per_sub_env("sandbox_pids")

    def _per_sub_env(self, method: str) -> list:
        ray = _ray()
        answers = ray.get([getattr(self.actors[m[0]], method).remote() for m in self.members],
                          timeout=self.call_timeout_s)
        return [entry for answer in answers for entry in answer]

    def close_extras(self, **kwargs) -> None:
        ray = _ray()
        actors = getattr(self, "actors", [])
        firsts = [m[0] for m in getattr(self, "members", []) if actors and actors[m[0]] is not None]
        if ray.is_initialized():
            refs = [actors[f].close.remote() for f in firsts]
            try:
                ray.wait(refs, num_returns=len(refs), timeout=min(60.0, getattr(self, "call_timeout_s", 60.0)))
            except Exception:
                pass
            for f in firsts:
                try:
                    ray.kill(actors[f], no_restart=True)
                except Exception:
                    pass
            for f in firsts:
                if self.tokens[f]:
                    self._reap_node(self.nodes[f], self.tokens[f], self.pids[f])   # what a hung or dead actor left
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
