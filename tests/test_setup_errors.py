"""A set-up that explains itself: a missing system program names its Debian package and the set-up command,
a missing optional package names its extra, unknown suites are errors with the list, and the CLI's output can
be cut short by a pipe. Each runs in a fresh interpreter, as a new user's would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PY = sys.executable


def _run(code: str, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})}, **kw)


def _path_without(tmp_path: Path, program: str) -> str:
    """A PATH with every system program but `program` (symlinks in one folder)."""
    d = tmp_path / "bin"
    d.mkdir()
    for src in ("/usr/local/bin", "/usr/bin", "/usr/sbin", "/bin", "/sbin"):
        if not os.path.isdir(src):
            continue
        for name in os.listdir(src):
            if name != program and not (d / name).exists():
                (d / name).symlink_to(Path(src) / name)
    return str(d)


def test_a_missing_xvfb_names_its_package_and_the_set_up(tmp_path):
    r = _run("import gymnasium as gym, hybridgym\n"
             "env = gym.make('hybridgym/game.snake-v0')\n"
             "try:\n    env.reset(seed=0)\nfinally:\n    env.close()\n",
             env={"PATH": _path_without(tmp_path, "Xvfb")})
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("hybridgym.sandbox.processes.MissingProgram: Xvfb is not installed"), r.stderr[-2000:]
    assert "'xvfb'" in last and "bash .ci/setup" in last and "without root" in last


def test_a_missing_miniwob_package_names_the_extra():
    block = "import sys; sys.modules['miniwob'] = None\n"   # as if it were not installed
    r = _run(block + "import gymnasium as gym, hybridgym\n"
                     "try:\n    gym.make('hybridgym/miniwob.click-button-v0')\n"
                     "except ValueError as e:\n    print('ERR', e)\n")
    assert r.returncode == 0 and r.stdout.startswith("ERR unknown task 'miniwob.click-button-v0'"), r.stderr
    assert "pip install 'hybridgym[miniwob]'" in r.stdout
    r = _run(block + "from hybridgym.cli import main; raise SystemExit(main(['list', '--suite', 'miniwob']))")
    assert r.returncode == 0 and "miniwob (0 tasks)" in r.stdout and "hybridgym[miniwob]" in r.stdout


def test_an_unknown_suite_is_an_error_with_the_suites():
    r = subprocess.run([PY, "-m", "hybridgym.cli", "list", "--suite", "nope"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    assert "unknown suite 'nope'; suites: computer, browser, mobile, game, miniwob" in r.stderr


def test_the_task_list_can_be_cut_short_by_a_pipe():
    lister = subprocess.Popen([PY, "-m", "hybridgym.cli", "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = lister.stdout.readline()
    lister.stdout.close()     # as `| head -1` does
    err = lister.stderr.read().decode()
    assert lister.wait(timeout=120) == 0 and first.startswith(b"computer (")
    assert "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.parametrize("extra", ["miniwob", "ray", "sb3", "mcp"])
def test_the_optional_extras_exist(extra):
    import tomllib
    extras = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert extras[extra], f"no [{extra}] extra"
