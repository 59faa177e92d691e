"""Computer tasks: change an app's settings (Mousepad, Galculator, PCManFM), checked in the app's own config file.

## Description
Turn on an option of the text editor (View or Document menu), switch the calculator's
mode, or make the file manager show hidden files. The apps save their settings by
themselves: Mousepad in GSettings (the desktop's keyfile backend,
`~/.config/glib-2.0/settings/keyfile`), Galculator in `~/.config/galculator/galculator.conf`
when it quits, PCManFM in `~/.config/pcmanfm/default/pcmanfm.conf` at once.

## Action Space / Observation Space
Those of `ComputerEnv` (the whole 1280×800 desktop; clicks, keys, typing, scrolls). No SDK.

## Rewards
1.0 when the config file sets the asked key (`config_is`) and no user file changed
(`expected_tree` with no changes).

## Starting State
The standard home drawn from the seed, then the app opened (Mousepad on a document).

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
"""

from __future__ import annotations

from typing import ClassVar, Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of
from hybridgym.reward.files import config_is, config_value

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import WORDS, pick
from .kit.desktop import SENTENCES, HomeTask, home

#: Mousepad keeps its preferences in GSettings; the desktop stores them in this keyfile
GSETTINGS_KEYFILE = ".config/glib-2.0/settings/keyfile"


def _config_value(sb, path: str, section: str, key: str) -> str | None:
    target = sb.workspace.root / path
    return config_value(target.read_bytes() if target.exists() else None, section, key)


def _menu(sb, top: tuple[int, int], item: tuple[int, int], wm_class: str) -> Iterator[dict]:
    """Open a menu of the menu bar and choose an item (positions of a window whose place the openbox rules fix)."""
    popups = lambda: [w for w in sb.windows() if wm_class in w["wm_class"] and w["geometry"]
                      and w["geometry"][1] > top[1] and w["geometry"][0] <= item[0]]
    for _ in range(3):
        yield act.click(*top)
        yield from act.until(lambda: bool(popups()), tries=8, seconds=0.1)
        if popups():
            break
    yield from act.point_and_click(*item)


class _SettingsTask(HomeTask):
    """Change one setting of an app (params `config`, `section`, `key`, `value`); the checker reads the
    app's config file and confirms no user file changed."""

    max_steps = 16

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return all_of(config_is(state["files"], params["config"], params["section"], params["key"], params["value"]),
                      super().check(state, params, outcome, baseline))


_EDITOR_VIEW = {   # name in the instruction -> (menu, item, keyfile section, key)
    "line numbers": ((163, 34), (213, 110), "org/xfce/mousepad/preferences/view", "show-line-numbers"),
    "the toolbar": ((163, 34), (192, 161), "org/xfce/mousepad/preferences/window", "toolbar-visible"),
    "the status bar": ((163, 34), (200, 186), "org/xfce/mousepad/preferences/window", "statusbar-visible"),
}
_EDITOR_DOCUMENT = {
    "word wrap": ((229, 34), (252, 59), "org/xfce/mousepad/preferences/view", "word-wrap"),
    "automatic indentation": ((229, 34), (254, 84), "org/xfce/mousepad/preferences/view", "auto-indent"),
}


class _EditorSetting(_SettingsTask):
    OPTIONS: ClassVar[dict] = {}
    app = ("editor", "{doc}")

    def sample(self, rng: np.random.Generator) -> dict:
        name = pick(rng, sorted(self.OPTIONS))
        _, _, section, key = self.OPTIONS[name]
        doc = f"Documents/{pick(rng, WORDS)}-{int(rng.integers(10, 99))}.txt"
        return {"home": {**home(rng), doc: "\n".join(rng.choice(SENTENCES, size=4)) + "\n"}, "doc": doc,
                "option": name, "config": GSETTINGS_KEYFILE, "section": section, "key": key, "value": "true"}

    def instruction(self, params: dict) -> str:
        return f"Turn on {params['option']} in the text editor (it should stay on for every document)."

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        top, item, section, key = self.OPTIONS[params["option"]]
        yield from _menu(sb, top, item, "mousepad")
        yield from act.until(lambda: _config_value(sb, GSETTINGS_KEYFILE, section, key) == "true")
        yield act.finish()


@register_task(id="computer.settings-editor-view-v0")
class SettingsEditorView(_EditorSetting):
    """Show line numbers, the toolbar or the status bar in Mousepad (View menu).

    Checked in Mousepad's GSettings, stored in ~/.config/glib-2.0/settings/keyfile
    (`[org/xfce/mousepad/preferences/view] show-line-numbers=true`, ...).
    """

    OPTIONS = _EDITOR_VIEW


@register_task(id="computer.settings-editor-document-v0")
class SettingsEditorDocument(_EditorSetting):
    """Turn on word wrap or automatic indentation in Mousepad (Document menu).

    Checked in ~/.config/glib-2.0/settings/keyfile
    (`[org/xfce/mousepad/preferences/view] word-wrap=true` or `auto-indent=true`).
    """

    OPTIONS = _EDITOR_DOCUMENT


@register_task(id="computer.settings-calculator-mode-v0", max_steps=24)
class SettingsCalculatorMode(_SettingsTask):
    """Switch Galculator to scientific or paper mode and quit it, so it saves the setting.

    Galculator writes ~/.config/galculator/galculator.conf when it quits; the checker
    wants `[general] mode=1` (scientific) or `mode=2` (paper).
    """

    app = ("calculator",)
    _MODES = {"scientific": ("1", (550, 185)), "paper": ("2", (539, 210))}

    def sample(self, rng: np.random.Generator) -> dict:
        mode = pick(rng, sorted(self._MODES))
        return {"home": home(rng), "mode": mode, "config": ".config/galculator/galculator.conf",
                "section": "general", "key": "mode", "value": self._MODES[mode][0]}

    def instruction(self, params: dict) -> str:
        return (f"Switch the calculator to {params['mode']} mode, then quit the calculator (File > Quit) so that it "
                "remembers the mode.")

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        x, y, w, h = sb.window_geometry(sb.wait_for_window("galculator"))
        yield from _menu(sb, (x + 103, y + 12), self._MODES[params["mode"]][1], "galculator")
        yield from act.until(lambda: sb.window_geometry(sb.wait_for_window("galculator"))[2] != w, tries=10)
        x, y, w, h = sb.window_geometry(sb.wait_for_window("galculator"))
        yield from _menu(sb, (x + 18, y + 12), (x + 38, y + 37), "galculator")   # File > Quit
        yield from act.until(lambda: _config_value(sb, params["config"], "general", "mode") is not None)
        yield act.finish()


@register_task(id="computer.settings-files-hidden-v0", max_steps=12)
class SettingsFilesHidden(_SettingsTask):
    """Make PCManFM show hidden files (View > Show Hidden, or ctrl+H).

    PCManFM saves it at once in ~/.config/pcmanfm/default/pcmanfm.conf; the checker
    wants `[ui] show_hidden=1`, and no user file changed.
    """

    app = ("files", "{folder}")

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        folder = pick(rng, ["Documents", "Pictures", "Downloads"])
        files[f"{folder}/.{pick(rng, WORDS)}-cache"] = "hidden\n"
        return {"home": files, "folder": folder, "config": ".config/pcmanfm/default/pcmanfm.conf",
                "section": "ui", "key": "show_hidden", "value": "1"}

    def instruction(self, params: dict) -> str:
        return (f"The file manager is open on {params['folder']}. Change its settings so that it shows hidden files "
                "(names starting with a dot) in every folder.")

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        shown = lambda: _config_value(sb, params["config"], "ui", "show_hidden") == "1"   # noqa: E731
        for _ in range(3):
            yield act.keys("ctrl", "h")
            yield from act.until(shown, tries=8)
            if shown():
                break
        yield act.finish()
