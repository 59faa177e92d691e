"""MiniWoB++ through our env: every task page of the installed package loads, the page's own reward
reaches the agent, doing nothing earns nothing, and no wall-clock time-out ends an episode."""

from __future__ import annotations

import time

import gymnasium as gym
import numpy as np
import pytest

import hybridgym  # noqa: F401  (registers the ids)
from hybridgym.agents import NoopAgent, OracleAgent, run_episode
from hybridgym.miniwob import MiniWoBEnv
from hybridgym.tasks import tasks_of
from hybridgym.tasks.miniwob import ORACLES, UNRUNNABLE, discover

MINIWOB_TASKS = {t.id: t for t in tasks_of("miniwob")}

TASK_IDS = sorted(MINIWOB_TASKS)


@pytest.fixture(scope="module")
def env():
    e = MiniWoBEnv()
    yield e
    e.close()


def test_every_page_of_the_package_is_a_task_or_explained():
    pages = set(discover())
    assert pages == {t.name for t in MINIWOB_TASKS.values()} | set(UNRUNNABLE)
    assert len(MINIWOB_TASKS) >= 125
    # every task the package itself registers as a gym env is one of ours
    import miniwob  # noqa: F401  (registers miniwob/<name>-v1)
    theirs = {i.split("/", 1)[1].rsplit("-v", 1)[0] for i in gym.registry if i.startswith("miniwob/")}
    assert len(theirs) >= 125
    assert theirs <= pages - set(UNRUNNABLE)
    for task_id, task in MINIWOB_TASKS.items():
        spec = gym.spec(f"hybridgym/{task_id}")
        assert spec.max_episode_steps is None and spec.kwargs == {"task": task_id}


#: records the Content-Security-Policy violations of every document (`page_policy`: the package's own code must run)
CSP_WATCH = """(() => { const seen = []; Object.defineProperty(window, '__cspViolations', { value: seen });
  document.addEventListener('securitypolicyviolation',
    e => seen.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`)); })();"""


@pytest.mark.parametrize("task_id", TASK_IDS)
def test_every_task_loads_and_steps(task_id, env):
    """Each task loads, resets and steps, and none of the package's own code is refused by the page's policy
    (three clicks in the task area too: widgets that build their markup when used)."""
    if env.sandbox is None:
        env.reset(seed=0, options={"task": task_id})
    env.sandbox.browser.require_script(CSP_WATCH)   # (a new script: the next reset loads the page again)
    obs, info = env.reset(seed=0, options={"task": task_id})
    assert obs["screenshot"].shape == (800, 1280, 3) and obs["screenshot"].dtype == np.uint8
    assert obs["instruction"].strip(), f"{task_id} gave no instruction"
    assert obs["screenshot"][100:290, :160].std() > 5, f"{task_id}: the task area is blank"
    obs, reward, terminated, truncated, info = env.step({"action_type": "wait", "seconds": 0})
    assert info.get("error") is None and info["action_error"] is None
    assert reward == 0.0 and not terminated and not truncated
    br = env.sandbox.browser
    for cx, cy in ((40, 80), (100, 130), (60, 180)):
        x, y = br.to_screen(cx, cy)
        if env.step({"action_type": "click", "x": x, "y": y})[2]:
            break
    refused = [v for f in br.page.frames for v in f.evaluate("window.__cspViolations || []")]
    assert not refused, f"{task_id}: the page's policy refused its own code: {refused[:3]}"


@pytest.mark.parametrize("name", sorted(ORACLES))
def test_scripted_solver_gets_the_page_reward(name, env):
    for seed in (0, 1):
        r = run_episode(env, OracleAgent(), seed, task=name)
        assert r["success"] and r["reward"] > 0, f"{name} seed {seed}: {r['message']} {r['error']}"
        assert r["invalid_actions"] == 0 and r["error"] is None


@pytest.mark.parametrize("name", ["click-test", "enter-text", "click-checkboxes"])
def test_noop_agent_gets_no_reward(name, env):
    r = run_episode(env, NoopAgent(), 0, task=name)
    assert not r["success"] and r["reward"] <= 0
    assert r["steps"] == MINIWOB_TASKS[f"miniwob.{name}-v0"].max_steps


def test_wrong_answer_gets_the_page_negative_reward(env):
    obs, info = env.reset(seed=1, options={"task": "click-button"})   # buttons "Cancel" and "submit"
    page = env.sandbox.browser.page
    target = obs["instruction"].split('"')[1]
    wrong = page.evaluate("t => [...document.querySelectorAll('#area button')].findIndex(b => b.textContent !== t)",
                          target)
    assert wrong >= 0
    x, y = env.sandbox.browser.screen_point(f"#area button >> nth={wrong}")
    obs, reward, terminated, truncated, info = env.step({"action_type": "click", "x": x, "y": y})
    assert terminated and reward == -1.0 and not info["success"]


def test_episode_is_not_ended_by_waiting_past_the_miniwob_time_out(env):
    obs, info = env.reset(seed=0, options={"task": "click-test"})
    page = env.sandbox.browser.page
    assert page.evaluate("core.EPISODE_MAX_TIME") <= 10_000
    t0 = time.monotonic()
    while time.monotonic() - t0 < page.evaluate("core.EPISODE_MAX_TIME") / 1000 + 1.0:
        obs, reward, terminated, truncated, info = env.step({"action_type": "wait", "seconds": 5.5})
        assert not terminated and not truncated and reward == 0.0
    assert page.evaluate("__hybridgymOutcome()") is None and page.evaluate("WOB_DONE_GLOBAL") is False
    x, y = env.sandbox.browser.screen_point("#subbtn")
    obs, reward, terminated, truncated, info = env.step({"action_type": "click", "x": x, "y": y})
    assert terminated and reward == 1.0 and info["success"]   # the raw reward: no time penalty


def test_reset_seed_decides_the_instance(env):
    def instruction(seed):
        return env.reset(seed=seed, options={"task": "enter-text"})[0]["instruction"]
    assert instruction(7) == instruction(7)
    assert len({instruction(s) for s in range(5)}) > 1


def test_test_seeds_use_miniwob_test_data_mode(env):
    env.reset(seed=1, options={"task": "click-test-transfer"})
    assert env.sandbox.browser.page.evaluate("WOB_DATA_MODE") == "train"
    env.reset(seed=1000, options={"task": "click-test-transfer"})
    assert env.sandbox.browser.page.evaluate("WOB_DATA_MODE") == "test"


def test_fresh_page_reloads_the_page_at_every_reset():
    e = MiniWoBEnv("click-test", fresh_page=True)
    try:
        e.reset(seed=0)
        e.sandbox.browser.page.evaluate("window.__marker = 1")
        obs, _ = e.reset(seed=0)
        assert e.sandbox.browser.page.evaluate("window.__marker === undefined")
        assert obs["instruction"] == "Click the button."
    finally:
        e.close()


def test_utf8_pages_are_decoded_as_utf8(env):
    obs, _ = env.reset(seed=0, options={"task": "unicode-test"})
    assert "Ã" not in obs["instruction"]
    assert any(ord(c) > 127 for c in obs["instruction"])


def test_unrunnable_task_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="no reward"):
        MiniWoBEnv("hover-shape")


def test_reset_gives_keyboard_focus_back_to_the_page(env):
    env.reset(seed=0, options={"task": "enter-text"})
    env.step({"action_type": "hotkey", "keys": ["ctrl", "l"]})      # focus the address bar
    env.reset(seed=0, options={"task": "enter-text"})
    page = env.sandbox.browser.page
    page.evaluate("window.__keys = 0; addEventListener('keydown', () => window.__keys++)")
    env.step({"action_type": "type", "text": "ab"})
    assert page.evaluate("window.__keys") == 2


def test_reset_reloads_a_page_the_agent_navigated_away_from(env):
    env.reset(seed=0, options={"task": "click-test"})
    env.sandbox.browser.page.evaluate("history.pushState({}, '', '#elsewhere'); window.core = undefined")
    obs, _ = env.reset(seed=0, options={"task": "click-test"})
    assert obs["instruction"] == "Click the button."


def test_env_without_a_task_draws_one_from_the_reset_seed(env):
    first = env.reset(seed=3)[1]["task_id"]
    assert env.reset(seed=3)[1]["task_id"] == first
    assert len({env.reset(seed=s)[1]["task_id"] for s in range(4)}) > 1


def _without_miniwob_stats(env, frame):
    """The screen less MiniWoB's own score panel (#reward-display: the last reward and the number of
    episodes, which the page itself carries from one episode to the next)."""
    br = env.sandbox.browser
    box = br.page.evaluate("(() => { const r = document.getElementById('reward-display').getBoundingClientRect();"
                           " return [r.left, r.top, r.right, r.bottom]; })()")
    (x0, y0), (x1, y1) = br.to_screen(box[0], box[1]), br.to_screen(box[2], box[3])
    out = frame.copy()
    out[int(y0):int(y1) + 1, int(x0):int(x1) + 1] = 0
    return out


@pytest.mark.parametrize("opened_by", ["context menu", "browser menu", "select list", "omnibox list"])
def test_a_menu_the_agent_opened_is_gone_at_the_next_reset(opened_by, env):
    """The reset's Escapes (waited for in the same round trip as the episode's start) close what the
    agent opened over the page and undo an address it began to type: the next episode's first screen
    is the clean one of its seed (MiniWoB's own score panel aside)."""
    env.reset(seed=7, options={"task": "click-button"})   # the page loaded: its tab's title and icon are final
    clean = _without_miniwob_stats(env, env.reset(seed=7, options={"task": "click-button"})[0]["screenshot"])
    if opened_by == "context menu":
        action = {"action_type": "right_single", "x": 640, "y": 500}
    elif opened_by == "browser menu":
        action = {"action_type": "hotkey", "keys": ["alt", "f"]}
    elif opened_by == "select list":
        env.reset(seed=7, options={"task": "click-button"})
        br = env.sandbox.browser
        br.page.evaluate("document.getElementById('area').insertAdjacentHTML('beforeend', '<select id=s style=\"position:fixed;"
                         "left:300px;top:300px\">' + '<option>an option</option>'.repeat(9) + '</select>')")
        x, y = br.to_screen(320, 310)
        action = {"action_type": "click", "x": round(x), "y": round(y)}
    else:
        env.step({"action_type": "hotkey", "keys": ["ctrl", "l"]})
        action = {"action_type": "type", "text": "w"}
    env.step(action)
    env.step({"action_type": "wait", "seconds": 0.3})
    opened = _without_miniwob_stats(env, env.sandbox.capture.grab())
    assert not np.array_equal(opened, clean), "nothing opened: the test tests nothing"
    obs = env.reset(seed=7, options={"task": "click-button"})[0]
    assert np.array_equal(_without_miniwob_stats(env, obs["screenshot"]), clean), f"the {opened_by} survived the reset"
