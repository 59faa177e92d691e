"""Mobile tasks on the phone's Settings app (assets/phone/apps/settings.js): switches, brightness, ringtone, display.

## Description
The agent turns Wi-Fi, Bluetooth or airplane mode on or off (to the opposite of how it starts), turns on Do
Not Disturb, drags the brightness slider to about a given percentage, chooses a ringtone, or turns on the
dark theme and sets the font size in one visit to Display.

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the one `settings` record shows exactly the asked values (brightness within ±4 of the target,
`setting_near`) and nothing else of the phone changed (`phone_changed`); else 0.0.

## Starting State
The home screen at 2026-03-14 09:30 with all ten apps seeded from the reset seed (`kit.phone_world`): Wi-Fi
on, Bluetooth on or off, brightness 20-90, a ringtone, a font size other than Largest, the light theme.

## Episode End
`finished(...)`, or `max_steps` (12).

## Tasks
* `mobile.settings-toggle-v0`: Wi-Fi, Bluetooth or airplane mode to the opposite of how it starts.
* `mobile.settings-dnd-v0`: Do Not Disturb on (Sound & vibration).
* `mobile.settings-brightness-v0`: the brightness slider dragged to about a percentage (within ±4).
* `mobile.settings-ringtone-v0`: a given phone ringtone (Sound & vibration > Phone ringtone).
* `mobile.settings-display-v0`: the dark theme on and a font size, in one visit to Display (two changes).

## Version History
* v0: first version.
"""

from __future__ import annotations

from hybridgym.reward.checkers import all_of
from hybridgym.reward.phone_tools import phone_changed, setting_near

from .base import add_task, register_task
from .kit import actions as act
from .kit.data import pick
from .kit.phone import ChangeRecord, Param, ToolAppTask, menu_choice, point, tap
from .kit.phone_world import FONT_SIZES, RINGTONES, changed

_TOGGLES = {  # key -> (label, settings page)
    "wifi": ("Wi-Fi", "#set-network"), "bluetooth": ("Bluetooth", "#set-devices"),
    "airplane": ("airplane mode", "#set-network"),
}


@register_task(id="mobile.settings-toggle-v0")
class SettingsToggle(ToolAppTask):
    """Turn Wi-Fi, Bluetooth or airplane mode on or off in Settings (the opposite of how it starts)."""

    def choose(self, rng, records):
        key = pick(rng, sorted(_TOGGLES))
        return {"key": key, "value": not records["settings"][0][key]}

    def instruction(self, p):
        return f"Turn {'on' if p['value'] else 'off'} {_TOGGLES[p['key']][0]} in Settings."

    def expected(self, p):
        return changed(p, "settings", {}, {p["key"]: p["value"]})

    def solve(self, sb, p):
        yield act.open_app("settings")
        yield tap(sb, _TOGGLES[p["key"]][1])
        yield tap(sb, f"#sw-{p['key']}")


@register_task(id="mobile.settings-brightness-v0")
class SettingsBrightness(ToolAppTask):
    """Set the screen brightness to about X% by dragging the slider in Settings > Display (`setting_near`)."""

    TOLERANCE = 4
    template = "Set the screen brightness to about {target}%."

    def choose(self, rng, records):
        now = records["settings"][0]["brightness"]
        return {"target": pick(rng, [t for t in range(10, 100, 5) if abs(t - now) >= 20])}

    def check(self, state, params, outcome, baseline):
        near = setting_near(baseline["settings"], state["settings"], "brightness", params["target"], self.TOLERANCE)
        return all_of(near, phone_changed({**baseline, "settings": []}, {**state, "settings": []}, {}))

    def solve(self, sb, p):
        yield act.open_app("settings")
        yield tap(sb, "#set-display")
        x1, y1 = point(sb, "#brightness-thumb")
        box = sb.browser.page.locator("#brightness-track").bounding_box()
        x2, _ = sb.browser.to_screen(box["x"] + box["width"] * p["target"] / 100, 0)
        yield act.drag(x1, y1, x2, y1)


def _other(key: str, choices: list[str]):
    """`new` for a setting `key` given another of its `choices` than it has."""
    return lambda rng, settings, records: {key: pick(rng, [c for c in choices if c != settings[key]])}


# the settings are one record: the target of every row, with nothing drawn to find it
for task in (
    ChangeRecord("mobile.settings-dnd-v0", 12, "Turn on Do Not Disturb.", "settings", (), "settings",
                 ("tap", "#set-sound"), ("tap", "#sw-dnd"), single=True, to={"dnd": True}),
    ChangeRecord("mobile.settings-ringtone-v0", 12, 'Change the phone ringtone to "{ringtone}".', "settings", (),
                 "settings", ("tap", "#set-sound"), ("tap", "#set-ringtone"), ("tap", menu_choice("{ringtone}")),
                 single=True, new=_other("ringtone", RINGTONES), to={"ringtone": Param("ringtone")}),
    ChangeRecord("mobile.settings-display-v0", 12, "Turn on the dark theme and set the font size to {font_size}.",
                 "settings", (), "settings", ("tap", "#set-display"), ("tap", "#sw-dark_mode"),
                 ("tap", "#set-font-size"), ("tap", menu_choice("{font_size}")), single=True,
                 new=_other("font_size", FONT_SIZES), to={"dark_mode": True, "font_size": Param("font_size")}),
):
    add_task(task)
