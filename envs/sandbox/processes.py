"""Processes: start them in a session of their own, kill a whole group, and find processes by
parent or by a mark in their environment. The one implementation the sandbox, the desktop, the
SDK shell, the Ray vector env and the tests use."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time

#: the programs a sandbox starts -> the Debian package that has them (the set-up, `.ci/setup`, installs all)
PACKAGES = {
    "Xvfb": "xvfb", "xauth": "xauth", "chromium": "chromium", "bwrap": "bubblewrap", "openbox": "openbox",
    "tint2": "tint2", "mousepad": "mousepad", "xterm": "xterm", "pcmanfm": "pcmanfm", "galculator": "galculator",
    "gnumeric": "gnumeric", "ristretto": "ristretto", "dbus-daemon": "dbus-daemon", "dbus-launch": "dbus-x11",
    "python3": "python3-pyatspi", "sshd": "openssh-server", "zip": "zip", "unzip": "unzip", "curl": "curl",
    "setpriv": "util-linux", "nsenter": "util-linux", "prlimit": "util-linux", "mount": "mount",
    "xdotool": "xdotool", "wmctrl": "wmctrl", "chromedriver": "chromium-driver",
}


class MissingProgram(RuntimeError):
    """A program the sandbox needs is not installed: the message names its package and the set-up."""

    def __init__(self, program: str, purpose: str = ""):
        name = os.path.basename(program)
        package = PACKAGES.get(name, name)
        self.program, self.package = program, package
        super().__init__(
            f"{program} is not installed{' (' + purpose + ')' if purpose else ''}: it is in the Debian package "
            f"{package!r}. hybridgym's system packages are installed by its set-up: as root on Debian, "
            f"`bash .ci/setup` in a clone of the repository (or `apt-get install {package}`); "
            f"without root, see 'Set-up without root' in the README")


def require(program: str, purpose: str = "") -> str:
    """The path of `program` (a name on PATH or a path), or MissingProgram naming its package and the set-up."""
    found = shutil.which(program)
    if found is None:
        raise MissingProgram(program, purpose)
    return found


def spawn(argv: list[str], env: dict[str, str] | None = None, cwd: "os.PathLike | str | None" = None, *,
          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) -> subprocess.Popen:
    """Start `argv` as the leader of a new session (so `kill_group` reaches all it starts), with
    no standard input and, by default, its output discarded. A program that is not installed is a
    `MissingProgram` error naming its Debian package and the set-up."""
    if os.path.sep not in argv[0]:
        require(argv[0])
    return subprocess.Popen(argv, env=env, cwd=None if cwd is None else str(cwd), stdin=subprocess.DEVNULL,
                            stdout=stdout, stderr=stderr, start_new_session=True)


def kill_group(proc: subprocess.Popen, first: int = signal.SIGTERM, grace: float = 2.0) -> None:
    """Stop the process group `proc` leads: `first` (SIGTERM: a chance to exit cleanly), then
    SIGKILL after `grace` seconds; waits for `proc` (no zombie is left)."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, first)
            proc.wait(timeout=grace)
        except (ProcessLookupError, PermissionError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass


def kill_pid(pid: int, timeout: float = 2.0, group: bool = True) -> None:
    """SIGKILL a process that is not our child (with `group`, its group too when it leads one),
    and wait up to `timeout` seconds until it is gone or a zombie."""
    try:
        if group and os.getpgid(pid) == pid:
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not is_gone(pid):
        time.sleep(0.01)


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process from /proc, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        fields = stat[stat.rindex(")") + 2:].split()
        return fields[0], int(fields[1])
    except (OSError, ValueError, IndexError):
        return None


def pids() -> list[int]:
    """Every process of the machine (that /proc shows us)."""
    return [int(e) for e in os.listdir("/proc") if e.isdigit()]


def is_gone(pid: int) -> bool:
    """Whether a process has exited (a zombie counts as gone)."""
    st = _stat(pid)
    return st is None or st[0] == "Z"


#: SIGKILL's bit in /proc's signal masks, and PF_EXITING in /proc/<pid>/stat's flags (the process is in its exit)
_SIGKILL_BIT = 1 << (signal.SIGKILL - 1)
_PF_EXITING = 0x4


def is_dying(pid: int) -> bool:
    """Whether a process has exited or is on its way out: gone, a zombie, in its exit, or with a SIGKILL
    pending. `kill` returns before the process is gone, and a loaded machine may not run its exit for a while:
    `is_gone` is False all that time. Two reads of /proc with plain system calls (a game step makes it twice)."""
    try:
        stat = _read_proc(f"/proc/{pid}/stat")
        fields = stat[stat.rindex(b")") + 2:].split()
        if fields[0] in (b"Z", b"X", b"x") or int(fields[6]) & _PF_EXITING:
            return True
        status = _read_proc(f"/proc/{pid}/status")
        for name in (b"\nSigPnd:", b"\nShdPnd:"):
            at = status.index(name) + len(name)
            if int(status[at:status.index(b"\n", at)], 16) & _SIGKILL_BIT:
                return True
    except (OSError, ValueError, IndexError):
        return True
    return False


def _read_proc(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 16384)
    finally:
        os.close(fd)


def children(pid: int) -> list[int]:
    """Live child processes of `pid`."""
    out = []
    for p in pids():
        st = _stat(p)
        if st is not None and st[0] != "Z" and st[1] == pid:
            out.append(p)
    return out


def descendants(pid: int | None = None) -> set[int]:
    """Live descendants of a process (default: this one)."""
    return descendants_in(table(), pid or os.getpid())


def has_mark(pid: int, var: str, value: str) -> bool:
    """Whether a process's environment has `var=value` (False once it is gone or unreadable)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return f"{var}={value}".encode() in f.read().split(b"\0")
    except OSError:
        return False


def marked(var: str, value: str) -> list[int]:
    """Live processes (other than this one) whose environment has `var=value`: what a sandbox
    started carries its mark, also after it left the process tree (a daemon, a re-parented child)."""
    return [p for p in pids() if p != os.getpid() and not is_gone(p) and has_mark(p, var, value)]


def cmdline(pid: int) -> str:
    """A process's command line, '' once it is gone."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def uid_processes(uid: int) -> list[int]:
    """Live processes whose real uid is `uid` (a jail's programs)."""
    out = []
    for p in pids():
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("Uid:"):
                        if int(line.split()[1]) == uid and not is_gone(p):
                            out.append(p)
                        break
        except (OSError, ValueError):
            continue
    return out


def kill_all(pids_of, timeout: float = 3.0) -> None:
    """SIGKILL what `pids_of()` returns, wait until those are gone, and look again (a fork in
    flight is caught by the next pass) until it returns nothing, for at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = [p for p in pids_of() if p != os.getpid()]
        if not left:
            return
        for p in left:
            try:
                os.kill(p, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        while time.monotonic() < deadline and not all(is_gone(p) for p in left):
            time.sleep(0.002)


def table() -> dict[int, tuple[str, int, int]]:
    """Every live process in one pass over /proc: pid -> (state, parent pid, real uid)."""
    out = {}
    for p in pids():
        try:
            with open(f"/proc/{p}/status") as f:
                state = ppid = uid = None
                for line in f:
                    if line.startswith("State:"):
                        state = line.split()[1]
                    elif line.startswith("PPid:"):
                        ppid = int(line.split()[1])
                    elif line.startswith("Uid:"):
                        uid = int(line.split()[1])
                        break
        except (OSError, ValueError, IndexError):
            continue
        if state not in (None, "Z", "X") and ppid is not None and uid is not None:
            out[p] = (state, ppid, uid)
    return out


def descendants_in(procs: dict[int, tuple[str, int, int]], pid: int) -> set[int]:
    """Descendants of `pid` in a `table()`."""
    kids: dict[int, list[int]] = {}
    for p, (_, ppid, _) in procs.items():
        kids.setdefault(ppid, []).append(p)
    out, todo = set(), [pid]
    while todo:
        for c in kids.get(todo.pop(), []):
            if c not in out:
                out.add(c)
                todo.append(c)
    return out
