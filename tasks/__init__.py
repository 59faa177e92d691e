"""The task catalogue: the task model and the four suites (computer, browser, mobile, game).

Every module of this package is imported here, so a new task file registers its
tasks by being added (see docs/adding-a-task.md).
"""

import importlib
import pkgutil

from .base import SUITES, TASKS, Episode, Task, register_task, tasks_of

for _mod in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _mod != "base" and not _mod.startswith("_"):
        importlib.import_module(f"{__name__}.{_mod}")

__all__ = ["SUITES", "TASKS", "Episode", "Task", "register_task", "tasks_of"]
