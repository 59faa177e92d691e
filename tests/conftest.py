"""Shared fixtures: one env per suite for the whole session (real Xvfb, Chromium, apps), and process helpers."""

from __future__ import annotations

import os

# Ray's token authentication stays on, for local and multi-node clusters alike (read when Ray is imported)
os.environ.setdefault("RAY_AUTH_MODE", "token")

import gymnasium as gym  # noqa: E402
import pytest  # noqa: E402

import hybridgym  # noqa: E402
from hybridgym.tasks import SUITES


def descendants(pid: int | None = None) -> set[int]:
    """Pids of all live descendants of a process (default: this one), from /proc."""
    root = pid or os.getpid()
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] == "Z":
                continue
            children.setdefault(int(fields[1]), []).append(int(entry))
        except (OSError, ValueError):
            continue
    out, todo = set(), [root]
    while todo:
        for c in children.get(todo.pop(), []):
            if c not in out:
                out.add(c)
                todo.append(c)
    return out


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


_ENVS: dict[str, gym.Env] = {}


@pytest.fixture(scope="session")
def suite_env():
    """suite_env(suite) -> a started env of that suite, shared by the session's tests."""
    def get(suite: str) -> gym.Env:
        if suite not in _ENVS:
            _ENVS[suite] = gym.make(hybridgym.SUITE_IDS[suite])
        return _ENVS[suite]
    yield get
    for env in _ENVS.values():
        env.close()
    _ENVS.clear()


@pytest.fixture(params=SUITES)
def suite(request):
    return request.param
