"""The SDK terminal: shell commands in the env's jail (`hybridgym.sandbox.jail`): the jail's uid,
the workspace writable and the system read-only, no network, limits on processes, memory and CPU
time, a time limit and an output cap."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .jail import _LAUNCH_ENV, Jail
from .processes import kill_group, spawn


@dataclass(frozen=True)
class ShellResult:
    exit_code: int | None   # None when killed at the time limit
    output: str             # stdout and stderr interleaved, capped
    timed_out: bool
    truncated: bool
    seconds: float
    limit: int = 64 * 1024  # the output cap in bytes

    def render(self) -> str:
        """The text an agent sees."""
        text = self.output
        if self.truncated:
            text += f"\n[output truncated at {self.limit} bytes]"
        if self.timed_out:
            text += "\n[command killed at the time limit]"
        elif self.exit_code in (137, -9):
            text += (f"\n[exit code {self.exit_code}: killed; a command may use at most the shell's limits "
                     "of processes, memory and CPU time]")
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
    """Runs one command per call in a fresh bubblewrap sandbox of `jail` rooted at `workspace`
    (the jail's home): its own pid namespace, so nothing a command starts outlives it.

    network: the command joins the env's network namespace (reaches the task's server only);
    by default it has no network at all.
    """

    def __init__(self, workspace: Path, *, jail: "Jail", timeout: float = 30.0, max_output: int = 64 * 1024,
                 network: bool = False, env: dict[str, str] | None = None):
        self.workspace = Path(workspace)
        self.jail = jail
        self.timeout, self.max_output, self.network = timeout, max_output, network
        self.env = jail.env(HOME=str(self.workspace), TERM="dumb", **(env or {}))

    def argv(self, command: str) -> list[str]:
        return self.jail.argv(["/bin/bash", "-c", command], self.env, shell=True, network=self.network,
                              cwd=self.workspace)

    def run(self, command: str, timeout: float | None = None) -> ShellResult:
        limit = self.timeout if timeout is None else timeout
        start = time.monotonic()
        proc = spawn(self.argv(command), _LAUNCH_ENV, "/", stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
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
        return ShellResult(code, out.text(), timed_out, out.truncated, time.monotonic() - start, self.max_output)
