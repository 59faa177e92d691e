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
1.0 when the config file sets the asked key (`config_is`), every other key of the three apps'
settings files (Mousepad's GSettings keyfile, galculator.conf, pcmanfm.conf) keeps its
baseline value, or the app's default where the app had not written it yet
(`config_only_changed`; "turn every option on" fails), and no user file changed
(`expected_tree` with no changes). What the apps record of their own state (window sizes,
the open session, remembered values, GTK's file chooser) is not compared.

## Starting State
The standard home drawn from the seed, then the app opened (Mousepad on a document).

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1: every other setting of the apps must keep its value (collateral); the instruction names a
  split-disjoint file (the editor's document, a hidden file), so train and test instances differ.
"""

from __future__ import annotations

from typing import ClassVar, Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import all_of
from hybridgym.reward.files import config_is, config_only_changed, config_value

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import pick
from .kit.desktop import SENTENCES, WORDS, HomeTask, home

#: Mousepad keeps its preferences in GSettings; the desktop stores them in this keyfile
GSETTINGS_KEYFILE = ".config/glib-2.0/settings/keyfile"
GALCULATOR_CONF = ".config/galculator/galculator.conf"
PCMANFM_CONF = ".config/pcmanfm/default/pcmanfm.conf"

#: the apps' settings files as they write them untouched on this desktop (galculator at quit, PCManFM on any
#: change; GSettings keeps only keys set, here Mousepad's options of these tasks, all off by default)
_DEFAULTS = {
    GSETTINGS_KEYFILE: b"""[org/xfce/mousepad/preferences/view]
show-line-numbers=false
word-wrap=false
auto-indent=false
[org/xfce/mousepad/preferences/window]
toolbar-visible=false
statusbar-visible=false
""",
    GALCULATOR_CONF: b"""[general]

display_bkg_color="#ffffff"
display_result_font="Sans Bold 26"
display_result_color="black"
display_stack_font="Sans Bold 11"
display_stack_color="black"
display_module_font="Sans Bold 8"
display_module_active_color="black"
display_module_inactive_color="grey"
display_module_number=true
display_module_angle=true
display_module_notation=true
display_module_arith=true
display_module_open=true
custom_button_font=false
button_font="Sans 10"
button_width=40
button_height=25
function_button_group=true
dispctrl_button_group=true
logic_button_group=true
standard_button_group=true
mode=0
dec_sep=false
dec_sep_length=3
dec_sep_char=" "
hex_bits=32
hex_signed=true
hex_sep=false
hex_sep_length=4
hex_sep_char=" "
oct_bits=32
oct_signed=true
oct_sep=false
oct_sep_length=3
oct_sep_char=" "
bin_bits=16
bin_signed=true
bin_fixed=false
bin_length=8
bin_sep=false
bin_sep_length=4
bin_sep_char=" "
default_number_base=0
default_angle_base=1
default_notation_mode=0
stack_size=3
remembers_display=false
remembered_valuex="0"
remembered_valuey="0"
remembered_valuez="0"
remembered_valuet="0"
show_menu_bar=true

[constants]

Pi:pi=3.14159265359
Euler's Number:e=2.71828182846

[user functions]

abs(x)=sqrt(x^2)
sign(x)=x/abs(x)
cot(x)=cos(x)/sin(x)
""",
    PCMANFM_CONF: b"""[config]
bm_open_method=0

[volume]
mount_on_startup=1
mount_removable=1
autorun=1

[ui]
always_show_tabs=0
max_tab_chars=32
win_width=640
win_height=480
splitter_pos=150
media_in_new_tab=0
desktop_folder_new_win=0
change_tab_on_drop=1
close_on_unmount=1
focus_previous=0
side_pane_mode=places
view_mode=icon
show_hidden=0
sort=name;ascending;
toolbar=newtab;navigation;home;
show_statusbar=1
pathbar_mode_buttons=0
""",
}
#: per file: (sections, keys) the apps write of their own state, not compared
_APP_STATE = {
    GSETTINGS_KEYFILE: (("org/xfce/mousepad/state", "org/gtk/"), ()),
    GALCULATOR_CONF: ((), tuple(("general", f"remembered_value{r}") for r in "xyzt")),
    PCMANFM_CONF: ((), (("ui", "win_width"), ("ui", "win_height"), ("ui", "splitter_pos"))),
}


def settings_kept(state: dict, baseline: dict, asked: tuple[str, str, str]) -> CheckResult:
    """Every key of the three apps' settings files is as in the baseline (or the app's default), except
    `asked` = (file, section, key)."""
    results = []
    for path, (sections, keys) in _APP_STATE.items():
        mine = [asked[1:]] if asked[0] == path else []
        results.append(config_only_changed(baseline["files"], state["files"], path, asked=mine,
                                           defaults=_DEFAULTS[path], ignore_sections=sections, ignore_keys=keys))
    return all_of(*results)


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

    def read_state(self, sb, params: dict) -> dict:
        """The home with the apps' settings files (`home_state` leaves .config/ out)."""
        state = super().read_state(sb, params)
        for path in _DEFAULTS:
            target = sb.workspace.root / path
            if target.is_file():
                state["files"][path] = target.read_bytes()
        return state

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return all_of(config_is(state["files"], params["config"], params["section"], params["key"], params["value"]),
                      settings_kept(state, baseline, (params["config"], params["section"], params["key"])),
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
        return (f"The text editor is open on {params['doc']}. Turn on {params['option']} in the text editor "
                "(it should stay on for every document).")

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        top, item, section, key = self.OPTIONS[params["option"]]
        yield from _menu(sb, top, item, "mousepad")
        yield from act.until(lambda: _config_value(sb, GSETTINGS_KEYFILE, section, key) == "true")
        yield act.finish()


@register_task(id="computer.settings-editor-view-v1")
class SettingsEditorView(_EditorSetting):
    """Show line numbers, the toolbar or the status bar in Mousepad (View menu).

    Checked in Mousepad's GSettings, stored in ~/.config/glib-2.0/settings/keyfile
    (`[org/xfce/mousepad/preferences/view] show-line-numbers=true`, ...).
    """

    OPTIONS = _EDITOR_VIEW


@register_task(id="computer.settings-editor-document-v1")
class SettingsEditorDocument(_EditorSetting):
    """Turn on word wrap or automatic indentation in Mousepad (Document menu).

    Checked in ~/.config/glib-2.0/settings/keyfile
    (`[org/xfce/mousepad/preferences/view] word-wrap=true` or `auto-indent=true`).
    """

    OPTIONS = _EDITOR_DOCUMENT


@register_task(id="computer.settings-calculator-mode-v1", max_steps=24)
class SettingsCalculatorMode(_SettingsTask):
    """Switch Galculator to scientific or paper mode and quit it, so it saves the setting.

    Galculator writes ~/.config/galculator/galculator.conf when it quits; the checker
    wants `[general] mode=1` (scientific) or `mode=2` (paper).
    """

    app = ("calculator",)
    _MODES = {"scientific": ("1", (550, 185)), "paper": ("2", (539, 210))}

    def sample(self, rng: np.random.Generator) -> dict:
        mode = pick(rng, sorted(self._MODES))
        return {"home": home(rng), "mode": mode, "config": GALCULATOR_CONF,
                "section": "general", "key": "mode", "value": self._MODES[mode][0]}

    def instruction(self, params: dict) -> str:
        return (f"Switch the calculator to {params['mode']} mode, then quit the calculator (File > Quit) so that it "
                "remembers the mode.")

    def instance_key(self, params: dict) -> tuple:
        """The instruction names nothing drawn: the home's drawn files (split-pool names) tell instances apart."""
        return super().instance_key(params) + (tuple(sorted(params["home"])),)

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        x, y, w, h = sb.window_geometry(sb.wait_for_window("galculator"))
        yield from _menu(sb, (x + 103, y + 12), self._MODES[params["mode"]][1], "galculator")
        yield from act.until(lambda: sb.window_geometry(sb.wait_for_window("galculator"))[2] != w, tries=10)
        x, y, w, h = sb.window_geometry(sb.wait_for_window("galculator"))
        yield from _menu(sb, (x + 18, y + 12), (x + 38, y + 37), "galculator")   # File > Quit
        yield from act.until(lambda: _config_value(sb, params["config"], "general", "mode") is not None)
        yield act.finish()


@register_task(id="computer.settings-files-hidden-v1", max_steps=12)
class SettingsFilesHidden(_SettingsTask):
    """Make PCManFM show hidden files (View > Show Hidden, or ctrl+H).

    PCManFM saves it at once in ~/.config/pcmanfm/default/pcmanfm.conf; the checker
    wants `[ui] show_hidden=1`, and no user file changed.
    """

    app = ("files", "{folder}")

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        folder = pick(rng, ["Documents", "Pictures", "Downloads"])
        hidden = f".{pick(rng, WORDS)}-cache"
        files[f"{folder}/{hidden}"] = "hidden\n"
        return {"home": files, "folder": folder, "hidden": hidden, "config": PCMANFM_CONF,
                "section": "ui", "key": "show_hidden", "value": "1"}

    def instruction(self, params: dict) -> str:
        return (f"The file manager is open on {params['folder']}. Change its settings so that it shows hidden files "
                f"(names starting with a dot, like {params['hidden']}) in every folder.")

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        shown = lambda: _config_value(sb, params["config"], "ui", "show_hidden") == "1"   # noqa: E731
        for _ in range(3):
            yield act.keys("ctrl", "h")
            yield from act.until(shown, tries=8)
            if shown():
                break
        yield act.finish()
