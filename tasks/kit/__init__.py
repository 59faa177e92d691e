"""The task kit: what every task family is written with.

- `actions`: the env's own actions as dicts (click, type, keys, tap, swipe, wait, finish, ...),
  and small generators built on them (`until`, `point_and_click`). Oracles yield these.
- `data`: seeded sampling (`pick`) and the shared word lists.
- `web`: oracle helpers for web pages (a selector's screen point in any tab, fill, choose),
  and the one "page is ready" protocol of the web apps.
- `desktop`: the computer suite's home files, windows, menus and terminal.
- `phone`: booting the phone shell and the phone oracles' touches.

Nothing here imports an env: a task module imports the kit, the task contract
(`hybridgym.tasks.base`) and checkers (`hybridgym.reward`), never another family.
"""
