"""A Model Context Protocol tool server for one hybridgym env (`hybridgym mcp --task ID`).

    hybridgym mcp --task game.snake-v0                                  # stdio (an agent spawns it)
    hybridgym mcp --task browser.todo-add-v0 --transport http --port 8765   # http://127.0.0.1:8765/mcp
    hybridgym mcp --task game.snake-v0 --schema                         # print the tool list (JSON) and exit

The server makes one env with `gym.make("hybridgym/<ID>")` and offers it as MCP tools (built with the
`mcp` SDK's `MCPServer`): `reset` starts an episode and returns the instruction and the screenshot; each
GUI tool (click, type_text, press, ... or tap, swipe, ... on the phone) is one `env.step` of a dict
action and returns the new screenshot (PNG image content) and a short text (reward, whether the episode
ended, the action's error, the SDK's output, the checker's verdict at the end); `finish` ends the
episode through the env's own `finished` action and returns the checker's result; `evaluate` reads the
episode's status without acting. The SDK tools (terminal, read_file, write_file) are listed only when
the task offers the SDK. docs/mcp.md is the manual.

Errors from what the client sends (coordinates off the screen, an unknown key, a step before `reset` or
after the episode ended) are tool errors (`isError`) with a message saying what to do; they never stop
the server. All env calls run on one thread, in order: Playwright and the display are bound to the thread
that started them, and the env is one machine, so calls from several clients are served one at a time.
The env is closed (no Xvfb or Chromium left) when the server exits: at the end of stdin for stdio, at
SIGTERM or SIGINT for both transports.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import difflib
import functools
import importlib
import inspect
import json
import os
import signal
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, Literal

from pydantic import Field

from hybridgym.actions.model import MAX_STEP_SECONDS

try:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp_types import CallToolResult, ImageContent, TextContent
except ImportError as e:   # the SDK is an optional dependency
    raise ImportError(f"hybridgym mcp needs the MCP Python SDK, version 2 (`pip install 'mcp>=2'`): {e}") from e

#: seconds the env's close may take at exit before the server gives up waiting (it exits anyway)
CLOSE_TIMEOUT_S = 30.0
#: the longest `wait` or `long_press` (the env's step budget: `hybridgym.actions.model.MAX_STEP_SECONDS`)
MAX_WAIT_S = MAX_STEP_SECONDS

X = Annotated[int, Field(description="pixels from the screenshot's left edge")]
Y = Annotated[int, Field(description="pixels from the screenshot's top edge")]


class EnvHost:
    """One hybridgym env and the thread that drives it, with the episode's bookkeeping (open or ended,
    the last step's result) that the tools read. Every method that touches the env runs on that thread
    (`call`); `close` closes the env on it and stops the thread."""

    def __init__(self, env_id: str, **env_kwargs: Any):
        import gymnasium as gym

        importlib.import_module("hybridgym")   # registers the gym ids
        self.gym_id = resolve_id(env_id)
        # Gymnasium's passive env checker (1.4.0) breaks the env when the first reset raises (a bad seed or task
        # from the client): its first step then fails unpacking the reset it never stored. The server needs
        # its env to survive a bad reset, and the checker only warns, so it is left out.
        self.env_kwargs = {"schema": "dict", "disable_env_checker": True, **env_kwargs}
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hybridgym-env")
        self._closed = False
        self._close_lock = threading.Lock()
        self.env = self._pool.submit(gym.make, self.gym_id, **self.env_kwargs).result()
        u = self.env.unwrapped
        self.platform: str = u.codec.platform
        self.screen: tuple[int, int] = tuple(u.screen_size)
        self.suite: str = u.suite
        self.fixed_task = u.fixed_task
        from hybridgym.tasks.base import tasks_of
        pool = [self.fixed_task] if self.fixed_task is not None else tasks_of(self.suite)
        #: whether the SDK tools are listed: the task offers the SDK (a suite id: one of its tasks does)
        self.sdk = any(t.sdk for t in pool)
        self.open = False            # an episode is running
        self.episode_return = 0.0
        self.last: dict | None = None   # the last step's summary (the checker's result at the end)

    async def call(self, fn, *args, **kwargs):
        """`fn(*args, **kwargs)` on the env's thread, awaited."""
        if self._closed:
            raise ToolError("the server is shutting down; the env is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))

    def close(self) -> None:
        """Close the env on its thread (Xvfb, Chromium and the workspace go) and stop the thread;
        idempotent."""
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        try:
            self._pool.submit(self.env.close).result(timeout=CLOSE_TIMEOUT_S)
        except Exception as e:  # noqa: BLE001  (exiting anyway: say why the close failed)
            print(f"hybridgym mcp: closing the env failed: {type(e).__name__}: {e}", file=sys.stderr)
        finally:
            self._pool.shutdown(wait=False, cancel_futures=True)
        print("hybridgym mcp: env closed", file=sys.stderr, flush=True)

    # -- what the tools do (on the env's thread) ---------------------------------------------
    def reset(self, seed: int | None, task: str | None) -> tuple[dict, bytes]:
        options = {"task": task} if task else None
        try:
            obs, info = self.env.reset(seed=seed, options=options)
        except ValueError as e:      # an unknown task, a task of another suite
            self.open = False
            raise ToolError(str(e)) from None
        except Exception as e:  # noqa: BLE001  (the sandbox failed; the next reset starts it over)
            self.open = False
            raise ToolError(f"the env failed to start the episode: {type(e).__name__}: {e}") from None
        self.open, self.episode_return, self.last = True, 0.0, None
        data = {"task_id": info["task_id"], "suite": info["suite"], "seed": info["seed"],
                "instruction": obs["instruction"], "max_steps": info["max_steps"], "sdk": bool(info["sdk"]),
                "screen": list(self.screen), "platform": self.platform}
        return data, _png(obs["screenshot"])

    def screenshot(self) -> bytes:
        frame = self.env.unwrapped.frame
        if frame is None or self.env.unwrapped.episode is None:
            raise ToolError("no screenshot yet: call reset first")
        return _png(frame)

    def act(self, action: dict) -> tuple[dict, bytes]:
        """One env step of a dict action: (its summary, the new screenshot as PNG)."""
        self._check_open()
        from hybridgym.actions import ActionError
        try:
            self.env.unwrapped.codec.parse(action)   # refused here, the action costs no step
        except ActionError as e:
            raise ToolError(str(e)) from None
        try:
            obs, reward, terminated, truncated, info = self.env.step(action)
        except Exception as e:  # noqa: BLE001  (the env is left as it is; reset starts over)
            self.open = False
            raise ToolError(f"the env failed: {type(e).__name__}: {e}; call reset") from None
        self.episode_return += float(reward)
        data = {"task_id": info["task_id"], "step": info["step"], "max_steps": self.env.unwrapped.max_steps,
                "reward": float(reward), "episode_return": self.episode_return,
                "terminated": bool(terminated), "truncated": bool(truncated),
                "action_error": info.get("action_error"), "sdk_output": obs["sdk_output"],
                "success": bool(info["success"]), "message": info.get("message", "")}
        for key in ("error", "score", "check", "answer"):
            if info.get(key) not in (None, ""):
                data[key] = info[key]
        if terminated or truncated:
            self.open = False
        self.last = data = _plain(data)
        return data, _png(obs["screenshot"])

    def status(self) -> dict:
        u = self.env.unwrapped
        if u.episode is None or (not self.open and self.last is None):
            return {"state": "no episode", "message": "call reset to start an episode"}
        base = {"task_id": u.episode.task.id, "seed": u.episode.seed, "instruction": u.episode.instruction,
                "max_steps": u.max_steps, "episode_return": self.episode_return}
        if self.open:
            steps = self.last["step"] if self.last else 0
            return {**base, "state": "running", "step": steps,
                    "message": f"running: {steps} of {u.max_steps} steps used; the checker runs at finish, when "
                               f"the task ends itself (a game over) or when the step budget is spent"}
        last = self.last
        return {**base, "state": "ended", "step": last["step"], "terminated": last["terminated"],
                "truncated": last["truncated"], "success": last["success"], "reward": _verdict_reward(last),
                "message": last["message"], **({"check": last["check"]} if "check" in last else {})}

    def _check_open(self) -> None:
        if self.env.unwrapped.episode is None:
            raise ToolError("no episode yet; call reset first")
        if not self.open:
            last = self.last
            verdict = (f" (success {last['success']}, reward {_verdict_reward(last):g}: {last['message']})"
                       if last else "")
            raise ToolError(f"the episode has ended{verdict}; call reset to start a new one")


def resolve_id(env_id: str) -> str:
    """The gym id of `env_id` ("game.snake-v0", "hybridgym/game.snake-v0" or a suite's "Game-v0");
    ValueError naming close ids when there is none."""
    from gymnasium.envs.registration import registry
    if not isinstance(env_id, str) or not env_id.strip():
        raise ValueError("--task needs a task id such as game.snake-v0 (`hybridgym list` shows them)")
    name = env_id.strip().split("/", 1)[-1]
    gym_id = f"hybridgym/{name}"
    if gym_id in registry:
        return gym_id
    ours = [k.split("/", 1)[1] for k in registry if k.startswith("hybridgym/")]
    close = difflib.get_close_matches(name, ours, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise ValueError(f"unknown task {env_id!r}{hint} (`hybridgym list` shows the task ids)")


def _verdict_reward(last: dict) -> float:
    """The checker's reward of an ended episode (its last step's reward when no check ran: a failed sandbox)."""
    check = last.get("check")
    return float(check["reward"]) if isinstance(check, dict) and "reward" in check else last["reward"]


def _plain(data: dict) -> dict:
    """`data` as JSON values (numbers of numpy types become floats, anything else its text)."""
    def fallback(value):
        try:
            return float(value)
        except (TypeError, ValueError):
            return str(value)
    return json.loads(json.dumps(data, default=fallback))


def _png(frame) -> bytes:
    from hybridgym.imaging import encode_png
    return encode_png(frame)


# -- the MCP side ------------------------------------------------------------------------------
def _image(png: bytes) -> ImageContent:
    import base64
    return ImageContent(type="image", data=base64.b64encode(png).decode("ascii"), mime_type="image/png")


def _step_text(d: dict) -> str:
    """The short text of a step's result: what the agent reads beside the screenshot."""
    lines = [f"step {d['step']} of {d['max_steps']}: reward {d['reward']:g}"
             + ("" if d["terminated"] or d["truncated"] else "; the episode goes on")]
    if d.get("action_error"):
        lines.append(f"action error: {d['action_error']}")
    if d.get("error"):
        lines.append(f"the sandbox failed: {d['error']}")
    if d.get("sdk_output"):
        lines.append(f"SDK output:\n{d['sdk_output']}")
    if d["terminated"] or d["truncated"]:
        how = "finished" if d["terminated"] else "truncated (the step budget is spent)"
        if d.get("error"):
            how = "truncated (the sandbox failed)"
        lines.append(f"episode {how}: success {d['success']}, episode return {d['episode_return']:g}"
                     + (f"; {d['message']}" if d.get("message") else "") + "; call reset for a new episode")
    return "\n".join(lines)


def _step_result(data: dict, png: bytes) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=_step_text(data)), _image(png)],
                          structured_content=data, is_error=bool(data.get("action_error")))


def build_server(env_id: str, **env_kwargs: Any) -> MCPServer:
    """An MCP server (the SDK's `MCPServer`) whose tools drive one env, `gym.make("hybridgym/<env_id>",
    schema="dict", disable_env_checker=True, **env_kwargs)`: reset, screenshot, the GUI actions of the env's platform (computer:
    click, double_click, right_click, move_to, drag, scroll; phone: tap, long_press, swipe, press_home,
    press_back, open_app; both: type_text, press, hotkey, wait), the SDK tools when the task offers the
    SDK (terminal, read_file, write_file), finish, call_user and evaluate. Run it with
    `server.run("stdio")` or `server.run("streamable-http", host=..., port=...)`; the env is closed when
    the run ends (and by `server.env_host.close()`, idempotent). Raises ValueError for an unknown id."""
    host = EnvHost(env_id, **env_kwargs)
    w, h = host.screen

    @contextlib.asynccontextmanager
    async def lifespan(_server):
        try:
            yield {}
        finally:
            await asyncio.get_running_loop().run_in_executor(None, host.close)

    task_name = host.fixed_task.id if host.fixed_task is not None else f"a task of the {host.suite} suite"
    server = MCPServer(
        name="hybridgym", title=f"hybridgym: {task_name}", version=_version(),
        instructions=(f"A {host.platform} screen of {w}x{h} pixels running hybridgym task {task_name}. Call reset "
                      "first: it returns the instruction and the screenshot. Every action tool takes one step "
                      "and returns the new screenshot; coordinates are pixels of that screenshot (x from the "
                      "left, y from the top). Call finish (with the answer, if the task asks a question) when "
                      "the task is done: it returns the checker's verdict."),
        lifespan=lifespan, log_level="WARNING")
    server.env_host = host   # the env and its thread (tests and main close it)

    def tool(fn):
        """Register `fn` as a tool, its docstring (on one line) its description."""
        server.add_tool(fn, description=" ".join(inspect.cleandoc(fn.__doc__).split()))
        return fn

    async def step(action: dict) -> CallToolResult:
        return _step_result(*await host.call(host.act, action))

    @tool
    async def reset(seed: Annotated[int | None, Field(description="the episode's seed (the same seed gives the "
                                                                  "same task instance); none: a random one")] = None,
                    task: Annotated[str | None, Field(description="another task of the same suite to play "
                                                                  "(e.g. 'todo-add'); none: the server's task")] = None
                    ) -> CallToolResult:
        """Start a new episode: returns the task's instruction, its id, the seed, the step budget, whether the
        SDK tools work in it, and the first screenshot (PNG). Ends any episode that is running."""
        data, png = await host.call(host.reset, seed, task)
        text = (f"task {data['task_id']} (seed {data['seed']}), {data['max_steps']} steps at most, screen "
                f"{w}x{h} pixels, SDK tools: {'yes' if data['sdk'] else 'no'}\ninstruction: {data['instruction']}")
        return CallToolResult(content=[TextContent(type="text", text=text), _image(png)], structured_content=data)

    @tool
    async def screenshot() -> CallToolResult:
        """The current screen as a PNG image, without taking a step."""
        png = await host.call(host.screenshot)
        return CallToolResult(content=[_image(png)])

    if host.platform == "mobile":
        @tool
        async def tap(x: X, y: Y) -> CallToolResult:
            """Tap the screen at (x, y) with one finger."""
            return await step({"action_type": "tap", "x": x, "y": y})

        @tool
        async def long_press(x: X, y: Y,
                             duration: Annotated[float, Field(description="seconds held", gt=0, le=MAX_WAIT_S)] = 1.0
                             ) -> CallToolResult:
            """Press and hold at (x, y) for `duration` seconds (opens context menus)."""
            return await step({"action_type": "long_press", "x": x, "y": y, "duration": duration})

        @tool
        async def swipe(x1: X, y1: Y, x2: X, y2: Y) -> CallToolResult:
            """Move a finger from (x1, y1) to (x2, y2): swiping up scrolls a list down."""
            return await step({"action_type": "swipe", "x1": x1, "y1": y1, "x2": x2, "y2": y2})

        @tool
        async def press_home() -> CallToolResult:
            """Press the phone's Home button (back to the launcher)."""
            return await step({"action_type": "press_home"})

        @tool
        async def press_back() -> CallToolResult:
            """Press the phone's Back button (closes a dialog, or goes back one screen)."""
            return await step({"action_type": "press_back"})

        @tool
        async def open_app(app_name: Annotated[str, Field(description="the app's name as the launcher shows it, "
                                                                      "or its id")]) -> CallToolResult:
            """Open an app of the phone by its name; an unknown name is an error listing the apps."""
            return await step({"action_type": "open_app", "app_name": app_name})
    else:
        @tool
        async def click(x: X, y: Y,
                        button: Annotated[Literal["left", "right", "middle"],
                                          Field(description="the mouse button")] = "left") -> CallToolResult:
            """Click the mouse at (x, y)."""
            kind = {"left": "click", "right": "right_single", "middle": "middle_single"}[button]
            return await step({"action_type": kind, "x": x, "y": y})

        @tool
        async def double_click(x: X, y: Y) -> CallToolResult:
            """Double-click the left button at (x, y) (opens a file, selects a word)."""
            return await step({"action_type": "left_double", "x": x, "y": y})

        @tool
        async def right_click(x: X, y: Y) -> CallToolResult:
            """Click the right button at (x, y) (opens a context menu)."""
            return await step({"action_type": "right_single", "x": x, "y": y})

        @tool
        async def move_to(x: X, y: Y) -> CallToolResult:
            """Move the pointer to (x, y) without clicking (hover)."""
            return await step({"action_type": "hover", "x": x, "y": y})

        @tool
        async def drag(x1: X, y1: Y, x2: X, y2: Y) -> CallToolResult:
            """Press the left button at (x1, y1), move to (x2, y2) and release (drag and drop, select text)."""
            return await step({"action_type": "drag", "x1": x1, "y1": y1, "x2": x2, "y2": y2})

        @tool
        async def scroll(direction: Annotated[Literal["up", "down", "left", "right"],
                                              Field(description="which way the content moves into view")],
                         x: Annotated[int | None, Field(description="pointer x before scrolling; none: where "
                                                                    "it is")] = None,
                         y: Annotated[int | None, Field(description="pointer y before scrolling")] = None,
                         amount: Annotated[int, Field(description="wheel notches", ge=1)] = 5) -> CallToolResult:
            """Turn the mouse wheel `amount` notches at (x, y) (or where the pointer is)."""
            action = {"action_type": "scroll", "direction": direction, "amount": amount}
            if x is not None or y is not None:
                action.update(x=x, y=y)
            return await step(action)

    @tool
    async def type_text(text: Annotated[str, Field(description="the text; a newline presses Enter")]
                        ) -> CallToolResult:
        """Type text with the keyboard into whatever has the focus."""
        return await step({"action_type": "type", "text": text})

    @tool
    async def press(key: Annotated[str, Field(description="a key ('enter', 'tab', 'up', 'f5', 'a') or a "
                                                          "combination joined by '+' ('ctrl+s')")]
                    ) -> CallToolResult:
        """Press and release a key, or a key combination such as 'ctrl+s'."""
        return await step({"action_type": "hotkey", "keys": key})

    @tool
    async def hotkey(keys: Annotated[list[str], Field(description="the keys held together, in order, e.g. "
                                                                  "['ctrl', 'shift', 't']", min_length=1)]
                     ) -> CallToolResult:
        """Press keys together (the first held while the next are pressed), then release them all."""
        return await step({"action_type": "hotkey", "keys": keys})

    @tool
    async def wait(seconds: Annotated[float, Field(description="how long", ge=0, le=MAX_WAIT_S)] = 1.0
                   ) -> CallToolResult:
        """Do nothing for `seconds` (a game's clock runs on), then return the screen."""
        return await step({"action_type": "wait", "seconds": seconds})

    if host.sdk:
        @tool
        async def terminal(command: Annotated[str, Field(description="a shell command line (bash)")]
                           ) -> CallToolResult:
            """Run a shell command in the task's workspace (no network) and return its output; the GUI's
            apps see the same files."""
            return await step({"action_type": "terminal", "command": command})

        @tool
        async def read_file(path: Annotated[str, Field(description="a path in the workspace, e.g. "
                                                                   "'Downloads/a.csv'")]) -> CallToolResult:
            """Read a text file of the workspace."""
            return await step({"action_type": "read_file", "path": path})

        @tool
        async def write_file(path: Annotated[str, Field(description="a path in the workspace")],
                             content: Annotated[str, Field(description="the file's whole new text")]
                             ) -> CallToolResult:
            """Write a text file of the workspace (created, or replaced whole)."""
            return await step({"action_type": "write_file", "path": path, "content": content})

    @tool
    async def finish(answer: Annotated[str, Field(description="the answer, when the task asks a question; "
                                                              "else empty")] = "") -> CallToolResult:
        """Say the task is done: ends the episode and returns the checker's verdict (success, reward, its
        message) and the last screenshot."""
        return await step({"action_type": "finished", "content": answer})

    @tool
    async def call_user(message: Annotated[str, Field(description="why the task cannot be done")] = ""
                        ) -> CallToolResult:
        """Give up: say the task cannot be done as asked. Ends the episode, and the checker judges it."""
        return await step({"action_type": "call_user", "content": message})

    @tool
    async def evaluate() -> CallToolResult:
        """The episode's status, read only (no step, no check is run): running with the steps used, or
        ended with the checker's verdict (success, reward, message)."""
        data = await host.call(host.status)
        data = _plain(data)
        return CallToolResult(content=[TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
                              structured_content=data)

    return server


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("hybridgym")
    except Exception:  # noqa: BLE001
        return "0"


async def tool_list(server: MCPServer) -> list[dict]:
    """The server's tools as plain data: name, description and JSON schema of the arguments."""
    return [{"name": t.name, "description": t.description, "inputSchema": t.input_schema}
            for t in await server.list_tools()]


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str] | None = None) -> int:
    """`hybridgym mcp`: serve one env as MCP tools until the client goes (stdio: the end of stdin) or
    SIGTERM/SIGINT comes; the exit code (0, 1 when the server cannot run, 2 for bad arguments). After a
    signal the env is closed and the process exits at once (`os._exit(0)`): it is the server's process."""
    p = argparse.ArgumentParser(prog="hybridgym mcp", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--task", required=True, metavar="ID",
                   help="the task (e.g. game.snake-v0, browser.todo-add-v0) or a suite id (Game-v0)")
    p.add_argument("--transport", choices=["stdio", "http"], default="stdio",
                   help="stdio (default: the client spawns the server) or http (streamable HTTP at /mcp)")
    p.add_argument("--host", default="127.0.0.1", help="http: the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="http: the port (default 8765)")
    p.add_argument("--schema", action="store_true",
                   help="print the tools (name, description, JSON schema of the arguments) and exit")
    args = p.parse_args(argv)
    if not 0 < args.port < 65536:
        p.error(f"--port must be from 1 to 65535, got {args.port}")
    try:
        server = build_server(args.task)
    except ValueError as e:
        print(f"hybridgym mcp: {e}", file=sys.stderr)
        return 2
    host: EnvHost = server.env_host
    previous = {s: signal.signal(s, _interrupt) for s in (signal.SIGTERM, signal.SIGINT)}
    interrupted = False
    try:
        if args.schema:
            print(json.dumps(asyncio.run(tool_list(server)), indent=2, ensure_ascii=False))
            return 0
        if args.transport == "stdio":
            server.run("stdio")
        else:
            print(f"hybridgym mcp: serving {host.gym_id} at http://{args.host}:{args.port}/mcp",
                  file=sys.stderr, flush=True)
            server.run("streamable-http", host=args.host, port=args.port)
        return 0
    except KeyboardInterrupt:
        interrupted = True
        return 0
    except OSError as e:   # e.g. the port is taken
        print(f"hybridgym mcp: {e}", file=sys.stderr)
        return 1
    finally:
        for s in previous:    # a second signal does not cut the close short
            signal.signal(s, signal.SIG_IGN)
        host.close()
        for s, handler in previous.items():
            signal.signal(s, handler)
        if interrupted:
            # stdio: the SDK's thread reading stdin stays blocked while the client keeps the pipe
            # open, and would hold the interpreter; the env is closed, so leave now
            sys.stderr.flush()
            os._exit(0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
