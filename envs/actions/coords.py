"""Coordinate modes of agent output, and their conversion to absolute pixels of the screenshot.

Every coordinate an agent writes goes through `CoordSpace.point`, the one place
where modes are converted, boxes reduced to their centre, results rounded and
checked against the screen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from typing import Sequence

from .model import ActionError, shown

IMAGE_FACTOR = 28
MIN_PIXELS = 100 * 28 * 28
MAX_PIXELS = 16384 * 28 * 28
MAX_RATIO = 200
#: beyond any screen: a number past it is refused before any arithmetic
_FAR = 10**15


class CoordMode(str, Enum):
    """How an agent's numbers relate to screenshot pixels (x_px for a screen W pixels wide)."""
    RELATIVE = "relative"          # 0..1000 on both axes (UI-TARS <point>, Qwen2-VL): x_px = x / 1000 * W
    ABSOLUTE = "absolute"          # pixels of the screenshot, used as they are
    SMART_RESIZE = "smart_resize"  # pixels of the smart-resized image (Qwen2.5-VL): x_px = x / resized_w * W


def smart_resize(height: int, width: int, factor: int = IMAGE_FACTOR,
                 min_pixels: int = MIN_PIXELS, max_pixels: int = MAX_PIXELS) -> tuple[int, int]:
    """(height, width) of the image a Qwen2.5-VL-style model sees for a height x width
    screenshot: both multiples of `factor`, area within [min_pixels, max_pixels], aspect
    ratio kept as well as can be.  Same arithmetic as `ui_tars.action_parser.smart_resize`."""
    if max(height, width) / min(height, width) > MAX_RATIO:
        raise ValueError(f"aspect ratio must be at most {MAX_RATIO}, got {height}x{width}")
    h_bar = max(factor, round(height / factor) * factor)
    w_bar = max(factor, round(width / factor) * factor)
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt(height * width / max_pixels)
        h_bar = math.floor(height / beta / factor) * factor
        w_bar = math.floor(width / beta / factor) * factor
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar


@dataclass(frozen=True)
class CoordSpace:
    """The coordinates one agent writes, for a screen of `screen` = (width, height) pixels."""
    screen: tuple[int, int]
    mode: CoordMode = CoordMode.RELATIVE
    min_pixels: int = MIN_PIXELS
    max_pixels: int = MAX_PIXELS
    #: (width, height) of the image the agent was sent, when it was resized from the screenshot:
    #: absolute and smart_resize coordinates are then pixels of that image (or of its resize)
    image: tuple[int, int] | None = None
    #: the set-of-marks of the latest observation (obs_mode "som"): mark number -> its centre in screenshot
    #: pixels; the codec's own dict, updated in place after each observation (empty: no marks shown)
    marks: dict = field(default_factory=dict, compare=False, hash=False, repr=False)
    #: (width, height) of the agent's coordinate range: 1000x1000, the screen, or the resized image
    extent: tuple[float, float] = field(init=False)

    def __post_init__(self) -> None:
        w, h = self.screen
        if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (w, h)):
            raise ValueError(f"screen must be (width, height) in positive int pixels, got {self.screen!r}")
        if self.image is not None:
            if not (len(self.image) == 2 and all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                                 for v in self.image)):
                raise ValueError(f"image must be (width, height) in positive int pixels, got {self.image!r}")
            object.__setattr__(self, "image", tuple(self.image))
            w, h = self.image
        try:
            mode = CoordMode(self.mode)
        except ValueError:
            raise ValueError(f"coords must be one of {[m.value for m in CoordMode]}, got {self.mode!r}") from None
        if mode is CoordMode.RELATIVE:
            extent = (1000.0, 1000.0)
        elif mode is CoordMode.ABSOLUTE:
            extent = (float(w), float(h))
        else:
            rh, rw = smart_resize(h, w, min_pixels=self.min_pixels, max_pixels=self.max_pixels)
            extent = (float(rw), float(rh))
        object.__setattr__(self, "mode", mode)
        object.__setattr__(self, "extent", extent)

    def point(self, numbers: Sequence[float], what: str = "point") -> tuple[int, int]:
        """Screenshot pixel (x, y) of a point (x, y) or of the centre of a box (x1, y1, x2, y2).

        A point is on screen when 0 <= x <= extent (the right edge included, as
        UI-TARS writes 1000 for it); pixels round half up and the edge maps to the
        last pixel column/row.  A point off the screen raises ActionError."""
        if len(numbers) not in (2, 4) or not all(
                isinstance(n, (int, float)) and not isinstance(n, bool) for n in numbers):
            raise ActionError(f"{what} needs 2 numbers (x, y) or 4 (x1, y1, x2, y2), got {shown(list(numbers))}")
        for i, n in enumerate(numbers):      # each one finite and not absurd: a box's centre is then exact
            if not -_FAR <= n <= _FAR:        # also refuses nan and ints too long to be floats
                self._off_screen(n, i % 2, what)
        x, y = (numbers if len(numbers) == 2 else
                ((numbers[0] + numbers[2]) / 2, (numbers[1] + numbers[3]) / 2))
        return self._pixel(x, 0, what), self._pixel(y, 1, what)

    def mark(self, value: object, what: str = "point") -> tuple[int, int]:
        """Screenshot pixel of the centre of set-of-marks mark `value` (an int, or its digits as text),
        as the latest observation numbered them; ActionError when there is no such mark."""
        if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 6:
            value = int(value.strip())
        if type(value) is not int:
            raise ActionError(f"{what}: mark must be a mark's number (an int), got {shown(value)}")
        if not self.marks:
            raise ActionError(f"{what}: mark={value}, but no marks are shown; marks are numbered on the screenshot "
                              f"when the env is made with obs_mode='som'")
        if value not in self.marks:
            raise ActionError(f"{what}: there is no mark {value} on this screen; marks shown: "
                              f"{min(self.marks)}..{max(self.marks)}")
        return self.marks[value]

    def coordinate(self, pixel: tuple[int, int]) -> tuple[int | float, int | float]:
        """The reverse of `point`: the numbers an agent writes in this space for screenshot pixel
        (x, y), the shortest (an int where one maps back, else the fewest decimals) that `point`
        reads back as exactly that pixel."""
        return self._coordinate(pixel[0], 0), self._coordinate(pixel[1], 1)

    def _coordinate(self, px: int, axis: int) -> int | float:
        size, extent = self.screen[axis], self.extent[axis]
        if type(px) is not int or not 0 <= px < size:
            raise ActionError(f"pixel {'xy'[axis]}={shown(px)} is outside the screen ({self.screen[0]}x"
                              f"{self.screen[1]} px)")
        exact = px * extent / size
        for digits in range(0, 7):
            value = round(exact, digits) if digits else int(round(exact))
            if 0 <= value <= extent and self._pixel(value, axis, "") == px:
                return value
        return exact

    def _pixel(self, value: float, axis: int, what: str) -> int:
        size, extent = self.screen[axis], self.extent[axis]
        if not 0 <= value <= extent:
            self._off_screen(value, axis, what)
        return min(math.floor(value * size / extent + 0.5), size - 1)

    def _off_screen(self, value: float, axis: int, what: str):
        w, h = self.screen
        name, extent = "xy"[axis], self.extent[axis]
        shown_value = f"{value:g}" if isinstance(value, float) or abs(value) < _FAR else shown(value)
        raise ActionError(
            f"{what}: {name}={shown_value} is {'not a number' if value != value else 'outside the screen'}; "
            f"{self.mode.value} coordinates go 0..{extent:g} on {name} (screen {w}x{h} px)")
