"""Mobile tasks on the phone's Settings app (assets/phone/apps/settings.js): switches, brightness, ringtone, display.

## Description
The agent turns Wi-Fi, Bluetooth or airplane mode on or off (to the opposite of how it starts) and chooses a
ringtone, turns on Do Not Disturb and chooses a ringtone, drags the brightness slider to about a given
percentage, chooses a ringtone, or turns on the dark theme, sets the font size and the brightness in one visit
to Display.

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the one `settings` record shows exactly the asked values (brightness within ±4 of the target) and
every other setting as it was (`settings_set`: turning every option on fails), and nothing else of the phone
changed (`phone_changed`); else 0.0.

## Starting State
The home screen at 2026-03-14 09:30 with all ten apps seeded from the reset seed (`kit.phone_world`): Wi-Fi
on, Bluetooth on or off, brightness 20-90, a ringtone, a font size other than Largest, the light theme.

## Episode End
`finished(...)`, or `max_steps` (12-16).

## Tasks
* `mobile.settings-toggle-v1`: Wi-Fi, Bluetooth or airplane mode to the opposite of how it starts, and a ringtone.
* `mobile.settings-dnd-v1`: Do Not Disturb on and a ringtone (both in Sound & vibration).
* `mobile.settings-brightness-v1`: the brightness slider dragged to about a percentage (within ±4).
* `mobile.settings-ringtone-v1`: a given phone ringtone (Sound & vibration > Phone ringtone).
* `mobile.settings-display-v1`: the dark theme on, a font size and about a brightness, in one visit to Display.

The test split holds out: a ringtone comes from the split's half of the Settings app's eight
(`kit.phone_world.RINGTONES`), a brightness target is a multiple of 10 for a training seed and of 5 but not 10
for a test seed.

## Version History
* v0: first version.
* v1: settings-toggle and settings-dnd also ask for a ringtone, settings-display also for a brightness; the
  ringtones and brightness targets are split-disjoint; every task judges the whole settings record
  (`settings_set`).
"""

from __future__ import annotations

from hybridgym.reward.checkers import all_of
from hybridgym.reward.phone_tools import phone_changed, settings_set

from .base import register_task
from .kit import actions as act
from .kit.data import pick, pool_of, split_of
from .kit.phone import ToolAppTask, menu_choice, point, tap
from .kit.phone_world import FONT_SIZES, RINGTONES

_TOGGLES = {  # key -> (label, settings page)
    "wifi": ("Wi-Fi", "#set-network"), "bluetooth": ("Bluetooth", "#set-devices"),
    "airplane": ("airplane mode", "#set-network"),
}
TOLERANCE = 4


def _brightness(rng, now: int) -> int:
    """A brightness target at least 20 from `now`: a multiple of 10 (train) or an odd multiple of 5 (test)."""
    first = 10 if split_of(rng) == "train" else 15
    return pick(rng, [t for t in range(first, 100, 10) if abs(t - now) >= 20])


def _ringtone(rng, now: str) -> str:
    """A ringtone of the split's half other than `now`."""
    return pick(rng, [r for r in pool_of(rng, RINGTONES) if r != now])


class SettingsTask(ToolAppTask):
    """A task on the one settings record: `values(p)` are the exact new values, `target(p)` the brightness
    asked for (or None). Checker: `settings_set` (those values, the brightness within ±4, every other setting
    as it was) and nothing else changed."""

    max_steps = 12

    def values(self, p: dict) -> dict:
        return {}

    def target(self, p: dict) -> int | None:
        return None

    def check(self, state, params, outcome, baseline):
        near = {} if self.target(params) is None else {"brightness": self.target(params)}
        return all_of(settings_set(baseline["settings"], state["settings"], self.values(params), near, TOLERANCE),
                      phone_changed({**baseline, "settings": []}, {**state, "settings": []}, {}))


def _drag_brightness(sb, target: int):
    """On the Display page: drag the brightness thumb to `target`%."""
    x1, y1 = point(sb, "#brightness-thumb")
    box = sb.browser.page.locator("#brightness-track").bounding_box()
    x2, _ = sb.browser.to_screen(box["x"] + box["width"] * target / 100, 0)
    yield act.drag(x1, y1, x2, y1)


def _choose_ringtone(sb, ringtone: str):
    """On the Sound page: the ringtone row, then the ringtone."""
    yield tap(sb, "#set-ringtone")
    yield tap(sb, menu_choice(ringtone))


@register_task(id="mobile.settings-toggle-v1", max_steps=14)
class SettingsToggle(SettingsTask):
    """Turn Wi-Fi, Bluetooth or airplane mode on or off in Settings (the opposite of how it starts), and choose a
    ringtone."""

    def choose(self, rng, records):
        key = pick(rng, sorted(_TOGGLES))
        now = records["settings"][0]
        return {"key": key, "value": not now[key], "ringtone": _ringtone(rng, now["ringtone"])}

    def instruction(self, p):
        return (f"In Settings, turn {'on' if p['value'] else 'off'} {_TOGGLES[p['key']][0]} and change the phone "
                f'ringtone to "{p["ringtone"]}".')

    def values(self, p):
        return {p["key"]: p["value"], "ringtone": p["ringtone"]}

    def solve(self, sb, p):
        yield act.open_app("settings")
        yield tap(sb, _TOGGLES[p["key"]][1])
        yield tap(sb, f"#sw-{p['key']}")
        yield act.press_back()
        yield tap(sb, "#set-sound")
        yield from _choose_ringtone(sb, p["ringtone"])


@register_task(id="mobile.settings-dnd-v1",
               template='Turn on Do Not Disturb and change the phone ringtone to "{ringtone}".')
class SettingsDnd(SettingsTask):
    """Turn on Do Not Disturb and choose a ringtone (both in Sound & vibration)."""

    def choose(self, rng, records):
        return {"ringtone": _ringtone(rng, records["settings"][0]["ringtone"])}

    def values(self, p):
        return {"dnd": True, "ringtone": p["ringtone"]}

    def solve(self, sb, p):
        yield act.open_app("settings")
        yield tap(sb, "#set-sound")
        yield tap(sb, "#sw-dnd")
        yield from _choose_ringtone(sb, p["ringtone"])


@register_task(id="mobile.settings-ringtone-v1", template='Change the phone ringtone to "{ringtone}".')
class SettingsRingtone(SettingsDnd):
    """Choose a phone ringtone (Sound & vibration > Phone ringtone)."""

    def values(self, p):
        return {"ringtone": p["ringtone"]}

    def solve(self, sb, p):
        yield act.open_app("settings")
        yield tap(sb, "#set-sound")
        yield from _choose_ringtone(sb, p["ringtone"])


@register_task(id="mobile.settings-brightness-v1", template="Set the screen brightness to about {target}%.")
class SettingsBrightness(SettingsTask):
    """Set the screen brightness to about X% by dragging the slider in Settings > Display (within ±4)."""

    TOLERANCE = TOLERANCE

    def choose(self, rng, records):
        return {"target": _brightness(rng, records["settings"][0]["brightness"])}

    def target(self, p):
        return p["target"]

    def solve(self, sb, p):
        yield act.open_app("settings")
        yield tap(sb, "#set-display")
        yield from _drag_brightness(sb, p["target"])


@register_task(id="mobile.settings-display-v1", max_steps=14,
               template=("Turn on the dark theme, set the font size to {font_size} and the brightness to about "
                         "{target}%."))
class SettingsDisplay(SettingsTask):
    """Turn on the dark theme, set the font size and the brightness, in one visit to Display (three changes)."""

    def choose(self, rng, records):
        now = records["settings"][0]
        return {"font_size": pick(rng, [f for f in FONT_SIZES if f != now["font_size"]]),
                "target": _brightness(rng, now["brightness"])}

    def values(self, p):
        return {"dark_mode": True, "font_size": p["font_size"]}

    def target(self, p):
        return p["target"]

    def solve(self, sb, p):
        yield act.open_app("settings")
        yield tap(sb, "#set-display")
        yield tap(sb, "#sw-dark_mode")
        yield tap(sb, "#set-font-size")
        yield tap(sb, menu_choice(p["font_size"]))
        yield from _drag_brightness(sb, p["target"])
