"""The env base shared by the four suites: reset, step (parse, act, observe, check) and close."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from hybridgym.reward import CheckResult
from hybridgym.tasks import TASKS, Episode, Task, tasks_of

from .actions import ActionError, Codec
from .actions import model as A
from .sandbox import PathEscapeError, Sandbox
from .sandbox.ssh import SSHSession, SSHTarget
from .spaces import UnicodeText

MAX_TEXT = 65536


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
        task: a task id (e.g. "browser.todo-add-v0"), a Task, or None to sample a task
            of the suite at each reset (or pass `options={"task": id}` to `reset`).
        coords: how coordinates in agent text are meant: "relative" (0-1000, UI-TARS
            `<point>`), "absolute" (screenshot pixels) or "smart_resize" (pixels of the
            UI-TARS smart-resized image). None: UI-TARS text relative, pyautogui code
            absolute. Dict actions are always absolute pixels.
        max_steps: overrides the task's step budget.
        render_mode: None or "rgb_array" (returns the last screenshot).
        sdk_host: a `hybridgym.sandbox.ssh.SSHTarget`: the SDK (terminal, read_file,
            write_file) runs on that machine over SSH instead of the local sandbox. At
            reset the task's files are copied to its workspace folder; before the check,
            what the SDK changed there is copied back.
    """

    metadata: ClassVar[dict] = {"render_modes": ["rgb_array"], "render_fps": 4}
    suite: ClassVar[str] = ""
    screen_size: ClassVar[tuple[int, int]] = (1280, 800)
    platform: ClassVar[str] = "computer"

    def __init__(self, task: str | Task | None = None, *, coords: str | None = None,
                 max_steps: int | None = None, render_mode: str | None = None,
                 max_wait_s: float = 10.0, sdk_host: SSHTarget | None = None):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self._fixed_task = self._lookup(task) if task is not None else None
        if self._fixed_task is None and not tasks_of(self.suite):
            raise ValueError(f"suite {self.suite!r} has no tasks")
        self._max_steps_override = max_steps
        self._max_wait = max_wait_s
        w, h = self.screen_size
        self.codec = Codec(screen=(w, h), coords=coords, platform=self.platform)
        self.observation_space = spaces.Dict({
            "screenshot": spaces.Box(0, 255, (h, w, 3), np.uint8),
            "instruction": UnicodeText(4096),
            "sdk_output": UnicodeText(MAX_TEXT),
            "action_error": UnicodeText(4096),
        })
        self.action_space = UnicodeText(MAX_TEXT)
        self.sandbox: Sandbox | None = None
        self.episode: Episode | None = None
        self._frame: np.ndarray | None = None
        self._raw: bytes | None = None
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

    # -- lifecycle -----------------------------------------------------------
    def _lookup(self, task: str | Task) -> Task:
        if isinstance(task, Task):
            found = task
        else:
            name = task.split("/", 1)[-1]
            if name not in TASKS:
                raise ValueError(f"unknown task {task!r}; `hybridgym list` shows the tasks of each suite")
            found = TASKS[name]
        if found.suite != self.suite:
            raise ValueError(f"task {found.id} belongs to the {found.suite} suite, not {self.suite}")
        return found

    def _make_sandbox(self) -> Sandbox:
        raise NotImplementedError

    def start(self) -> None:
        """Start the sandbox now (otherwise the first reset does)."""
        if self.sandbox is None:
            t = time.perf_counter()
            self.sandbox = self._make_sandbox().start()
            self.start_s = time.perf_counter() - t
        if self._sdk_host is not None and self.remote is None:
            self.remote = SSHSession(self._sdk_host, timeout=self.sandbox.shell.timeout)

    def close(self) -> None:
        if self.remote is not None:
            self.remote.close()
            self.remote = None
        if self.sandbox is not None:
            self.sandbox.close()
            self.sandbox = None
        self._done = True

    # -- reset ---------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        t0 = time.perf_counter()
        options = dict(options or {})
        # a part known dead: start over. A part that died unnoticed (no round trip is made
        # here) makes the set-up below fail: then the sandbox is checked and restarted.
        if self.sandbox is not None and self.sandbox.health(deep=False) is not None:
            self.close()
        self.start()
        ep_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**31 - 1))
        if "task" in options:
            task = self._lookup(options.pop("task"))
        elif self._fixed_task is not None:
            task = self._fixed_task
        else:
            pool = sorted(tasks_of(self.suite), key=lambda t: t.id)
            task = pool[int(self.np_random.integers(len(pool)))]
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}; accepted: ['task']")
        try:
            params, setup_s, baseline = self._begin(task, ep_seed)
        except Exception:
            if self.sandbox is None or self.sandbox.health() is None:
                raise   # the sandbox is alive: the task's own error
            self.close()   # a part had died: start over once
            self.start()
            params, setup_s, baseline = self._begin(task, ep_seed)
        self.episode = Episode(task, ep_seed, params, task.instruction(params), baseline)
        self._steps, self._done, self.invalid_actions = 0, False, 0
        self._score = task.score(self.sandbox) if task.reward_mode == "score" else 0.0
        t_obs = time.perf_counter()
        self._observe(first=True)
        info = {"task_id": task.id, "suite": self.suite, "seed": ep_seed, "success": False,
                "max_steps": self.max_steps, "sdk": task.sdk,
                "timings": Timings(setup_s=setup_s, observe_s=time.perf_counter() - t_obs,
                                   reset_s=time.perf_counter() - t0)}
        return self._obs("", ""), info

    def _begin(self, task: Task, ep_seed: int) -> tuple[dict, float, dict]:
        """Set up an episode of `task` in the sandbox: (params, set-up seconds, baseline state)."""
        params = task.sample(np.random.default_rng(ep_seed))
        sb = self.sandbox
        sb.kill_apps()
        sb.workspace.clear()
        if sb.server is not None:
            sb.server.reset()
        park = (sb.width - 1, sb.height - 1)   # a fixed pointer position: no stray hover
        if sb.input.pointer != park:   # (the X pointer moves only through sb.input)
            sb.input.move(*park)
            sb.input.sync()
        t_setup = time.perf_counter()
        task.setup(sb, params)
        self._prepare(task, params)
        if self.remote is not None and task.sdk:   # the SDK's workspace is the remote one: copy the task's files
            self.remote.clear()
            self._uploaded = sb.workspace.snapshot()
            self.remote.upload(self._uploaded)
        setup_s = time.perf_counter() - t_setup
        baseline = task.read_state(sb, params)
        initial = task.check(baseline, params, None, baseline)
        if initial.success:
            raise RuntimeError(f"task {task.id} (seed {ep_seed}) passes in its untouched state: {initial.message}")
        return params, setup_s, baseline

    def _after_actions(self, actions: list[A.Action]) -> None:
        """Suite hook after the step's actions, before the screen is observed (games: the clock)."""

    def _health(self) -> str | None:
        """None if the sandbox is alive after a step, else what died. A step whose own round
        trip reached the page (`_page_answered`) stands for the probe of the browser; the
        display is still checked."""
        if self._page_answered():
            display = self.sandbox.display
            return None if display is not None and display.is_alive() else "the X display died"
        return self.sandbox.health()

    def _page_answered(self) -> bool:
        """Suite hook: whether this step's own round trip to the page succeeded."""
        return False

    def _progress(self, task: Task) -> tuple[float, bool]:
        """The task's running score (for reward_mode "score") and whether it ended by itself."""
        score = task.score(self.sandbox) if task.reward_mode == "score" else 0.0
        return score, task.ended(self.sandbox)

    def _prepare(self, task: Task, params: dict) -> None:
        """Suite hook after the task's setup (e.g. wait for windows)."""

    @property
    def max_steps(self) -> int:
        if self._max_steps_override is not None:
            return self._max_steps_override
        return self.episode.task.max_steps if self.episode else 0

    # -- step ----------------------------------------------------------------
    def step(self, action: Any):
        if self.episode is None or self.sandbox is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode has ended; call reset()")
        t0 = time.perf_counter()
        task, sb = self.episode.task, self.sandbox
        errors: list[str] = []
        outputs: list[str] = []
        answer: str | None = None
        finished = call_user = False
        sandbox_error: str | None = None
        try:
            actions = self.codec.parse(action)
        except ActionError as e:
            actions, errors = [], [str(e)]
        t_parse = time.perf_counter()
        for act in actions:
            try:
                if act.channel == "sdk":
                    outputs.append(self._sdk(act))
                elif isinstance(act, A.Finished):
                    finished, answer = True, act.content
                elif isinstance(act, A.CallUser):
                    finished = call_user = True
                    answer = act.content
                elif isinstance(act, A.Wait):
                    self._wait(act.seconds)
                elif isinstance(act, (A.PressHome, A.PressBack, A.OpenApp)):
                    self._system_action(act)
                else:
                    sb.execute(act)
            except ActionError as e:
                errors.append(str(e))
            except Exception as e:  # a part of the sandbox failed
                sandbox_error = f"{type(e).__name__}: {e}"
                break
            if finished:
                break
        if errors:
            self.invalid_actions += 1
        t_act = time.perf_counter()
        if sandbox_error is None:
            try:
                self._after_actions(actions)
                self._observe()
            except Exception as e:
                sandbox_error = f"{type(e).__name__}: {e}"
        dead = self._health()
        if dead is not None:
            sandbox_error = f"{dead}" + (f" ({sandbox_error})" if sandbox_error else "")
        t_obs = time.perf_counter()
        self._steps += 1

        reward, result = 0.0, None
        terminated = truncated = False
        if sandbox_error is None:
            score, ended = self._progress(task)
            if task.reward_mode == "score":
                reward, self._score = score - self._score, score
            if finished or ended or self._steps >= self.max_steps:
                result = self._evaluate(answer)
                terminated = finished or ended
                truncated = not terminated
                if task.reward_mode == "final":
                    reward = result.reward
        else:
            truncated = True
        self._done = terminated or truncated
        info = {
            "task_id": task.id, "suite": self.suite, "seed": self.episode.seed, "step": self._steps,
            "success": bool(result.success) if result else False,
            "message": result.message if result else "",
            "action_error": "; ".join(errors) or None,
            "invalid_actions": self.invalid_actions,
            "actions": [a.to_dict() for a in actions],
            "answer": answer, "call_user": call_user,
            "timings": Timings(parse_s=t_parse - t0, act_s=t_act - t_parse, observe_s=t_obs - t_act,
                               check_s=time.perf_counter() - t_obs, step_s=time.perf_counter() - t0),
        }
        if sandbox_error is not None:
            info["error"] = sandbox_error
        if task.reward_mode == "score":
            info["score"] = self._score
        obs = self._obs("\n".join(outputs), info["action_error"] or "")
        return obs, float(reward), terminated, truncated, info

    def _evaluate(self, answer: str | None) -> CheckResult:
        ep = self.episode
        if self.remote is not None and ep.task.sdk:
            self._sync_back()
        state = ep.task.read_state(self.sandbox, ep.params)
        return ep.task.check(state, ep.params, answer, ep.baseline)

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

    def _sdk(self, act: A.Action) -> str:
        if not self.episode.task.sdk:
            raise ActionError(f"{act.action_type}() is not offered in task {self.episode.task.id}; "
                              "use GUI actions")
        ws = self.remote if self.remote is not None else self.sandbox.workspace
        shell = self.remote if self.remote is not None else self.sandbox.shell
        try:
            if isinstance(act, A.Terminal):
                return shell.run(act.command).render()
            if isinstance(act, A.ReadFile):
                return ws.read_text(act.path)
            if isinstance(act, A.WriteFile):
                return f"wrote {ws.write_text(act.path, act.content)} bytes to {act.path}"
        except (PathEscapeError, FileNotFoundError, IsADirectoryError, NotADirectoryError) as e:
            raise ActionError(str(e)) from None
        raise ActionError(f"unknown SDK action {act.action_type}")

    def _wait(self, seconds: float) -> None:
        time.sleep(max(0.0, min(float(seconds), self._max_wait)))

    def _system_action(self, act: A.Action) -> None:
        raise ActionError(f"{act.action_type}() is a phone action; this is the {self.suite} suite")

    # -- observation ---------------------------------------------------------
    def _observe(self, first: bool = False) -> None:
        """Wait for the screen to settle after the step's input, then keep the frame.

        After a reset the page (if any) must first have drawn two real frames, and
        the screen must then be quiet for longer than between steps.
        """
        if first:
            if self.sandbox.browser is not None:
                self.sandbox.browser.wait_real_frame()
            self._frame, self._raw, _ = self.sandbox.capture.settle(quiet=0.05, max_wait=1.5)
        else:
            capture, browser = self.sandbox.capture, self.sandbox.browser
            self._frame, self._raw, _ = capture.settle(before=self._raw, max_wait=0.5)
            # a click that started a request or a page load: show its result, not the moment before
            if browser is not None and browser.busy():
                browser.wait_idle(timeout=self._max_wait)
                browser.wait_real_frame()
                self._frame, self._raw, _ = capture.settle(quiet=0.02, max_wait=1.0)

    def _obs(self, sdk_output: str, error: str) -> dict:
        return {"screenshot": self._frame, "instruction": self.episode.instruction[:4096],
                "sdk_output": sdk_output[-MAX_TEXT:], "action_error": error[:4096]}

    def render(self):
        if self.render_mode == "rgb_array":
            return self._frame
        return None

