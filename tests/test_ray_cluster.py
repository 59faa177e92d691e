"""The Ray vector env on a real two-node Ray cluster started on this machine: placement by the
`sandbox` resource, compressed screenshots across nodes, and an actor killed mid-episode."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import hybridgym  # noqa: F401
from hybridgym.sandbox.processes import cmdline, kill_pid, pids
from hybridgym.vector import RayVectorEnv, owned_pids

ray = pytest.importorskip("ray")
# one xdist worker runs the Ray tests (several Ray instances on 2 cores would crowd each other)
pytestmark = pytest.mark.xdist_group(name="ray")

RAY = str(Path(sys.executable).with_name("ray"))
GAME = "hybridgym/game.snake-v0"
NOOP = {"action_type": "wait", "seconds": 0}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ray_cmd(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    return subprocess.run([RAY, *args], capture_output=True, text=True, timeout=180, env=env)


@pytest.fixture(scope="module")
def cluster():
    """`ray start --head` (no sandbox resource), then a second node offering {"sandbox": 4};
    token authentication on, the token shared by the nodes and the driver (~/.ray/auth_token)."""
    if ray.is_initialized():
        ray.shutdown()
    assert os.environ.get("RAY_AUTH_MODE") == "token"   # set in conftest, before Ray is imported
    token = _ray_cmd("get-auth-token", "--generate")
    assert token.returncode == 0, token.stderr
    port = _free_port()
    head = _ray_cmd("start", "--head", f"--port={port}", "--node-ip-address=127.0.0.1", "--num-cpus=1",
                    "--include-dashboard=false", "--disable-usage-stats")
    assert head.returncode == 0, head.stdout + head.stderr
    address = f"127.0.0.1:{port}"
    try:
        worker = _ray_cmd("start", f"--address={address}", "--node-ip-address=127.0.0.1", "--num-cpus=1",
                          '--resources={"sandbox": 4}', "--disable-usage-stats")
        assert worker.returncode == 0, worker.stdout + worker.stderr
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        _stop_cluster(port)


def _stop_cluster(port: int) -> None:
    """Kill this cluster's processes only (`ray stop` would stop every Ray on the machine):
    those whose command line names its GCS port, and the workers of its sessions."""
    marks = (f":{port}", f"={port}")
    for pid in pids():
        cmd = cmdline(pid)
        if pid != os.getpid() and ("ray" in cmd or "raylet" in cmd) and any(m in cmd for m in marks):
            kill_pid(pid, timeout=0, group=False)


def test_a_two_node_cluster_places_sub_envs_compresses_frames_and_replaces_a_killed_actor(cluster):
    """One test, so that one cluster serves it whichever xdist worker runs it."""
    v = RayVectorEnv(GAME, 2, address=cluster, env_kwargs={"max_steps": 40}, transport="auto")
    try:
        nodes = {n["NodeID"]: n for n in ray.nodes() if n["Alive"]}
        assert len(nodes) == 2
        sandbox_nodes = {nid for nid, n in nodes.items() if n["Resources"].get("sandbox")}
        assert set(v.nodes) <= sandbox_nodes                   # placed by the custom resource
        assert v._driver_node not in sandbox_nodes             # so the driver is on the other node ...
        obs, _ = v.reset(seed=0)                               # ... and frames arrive as PNG, decoded
        assert obs["screenshot"].shape == (2, 600, 800, 3) and obs["screenshot"].std() > 0
        local = RayVectorEnv(GAME, 1, transport="raw", resources={"sandbox": 1})
        try:
            same, _ = local.reset(seed=0)
            assert np.array_equal(same["screenshot"][0], obs["screenshot"][0])
        finally:
            local.close()
        # an actor killed in the middle of an episode is replaced on a sandbox node
        v.reset(seed=1)
        for _ in range(2):
            v.step([NOOP, NOOP])
        victim, token = v.where()[0]["pid"], v.tokens[0]
        os.kill(victim, signal.SIGKILL)
        _, _, _, trunc, info = v.step([NOOP, NOOP])
        assert trunc[0] and info["replaced"][0] and not trunc[1] and info["step"][1] == 3
        assert owned_pids(token) == []
        v.step([NOOP, NOOP])                                   # the new actor's reset
        _, _, _, trunc, info = v.step([NOOP, NOOP])
        assert not trunc.any() and list(info["step"]) == [1, 5]
        assert v.nodes[0] in {n["NodeID"] for n in ray.nodes() if n["Resources"].get("sandbox")}
    finally:
        v.close()
