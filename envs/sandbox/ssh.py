"""The SDK over SSH: terminal commands and the file API on a machine reached with paramiko, for tasks whose workspace is remote.

Key authentication only; the host's key must already be in the given known_hosts
file (an unknown or changed host key is refused, never added). Commands run in
the remote workspace folder with a time limit (enforced on the remote side with
`timeout -s KILL`, and by closing the channel) and an output cap. File paths are
confined to the remote workspace: `..` and symlinks that lead outside are refused.
"""

from __future__ import annotations

import io
import posixpath
import shlex
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from .shell import OutputCap, ShellResult
from .workspace import LISTING_ENTRIES, PathEscapeError, capped_text


@dataclass(frozen=True)
class SSHTarget:
    """Where the SDK runs: `user@host:port`, authenticated by `key_file`, the host checked
    against `known_hosts`; `root` is the remote workspace (an absolute path, created if missing)."""
    host: str
    user: str
    key_file: str
    known_hosts: str
    root: str
    port: int = 22
    connect_timeout: float = 10.0

    def __post_init__(self):
        if not posixpath.isabs(self.root) or posixpath.normpath(self.root) == "/":
            raise ValueError(f"the remote workspace must be an absolute folder other than '/', got {self.root!r}")
        if not Path(self.known_hosts).is_file():
            raise ValueError(f"known_hosts file {self.known_hosts!r} does not exist; add the host's key to it "
                             "(e.g. with ssh-keyscan, checked by hand): unknown hosts are never trusted")


class SSHSession:
    """One SSH connection (and its SFTP channel) to an `SSHTarget`: a shell and a file API there."""

    def __init__(self, target: SSHTarget, *, timeout: float = 30.0, max_output: int = 64 * 1024,
                 max_read_bytes: int = 1 << 20):
        import paramiko
        self.target = target
        self.timeout, self.max_output, self.max_read_bytes = timeout, max_output, max_read_bytes
        self.root = posixpath.normpath(target.root)
        client = paramiko.SSHClient()
        client.load_host_keys(target.known_hosts)      # only these hosts; never the user's own files
        client.set_missing_host_key_policy(paramiko.RejectPolicy())
        try:
            client.connect(target.host, port=target.port, username=target.user, key_filename=target.key_file,
                           timeout=target.connect_timeout, banner_timeout=target.connect_timeout,
                           auth_timeout=target.connect_timeout, look_for_keys=False, allow_agent=False)
        except Exception:
            client.close()
            raise
        self.client = client
        self.sftp = client.open_sftp()
        self._exec(f"mkdir -p {shlex.quote(self.root)}", 10.0)
        self._real_root = self.sftp.normalize(self.root)

    def close(self) -> None:
        for part in (getattr(self, "sftp", None), getattr(self, "client", None)):
            if part is not None:
                try:
                    part.close()
                except Exception:
                    pass

    # -- the terminal ----------------------------------------------------------------
    def run(self, command: str, timeout: float | None = None) -> ShellResult:
        """Run a bash command in the remote workspace (stdout and stderr together)."""
        limit = self.timeout if timeout is None else timeout
        wrapped = (f"cd {shlex.quote(self.root)} && exec timeout -s KILL {max(1, int(limit + 0.999))} "
                   f"bash -c {shlex.quote(command)}")
        return self._exec(wrapped, limit)

    def _exec(self, wrapped: str, limit: float) -> ShellResult:
        start = time.monotonic()
        chan = self.client.get_transport().open_session(timeout=self.target.connect_timeout)
        chan.set_combine_stderr(True)
        chan.settimeout(0.2)
        chan.exec_command(wrapped)
        out, timed_out = OutputCap(self.max_output), False
        try:
            while True:
                if time.monotonic() - start > limit + 1.0:   # the remote `timeout` should have ended it
                    timed_out = True
                    break
                try:
                    data = chan.recv(65536)
                except TimeoutError:
                    if chan.exit_status_ready():
                        break
                    continue
                if not data or out.add(data):
                    break
            code = chan.recv_exit_status() if not (timed_out or out.truncated) else None
        finally:
            chan.close()
        elapsed = time.monotonic() - start
        if code in (137, -1) and elapsed >= limit - 0.1:   # killed by `timeout -s KILL` (-1: by a signal)
            timed_out, code = True, None
        return ShellResult(code, out.text(), timed_out, out.truncated, time.monotonic() - start)

    # -- the file API ----------------------------------------------------------------
    def resolve(self, path: str) -> str:
        """The remote absolute path of a workspace path, refusing `..` and symlink escapes."""
        raw = str(path)
        if not raw or "\x00" in raw:
            raise PathEscapeError(f"invalid path {raw!r}")
        full = posixpath.normpath(raw if posixpath.isabs(raw) else posixpath.join(self.root, raw))
        if not self._inside(full, self.root):
            raise PathEscapeError(f"path {raw!r} is outside the workspace {self.root}; use a path relative to it")
        # follow symlinks on the server: the deepest existing ancestor must stay inside too
        probe = full
        while True:
            try:
                real = self.sftp.normalize(probe)
                break
            except IOError:
                parent = posixpath.dirname(probe)
                if parent == probe:
                    raise PathEscapeError(f"cannot resolve {raw!r}") from None
                probe = parent
        if not self._inside(real, self._real_root):
            raise PathEscapeError(f"path {raw!r} leads outside the workspace {self.root} (through a symlink)")
        return full

    @staticmethod
    def _inside(path: str, root: str) -> bool:
        return path == root or path.startswith(root.rstrip("/") + "/")

    def read_text(self, path: str) -> str:
        target = self.resolve(path)
        try:
            st = self.sftp.stat(target)
        except IOError:
            raise FileNotFoundError(f"no file {path!r} in the workspace") from None
        if not stat.S_ISREG(st.st_mode):
            raise IsADirectoryError(f"{path!r} is not a file")
        with self.sftp.open(target, "rb") as f:
            return capped_text(f.read(self.max_read_bytes + 1), self.max_read_bytes)

    def write_text(self, path: str, content: str) -> int:
        return self.write_bytes(path, content.encode("utf-8"))

    def write_bytes(self, path: str, data: bytes) -> int:
        target = self.resolve(path)
        self._makedirs(posixpath.dirname(target))
        self.resolve(posixpath.dirname(target))   # the parent chain too must stay inside
        with self.sftp.open(target, "wb") as f:
            f.write(data)
        return len(data)

    def listing(self, path: str, depth: int = 2) -> list[str]:
        """What is in remote folder `path` down to `depth` levels, as `Workspace.listing` gives it
        (relative paths, folders with a trailing "/", hidden ones left out), read over SFTP."""
        folder = self.resolve(path)
        try:
            st = self.sftp.stat(folder)
        except IOError:
            raise FileNotFoundError(f"no file or folder {path!r} in the workspace") from None
        if not stat.S_ISDIR(st.st_mode):
            raise NotADirectoryError(f"{path!r} is not a folder")
        out, todo = [], [(folder, "", 1)]
        while todo and len(out) < LISTING_ENTRIES:
            where, rel, level = todo.pop(0)
            try:
                entries = sorted(self.sftp.listdir_attr(where), key=lambda e: e.filename)
            except IOError:
                continue
            for e in entries:
                if e.filename.startswith("."):
                    continue
                is_dir = stat.S_ISDIR(e.st_mode or 0)    # (listdir_attr does not follow symlinks)
                out.append(f"{rel}{e.filename}{'/' if is_dir else ''}")
                if is_dir and level < depth:
                    todo.append((posixpath.join(where, e.filename), f"{rel}{e.filename}/", level + 1))
        return sorted(out[:LISTING_ENTRIES])

    def _makedirs(self, folder: str) -> None:
        missing = []
        while folder != self.root and not self._exists(folder):
            missing.append(folder)
            folder = posixpath.dirname(folder)
        for d in reversed(missing):
            self.sftp.mkdir(d)

    def _exists(self, path: str) -> bool:
        try:
            self.sftp.lstat(path)
            return True
        except IOError:
            return False

    def snapshot(self, max_bytes: int = 1 << 20) -> dict[str, bytes]:
        """Every regular file under the remote workspace (relative path -> bytes), in one tar stream."""
        import tarfile
        data = self._stream(f"tar -C {shlex.quote(self.root)} -cf - .", b"")
        out: dict[str, bytes] = {}
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            for m in tar.getmembers():
                if m.isfile():
                    out[posixpath.normpath(m.name)] = tar.extractfile(m).read(max_bytes)
        return out

    def clear(self) -> None:
        """Empty the remote workspace."""
        self._exec(f"find {shlex.quote(self.root)} -mindepth 1 -delete", 30.0)

    def upload(self, files: dict[str, bytes]) -> None:
        """Write many files at once (one tar stream unpacked in the workspace)."""
        import tarfile
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:") as tar:
            for rel, data in sorted(files.items()):
                self.resolve(rel)   # refuse anything that would land outside
                info = tarfile.TarInfo(rel)
                info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
                tar.addfile(info, io.BytesIO(data))
        self._stream(f"tar -C {shlex.quote(self.root)} --no-same-owner -xf -", buf.getvalue())

    def _stream(self, command: str, stdin: bytes) -> bytes:
        """Run a command with `stdin` as its input; return its stdout (errors raise)."""
        chan = self.client.get_transport().open_session(timeout=self.target.connect_timeout)
        chan.settimeout(self.timeout)
        try:
            chan.exec_command(command)
            if stdin:
                chan.sendall(stdin)
            chan.shutdown_write()
            out, err = [], []
            while True:
                data = chan.recv(1 << 16)
                if not data:
                    break
                out.append(data)
            while chan.recv_stderr_ready():
                err.append(chan.recv_stderr(1 << 16))
            code = chan.recv_exit_status()
        finally:
            chan.close()
        if code != 0:
            raise RuntimeError(f"remote command failed ({code}): {command}: {b''.join(err).decode(errors='replace')}")
        return b"".join(out)

    def remove(self, path: str) -> None:
        self.sftp.remove(self.resolve(path))
