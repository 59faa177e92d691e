"""Game suite tasks: the HTML5 games in assets/games on Playwright's virtual clock, rewarded by score.

## Description
One task per game (`game.<name>-v0`), built from the game's card
(`assets/games/<game>/card.json`, read by `tasks/players/<game>.py`: title, instruction,
keys, click grid, `step_ms`, target, step budget) and played by the player module's
scripted `policy(state)` as the oracle. The page
exposes `window.hybridgym` (score, gameOver, state).

## Action Space
Those of `GameEnv`: keys and clicks; `discrete_actions()` gives a finite set for
classic RL (do nothing, each of the game's keys, a click per grid cell).

## Observation Space
The game's canvas, 800×600 (read with the clock advance, `CanvasClock`).

## Rewards
The score's change at each step (`reward_mode = "score"`), read with the observation
(`probe`) through a channel the page's scripts cannot rewrite (`SCORE_SCRIPT`: the game's
own `window.hybridgym`, kept and frozen before any page script runs); a page other than the
game's own ends the episode with a score of 0. Success is reaching the card's target. `normalized_score`: 0 = random agent,
100 = scripted player (tasks/game_baselines.json, from benchmarks/bench_games.py).

## Starting State
A new game seeded from the reset seed (level seeds: even for training reset seeds, odd for
test ones, so no test level is a training level), its clock at 0 and paused.

## Episode End
Game over, `finished(...)`, or the card's step budget.

## Version History
* v0: first version.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import ClassVar, Iterator
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError

from hybridgym.reward import CheckResult, Condition
from hybridgym.reward.checkers import score_at_least

from .base import Outcome, Task, register_task
from .kit.data import split_of
from .players import discover

NOOP = {"action_type": "wait", "seconds": 0}

# The score channel, run in every document before any of its own scripts (`require_script`): the
# first object the game assigns to `window.hybridgym` (assets/games/_kit.js `api`, whose functions
# read the game's own closure) is kept, frozen; later assignments, redefinitions and writes to its
# fields do nothing. The probe reads only through it, with no page global of its own (`Number`,
# `Boolean` may be rewritten by the page).
SCORE_SCRIPT = """
(() => {
  const freeze = Object.freeze;
  let api;
  Object.defineProperty(window, 'hybridgym', { configurable: false, enumerable: true,
    get() { return api; },
    set(v) { if (api === undefined && v !== null && typeof v === 'object') api = freeze(v); } });
})();
"""
BASELINES_FILE = Path(__file__).with_name("game_baselines.json")


class GameTask(Task):
    """A game page at assets/games/<game>/ exposing `window.hybridgym` (score, gameOver, state).

    Each step advances the game's virtual clock by `step_ms`; nothing runs between
    steps. Reward is the score change per step; the episode ends at game over or at
    the step budget; success is reaching `target` points.
    """

    suite = "game"
    reward_mode = "score"
    probe = "[+hybridgym.score(), !!hybridgym.gameOver()]"
    player: ClassVar[ModuleType]
    card: ClassVar[dict]

    @property
    def game(self) -> str:
        return self.card["name"]

    @property
    def step_ms(self) -> int:
        return self.card["step_ms"]

    @property
    def target(self) -> float:
        return self.card["target"]

    def sample(self, rng) -> dict:
        # the game's level seed: even for training seeds, odd for test seeds (disjoint by construction)
        return {"seed": 2 * int(rng.integers(0, 2**30 - 1)) + (split_of(rng) == "test")}

    def instruction(self, params: dict) -> str:
        return self.card["instruction"]

    def instance_key(self, params: dict) -> tuple:
        return (self.instruction(params), params["seed"])

    def setup(self, sb, params: dict) -> None:
        query = {"seed": params["seed"], **self.card.get("query", {})}
        sb.browser.require_script(SCORE_SCRIPT)
        sb.browser.load(sb.server.url(f"/{self.game}/index.html", **query), clock_time=0)
        sb.browser.page.wait_for_function("window.hybridgym && window.hybridgym.ready === true", timeout=10000)

    def on_game_page(self, sb) -> bool:
        """Whether the browser still shows this game's page (another page's `hybridgym` is not the game's)."""
        page = sb.browser.page
        if page is None:
            return False
        here, game = urlsplit(page.url), urlsplit(sb.server.url(f"/{self.game}/index.html"))
        return (here.scheme, here.netloc, here.path) == (game.scheme, game.netloc, game.path)

    def read_state(self, sb, params: dict) -> dict:
        if not self.on_game_page(sb):
            return {"score": 0, "gameOver": True, "state": None, "left": sb.browser.page.url if sb.browser.page else None}
        return sb.browser.page.evaluate("({score: +hybridgym.score(), gameOver: !!hybridgym.gameOver(), "
                                        "state: hybridgym.state()})")

    def score(self, sb) -> float:
        try:
            return float(sb.browser.page.evaluate("+hybridgym.score()")) if self.on_game_page(sb) else 0.0
        except PlaywrightError:   # the page is being left: no game, no score
            return 0.0

    def ended(self, sb, state: dict | None = None) -> bool:
        try:
            return not self.on_game_page(sb) or bool(sb.browser.page.evaluate("!!hybridgym.gameOver()"))
        except PlaywrightError:
            return True

    def progress(self, sb, probed=None) -> tuple[float, bool]:
        """(score, over), read through the score channel; a page other than the game's ends the
        game with a score of 0 (whatever that page says)."""
        if not self.on_game_page(sb):
            return 0.0, True
        if not isinstance(probed, list) or len(probed) != 2:
            return super().progress(sb)
        return float(probed[0]), bool(probed[1])

    def normalized_score(self, score: float) -> float | None:
        return normalized_score(self.game, score)

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        if state.get("left"):
            why = f"the browser left the game's page (it shows {str(state['left'])[:80]})"
            return CheckResult.failed(why, conditions=[Condition("stayed on the game's page", False, why, guard=True)])
        return score_at_least(state["score"], self.target)

    def discrete_actions(self) -> list[dict]:
        """A finite action set for classic RL: do nothing, each of the game's keys, a click per grid cell."""
        actions = [NOOP] + [{"action_type": "hotkey", "keys": [k]} for k in self.card["keys"]]
        grid = self.card["grid"]
        if grid:
            for r in range(grid["rows"]):
                for c in range(grid["cols"]):
                    actions.append({"action_type": "click",
                                    "x": int(grid["x0"] + (c + 0.5) * grid["cell_w"]),
                                    "y": int(grid["y0"] + (r + 0.5) * grid["cell_h"])})
        return actions

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        """The game's scripted player, one action per step; finishes once the target is reached."""
        while True:
            state = sb.browser.page.evaluate("hybridgym.state()")
            if float(sb.browser.page.evaluate("hybridgym.score()")) >= self.target:
                yield {"action_type": "finished", "content": ""}
                return
            action = dict(self.player.policy(state))
            if action.get("action_type") == "click":   # the player speaks page pixels
                action["x"], action["y"] = sb.browser.to_screen(action["x"], action["y"])
            yield action


def normalized_score(game: str, score: float) -> float | None:
    """0 = the random agent's mean score, 100 = the scripted player's (benchmarks/bench_games.py)."""
    base = load_baselines().get(game)
    if not base or base["scripted"] == base["random"]:
        return None
    return 100.0 * (score - base["random"]) / (base["scripted"] - base["random"])


def load_baselines() -> dict:
    return json.loads(BASELINES_FILE.read_text()) if BASELINES_FILE.exists() else {}


def _make_task(mod: ModuleType) -> type[GameTask]:
    card = mod.CARD
    doc = (f"{card['title']}: {card['instruction']}\n\n    One step = {card['step_ms']} ms of game time; "
           f"success: a score of {card['target']} within {card['max_steps']} steps.")
    cls = type(f"Game_{card['name'].replace('-', '_')}", (GameTask,), {
        "__doc__": doc, "id": f"game.{card['name']}-v0", "max_steps": card["max_steps"],
        "player": mod, "card": card, "__module__": __name__,
    })
    return register_task(cls)


GAME_TASKS = {name: _make_task(mod) for name, mod in discover().items()}
