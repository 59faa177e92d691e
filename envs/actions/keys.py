"""Canonical key names for keyboard actions, and the many spellings agents use for them.

A canonical key is either one printable character, lower-cased ("a", "1", "/", "+")
or one of `NAMED_KEYS` ("ctrl", "enter", "pageup", "f5", ...).  A space is "space".
"""

from __future__ import annotations

import re

from .model import MAX_HOTKEY_KEYS, MAX_KEY_CHARS, ActionError, shown, too_many_keys

MODIFIERS = ("ctrl", "alt", "shift", "super")
# Pause is not among them on purpose, nor Cancel: they are the env's input-barrier sentinels
# (`ChromiumBrowser.send_sentinel`; Cancel also gives MiniWoB's frame marker its next colour), which the page
# counts; an agent that could press one would make a step's barrier end early.
NAMED_KEYS = frozenset(
    MODIFIERS
    + ("enter", "tab", "esc", "backspace", "delete", "insert", "home", "end", "pageup",
       "pagedown", "up", "down", "left", "right", "space", "capslock", "printscreen", "menu")
    + tuple(f"f{i}" for i in range(1, 25))
)

# Spellings seen from agents, pyautogui, xdotool and browsers.  Looked up after
# lower-casing and dropping "_", "-" and inner spaces ("Page_Up" -> "pageup").
_ALIASES = {
    "control": "ctrl", "ctl": "ctrl", "option": "alt", "opt": "alt",
    "cmd": "super", "command": "super", "win": "super", "windows": "super", "meta": "super",
    "return": "enter", "ret": "enter", "kpenter": "enter", "escape": "esc",
    "del": "delete", "ins": "insert", "bksp": "backspace", "bs": "backspace",
    "pgup": "pageup", "prior": "pageup", "pgdn": "pagedown", "pgdown": "pagedown", "next": "pagedown",
    "arrowup": "up", "arrowdown": "down", "arrowleft": "left", "arrowright": "right",
    "spacebar": "space", "caps": "capslock",
    "print": "printscreen", "prtsc": "printscreen", "prtscr": "printscreen", "prntscrn": "printscreen",
    "apps": "menu", "contextmenu": "menu",
    "plus": "+", "minus": "-",
}
_CHARACTERS = {" ": "space", "\n": "enter", "\r": "enter", "\t": "tab"}
# "ctrlleft", "shift_r", "leftalt", "lwin", "super_l" ... -> the plain modifier
_SIDED_MODIFIER = re.compile(
    r"^(?:left|right|l|r)?(ctrl|control|ctl|alt|option|shift|super|win|windows|cmd|command|meta)"
    r"(?:left|right|l|r)?$")
_ACCEPTED = ("a single character, or one of " + ", ".join(sorted(k for k in NAMED_KEYS if not k.startswith("f")))
             + ", f1..f24 (aliases such as control, return, escape, cmd, arrowleft, pgdn are accepted)")


def normalize_key(name: str) -> str:
    """The canonical name of one key; raises ActionError for anything that is not a key."""
    if not isinstance(name, str):
        raise ActionError(f"a key must be a string, got {shown(name)}; accepted: {_ACCEPTED}")
    if len(name) > MAX_KEY_CHARS:
        raise ActionError(f"unknown key {shown(name)} ({len(name)} characters; a key name has at most "
                          f"{MAX_KEY_CHARS}); accepted: {_ACCEPTED}")
    if name in _CHARACTERS:
        return _CHARACTERS[name]
    stripped = name.strip()
    if len(stripped) == 1 and stripped.isprintable():
        lower = stripped.lower()
        return lower if len(lower) == 1 else stripped    # 'İ'.lower() is two characters
    word = re.sub(r"[\s_\-]", "", stripped.lower())
    if word in NAMED_KEYS:
        return word
    if word in _ALIASES:
        return _ALIASES[word]
    sided = _SIDED_MODIFIER.match(word)
    if sided:
        return normalize_key(sided.group(1))
    raise ActionError(f"unknown key {shown(name)}; accepted: {_ACCEPTED}")


def split_hotkey(keys: str) -> tuple[str, ...]:
    """Canonical keys of a combination written 'ctrl c' (UI-TARS), 'ctrl+c' or 'Ctrl + Shift + T'."""
    if not isinstance(keys, str):
        raise ActionError(f"a key combination must be a string like 'ctrl c' or 'ctrl+c', got {shown(keys)}")
    if len(keys) > MAX_KEY_CHARS:
        raise ActionError(f"a key combination is at most {MAX_KEY_CHARS} characters, like 'ctrl c' or "
                          f"'Ctrl + Shift + T'; got {len(keys)}: {shown(keys)}")
    if keys.strip() in ("", "+"):
        return (normalize_key(keys),)   # ' ' is the space bar, '+' the plus key
    names = []
    for chunk in re.sub(r"\s*\+\s*", "+", keys.strip()).split():
        if len(chunk) > 1 and chunk.endswith("++"):      # 'ctrl++' is ctrl and the '+' key
            parts = chunk[:-2].split("+") + ["+"]
        else:
            parts = chunk.split("+") if len(chunk) > 1 else [chunk]
        if "" in parts:
            raise ActionError(f"cannot split key combination {shown(keys)}; write it as 'ctrl c' or 'ctrl+c'")
        names.extend(parts)
    if len(names) > MAX_HOTKEY_KEYS:
        raise too_many_keys(len(names))
    return tuple(normalize_key(name) for name in names)
