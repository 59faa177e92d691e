"""The mobile suite env: a phone-sized touch screen running the phone shell web app."""

from __future__ import annotations

from .core import HybridEnv
from .sandbox.phone import ChromiumPhone, PhoneBackend  # noqa: F401  (the phone's interface, documented here)


class MobileEnv(HybridEnv):
    """
    ## Description
    A phone: a 720×1600 screen (360×800 CSS pixels at device scale 2, a common
    Android size) showing the phone shell (status bar, launcher with ten apps,
    notification shade, back stack, recents, on-screen keyboard) in Chromium with
    mobile emulation and a touch screen. Taps, long presses (held ≥ 1 s of the
    page's clock) and swipes (with intermediate moves, resting before the lift so
    lists do not fling) are real touch events: the env moves the X pointer and
    Chromium's touch emulation (CDP `Emulation.setEmitTouchEventsForMouse`)
    delivers touchstart/touchmove/touchend with pointerType "touch". Typing goes
    through the X keyboard. The phone's clock is Playwright's clock, set by the
    task (default `hybridgym.tasks.kit.phone.PHONE_NOW`) and running. App state lives in the env's backend
    records. Touch and keys go through a `PhoneBackend` (`hybridgym.sandbox.phone`:
    `ChromiumPhone`), the interface a real device could implement. Before each
    observation the env waits until the page has received the step's input and the
    apps' backend requests have returned, then for the screen to settle
    (`hybridgym.observers.PhoneIdle`).

    ## Action Space
    UI-TARS mobile actions: click/tap, long_press, type, scroll/swipe (4 directions),
    drag, open_app(app_name=...), press_home(), press_back(), wait(), finished(...);
    also dicts and pyautogui code. A `click` is a tap, a `drag` a swipe, a wheel
    `scroll` a finger swipe that scrolls that way.

    ## Observation Space
    `Dict(screenshot=Box(0, 255, (1600, 720, 3), uint8), instruction, sdk_output,
    action_error)`: the phone screen only.

    With `obs_mode` (docs/observations.md) it also carries text views of the phone's
    page, read from Chromium's own accessibility tree and layout (CDP) after each
    step, with boxes in the phone's screen pixels (its 2x scale applied):
    `axtree` (a line per node: role, name, value, states, box in screenshot pixels),
    `dom` (a pruned DOM, the same boxes), `som` (the screenshot with numbered marks
    on the interactive nodes) and `marks` (their list; `click(mark=N)` clicks mark
    N's centre). Each text is capped at `obs_text_cap` characters; the nodes
    themselves are in `info["views"]`.

    ## Rewards
    1.0 when the checker (the backend's records before and after, or the answer)
    passes at the end of the episode, else 0.0.

    ## Starting State
    The home screen, app records seeded by the task from the reset seed.

    ## Episode End
    Terminated on `finished(...)`/`call_user()`; truncated at the step budget or when
    the browser or display fails.

    ## Arguments
    `task`, `coords`, `max_steps`, `render_mode` (see `HybridEnv`).

    ## Version History
    * v0: first version.
    """

    suite = "mobile"
