"""The env base shared by the suites: reset, step (parse -> execute -> observe -> check) and close.

A suite env is this class with a suite name: its spec (`hybridgym.suites.SUITE_SPECS`) gives the
screen, the sandbox, the codec's platform and the observer; its docstring is the manual.
"""

from __future__ import annotations

import errno
import re
import sys
import time
from collections import deque
from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import settled
from hybridgym.tasks.base import NOT_ENDED, TASKS, UNAVAILABLE, Episode, Outcome, Task, tasks_of

from .actions import ActionError, Codec
from .actions import model as A
from .sandbox import PathEscapeError, Sandbox
from .observers import Observer, StepReport
from .sandbox.editor import Editor
from .sandbox.ssh import SSHSession, SSHTarget
from .spaces import UnicodeText
from .suites import SUITE_SPECS, Suite
from .trees import TEXT_CAP, Views, parse_modes

MAX_TEXT = 65536
#: a step's time budget (`hybridgym.actions.model.MAX_STEP_SECONDS`): waits count the seconds
#: they ask for, other actions the time they take; once spent, the rest of the step is refused
STEP_SECONDS = A.MAX_STEP_SECONDS
#: the last screenshots an episode's outcome carries for a plugged reward (a judge looks at them)
REWARD_FRAMES = 3
#: characters typed at a time: between two pieces of a long text the budget is checked
TYPE_PIECE_CHARS = 100
#: errno of a failed SDK file call -> what the agent is told (the file system refused its input);
#: other errnos are failures of the sandbox
SDK_FILE_ERRORS = {
    errno.ENOENT: "no such file or folder",
    errno.EEXIST: "a file or folder of that name is in the way",
    errno.ENAMETOOLONG: "a name in the path is too long (at most 255 bytes a name)",
    errno.EISDIR: "it is a folder, not a file",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.ELOOP: "the path goes through too many symbolic links (a symlink loop?)",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.EROFS: "that place is read-only",
    errno.ETXTBSY: "the file is busy (a running program)",
    errno.EBUSY: "the file is busy",
    errno.EINVAL: "the file system refuses that name or operation",
    errno.EFBIG: "the file would be too large",
    errno.ENOSPC: "disk full (no space is left in the workspace)",
    errno.EDQUOT: "disk full (the disk quota is used up)",
    errno.EMFILE: "too many files are open",
    errno.ENFILE: "too many files are open",
}
#: errno of a terminal command that could not start because of the command itself
SDK_COMMAND_ERRORS = {
    errno.E2BIG: f"the command is too long (at most {A.MAX_COMMAND_BYTES} bytes)",
    errno.EMFILE: "too many files are open",
    errno.ENFILE: "too many files are open",
}


class Timings(Mapping):
    """Per-phase wall-clock seconds of a reset or step, in `info["timings"]`.

    A read-only mapping. Two Timings always compare equal: they are measurements of
    the machine, not outcomes of the env, so determinism checks (gymnasium's
    `check_env`, which compares infos of same-seed runs) ignore them.
    """

    __slots__ = ("_d",)

    def __init__(self, **seconds: float):
        self._d = {k: float(v) for k, v in seconds.items()}

    def __getitem__(self, key: str) -> float:
        return self._d[key]

    def __iter__(self):
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Timings)

    __hash__ = None

    def __repr__(self) -> str:
        return "Timings(" + ", ".join(f"{k}={v:.4f}" for k, v in self._d.items()) + ")"

    def to_dict(self) -> dict[str, float]:
        return dict(self._d)


class HybridEnv(gym.Env):
    """Base of the suite envs; see a suite env's docstring for its manual.

    Arguments (all suites):
        task: a task id (e.g. "browser.todo-add-v0"; within the suite also "todo-add" or
            "todo-add-v0"), a Task, or None to sample a task of the suite at each reset (or
            pass `options={"task": id}` to `reset`).
        schema: which model family's output `step` reads: "auto" (the default: tells the
            forms apart) or a schema's name ("seed", "openai", "anthropic", "qwen", "uitars",
            "pyautogui", "dict"; `hybridgym.actions.SCHEMA_NAMES`, docs/action-schemas.md).
        coords: how coordinates in agent text are meant: "relative" (0-1000, UI-TARS
            `<point>`), "absolute" (screenshot pixels) or "smart_resize" (pixels of the
            smart-resized image). None: each schema's own (Seed and UI-TARS text relative,
            Qwen smart_resize, pyautogui code and computer-use JSON absolute). Dict actions
            are always absolute pixels of the screenshot.
        image_size: (width, height) of the screenshot as the agent is sent it, when it resizes
            it: pixel coordinates are then pixels of that image.
        max_steps: overrides the task's step budget. `gym.make(id, max_episode_steps=N)` sets it too: the
            env finds gymnasium's TimeLimit around it at reset and makes N its own budget, so that the
            checker runs at the N-th step (a TimeLimit alone would cut the episode without a check);
            a `max_steps` that disagrees with it is refused.
        render_mode: None or "rgb_array" (returns the last screenshot).
        max_wait_s: the longest a `wait()` sleeps, and a busy page is waited for.
        sdk_host: a `hybridgym.sandbox.ssh.SSHTarget`: the SDK (terminal, read_file,
            write_file) runs on that machine over SSH instead of the local sandbox. At
            reset the task's files are copied to its workspace folder; before the check,
            what the SDK changed there is copied back.
        reward: what the episode earns (`hybridgym.rewards`): None or "checker" (the task's own:
            its checker's reward at the end; a game's score change per step), "binary",
            "partial", "step_cost", "judge", {"name": ..., **options} or a callable of the
            `EpisodeOutcome`. A plugged reward is the last step's reward (earlier steps earn 0);
            the checker still runs: `info["success"]` and `info["check"]` are always its.
        process_reward: a callable `(step_record, outcome_so_far) -> float` called after every
            step; its value is added to the step's reward (`info["process_reward"]`).
        obs_mode: the views the observation carries beside the screenshot (docs/observations.md):
            "screenshot" (the default: only it), "axtree" (the accessibility tree as text: a line per
            node with its role, name, value, states and box in screenshot pixels), "dom" (a pruned DOM
            as text; pages only), "som" (set-of-marks: `som`, the screenshot with numbered boxes on the
            interactive nodes, and `marks`, their list; `click(mark=N)` clicks mark N's centre), or
            several: "axtree+som" or a list. The suite's docstring says which it offers. The nodes
            themselves are in `info["views"]`.
        obs_text_cap: the longest text of a view (characters; default 30,000): a larger tree is cut,
            its last line saying how many nodes were left out.
        Suite options (the spec's `options`) go to the suite's observer.
    """

    metadata: ClassVar[dict] = {"render_modes": ["rgb_array"], "render_fps": 4}
    suite: ClassVar[str] = ""

    def __init__(self, task: str | Task | None = None, *, schema: str = "auto", coords: str | None = None,
                 image_size: tuple[int, int] | None = None, max_steps: int | None = None, render_mode: str | None = None,
                 max_wait_s: float = 10.0, sdk_host: SSHTarget | None = None, reward: Any = None,
                 process_reward: Any = None, obs_mode: Any = "screenshot", obs_text_cap: int = TEXT_CAP,
                 **options: Any):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        spec = self.spec_of_suite()
        unknown = sorted(set(options) - set(spec.options))
        if unknown:
            raise TypeError(f"{type(self).__name__} got unknown arguments {unknown}; its suite options are "
                            f"{list(spec.options)}")
        self.render_mode = render_mode
        self.fixed_task: Task | None = self._lookup(task) if task is not None else None
        if self.fixed_task is None and not tasks_of(self.suite):
            raise ValueError(f"suite {self.suite!r} has no tasks" + _why_missing(self.suite))
        self._max_steps_override = max_steps
        self._time_limit: int | None = None   # gymnasium's TimeLimit around the env (`_time_limit_around`)
        w, h = self.screen_size = spec.screen
        self.codec = Codec(screen=(w, h), coords=coords, platform=spec.platform, schema=schema,
                           image_size=image_size)
        self.views = Views(parse_modes(obs_mode, spec.views, self.suite), (w, h), obs_text_cap)
        self.observer: Observer = spec.observer(max_wait_s=max_wait_s, **options)
        self.metadata = {**type(self).metadata, "render_fps": self.render_fps(self.fixed_task)}
        self.observation_space = spaces.Dict({
            "screenshot": spaces.Box(0, 255, (h, w, 3), np.uint8),
            "instruction": UnicodeText(4096),
            "sdk_output": UnicodeText(MAX_TEXT),
            "action_error": UnicodeText(4096),
            **self.views.spaces(),
        })
        self.action_space = UnicodeText(MAX_TEXT)
        self.sandbox: Sandbox | None = None
        self.episode: Episode | None = None
        self._steps = 0
        self._done = True
        self._score = 0.0
        self.invalid_actions = 0
        self.start_s: float | None = None
        if sdk_host is not None and not isinstance(sdk_host, SSHTarget):
            raise TypeError(f"sdk_host must be a hybridgym.sandbox.ssh.SSHTarget, got {type(sdk_host).__name__}")
        self._sdk_host = sdk_host
        self.remote: SSHSession | None = None
        self._uploaded: dict[str, bytes] = {}
        self._editor = Editor()   # the SDK's str_replace_editor; its undo history is the episode's
        from .rewards import make_reward
        self.reward_fn = make_reward(reward)
        if process_reward is not None and not callable(process_reward):
            raise TypeError(f"process_reward must be a callable (step_record, outcome) -> float, got "
                            f"{type(process_reward).__name__}")
        self.process_reward = process_reward
        self._history: list = []          # the episode's StepRecords (for plugged rewards)
        self._last_frames: deque = deque(maxlen=REWARD_FRAMES)

    def set_action_format(self, schema: str = "auto", coords: str | None = None,
                          image_size: tuple[int, int] | None = None) -> None:
        """Read the agent's output from now on in `schema`, with `coords` and `image_size` (as the
        arguments of the same names): a model-backed agent sets what its model writes."""
        marks = dict(self.codec.marks)
        self.codec = Codec(screen=self.screen_size, coords=coords, platform=self.codec.platform, schema=schema,
                           image_size=image_size)
        self.codec.set_marks(marks)

    def sandbox_options(self) -> dict:
        """Keyword arguments of the env's `Sandbox` besides the screen size: the suite's."""
        return dict(self.spec_of_suite().sandbox)

    def render_fps(self, task: Task | None) -> float:
        """Frames per second of `render()` frames, as a video of the episode plays them
        (`metadata["render_fps"]`, which gymnasium's RecordVideo reads): the suite's."""
        return self.spec_of_suite().render_fps

    @classmethod
    def spec_of_suite(cls) -> Suite:
        """The suite's spec (screen, sandbox, platform, observer)."""
        return SUITE_SPECS[cls.suite]

    # -- lifecycle -----------------------------------------------------------
    def _lookup(self, task: str | Task) -> Task:
        if isinstance(task, Task):
            found = task
        else:
            name = task.split("/", 1)[-1]
            candidates = [name, f"{self.suite}.{name}"]
            candidates += [c + "-v0" for c in candidates if not re.search(r"-v\d+$", c)]
            found = next((TASKS[c] for c in candidates if c in TASKS), None)
            if found is None:
                raise ValueError(f"unknown task {task!r}{_why_missing(*candidates, self.suite)}; "
                                 f"`hybridgym list --suite {self.suite}` shows the tasks of the suite")
        if found.suite != self.suite:
            raise ValueError(f"task {found.id} belongs to the {found.suite} suite, not {self.suite}")
        return found

    def start(self) -> None:
        """Start the sandbox now (otherwise the first reset does)."""
        if self.sandbox is None:
            t = time.perf_counter()
            spec = self.spec_of_suite()
            self.sandbox = Sandbox(*spec.screen, **self.sandbox_options()).start()
            self.observer.bind(self.sandbox)
            self.start_s = time.perf_counter() - t
        if self._sdk_host is not None and self.remote is None:
            self.remote = SSHSession(self._sdk_host, timeout=self.sandbox.shell.timeout)

    def close(self) -> None:
        closer = getattr(self.reward_fn, "close", None)   # a judge's HTTP client
        if callable(closer):
            closer()
        parts, self.remote, self.sandbox = (self.remote, self.sandbox), None, None
        for part in parts:
            if part is not None:
                part.close()
        self._done = True

    # -- reset ---------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        t0 = time.perf_counter()
        self._time_limit = _time_limit_around(self)
        options = dict(options or {})
        # a part known dead: start over. A part that died unnoticed (no round trip is made
        # here) makes the set-up below fail: then the sandbox is checked and restarted.
        if self.sandbox is not None and self.sandbox.health(deep=False) is not None:
            self.close()
        self.start()
        ep_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**31 - 1))
        if "task" in options:
            task = self._lookup(options.pop("task"))
        elif self.fixed_task is not None:
            task = self.fixed_task
        else:
            pool = sorted(tasks_of(self.suite), key=lambda t: t.id)
            task = pool[int(self.np_random.integers(len(pool)))]
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}; accepted: ['task']")
        try:
            params, setup_s, baseline, start = self._begin(task, ep_seed)
        except Exception:
            if self.sandbox is None or self.sandbox.health() is None:
                raise   # the sandbox is alive: the task's own error
            self.close()   # a part had died: start over once
            self.start()
            params, setup_s, baseline, start = self._begin(task, ep_seed)
        self.episode = Episode(task, ep_seed, params, task.instruction(params), baseline, start)
        self.metadata["render_fps"] = self.render_fps(task)
        self._steps, self._done, self.invalid_actions = 0, False, 0
        self._history, self._last_frames = [], deque(maxlen=REWARD_FRAMES)
        self._score = task.score(self.sandbox) if task.reward_mode == "score" else 0.0
        t_obs = time.perf_counter()
        self.observer.first(self.sandbox, task)
        t_views = time.perf_counter()
        self._read_views(True)
        info = {"task_id": task.id, "suite": self.suite, "seed": ep_seed, "success": False,
                "max_steps": self.max_steps, "sdk": task.sdk,
                "timings": Timings(setup_s=setup_s, observe_s=t_views - t_obs, views_s=time.perf_counter() - t_views,
                                   reset_s=time.perf_counter() - t0)}
        if self.views.modes:
            info["views"] = self.views.info()
        return self._obs("", ""), info

    def _begin(self, task: Task, ep_seed: int) -> tuple[dict, float, dict, CheckResult]:
        """Set up an episode of `task` in the sandbox: (params, set-up seconds, baseline state, its check)."""
        params = task.draw(ep_seed)
        sb = self.sandbox
        sb.input.release_all()                   # keys and buttons the agent left held
        escape = sb.dismiss_browser_dialogs()    # the agent's dialogs and menus end with its episode
        sb.kill_apps()
        sb.workspace.clear()
        self._editor.reset()
        if sb.server is not None:
            sb.server.reset()
        park = (sb.width - 1, sb.height - 1)   # a fixed pointer position: no stray hover
        if sb.input.pointer != park:   # (the X pointer moves only through sb.input)
            sb.input.move(*park)
            sb.input.sync()
        if task.waits_for_escape:   # in the set-up's own first round trip
            sb.unseen_escape = escape
        else:
            sb.unseen_escape = None
            sb.dialogs_dismissed(escape)
        sb.shell.network = task.sdk_network
        t_setup = time.perf_counter()
        self.observer.before_setup(sb, task)
        baseline = task.setup(sb, params)
        sb.give_workspace()   # the task's files are the agent's to change
        if self.remote is not None and task.sdk:   # the SDK's workspace is the remote one: copy the task's files
            self.remote.clear()
            self._uploaded = sb.workspace.snapshot()
            self.remote.upload(self._uploaded)
        setup_s = time.perf_counter() - t_setup
        if baseline is None:
            baseline = task.read_state(sb, params)
        initial = task.check(baseline, params, NOT_ENDED, baseline)
        if initial.success:
            raise RuntimeError(f"task {task.id} (seed {ep_seed}) passes in its untouched state: {initial.message}")
        return params, setup_s, baseline, initial

    @property
    def max_steps(self) -> int:
        """The episode's step budget: `max_steps=`, else a TimeLimit's around the env, else the task's."""
        if self._max_steps_override is not None:
            return self._max_steps_override
        if self._time_limit is not None:
            return self._time_limit
        return self.episode.task.max_steps if self.episode else 0

    # -- step ----------------------------------------------------------------
    def step(self, action: Any):
        if self.episode is None or self.sandbox is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode has ended; call reset()")
        t0 = time.perf_counter()
        task, sb = self.episode.task, self.sandbox
        # parse
        errors: list[str] = []
        try:
            actions = self.codec.parse(action)
        except ActionError as e:
            actions, errors = [], [str(e)]
        t_parse = time.perf_counter()
        # execute
        self.observer.before_input(sb)
        outcome, outputs, sandbox_error = self._execute(actions, errors)
        if errors:
            self.invalid_actions += 1
        t_act = time.perf_counter()
        # observe
        report: StepReport | None = None
        if sandbox_error is None:
            try:
                report = self.observer.step(sb, task, actions)
            except Exception as e:
                sandbox_error = f"{type(e).__name__}: {e}"
        dead = self._health(report)
        if dead is not None:
            sandbox_error = f"{dead}" + (f" ({sandbox_error})" if sandbox_error else "")
        t_obs = time.perf_counter()
        self._read_views(sandbox_error is None)
        t_views = time.perf_counter()
        self._steps += 1
        # check
        reward, result, state = 0.0, None, None
        terminated = truncated = False
        if sandbox_error is None:
            score, ended = task.progress(sb, report.probed)
            if task.reward_mode == "score":
                reward, self._score = score - self._score, score
            if outcome.finished or ended or self._steps >= self.max_steps:
                result, state = self._evaluate(outcome)
                terminated = outcome.finished or ended
                truncated = not terminated
                if task.reward_mode == "final":
                    reward = result.reward
        else:
            truncated = True
        self._done = terminated or truncated
        task_reward = float(reward)
        plugged = self._plugged_rewards(actions, errors, outputs, task_reward, terminated, truncated, outcome,
                                        sandbox_error, result, state, report)
        if plugged is not None:
            reward, reward_info = plugged
        info = {
            "task_id": task.id, "suite": self.suite, "seed": self.episode.seed, "step": self._steps,
            "success": bool(result.success) if result else False,
            "message": result.message if result else "",
            "action_error": "; ".join(errors) or None,
            "invalid_actions": self.invalid_actions,
            "actions": [a.to_dict() for a in actions],
            "answer": outcome.answer, "call_user": outcome.called_user,
            "timings": Timings(parse_s=t_parse - t0, act_s=t_act - t_parse, observe_s=t_obs - t_act,
                               views_s=t_views - t_obs, check_s=time.perf_counter() - t_views,
                               step_s=time.perf_counter() - t0),
        }
        if self.views.modes:
            info["views"] = self.views.info()
        if sandbox_error is not None:
            info["error"] = sandbox_error
        if task.reward_mode == "score":
            info["score"] = self._score
        if result is not None:
            info["check"] = _check_dict(result)
        if self.reward_fn is not None or self.process_reward is not None:
            info["task_reward"] = task_reward
            info.update(reward_info)
        obs = self._obs("\n".join(outputs), info["action_error"] or "")
        return obs, float(reward), terminated, truncated, info

    def _execute(self, actions: list[A.Action], errors: list[str]) -> tuple[Outcome, list[str], str | None]:
        """Perform the step's actions in order, up to the one that ends the episode: (how the
        agent ended it, the SDK's outputs, what part of the sandbox failed or None). A refused
        action adds its reason to `errors` and the next one is performed.

        The step has a time budget of STEP_SECONDS: a wait counts the seconds it asks for
        (cut to what is left), any other action the time it takes (long text is typed in
        pieces, the budget checked between them). Once it is spent, the remaining actions
        are refused with one error."""
        outputs: list[str] = []
        spent = 0.0
        for i, act in enumerate(actions):
            if spent >= STEP_SECONDS:
                rest = [a.action_type for a in actions[i:]]
                errors.append(f"the step's time budget of {STEP_SECONDS:g} s is spent (waits count the seconds "
                              f"they ask for, other actions the time they take); {len(rest)} remaining "
                              f"action(s) not performed: {', '.join(rest[:5])}{', ...' if len(rest) > 5 else ''}; "
                              f"send them in the next step")
                break
            start = time.monotonic()
            asked = 0.0     # seconds a wait asks for
            try:
                if isinstance(act, (A.Finished, A.CallUser)):
                    return Outcome(act.content, True, isinstance(act, A.CallUser)), outputs, None
                if act.channel == "sdk":
                    outputs.append(self._sdk(act, STEP_SECONDS - spent))
                elif isinstance(act, A.Wait):
                    asked = min(act.seconds, STEP_SECONDS - spent)
                    self.observer.wait(self.sandbox, asked)
                elif isinstance(act, A.TypeText) and len(act.text) > TYPE_PIECE_CHARS:
                    text = act.text
                    for at in range(0, len(text), TYPE_PIECE_CHARS):
                        if spent + time.monotonic() - start >= STEP_SECONDS:
                            raise ActionError(f"type(): the step's time budget of {STEP_SECONDS:g} s ran out "
                                              f"after {at} of {len(text)} characters; type the rest "
                                              f"({text[at:at + 20]!r}...) in the next step")
                        self.sandbox.execute(A.TypeText(text[at:at + TYPE_PIECE_CHARS]))
                else:
                    self.sandbox.execute(act)
            except ActionError as e:
                errors.append(str(e))
            except Exception as e:  # a part of the sandbox failed
                return NOT_ENDED, outputs, f"{type(e).__name__}: {e}"
            finally:
                spent += max(asked, time.monotonic() - start)
        return NOT_ENDED, outputs, None

    def _health(self, report: StepReport | None) -> str | None:
        """None if the sandbox is alive after a step, else what died. An observation whose own
        round trip reached the page stands for the probe of the browser; the display is still checked."""
        if report is not None and report.answered:
            display = self.sandbox.display
            return None if display is not None and display.is_alive() else "the X display died"
        return self.sandbox.health()

    def _evaluate(self, outcome: Outcome) -> tuple[CheckResult, Any]:
        """The checker's result on the final state, and that state."""
        ep = self.episode
        if self.remote is not None and ep.task.sdk:
            self._sync_back()
        state = ep.task.read_state(self.sandbox, ep.params)
        return settled(ep.task.check(state, ep.params, outcome, ep.baseline), ep.start), state

    def _plugged_rewards(self, actions, errors, outputs, task_reward, terminated, truncated, outcome, sandbox_error,
                         result, state, report) -> tuple[float, dict] | None:
        """(the step's reward, what to add to info) when a reward or a process reward is plugged in, else None.
        The step's record joins the episode's history; at the end the reward gets the outcome."""
        if self.reward_fn is None and self.process_reward is None:
            return None
        from .rewards import EpisodeOutcome, StepRecord, value_of
        record = StepRecord(step=self._steps, actions=[a.to_dict() for a in actions],
                            action_error="; ".join(errors) or None, sdk_output="\n".join(outputs),
                            task_reward=task_reward, terminated=terminated, truncated=truncated,
                            answer=outcome.answer, error=sandbox_error)
        self._history.append(record)
        if report is not None and report.frame is not None:
            self._last_frames.append(report.frame)
        ep = self.episode
        so_far = EpisodeOutcome(task_id=ep.task.id, suite=self.suite, seed=ep.seed, instruction=ep.instruction,
                                check=result, state=state, answer=outcome.answer, finished=outcome.finished,
                                called_user=outcome.called_user, truncated=truncated, steps=list(self._history),
                                frames=list(self._last_frames),
                                score=self._score if ep.task.reward_mode == "score" else None,
                                max_steps=self.max_steps, platform=self.codec.platform)
        reward, info = (task_reward, {}) if self.reward_fn is None else (0.0, {})
        if self.reward_fn is not None and (terminated or truncated):
            if result is None:
                info["reward_info"] = {"skipped": "the sandbox failed: no outcome to reward"}
            else:
                reward, info["reward_info"] = value_of(self.reward_fn(so_far))
        if self.process_reward is not None:
            extra, _ = value_of(self.process_reward(record, so_far))
            reward += extra
            info["process_reward"] = extra
        return reward, info

    def _sync_back(self) -> None:
        """Bring what the SDK changed on the remote workspace into the local one (checkers read it):
        files created or changed there since the upload are copied, files deleted there are deleted."""
        now = self.remote.snapshot()
        ws = self.sandbox.workspace
        for rel, data in now.items():
            if self._uploaded.get(rel) != data:
                target = ws.resolve(rel)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        for rel in set(self._uploaded) - set(now):
            ws.resolve(rel).unlink(missing_ok=True)
        self._uploaded = now

    def _sdk(self, act: A.Action, time_left: float = STEP_SECONDS) -> str:
        """Run one SDK action (a command within the shell's time limit and the `time_left` of the
        step's budget); what the agent's input made fail (a path the file system refuses, a full
        disk, a command too long to start) is an ActionError saying so. Other errors are
        failures of the sandbox and propagate."""
        if not self.episode.task.sdk:
            raise ActionError(f"{act.action_type}() is not offered in task {self.episode.task.id}; "
                              "use GUI actions")
        ws = self.remote if self.remote is not None else self.sandbox.workspace
        shell = self.remote if self.remote is not None else self.sandbox.shell
        if isinstance(act, A.Terminal):
            try:
                limit = shell.timeout if time_left >= shell.timeout else max(time_left, 0.1)
                return shell.run(act.command, timeout=limit).render()
            except OSError as e:
                if e.errno not in SDK_COMMAND_ERRORS:
                    raise    # e.g. bubblewrap missing
                raise ActionError(f"terminal(): the command could not start: {SDK_COMMAND_ERRORS[e.errno]}") \
                    from None
            except (UnicodeError, ValueError) as e:   # text the OS cannot take (the codec refuses most)
                raise ActionError(f"terminal(): the command could not start: {e}") from None
        if not isinstance(act, (A.ReadFile, A.WriteFile, A.EditFile)):
            raise ActionError(f"unknown SDK action {act.action_type}")
        call = (f"str_replace_editor({act.command}, {A.shown(act.path)})" if isinstance(act, A.EditFile)
                else f"{act.action_type}({A.shown(act.path)})")
        try:
            if isinstance(act, A.EditFile):
                return self._editor.run(act, ws)
            if isinstance(act, A.ReadFile):
                return ws.read_text(act.path)
            return f"wrote {ws.write_text(act.path, act.content)} bytes to {act.path}"
        except ActionError:     # the editor's own refusals (an ActionError is a ValueError too)
            raise
        except PathEscapeError as e:
            raise ActionError(f"{call}: {e}") from None
        except OSError as e:
            if e.errno is None:    # raised with its own message (e.g. "no file 'a.txt' in the workspace")
                raise ActionError(f"{call}: {e}") from None
            if e.errno not in SDK_FILE_ERRORS:
                raise
            reason = SDK_FILE_ERRORS[e.errno]
            if e.errno in (errno.ENOSPC, errno.EDQUOT):
                limits = getattr(getattr(self.sandbox, "jail", None), "limits", None)   # the local workspace's
                quota = getattr(limits, "disk_bytes", None) if self.remote is None else None
                reason = f"disk full: the workspace quota is {quota} bytes" if quota else reason
                reason += "; delete files or write less"
            raise ActionError(f"{call}: {reason}") from None
        except (UnicodeError, ValueError) as e:
            raise ActionError(f"{call}: the path or content cannot be written: {e}") from None

    # -- observation ---------------------------------------------------------
    @property
    def frame(self) -> np.ndarray | None:
        """The last observation's screenshot."""
        return self.observer.frame

    def _read_views(self, alive: bool) -> None:
        """Read the obs_mode views of the screen just observed (none of a failed sandbox), and give the
        codec this screen's marks: `click(mark=N)` in the next step means what the agent saw."""
        if not self.views.modes:
            return
        if alive:
            self.views.read(self.sandbox)
        else:
            self.views.clear()
            self.views.error = "the sandbox failed this step"
        self.codec.set_marks(self.views.centres())

    def _obs(self, sdk_output: str, error: str) -> dict:
        obs = {"screenshot": self.observer.frame, "instruction": self.episode.instruction[:4096],
               "sdk_output": sdk_output[-MAX_TEXT:], "action_error": error[:4096]}
        if self.views.modes:
            obs.update(self.views.observation(self.observer.frame))
        return obs

    def render(self):
        if self.render_mode == "rgb_array":
            return self.observer.frame
        return None


def _time_limit_around(env: HybridEnv) -> int | None:
    """The `max_episode_steps` of the gymnasium TimeLimit whose reset is calling `env.reset`, if any.

    Gymnasium's TimeLimit (`gym.make(id, max_episode_steps=N)`) counts steps outside the env and cuts the
    episode at the N-th without telling it, so the task's checker would never run. The env finds the
    wrapper on the call stack of its reset (a wrapper's reset calls the next one's) and makes N its own
    budget. A `max_steps=` that disagrees is refused."""
    frame = sys._getframe(2)
    for _ in range(16):
        if frame is None:
            break
        owner = frame.f_locals.get("self")
        if isinstance(owner, gym.wrappers.TimeLimit) and owner.unwrapped is env:
            limit = int(owner._max_episode_steps)
            own = env._max_steps_override
            if own is not None and own != limit:
                raise ValueError(f"max_steps={own} and max_episode_steps={limit} disagree; give one of them "
                                 f"(both are the env's step budget, at the end of which the task's checker runs)")
            return limit
        frame = frame.f_back
    return None


def _check_dict(result: CheckResult) -> dict:
    """The checker's result as plain data (`info["check"]`): success, reward, message, and its conditions and
    partial credit when it reports them."""
    if hasattr(result, "to_dict"):
        return result.to_dict()
    return {"success": bool(result.success), "reward": float(result.reward), "message": result.message}


def _why_missing(*keys: str) -> str:
    """Why a suite or a task is not in the catalogue, when its family said so (`UNAVAILABLE`)."""
    return next((f" ({UNAVAILABLE[k]})" for k in keys if k in UNAVAILABLE), "")
