"""The peers' side of benchmarks/bench_peers.py: N envs of the `miniwob` package or of BrowserGym in
one process of the peers' virtual environment (/work/main/.venv-peers), driven over stdin/stdout.

Run it with the peers' Python (`benchmarks/peers/setup.sh` makes it):

    .venv-peers/bin/python benchmarks/peers/worker.py

It reads one JSON object per line on stdin and answers each with one JSON line on stdout
(`{"ok": true, ...}`, or `{"ok": false, "error": "..."}` when the command failed; the worker goes
on reading). Everything the libraries print goes to stderr, so stdout carries only answers.

Commands:
- `{"cmd": "make", "kind": "miniwob"|"browsergym", "task": "click-test", "n": 8}`: closes the envs it
  held and makes `n` envs of that kind for that MiniWoB task; answers the env settings.
- `{"cmd": "reset", "i": 0, "seed": 3}`: `env_i.reset(seed=3)`; answers `ms` (wall time around
  `env.reset`, measured here, so the pipe is not counted) and a summary of the observation
  (array shapes, lengths; never the observation itself).
- `{"cmd": "step", "i": 0, "x": 20, "y": 25}`: a left click at CSS pixel (x, y) of the task page
  (the `miniwob` package: its CLICK_COORDS action; BrowserGym: `mouse_click(x, y)` of its "coord"
  action set, in its screenshot's pixels, i.e. CSS pixels times its zoom of 1.5); answers `ms`,
  `reward`, `terminated`, `truncated`, `error` (the action error the env reported, if any).
- `{"cmd": "pss"}`: answers `pss_kb`, the sum of `Pss:` in /proc/<pid>/smaps_rollup over this
  process and all its descendants (the browsers and drivers of the envs it holds), and `processes`.
- `{"cmd": "close"}`: closes the envs; `{"cmd": "quit"}`: closes them and exits.

BrowserGym launches Playwright's own Chromium, which `playwright install` would download; here
Debian's /usr/bin/chromium is launched instead (`BrowserType.launch` is wrapped before BrowserGym
starts: `executable_path` and the flags in `CHROMIUM_FLAGS` are added to every launch, the task's
browser and the chat's). BrowserGym's MiniWoB pages are the `miniwob` package's html folder
(`MINIWOB_URL`, a file:// URL, set here unless given).
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback

# answers go to the real stdout; anything a library prints goes to stderr
_ANSWERS = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
sys.stdout = sys.stderr

os.environ.setdefault("MINIWOB_CHROME_BINARY", "/usr/bin/chromium")
os.environ.setdefault("MINIWOB_CHROMEDRIVER", "/usr/bin/chromedriver")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
KINDS = ("miniwob", "browsergym")


def _miniwob_url() -> str:
    import miniwob
    html = os.path.join(os.path.dirname(miniwob.__file__), "html", "miniwob")
    return "file://" + html.rstrip("/") + "/"


def _use_debian_chromium() -> None:
    """Make every Playwright launch in this process start /usr/bin/chromium with `CHROMIUM_FLAGS`."""
    from playwright.sync_api._generated import BrowserType
    if getattr(BrowserType.launch, "_peers_wrapped", False):
        return
    original = BrowserType.launch

    def launch(self, *args, **kwargs):
        kwargs.setdefault("executable_path", CHROMIUM)
        kwargs["args"] = list(kwargs.get("args") or []) + [f for f in CHROMIUM_FLAGS
                                                           if f not in (kwargs.get("args") or [])]
        return original(self, *args, **kwargs)

    launch._peers_wrapped = True
    BrowserType.launch = launch


def pss_kb(pid: int | None = None) -> tuple[int, int]:
    """Sum of `Pss:` (kB) over a process and its live descendants, and how many processes that is."""
    root = pid or os.getpid()
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    tree, todo = {root}, [root]
    while todo:
        p = todo.pop()
        for c, pp in parent.items():
            if pp == p and c not in tree:
                tree.add(c)
                todo.append(c)
    total = counted = 0
    for p in tree:
        try:
            with open(f"/proc/{p}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        counted += 1
                        break
        except OSError:
            pass
    return total, counted


def _shape(x) -> list | int | str:
    shape = getattr(x, "shape", None)
    if shape is not None:
        return list(shape)
    if isinstance(x, (str, bytes, list, tuple, dict)):
        return len(x)
    return type(x).__name__


class Peers:
    """The envs this worker holds: all of one kind, for one task."""

    def __init__(self):
        self.kind: str | None = None
        self.envs: list = []
        self.clicks: list = []

    # -- make -------------------------------------------------------------------------------
    def make(self, kind: str, task: str, n: int) -> dict:
        if kind not in KINDS:
            raise ValueError(f"make needs kind one of {KINDS}, got {kind!r}")
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"make needs n >= 1 envs, got {n!r}")
        self.close()
        self.kind = kind
        t = time.perf_counter()
        for _ in range(n):
            self.envs.append(self._make_miniwob(task) if kind == "miniwob" else self._make_browsergym(task))
        return {"make_ms": round((time.perf_counter() - t) * 1000, 1), "n": n, "kind": kind, "task": task,
                "settings": self.settings()}

    def _make_miniwob(self, task: str):
        import gymnasium as gym
        import miniwob
        gym.register_envs(miniwob)
        return gym.make(f"miniwob/{task}-v1")

    def _make_browsergym(self, task: str):
        os.environ.setdefault("MINIWOB_URL", _miniwob_url())
        _use_debian_chromium()
        import importlib
        import gymnasium as gym
        importlib.import_module("browsergym.miniwob")    # registers browsergym/miniwob.<task>
        from browsergym.core.action.highlevel import HighLevelActionSet
        self.action_set = HighLevelActionSet(subsets=["coord"])
        return gym.make(f"browsergym/miniwob.{task}", action_mapping=self.action_set.to_python_code)

    def settings(self) -> dict:
        """What the envs are, as the JSON of the benchmark records it."""
        import importlib.metadata as md
        if not self.envs:
            return {}
        base = self.envs[0].unwrapped
        if self.kind == "miniwob":
            inst = base.instance
            return {"package": f"miniwob=={md.version('miniwob')}", "selenium": md.version("selenium"),
                    "headless": inst.headless, "chrome_binary": os.environ["MINIWOB_CHROME_BINARY"],
                    "chromedriver": os.environ["MINIWOB_CHROMEDRIVER"],
                    "task_size": [inst.task_width, inst.task_height], "wait_ms": inst.wait_ms,
                    "base_url": inst.url.rsplit("/", 1)[0] + "/",
                    "action": "ActionTypes.CLICK_COORDS at CSS pixels of the task area"}
        return {"package": f"browsergym-core=={md.version('browsergym-core')}, "
                           f"browsergym-miniwob=={md.version('browsergym-miniwob')}",
                "playwright": md.version("playwright"), "headless": base.headless,
                "pre_observation_delay_s": base.pre_observation_delay, "tags_to_mark": base.tags_to_mark,
                "chromium": CHROMIUM, "chromium_flags": CHROMIUM_FLAGS, "miniwob_url": os.environ["MINIWOB_URL"],
                "action_set": "HighLevelActionSet(subsets=['coord']): mouse_click(x, y) in screenshot pixels",
                "task_defaults": "viewport 332x214, slow_mo 100 ms, timeout 5000 ms, zoom 1.5, human display "
                                 "removed (no click dots, empty #query): BrowserGym's MiniWoB task settings",
                "browsers_per_env": "2 (the task's Chromium and the chat's), relaunched at every reset",
                "observation": "the default: screenshot, dom_object, axtree_object, "
                               "extra_element_properties, chat_messages, goal, urls, ..."}

    # -- reset / step -----------------------------------------------------------------------
    def _env(self, i) -> object:
        if not isinstance(i, int) or not 0 <= i < len(self.envs):
            raise ValueError(f"env index {i!r} out of range: this worker holds {len(self.envs)} envs (make first)")
        return self.envs[i]

    def reset(self, i: int, seed: int) -> dict:
        env = self._env(i)
        t = time.perf_counter()
        obs, info = env.reset(seed=seed)
        ms = (time.perf_counter() - t) * 1000
        return {"ms": ms, "observation": self._summary(obs)}

    def step(self, i: int, x: float, y: float) -> dict:
        env = self._env(i)
        action = self._click(env, x, y)
        t = time.perf_counter()
        obs, reward, terminated, truncated, info = env.step(action)
        ms = (time.perf_counter() - t) * 1000
        error = obs.get("last_action_error") if self.kind == "browsergym" else None
        return {"ms": ms, "reward": float(reward), "terminated": bool(terminated), "truncated": bool(truncated),
                "error": error or None}

    def _click(self, env, x: float, y: float):
        if self.kind == "miniwob":
            from miniwob.action import ActionTypes
            return env.unwrapped.create_action(ActionTypes.CLICK_COORDS, coords=[float(x), float(y)])
        # BrowserGym's coordinates are its screenshot's pixels: CSS pixels times the page's zoom
        scale = getattr(env.unwrapped.page, "_bgym_scale_factor", 1.0) if env.unwrapped.page else 1.0
        return f"mouse_click({float(x) * scale:.1f}, {float(y) * scale:.1f})"

    def _summary(self, obs: dict) -> dict:
        if self.kind == "miniwob":
            return {"screenshot": _shape(obs["screenshot"]), "dom_elements": len(obs["dom_elements"]),
                    "utterance": obs["utterance"], "fields": len(obs["fields"])}
        return {"screenshot": _shape(obs["screenshot"]),
                "dom_object_json_chars": len(json.dumps(obs["dom_object"])),
                "dom_nodes": sum(len(d.get("nodes", {}).get("nodeType", [])) for d in obs["dom_object"].get("documents", [])),
                "axtree_nodes": len(obs["axtree_object"].get("nodes", [])),
                "axtree_object_json_chars": len(json.dumps(obs["axtree_object"])),
                "extra_element_properties": len(obs["extra_element_properties"]),
                "goal": obs["goal"], "keys": sorted(obs)}

    # -- close ------------------------------------------------------------------------------
    def close(self) -> None:
        envs, self.envs = self.envs, []
        for env in envs:
            try:
                env.close()
            except Exception:  # a broken env must not keep the others open
                traceback.print_exc()


def serve(lines=sys.stdin) -> None:
    """Answer commands, one JSON line each, until `quit` or the end of stdin."""
    peers = Peers()
    try:
        for line in lines:
            if not line.strip():
                continue
            try:
                req = json.loads(line)
                cmd = req.get("cmd")
                if cmd == "make":
                    out = peers.make(req.get("kind"), req["task"], req.get("n", 1))
                elif cmd == "reset":
                    out = peers.reset(req.get("i"), req.get("seed"))
                elif cmd == "step":
                    out = peers.step(req.get("i"), req["x"], req["y"])
                elif cmd == "pss":
                    kb, n = pss_kb()
                    out = {"pss_kb": kb, "processes": n, "envs": len(peers.envs)}
                elif cmd == "close":
                    peers.close()
                    out = {}
                elif cmd == "quit":
                    peers.close()
                    _ANSWERS.write(json.dumps({"ok": True}) + "\n")
                    return
                else:
                    raise ValueError(f"unknown command {cmd!r}: use make, reset, step, pss, close or quit")
                _ANSWERS.write(json.dumps({"ok": True, **out}) + "\n")
            except Exception as e:
                traceback.print_exc()
                _ANSWERS.write(json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"}) + "\n")
    finally:
        peers.close()


if __name__ == "__main__":
    serve()
