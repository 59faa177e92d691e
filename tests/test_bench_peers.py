"""The peers' worker of benchmarks/bench_peers.py answers its protocol: for one env of each peer kind
(the `miniwob` package, BrowserGym) a reset and a click step come back with their times, and the
worker's process tree has a PSS. Skipped where the peers' venv is missing (CI has none:
`sh benchmarks/peers/setup.sh` makes it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PEERS_PYTHON = ROOT / ".venv-peers" / "bin" / "python"

if not PEERS_PYTHON.exists():
    pytest.skip("no peers venv (.venv-peers): run `sh benchmarks/peers/setup.sh` to test the peers' worker",
                allow_module_level=True)


def _bench_peers():
    spec = importlib.util.spec_from_file_location("bench_peers", ROOT / "benchmarks" / "bench_peers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench_peers = _bench_peers()


@pytest.fixture(scope="module")
def worker():
    w = bench_peers.PeerWorker()
    yield w
    w.close()
    assert w.proc.returncode == 0


@pytest.mark.parametrize("kind", ["miniwob", "browsergym"])
def test_worker_resets_steps_and_measures_one_env(worker, kind):
    made = worker.request("make", kind=kind, task="click-test", n=1)
    assert made["n"] == 1 and made["settings"]["package"]
    reset = worker.request("reset", i=0, seed=0)
    assert reset["ms"] > 0
    assert reset["observation"]["screenshot"][2] == 3          # an RGB picture came back
    step = worker.request("step", i=0, x=20, y=25)             # a click on the instruction bar
    assert step["ms"] > 0
    assert not step["terminated"] and step["error"] is None
    pss = worker.request("pss")
    assert pss["pss_kb"] > 0 and pss["processes"] > 1          # the worker and the browser it started
    worker.request("close")


def test_worker_reports_bad_commands_and_goes_on(worker):
    with pytest.raises(bench_peers.PeerError, match="unknown command 'jump'"):
        worker.request("jump")
    with pytest.raises(bench_peers.PeerError, match="out of range"):
        worker.request("reset", i=3, seed=0)
    with pytest.raises(bench_peers.PeerError, match="kind one of"):
        worker.request("make", kind="selenium", task="click-test", n=1)
    assert worker.request("pss")["envs"] == 0
