"""Trajectories: what an episode did, written as it runs and read back with a few lines of Python.

One episode is one folder (format "hybridgym.trajectory", version 1; docs/trajectories.md):

    episode.json     the header: task, seed, instruction, agent, env settings, versions (at reset);
                     with obs_mode, reset's text views (`reset_views`: axtree, dom, marks)
    frames/0000.png  the observation's screenshot after reset (0) and after each step (1, 2, ...),
                     lossless PNG (or WebP); a step whose screen did not change points at the
                     earlier file instead of writing a copy
    steps.jsonl      one line per step, appended once its frame is on disk: what the agent sent,
                     its model's raw reply, the parsed actions, SDK output, action errors, reward,
                     success, the checker's message, timings; with obs_mode, the step's text
                     views (`views`)
    result.json      the end: the final check (success, message), the total reward, steps; it is
                     written last, so a folder without it is an episode that did not end (a crash
                     keeps every step written before it)

`Recorder` writes episodes (screenshots are encoded on a background thread: the step does not wait
for the PNG), `RecordTrajectory` is the Gymnasium wrapper over it, and `Trajectory` / `load_run` read
them back:

    from hybridgym.trajectory import load_run
    for traj in load_run("runs/bench"):
        print(traj.task_id, traj.seed, traj.success, len(traj), traj.steps[0]["actions"])
        first = traj.frame(0)            # uint8 (H, W, 3), the screen the agent first saw
"""

from __future__ import annotations

import atexit
import dataclasses
import datetime as _dt
import functools
import json
import os
import platform
import queue
import re
import subprocess
import threading
import time
import weakref
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

FORMAT = "hybridgym.trajectory"
VERSION = 1
IMAGE_FORMATS = ("png", "webp")
HEADER, STEPS, RESULT, FRAMES = "episode.json", "steps.jsonl", "result.json", "frames"
#: info keys a step record keeps (besides reward, terminated, truncated and the actions)
#: the observation's text views (obs_mode, docs/observations.md) a step's line and the header keep
VIEW_KEYS = ("axtree", "dom", "marks")


def _views(obs: Mapping | None) -> dict:
    """The text views an observation carries, for the record (`VIEW_KEYS`; absent ones left out)."""
    if not isinstance(obs, Mapping):
        return {}
    return {k: obs[k] for k in VIEW_KEYS if isinstance(obs.get(k), str)}


STEP_INFO_KEYS = ("success", "message", "action_error", "answer", "call_user", "score", "error",
                  "invalid_actions", "task_reward", "reward_info", "process_reward")
#: the most a step's queue of frames waiting to be written holds before the step waits for the writer
QUEUE_FRAMES = 32


class TrajectoryError(ValueError):
    """A folder that is not a trajectory, or one of a format version this package cannot read."""


# -- what goes into JSON --------------------------------------------------------------------------------
def jsonable(value: Any, depth: int = 0) -> Any:
    """`value` as plain JSON data: typed actions as their dicts, numpy scalars and arrays as numbers and
    lists (arrays larger than 64 items as a note of their shape), anything else as its repr."""
    if depth > 20:
        return "..."
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not np.isfinite(value):
            return repr(value)
        return value
    if isinstance(value, np.generic):
        return jsonable(value.item(), depth + 1)
    if isinstance(value, np.ndarray):
        if value.size > 64:
            return f"<array {value.dtype} {list(value.shape)}>"
        return jsonable(value.tolist(), depth + 1)
    if hasattr(value, "to_dict") and callable(value.to_dict):
        try:
            return jsonable(value.to_dict(), depth + 1)
        except Exception:
            pass
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable(dataclasses.asdict(value), depth + 1)
    if isinstance(value, Mapping):
        return {str(k): jsonable(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v, depth + 1) for v in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    try:
        return repr(value)[:2000]
    except Exception:
        return f"<{type(value).__name__}>"


def _dump(obj: Any) -> str:
    return json.dumps(jsonable(obj), ensure_ascii=False, separators=(",", ":"))


def _write_json(path: Path, obj: Any) -> None:
    """Write `obj` to `path` whole or not at all (a temporary file renamed over it)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(jsonable(obj), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


@functools.lru_cache(maxsize=1)
def versions() -> dict:
    """The versions a trajectory was made with: hybridgym, Python, Gymnasium, Playwright, Chromium, the OS."""
    from importlib import metadata
    out = {"hybridgym": None, "python": platform.python_version(), "gymnasium": gym.__version__,
           "playwright": None, "chromium": None, "platform": platform.platform()}
    for name in ("hybridgym", "playwright"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    try:
        text = subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True, text=True, timeout=10).stdout
        out["chromium"] = text.strip() or None
    except (OSError, subprocess.SubprocessError):
        pass
    return out


def episode_name(task_id: str, agent: str, seed: int | None) -> str:
    """The folder name of an episode: `<task>__<agent>__seed<seed>` (characters other than letters,
    digits, '.', '-' and '_' become '_')."""
    safe = lambda s: re.sub(r"[^A-Za-z0-9._-]+", "_", str(s))[:100] or "_"   # noqa: E731
    return f"{safe(task_id)}__{safe(agent or 'agent')}__seed{seed if seed is not None else 'none'}"


def env_settings(env: gym.Env) -> dict:
    """What an env was made with: its gym id and keyword arguments, its screen, the codec it reads
    actions with now, its step budget."""
    base = env.unwrapped
    spec = getattr(env, "spec", None) or getattr(base, "spec", None)
    codec = getattr(base, "codec", None)
    out = {"env_id": getattr(spec, "id", None), "env_kwargs": _redacted(dict(getattr(spec, "kwargs", None) or {})),
           "screen": list(getattr(base, "screen_size", ()) or ()) or None}
    if codec is not None:
        out["codec"] = codec_settings(codec)
    if getattr(base, "episode", None) is not None:
        out["max_steps"] = base.max_steps
    # places the episode has from its env's process, not its task (a replay maps them to its own)
    sandbox = getattr(base, "sandbox", None)
    if getattr(sandbox, "workspace", None) is not None:
        out["workspace"] = str(sandbox.workspace.root)
    if getattr(sandbox, "server", None) is not None:
        out["web_origin"] = sandbox.server.origin
    return out


_SECRET = re.compile(r"(api[_-]?key|token|secret|password|passwd|authorization)", re.I)


def _redacted(value: Any) -> Any:
    """`value` with every field whose name says it is a secret (api_key, token, password, ...) replaced: a
    judge's key given to gym.make must not land in a trajectory that is shared."""
    if isinstance(value, Mapping):
        return {k: ("<redacted>" if _SECRET.search(str(k)) and v else _redacted(v)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redacted(v) for v in value]
    return value


def codec_settings(codec) -> dict:
    coords = getattr(codec, "coords", None)
    return {"schema": getattr(codec, "schema", None), "coords": getattr(coords, "value", coords),
            "image_size": getattr(codec, "image_size", None), "platform": getattr(codec, "platform", None)}


# -- writing ----------------------------------------------------------------------------------------------
_WRITERS: "weakref.WeakSet[_FrameWriter]" = weakref.WeakSet()


@atexit.register
def _flush_at_exit() -> None:
    """At the interpreter's exit (an uncaught exception included) what is queued is written."""
    for w in list(_WRITERS):
        try:
            w.q.join()
        except Exception:
            pass


class _FrameWriter:
    """A background thread that encodes and writes frames, then the step lines that name them, in order.

    Encoding a 1280x800 PNG takes 5-7 ms; the step goes on while it runs (zlib releases the GIL). What is
    queued is written when the interpreter exits, even on an uncaught exception; a process killed outright
    (SIGKILL, os._exit) loses the steps still queued (at most QUEUE_FRAMES)."""

    def __init__(self):
        self.q: queue.Queue = queue.Queue(maxsize=QUEUE_FRAMES)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="hybridgym-trajectory-writer", daemon=True)
        self.thread.start()
        _WRITERS.add(self)

    def _run(self) -> None:
        while True:
            job = self.q.get()
            try:
                if job is None:
                    return
                job()
            except BaseException as e:     # kept and raised in the recording thread at the next call
                self.error = self.error or e
            finally:
                self.q.task_done()

    def submit(self, job) -> None:
        self._raise()
        self.q.put(job)

    def flush(self) -> None:
        self.q.join()
        self._raise()

    def close(self) -> None:
        if self.thread.is_alive():
            self.q.put(None)
            self.thread.join(timeout=60)

    def _raise(self) -> None:
        if self.error is not None:
            e, self.error = self.error, None
            raise RuntimeError(f"writing the trajectory failed: {type(e).__name__}: {e}") from e


class EpisodeWriter:
    """One episode's folder, written as the episode runs (made by `Recorder.begin`)."""

    def __init__(self, folder: Path, header: dict, first_frame: np.ndarray | None, writer: _FrameWriter,
                 image_format: str):
        self.folder, self.header, self._writer, self.image_format = folder, header, writer, image_format
        (folder / FRAMES).mkdir(parents=True, exist_ok=True)
        self._last: np.ndarray | None = None
        self._last_name: str | None = None
        self.t0 = time.perf_counter()
        self.n = 0
        self.total_reward = 0.0
        self.ended = False
        header["first_frame"] = None
        if first_frame is not None:
            header["first_frame"] = self._frame_name(0)
            self._last = np.asarray(first_frame)
            self._last_name = header["first_frame"]
            self._submit_frame(self._last, header["first_frame"])
        _write_json(folder / HEADER, header)
        self._steps = open(folder / STEPS, "w", encoding="utf-8")

    def _frame_name(self, index: int) -> str:
        return f"{FRAMES}/{index:04d}.{self.image_format}"

    def _submit_frame(self, frame: np.ndarray, name: str) -> None:
        path, fmt = self.folder / name, self.image_format
        self._writer.submit(lambda: path.write_bytes(encode_frame(frame, fmt)))

    def _write_step(self, record: dict, frame: np.ndarray | None) -> None:
        """On the writer thread: the step's frame (unless it equals the last one: then the record names the
        earlier file), then its line."""
        if frame is not None:
            last = self._last
            if last is not None and last.shape == frame.shape and (last is frame or np.array_equal(last, frame)):
                record["frame"] = self._last_name
            else:
                name = self._frame_name(record["step"])
                path = self.folder / name
                path.write_bytes(encode_frame(frame, self.image_format))
                self._last, self._last_name = frame, name
                record["frame"] = name
        self._steps.write(_dump(record) + "\n")
        self._steps.flush()

    def update_header(self, **fields: Any) -> None:
        """Change header fields (e.g. the codec an agent set after reset); rewritten whole."""
        changed = {k: v for k, v in fields.items() if self.header.get(k) != jsonable(v)}
        if changed:
            self.header.update(jsonable(changed))
            header, folder = dict(self.header), self.folder
            self._writer.submit(lambda: _write_json(folder / HEADER, header))

    def step(self, action: Any, obs: Mapping | None, reward: float, terminated: bool, truncated: bool,
             info: Mapping, agent_output: Any = None) -> dict:
        """Record one step: `action` as sent to env.step, the observation, reward, ends and info."""
        self.n += 1
        self.total_reward += float(reward)
        shot = obs.get("screenshot") if isinstance(obs, Mapping) else None
        timings = info.get("timings")
        record = {"step": self.n, "t": round(time.perf_counter() - self.t0, 4), "frame": None,
                  "action": jsonable(action), "agent_output": jsonable(agent_output), "actions": info.get("actions"),
                  "sdk_output": obs.get("sdk_output", "") if isinstance(obs, Mapping) else "",
                  "reward": float(reward), "terminated": bool(terminated), "truncated": bool(truncated),
                  **{k: info.get(k) for k in STEP_INFO_KEYS if k in info},
                  "timings": timings.to_dict() if hasattr(timings, "to_dict") else jsonable(timings)}
        if _views(obs):
            record["views"] = _views(obs)
        frame = None if shot is None else np.asarray(shot)
        self._writer.submit(lambda: self._write_step(record, frame))
        return record

    def end(self, info: Mapping | None = None, **extra: Any) -> dict:
        """Write result.json (the final check) and close the folder's files."""
        if self.ended:
            return {}
        self.ended = True
        info = info or {}
        result = {"complete": True, "success": bool(info.get("success", False)), "reward": round(self.total_reward, 6),
                  "steps": self.n, "message": info.get("message", ""), "score": info.get("score"),
                  "answer": info.get("answer"), "error": info.get("error"),
                  "invalid_actions": info.get("invalid_actions"), "wall_s": round(time.perf_counter() - self.t0, 3),
                  "ended": _now(), **({"check": info["check"]} if info.get("check") is not None else {}),
                  **({"reward_info": info["reward_info"]} if info.get("reward_info") else {}), **extra}
        folder, steps = self.folder, self._steps
        self._writer.submit(lambda: (steps.close(), _write_json(folder / RESULT, result)))
        self._writer.flush()
        return result

    def abort(self) -> None:
        """Close the folder without a result (the episode did not end: the env closed, a new reset came)."""
        if not self.ended:
            self.ended = True
            steps = self._steps
            self._writer.submit(steps.close)
            self._writer.flush()


def encode_frame(frame: np.ndarray, fmt: str = "png") -> bytes:
    """A lossless PNG (fast deflate) or a lossless WebP of a screenshot."""
    if fmt == "png":
        from .imaging import encode_png
        return encode_png(frame)
    import io

    from PIL import Image
    out = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(frame)).save(out, "WEBP", lossless=True, quality=0, method=0)
    return out.getvalue()


class Recorder:
    """Writes episodes into `directory` (one folder each; `episode_name`). An episode whose folder is
    already there gets `-2`, `-3`, ... after its name, unless `overwrite=True` (resume: an episode that
    did not end is played again over its folder)."""

    def __init__(self, directory: str | os.PathLike, image_format: str = "png", overwrite: bool = False):
        if image_format not in IMAGE_FORMATS:
            raise ValueError(f"image_format must be one of {IMAGE_FORMATS} (lossless), got {image_format!r}")
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.image_format, self.overwrite = image_format, overwrite
        self._writer: _FrameWriter | None = None

    def begin(self, obs: Mapping, info: Mapping, *, agent: str = "", settings: Mapping | None = None,
              name: str | None = None, **extra: Any) -> EpisodeWriter:
        """Start an episode's folder from reset's observation and info."""
        if self._writer is None or not self._writer.thread.is_alive():
            self._writer = _FrameWriter()
        task_id, seed = info.get("task_id"), info.get("seed")
        folder = self._folder(name or episode_name(task_id, agent, seed))
        header = {"format": FORMAT, "version": VERSION, "episode": folder.name, "task_id": task_id,
                  "suite": info.get("suite"), "seed": seed,
                  "instruction": obs.get("instruction", "") if isinstance(obs, Mapping) else "",
                  "agent": agent, "sdk": info.get("sdk"), "max_steps": info.get("max_steps"),
                  "image_format": self.image_format, "started": _now(), **dict(settings or {}),
                  "versions": versions(), **extra}
        shot = obs.get("screenshot") if isinstance(obs, Mapping) else None
        if shot is not None:
            header["screenshot_shape"] = list(np.shape(shot))
        timings = info.get("timings")
        header["reset_timings"] = timings.to_dict() if hasattr(timings, "to_dict") else jsonable(timings)
        if _views(obs):
            header["reset_views"] = _views(obs)
        return EpisodeWriter(folder, jsonable(header), shot, self._writer, self.image_format)

    def _folder(self, name: str) -> Path:
        folder = self.directory / name
        if self.overwrite:
            if folder.exists():
                import shutil
                shutil.rmtree(folder)
            folder.mkdir(parents=True)
            return folder
        for k in range(1, 100000):
            candidate = folder if k == 1 else self.directory / f"{name}-{k}"
            try:
                candidate.mkdir(parents=True)    # exclusive: two processes never share a folder
                return candidate
            except FileExistsError:
                continue
        raise RuntimeError(f"too many episodes named {name} in {self.directory}")

    def close(self) -> None:
        if self._writer is not None:
            self._writer.flush()
            self._writer.close()
            self._writer = None


class RecordTrajectory(gym.Wrapper):
    """Records every episode of the env it wraps into `directory` (one folder per episode, as the
    episode runs; the format of this module).

    Arguments:
        env: a hybridgym env (or any env with a dict observation holding "screenshot").
        directory: the run's folder; created if missing.
        agent: the agent's name, or the agent itself: its `name`; its `last_output` (a model's raw reply,
            when it keeps one) is recorded per step and its `episode_stats()` in the result.
        image_format: "png" (default) or "webp", both lossless.
        overwrite: replace an episode's folder of the same name instead of adding a numbered one.

    Use it in a loop of your own, or on each sub-env of a vector env:
        env = RecordTrajectory(gym.make("hybridgym/browser.todo-add-v0"), "runs/mine", agent="me")
        venv = gym.make_vec(id, 4, wrappers=[lambda e: RecordTrajectory(e, "runs/vec")])
    `env.last_episode` is the folder of the latest episode.
    """

    def __init__(self, env: gym.Env, directory: str | os.PathLike, agent: Any = "", image_format: str = "png",
                 overwrite: bool = False):
        super().__init__(env)
        self.recorder = Recorder(directory, image_format=image_format, overwrite=overwrite)
        self.set_agent(agent)
        self.episode_writer: EpisodeWriter | None = None
        self.last_episode: Path | None = None
        self._codec_seen: dict | None = None

    def set_agent(self, agent: Any) -> None:
        """The agent (or its name) of the episodes from the next reset on."""
        self.agent = None if isinstance(agent, str) else agent
        self.agent_name = agent if isinstance(agent, str) else (getattr(agent, "name", "") or type(agent).__name__)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if self.episode_writer is not None:
            self.episode_writer.abort()
        obs, info = self.env.reset(seed=seed, options=options)
        settings = env_settings(self.env)
        self._codec_seen = settings.get("codec")
        self.episode_writer = self.recorder.begin(obs, info, agent=self.agent_name, settings=settings)
        self.last_episode = self.episode_writer.folder
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        writer = self.episode_writer
        if writer is not None and not writer.ended:
            codec = getattr(self.env.unwrapped, "codec", None)
            if codec is not None and codec_settings(codec) != self._codec_seen:   # an agent set its format
                self._codec_seen = codec_settings(codec)
                writer.update_header(codec=self._codec_seen)
            output = getattr(self.agent, "last_output", None) if self.agent is not None else None
            writer.step(action, obs, reward, terminated, truncated, info, agent_output=output)
            if terminated or truncated:
                writer.end(info, **self._result_extra(info))
        return obs, reward, terminated, truncated, info

    def _result_extra(self, info: Mapping) -> dict:
        extra: dict = {}
        episode = getattr(self.env.unwrapped, "episode", None)
        if info.get("score") is not None and episode is not None:
            try:
                norm = episode.task.normalized_score(info["score"])
                extra["normalized_score"] = None if norm is None else round(norm, 1)
            except Exception:
                pass
        if self.agent is not None and callable(getattr(self.agent, "episode_stats", None)):
            extra["agent_stats"] = self.agent.episode_stats()
        return extra

    def close(self):
        try:
            if self.episode_writer is not None:
                self.episode_writer.abort()
            self.recorder.close()
        finally:
            super().close()


# -- reading ------------------------------------------------------------------------------------------------
class Trajectory:
    """A recorded episode, read from its folder.

        traj = Trajectory("runs/bench/browser.todo-add-v0__oracle__seed0")
        traj.header["instruction"], traj.task_id, traj.seed, traj.success, traj.complete
        traj.steps[i]      # the record of step i+1: "action", "agent_output", "actions", "reward", ...
        traj.frame(0)      # the screenshot after reset; traj.frame(k): after step k
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self._frames = (self.path / FRAMES).resolve()
        header_path = self.path / HEADER
        if not header_path.is_file():
            raise TrajectoryError(f"{self.path} is not a trajectory: it has no {HEADER}")
        self.header: dict = json.loads(header_path.read_text(encoding="utf-8"))
        if self.header.get("format") != FORMAT:
            raise TrajectoryError(f"{header_path} is not a {FORMAT} header (format {self.header.get('format')!r})")
        if int(self.header.get("version", 0)) > VERSION:
            raise TrajectoryError(f"{self.path} is format version {self.header.get('version')}; this hybridgym reads "
                                  f"up to {VERSION}: upgrade hybridgym")
        self.steps: list[dict] = []
        steps_path = self.path / STEPS
        if steps_path.is_file():
            for line in steps_path.read_text(encoding="utf-8").splitlines():
                try:
                    self.steps.append(json.loads(line))
                except json.JSONDecodeError:     # the last line of an episode cut short
                    break
        result_path = self.path / RESULT
        self.result: dict | None = json.loads(result_path.read_text(encoding="utf-8")) if result_path.is_file() else None

    def __repr__(self) -> str:
        state = ("success" if self.success else "failure") if self.complete else "incomplete"
        return f"Trajectory({self.task_id}, agent={self.agent}, seed={self.seed}, {len(self)} steps, {state})"

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[dict]:
        return iter(self.steps)

    task_id = property(lambda self: self.header.get("task_id"))
    suite = property(lambda self: self.header.get("suite"))
    seed = property(lambda self: self.header.get("seed"))
    agent = property(lambda self: self.header.get("agent"))
    instruction = property(lambda self: self.header.get("instruction", ""))
    name = property(lambda self: self.path.name)

    @property
    def complete(self) -> bool:
        """True when the episode ended and its result was written."""
        return self.result is not None

    @property
    def success(self) -> bool:
        """The checker's verdict (False for an episode that did not end)."""
        return bool(self.result and self.result.get("success"))

    @property
    def reward(self) -> float:
        return float(self.result["reward"]) if self.result else sum(s.get("reward", 0.0) for s in self.steps)

    def frame_path(self, index: int) -> Path | None:
        """The file of the screenshot after step `index` (0: after reset). A trajectory is data that may come
        from anyone: a frame named outside its folder's frames/ (`../`, an absolute path, a symlink out) is
        refused with TrajectoryError."""
        if index == 0:
            name = self.header.get("first_frame")
        else:
            name = self.steps[index - 1].get("frame")
        if name is None:
            return None
        path = (self.path / str(name)).resolve()
        if path.parent != self._frames:
            raise TrajectoryError(f"{self.path}: step {index}'s frame {str(name)[:100]!r} is not a file of its "
                                  f"{FRAMES}/ folder")
        return path

    def frame(self, index: int) -> np.ndarray:
        """The screenshot after step `index` (0: after reset) as uint8 (H, W, 3)."""
        from PIL import Image
        path = self.frame_path(index)
        if path is None:
            raise KeyError(f"step {index} of {self.path} has no screenshot")
        with Image.open(path) as img:
            return np.asarray(img.convert("RGB"))

    def actions(self) -> list[list[dict]]:
        """Per step, the actions the env parsed (dicts of `hybridgym.actions`, absolute pixels)."""
        return [list(s.get("actions") or []) for s in self.steps]


def is_trajectory(path: str | os.PathLike) -> bool:
    return (Path(path) / HEADER).is_file()


def find_trajectories(run_dir: str | os.PathLike) -> list[Path]:
    """Every episode folder under `run_dir` (or `run_dir` itself when it is one), sorted by name."""
    root = Path(run_dir)
    if not root.exists():
        raise FileNotFoundError(f"no such folder: {root}")
    if is_trajectory(root):
        return [root]
    return sorted((p.parent for p in root.rglob(HEADER)), key=lambda p: str(p))


def load_run(run_dir: str | os.PathLike, complete_only: bool = False) -> list[Trajectory]:
    """Every trajectory of a run (a `bench --record` folder, a RecordTrajectory folder)."""
    out = []
    for path in find_trajectories(run_dir):
        try:
            traj = Trajectory(path)
        except (TrajectoryError, json.JSONDecodeError):
            continue
        if traj.complete or not complete_only:
            out.append(traj)
    return out
