"""The reaper: a small process per owner process that removes what the owner's envs left when the
owner dies, by any death (SIGKILL included).

The owner registers what must not outlive it (`register(kind, value)`: a jail's uid, a process,
a mount, a cgroup, a folder) on a pipe; the reaper holds the pipe's other end. When the pipe
closes — the owner exited or was killed — it kills the uid's processes and the registered
processes, removes the cgroups, unmounts the mounts and removes the folders. What an env closes
normally it forgets again (`forget`).

This file runs as a script of its own (`python -I reaper.py`) and imports only the standard
library and its siblings `processes.py` and `workspace.py`: the reaper starts in a few tens of milliseconds, once per
owner process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

if __package__:
    from .processes import kill_all, kill_pid, uid_processes
    from .workspace import remove_all
else:   # run as a script (`python -I`: its own folder is not on sys.path)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from processes import kill_all, kill_pid, uid_processes
    from workspace import remove_all

_lock = threading.Lock()
_proc: "subprocess.Popen | None" = None
_pid: int | None = None


def _reaper() -> "subprocess.Popen":
    global _proc, _pid
    if _proc is None or _pid != os.getpid() or _proc.poll() is not None:
        if _proc is not None and _pid != os.getpid() and _proc.stdin is not None:
            try:   # a forked child: the parent's reaper is not ours; let it see its owner alone
                _proc.stdin.close()
            except OSError:
                pass
        # (an environment of its own: nothing that finds the owner's processes by a mark in their
        # environment, such as the Ray vector env's reaping, takes the reaper for one of them)
        _proc = subprocess.Popen([sys.executable, "-I", os.path.abspath(__file__)], stdin=subprocess.PIPE,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={"PATH": "/usr/bin:/bin"},
                                 cwd="/", start_new_session=True, close_fds=True)
        _pid = os.getpid()
    return _proc


def _send(line: str) -> None:
    with _lock:
        proc = _reaper()
        try:
            proc.stdin.write((line + "\n").encode())
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass


def register(kind: str, value: str) -> None:
    """Have the reaper remove `value` if this process dies: kind "uid" (kill its processes),
    "pid" (kill the process and its group), "cgroup", "mount" (unmount) or "dir" (remove)."""
    if kind not in KINDS or "\n" in value:
        raise ValueError(f"cannot register {kind!r} {value!r}")
    _send(f"add {kind} {value}")


def forget(kind: str, value: str) -> None:
    """The owner removed it itself."""
    if _proc is not None and _pid == os.getpid():
        _send(f"del {kind} {value}")


# -- the cleaning, shared with the start-up sweep ------------------------------
KINDS = ("uid", "pid", "cgroup", "mount", "dir")


def remove_cgroup(group: Path) -> None:
    for child in sorted((p for p in group.glob("*") if p.is_dir()), reverse=True):
        remove_cgroup(child)

    def members():
        try:
            return [int(p) for p in (group / "cgroup.procs").read_text().split()]
        except OSError:
            return []
    kill_all(members)
    for _ in range(300):
        try:
            group.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.01)


def unmount(path: str) -> None:
    subprocess.run(["umount", "-l", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def clean(found: dict[str, set[str]]) -> None:
    """Remove everything registered, in an order that works: processes first, folders last."""
    for uid in found.get("uid", ()):
        kill_all(lambda u=int(uid): uid_processes(u))
    for pid in found.get("pid", ()):
        kill_pid(int(pid))
    for group in found.get("cgroup", ()):
        remove_cgroup(Path(group))
    for mount in found.get("mount", ()):
        unmount(mount)
    for d in found.get("dir", ()):
        remove_all([d])


def clean_jail_dir(entry: Path) -> None:
    """What a dead owner left of one jail folder: its workspace mount, cgroups and the folder."""
    home = entry / "home"
    if os.path.ismount(home):
        unmount(str(home))
    for ctl in ("pids", "memory"):
        group = Path("/sys/fs/cgroup") / ctl / "hybridgym" / entry.name
        if group.is_dir():
            remove_cgroup(group)
    remove_all([str(entry)])


def main() -> None:
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)
    found: dict[str, set[str]] = {k: set() for k in KINDS}
    for raw in sys.stdin.buffer:
        try:
            op, kind, value = raw.decode().rstrip("\n").split(" ", 2)
        except ValueError:
            continue
        if kind in found:
            (found[kind].add if op == "add" else found[kind].discard)(value)
    clean(found)


if __name__ == "__main__":
    main()
