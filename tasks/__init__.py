"""The task catalogue: the task contract (`base`), the kit families are written with (`kit`),
the web app backends (`webapps`), and one module per task family.

Importing this package imports every family module (any module here that is not `base`,
`kit`, `webapps`, `players` or private), so a new family file registers its tasks by being
added (see docs/adding-a-task.md). The engine (`hybridgym.core` and the suite envs) imports
only `hybridgym.tasks.base`.
"""

import importlib
import pkgutil

from .base import NOT_ENDED, SUITES, TASKS, Episode, Outcome, Task, register_task, tasks_of

_NOT_FAMILIES = {"base", "kit", "webapps", "players"}

for _mod in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _mod not in _NOT_FAMILIES and not _mod.startswith("_"):
        importlib.import_module(f"{__name__}.{_mod}")

__all__ = ["NOT_ENDED", "SUITES", "TASKS", "Episode", "Outcome", "Task", "register_task", "tasks_of"]
