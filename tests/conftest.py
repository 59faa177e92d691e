"""Shared fixtures: one env per suite for the whole session (real Xvfb, Chromium, apps), and process helpers."""

from __future__ import annotations

import os

# Ray's token authentication stays on, for local and multi-node clusters alike (read when Ray is imported)
os.environ.setdefault("RAY_AUTH_MODE", "token")

import gymnasium as gym  # noqa: E402
import pytest  # noqa: E402

import hybridgym  # noqa: E402
from hybridgym.tasks import SUITES


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
