"""MiniWoB's and the games' rewards come from a channel the page's own scripts cannot change.

The attacks are made as an agent would make them, through `env.step` (the address bar,
keys), and, for what only a script in the page could do, by the test writing to the page's
objects itself (what any script the agent got into the page would write): MiniWoB's reward
globals, `core` and `core.endEpisode`, a game's `window.hybridgym` and its functions, and a page
of the agent's own (`data:`) that defines all of them. None of it moves the reward; the
honest way still does. Script the agent would get into a MiniWoB page through markup the page writes from
its typing runs no code at all (the pages' Content-Security-Policy).
"""

from __future__ import annotations

import urllib.parse

import pytest

from hybridgym.game import GameEnv
from hybridgym.miniwob import MiniWoBEnv

pytestmark = pytest.mark.xdist_group("reward-channels")

#: a page of the agent's own that claims every reward the old probes read
FAKE_PAGE = "data:text/html," + urllib.parse.quote(
    "<title>fake</title><script>"
    "var WOB_DONE_GLOBAL = true, WOB_REWARD_GLOBAL = 1, WOB_RAW_REWARD_GLOBAL = 1, WOB_TASK_READY = true;"
    "var core = {EP_TIMER: 1, cover_div: {}}; core.endEpisode = function () { core.EP_TIMER = null; };"
    "try { __hybridgymArm('guess'); } catch (e) {}"
    "core.endEpisode(1.0, false, 'fake');"
    "window.hybridgym = {ready: true, score: () => 1e9, gameOver: () => true, state: () => ({})};"
    "</script>fake")


@pytest.fixture(scope="module")
def miniwob():
    e = MiniWoBEnv()
    yield e
    e.close()


def address_bar(env, url: str) -> None:
    env.step({"action_type": "hotkey", "keys": ["ctrl", "l"]})
    return env.step({"action_type": "type", "text": url + "\n"})


def click(env, selector: str):
    x, y = env.sandbox.browser.screen_point(selector)
    return env.step({"action_type": "click", "x": x, "y": y})


def test_a_javascript_url_ends_no_miniwob_episode(miniwob):
    miniwob.reset(seed=0, options={"task": "click-test"})
    address_bar(miniwob, "javascript:core.endEpisode(1.0,false,'x')")
    obs, reward, term, trunc, info = miniwob.step({"action_type": "wait", "seconds": 0.5})
    assert reward == 0.0 and not info["success"]
    assert miniwob.sandbox.browser.page.evaluate("__hybridgymOutcome()") is None
    # the honest way still works, once the address bar's list is closed (else the click only closes it: under
    # load the list may still be open)
    miniwob.step({"action_type": "hotkey", "keys": ["escape"]})
    obs, reward, term, trunc, info = click(miniwob, "#subbtn")
    assert term and reward == 1.0 and info["success"]


def test_writes_to_the_page_objects_do_not_reach_the_reward(miniwob):
    miniwob.reset(seed=1, options={"task": "click-button"})
    page = miniwob.sandbox.browser.page
    page.evaluate("""() => {
      WOB_DONE_GLOBAL = true; WOB_REWARD_GLOBAL = 1; WOB_RAW_REWARD_GLOBAL = 1; WOB_REWARD_REASON = 'x';
      core.endEpisode = function () {};
      window.core = {endEpisode: function () {}};
      try { window.__hybridgymOutcome = () => ({nonce: 'x', raw: 1}); } catch (e) {}
      try { Object.defineProperty(window, '__hybridgymOutcome', {value: () => ({raw: 1})}); } catch (e) {}
      try { Object.defineProperty(window, 'core', {value: {}}); } catch (e) {}
      window.Number = () => 1; window.String = () => 'x';
    }""")
    obs, reward, term, trunc, info = miniwob.step({"action_type": "wait", "seconds": 0})
    assert not term and reward == 0.0 and not info["success"]
    assert page.evaluate("__hybridgymOutcome()") is None
    # a wrong button: the page's own code ends the episode with its own -1, written globals or not
    target = page.evaluate("() => core.getUtterance()")
    wrong = page.evaluate("t => [...document.querySelectorAll('#area button')].findIndex(b => !t.includes(b.textContent))",
                          target)
    obs, reward, term, trunc, info = click(miniwob, f"#area button >> nth={wrong}")
    assert term and reward < 0 and not info["success"], info["message"]


def test_a_page_of_the_agents_own_ends_the_miniwob_episode_unrewarded(miniwob):
    miniwob.reset(seed=2, options={"task": "click-test"})
    address_bar(miniwob, FAKE_PAGE)
    term = trunc = False
    for _ in range(12):   # a loaded machine may take a while to navigate
        if term or trunc:
            break
        obs, reward, term, trunc, info = miniwob.step({"action_type": "wait", "seconds": 0.5})
    assert term and reward == 0.0 and not info["success"], info
    assert "left the task's page" in info["message"]
    # the next episode is the task's own page again
    miniwob.reset(seed=3, options={"task": "click-test"})
    obs, reward, term, trunc, info = click(miniwob, "#subbtn")
    assert term and reward == 1.0


@pytest.fixture(scope="module")
def game():
    e = GameEnv(task="game.2048-v0")
    yield e
    e.close()


def test_writes_to_the_game_object_do_not_reach_the_score(game):
    game.reset(seed=0)
    page = game.sandbox.browser.page
    page.evaluate("""() => {
      try { hybridgym.score = () => 1e9; } catch (e) {}
      try { hybridgym.gameOver = () => true; } catch (e) {}
      try { window.hybridgym = {ready: true, score: () => 1e9, gameOver: () => true, state: () => ({})}; } catch (e) {}
      try { Object.defineProperty(window, 'hybridgym', {value: {score: () => 1e9}}); } catch (e) {}
      window.Number = () => 1e9; window.Boolean = () => true;
    }""")
    assert page.evaluate("hybridgym.score()") == 0
    obs, reward, term, trunc, info = game.step({"action_type": "hotkey", "keys": ["left"]})
    obs, reward2, term, trunc, info = game.step({"action_type": "hotkey", "keys": ["up"]})
    assert reward < 1000 and reward2 < 1000 and info["score"] < 1000 and not term


def test_a_page_of_the_agents_own_ends_the_game_at_score_zero(game):
    game.reset(seed=1)
    for key in ("left", "up", "right", "down") * 3:
        obs, reward, term, trunc, info = game.step({"action_type": "hotkey", "keys": [key]})
    honest = info["score"]
    game.sandbox.browser.page.goto(FAKE_PAGE)   # wherever the agent got to, its page claims a high score
    obs, reward, term, trunc, info = game.step({"action_type": "wait", "seconds": 0})
    assert term and not info["success"] and info["score"] == 0 and reward == -honest
    assert "left the game's page" in info["message"]


def test_markup_the_agent_types_runs_no_code_and_claims_no_reward(miniwob):
    """MiniWoB's terminal writes the typed command into the page as HTML (`innerHTML = command`). A command that is
    markup with an event handler calling `core.endEpisode(1)` gave reward 1 before the pages had a
    Content-Security-Policy; now the page gets the markup, the browser refuses its handler, and no reward comes.
    The honest command still ends the episode with reward 1."""
    obs, _ = miniwob.reset(seed=1, options={"task": "terminal"})
    br = miniwob.sandbox.browser
    x, y = br.to_screen(80, 150)
    miniwob.step({"action_type": "click", "x": x, "y": y})
    payload = '<img src=x id=agent onerror="core.endEpisode(1, true)">'
    miniwob.step({"action_type": "type", "text": payload})
    obs, reward, term, trunc, info = miniwob.step({"action_type": "hotkey", "keys": ["enter"]})
    assert br.page.evaluate("document.getElementById('agent') !== null"), "the page did not write the markup"
    assert reward == 0 and not term and not info["success"], info
    assert br.page.evaluate("__hybridgymOutcome()") is None
    ext = obs["instruction"].split()[-1]
    target = next(f for f in br.page.evaluate("currentFiles") if f.endswith(ext))
    miniwob.step({"action_type": "type", "text": f"rm {target}"})
    obs, reward, term, trunc, info = miniwob.step({"action_type": "hotkey", "keys": ["enter"]})
    assert term and reward == 1.0 and info["success"], info
