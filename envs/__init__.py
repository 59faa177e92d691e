"""hybridgym: Gymnasium environments for GUI agents, with an SDK channel beside the GUI.

`import hybridgym` registers one gym id per task (`hybridgym/<suite>.<task>-v0`) and one per
suite that samples a task at each reset (`hybridgym/Browser-v0`, ...; see `hybridgym.registration`).
Env classes are imported when an env is made, not here.
"""

from hybridgym.tasks.base import SUITES

from .actions import ActionError, Codec, format_actions, parse_action
from .registration import register_all
from .suites import SUITE_SPECS

__all__ = ["ActionError", "Codec", "format_actions", "parse_action", "SUITE_ENTRY_POINTS", "SUITE_IDS", "SUITE_SPECS"]
__version__ = "0.1.0"

#: suite -> its env class ("module:Class") and its gym id
SUITE_ENTRY_POINTS = {s: SUITE_SPECS[s].entry_point for s in SUITES}
SUITE_IDS = {s: SUITE_SPECS[s].gym_id for s in SUITES}

register_all()
