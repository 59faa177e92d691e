"""What the security tests and the attack and fuzz benchmarks attack with: a host listener that
counts connections, the two ways in of an agent (the SDK terminal, keys typed into the desktop's
terminal window), through `env.step` only, and hostile action shapes (deep nesting)."""

from __future__ import annotations

import socket
import threading
import time


class Listener:
    """A TCP server on the host's loopback that records whether anyone connected."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.hits = 0
        self._stop = False
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self):
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
                self.hits += 1
                conn.close()
            except OSError:
                continue

    def close(self):
        self._stop = True
        self._t.join(2)
        self.sock.close()


def sdk(env, command: str) -> str:
    """Run `command` with the SDK terminal; its output as the agent sees it."""
    obs, *_ = env.step({"action_type": "terminal", "command": command})
    return obs["sdk_output"]


def gui_terminal(env, command: str, timeout: float = 20.0) -> str:
    """Type `command` into the desktop's terminal window (clicked first), its output into a file
    of the home; return that output (read from the host side), '' if it never came."""
    sb = env.unwrapped.sandbox
    out = sb.workspace.root / "gui-out.txt"
    out.unlink(missing_ok=True)
    win = next(w for w in sb.windows() if "xterm" in " ".join(w["wm_class"]).lower())
    x, y, w, h = win["geometry"]
    env.step({"action_type": "click", "x": x + w // 2, "y": y + h // 2})
    env.step({"action_type": "type", "text": f"( {command} ) > ~/gui-out.part 2>&1; mv ~/gui-out.part ~/gui-out.txt\n"})
    deadline = time.monotonic() + timeout
    while not out.exists() and time.monotonic() < deadline:
        env.step({"action_type": "wait", "seconds": 0.3})
    return out.read_text(errors="replace") if out.exists() else ""


def nested_list(depth: int, inner: object) -> object:
    """`inner` inside `depth` lists."""
    for _ in range(depth):
        inner = [inner]
    return inner


def nested_dict(depth: int) -> dict:
    """A type action whose text is a dict nested `depth` deep."""
    d: dict = {"action_type": "type", "text": None}
    cur = d
    for _ in range(depth):
        cur["text"] = {"text": None}
        cur = cur["text"]
    return d
