"""The SDK over SSH, against a real OpenSSH server the tests start on 127.0.0.1."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import gymnasium as gym
import paramiko
import pytest

import hybridgym  # noqa: F401
from hybridgym.agents import OracleAgent, run_episode
from hybridgym.sandbox import PathEscapeError
from hybridgym.sandbox.ssh import SSHSession, SSHTarget

SSHD = "/usr/sbin/sshd"
pytestmark = pytest.mark.skipif(not Path(SSHD).exists(), reason="openssh-server is not installed (.ci/setup)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _keygen(path: Path) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
    return path.with_suffix(".pub").read_text().strip()


@pytest.fixture(scope="module")
def sshd(tmp_path_factory):
    """A real sshd on 127.0.0.1 (key auth only), a client key, and a known_hosts file with its host key."""
    d = tmp_path_factory.mktemp("sshd")
    host_pub = _keygen(d / "host_key")
    client_pub = _keygen(d / "client_key")
    (d / "authorized_keys").write_text(client_pub + "\n")
    port = _free_port()
    (d / "sshd_config").write_text(f"""
Port {port}
ListenAddress 127.0.0.1
HostKey {d / 'host_key'}
PidFile {d / 'sshd.pid'}
AuthorizedKeysFile {d / 'authorized_keys'}
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
Subsystem sftp internal-sftp
""")
    Path("/run/sshd").mkdir(exist_ok=True)   # privilege separation folder
    proc = subprocess.Popen([SSHD, "-D", "-e", "-f", str(d / "sshd_config")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail(f"sshd did not start: {proc.stderr.read().decode(errors='replace')}")
    kind, key = host_pub.split()[:2]
    (d / "known_hosts").write_text(f"[127.0.0.1]:{port} {kind} {key}\n")
    (d / "empty_known_hosts").write_text("")
    yield {"port": port, "dir": d, "user": os.environ.get("USER") or "root"}
    proc.terminate()
    proc.wait(timeout=10)


def _target(sshd, tmp_path, **kw) -> SSHTarget:
    d = sshd["dir"]
    args = dict(host="127.0.0.1", port=sshd["port"], user="root", key_file=str(d / "client_key"),
                known_hosts=str(d / "known_hosts"), root=str(tmp_path / "remote-ws"))
    args.update(kw)
    return SSHTarget(**args)


@pytest.fixture
def session(sshd, tmp_path):
    s = SSHSession(_target(sshd, tmp_path), timeout=10)
    yield s
    s.close()


def test_commands_run_in_the_remote_workspace(session, tmp_path):
    r = session.run("pwd; echo hi >&2; exit 3")
    assert r.output.splitlines() == [str(tmp_path / "remote-ws"), "hi"] and r.exit_code == 3
    assert "[exit code 3]" in r.render()


def test_a_command_is_killed_at_the_time_limit(session):
    marker = f"sleep {4242 + os.getpid() % 1000}"
    r = session.run(marker, timeout=1)
    assert r.timed_out and r.exit_code is None and r.seconds < 5
    time.sleep(0.2)
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
    assert left == []                                     # nothing left running on the host


def test_output_is_capped(sshd, tmp_path):
    s = SSHSession(_target(sshd, tmp_path), max_output=1000)
    try:
        r = s.run("yes | head -c 100000")
        assert r.truncated and len(r.output) == 1000
    finally:
        s.close()


def test_files_are_confined_to_the_remote_workspace(session, tmp_path):
    assert session.write_text("notes/a.txt", "héllo") == 6
    assert (tmp_path / "remote-ws" / "notes" / "a.txt").read_text() == "héllo"
    assert session.read_text("notes/a.txt") == "héllo"
    with pytest.raises(PathEscapeError):
        session.read_text("../../etc/passwd")
    with pytest.raises(PathEscapeError):
        session.read_text("/etc/passwd")
    session.run("ln -s /etc escape")
    with pytest.raises(PathEscapeError, match="symlink"):
        session.read_text("escape/passwd")
    with pytest.raises(PathEscapeError, match="symlink"):
        session.write_text("escape/evil", "x")
    with pytest.raises(FileNotFoundError):
        session.read_text("missing.txt")


def test_snapshot_upload_and_clear(session):
    session.upload({"a/b.txt": b"one", "c.csv": b"x,y\n1,2\n"})
    assert session.snapshot() == {"a/b.txt": b"one", "c.csv": b"x,y\n1,2\n"}
    session.clear()
    assert session.snapshot() == {}


def test_an_unknown_host_is_refused_never_added(sshd, tmp_path):
    empty = sshd["dir"] / "empty_known_hosts"
    with pytest.raises(paramiko.SSHException, match="not found in known_hosts"):
        SSHSession(_target(sshd, tmp_path, known_hosts=str(empty)))
    assert empty.read_text() == ""


def test_a_changed_host_key_is_refused(sshd, tmp_path):
    other = tmp_path / "other_key"
    _keygen(other)
    kind, key = other.with_suffix(".pub").read_text().split()[:2]
    wrong = tmp_path / "wrong_known_hosts"
    wrong.write_text(f"[127.0.0.1]:{sshd['port']} {kind} {key}\n")
    with pytest.raises(paramiko.BadHostKeyException):
        SSHSession(_target(sshd, tmp_path, known_hosts=str(wrong)))


def test_a_key_the_server_does_not_know_is_refused(sshd, tmp_path):
    stranger = tmp_path / "stranger"
    _keygen(stranger)
    with pytest.raises(paramiko.AuthenticationException):
        SSHSession(_target(sshd, tmp_path, key_file=str(stranger)))


def test_target_arguments_are_checked(sshd, tmp_path):
    with pytest.raises(ValueError, match="absolute"):
        _target(sshd, tmp_path, root="relative/ws")
    with pytest.raises(ValueError, match="known_hosts"):
        _target(sshd, tmp_path, known_hosts=str(tmp_path / "nope"))


def test_a_hybrid_task_runs_its_sdk_over_ssh(sshd, tmp_path):
    """The order-total task: its files are copied to the remote workspace, the oracle greps there."""
    target = _target(sshd, tmp_path)
    env = gym.make("hybridgym/computer.find-order-total-v1", sdk_host=target)
    try:
        r = run_episode(env, OracleAgent(), 0)
        assert r["success"], r["message"]
        remote = Path(target.root)
        assert len(list(remote.glob("orders/*/order-*.txt"))) == 300
        # what the SDK writes remotely reaches the local workspace before the check
        obs, info = env.reset(seed=1)
        env.step({"action_type": "write_file", "path": "answer.txt", "content": "42"})
        env.step({"action_type": "terminal", "command": "rm -r orders/2025-01 2>/dev/null; echo done"})
        assert (remote / "answer.txt").read_text() == "42"
        env.step({"action_type": "finished", "content": "0"})
        local = env.unwrapped.sandbox.workspace.root
        assert (local / "answer.txt").read_text() == "42"
        assert not (local / "orders" / "2025-01").exists() or not any((local / "orders" / "2025-01").iterdir())
    finally:
        env.close()
    assert env.unwrapped.remote is None
