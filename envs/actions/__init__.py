"""The action codec: agent output -> typed actions, or an ActionError saying what was wrong.

Accepted forms (see DESIGN.md, "The flow of one step", and docs/action-schemas.md): each model
family's output, read by its schema (`schemas.py`; one module each):
  - "seed": Seed / UI-TARS-2 XML tool calls "<seed:tool_call><function=click>..." (seed.py)
  - "openai": OpenAI computer_call items, Responses-API output (openai_cua.py)
  - "anthropic": Anthropic tool_use blocks of computer, bash and the text editor (anthropic_cua.py)
  - "qwen": Qwen "<tool_call>{"name": "computer_use", ...}</tool_call>" (qwen.py)
  - "uitars": UI-TARS text "Thought: ...\nAction: click(point='<point>500 300</point>')" (uitars.py)
  - "pyautogui": "pyautogui.click(960, 540)" (read through an ast whitelist, never run)
  - "dict": {"action_type": "click", "x": 960, "y": 540}
  - an Action, or a list of any of these (concatenated; a vendor's list of output items or
    content blocks is read as one reply)
`Codec(schema="auto")` tells them apart; a schema's name forces it.  `Codec.format` is the
reverse: typed actions written in a schema.

Coordinates: each schema has its coordinate space (`Schema.coords`: Seed and UI-TARS text
"relative" 0..1000, Qwen "smart_resize" pixels of the Qwen2.5-VL resized image, the others
"absolute" pixels); `coords` changes it for the text schemas, and `image_size` says the
screenshot was sent resized (pixels are then the resized image's).  Dicts are always absolute
pixels of the screenshot.

`platform` decides what UI-TARS's shared vocabulary means: on "mobile" click is a
Tap, drag a Swipe and scroll a finger Swipe (other computer actions pass unchanged,
for the env to perform or refuse); on "computer" the mobile-only actions (tap,
long_press, swipe, press_home, press_back, open_app) are refused, whatever form
they came in.

Pixels are ints: halves round up, and a point on the far edge (x = 1000 in
relative mode) is the last pixel; a point beyond the screen is an ActionError.

Limits (their values: `hybridgym.actions.model`, "limits"): whatever its form, a step
is checked as a whole once parsed (`limits.check_limits`): at most MAX_ACTIONS actions, MAX_TYPED_CHARS
characters typed, MAX_STEP_SECONDS of waiting, MAX_HOTKEY_KEYS keys in a hotkey, caps
on every text an action carries (command, file content, path, answer, app name),
text that encodes as UTF-8, fields of the types their action declares.  Text longer
than MAX_TEXT_CHARS, lists nested deeper than MAX_NESTING and input too deep to
read are refused unread.  Every refusal is an ActionError saying what is accepted.
"""

from __future__ import annotations

import json

from .coords import MAX_PIXELS, MIN_PIXELS, CoordMode, CoordSpace, smart_resize
from .dicts import parse_dict
from .keys import normalize_key, split_hotkey
from .limits import check_limits
from .model import (
    ACTION_TYPES, ALL_ACTIONS, MAX_ACTIONS, MAX_ANSWER_CHARS, MAX_COMMAND_BYTES, MAX_FILE_BYTES, MAX_HOTKEY_KEYS,
    MAX_KEY_CHARS, MAX_NAME_CHARS, MAX_NESTING, MAX_PATH_BYTES, MAX_REPEAT, MAX_STEP_SECONDS, MAX_TEXT_CHARS,
    MAX_TYPED_CHARS, Action, ActionError, CallUser, Click, DoubleClick, Drag, Finished, Hotkey, KeyDown, KeyUp,
    LongPress, MiddleClick, MouseDown, MouseUp, MoveTo, OpenApp, PressBack, PressHome, ReadFile, RightClick, Scroll,
    Swipe, Tap, Terminal, TypeText, Wait, WriteFile, EditFile, shown,
)
from .schemas import AUTO_ORDER, SCHEMAS, Schema, detect, get_schema, space_of

#: the schemas whose output is JSON (a dict, a list, or their JSON text)
JSON_SCHEMAS = ("dict", "openai", "anthropic")
#: the schemas whose reply may be a list read as a whole (output items, content blocks)
WHOLE_LIST_SCHEMAS = ("openai", "anthropic")
#: every schema `Codec(schema=...)` takes besides "auto"
SCHEMA_NAMES = AUTO_ORDER

LIMITS = ("MAX_TEXT_CHARS", "MAX_ACTIONS", "MAX_NESTING", "MAX_REPEAT", "MAX_STEP_SECONDS", "MAX_TYPED_CHARS",
          "MAX_HOTKEY_KEYS", "MAX_KEY_CHARS", "MAX_COMMAND_BYTES", "MAX_FILE_BYTES", "MAX_PATH_BYTES",
          "MAX_ANSWER_CHARS", "MAX_NAME_CHARS")
__all__ = [
    "parse_action", "format_actions", "Codec", "SCHEMA_NAMES", "Schema", "get_schema", "CoordMode", "ActionError", "normalize_key", "split_hotkey", "smart_resize",
    "ACTION_TYPES", "ALL_ACTIONS", *LIMITS, *(cls.__name__ for cls in ALL_ACTIONS), "Action",
]

PLATFORMS = ("computer", "mobile")
#: longest error message: a longer one (a parser quoting too much) is cut
MAX_ERROR_CHARS = 2000
_MOBILE_ONLY = (Tap, LongPress, Swipe, PressHome, PressBack, OpenApp)
_FORMS = ("Seed XML tool calls (<seed:tool_call><function=click><parameter=point><point>500 300</point>"
          "</parameter></function></seed:tool_call>), UI-TARS text (\"Action: click(point='<point>500 300</point>')\"), "
          "Qwen <tool_call>{\"name\": \"computer_use\", ...}</tool_call>, OpenAI computer_call and Anthropic "
          "tool_use JSON, pyautogui code (\"pyautogui.click(960, 540)\"), a dict with 'action_type', an Action, "
          "or a list of these")


class Codec:
    """Turns one env's agent output into typed actions; holds the screen size, the schema,
    the coordinate mode, the size of the image the agent was sent and the platform, so an env
    keeps one and calls `parse` (and `format`, the reverse, for writing actions in a schema).

    `schema`: "auto" (tell the forms apart; see `schemas.AUTO_ORDER`) or a schema's name
    (`hybridgym.actions.SCHEMA_NAMES`), which then reads every text and dict.
    `coords`: the coordinate mode of the text schemas (None: each schema's own; see
    `schemas.Schema.coords`). `image_size`: (width, height) of the screenshot as the agent was
    sent it, when it was resized: pixel coordinates are then pixels of that image."""

    def __init__(self, screen: tuple[int, int], coords: CoordMode | str | None = None,
                 platform: str = "computer", min_pixels: int = MIN_PIXELS, max_pixels: int = MAX_PIXELS,
                 schema: str = "auto", image_size: tuple[int, int] | None = None):
        if platform not in PLATFORMS:
            raise ValueError(f"platform must be one of {PLATFORMS}, got {platform!r}")
        if coords is not None:
            try:
                coords = CoordMode(coords)
            except ValueError:
                raise ValueError(f"coords must be one of {[m.value for m in CoordMode]}, got {coords!r}") from None
        self.screen, self.platform, self.coords = tuple(screen), platform, coords
        self.image_size = tuple(image_size) if image_size is not None else None
        self.schema = schema
        self._forced = None if schema == "auto" else get_schema(schema)
        self._sizes = (min_pixels, max_pixels)
        self._spaces: dict[str, CoordSpace] = {}
        self.marks: dict[int, tuple[int, int]] = {}   # set-of-marks centres: `set_marks`, read by every space
        CoordSpace(self.screen, CoordMode.ABSOLUTE, image=self.image_size)   # the sizes are checked now, not at a step

    def set_marks(self, marks: "dict[int, tuple[int, int]] | None") -> None:
        """The set-of-marks of the screen the agent now sees (mark -> centre pixel), so that `click(mark=N)`
        (dict {"action_type": "click", "mark": N}, pyautogui.click(mark=N), Seed <parameter=mark>N) is read
        as a click at mark N's centre; None or {} clears them."""
        self.marks.clear()
        self.marks.update(marks or {})

    def space(self, schema: str) -> CoordSpace:
        """The coordinate space a schema's numbers are read in by this codec."""
        if schema not in self._spaces:
            space = space_of(get_schema(schema), self.screen, self.coords, self.image_size, *self._sizes)
            object.__setattr__(space, "marks", self.marks)
            self._spaces[schema] = space
        return self._spaces[schema]

    def parse(self, action: object) -> list[Action]:
        """At least one typed action within the limits, or ActionError (its message at most
        MAX_ERROR_CHARS long)."""
        try:
            return self._checked(action)
        except ActionError as e:
            if len(str(e)) <= MAX_ERROR_CHARS:
                raise
            raise ActionError(str(e)[:MAX_ERROR_CHARS - 3] + "...") from None

    def format(self, actions: Action | list[Action], schema: str | None = None) -> object:
        """`actions` written in a schema (default: this codec's, which must then not be "auto"): the
        text, dict or list of dicts that its reader turns back into the same actions."""
        name = schema or (self._forced.name if self._forced else None)
        if name is None:
            raise ValueError("Codec(schema='auto').format() needs a schema name")
        actions = [actions] if isinstance(actions, Action) else list(actions)
        check_limits(actions, self.screen)
        return get_schema(name).format(actions, self.space(name), self.platform)

    def _checked(self, action: object) -> list[Action]:
        try:
            actions = self._parse(action, 0, [0])
        except (RecursionError, MemoryError):
            raise ActionError(f"the action is nested too deeply (or is too large) to read; accepted: {_FORMS}") \
                from None
        if not actions:
            raise ActionError(f"no action given; accepted: {self._accepted()}")
        if self.platform == "computer":
            for a in actions:
                if isinstance(a, _MOBILE_ONLY):
                    raise ActionError(f"{a.action_type} is a mobile action and this env is a computer; "
                                      f"use click/drag/scroll/hotkey instead")
        check_limits(actions, self.screen)
        return actions

    def _accepted(self) -> str:
        return _FORMS if self._forced is None else f"{self._forced.title} (this env reads schema {self.schema!r})"

    def _parse(self, action: object, depth: int, read: list[int]) -> list[Action]:
        """`read`: characters of text read so far in this parse (all of a list's texts count)."""
        if isinstance(action, Action):
            return [action]
        if isinstance(action, str):
            read[0] += len(action)
            if read[0] > MAX_TEXT_CHARS:
                raise ActionError((f"action text is {len(action)} characters" if depth == 0 else
                                   f"the list's action texts are {read[0]} characters or more in all")
                                  + f"; at most {MAX_TEXT_CHARS} are read per step")
            if not action.strip():
                raise ActionError(f"empty action text; accepted: {self._accepted()}")
            decoded = self._json(action)
            if decoded is not None:
                return self._parse(decoded, depth + 1, read)
            return self._parse_one(action)
        if isinstance(action, dict):
            return self._parse_one(action)
        if isinstance(action, (list, tuple)):
            if depth >= MAX_NESTING:
                raise ActionError(f"actions are nested in lists more than {MAX_NESTING} deep; give a flat list")
            whole = self._whole_list_schema(action)
            if whole is not None:   # a vendor's list of output items / content blocks is read as one reply
                return whole.parse(list(action), self.space(whole.name), self.platform)
            actions = []
            for i, item in enumerate(action):
                try:
                    actions.extend(self._parse(item, depth + 1, read))
                    if len(actions) > MAX_ACTIONS:
                        raise ActionError(f"the list makes more than {MAX_ACTIONS} actions; at most {MAX_ACTIONS} "
                                          f"are performed per step; send the rest in later steps")
                except ActionError as e:   # an item of an item: "item 2.0: ..."
                    message = str(e)
                    raise ActionError(f"item {i}.{message[5:]}" if message.startswith("item ")
                                      else f"item {i}: {message}") from None
            return actions
        raise ActionError(f"cannot read an action from {type(action).__name__} {shown(action)}; "
                          f"accepted: {self._accepted()}")

    def _whole_list_schema(self, items: list | tuple) -> Schema | None:
        """The computer-use JSON schema that reads this list as one reply (OpenAI's output items, Anthropic's
        content blocks: a text block beside a call is commentary, not a final answer), or None: the list's
        items are read one by one."""
        names = ((self._forced.name,) if self._forced is not None else WHOLE_LIST_SCHEMAS)
        for name in names:
            if name in WHOLE_LIST_SCHEMAS and get_schema(name).looks_like(list(items)):
                return get_schema(name)
        return None

    def _json(self, text: str) -> object:
        """The JSON value of a text that is a JSON object or array (computer-use JSON sent as a string),
        else None. A forced JSON schema refuses text that is not JSON."""
        head = text.lstrip()[:1]
        json_schema = self._forced is not None and self._forced.name in JSON_SCHEMAS
        if head not in ("{", "["):
            if json_schema:
                raise self._forced.fail(f"expected JSON (an object or a list), got {text[:60]!r}")
            return None
        if self._forced is not None and not json_schema:
            return None
        try:
            value = json.loads(text)
        except ValueError as e:   # (RecursionError on deep JSON is caught by the caller)
            if json_schema:
                raise self._forced.fail(f"the text is not valid JSON: {e}") from None
            return None
        return value if isinstance(value, (dict, list)) else None

    def _parse_one(self, action: str | dict) -> list[Action]:
        schema = self._forced or detect(action)
        if schema is None and isinstance(action, dict):
            schema = get_schema("dict")     # its error lists the action types and fields
        if schema is None:
            what = f"text {action[:60]!r}" if isinstance(action, str) else f"dict {shown(action)}"
            raise ActionError(f"cannot tell what kind of action this is: {what}; accepted: {_FORMS}")
        return schema.parse(action, self.space(schema.name), self.platform)

    def __repr__(self) -> str:
        return (f"Codec(screen={self.screen}, schema={self.schema!r}, coords={self.coords and self.coords.value}, "
                f"image_size={self.image_size}, platform={self.platform!r})")


def parse_action(action: object, screen: tuple[int, int], coords: CoordMode | str | None = None,
                 platform: str = "computer", min_pixels: int = MIN_PIXELS,
                 max_pixels: int = MAX_PIXELS, schema: str = "auto") -> list[Action]:
    """Typed actions of one agent output (see the module docstring for forms and modes)."""
    return Codec(screen, coords, platform, min_pixels, max_pixels, schema=schema).parse(action)


def format_actions(actions: Action | list[Action], schema: str, screen: tuple[int, int],
                   coords: CoordMode | str | None = None, platform: str = "computer",
                   image_size: tuple[int, int] | None = None) -> object:
    """`actions` written in `schema`'s form (the reverse of `parse_action`)."""
    return Codec(screen, coords, platform, schema=schema, image_size=image_size).format(actions)
