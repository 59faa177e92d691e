"""The SDK terminal: shell commands under bubblewrap, with the workspace writable, the rest read-only, no network, a time limit and an output cap."""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .processes import kill_group, spawn


@dataclass(frozen=True)
class ShellResult:
    exit_code: int | None   # None when killed at the time limit
    output: str             # stdout and stderr interleaved, capped
    timed_out: bool
    truncated: bool
    seconds: float

    def render(self) -> str:
        """The text an agent sees."""
        text = self.output
        if self.truncated:
            text += "\n[output truncated]"
        if self.timed_out:
            text += "\n[command killed at the time limit]"
        elif self.exit_code:
            text += f"\n[exit code {self.exit_code}]"
        return text


class OutputCap:
    """Collects a command's output up to `limit` bytes; `add` says whether to stop reading."""

    def __init__(self, limit: int):
        self.limit, self.size, self.truncated, self._chunks = limit, 0, False, []

    def add(self, data: bytes) -> bool:
        keep = self.limit - self.size
        if keep > 0:
            self._chunks.append(data[:keep])
        self.size += len(data)
        self.truncated = self.size > self.limit
        return self.truncated

    def text(self) -> str:
        return b"".join(self._chunks).decode("utf-8", errors="replace")


class BubblewrapShell:
    """Runs one command per call in a fresh bubblewrap sandbox rooted at `workspace`."""

    def __init__(self, workspace: Path, *, timeout: float = 30.0, max_output: int = 64 * 1024,
                 network: bool = False, env: dict[str, str] | None = None):
        self.bwrap = shutil.which("bwrap")
        if self.bwrap is None:
            raise RuntimeError("bubblewrap (bwrap) is not installed; run the set-up script (.ci/setup)")
        self.workspace = Path(workspace)
        self.timeout, self.max_output, self.network = timeout, max_output, network
        self.env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(self.workspace),
                    "LANG": "C.UTF-8", "TERM": "dumb", **(env or {})}

    def argv(self, command: str) -> list[str]:
        ws = str(self.workspace)
        args = [self.bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                "--tmpfs", "/tmp", "--tmpfs", "/run", "--bind", ws, ws, "--chdir", ws,
                "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent",
                "--new-session", "--clearenv"]
        for k, v in self.env.items():
            args += ["--setenv", k, v]
        if not self.network:
            args.append("--unshare-net")
        return args + ["--", "/bin/bash", "-c", command]

    def run(self, command: str, timeout: float | None = None) -> ShellResult:
        limit = self.timeout if timeout is None else timeout
        start = time.monotonic()
        proc = spawn(self.argv(command), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out, timed_out = OutputCap(self.max_output), False
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        try:
            while True:
                left = limit - (time.monotonic() - start)
                if left <= 0:
                    timed_out = True
                    break
                if not sel.select(timeout=min(left, 0.5)):
                    if proc.poll() is not None:
                        break
                    continue
                data = os.read(proc.stdout.fileno(), 65536)
                if not data or out.add(data):
                    break
        finally:
            sel.close()
            kill_group(proc, signal.SIGKILL, grace=5)
            proc.stdout.close()
        code = None if timed_out else proc.returncode
        return ShellResult(code, out.text(), timed_out, out.truncated, time.monotonic() - start)
