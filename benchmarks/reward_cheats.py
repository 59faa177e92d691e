"""Issue 15's reward cheats on MiniWoB and a game, against the checkout Python imports `hybridgym` from:
a page of the agent's own (a `data:` URL typed into the address bar through `env.step`) that claims
MiniWoB's reward, and writes to the page objects the rewards were read from (made by this script, as
any script the agent got into the page would). Prints {attack: passed the task}.

    .venv/bin/python benchmarks/reward_cheats.py > benchmarks/results/reward_cheats_after.json
    # the checkout before issue 15 (a worktree, imported first through a `hybridgym` symlink):
    git worktree add /tmp/old ce8b23d && mkdir /tmp/oldpath && ln -s /tmp/old /tmp/oldpath/hybridgym
    PYTHONPATH=/tmp/oldpath .venv/bin/python benchmarks/reward_cheats.py > benchmarks/results/reward_cheats_before.json
"""
import json
import urllib.parse

from hybridgym.miniwob import MiniWoBEnv
FAKE = "data:text/html," + urllib.parse.quote(
    "<title>done</title><script>var WOB_DONE_GLOBAL = true, WOB_REWARD_GLOBAL = 1, WOB_RAW_REWARD_GLOBAL = 1, WOB_TASK_READY = true, WOB_REWARD_REASON = 'done';"
    "var core = {EP_TIMER: 1, cover_div: {}}; core.endEpisode = function () { core.EP_TIMER = null; };"
    "try { __hybridgymArm('x'); } catch (e) {} core.endEpisode(1.0, false, 'done');</script>done")
out = {}
env = MiniWoBEnv()
for task in ("click-test", "click-button", "enter-text", "login-user", "click-checkboxes"):
    env.reset(seed=1000, options={"task": task})
    env.step({"action_type": "hotkey", "keys": ["ctrl", "l"]})
    r = env.step({"action_type": "type", "text": FAKE + "\n"})
    for _ in range(10):
        if r[2] or r[3]:
            break
        r = env.step({"action_type": "wait", "seconds": 0.5})
    out[f"data-url {task}"] = r[4]["success"]
    env.reset(seed=1001, options={"task": task})
    env.sandbox.browser.page.evaluate("() => { WOB_DONE_GLOBAL = true; WOB_RAW_REWARD_GLOBAL = 1; WOB_REWARD_GLOBAL = 1; }")
    r = env.step({"action_type": "wait", "seconds": 0})
    if not (r[2] or r[3]):
        r = env.step({"action_type": "finished", "content": ""})
    out[f"global-writes {task}"] = r[4]["success"]
env.close()
from hybridgym.game import GameEnv
g = GameEnv(task="game.2048-v0")
g.reset(seed=1000)
g.sandbox.browser.page.evaluate("() => { try { hybridgym.score = () => 1e9; } catch (e) {} }")
r = g.step({"action_type": "hotkey", "keys": ["left"]})
r = g.step({"action_type": "finished", "content": ""})
out["game score write 2048"] = r[4]["success"]
g.close()
print(json.dumps(out, indent=1))
