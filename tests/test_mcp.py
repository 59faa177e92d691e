"""The MCP server (`python -m hybridgym.mcp_server`, `hybridgym mcp`) driven by the mcp SDK's own client,
over stdio and streamable HTTP, with real envs: the tools, their images, their errors, and the clean exit."""

from __future__ import annotations

import asyncio
import base64
import io
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from hybridgym.sandbox.processes import cmdline, descendants

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp SDK, version 2 (pip install 'mcp>=2')")
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
COMPUTER_TOOLS = {"reset", "screenshot", "click", "double_click", "right_click", "move_to", "drag", "scroll",
                  "type_text", "press", "hotkey", "wait", "finish", "call_user", "evaluate"}
SDK_TOOLS = {"terminal", "read_file", "write_file"}


def _server_args(task: str, *extra: str) -> list[str]:
    return ["-m", "hybridgym.mcp_server", "--task", task, *extra]


def _children(pid: int) -> list[int]:
    """Every process below `pid`, e.g. the server's Xvfb and Chromium."""
    return sorted(descendants(pid))


def _run(coro):
    """`asyncio.run(coro)` in a thread of its own: a session-scoped env's Playwright keeps an event loop
    running in the test's thread (its sync API), where asyncio.run refuses to start another."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, exited but not reaped, counts as gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _server_pid() -> int:
    """The pid of the `hybridgym.mcp_server` process this test process spawned."""
    for pid in _children(os.getpid()):
        if "hybridgym.mcp_server" in cmdline(pid).split():
            return pid
    raise AssertionError("the server process was not found among this process's children")


def _png(result) -> np.ndarray:
    """The one image of a tool result, decoded (it must be a PNG)."""
    images = [c for c in result.content if c.type == "image"]
    assert len(images) == 1, result.content
    assert images[0].mime_type == "image/png"
    data = base64.b64decode(images[0].data)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def _text(result) -> str:
    return "\n".join(c.text for c in result.content if c.type == "text")


def _wait_gone(pids: list[int], timeout: float = 15.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


def test_stdio_server_plays_snake_with_images_errors_and_a_clean_exit():
    log = tempfile.TemporaryFile("w+")
    params = StdioServerParameters(command=sys.executable, args=_server_args("game.snake-v0"), cwd=str(ROOT))

    async def session_run():
        async with stdio_client(params, errlog=log) as (read, write), ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "hybridgym"
            tools = {t.name: t for t in (await session.list_tools()).tools}
            assert set(tools) == COMPUTER_TOOLS            # a game: no SDK tools, no phone tools
            assert tools["click"].input_schema["required"] == ["x", "y"]
            assert tools["scroll"].input_schema["properties"]["direction"]["enum"] == ["up", "down", "left", "right"]

            early = await session.call_tool("press", {"key": "up"})
            assert early.is_error and "call reset first" in _text(early)

            bad_seed = await session.call_tool("reset", {"seed": -1})
            assert bad_seed.is_error and "seed" in _text(bad_seed).lower()
            bad_task = await session.call_tool("reset", {"task": "no-such-task"})
            assert bad_task.is_error and "unknown task" in _text(bad_task)
            reset = await session.call_tool("reset", {"seed": 3})
            assert not reset.is_error, _text(reset)
            first = _png(reset)
            assert first.shape == (600, 800, 3)
            assert reset.structured_content["task_id"] == "game.snake-v0"
            assert reset.structured_content["seed"] == 3
            assert reset.structured_content["max_steps"] > 0
            assert reset.structured_content["instruction"] in _text(reset)
            server = _server_pid()
            sandbox = _children(server)
            assert sandbox, "the env's Xvfb and Chromium run below the server"

            frames = [first]
            for key in ("down", "left", "left"):
                r = await session.call_tool("press", {"key": key})
                assert not r.is_error, _text(r)
                assert r.structured_content["action_error"] is None
                frames.append(_png(r))
            r = await session.call_tool("click", {"x": 400, "y": 300})
            assert not r.is_error, _text(r)
            assert r.structured_content["step"] == 4
            assert "step 4 of" in _text(r)
            frames.append(_png(r))
            assert any(not np.array_equal(first, f) for f in frames[1:]), "the snake's screen never changed"

            shot = await session.call_tool("screenshot", {})
            assert np.array_equal(_png(shot), frames[-1])    # no step taken: the same screen

            off = await session.call_tool("click", {"x": 5000, "y": 10})
            assert off.is_error and "5000" in _text(off)
            wrong = await session.call_tool("click", {"x": "left", "y": 10})
            assert wrong.is_error and "x" in _text(wrong)
            key = await session.call_tool("press", {"key": "nosuchkey"})
            assert key.is_error and "nosuchkey" in _text(key)
            status = await session.call_tool("evaluate", {})
            assert status.structured_content["state"] == "running"
            assert status.structured_content["step"] == 4        # refused actions cost no step

            done = await session.call_tool("finish", {"answer": ""})
            assert not done.is_error, _text(done)
            end = done.structured_content
            assert end["terminated"] and end["step"] == 5 and end["success"] is False
            assert "check" in end and "episode finished" in _text(done)
            _png(done)
            after = await session.call_tool("press", {"key": "up"})
            assert after.is_error and "episode has ended" in _text(after) and "reset" in _text(after)
            status = await session.call_tool("evaluate", {})
            assert status.structured_content["state"] == "ended"
            assert status.structured_content["success"] is False

            again = await session.call_tool("reset", {"seed": 3})
            assert np.array_equal(_png(again), first)       # games run on a virtual clock: same seed, same pixels
            return server, sandbox

    server, sandbox = _run(session_run())
    left = _wait_gone([server, *sandbox])
    log.seek(0)
    err = log.read()
    assert not left, f"processes left after the client closed: {left}\n{err[-2000:]}"
    assert "hybridgym mcp: env closed" in err, err[-2000:]


def test_stdio_server_closes_the_env_and_exits_at_sigterm_while_the_client_holds_the_pipe():
    log = tempfile.TemporaryFile("w+")
    params = StdioServerParameters(command=sys.executable, args=_server_args("game.snake-v0"), cwd=str(ROOT))

    async def session_run():
        async with stdio_client(params, errlog=log) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            assert not (await session.call_tool("reset", {"seed": 1})).is_error
            server = _server_pid()
            sandbox = _children(server)
            assert sandbox
            os.kill(server, signal.SIGTERM)
            return _wait_gone([server, *sandbox])   # before the client closes stdin

    left = _run(session_run())
    log.seek(0)
    err = log.read()
    assert not left, f"processes left after SIGTERM: {left}\n{err[-2000:]}"
    assert "hybridgym mcp: env closed" in err, err[-2000:]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_streamable_http_server_serves_the_env_and_exits_at_sigterm():
    port = _free_port()
    log = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen([sys.executable, *_server_args("game.snake-v0", "--transport", "http",
                                                            "--port", str(port))],
                            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, "the server exited before listening"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not listen within 60 s"
                time.sleep(0.2)

        async def session_run():
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                assert COMPUTER_TOOLS <= {t.name for t in (await session.list_tools()).tools}
                reset = await session.call_tool("reset", {"seed": 5})
                first = _png(reset)
                assert first.shape == (600, 800, 3)
                step = await session.call_tool("wait", {"seconds": 1})
                assert not step.is_error, _text(step)
                assert step.structured_content["step"] == 1
                shot = await session.call_tool("screenshot", {})
                assert np.array_equal(_png(shot), _png(step))
                bad = await session.call_tool("wait", {"seconds": -1})
                assert bad.is_error
                assert not (await session.call_tool("evaluate", {})).is_error   # still serving

        _run(session_run())
        sandbox = _children(proc.pid)
        assert sandbox
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        left = _wait_gone(sandbox)
        log.seek(0)
        err = log.read()
        assert not left, f"processes left after SIGTERM: {left}\n{err[-2000:]}"
        assert "hybridgym mcp: env closed" in err, err[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_sdk_task_lists_and_runs_terminal_read_file_and_write_file():
    params = StdioServerParameters(command=sys.executable,
                                   args=_server_args("browser.files-csv-total-sdk-v1"), cwd=str(ROOT))

    async def session_run():
        async with stdio_client(params, errlog=tempfile.TemporaryFile("w+")) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            assert SDK_TOOLS <= {t.name for t in (await session.list_tools()).tools}
            reset = await session.call_tool("reset", {"seed": 1})
            assert reset.structured_content["sdk"] is True
            wrote = await session.call_tool("write_file", {"path": "notes/a.txt", "content": "hello mcp\n"})
            assert not wrote.is_error and "wrote" in wrote.structured_content["sdk_output"]
            back = await session.call_tool("read_file", {"path": "notes/a.txt"})
            assert back.structured_content["sdk_output"] == "hello mcp\n"
            ran = await session.call_tool("terminal", {"command": "wc -c < notes/a.txt"})
            assert not ran.is_error and "10" in ran.structured_content["sdk_output"]
            assert "SDK output:" in _text(ran)
            out = await session.call_tool("read_file", {"path": "../../etc/passwd"})
            assert out.is_error and out.structured_content["action_error"]
            return _server_pid()

    server = _run(session_run())
    assert not _wait_gone([server])
