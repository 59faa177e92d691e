"""The jail: what confines every process the agent can drive (the SDK shell, the desktop session
and its apps, the suites' browsers).

One `Jail` per env (per `Sandbox`). Run as root (the README's set-up, CI), it gives its programs:

- **a user of their own**: a uid no other env and no host account uses (`UID_BASE` + a slot,
  locked by a file for as long as the env lives), all capabilities dropped, no setuid way back
  (`no_new_privs`), no nested user namespaces; they see an `/etc/passwd` naming only them;
- **a filesystem view** of the workspace (a tmpfs of `Limits.disk_bytes` and `Limits.files`,
  owned by that uid) plus the read-only system folders programs need (`/usr`, an allow-list of
  `/etc`, the font cache): not `/`, not `/root`, not the host's `/tmp`, not the checkout, a
  `/proc` of their own pid namespace only;
- **a network** of their own: a network namespace per env whose only listener is the task's
  web server (`listen`); the SDK shell gets an empty one per command;
- **a clean environment**: only the variables the caller names;
- **limits**: a cgroup per env (processes and memory of all its programs) and one for the
  shell, with per-process rlimits (address space, CPU time, file size, open files);
- **a death with their owner**: `--die-with-parent` on every program, the reaper
  (`hybridgym.sandbox.reaper`) that kills the uid's processes, unmounts and removes the env's
  folders when the owner process dies (also by SIGKILL), and a sweep at start-up of what a
  dead owner left (`sweep`).

Not root, a jail still runs every program under bubblewrap in a user namespace (no
capabilities, the same filesystem view, a clean environment), but as the caller's own uid, on a
plain folder without quota, without cgroups, and the GUI programs share the host's network
(Chromium's proxy rule alone keeps the browser on the task's server). `privileged` tells which.
docs/security.md states what is contained and how.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from . import reaper
from .processes import kill_all, require, spawn, uid_processes

#: where the agent's home (the workspace) is seen in the jail, besides its own path: a path like any user's
#: home, the same in every process (file dialogs, `pwd`, window titles show it; the host's is per process)
INSIDE_HOME = "/home/user"
#: the environment of the wrappers (cgroup join, nsenter, prlimit, setpriv, bwrap)
_LAUNCH_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}

#: where every env's jail folder lives (one per env: `<owner pid>-<slot>`)
JAIL_ROOT = Path(os.environ.get("HYBRIDGYM_JAIL_ROOT") or Path(tempfile.gettempdir()) /
                 ("hybridgym-jails" if os.geteuid() == 0 else f"hybridgym-jails-{os.geteuid()}"))
#: the agents' uids: UID_BASE + slot, slots 0..SLOTS-1 (no host account has such a uid)
UID_BASE = 2_000_000
SLOTS = 10_000
#: the path of the workspace inside every jail of this machine is the same as outside
#: (paths in task files and app arguments mean the same on both sides)
CGROUP_FS = Path("/sys/fs/cgroup")

#: host files of /etc the jail does not show (an empty file or folder in their place): the
#: jailed uid could not read most of them anyway; the jail's own passwd, group, hosts... replace
#: the host's, and /etc/chromium is the jail's (its managed browser policy)
ETC_HIDDEN = ("shadow", "shadow-", "gshadow", "gshadow-", "subuid", "subgid", "sudoers", "ssh",
              "ssl/private", "security", "pam.d", "apache2", "lighttpd", "postgresql", "ldap", "cron.d")
ETC_OWN = ("passwd", "group", "hostname", "hosts", "resolv.conf")
#: read-only folders besides /usr and /etc (those that exist)
RO_DIRS = ("/var/cache/fontconfig", "/var/lib/dbus")

CLONE_NEWNET = 0x40000000
_libc = ctypes.CDLL(None, use_errno=True)


@dataclass(frozen=True)
class Limits:
    """What the agent's programs may spend (the defaults suit every task of the suites).

    disk_bytes, files: the workspace's size and number of files and folders (a tmpfs quota).
    processes, memory_bytes: all the env's jailed programs together (threads count as processes).
    shell_*: one SDK command with everything it starts: processes, memory, CPU seconds; and the
    address space of each of its processes.
    """
    disk_bytes: int = 256 << 20
    files: int = 20_000
    processes: int = 4096
    memory_bytes: int = 6 << 30
    shell_processes: int = 128
    shell_memory_bytes: int = 512 << 20
    shell_address_space: int = 2 << 30
    shell_cpu_s: int = 60
    open_files: int = 4096


def _owner_tag(pid: int) -> str | None:
    """`pid:starttime` of a live process (a pid is reused; its start time tells), None if gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] == "Z":
            return None
        return f"{pid}:{fields[19]}"
    except (OSError, ValueError, IndexError):
        return None


def _in_thread(fn):
    """Run `fn` in a thread of its own (a namespace change then stays in that thread)."""
    box: dict = {}

    def body():
        try:
            box["value"] = fn()
        except BaseException as e:   # handed to the caller
            box["error"] = e
    t = threading.Thread(target=body, name="hybridgym-jail-ns")
    t.start()
    t.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def _loopback_up() -> None:
    SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        ifr = fcntl.ioctl(s, SIOCGIFFLAGS, struct.pack("16sH22x", b"lo", 0))
        flags = struct.unpack("16sH", ifr[:18])[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH22x", b"lo", flags | IFF_UP))


def kill_uid(uid: int, keep: "set[int] | frozenset[int]" = frozenset(), timeout: float = 3.0) -> None:
    """SIGKILL every process of `uid` but those in `keep`."""
    kill_all(lambda: [p for p in uid_processes(uid) if p not in keep], timeout)


class Jail:
    """One env's confinement; `start()` once, `close()` at the end (the reaper does it if the
    owner dies first). `home` is the workspace (the agent's home); `argv` wraps a program."""

    def __init__(self, limits: Limits | None = None):
        self.limits = limits or Limits()
        self.privileged = os.geteuid() == 0
        self.uid = self.gid = os.getuid()
        self.slot: int | None = None
        self.dir: Path | None = None
        self.home: Path | None = None
        self.run: Path | None = None
        self._etc: Path | None = None
        self._lock_fd: int | None = None
        self._netns_fd: int | None = None
        self._cgroups: dict[str, Path] = {}        # controller -> the env's cgroup
        self._shell_cgroups: dict[str, Path] = {}  # controller -> the shell's cgroup (inside the env's)
        self._mounted = False
        self._etc_binds: list[str] | None = None
        self._registered: list[tuple[str, str]] = []

    # -- lifetime ----------------------------------------------------------
    def start(self) -> "Jail":
        JAIL_ROOT.mkdir(parents=True, exist_ok=True)
        if self.privileged:
            os.chmod(JAIL_ROOT, 0o711)   # the jailed uid passes through to its folder; nobody lists it
        sweep()
        try:
            if self.privileged:
                self._take_slot()
                self.uid = self.gid = UID_BASE + self.slot
                kill_uid(self.uid)   # what a dead owner of the slot left running
            name = f"{os.getpid()}-{self.slot if self.slot is not None else next(_counter)}"
            self.dir = JAIL_ROOT / name
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir.mkdir(mode=0o711)
            (self.dir / "owner").write_text(_owner_tag(os.getpid()) or "")
            self._register("dir", str(self.dir))
            if self.privileged:
                self._register("uid", str(self.uid))
            self.home = self.dir / "home"
            self.home.mkdir(mode=0o700)
            if self.privileged:
                self._mount_home()
            self.run = self.dir / "run"
            self.run.mkdir(mode=0o700)
            self._etc = self.dir / "etc"
            self._etc.mkdir()
            self._write_etc()
            self.give(self.home, self.run)
            if self.privileged:
                self._netns_fd = _in_thread(self._make_netns)
                self._make_cgroups()
        except Exception:
            self.close()
            raise
        return self

    def _take_slot(self) -> None:
        locks = JAIL_ROOT / "slots"
        locks.mkdir(exist_ok=True)
        start = (os.getpid() * 7919) % SLOTS
        for i in range(SLOTS):
            slot = (start + i) % SLOTS
            fd = os.open(locks / f"{slot}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            self.slot, self._lock_fd = slot, fd
            return
        raise RuntimeError(f"all {SLOTS} jail slots are taken")

    def _mount_home(self) -> None:
        lim = self.limits
        opts = f"size={lim.disk_bytes},nr_inodes={lim.files},mode=0700,uid={self.uid},gid={self.gid}"
        require("mount", "the jail's private home folder")
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"{opts},nosuid,nodev", "hybridgym-home", str(self.home)],
                       check=True, capture_output=True)
        self._mounted = True
        self._register("mount", str(self.home))

    def _write_etc(self) -> None:
        home = self.home
        (self._etc / "passwd").write_text(
            "root:x:0:0:root:/root:/usr/sbin/nologin\n"
            f"user:x:{self.uid}:{self.gid}:user:{INSIDE_HOME}:/bin/bash\n"
            "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
        (self._etc / "group").write_text(f"root:x:0:\nuser:x:{self.gid}:\nnogroup:x:65534:\n")
        (self._etc / "hostname").write_text("hybridgym\n")
        (self._etc / "hosts").write_text("127.0.0.1 localhost hybridgym\n::1 localhost\n")
        (self._etc / "resolv.conf").write_text("")
        (self._etc / "empty").write_text("")
        for kind in ("driven", "desktop"):   # the jail's /etc/chromium: the host's files, our policy
            own = self._etc / "chromium" / kind
            if Path("/etc/chromium").is_dir():
                shutil.copytree("/etc/chromium", own, symlinks=True, ignore=shutil.ignore_patterns("policies"))
            managed = own / "policies" / "managed"
            managed.mkdir(parents=True, exist_ok=True)
            (managed / "hybridgym.json").write_text(json.dumps(browser_policy(home, kind), indent=1))

    def _make_netns(self) -> int:
        if _libc.unshare(CLONE_NEWNET) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"cannot make the env's network namespace: {os.strerror(err)}")
        _loopback_up()
        return os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)

    def _make_cgroups(self) -> None:
        lim = self.limits
        settings = {"pids": ("pids.max", lim.processes, lim.shell_processes),
                    "memory": ("memory.limit_in_bytes", lim.memory_bytes, lim.shell_memory_bytes)}
        for ctl, (knob, env_value, shell_value) in settings.items():
            base = CGROUP_FS / ctl
            if not (base / "cgroup.procs").exists() or not os.access(base, os.W_OK):
                continue   # no such cgroup controller here: the rlimits still hold
            group = base / "hybridgym" / self.dir.name
            try:
                group.mkdir(parents=True, exist_ok=True)
                self._register("cgroup", str(group))
                (group / knob).write_text(str(env_value))
                shell = group / "shell"
                shell.mkdir(exist_ok=True)
                (shell / knob).write_text(str(shell_value))
                if ctl == "memory":   # out of memory: kill in the group, never the owner
                    for g in (group, shell):
                        with_swap = g / "memory.memsw.limit_in_bytes"
                        if with_swap.exists():
                            with_swap.write_text((g / knob).read_text().strip())
            except OSError:
                continue
            self._cgroups[ctl], self._shell_cgroups[ctl] = group, shell

    def close(self) -> None:
        if self.privileged and self.slot is not None:
            kill_uid(self.uid)
        for group in [*self._shell_cgroups.values(), *self._cgroups.values()]:
            reaper.remove_cgroup(group)
        self._cgroups.clear()
        self._shell_cgroups.clear()
        if self._netns_fd is not None:
            os.close(self._netns_fd)
            self._netns_fd = None
        if self._mounted:
            subprocess.run(["umount", "-l", str(self.home)], capture_output=True)
            self._mounted = False
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        for kind, value in self._registered:
            reaper.forget(kind, value)
        self._registered.clear()

    def _register(self, kind: str, value: str) -> None:
        reaper.register(kind, value)
        self._registered.append((kind, value))

    # -- what the jail holds -------------------------------------------------
    def give(self, *paths: "os.PathLike | str") -> None:
        """Make files the owner placed (task files, app settings) the agent's: every file and
        folder under `paths` (not following symlinks) is chowned to the jail's uid."""
        if not self.privileged:
            return
        uid, gid = self.uid, self.gid
        for top in paths:
            stack = [os.fspath(top)]
            while stack:
                path = stack.pop()
                try:
                    st = os.lstat(path)
                    if st.st_uid != uid:
                        os.lchown(path, uid, gid)
                    if os.path.isdir(path) and not os.path.islink(path):
                        stack.extend(e.path for e in os.scandir(path))
                except OSError:
                    continue

    def listen(self, port: int) -> socket.socket:
        """A TCP socket listening on 127.0.0.1:`port` inside the env's network namespace (the
        jailed programs reach the task's server there, at the same URL as outside)."""
        if self._netns_fd is None:
            raise RuntimeError("this jail shares the host's network (not run as root)")

        def body():
            if _libc.setns(self._netns_fd, CLONE_NEWNET) != 0:
                err = ctypes.get_errno()
                raise OSError(err, os.strerror(err))
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", port))
            s.listen(128)
            return s
        return _in_thread(body)

    @property
    def shares_host_network(self) -> bool:
        return self._netns_fd is None

    # -- wrapping programs -------------------------------------------------------
    def argv(self, program: list[str], env: dict[str, str], *, shell: bool = False, network: bool = False,
             display: str | None = None, binds: tuple[str, ...] = (), ro_binds: tuple[str, ...] = (),
             policy: str | None = None, cwd: "os.PathLike | str | None" = None) -> list[str]:
        """`program` run in the jail: as its uid, in its view, with exactly `env`.

        shell: an SDK command (the shell's cgroup and rlimits, no display, no IPC with the host,
        and no network unless `network`: then the env's network namespace); else a GUI program (the env's network namespace, `display`'s X socket,
        the runtime folder `run`, the browser `policy` "driven" or "desktop").
        binds / ro_binds: more folders seen at their own path (writable / read-only).
        """
        lim = self.limits
        out: list[str] = []
        groups = self._shell_cgroups if shell else self._cgroups
        if groups:   # join the cgroups before anything of the agent's runs
            out += ["/bin/sh", "-c", 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; '
                    'shift; exec "$@"', "sh", *(str(g / "cgroup.procs") for g in groups.values()), "--"]
        if (network or not shell) and self._netns_fd is not None:
            out += ["/usr/bin/nsenter", f"--net=/proc/{os.getpid()}/fd/{self._netns_fd}", "--"]
        rlimits = [f"--nofile={lim.open_files}", "--core=0"]
        if shell:
            rlimits += [f"--as={lim.shell_address_space}", f"--cpu={lim.shell_cpu_s}",
                        f"--fsize={lim.disk_bytes}"]
        out += ["/usr/bin/prlimit", *rlimits, "--"]
        if self.privileged:
            out += ["/usr/bin/setpriv", f"--reuid={self.uid}", f"--regid={self.gid}", "--clear-groups",
                    "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
        out += [_bwrap(), "--unshare-user", "--disable-userns", "--unshare-pid", "--unshare-uts",
                "--hostname", "hybridgym", "--unshare-cgroup-try", "--die-with-parent", "--new-session"]
        if shell:
            out += ["--unshare-ipc"] + ([] if network else ["--unshare-net"])
        out += self._view()
        home = str(self.home)
        # the home at its own path (what the host side names: downloads, profiles) and at INSIDE_HOME,
        # where the programs are started and told their home is
        out += ["--bind", home, home, "--bind", home, INSIDE_HOME]
        for b in binds:
            out += ["--bind", b, b]
        for b in ro_binds:
            out += ["--ro-bind", b, b]
        if not shell:
            out += ["--bind", str(self.run), str(self.run)]
            if display is not None:
                sock = f"/tmp/.X11-unix/X{display.lstrip(':').split('.')[0]}"
                out += ["--ro-bind", sock, sock]
            if policy is not None and Path("/etc/chromium").is_dir():
                out += ["--ro-bind", str(self._etc / "chromium" / policy), "/etc/chromium"]
        out += ["--remount-ro", "/", "--chdir", self.inside(os.fspath(cwd or home)), "--clearenv"]
        for k, v in env.items():
            out += ["--setenv", k, self.inside(v)]
        if not shell:   # a GUI program's file arguments (an SDK command is the agent's text: left as it is)
            program = [program[0], *(self.inside(a) for a in program[1:])]
        return out + ["--", *program]

    def inside(self, value: str) -> str:
        """`value` with the host path of the home (at its start, or after a flag's "=") as the jail's
        programs see it: INSIDE_HOME."""
        home = str(self.home)
        if value == home or value.startswith(home + "/"):
            return INSIDE_HOME + value[len(home):]
        flag, eq, rest = value.partition("=")
        if eq and flag.startswith("-") and (rest == home or rest.startswith(home + "/")):
            return f"{flag}={INSIDE_HOME}{rest[len(home):]}"
        return value

    def _view(self) -> list[str]:
        """The read-only system part of the filesystem view."""
        if self._etc_binds is None:
            args = ["--ro-bind", "/usr", "/usr"]
            for link in ("bin", "lib", "lib64", "sbin"):
                host = Path("/") / link
                if host.is_symlink():
                    args += ["--symlink", os.readlink(host), f"/{link}"]
                elif host.is_dir():
                    args += ["--ro-bind", str(host), f"/{link}"]
            args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--ro-bind", "/etc", "/etc"]
            for name in ETC_HIDDEN:
                host = Path("/etc") / name
                if host.is_dir() and not host.is_symlink():
                    args += ["--tmpfs", str(host)]
                elif host.exists() and not host.is_symlink():
                    args += ["--ro-bind", str(self._etc / "empty"), str(host)]
            for name in ETC_OWN:
                if (Path("/etc") / name).exists() and not (Path("/etc") / name).is_symlink():
                    args += ["--ro-bind", str(self._etc / name), f"/etc/{name}"]
            for d in RO_DIRS:
                if Path(d).exists():
                    args += ["--ro-bind", d, d]
            self._etc_binds = args
        return list(self._etc_binds)

    def spawn(self, program: list[str], env: dict[str, str], **kw) -> subprocess.Popen:
        """Start `program` in the jail (see `argv`) as the leader of a new session; the
        wrappers that set it up start with an empty environment in `/`, so nothing of the
        owner's shows in the jail's `/proc`. A program that is not installed is a `MissingProgram`."""
        require(program[0])
        return spawn(self.argv(program, env, **kw), _LAUNCH_ENV, "/")

    def env(self, **extra: str) -> dict[str, str]:
        """The base environment of a jailed program (nothing of the owner's)."""
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(self.home), "USER": "user",
               "LOGNAME": "user", "LANG": "C.UTF-8", "SHELL": "/bin/bash", "TMPDIR": "/tmp"}
        env.update(extra)
        return env

    def executable(self, name: str, program: list[str], env: dict[str, str], **kw) -> str:
        """A script that runs `program` (plus its own arguments) in the jail: for a launcher that
        takes an executable path (Playwright's `executable_path`). A `--user-data-dir=` argument
        the launcher passes (Playwright's temporary profile) is given to the jail's uid and seen
        inside at its own path."""
        require(program[0])
        inner = self.argv(program, env, **kw)
        sep = inner.index("--", inner.index(_bwrap()))   # bwrap's own "--" before the program
        head, tail = inner[:sep], inner[sep:]
        script = self.dir / f"{name}.sh"
        q = " ".join(_sh_quote(a) for a in head)
        script.write_text(
            "#!/bin/sh\n# generated by hybridgym.sandbox.jail: the program in the env's jail\n"
            'extra=""\nfor a in "$@"; do case "$a" in --user-data-dir=*) d="${a#--user-data-dir=}"; '
            + (f'chown -R {self.uid}:{self.gid} "$d"; ' if self.privileged else "")
            + 'extra="$d";; esac; done\n'
            f'if [ -n "$extra" ]; then exec {q} --bind "$extra" "$extra" {" ".join(_sh_quote(a) for a in tail)} "$@"; fi\n'
            f'exec {q} {" ".join(_sh_quote(a) for a in tail)} "$@"\n')
        script.chmod(0o700)
        return str(script)


_owner_folders: dict[tuple[int, str], Path] = {}


def owner_folder(name: str) -> Path:
    """A folder of this process's under `JAIL_ROOT` (e.g. Playwright's temporary profiles),
    traversable by the jails' uids, removed by the reaper or the sweep once the process is gone."""
    key = (os.getpid(), name)
    if key not in _owner_folders:
        JAIL_ROOT.mkdir(parents=True, exist_ok=True)
        folder = JAIL_ROOT / f"{os.getpid()}-{name}"
        folder.mkdir(mode=0o711, exist_ok=True)
        os.chmod(folder, 0o711)
        (folder / "owner").write_text(_owner_tag(os.getpid()) or "")
        reaper.register("dir", str(folder))
        _owner_folders[key] = folder
    return _owner_folders[key]


def desktop_assets() -> Path:
    """The desktop's settings (assets/desktop: openbox's and GTK's configuration) as the jails
    read them: a copy in a folder of this process's, since the checkout itself may lie where the
    jails' uids cannot pass (under /root) and is no part of their view."""
    target = owner_folder("assets") / "desktop"
    if not target.is_dir():
        from ..assets import ASSETS
        tmp = target.with_name("desktop.part")
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(ASSETS / "desktop", tmp)
        for dirpath, dirnames, filenames in os.walk(tmp):
            os.chmod(dirpath, 0o755)
            for name in filenames:
                os.chmod(os.path.join(dirpath, name), 0o644)
        tmp.rename(target)
    return target


def browser_policy(home: Path, kind: str) -> dict:
    """Chromium's managed policy in a jail: no local files, no browser pages, no view-source or
    javascript: URLs, no incognito or guest windows, downloads into the workspace. "desktop"
    (the desktop's Chromium, which nothing drives) also has DevTools off; a Playwright-driven
    browser ("driven") needs the DevTools protocol, so its DevTools front end is blocked by URL
    (devtools://) instead."""
    policy = {
        "URLBlocklist": ["file://*", "chrome://*", "chrome-untrusted://*", "devtools://*", "view-source:*",
                         "javascript://*", "chrome-extension://*", "chrome-search://*", "filesystem:*"],
        "URLAllowlist": ["chrome://newtab", "chrome://new-tab-page", "chrome-search://local-ntp"],
        "IncognitoModeAvailability": 1, "BrowserGuestModeEnabled": False, "BrowserAddPersonEnabled": False,
        "DownloadDirectory": str(home / "Downloads"), "PromptForDownloadLocation": False,
        "AllowFileSelectionDialogs": False, "ExtensionInstallBlocklist": ["*"],
        "PasswordManagerEnabled": False, "TranslateEnabled": False, "MetricsReportingEnabled": False,
        "DefaultBrowserSettingEnabled": False, "BrowserSignin": 0, "SyncDisabled": True,
        "PrintingEnabled": False, "TaskManagerEndProcessEnabled": False,
    }
    if kind == "desktop":
        policy["DeveloperToolsAvailability"] = 2
    return policy


def _sh_quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


_bwrap_path: str | None = None


def _bwrap() -> str:
    global _bwrap_path
    if _bwrap_path is None:
        _bwrap_path = require("bwrap", "bubblewrap: the jail of the SDK's commands and the apps")
    return _bwrap_path


def _counter_gen():
    n = 0
    while True:
        n += 1
        yield f"u{n}"


_counter = _counter_gen()


def sweep() -> None:
    """Remove what dead owners left under `JAIL_ROOT`: their programs (by uid), workspace
    mounts, cgroups and folders. Runs at every jail's start; a live owner's jail is kept."""
    if not JAIL_ROOT.is_dir():
        return
    for entry in JAIL_ROOT.iterdir():
        if entry.name == "slots" or not entry.is_dir():
            continue
        try:
            tag = (entry / "owner").read_text().strip()
            pid = int(tag.split(":")[0])
        except (OSError, ValueError):
            tag, pid = "", -1
        if pid > 0 and _owner_tag(pid) == tag:
            continue   # its owner lives
        if pid < 0 and time.time() - entry.stat().st_mtime < 60:
            continue   # being made right now
        reaper.clean_jail_dir(entry)
