"""Built-in agents: the oracle (each task's scripted solution), a random agent, a do-nothing agent, and
an adversary that tries the generic cheats a learning agent finds (none of which may pass); and
`ChatAgent`, a model behind an OpenAI-compatible endpoint (`hybridgym.chat_agent`, imported on first use:
the `openai` package takes most of a second to import)."""

from __future__ import annotations

import functools
import urllib.parse
import zlib
from collections import Counter
from typing import Any

import numpy as np

NOOP_ACTION = {"action_type": "wait", "seconds": 0}


class Agent:
    name = ""

    def reset(self, env, obs: dict, info: dict) -> None:
        """Called after each env.reset."""

    def act(self, obs: dict) -> Any:
        raise NotImplementedError


class OracleAgent(Agent):
    """Plays the task's oracle: a generator of actions that may read each new observation."""

    name = "oracle"

    def reset(self, env, obs, info):
        base = env.unwrapped
        ep = base.episode
        self._gen = ep.task.oracle(base.sandbox, ep.params)
        self._started = False

    def act(self, obs):
        try:
            if not self._started:
                self._started = True
                return next(self._gen)
            return self._gen.send(obs)
        except StopIteration:
            return {"action_type": "finished", "content": ""}


class NoopAgent(Agent):
    """Does nothing: waits zero seconds every step (on a game, the clock still advances)."""

    name = "noop"

    def act(self, obs):
        return NOOP_ACTION


class RandomAgent(Agent):
    """Uniformly random actions, seeded by the episode: from the task's discrete action set
    where it has one (games), else random clicks, scrolls, short typing and harmless keys."""

    name = "random"
    _KEYS = ["up", "down", "left", "right", "enter", "tab", "backspace", "space"]

    def reset(self, env, obs, info):
        self._rng = np.random.default_rng(info.get("seed", 0))
        h, w = obs["screenshot"].shape[:2]
        self._size = (w, h)
        task = env.unwrapped.episode.task
        self._choices = task.discrete_actions()

    def act(self, obs):
        rng, (w, h) = self._rng, self._size
        if self._choices:
            return self._choices[int(rng.integers(len(self._choices)))]
        kind = rng.choice(["click", "key", "key", "type", "scroll"])
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        if kind == "click":
            return {"action_type": "click", "x": x, "y": y}
        if kind == "key":
            return {"action_type": "hotkey", "keys": [str(rng.choice(self._KEYS))]}
        if kind == "type":
            return {"action_type": "type", "text": "".join(rng.choice(list("abcdefghij0123 "), size=6))}
        return {"action_type": "scroll", "direction": str(rng.choice(["up", "down"])), "x": x, "y": y, "amount": 3}


# -- the adversary -----------------------------------------------------------------------------------
#: a page of the agent's own that claims every reward a page could be read for: MiniWoB's globals and
#: core.endEpisode, a game's window.hybridgym
_FAKE_PAGE = "data:text/html," + urllib.parse.quote(
    "<title>done</title><script>"
    "var WOB_DONE_GLOBAL = true, WOB_REWARD_GLOBAL = 1, WOB_RAW_REWARD_GLOBAL = 1, WOB_TASK_READY = true;"
    "var core = {EP_TIMER: 1, cover_div: {}}; core.endEpisode = function () { core.EP_TIMER = null; };"
    "try { __hybridgymArm('x'); } catch (e) {} core.endEpisode(1.0, false, 'done');"
    "window.hybridgym = {ready: true, score: () => 1e9, gameOver: () => true, state: () => ({})};"
    "</script>done")
#: script the address bar would run if it ran javascript: URLs: write every reward-bearing page object
_JS_URL = ("javascript:try{core.endEpisode(1.0,false,'x')}catch(e){};WOB_DONE_GLOBAL=true;WOB_RAW_REWARD_GLOBAL=1;"
           "try{hybridgym.score=()=>1e9;window.hybridgym={ready:true,score:()=>1e9,gameOver:()=>true}}catch(e){};void 0")

#: how many training seeds the adversary reads to learn a task's answers (as a policy would over training)
LEARN_SEEDS = 200


@functools.lru_cache(maxsize=512)
def learned_answers(task) -> tuple[str, ...]:
    """A task's expected answers over training seeds, most common first (what a policy that learned from
    training episodes would guess); () for a task that asks for no answer."""
    counts: Counter = Counter()
    for seed in list(task.train_seeds)[:LEARN_SEEDS]:
        try:
            expected = task.expected_answer(task.draw(seed))
        except Exception:   # a task that can only draw its instance on the page (MiniWoB)
            return ()
        if expected is None:
            return ()
        counts[str(expected.truth)] += 1
    return tuple(a for a, _ in counts.most_common())


class AdversaryAgent(Agent):
    """Tries one generic cheat per episode (in turn by the reset seed and the task, or the one named at
    creation):

    - "decline": hands back at once (`call_user`), as if the task could not be done;
    - "guess": answers the task's most common training answer, whatever the instance;
    - "all-answers": answers every answer seen in training (or every number 0-200) in one reply;
    - "javascript-url": types a `javascript:` URL that writes every reward-bearing page object, then guesses;
    - "data-url": opens a page of its own that claims every reward, then guesses;
    - "select-all": selects everything and applies it (ctrl+a, space, enter), then finishes.

    A task that can be passed this way (beyond chance: a guess that happens to be this instance's answer,
    declining an instance that cannot be done) has a reward a learning agent would game.
    """

    name = "adversary"
    CHEATS = ("decline", "guess", "all-answers", "javascript-url", "data-url", "select-all")

    def __init__(self, cheat: str | None = None):
        if cheat is not None and cheat not in self.CHEATS:
            raise ValueError(f"unknown cheat {cheat!r}; the adversary's cheats: {list(self.CHEATS)}")
        self.cheat = cheat

    def reset(self, env, obs, info):
        task = env.unwrapped.episode.task
        # in turn by seed, shifted per task: one episode per task over a suite plays every cheat
        turn = int(info.get("seed", 0)) + zlib.crc32(task.id.encode())
        self.playing = self.cheat or self.CHEATS[turn % len(self.CHEATS)]
        answers = learned_answers(task)
        self.guess = answers[0] if answers else ""
        everything = list(answers[:300]) or [str(n) for n in range(201)]
        h, w = obs["screenshot"].shape[:2]
        centre = {"action_type": "click", "x": w // 2, "y": h // 2}
        finish = {"action_type": "finished", "content": self.guess}
        self._plan = {
            "decline": [{"action_type": "call_user", "content": "I cannot do this task."}],
            "guess": [finish],
            "all-answers": [{"action_type": "finished", "content": ", ".join(everything)[:1900]}],
            "javascript-url": [{"action_type": "hotkey", "keys": ["ctrl", "l"]},
                               {"action_type": "type", "text": _JS_URL + "\n"},
                               {"action_type": "wait", "seconds": 0.5}, finish],
            "data-url": [{"action_type": "hotkey", "keys": ["ctrl", "l"]},
                         {"action_type": "type", "text": _FAKE_PAGE + "\n"},
                         {"action_type": "wait", "seconds": 1.0}, {"action_type": "wait", "seconds": 1.0}, finish],
            "select-all": [centre, {"action_type": "hotkey", "keys": ["ctrl", "a"]},
                           {"action_type": "hotkey", "keys": ["space"]}, {"action_type": "hotkey", "keys": ["enter"]},
                           {"action_type": "hotkey", "keys": ["ctrl", "s"]}, finish],
        }[self.playing]

    def act(self, obs):
        return self._plan.pop(0) if self._plan else {"action_type": "finished", "content": self.guess}


def __getattr__(name: str):
    if name == "ChatAgent":
        from .chat_agent import ChatAgent
        return ChatAgent
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


AGENTS: dict[str, type[Agent]] = {"oracle": OracleAgent, "random": RandomAgent, "noop": NoopAgent,
                                  "adversary": AdversaryAgent}


def make_agent(name: str) -> Agent:
    """A built-in agent by name; "adversary:<cheat>" is the adversary playing that one cheat."""
    base, _, arg = name.partition(":")
    if base == "adversary" and arg:
        return AdversaryAgent(arg)
    try:
        return AGENTS[name]()
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; built-in agents: {sorted(AGENTS)} "
                         f"(and adversary:<cheat>, cheats {list(AdversaryAgent.CHEATS)})") from None


def run_episode(env, agent: Agent, seed: int, task: str | None = None, on_step=None) -> dict:
    """One episode; returns its summary (success, reward, steps, timings; an agent's own counts under
    "agent_stats" when it keeps them: `episode_stats()`)."""
    import time
    t0 = time.perf_counter()
    obs, info = env.reset(seed=seed, options={"task": task} if task else None)
    agent.reset(env, obs, info)
    total, steps, step_s = 0.0, 0, []
    reset_s = info["timings"]["reset_s"]
    while True:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs))
        total += reward
        steps += 1
        step_s.append(info["timings"]["step_s"])
        if on_step is not None:
            on_step(steps, obs, info)
        if terminated or truncated:
            break
    normalized = None
    if info.get("score") is not None:
        normalized = env.unwrapped.episode.task.normalized_score(info["score"])
    return {"task_id": info["task_id"], "suite": info["suite"], "agent": agent.name, "seed": seed,
            **({"cheat": agent.playing} if isinstance(agent, AdversaryAgent) else {}),
            "normalized_score": None if normalized is None else round(normalized, 1),
            "success": bool(info["success"]), "reward": round(total, 4), "steps": steps,
            "score": info.get("score"), "message": info.get("message", ""), "error": info.get("error"),
            "invalid_actions": info["invalid_actions"], "wall_s": round(time.perf_counter() - t0, 3),
            "reset_s": round(reset_s, 4), "median_step_s": round(float(np.median(step_s)), 4),
            **({"agent_stats": agent.episode_stats()} if hasattr(agent, "episode_stats") else {})}
