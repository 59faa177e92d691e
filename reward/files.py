"""Checkers of the computer suite: pure functions of a home folder's files (path -> bytes), archives, app config files and declining (`call_user()`).

A home snapshot is `Workspace.snapshot()`: every regular file, relative path ->
bytes. App state the apps write by themselves (`.config/`, `.cache/`,
`.local/`, `.dbus/`) is not part of a task's result; a settings task reads the
one config file it asks about.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from dataclasses import replace
from typing import Mapping, Sequence

from .checkers import CheckResult, Condition, checker, judged, not_judged

#: folders of app state under HOME, written by the apps themselves
APP_STATE_PREFIXES = (".config/", ".cache/", ".local/", ".dbus/")


class _Any:
    """Marks an expected file whose content is checked elsewhere (e.g. a new archive)."""

    def __repr__(self) -> str:
        return "ANY"


#: `expected_tree` value: the file must exist, with any content
ANY = _Any()


def user_files(files: Mapping[str, bytes], ignore_prefixes: Sequence[str] = APP_STATE_PREFIXES) -> dict[str, bytes]:
    """The files of a snapshot that are the user's, not app state."""
    return {p: b for p, b in files.items() if not any(p.startswith(x) for x in ignore_prefixes)}


def _same(a: bytes, b: bytes, loose: bool) -> bool:
    return a == b or (loose and a.rstrip(b"\n") == b.rstrip(b"\n"))


@checker
def expected_tree(before: Mapping[str, bytes], after: Mapping[str, bytes],
                  changes: Mapping[str, "bytes | None | _Any"],
                  ignore_prefixes: Sequence[str] = APP_STATE_PREFIXES) -> CheckResult:
    """The user's files after are exactly those before with `changes` applied, nothing else.

    `changes`: path -> the new bytes, None (the file must be gone) or `ANY` (must exist).
    Text written by an editor may differ by a final newline in the changed files; every
    other file must keep its bytes. Moves are a None plus new bytes, copies new bytes.
    """
    want: dict[str, object] = user_files(before, ignore_prefixes)
    for path, data in changes.items():
        if data is None:
            want.pop(path, None)
        else:
            want[path] = data
    have = user_files(after, ignore_prefixes)
    missing = sorted(p for p in want if p not in have)
    extra = sorted(p for p in have if p not in want)
    wrong = sorted(p for p in want if p in have and want[p] is not ANY
                   and not _same(have[p], want[p], loose=p in changes))
    conditions = [_change_condition(path, data, path in missing or path in extra or path in wrong)
                  for path, data in changes.items()]
    others = [p for p in missing + extra + wrong if p not in changes]
    conditions.append(Condition("the other files intact", not others,
                                f"other files missing, unexpected or changed: {others[:5]}" if others
                                else "other files intact", guard=True))
    if not (missing or extra or wrong):
        return CheckResult.passed("the files are as asked and the others intact", conditions)
    parts = []
    for label, paths in (("missing", missing), ("unexpected", extra), ("wrong content", wrong)):
        if paths:
            parts.append(f"{label}: {paths[:5]}" + (f" (+{len(paths) - 5} more)" if len(paths) > 5 else ""))
    return CheckResult.failed("; ".join(parts), conditions=conditions, missing=missing, unexpected=extra, wrong=wrong)


def _change_condition(path: str, data: "bytes | None | _Any", bad: bool) -> Condition:
    """The goal condition of one asked change of `expected_tree`."""
    if data is None:
        return Condition(f"{path} removed", not bad, f"{path} is still there" if bad else f"{path} is gone")
    if data is ANY:
        return Condition(f"{path} exists", not bad, f"{path} is missing" if bad else f"{path} exists")
    return Condition(f"{path} holds the asked content", not bad,
                     f"{path} is missing or holds other content" if bad else f"{path} holds the asked content")


def archive_members(data: bytes) -> dict[str, bytes]:
    """Regular files in a zip or tar(.gz/.bz2/.xz) archive: member path -> bytes ("./" dropped).
    Raises ValueError if `data` is neither."""
    out: dict[str, bytes] = {}
    if zipfile.is_zipfile(io.BytesIO(data)):
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for info in z.infolist():
                if not info.is_dir():
                    out[_member_name(info.filename)] = z.read(info)
        return out
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as t:
            for m in t.getmembers():
                if m.isfile():
                    out[_member_name(m.name)] = t.extractfile(m).read()
    except tarfile.TarError as e:
        raise ValueError(f"not a zip or tar archive ({e})") from None
    return out


def _member_name(name: str) -> str:
    while name.startswith("./"):
        name = name[2:]
    return name.lstrip("/")


@checker(subject="path")
def archive_holds(files: Mapping[str, bytes], path: str, expected: Mapping[str, bytes],
                  kind: str | None = None, prefixes: Sequence[str] | None = None) -> CheckResult:
    """The archive at `path` holds exactly the `expected` files (member path -> bytes).

    kind: "zip" or "tar.gz" to require that format (gzip-compressed tar), None for any.
    prefixes: None: member paths may all sit under one common folder (e.g. `reports/a.txt` for
    `a.txt`); else the folder prefixes allowed ("" for none, "q1/" , "Reports/q1/"): every member
    must carry the same one of them. Directory entries and leading "./" do not count.

    Conditions: guard "PATH is a ... archive" (there, of the kind asked: a state without it earns nothing);
    goals "PATH holds exactly the expected files" and "PATH: the members' content".
    """
    names = [f"{path} is a {kind or 'zip or tar'} archive", f"{path} holds exactly the expected files",
             f"{path}: the members' content"]
    if path not in files:
        why = f"{path} does not exist"
        return judged([Condition(names[0], False, why, guard=True), *not_judged(names[1:], why)], "")
    data = files[path]
    try:
        if kind == "zip" and not data.startswith(b"PK"):
            raise ValueError(f"{path} is not a zip archive")
        if kind == "tar.gz" and not data.startswith(b"\x1f\x8b"):
            raise ValueError(f"{path} is not gzip-compressed (tar.gz)")
        try:
            members = archive_members(data)
        except ValueError as e:
            raise ValueError(f"{path}: {e}") from None
    except ValueError as e:
        return judged([Condition(names[0], False, str(e), guard=True), *not_judged(names[1:], str(e))], "")
    if prefixes is not None:
        for prefix in sorted(prefixes, key=len, reverse=True):
            if members and all(m.startswith(prefix) for m in members):
                stripped = {m[len(prefix):]: b for m, b in members.items()}
                if set(stripped) == set(expected):
                    members = stripped
                    break
    elif set(members) != set(expected):
        tops = {m.split("/", 1)[0] for m in members}
        if len(tops) == 1 and all("/" in m for m in members):
            members = {m.split("/", 1)[1]: b for m, b in members.items()}
    listed = Condition(names[1], set(members) == set(expected),
                       f"{path} holds {sorted(members)[:8]}, expected {sorted(expected)[:8]}")
    bad = sorted(m for m in expected if m in members and members[m] != expected[m])
    content = Condition(names[2], not bad and bool(set(members) & set(expected)),
                        f"{path}: members with wrong content {bad[:5]}" if bad else listed.message)
    return judged([Condition(names[0], True, "readable", guard=True), listed, content],
                  f"{path} holds the {len(expected)} expected files")


def config_value(data: bytes | None, section: str, key: str) -> str | None:
    """The value of `key` in `[section]` of an INI-style config (GSettings keyfile, pcmanfm.conf,
    galculator.conf), surrounding quotes removed; None if absent. Later entries win."""
    if data is None:
        return None
    current, value = None, None
    for raw in data.decode("utf-8", "replace").splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
        elif current == section and "=" in line:
            k, v = line.split("=", 1)
            if k.strip() == key:
                v = v.strip()
                if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
                    v = v[1:-1]
                value = v
    return value


def config_items(data: bytes | None) -> dict[tuple[str, str], str]:
    """Every `[section] key = value` of an INI-style config (later entries win, quotes removed); {} for None."""
    if data is None:
        return {}
    out: dict[tuple[str, str], str] = {}
    current = ""
    for raw in data.decode("utf-8", "replace").splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
        elif "=" in line:
            k, v = line.split("=", 1)
            v = v.strip()
            if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
                v = v[1:-1]
            out[(current, k.strip())] = v
    return out


@checker(guard=True, subject="path")
def config_only_changed(before: Mapping[str, bytes], after: Mapping[str, bytes], path: str,
                        asked: Sequence[tuple[str, str]] = (), defaults: bytes | None = None,
                        ignore_sections: Sequence[str] = (), ignore_keys: Sequence[tuple[str, str]] = ()
                        ) -> CheckResult:
    """Every key of the config file at `path` other than the `asked` (section, key) pairs has the value it
    had before: its baseline value, else (the app had not written it yet) its value in the app's
    `defaults` (a config file as the app writes it untouched); a key in neither must not appear.
    Sections starting with one of `ignore_sections` and the `ignore_keys` (window sizes, the session,
    what the app records of its own state) are not compared. "Turn every option on" fails here."""
    base = {**config_items(defaults), **config_items(before.get(path))}
    now = config_items(after.get(path))
    skip = set(asked) | set(ignore_keys)
    changed = sorted(f"[{sec}] {key}" for (sec, key), v in now.items()
                     if (sec, key) not in skip and not any(sec.startswith(x) for x in ignore_sections)
                     and (base.get((sec, key)) is None or base[(sec, key)].casefold() != v.casefold()))
    if changed:
        return CheckResult.failed(f"{path}: settings that were not asked for changed: {changed[:6]}"
                                  + (f" (+{len(changed) - 6} more)" if len(changed) > 6 else ""), changed=changed)
    return CheckResult.passed(f"{path}: no other setting changed")


@checker(subject="key")
def config_is(files: Mapping[str, bytes], path: str, section: str, key: str, expected: str) -> CheckResult:
    """The config file at `path` sets `[section] key` to `expected` (case-insensitive)."""
    got = config_value(files.get(path), section, key)
    if got is None:
        return CheckResult.failed(f"{path} has no [{section}] {key} (was the setting changed and saved?)")
    if got.casefold() != expected.casefold():
        return CheckResult.failed(f"{path}: [{section}] {key} is {got!r}, expected {expected!r}")
    return CheckResult.passed(f"[{section}] {key} = {got} in {path}")


@checker
def declined_and_unchanged(called_user: bool, before: Mapping[str, bytes], after: Mapping[str, bytes],
                           watch: Sequence[str] = ()) -> CheckResult:
    """An infeasible request: the agent handed back with `call_user()` (the one action that declines;
    no text of a `finished()` answer counts) and changed no user file (nor the app config files in
    `watch`)."""
    declined = Condition("handed back with call_user()", called_user,
                         "the task cannot be done as asked; the agent should have handed back with call_user()")
    intact = expected_tree(before, after, {})
    changed = [p for p in watch if before.get(p) != after.get(p)]
    kept = Condition("no setting changed", not changed,
                     f"settings changed although nothing could be done: {changed}", guard=True)
    conditions = [declined, *intact.conditions, kept]
    if not called_user:
        return CheckResult.failed(declined.message, conditions=conditions)
    if not intact.success:
        return replace(intact, conditions=tuple(conditions))
    if changed:
        return CheckResult.failed(kept.message, conditions=conditions)
    return CheckResult.passed("declined, and nothing was changed", conditions)
