"""The house rules of the layout, checked on the source: the engine imports no task content, the
task contract imports no env, families stay small and independent, and process handling is one module."""

from __future__ import annotations

import ast
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TASKS_DIR = ROOT / "tasks"
NOT_FAMILIES = {"__init__", "base", "game_players"}
FAMILIES = sorted(p for p in TASKS_DIR.glob("*.py") if p.stem not in NOT_FAMILIES)


def _imports(path: Path) -> set[str]:
    """Absolute names of the modules a file imports (relative imports resolved in its package)."""
    pkg = {"envs": "hybridgym", "tasks": "hybridgym.tasks", "reward": "hybridgym.reward"}[path.relative_to(ROOT).parts[0]]
    sub = path.relative_to(ROOT).parts[1:-1]
    here = ".".join([pkg, *sub])
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def test_the_engine_imports_only_the_task_contract():
    for path in sorted((ROOT / "envs").rglob("*.py")):
        # the catalogue is imported once, to register the gym ids; everything else is the contract
        allowed = ("hybridgym.tasks",) if path.name == "registration.py" else ()
        bad = {m for m in _imports(path) if m.startswith("hybridgym.tasks") and m not in allowed
               and m != "hybridgym.tasks.base" and not m.startswith("hybridgym.tasks.base.")}
        assert not bad, f"{path.relative_to(ROOT)} imports task content: {sorted(bad)}"


def test_the_task_contract_imports_no_env():
    code = ("import sys, hybridgym.tasks.base; "
            "envs = [m for m in sys.modules if m.split('.')[:2] in (['hybridgym', n] for n in "
            "('core', 'computer', 'browser', 'mobile', 'game', 'miniwob'))]; "
            "print(envs); sys.exit(1 if envs else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("path", FAMILIES, ids=lambda p: p.stem)
def test_a_family_is_small_and_imports_no_other_family(path):
    assert len(path.read_text().splitlines()) <= 500, f"{path.name} is over 500 lines"
    others = {f"hybridgym.tasks.{p.stem}" for p in FAMILIES if p != path}
    bad = {m for m in _imports(path) if m in others or any(m.startswith(o + ".") for o in others)}
    assert not bad, f"{path.name} imports another family: {sorted(bad)}"
    assert "## Description" in (ast.get_docstring(ast.parse(path.read_text())) or ""), \
        f"{path.name} opens without the Gymnasium-style docstring sections"


def test_processes_are_handled_in_one_module():
    """Nobody but sandbox/processes.py kills process groups or scans /proc."""
    for path in [*sorted((ROOT / "envs").rglob("*.py")), *sorted((ROOT / "tests").glob("*.py"))]:
        # (test_security.py's attacks read /proc/1/environ inside the jail, as shell text)
        if path.name in ("processes.py", "test_layout.py", "test_security.py"):
            continue
        text = path.read_text()
        for needle in ("os.killpg", 'os.listdir("/proc")', "/environ"):
            assert needle not in text, f"{path.relative_to(ROOT)} uses {needle}: use hybridgym.sandbox.processes"


def test_kill_group_stops_grandchildren_and_marked_finds_a_process_that_left_the_tree():
    from hybridgym.sandbox.processes import children, descendants, is_gone, kill_group, kill_pid, marked, spawn
    token = f"layout-test-{id(object())}"
    env = {"PATH": "/usr/bin:/bin", "HYBRIDGYM_TEST_MARK": token}
    # a shell that starts a grandchild, and a daemon that leaves the tree (double fork)
    leader = spawn(["bash", "-c", "sleep 60 & sleep 60"], env)
    daemon = spawn(["bash", "-c", "setsid sleep 61 & exit 0"], env)
    daemon.wait(timeout=10)
    deadline = time.monotonic() + 5
    while len(descendants(leader.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    grand = descendants(leader.pid)
    assert len(grand) == 2 and children(leader.pid)
    found = set(marked("HYBRIDGYM_TEST_MARK", token))
    assert grand <= found and leader.pid in found and len(found) == 4   # the leader, its two, the daemon
    kill_group(leader)
    assert leader.poll() is not None
    deadline = time.monotonic() + 5   # the group got the signal; its members need a moment to exit
    while not all(is_gone(p) for p in grand) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert all(is_gone(p) for p in grand)
    (left,) = marked("HYBRIDGYM_TEST_MARK", token)   # the daemon, out of the leader's group
    kill_pid(left)
    assert is_gone(left) and not marked("HYBRIDGYM_TEST_MARK", token)
