"""The task catalogue: the task model and the four suites (computer, browser, mobile, game)."""

from .base import SUITES, TASKS, Episode, Task, register_task, tasks_of
from . import browser, computer, game, mobile  # noqa: F401  (register the suites' tasks)

__all__ = ["SUITES", "TASKS", "Episode", "Task", "register_task", "tasks_of"]
