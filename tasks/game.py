"""Game suite tasks: HTML5 games in assets/games on Playwright's virtual clock, rewarded by score."""

from __future__ import annotations

from typing import ClassVar, Iterator

from hybridgym.reward import CheckResult
from hybridgym.reward.checkers import score_at_least

from .base import Task, register_task


class GameTask(Task):
    """A game page at assets/games/<game>/ exposing `window.hybridgym` (score, gameOver, state).

    Each step advances the game's virtual clock by `step_ms`; nothing runs between
    steps. Reward is the score change per step; the episode ends at game over or at
    the step budget; success is reaching `target` points.
    """

    suite = "game"
    reward_mode = "score"
    game: ClassVar[str] = ""
    step_ms: ClassVar[int] = 100
    target: ClassVar[int] = 1
    #: scripted player in tasks/game_players.py: game state -> key to press
    player: ClassVar[str] = ""

    def setup(self, sb, params: dict) -> None:
        sb.browser.load(sb.server.url(f"/{self.game}/index.html", seed=params["seed"]), clock_time=0)
        sb.browser.page.wait_for_function("window.hybridgym && window.hybridgym.ready === true", timeout=10000)

    def sample(self, rng) -> dict:
        return {"seed": int(rng.integers(0, 2**31 - 1))}

    def after_actions(self, sb, params: dict) -> None:
        sb.browser.advance_clock(self.step_ms)

    def read_state(self, sb, params: dict) -> dict:
        return sb.browser.page.evaluate("({score: hybridgym.score(), gameOver: hybridgym.gameOver(), "
                                        "state: hybridgym.state()})")

    def score(self, sb) -> float:
        return float(sb.browser.page.evaluate("hybridgym.score()"))

    def ended(self, sb, state: dict | None = None) -> bool:
        return bool(sb.browser.page.evaluate("hybridgym.gameOver()"))

    def check(self, state: dict, params: dict, answer: str | None, baseline: dict) -> CheckResult:
        return score_at_least(state["score"], self.target)

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        from . import game_players
        player = getattr(game_players, self.player)
        while True:
            state = sb.browser.page.evaluate("hybridgym.state()")
            if state["score"] >= self.target:
                yield {"action_type": "finished", "content": ""}
                return
            yield {"action_type": "hotkey", "keys": [player(state)]}


@register_task
class SnakeEat(GameTask):
    """Snake: steer with the arrow keys, eat apples (+1 each), don't hit walls or yourself.

    One step = 150 ms of game time = one move of the snake. Success: 5 apples.
    """

    id = "game.snake-v0"
    game = "snake"
    step_ms = 150
    target = 5
    max_steps = 400
    player = "snake_policy"

    def instruction(self, params: dict) -> str:
        return (f"Play Snake. Steer with the arrow keys to eat the red apples; avoid the walls and your own "
                f"tail. Reach a score of {self.target}.")
