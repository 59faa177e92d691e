"""The episode's workspace: a directory shared by the GUI apps and the SDK, and the file API confined to it."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


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

    def __init__(self, root: Path | None = None, max_read_bytes: int = 1 << 20):
        self._owned = root is None
        self.root = Path(root or tempfile.mkdtemp(prefix="hybridgym-ws-")).resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.max_read_bytes = max_read_bytes

    def clear(self) -> None:
        for child in self.root.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child, ignore_errors=True)
            else:
                child.unlink(missing_ok=True)

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
        with open(target, "rb") as f:
            return capped_text(f.read(self.max_read_bytes + 1), self.max_read_bytes)

    def write_text(self, path: str, content: str) -> int:
        target = self.resolve(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        self.resolve(target.parent)  # the parent chain too must stay inside
        data = content.encode("utf-8")
        with open(target, "wb") as f:
            f.write(data)
        return len(data)

    def snapshot(self, max_bytes: int = 1 << 20) -> dict[str, bytes]:
        """Every regular file under the workspace (relative path -> bytes), for checkers."""
        out: dict[str, bytes] = {}
        for dirpath, dirnames, filenames in os.walk(self.root):
            for name in filenames:
                full = Path(dirpath) / name
                if full.is_symlink() or not full.is_file():
                    continue
                rel = full.relative_to(self.root).as_posix()
                with open(full, "rb") as f:
                    out[rel] = f.read(max_bytes)
        return out

    def remove(self) -> None:
        if self._owned:
            shutil.rmtree(self.root, ignore_errors=True)
