"""Reader of dict actions from programmatic agents: {"action_type": "click", "x": 10, "y": 20}.

`action_type` is any type in ACTION_TYPES (or an alias in _TYPE_ALIASES), the
other keys are that action's fields, plus these aliases: "coordinate": [x, y]
(and "start_coordinate"/"end_coordinate" for drag and swipe), "key"/"keys" for
hotkey (a list, or a string 'ctrl+c' / 'ctrl c'), "text"/"content" for type.
Coordinates are read in the given CoordSpace (the codec passes absolute pixels).
"""

from __future__ import annotations

from dataclasses import MISSING, fields

from .coords import CoordMode, CoordSpace
from .schemas import Schema, register_schema
from .keys import normalize_key, split_hotkey
from .model import (
    ACTION_TYPES, MAX_HOTKEY_KEYS, MAX_REPEAT, MOUSE_BUTTONS, SCROLL_DIRECTIONS, Action, ActionError, choice,
    seconds, shown, too_many_keys,
)

_TYPE_ALIASES = {"left_single": "click", "press": "hotkey", "release": "keyup", "select": "drag",
                 "move_to": "hover"}
# alias key -> (field it stands for, action types it applies to or None for any with that field)
_FIELD_ALIASES = {"coordinate": ("x", None), "start_coordinate": ("x1", None), "end_coordinate": ("x2", None),
                  "key": ("keys", ("hotkey",)), "content": ("text", ("type",))}
_PAIRS = {"x": "y", "x1": "y1", "x2": "y2"}
#: more keys than any action has fields (and their aliases): refused before they are read
_MAX_KEYS = 8


def parse_dict(action: dict, space: CoordSpace) -> Action:
    """The typed action a dict describes; raises ActionError saying which fields are accepted."""
    if len(action) > _MAX_KEYS:
        raise ActionError(f"dict action has {len(action)} keys; an action has 'action_type' and at most "
                          f"{_MAX_KEYS - 1} fields")
    odd = [k for k in action if type(k) is not str]
    if odd:
        raise ActionError(f"dict action keys must be field names (strings), got {shown(odd[0])}")
    kind = action.get("action_type")
    cls = ACTION_TYPES.get(_TYPE_ALIASES.get(kind, kind)) if isinstance(kind, str) else None
    if cls is None:
        raise ActionError(f"dict action needs 'action_type', one of {', '.join([*ACTION_TYPES, *_TYPE_ALIASES])}; "
                          f"got {shown(kind)}")
    names = [f.name for f in fields(cls)]
    aliases = [a for a, (target, types) in _FIELD_ALIASES.items()
               if target in names and (types is None or cls.action_type in types)]
    accepted = f"{kind} accepts {', '.join(names + aliases) or 'no fields'}"
    items = []
    marked = None
    if "mark" in action and "x" in names:       # {"action_type": "click", "mark": 3}: the mark's centre
        if action.get("x") is not None or action.get("y") is not None or "coordinate" in action:
            raise ActionError(f"{kind}: give a 'mark' or x and y, not both; {accepted}, mark")
        marked = space.mark(action["mark"], kind)
        action = {k: v for k, v in action.items() if k != "mark"}
    for key, value in action.items():
        if key in aliases and _FIELD_ALIASES[key][0] in _PAIRS:
            if not (isinstance(value, (list, tuple)) and len(value) == 2):
                raise ActionError(f"{kind}: {key!r} must be [x, y], got {shown(value)}; {accepted}")
            x = _FIELD_ALIASES[key][0]
            items += [(x, value[0]), (_PAIRS[x], value[1])]
        elif key != "action_type":
            items.append((_FIELD_ALIASES[key][0] if key in aliases else key, value))
    values = {}
    for key, value in items:
        if key not in names:
            raise ActionError(f"{kind}: unknown field {shown(key)}; {accepted}")
        if key in values:
            raise ActionError(f"{kind}: field {key!r} given twice; {accepted}")
        values[key] = value
    if marked is not None:
        values["x"], values["y"] = marked
    missing = [f.name for f in fields(cls) if f.default is MISSING and f.name not in values]
    if missing:
        raise ActionError(f"{kind}: missing field {', '.join(map(repr, missing))}; {accepted}")
    for x, y in _PAIRS.items():
        if marked is not None and x == "x":
            continue
        if x in names and (values.get(x) is not None or values.get(y) is not None):
            point = (values.get(x), values.get(y))
            if not all(type(v) in (int, float) for v in point):
                raise ActionError(f"{kind}: {x!r} and {y!r} must both be numbers (pixels), got {shown(point)}; "
                                  f"{accepted}")
            values[x], values[y] = space.point(point, kind)
    for key, value in values.items():
        if key not in _PAIRS and key not in _PAIRS.values():
            values[key] = _check(kind, key, value, accepted)
    return cls(**values)


def _check(kind: str, key: str, value: object, accepted: str):
    """`value` as the field `key` wants it."""
    if key == "keys":
        if isinstance(value, str):
            return split_hotkey(value)
        if isinstance(value, (list, tuple)) and value:
            if len(value) > MAX_HOTKEY_KEYS:
                raise too_many_keys(len(value))
            return tuple(normalize_key(k) for k in value)
        raise ActionError(f"{kind}: 'keys' must be a list of keys or a string like 'ctrl+c', got {shown(value)}")
    if key == "key":
        return normalize_key(value)
    if key == "direction":
        return choice(value, SCROLL_DIRECTIONS, f"{kind} needs direction")
    if key == "button":
        return choice(value, MOUSE_BUTTONS, f"{kind} needs button")
    if key == "amount":
        if type(value) is not int or not 1 <= value <= MAX_REPEAT:
            raise ActionError(f"{kind}: 'amount' must be an int from 1 to {MAX_REPEAT}, got {shown(value)}")
        return value
    if key in ("seconds", "duration"):
        return seconds(value, f"{kind}: {key!r} must be")
    if key == "insert_line":
        if type(value) is not int or value < 0:
            raise ActionError(f"{kind}: 'insert_line' must be an int line number >= 0, got {shown(value)}")
        return value
    if key == "view_range":
        if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(type(v) is int for v in value)):
            raise ActionError(f"{kind}: 'view_range' must be [first line, last line or -1], got {shown(value)}")
        return tuple(value)
    if not isinstance(value, str):
        raise ActionError(f"{kind}: {key!r} must be a string, got {shown(value)}; {accepted}")
    return value


def format_dict(actions, space: CoordSpace, platform: str = "computer") -> list[dict]:
    """Typed actions as dicts ({"action_type": ..., fields}, a field left out where it is None, its
    default), read back by parse_dict."""
    return [{k: v for k, v in a.to_dict().items() if v is not None} for a in actions]


def _parse_schema(output: object, space: CoordSpace, platform: str) -> list[Action]:
    if not isinstance(output, dict):
        raise ActionError(f"dict action: expected a dict with 'action_type', got {type(output).__name__} "
                          f"{shown(output)}")
    return [parse_dict(output, space)]


SCHEMA = register_schema(Schema(
    "dict", "dict action", CoordMode.ABSOLUTE, "pixels of the screenshot (the env's own, never resized)",
    lambda output: isinstance(output, dict) and "action_type" in output, _parse_schema, format_dict,
    coords_override=False, image_pixels=False))
