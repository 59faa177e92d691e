"""Action schemas: the output formats of the model families, each a reader and a formatter.

A schema is one model family's way of writing actions (Seed / UI-TARS-2 XML tool calls,
OpenAI computer use, Anthropic computer use, Qwen computer_use / mobile_use, UI-TARS-1.5
text, pyautogui code, hybridgym's own dicts).  Each is a module of this package that
registers a `Schema` here: how to recognise its output (`looks_like`), how to read it into
typed actions (`parse`), and the reverse (`format`: typed actions -> that family's output),
with the coordinate space its numbers are in.

`Codec(schema="auto")` tries the schemas in `AUTO_ORDER`; `Codec(schema=NAME)` forces one.
Every reader refuses bad input with an ActionError whose message starts with the schema's
title, so an agent knows which reader it reached.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from .coords import CoordMode, CoordSpace
from .model import Action, ActionError

#: (output, space, platform) -> typed actions
Reader = Callable[[object, CoordSpace, str], list[Action]]
#: (actions, space, platform) -> that family's output (text, a dict or a list of dicts)
Formatter = Callable[[Sequence[Action], CoordSpace, str], object]


@dataclass(frozen=True)
class Schema:
    """One model family's action format."""
    name: str                     # "seed", "openai", ...: what `Codec(schema=...)` and `--schema` take
    title: str                    # "Seed XML tool call": how error messages name it
    coords: CoordMode             # the coordinate space its numbers are in by default
    coords_note: str              # the same, in words, for the docs and the prompts
    looks_like: Callable[[object], bool]
    parse: Reader
    format: Formatter
    #: whether `coords=` changes its coordinate space (text schemas whose models differ: Qwen2.5-VL
    #: writes smart-resized pixels, Qwen3-VL 0..1000); computer-use JSON schemas are always pixels
    #: of the image as sent
    coords_override: bool = True
    #: whether its coordinates are pixels of the image the agent was sent (resized or not)
    image_pixels: bool = True

    def fail(self, message: str) -> ActionError:
        """An ActionError whose message names this schema."""
        return ActionError(message if message.startswith(self.title) else f"{self.title}: {message}")


SCHEMAS: dict[str, Schema] = {}
#: the order `Codec(schema="auto")` asks the schemas whether an output is theirs
AUTO_ORDER = ("dict", "openai", "anthropic", "qwen", "seed", "uitars", "pyautogui")


def register_schema(schema: Schema) -> Schema:
    if schema.name in SCHEMAS and SCHEMAS[schema.name] != schema:
        raise ValueError(f"schema {schema.name!r} is registered twice")
    SCHEMAS[schema.name] = schema
    return schema


def get_schema(name: str) -> Schema:
    _load()
    try:
        return SCHEMAS[name]
    except KeyError:
        raise ValueError(f"unknown action schema {name!r}; schemas: auto, {', '.join(sorted(SCHEMAS))}") from None


def detect(output: object) -> Schema | None:
    """The schema whose output this looks like, in AUTO_ORDER; None if none claims it."""
    _load()
    for name in AUTO_ORDER:
        schema = SCHEMAS.get(name)
        if schema is not None and schema.looks_like(output):
            return schema
    return None


def space_of(schema: Schema, screen: tuple[int, int], coords: CoordMode | str | None = None,
             image: tuple[int, int] | None = None, min_pixels: int | None = None,
             max_pixels: int | None = None) -> CoordSpace:
    """The coordinate space `schema`'s numbers are read in on a `screen`, with the agent's `coords`
    (where the schema lets it override) and the size of the `image` it was sent."""
    mode = coords if (coords is not None and schema.coords_override) else schema.coords
    extra = {k: v for k, v in (("min_pixels", min_pixels), ("max_pixels", max_pixels)) if v is not None}
    return CoordSpace(tuple(screen), CoordMode(mode), image=image if schema.image_pixels else None, **extra)


_loaded = False


def _load() -> None:
    """Import the schema modules (each registers itself)."""
    global _loaded
    if not _loaded:
        _loaded = True
        from . import anthropic_cua, dicts, openai_cua, pyautogui_code, qwen, seed, uitars  # noqa: F401
