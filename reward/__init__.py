"""Verifiable checkers: pure functions of state that say whether a task was done.

A checker takes the state a task read (files, app records, a game's score, the
agent's answer) and the expected values, and returns a `CheckResult` with the
`Condition`s it tested, each held or not (`CheckResult.partial` grades partial
credit from them). Checkers never touch a display or a browser, so they are unit-tested on plain data.
They are registered by name in `CHECKERS` (typed, no lookup by `getattr`).
"""

from .answers import Answer, match_answer
from .checkers import CHECKERS, CheckResult, Condition, checker, get_checker

__all__ = ["CHECKERS", "Answer", "CheckResult", "Condition", "checker", "get_checker", "match_answer"]
