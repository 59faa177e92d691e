"""The browser suite env: web apps served on 127.0.0.1, in a real Chromium window."""

from __future__ import annotations

from .core import HybridEnv


class BrowserEnv(HybridEnv):
    """
    ## Description
    A Chromium window (tab strip and address bar included) filling a 1280×800 Xvfb
    display, showing web apps that the env serves on 127.0.0.1 with a backend of
    per-episode records. The browser reaches only that server; every other request
    is blocked. Mouse and keys go through XTEST; the page is never scripted on the
    agent's behalf.

    ## Action Space
    As `ComputerEnv`: UI-TARS text, pyautogui code, dicts or typed actions.

    ## Observation Space
    `Dict(screenshot=Box(0, 255, (800, 1280, 3), uint8), instruction, sdk_output,
    action_error)`: the whole display, browser chrome included.

    With `obs_mode` (docs/observations.md) it also carries text views of the page,
    read from Chromium's own accessibility tree and layout (CDP) after each step:
    `axtree` (a line per node: role, name, value, states, box in screenshot pixels),
    `dom` (a pruned DOM, the same boxes), `som` (the screenshot with numbered marks
    on the interactive nodes) and `marks` (their list; `click(mark=N)` clicks mark
    N's centre). Each text is capped at `obs_text_cap` characters; the nodes
    themselves are in `info["views"]`.

    ## Rewards
    1.0 when the checker (which reads the app's backend records and confirms nothing
    else changed) passes at the end of the episode, else 0.0.

    ## Starting State
    The app's records seeded by the task from the reset seed; a fresh page (extra tabs
    closed, cookies and storage cleared). Chromium itself is not relaunched.

    ## Episode End
    Terminated on `finished(...)`/`call_user()`; truncated at the step budget or when
    the browser or display fails (error in `info["error"]`; the next reset restarts it).

    ## Arguments
    `task`, `coords`, `max_steps`, `render_mode` (see `HybridEnv`).

    ## Version History
    * v0: first version.
    """

    suite = "browser"
