"""The episode's workspace: a directory shared by the GUI apps and the SDK, and the file API confined to it."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

#: what a checker's snapshot reads at most: files, bytes of one file, bytes in all
SNAPSHOT_FILES = 10_000
SNAPSHOT_FILE_BYTES = 1 << 20
SNAPSHOT_TOTAL_BYTES = 64 << 20
#: most entries a folder listing (`Workspace.listing`) gives
LISTING_ENTRIES = 1000


class PathEscapeError(PermissionError):
    """A path that would leave the workspace."""


def capped_text(data: bytes, limit: int) -> str:
    """A file's text for an agent: at most `limit` bytes, marked when cut."""
    text = data[:limit].decode("utf-8", errors="replace")
    if len(data) > limit:
        text += f"\n[truncated at {limit} bytes]"
    return text


class Workspace:
    """A directory that lives as long as the env; `clear()` empties it for a new episode.

    Paths given to `resolve`, `read_text` and `write_text` are relative to the
    workspace, or absolute inside it; `..` and symlinks that lead outside are refused.
    """

    def __init__(self, root: Path | None = None, max_read_bytes: int = 1 << 20, *, owned: bool | None = None):
        self._owned = root is None if owned is None else owned
        self.root = Path(root or tempfile.mkdtemp(prefix="hybridgym-ws-")).resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.max_read_bytes = max_read_bytes
        #: (uid, gid) that files written through the file API get (the jail's), None: the caller's
        self.owner: tuple[int, int] | None = None

    def clear(self) -> None:
        """Empty the workspace, however deep its folders are nested."""
        remove_all([str(child) for child in self.root.iterdir()])

    def resolve(self, path: str | os.PathLike) -> Path:
        raw = os.fspath(path)
        if not raw or "\x00" in raw:
            raise PathEscapeError(f"invalid path {raw!r}")
        p = Path(raw)
        full = (p if p.is_absolute() else self.root / p)
        real = Path(os.path.realpath(full))
        if real != self.root and self.root not in real.parents:
            raise PathEscapeError(f"path {raw!r} is outside the workspace {self.root}; "
                                  "use a path relative to the workspace")
        return real

    def read_text(self, path: str) -> str:
        target = self.resolve(path)
        if not target.is_file():
            raise FileNotFoundError(f"no file {path!r} in the workspace")
        fd = self._open_beneath(target, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as f:
            return capped_text(f.read(self.max_read_bytes + 1), self.max_read_bytes)

    def write_text(self, path: str, content: str) -> int:
        target = self.resolve(path)
        data = content.encode("utf-8")
        fd = self._open_beneath(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, make_parents=True)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        return len(data)

    def listing(self, path: str, depth: int = 2) -> list[str]:
        """What is in folder `path` down to `depth` levels: paths relative to it, a folder's with a
        trailing "/", in path order, hidden ones (a name starting with ".") and what is in them left
        out, at most LISTING_ENTRIES; symlinks are listed, not followed.  FileNotFoundError if
        there is no `path`, NotADirectoryError if it is not a folder."""
        folder = self.resolve(path)
        if not folder.is_dir():
            if folder.exists():
                raise NotADirectoryError(f"{path!r} is not a folder")
            raise FileNotFoundError(f"no file or folder {path!r} in the workspace")
        # walked by file descriptors, opening no symlink: a program of the agent's that swaps a folder
        # for a symlink meanwhile gets that folder skipped, never listed from outside
        nofollow = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            top = os.open(self.root, nofollow)
            for part in folder.relative_to(self.root).parts:
                inner = os.open(part, nofollow, dir_fd=top)
                os.close(top)
                top = inner
        except OSError:
            raise FileNotFoundError(f"no folder {path!r} in the workspace") from None
        out, todo = [], [(top, "", 1)]
        while todo:
            fd, rel, level = todo.pop(0)
            try:
                if len(out) >= LISTING_ENTRIES:
                    continue
                with os.scandir(fd) as it:
                    entries = sorted(it, key=lambda e: e.name)
                for e in entries:
                    if e.name.startswith("."):
                        continue
                    is_dir = e.is_dir(follow_symlinks=False)
                    out.append(f"{rel}{e.name}{'/' if is_dir else ''}")
                    if is_dir and level < depth:
                        try:
                            todo.append((os.open(e.name, nofollow, dir_fd=fd), f"{rel}{e.name}/", level + 1))
                        except OSError:
                            pass
            except OSError:
                pass
            finally:
                os.close(fd)
        return sorted(out[:LISTING_ENTRIES])

    def _open_beneath(self, target: Path, flags: int, make_parents: bool = False) -> int:
        """Open `target` (a resolved path inside the workspace) one component at a time from the
        workspace's root, following no symlink: a program of the agent's that swaps a folder for
        a symlink meanwhile makes the call fail, never reach outside. New files and folders are
        given to `owner` (the jail's uid)."""
        parts = target.relative_to(self.root).parts
        if not parts:
            raise IsADirectoryError(f"{target} is the workspace itself")
        nofollow = os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | nofollow)
        try:
            for part in parts[:-1]:
                if make_parents:
                    try:
                        os.mkdir(part, 0o755, dir_fd=fd)
                        if self.owner is not None:
                            os.chown(part, *self.owner, dir_fd=fd, follow_symlinks=False)
                    except FileExistsError:
                        pass
                try:
                    nxt = os.open(part, os.O_RDONLY | os.O_DIRECTORY | nofollow, dir_fd=fd)
                except OSError as e:
                    raise PathEscapeError(f"{target}: {part!r} is not a folder of the workspace "
                                          f"({os.strerror(e.errno)})") from None
                os.close(fd)
                fd = nxt
            try:
                out = os.open(parts[-1], flags | nofollow, 0o644, dir_fd=fd)
            except OSError as e:
                if e.errno == errno.ELOOP:
                    raise PathEscapeError(f"{target} changed into a symlink while it was opened") from None
                raise
            if self.owner is not None and flags & os.O_CREAT:
                os.fchown(out, *self.owner)
            return out
        finally:
            os.close(fd)

    def snapshot(self, max_bytes: int = SNAPSHOT_FILE_BYTES) -> dict[str, bytes]:
        """Every regular file under the workspace (relative path -> bytes), for checkers; bounded
        (see `snapshot_files`)."""
        return snapshot_files(self.root, max_bytes=max_bytes)

    def remove(self) -> None:
        if self._owned:
            remove_all([str(self.root)])


def remove_all(paths: list[str]) -> None:
    """Remove files and folders however deep they are nested (`shutil.rmtree` recurses in
    Python and fails past ~1,000 levels; `rm` does not)."""
    if not paths:
        return
    subprocess.run(["rm", "-rf", "--one-file-system", "--", *paths],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for p in paths:   # what rm could not remove (no rm on the machine, an odd file)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p, ignore_errors=True)
        elif os.path.lexists(p):
            try:
                os.unlink(p)
            except OSError:
                pass


def snapshot_files(root: Path, skip: tuple[str, ...] = (), max_bytes: int = SNAPSHOT_FILE_BYTES,
                   max_files: int = SNAPSHOT_FILES, max_total: int = SNAPSHOT_TOTAL_BYTES) -> dict[str, bytes]:
    """Regular files under `root` (relative path -> at most `max_bytes` of each), without
    descending into the top-level folders named in `skip`; symlinks are not followed.

    Bounded whatever the agent made: at most `max_files` files and `max_total` bytes in all
    (sparse files count by what is read), in a walk that does not recurse (folders nested
    thousands deep are fine). Files past a bound are left out, in path order."""
    root = Path(root)
    out: dict[str, bytes] = {}
    total = 0
    stack = [(os.fspath(root), "")]
    while stack:
        path, rel = stack.pop()
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name, reverse=True)
        except OSError:
            continue
        files, dirs = [], []
        for e in entries:
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            name = f"{rel}{e.name}"
            if stat.S_ISDIR(st.st_mode):
                if not (rel == "" and e.name in skip):
                    dirs.append((e.path, name + "/"))
            elif stat.S_ISREG(st.st_mode):
                files.append((e.path, name))
        for full, name in reversed(files):
            if len(out) >= max_files or total >= max_total:
                return out
            try:
                fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                continue
            try:
                with os.fdopen(fd, "rb") as f:
                    data = f.read(min(max_bytes, max_total - total))
            except OSError:
                continue
            out[name] = data
            total += len(data)
        stack.extend(dirs)
    return out
