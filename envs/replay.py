"""Replay: play a recorded episode again in a fresh env and say whether it comes out the same.

    from hybridgym.replay import replay
    result = replay("runs/bench/browser.todo-add-v0__oracle__seed0")
    result.agree, result.reasons          # True, []  (or False and what differed)
    print(result)                         # one line

    hybridgym replay runs/bench            # every episode under the folder; exit 0 if all agree

The env is `gym.make(header["env_id"], **header["env_kwargs"])` (or one given), reset with the recorded seed
and task; then each recorded step is sent again:

    mode "parsed"  the actions the env parsed at the time (`steps[i]["actions"]`: dicts, absolute pixels),
                   read with the "dict" schema; a step that parsed to nothing is sent as [] (refused again,
                   and it counts as a step, as the original did)
    mode "raw"     what the agent sent (`steps[i]["action"]`), read with the recorded codec
                   (`header["codec"]`: schema, coords, image_size) -- this replays the parsing too

and the replay stops when the env ends. It agrees when, step by step, the reward, terminated and truncated
are the same, the episode ends at the same step with the same success, checker's message, total reward
and score, the instruction after reset is the same (the seed drew the same instance), and -- in a suite of
`DETERMINISTIC_SUITES` -- every screenshot is pixel-identical. Action errors, SDK outputs and, elsewhere,
screenshots are compared and their differences reported in `notes`, not counted against agreement.

The places an episode has from its env's process -- the jail's workspace folder (`<pid>-<slot>` in its
path: the desktop's save dialogs show it and the computer oracles type it) and the web server's port --
are not the same in the replay's env: where what the agent sent names the recording's, the replay's is
sent (`_Rebase`; listed in `notes`).

Which suites replay pixel-identical frames, measured (`hybridgym replay RUN` on a run of 36 episodes:
oracle, random and adversary, seeds 0 and 1, one task per suite and two on the computer, replayed in a
new process, three times: twice parsed, once raw): game 128 of 128 frames equal every time (a virtual
clock); mobile 114-115 of 117 (a phone observation had caught typing half drawn); computer 107-110 of
139 (a save dialog drawn one step later; the file dialog's "Modified" column shows the wall clock);
browser 0-2 of 49 and MiniWoB 0 of 45-46 (the address bar shows the web server's port, new in every
process; MiniWoB's side panel shows the env's earlier episodes and their rewards). So only the game suite
is in DETERMINISTIC_SUITES. Episodes that agree: 35, 36 and 36 of 36; the one disagreement is real:
MiniWoB's check that the browser left the task's page (the adversary's `data:` page) saw the page load
one step earlier than in the recording.

Everything in a trajectory is data from a possibly hostile agent: it is sent to `env.step` (which is
where the agent's actions went the first time) and shown only through `shown` (bounded, escaped); the env
id must be a registered hybridgym id, so a trajectory cannot make `gym.make` import a module of its own.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import sys
import time
from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from .actions.model import shown
from .sandbox.jail import JAIL_ROOT
from .trajectory import Trajectory, TrajectoryError, find_trajectories

MODES = ("parsed", "raw")
#: suites whose frames are pixel-identical on replay (measured; see the module's docstring): there a
#: frame that differs makes the replay disagree, elsewhere frame equality is reported only
DETERMINISTIC_SUITES = frozenset({"game"})
#: per kind of difference, how many steps a reason or note names before "..."
SHOWN_STEPS = 5
_ENV_ID = re.compile(r"hybridgym/[A-Za-z0-9._-]+")
#: how the places of an env's process look in what an agent sent (see `_Rebase`)
_PLACES = {"workspace": re.compile(rf"(?:{re.escape(str(JAIL_ROOT))}|/tmp/hybridgym-jails(?:-[0-9]+)?)"
                                  r"/[0-9]+-[0-9]+/home"),
           "web_origin": re.compile(r"http://127\.0\.0\.1:[0-9]+")}


class ReplayInputError(ValueError):
    """A trajectory that cannot be replayed as it is: no readable header, an env id that is not a hybridgym
    id, arguments the env refuses, an unknown task. The message says which and what was found."""


@dataclasses.dataclass
class ReplayResult:
    """How a replay of one trajectory compared with its recording.

    agree: the replay came out the same (see the module's docstring for what counts); reasons: what
    disagreed, one line each; notes: differences reported that do not count (action errors, SDK outputs,
    frames of a suite outside DETERMINISTIC_SUITES). complete: the recording had ended (result.json);
    ended: the replay's env ended. first_frame_difference: (frame index, fraction of pixels that differ)
    of the first frame that differs (0: after reset, k: after step k), or None."""
    path: str
    task_id: str | None
    seed: int | None
    mode: str
    agree: bool
    reasons: list[str]
    notes: list[str]
    complete: bool
    ended: bool
    steps_recorded: int
    steps_replayed: int
    success_recorded: bool | None
    success_replayed: bool | None
    reward_recorded: float
    reward_replayed: float
    frames_compared: int
    frames_equal: int
    first_frame_difference: tuple[int, float] | None
    suite: str | None = None
    seconds: float = 0.0

    def to_dict(self) -> dict:
        out = dataclasses.asdict(self)
        out["first_frame_difference"] = list(self.first_frame_difference) if self.first_frame_difference else None
        return out

    def __str__(self) -> str:
        verdict = "AGREE" if self.agree else ("INCOMPLETE" if not self.complete else "DISAGREE")
        frames = f"frames {self.frames_equal}/{self.frames_compared} equal" if self.frames_compared else "frames -"
        if self.first_frame_difference:
            index, fraction = self.first_frame_difference
            frames += f" (first difference: frame {index}, {fraction:.2%} of pixels)"
        line = (f"{verdict:10s} {printable(Path(self.path).name)} [{self.mode}]: steps {self.steps_replayed}/"
                f"{self.steps_recorded}, success {self.success_replayed}/{self.success_recorded}, reward "
                f"{self.reward_replayed:g}/{self.reward_recorded:g}, {frames}, {self.seconds:.1f} s")
        return line + ("" if self.agree else " -- " + "; ".join(self.reasons))


# -- the replay ------------------------------------------------------------------------------------------------
def replay(traj: Trajectory | str | Path, *, mode: str = "parsed", env: gym.Env | None = None,
           compare_frames: bool | None = None) -> ReplayResult:
    """Play `traj` (a Trajectory or its folder) again and compare it with its recording.

    mode: "parsed" (send the actions the env parsed) or "raw" (send what the agent sent, read with the
        recorded codec). env: an env of the trajectory's suite to play in (reused, not closed; its action
        format is put back afterwards); None: a fresh one from the header, closed at the end.
    compare_frames: None (compare; frames must be equal to agree in DETERMINISTIC_SUITES only), True
        (frames must be equal to agree in any suite) or False (frames are not read).
    Raises ReplayInputError for a trajectory that cannot be replayed; what the env raises (a task's set-up
    failing at reset) passes through. A failure the env reports in a step's info is compared as any other."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {list(MODES)}, got {mode!r}")
    traj = _open(traj)
    header = traj.header
    _env_spec(header)
    own = env is None
    t0 = time.perf_counter()
    if own:
        env = make_env(traj)
    base = env.unwrapped
    saved_codec = getattr(base, "codec", None)
    try:
        if header.get("suite") is not None and getattr(base, "suite", None) != header.get("suite"):
            raise ReplayInputError(f"{traj.path} is an episode of the {shown(header.get('suite'))} suite; the env "
                                   f"given is of the {shown(getattr(base, 'suite', None))} suite")
        _set_codec(base, header, mode, traj.path)
        return _play(traj, env, mode, compare_frames, t0)
    finally:
        if own:
            env.close()
        elif saved_codec is not None:
            base.codec = saved_codec


def make_env(traj: Trajectory) -> gym.Env:
    """A fresh env as the trajectory's was made: `gym.make(header["env_id"], **header["env_kwargs"])`, the id
    checked first (`_env_spec`)."""
    env_id, kwargs = _env_spec(traj.header)
    try:
        return gym.make(env_id, **kwargs)
    except (TypeError, ValueError, gym.error.Error) as e:
        raise ReplayInputError(f"{traj.path}: gym.make({env_id!r}, ...) refused the recorded env arguments "
                               f"{shown(kwargs)}: {e}") from None


def _open(traj: Trajectory | str | Path) -> Trajectory:
    """The trajectory, read and checked to have the shape of one: a header, steps and a result that are
    JSON objects."""
    if not isinstance(traj, Trajectory):
        try:
            traj = Trajectory(traj)
        except (TrajectoryError, ValueError, RecursionError, OSError, AttributeError) as e:
            # (a JSONDecodeError is a ValueError; an AttributeError, a header that is not an object)
            raise ReplayInputError(f"{traj}: cannot read the trajectory: {type(e).__name__}: {e}") from None
    if not all(isinstance(s, dict) for s in traj.steps) or not isinstance(traj.result, (dict, type(None))):
        raise ReplayInputError(f"{traj.path}: every line of steps.jsonl and result.json must be a JSON object")
    return traj


def _env_spec(header: Mapping) -> tuple[str, dict]:
    """The recorded env id and keyword arguments, checked: a registered hybridgym id (never a "module:Env"
    that gym.make would import) and a dict of arguments."""
    env_id, kwargs = header.get("env_id"), header.get("env_kwargs") or {}
    if not isinstance(env_id, str) or not _ENV_ID.fullmatch(env_id) or env_id not in gym.registry:
        raise ReplayInputError(f"episode {shown(header.get('episode'))}: env_id {shown(env_id)} is not a "
                               f"registered hybridgym env id (hybridgym/<task id>; `hybridgym list` lists them)")
    if not isinstance(kwargs, dict) or not all(isinstance(k, str) for k in kwargs):
        raise ReplayInputError(f"episode {shown(header.get('episode'))}: env_kwargs must be an object of "
                               f"named arguments, got {shown(kwargs)}")
    return env_id, dict(kwargs)


def _set_codec(base, header: Mapping, mode: str, path: Path) -> None:
    if mode == "parsed":
        base.set_action_format("dict")
        return
    codec = header.get("codec") or {}
    if not isinstance(codec, Mapping):
        raise ReplayInputError(f"{path}: the header's codec must be an object, got {shown(codec)}")
    image_size = codec.get("image_size")
    try:
        base.set_action_format(codec.get("schema") or "auto", codec.get("coords"),
                               tuple(image_size) if image_size is not None else None)
    except (TypeError, ValueError, KeyError) as e:
        raise ReplayInputError(f"{path}: the recorded codec {shown(dict(codec))} cannot be set: {e}") from None


def _to_send(step: Mapping, mode: str) -> Any:
    if mode == "raw":
        return step.get("action")
    actions = step.get("actions")
    return [] if actions is None else actions


class _Rebase:
    """The places an episode has that belong to its env's process, not to its task: the jail's workspace
    folder (`<JAIL_ROOT>/<pid>-<slot>/home`) and the task's web server (a free port). An agent that typed
    one (a save dialog's path, a URL) named the recording's; the replay sends the replay env's instead, and
    compares recorded texts (messages, SDK outputs, errors) the same way. The recorded places are the
    header's "workspace" and "web_origin" when it has them, else the first found in what the agent sent."""

    def __init__(self, header: Mapping, steps: list[dict], base: Any):
        sandbox = getattr(base, "sandbox", None)
        workspace, server = getattr(sandbox, "workspace", None), getattr(sandbox, "server", None)
        now = {"workspace": str(workspace.root) if workspace is not None else None,
               "web_origin": server.origin if server is not None else None}
        try:
            sent = json.dumps([[s.get("action"), s.get("actions")] for s in steps], ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):
            sent = ""
        self.pairs: list[tuple[str, str, str]] = []     # (what, recorded, replayed)
        for what, pattern in _PLACES.items():
            found = pattern.search(sent)
            was = header.get(what) if isinstance(header.get(what), str) else (found and found.group(0))
            if was and now[what] and was != now[what]:
                self.pairs.append((what, was, now[what]))
        self._subs = [(re.compile(re.escape(was) + r"(?![0-9])"), now) for _, was, now in self.pairs]

    def __call__(self, value: Any, depth: int = 0) -> Any:
        if not self._subs or depth > 100:
            return value
        if isinstance(value, str):
            for pattern, now in self._subs:
                value = pattern.sub(lambda _m, now=now: now, value)
            return value
        if isinstance(value, list):
            return [self(v, depth + 1) for v in value]
        if isinstance(value, dict):
            return {k: self(v, depth + 1) for k, v in value.items()}
        return value

    def notes(self) -> list[str]:
        return [f"sent the replay's {what} {shown(now)} where the recording's {shown(was)} was named "
                f"(a place of the env's process, not of the task)" for what, was, now in self.pairs]


class _Frames:
    """The recorded frames, read once per file (a step whose screen did not change names the earlier one).
    A frame named outside the trajectory's folder, missing or not an image is None (and counted)."""

    def __init__(self, traj: Trajectory):
        self.traj = traj
        self.root = traj.path.resolve()
        self.unreadable = 0
        self._path: Path | None = None
        self._frame: np.ndarray | None = None

    def get(self, index: int) -> np.ndarray | None:
        try:
            path = self.traj.frame_path(index)
            if path is None:
                return None
            path = path.resolve()
            if not path.is_relative_to(self.root) or not path.is_file():   # not a FIFO, not a file elsewhere
                raise FileNotFoundError(path)
            if path != self._path:
                self._frame, self._path = self.traj.frame(index), path
            return self._frame
        except Exception:    # an image PIL refuses (a decompression bomb, a truncated PNG) is unreadable too
            self.unreadable += 1
            return None


def _pixels_differing(a: np.ndarray, b: np.ndarray) -> float:
    """The fraction of pixels where `a` and `b` differ (1.0 for frames of different shapes)."""
    if a.shape != b.shape:
        return 1.0
    differ = a != b
    if differ.ndim == 3:
        differ = differ.any(axis=-1)
    return float(differ.mean())


def _same_number(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)
    except (TypeError, ValueError):
        return a == b


class _FrameCheck:
    """Compares each replayed screenshot with the recorded one (0: after reset, k: after step k)."""

    def __init__(self, traj: Trajectory, enabled: bool):
        self.recorded = _Frames(traj) if enabled else None
        self.compared = self.equal = 0
        self.differing: list[int] = []
        self.first: tuple[int, float] | None = None

    def __call__(self, index: int, obs: Any) -> None:
        want = self.recorded.get(index) if self.recorded is not None else None
        got = obs.get("screenshot") if isinstance(obs, Mapping) else None
        if want is None or got is None:
            return
        got = np.asarray(got)
        self.compared += 1
        if want.shape == got.shape and np.array_equal(want, got):
            self.equal += 1
            return
        self.differing.append(index)
        if self.first is None:
            self.first = (index, round(_pixels_differing(want, got), 6))

    def line(self) -> str | None:
        if not self.differing:
            return None
        return (f"{len(self.differing)} of {self.compared} frames differ (first: frame {self.first[0]}, "
                f"{self.first[1]:.2%} of its pixels)")

    def unread(self) -> list[str]:
        n = self.recorded.unreadable if self.recorded is not None else 0
        return [f"{n} recorded frame(s) missing, unreadable or outside the trajectory's folder: not compared"
                ] if n else []


def _play(traj: Trajectory, env: gym.Env, mode: str, compare_frames: bool | None, t0: float) -> ReplayResult:
    header, steps, result = traj.header, traj.steps, traj.result
    suite = header.get("suite")
    frames = _FrameCheck(traj, compare_frames is not False)
    frames_must_match = compare_frames is True or (compare_frames is None and suite in DETERMINISTIC_SUITES)
    diffs: dict[str, list[tuple[int, Any, Any]]] = defaultdict(list)   # kind -> [(step, recorded, replayed)]
    reasons: list[str] = []
    seed = header.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ReplayInputError(f"{traj.path}: the seed must be an integer, got {shown(seed)}")
    try:
        obs, info = env.reset(seed=seed, options={"task": header.get("task_id")})
    except ValueError as e:    # an unknown task, a task of another suite
        raise ReplayInputError(f"{traj.path}: reset refused task {shown(header.get('task_id'))}: {e}") from None
    rebase = _Rebase(header, steps, env.unwrapped)
    if isinstance(obs, Mapping) and obs.get("instruction", "") != rebase(header.get("instruction", "")):
        reasons.append(f"the instruction after reset differs (recorded {shown(header.get('instruction'))}, "
                       f"replayed {shown(obs.get('instruction'))}): the seed drew another instance")
    frames(0, obs)
    total, replayed, ended = 0.0, 0, False
    for i, step in enumerate(steps, start=1):
        obs, reward, terminated, truncated, info = env.step(rebase(_to_send(step, mode)))
        replayed, total, ended = i, total + float(reward), bool(terminated or truncated)
        _compare_step(rebase(step), obs, float(reward), terminated, truncated, info, mode, i, diffs)
        frames(i, obs)
        if ended:
            break
    reasons += _compare_end(traj, rebase, ended, replayed, total, info)
    reasons += [_describe(kind, diffs[kind]) for kind in ("reward", "terminated", "truncated", "sandbox error")
                if diffs.get(kind)]
    notes = rebase.notes() + frames.unread()
    notes += [_describe(kind, diffs[kind]) for kind in ("action error", "sdk output") if diffs.get(kind)]
    if frames.line():
        (reasons if frames_must_match else notes).append(frames.line())
    complete = result is not None
    return ReplayResult(
        path=str(traj.path), task_id=header.get("task_id"), seed=seed, mode=mode, agree=not reasons,
        reasons=reasons, notes=notes, complete=complete, ended=ended, steps_recorded=len(steps),
        steps_replayed=replayed, success_recorded=bool(result.get("success")) if complete else None,
        success_replayed=bool(info.get("success")) if ended else None,
        reward_recorded=round(_recorded_reward(traj), 6), reward_replayed=round(total, 6),
        frames_compared=frames.compared, frames_equal=frames.equal, first_frame_difference=frames.first,
        suite=suite, seconds=round(time.perf_counter() - t0, 3))


def _recorded_reward(traj: Trajectory) -> float:
    if traj.result is not None:
        return float(traj.result.get("reward") or 0.0)
    return float(sum(float(s.get("reward") or 0.0) for s in traj.steps))


def _compare_end(traj: Trajectory, rebase: _Rebase, ended: bool, replayed: int, total: float,
                 info: Mapping) -> list[str]:
    """What differs at the episode's end: when it ended, success, the checker's message, score, total reward."""
    result, n = traj.result, len(traj.steps)
    reasons = []
    if result is None:
        reasons.append(f"the recording did not end (no result.json after {n} steps): there is no outcome to "
                       f"compare; its steps were replayed")
    elif result.get("steps") not in (None, n):
        reasons.append(f"result.json counts {shown(result.get('steps'))} steps, steps.jsonl holds {n}")
    if ended and replayed < n:
        reasons.append(f"the replay ended at step {replayed}, the recording went on to step {n}")
    elif result is not None and not ended:
        reasons.append(f"the recording ended after step {n}; the replay had not ended then")
    if result is None or not ended:
        return reasons
    success = bool(info.get("success"))
    if bool(result.get("success")) != success:
        reasons.append(f"success: recorded {bool(result.get('success'))}, replayed {success}")
    if rebase(result.get("message") or "") != (info.get("message") or ""):
        reasons.append(f"the checker's message: recorded {shown(result.get('message'))}, "
                       f"replayed {shown(info.get('message'))}")
    if not _same_number(result.get("score"), info.get("score")):
        reasons.append(f"score: recorded {shown(result.get('score'))}, replayed {shown(info.get('score'))}")
    if not math.isclose(_recorded_reward(traj), total, rel_tol=1e-9, abs_tol=1e-6):
        reasons.append(f"total reward: recorded {_recorded_reward(traj):g}, replayed {total:g}")
    return reasons


def _compare_step(step: Mapping, obs: Any, reward: float, terminated: bool, truncated: bool, info: Mapping,
                  mode: str, i: int, diffs: dict) -> None:
    """One step's differences, by kind. Reward, terminated, truncated and a sandbox failure count against
    agreement; action errors and SDK outputs are reported only. A step replayed as [] in parsed mode is
    refused with another message than the original one: only whether it was refused is compared."""
    if not _same_number(step.get("reward"), reward):
        diffs["reward"].append((i, step.get("reward"), reward))
    for key, value in (("terminated", terminated), ("truncated", truncated)):
        if bool(step.get(key)) != bool(value):
            diffs[key].append((i, bool(step.get(key)), bool(value)))
    if bool(step.get("error")) != bool(info.get("error")):
        diffs["sandbox error"].append((i, step.get("error"), info.get("error")))
    was, now = step.get("action_error"), info.get("action_error")
    sent_nothing = mode == "parsed" and not step.get("actions")
    if (bool(was) != bool(now)) if sent_nothing else ((was or None) != (now or None)):
        diffs["action error"].append((i, was, now))
    sdk_now = obs.get("sdk_output", "") if isinstance(obs, Mapping) else ""
    if (step.get("sdk_output") or "") != (sdk_now or ""):
        diffs["sdk output"].append((i, step.get("sdk_output"), sdk_now))


def _describe(kind: str, found: list[tuple[int, Any, Any]]) -> str:
    """One line for a kind of per-step difference: the steps, and the first one's two values."""
    at = ", ".join(str(i) for i, _, _ in found[:SHOWN_STEPS]) + (", ..." if len(found) > SHOWN_STEPS else "")
    step, was, now = found[0]
    return (f"{kind} differs at {len(found)} step{'s' if len(found) > 1 else ''} ({at}); step {step}: "
            f"recorded {shown(was)}, replayed {shown(now)}")


def printable(text: str) -> str:
    """`text` with every character a terminal would act on (controls, bidi overrides) escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# -- the command ---------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    """`hybridgym replay TRAJ [TRAJ ...] [--mode parsed|raw] [--json]`: one line per episode and a total; exit 0
    if every episode agrees, 1 if one does not (or did not end, or its env failed), 2 on input that is not a
    trajectory that can be replayed (the others are replayed all the same)."""
    p = argparse.ArgumentParser(prog="hybridgym replay", description=__doc__.split("\n\n")[0],
                                epilog="exit status: 0 all agree, 1 some disagree, 2 bad input")
    p.add_argument("traj", nargs="+", metavar="TRAJ", help="an episode folder, or a run folder (every episode in it)")
    p.add_argument("--mode", choices=MODES, default="parsed",
                   help="parsed: send the actions the env parsed (default); raw: what the agent sent, read again "
                        "with the recorded codec")
    p.add_argument("--json", action="store_true", help="one JSON object per episode, then one for the total")
    args = p.parse_args(argv)
    bad = False
    paths: list[Path] = []
    for given in args.traj:
        try:
            found = find_trajectories(given)
        except (FileNotFoundError, OSError) as e:
            print(f"hybridgym replay: {printable(str(e))}", file=sys.stderr)
            bad = True
            continue
        if not found:
            print(f"hybridgym replay: {printable(given)} holds no trajectory (no episode.json under it)",
                  file=sys.stderr)
            bad = True
        paths.extend(found)
    results: list[ReplayResult] = []
    failed = 0
    env, env_key = None, None
    try:
        for path in paths:
            try:
                traj = _open(path)
                key = json.dumps(_env_spec(traj.header), sort_keys=True)
                if key != env_key:      # consecutive episodes of one env share it
                    if env is not None:
                        env.close()
                    env, env_key = None, None    # (so that a failing make_env leaves nothing to close)
                    env, env_key = make_env(traj), key
                result = replay(traj, mode=args.mode, env=env)
            except ReplayInputError as e:
                print(f"hybridgym replay: {printable(str(e))}", file=sys.stderr)
                bad = True
                continue
            except Exception as e:    # the env failed (a task's set-up, a part of the sandbox): a new one next
                failed += 1
                error = f"{type(e).__name__}: {e}"[:1000]
                print(json.dumps({"path": str(path), "error": error}) if args.json
                      else f"{'ERROR':10s} {printable(path.name)}: the replay failed: {printable(error)}", flush=True)
                if env is not None:
                    env.close()
                env, env_key = None, None
                continue
            results.append(result)
            print(json.dumps(result.to_dict(), ensure_ascii=True) if args.json else str(result), flush=True)
    finally:
        if env is not None:
            env.close()
    total = {**summary(results), "failed": failed}
    print(json.dumps({"total": total}) if args.json else _summary_line(total))
    if bad:
        return 2
    return 0 if results and not failed and all(r.agree for r in results) else 1


def summary(results: list[ReplayResult]) -> dict:
    """Counts over replays: episodes, agree, disagree, not ended, and per suite the episodes and frames
    compared and equal."""
    per_suite: dict[str, dict] = defaultdict(lambda: {"episodes": 0, "agree": 0, "frames_compared": 0,
                                                      "frames_equal": 0, "episodes_all_frames_equal": 0})
    for r in results:
        s = per_suite[str(r.suite)]
        s["episodes"] += 1
        s["agree"] += r.agree
        s["frames_compared"] += r.frames_compared
        s["frames_equal"] += r.frames_equal
        s["episodes_all_frames_equal"] += bool(r.frames_compared) and r.frames_equal == r.frames_compared
    return {"episodes": len(results), "agree": sum(r.agree for r in results),
            "disagree": sum(not r.agree for r in results), "not_ended": sum(not r.complete for r in results),
            "seconds": round(sum(r.seconds for r in results), 1), "suites": dict(sorted(per_suite.items()))}


def _summary_line(total: dict) -> str:
    suites = ", ".join(f"{name} {s['frames_equal']}/{s['frames_compared']}" for name, s in total["suites"].items())
    failed = f", {total['failed']} failed to replay" if total.get("failed") else ""
    return (f"total: {total['episodes']} episodes, {total['agree']} agree, {total['disagree']} disagree "
            f"({total['not_ended']} did not end){failed}, {total['seconds']:.1f} s; frames equal per suite: "
            f"{suites or '-'}")


if __name__ == "__main__":
    sys.exit(main())
