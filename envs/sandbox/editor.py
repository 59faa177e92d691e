"""The `str_replace_editor` tool (SWE-agent / OpenHands, Seed, Anthropic's text editor) on a workspace.

`Editor.run(EditFile, workspace)` performs one command and returns what the agent is told, in
the words of the reference tool (Anthropic's `edit.py`, which OpenHands follows):

- view: a file's lines numbered like `cat -n` (`view_range` (first, last), 1-based, last -1 = to
  the end), or a folder's files and folders two levels deep, hidden ones left out;
- create: a new file with `file_text` (an existing file is refused);
- str_replace: `old_str`, which must occur exactly once, becomes `new_str` (default "");
- insert: `new_str` after line `insert_line` (0 = at the top);
- undo_edit: the file as it was before its last str_replace or insert of this episode.

Lines are the file's lines as `cat -n` counts them: a final newline ends the last line, it does
not start another.  Edits keep the file's final newline.  Files are edited as UTF-8 text up to the
workspace's read limit; a larger file, or one that is not UTF-8, is refused rather than
rewritten.  What the agent got wrong (a missing file, old_str not found, a line out of range) is
an ActionError; failures of the file system propagate as OSError for the env to report.

The workspace is anything with the file API of `Workspace` (local) and `SSHSession` (remote):
`resolve`, `read_text`, `write_text`, `listing` and a `max_read_bytes`.
"""

from __future__ import annotations

from typing import Protocol

from ..actions.model import EDIT_COMMANDS, ActionError, EditFile
from .workspace import LISTING_ENTRIES

#: lines shown around an edit
SNIPPET_LINES = 4
#: edits remembered per file for undo_edit
MAX_UNDO = 20


class FileAPI(Protocol):
    max_read_bytes: int

    def resolve(self, path: str) -> object: ...
    def read_text(self, path: str) -> str: ...
    def write_text(self, path: str, content: str) -> int: ...
    def listing(self, path: str, depth: int = 2) -> list[str]: ...


class Editor:
    """The `str_replace_editor` of one env; `reset()` forgets the edit history at each episode."""

    def __init__(self) -> None:
        self._history: dict[str, list[str]] = {}

    def reset(self) -> None:
        self._history.clear()

    def run(self, action: EditFile, workspace: FileAPI) -> str:
        """Perform one editor command on `workspace`; the text the agent is told."""
        command = {"view": self._view, "create": self._create, "str_replace": self._str_replace,
                   "insert": self._insert, "undo_edit": self._undo}.get(action.command)
        if command is None:
            raise ActionError(f"str_replace_editor: unknown command {action.command!r}; commands: "
                              f"{', '.join(EDIT_COMMANDS)}")
        return command(action, workspace)

    # -- commands ----------------------------------------------------------------------
    def _view(self, a: EditFile, ws: FileAPI) -> str:
        try:
            entries = ws.listing(a.path)
        except NotADirectoryError:
            entries = None
        except FileNotFoundError:
            raise ActionError(f"The path {a.path} does not exist. Please provide a valid path.") from None
        if entries is not None:
            if a.view_range is not None:
                raise ActionError("The `view_range` parameter is not allowed when `path` points to a directory.")
            folder = a.path.rstrip("/") or "/"
            shown = "\n".join(f"{folder}/{entry}" if folder != "/" else f"/{entry}" for entry in entries)
            cut = (f"\n(the listing stops at {LISTING_ENTRIES} entries; view a subfolder for the rest)"
                   if len(entries) >= LISTING_ENTRIES else "")
            return (f"Here's the files and directories up to 2 levels deep in {a.path}, excluding hidden "
                    f"items:\n{folder}\n{shown}{cut}")
        lines, _ = _lines(self._read(a.path, ws, editing=False))
        first = 1
        if a.view_range is not None:
            first, last = a.view_range
            n = len(lines)
            if not 1 <= first <= max(n, 1):
                raise ActionError(f"Invalid `view_range` parameter: {list(a.view_range)}. Its first element "
                                  f"`{first}` should be within the range of lines of the file: {[1, n]}")
            if last != -1 and last > n:
                raise ActionError(f"Invalid `view_range` parameter: {list(a.view_range)}. Its second element "
                                  f"`{last}` should be smaller than the number of lines in the file: `{n}`")
            if last != -1 and last < first:
                raise ActionError(f"Invalid `view_range` parameter: {list(a.view_range)}. Its second element "
                                  f"`{last}` should be larger or equal than its first `{first}`")
            lines = lines[first - 1:] if last == -1 else lines[first - 1:last]
        return f"Here's the result of running `cat -n` on {a.path}:\n{_numbered(lines, first)}\n"

    def _create(self, a: EditFile, ws: FileAPI) -> str:
        try:
            ws.read_text(a.path)
        except (FileNotFoundError, IsADirectoryError):
            pass
        else:
            raise ActionError(f"File already exists at: {a.path}. Cannot overwrite files using command `create`.")
        ws.write_text(a.path, a.file_text)
        return f"File created successfully at: {a.path}"

    def _str_replace(self, a: EditFile, ws: FileAPI) -> str:
        text = self._read(a.path, ws)
        old, new = a.old_str, a.new_str or ""
        count = text.count(old) if old else 0
        if count == 0:
            raise ActionError(f"No replacement was performed, old_str `{old}` did not appear verbatim in {a.path}.")
        if count > 1:
            starts, at = [], text.find(old)
            while at >= 0:
                starts.append(text.count("\n", 0, at) + 1)
                at = text.find(old, at + 1)
            raise ActionError(f"No replacement was performed. Multiple occurrences of old_str `{old}` in lines "
                              f"{starts}. Please ensure it is unique")
        before = text.index(old)
        edited = text[:before] + new + text[before + len(old):]
        self._write(a.path, ws, text, edited)
        line = text.count("\n", 0, before)     # 0-based line where the edit starts
        return self._edited(a.path, edited, line, line + new.count("\n"))

    def _insert(self, a: EditFile, ws: FileAPI) -> str:
        text = self._read(a.path, ws)
        lines, final_newline = _lines(text)
        n, at = len(lines), a.insert_line
        if not 0 <= at <= n:
            raise ActionError(f"Invalid `insert_line` parameter: {at}. It should be within the range of lines of "
                              f"the file: {[0, n]}")
        new_lines, new_final = _lines(a.new_str)
        if not new_lines:          # new_str "": one empty line
            new_lines = [""]
        edited_lines = lines[:at] + new_lines + lines[at:]
        edited = "\n".join(edited_lines) + ("\n" if final_newline or (new_final and at == n) else "")
        self._write(a.path, ws, text, edited)
        return self._edited(a.path, edited, at, at + len(new_lines) - 1)

    def _undo(self, a: EditFile, ws: FileAPI) -> str:
        key = _key(a.path, ws)
        if not self._history.get(key):
            raise ActionError(f"No edit history found for {a.path}.")
        before = self._history[key].pop()
        ws.write_text(a.path, before)
        lines, _ = _lines(before)
        return f"Last edit to {a.path} undone successfully. {_snippet_text(a.path, lines, 0, len(lines))}"

    # -- helpers -----------------------------------------------------------------------
    def _read(self, path: str, ws: FileAPI, editing: bool = True) -> str:
        """The text of file `path`; to be edited (`editing`), it must be UTF-8 and within the read limit
        (a view shows a larger file cut, as `read_text` marks it)."""
        try:
            text = ws.read_text(path)
        except (FileNotFoundError, IsADirectoryError):
            try:
                ws.listing(path, depth=1)
            except (FileNotFoundError, NotADirectoryError):
                raise ActionError(f"The path {path} does not exist. Please provide a valid path.") from None
            raise ActionError(f"The path {path} is a directory; only `view` works on a directory.") from None
        if not editing:
            return text
        limit = ws.max_read_bytes
        if text.endswith(f"\n[truncated at {limit} bytes]") and len(text.encode("utf-8")) > limit:
            raise ActionError(f"{path} is larger than {limit} bytes, the most the editor reads; edit it with "
                              f"the terminal (e.g. sed) instead")
        if "\ufffd" in text:
            raise ActionError(f"{path} is not UTF-8 text (or holds U+FFFD); the editor edits text files only")
        return text

    def _write(self, path: str, ws: FileAPI, before: str, after: str) -> None:
        ws.write_text(path, after)
        history = self._history.setdefault(_key(path, ws), [])
        history.append(before)
        del history[:-MAX_UNDO]

    def _edited(self, path: str, text: str, first: int, last: int) -> str:
        """The message of a successful edit of lines first..last (0-based) of `text`, with a snippet."""
        lines, _ = _lines(text)
        start, end = max(0, first - SNIPPET_LINES), min(len(lines), last + SNIPPET_LINES + 1)
        return (f"The file {path} has been edited. {_snippet_text(path, lines, start, end)}"
                f"Review the changes and make sure they are as expected. Edit the file again if necessary.")


def _key(path: str, ws: FileAPI) -> str:
    """The history key of a path: where it resolves in the workspace (so 'a.txt' and './a.txt' are one file)."""
    try:
        return str(ws.resolve(path))
    except OSError:       # (a path outside: the command itself refuses it)
        return path


def _lines(text: str) -> tuple[list[str], bool]:
    """The lines of `text` as `cat -n` counts them, and whether it ends with a newline."""
    if not text:
        return [], False
    final = text.endswith("\n")
    return (text[:-1] if final else text).split("\n"), final


def _numbered(lines: list[str], first: int) -> str:
    return "\n".join(f"{i:6}\t{line}" for i, line in enumerate(lines, first))


def _snippet_text(path: str, lines: list[str], start: int, end: int) -> str:
    return f"Here's the result of running `cat -n` on a snippet of {path}:\n{_numbered(lines[start:end], start + 1)}\n"
