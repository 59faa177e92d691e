"""The check of a parsed step against the limits (their values: `model.py`, "limits").

`check_limits` runs on every step `Codec.parse` produces, whatever form it came in (text,
code, dicts, Actions passed as they are), so a new form gets the checks for free.
"""

from __future__ import annotations

import re
from dataclasses import fields

from .keys import normalize_key
from .model import (
    ACTION_TYPES, EDIT_COMMANDS, MAX_ACTIONS, MAX_ANSWER_CHARS, MAX_COMMAND_BYTES, MAX_FILE_BYTES, MAX_HOTKEY_KEYS,
    MAX_NAME_CHARS, MAX_PATH_BYTES, MAX_REPEAT, MAX_STEP_SECONDS, MAX_TYPED_CHARS, MOUSE_BUTTONS, SCROLL_DIRECTIONS,
    TYPE_KEY_SECONDS, TYPE_OTHER_SECONDS, Action, ActionError, EditFile, LongPress, TypeText, Wait, WriteFile,
    seconds, shown, too_many_keys,
)

#: characters X has no key for on its keymap (typing one costs TYPE_OTHER_SECONDS, others TYPE_KEY_SECONDS)
_OFF_KEYMAP = re.compile(r"[^\n\t\x20-\x7e\xa0-\xff]")


def check_limits(actions: list[Action], screen: tuple[int, int]) -> None:
    """ActionError unless every action is well formed (the field types its class declares,
    points on the `screen` = (width, height), canonical keys, text that encodes as UTF-8)
    and the step keeps within the limits of model.py."""
    if len(actions) > MAX_ACTIONS:
        raise ActionError(f"{len(actions)} actions in one step; at most {MAX_ACTIONS} are performed per step; "
                          f"send the rest in later steps")
    typed, waited, typing = 0, 0.0, 0.0
    for act in actions:
        if not isinstance(act, Action) or type(act) not in ACTION_TYPES.values():
            raise ActionError(f"cannot perform {shown(act)}; actions are the classes of hybridgym.actions "
                              f"({', '.join(ACTION_TYPES)})")
        name, values = f"{act.action_type}()", vars(act)
        for f in fields(act):
            _check_field(act, name, f.name, values.get(f.name), f.default is None, screen)
        if isinstance(act, EditFile):
            _check_edit(act, name)
        if isinstance(act, TypeText):
            typed += len(act.text)
            typing += len(act.text) * TYPE_KEY_SECONDS + len(_OFF_KEYMAP.findall(act.text)) * TYPE_OTHER_SECONDS
        elif isinstance(act, Wait):
            waited += act.seconds
        elif isinstance(act, LongPress):
            waited += act.duration
    if typed > MAX_TYPED_CHARS:
        raise ActionError(f"type() of {typed} characters in one step; at most {MAX_TYPED_CHARS} are typed "
                          f"per step; type the rest in the next steps")
    if waited > MAX_STEP_SECONDS:
        raise ActionError(f"the step waits {waited:g} s in all (wait/sleep and long presses); at most "
                          f"{MAX_STEP_SECONDS:g} s per step; wait again in the next step")
    if waited + typing > MAX_STEP_SECONDS:
        raise ActionError(
            f"the step would take about {waited + typing:.0f} s: {waited:g} s of waits and long presses and "
            f"{typing:.1f} s to type {typed} characters (about {TYPE_KEY_SECONDS * 1000:g} ms a character, "
            f"{TYPE_OTHER_SECONDS * 1000:g} ms one outside Latin-1); at most {MAX_STEP_SECONDS:g} s per step; "
            f"type the rest in the next steps")


def _check_field(act: Action, name: str, key: str, value: object, optional: bool, screen: tuple[int, int]) -> None:
    if isinstance(act, EditFile) and key != "path":
        _check_edit_field(name, key, value)
    elif key in ("x", "y", "x1", "y1", "x2", "y2"):
        if value is None and optional:
            return
        size = screen[key.startswith("y")]
        if type(value) is not int or not 0 <= value < size:
            w, h = screen
            raise ActionError(f"{name}: {key} must be an int pixel from 0 to {size - 1} (screen {w}x{h}), "
                              f"got {shown(value)}")
    elif key == "button":
        if value not in MOUSE_BUTTONS:
            raise ActionError(f"{name}: button must be {'/'.join(MOUSE_BUTTONS)}, got {shown(value)}")
    elif key == "direction":
        if value not in SCROLL_DIRECTIONS:
            raise ActionError(f"{name}: direction must be {'/'.join(SCROLL_DIRECTIONS)}, got {shown(value)}")
    elif key == "amount":
        if type(value) is not int or not 1 <= value <= MAX_REPEAT:
            raise ActionError(f"{name}: amount must be an int from 1 to {MAX_REPEAT}, got {shown(value)}")
    elif key in ("seconds", "duration"):
        seconds(value, f"{name}: {key} must be")
    elif key == "keys":
        if not isinstance(value, tuple) or not value:
            raise ActionError(f"{name}: keys must be a non-empty tuple of key names, got {shown(value)}")
        if len(value) > MAX_HOTKEY_KEYS:
            raise too_many_keys(len(value))
        for k in value:
            _check_key(name, k)
    elif key == "key":
        _check_key(name, value)
    else:   # the text fields
        limit, unit = {"text": (MAX_TYPED_CHARS, "characters"), "app_name": (MAX_NAME_CHARS, "characters"),
                       "command": (MAX_COMMAND_BYTES, "bytes"), "path": (MAX_PATH_BYTES, "bytes"),
                       "content": ((MAX_FILE_BYTES, "bytes") if isinstance(act, WriteFile)
                                   else (MAX_ANSWER_CHARS, "characters"))}[key]
        if not isinstance(value, str):
            raise ActionError(f"{name}: {key} must be a string, got {shown(value)}")
        if len(value) > limit:     # (a character is at least a byte)
            raise ActionError(f"{name}: {key} is {len(value)} characters long; at most {limit} {unit} "
                              f"are accepted")
        data = _utf8(name, key, value)
        if unit == "bytes" and len(data) > limit:
            raise ActionError(f"{name}: {key} is {len(data)} bytes in UTF-8; at most {limit} bytes are accepted")
        if key in ("command", "path") and "\x00" in value:
            raise ActionError(f"{name}: {key} holds a NUL character (\\x00), which no {key} may hold")
        if key == "path" and not value.strip():
            raise ActionError(f"{name}: path is empty; give a file path relative to the workspace")


#: the fields each EditFile command needs besides its path
_EDIT_NEEDS = {"create": ("file_text",), "str_replace": ("old_str",), "insert": ("new_str", "insert_line")}


def _check_edit_field(name: str, key: str, value: object) -> None:
    """One field of an EditFile other than its path (checked as every path is)."""
    if key == "command":
        if value not in EDIT_COMMANDS:
            raise ActionError(f"{name}: command must be {'/'.join(EDIT_COMMANDS)}, got {shown(value)}")
    elif value is None:
        return
    elif key == "insert_line":
        if type(value) is not int or value < 0:
            raise ActionError(f"{name}: insert_line must be an int >= 0 (the line to insert after; 0: at the "
                              f"top), got {shown(value)}")
    elif key == "view_range":
        if not (isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value)
                and value[0] >= 1 and (value[1] == -1 or value[1] >= value[0])):
            raise ActionError(f"{name}: view_range must be (first, last) 1-based line numbers, first >= 1 and "
                              f"last -1 (to the end) or >= first, got {shown(value)}")
    else:   # file_text, old_str, new_str: file content
        if not isinstance(value, str):
            raise ActionError(f"{name}: {key} must be a string, got {shown(value)}")
        if len(value) > MAX_FILE_BYTES or len(_utf8(name, key, value)) > MAX_FILE_BYTES:
            raise ActionError(f"{name}: {key} is over {MAX_FILE_BYTES} bytes in UTF-8; at most {MAX_FILE_BYTES} "
                              f"bytes are accepted")


def _check_edit(act: EditFile, name: str) -> None:
    """The fields the edit's command needs are there."""
    for key in _EDIT_NEEDS.get(act.command, ()):
        if vars(act)[key] is None:
            raise ActionError(f"{name}: command {act.command} needs {' and '.join(_EDIT_NEEDS[act.command])}; "
                              f"{key} is missing")


def _check_key(name: str, key: object) -> None:
    if normalize_key(key) != key:
        raise ActionError(f"{name}: key {shown(key)} is not a canonical key name; use {normalize_key(key)!r}")


def _utf8(name: str, key: str, value: str) -> bytes:
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ActionError(f"{name}: {key} holds {shown(value[e.start:e.end])} at index {e.start}, a lone surrogate "
                          f"that is not a character; send text that encodes as UTF-8") from None
