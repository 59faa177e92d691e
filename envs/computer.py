"""The computer suite env: a Linux desktop on a private Xvfb display."""

from __future__ import annotations

from .core import HybridEnv


class ComputerEnv(HybridEnv):
    """
    ## Description
    A Linux desktop on a private Xvfb display (1280×800): openbox with fixed window
    rules (apps open maximized above a 32-pixel tint2 panel with app launchers and a
    task list; the calculator at a fixed place), a private D-Bus, and real Debian apps
    (`hybridgym.sandbox.desktop.APPS`): xterm, Mousepad, PCManFM, galculator, Gnumeric,
    Ristretto and Chromium (which reaches only the env's local server). The agent sees
    the whole screen and acts with the mouse and keyboard through XTEST, like a person;
    tasks that offer the SDK also accept `terminal`, `read_file` and `write_file`, run in
    the same home folder the apps use (a per-episode workspace, sandboxed with bubblewrap).
    Task families: file management, text editing, app settings (checked in the apps'
    config files), spreadsheets, multi-app work, hybrid GUI+SDK work, and requests that
    cannot be done (the right answer is to say so). See docs/computer-suite.md.

    ## Action Space
    `UnicodeText`: UI-TARS response text (`Action: click(point='<point>500 300</point>')`),
    pyautogui code (`pyautogui.click(640, 400)`), a dict (`{"action_type": "click",
    "x": 640, "y": 400}`) or a list of typed actions (`hybridgym.parse_action`).
    Computer actions: click, left_double, right_single, hover, drag, scroll (4
    directions), type, hotkey, press, keydown, keyup, wait, finished, call_user; SDK:
    terminal, read_file, write_file. Malformed actions do not raise: the error is in
    `info["action_error"]` and `obs["action_error"]`, and the episode goes on.

    ## Observation Space
    `Dict(screenshot=Box(0, 255, (800, 1280, 3), uint8), instruction=UnicodeText,
    sdk_output=UnicodeText, action_error=UnicodeText)`. The screenshot is taken once
    the screen has settled after the step's input.

    With `obs_mode` (docs/observations.md) it also carries `axtree`, the desktop's
    accessibility tree read through AT-SPI from the real apps (a line per node: the
    app, role, name, value, states, box in screenshot pixels), after the window
    manager's window list (title, app, geometry, focus); and `som` (the screenshot
    with numbered marks on the interactive nodes) with `marks` (their list;
    `click(mark=N)` clicks mark N's centre). `dom` is not offered. Each text is
    capped at `obs_text_cap` characters; the nodes are in `info["views"]`.

    ## Rewards
    1.0 when the task's checker passes at the end of the episode, else 0.0
    (partial credit where a checker grades it). Checkers (`hybridgym.reward.files`) are
    pure functions of the home's files and the apps' config files, and fail if any
    other user file was damaged.

    ## Starting State
    At every reset the apps are killed (also those started from the panel), the home is
    emptied, the task writes the episode's home from the seed (documents, real PNG
    images, CSVs, config files) and opens its apps; the reset returns once each window is
    mapped, placed by the window manager and the screen is still (probed, no fixed sleeps).

    ## Episode End
    Terminated when the agent sends `finished(...)` or `call_user()`; truncated at the
    task's step budget, or when a part of the sandbox fails (error in `info["error"]`).
    The checker sees how the episode ended (`hybridgym.tasks.base.Outcome`): a `call_user()`
    is told apart from an empty `finished()`, so infeasible tasks can ask for it.

    ## Arguments
    `task`, `coords`, `max_steps`, `render_mode` (see `HybridEnv`).

    ## Version History
    * v0: first version.
    """

    suite = "computer"
