"""The task kit: what every task family is written with.

- `actions`: the env's own actions as dicts (click, type, keys, tap, swipe, wait, finish, ...),
  and small generators built on them (`until`, `point_and_click`). Oracles yield these.
- `data`: seeded sampling (`pick`) and the shared word lists.
- `web`: oracle helpers for web pages (a selector's screen point in any tab, fill, choose,
  navigation waits), the one "page is ready" protocol of the web apps (`body[data-ready]`,
  kept by assets/web/common/webapp.js), and `WebAppTask`, the base of the tasks on one web
  app (it installs the app's backend with `server.install` and opens its start page), with
  each app's own base (`ShopTask`, `MailTask`, `CalendarTask`, `AdminTask`).
- `desktop`: the computer suite's home (files, real PNGs, distractors), the task bases
  `HomeTask` and `SheetTask`, windows, saving, and the Mousepad and Gnumeric moves.
- `phone`: booting the phone shell (`boot_phone`), the task base `PhoneTask` (and
  `ToolAppTask`), the expected record changes, and the phone oracles' touches;
  `phone_world`: the seeded records of a lived-in phone.

Nothing here imports an env: a task module imports the kit, the task contract
(`hybridgym.tasks.base`) and checkers (`hybridgym.reward`), never another family.
"""
