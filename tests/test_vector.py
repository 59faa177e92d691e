"""Many envs at once: the Ray vector env (lock-step, as-they-finish, faults, transport) and gymnasium's own vector envs."""

from __future__ import annotations

import os
import signal
import time

import gymnasium as gym
import numpy as np
import pytest

import hybridgym  # noqa: F401
from hybridgym.sandbox.processes import children, cmdline, uid_processes
from hybridgym.vector import RayVectorEnv, decode_image, encode_image, owned_pids

ray = pytest.importorskip("ray")
# one xdist worker runs the Ray tests (several Ray instances on 2 cores would crowd each other)
pytestmark = pytest.mark.xdist_group(name="ray")
from gymnasium.vector.vector_env import AutoresetMode  # noqa: E402

GAME = "hybridgym/game.snake-v0"
NOOP = {"action_type": "wait", "seconds": 0}


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray for the module, offering the sandbox resource (the vector envs join it)."""
    if ray.is_initialized():
        ray.shutdown()
    ray.init(address="local", resources={"sandbox": 16}, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def venv(local_ray):
    v = gym.make_vec(GAME, num_envs=2, vectorization_mode="vector_entry_point", max_steps=4,
                     call_timeout_s=60)
    yield v
    v.close()


def _pids_alive(pids):
    """The pids that are running (not gone, not zombies waiting for their parent)."""
    alive = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if stat[stat.rindex(")") + 2] != "Z":
            alive.append(pid)
    return alive


def test_make_vec_gives_a_ray_vector_env_with_batched_spaces(venv):
    assert isinstance(venv, RayVectorEnv)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = venv.reset(seed=5)
    assert obs["screenshot"].shape == (2, 600, 800, 3) and obs["screenshot"].dtype == np.uint8
    assert venv.observation_space.contains(obs)
    assert list(info["seed"]) == [5, 6] and all(info["_seed"])
    obs, rewards, term, trunc, info = venv.step([NOOP, NOOP])
    assert rewards.shape == (2,) and term.dtype == bool and list(info["step"]) == [1, 1]


def test_each_sub_env_is_a_separate_actor_on_a_sandbox_node(venv):
    where = venv.where()
    assert len({w["pid"] for w in where}) == 2
    assert all(w["pid"] != os.getpid() for w in where)


def test_next_step_autoreset_resets_on_the_step_after_the_end(venv):
    venv.reset(seed=1)
    for _ in range(3):
        _, _, term, trunc, _ = venv.step([NOOP, NOOP])
        assert not (term | trunc).any()
    _, _, term, trunc, info = venv.step([NOOP, NOOP])          # step 4 of 4: the budget
    assert trunc.all()
    _, rewards, term, trunc, info = venv.step([NOOP, NOOP])    # the reset step: action ignored
    assert not (term | trunc).any() and (rewards == 0).all()
    assert "step" not in info and all(info["_seed"])            # a reset's info, not a step's
    _, _, _, _, info = venv.step([NOOP, NOOP])
    assert list(info["step"]) == [1, 1]


def test_reset_mask_resets_only_the_masked_sub_envs(venv):
    venv.reset(seed=10)
    venv.step([NOOP, NOOP])
    _, info = venv.reset(seed=20, options={"reset_mask": np.array([False, True])})
    assert list(info["_seed"]) == [False, True] and info["seed"][1] == 21
    _, _, _, _, info = venv.step([NOOP, NOOP])
    assert list(info["step"]) == [2, 1]
    with pytest.raises(ValueError, match="reset_mask"):
        venv.reset(options={"reset_mask": [True]})


def test_send_and_recv_return_steps_as_they_finish(venv):
    venv.reset(seed=3)
    venv.send({0: NOOP})
    assert venv.pending == [0]
    with pytest.raises(RuntimeError, match="in flight"):
        venv.send({0: NOOP})
    got = venv.recv(min_num=1)
    assert [t.index for t in got] == [0] and got[0].info["step"] == 1 and venv.pending == []
    venv.send({0: NOOP, 1: NOOP})
    first = venv.recv(min_num=1, timeout=30)
    rest = venv.recv(min_num=2 - len(first), timeout=30) if len(first) < 2 else []
    assert sorted(t.index for t in first + rest) == [0, 1]
    steps = {t.index: t.info["step"] for t in first + rest}
    assert steps == {0: 2, 1: 1}
    assert venv.recv() == []                                     # nothing in flight


def test_a_killed_actor_is_replaced_and_its_step_is_truncated(venv):
    venv.reset(seed=7)
    venv.step([NOOP, NOOP])
    where, token = venv.where()[1], venv.tokens[1]
    victim, uid = where["pid"], where["jail_uid"]
    assert len(owned_pids(token)) >= 2                            # the actor and what it started outside the jail
    assert uid is None or uid_processes(uid)                      # Chromium, in the actor's jail
    os.kill(victim, signal.SIGKILL)
    before = venv.replacements
    _, _, term, trunc, info = venv.step([NOOP, NOOP])
    assert trunc[1] and not term[1] and info["replaced"][1] and "died" in info["error"][1]
    assert not trunc[0] and info["step"][0] == 2                  # the other sub-env went on
    assert venv.replacements == before + 1 and venv.where()[1]["pid"] != victim
    assert owned_pids(token) == []                                # its Xvfb and driver were stopped too
    deadline = time.monotonic() + 15                              # and its jail's Chromium, by its reaper
    while uid is not None and uid_processes(uid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert uid is None or uid_processes(uid) == []
    _, _, _, _, info = venv.step([NOOP, NOOP])                    # NEXT_STEP: the new actor resets
    assert info["_seed"][1]
    _, _, term, trunc, info = venv.step([NOOP, NOOP])
    assert info["step"][1] == 1 and not trunc[1]


def test_a_dead_chromium_is_replaced_inside_its_actor(venv):
    venv.reset(seed=8)
    venv.step([NOOP, NOOP])
    actor, old = venv.where()[0]["pid"], venv.sandbox_pids()[0]
    os.kill(old["browser"], signal.SIGKILL)
    _, _, _, trunc, info = venv.step([NOOP, NOOP])
    assert trunc[0] and info["replaced"][0] and "browser died" in info["error"][0]
    assert not trunc[1] and info["step"][1] == 2
    assert venv.where()[0]["pid"] == actor                        # the same actor: only the sandbox was new
    _, _, _, trunc, info = venv.step([NOOP, NOOP])                # NEXT_STEP: the new sandbox resets
    assert info["_seed"][0] and not trunc.any()
    _, _, _, trunc, info = venv.step([NOOP, NOOP])
    assert list(info["step"]) == [1, 4] and venv.sandbox_pids()[0]["browser"] not in old["browser_processes"]


def test_a_hung_actor_times_out_and_is_replaced(local_ray):
    v = RayVectorEnv(GAME, 2, env_kwargs={"max_steps": 50}, call_timeout_s=20)
    try:
        v.reset(seed=0)
        pid = v.where()[0]["pid"]
        os.kill(pid, signal.SIGSTOP)                              # alive, but never answers
        t = time.monotonic()
        _, _, _, trunc, info = v.step([NOOP, NOOP])
        assert time.monotonic() - t < 90
        assert trunc[0] and "time-out" in info["error"][0] and not trunc[1]
        assert v.where()[0]["pid"] != pid and not _pids_alive([pid])
    finally:
        tokens = list(v.tokens)
        v.close()
    assert all(owned_pids(t) == [] for t in tokens)               # close() leaves nothing running


def test_same_step_autoreset_returns_the_final_observation_in_info(local_ray):
    v = RayVectorEnv(GAME, 1, env_kwargs={"max_steps": 2}, autoreset_mode="SameStep")
    try:
        assert v.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        v.reset(seed=0)
        v.step([NOOP])
        obs, _, _, trunc, info = v.step([NOOP])
        assert trunc[0] and info["_final_obs"][0]
        assert info["final_obs"][0]["screenshot"].shape == (600, 800, 3)
        assert info["final_info"]["step"][0] == 2
        _, _, _, trunc, info = v.step([NOOP])                      # already reset: a real step
        assert not trunc[0] and info["step"][0] == 1
    finally:
        v.close()


def tenth_each_step(step, so_far):
    """A process reward (module level: Ray pickles it to the actors)."""
    return 0.1


def test_the_ray_vector_env_takes_a_plugged_reward_and_a_process_reward(local_ray):
    v = gym.make_vec(GAME, num_envs=2, vectorization_mode="vector_entry_point", max_steps=2, call_timeout_s=60,
                     reward={"name": "step_cost", "cost": 0.25}, process_reward=tenth_each_step)
    try:
        v.reset(seed=0)
        _, first, _, trunc1, _ = v.step([NOOP, NOOP])
        _, last, _, trunc2, info = v.step([NOOP, NOOP])
    finally:
        v.close()
    assert not trunc1.any() and trunc2.all()
    assert np.allclose(first, 0.1)                       # the process reward only, before the end
    assert np.allclose(last, 0.0 - 2 * 0.25 + 0.1)       # binary 0, less 0.25 a step, and the step's 0.1
    assert not info["success"].any()                    # the checker's verdict, beside the plugged reward
    assert not info["check"]["success"].any()           # (gymnasium batches a dict info key by key)


def test_the_ray_vector_env_records_every_episode_on_the_driver(local_ray, tmp_path):
    from hybridgym.trajectory import load_run
    v = RayVectorEnv(GAME, 2, env_kwargs={"max_steps": 3}, record_dir=tmp_path, record_agent="policy",
                     autoreset_mode="SameStep")
    try:
        v.reset(seed=20)
        for _ in range(3):                      # both end at step 3 and are reset in the same step
            v.step([{"action_type": "hotkey", "keys": ["up"]}, NOOP])
        v.send({0: NOOP})                       # the next episodes, through send/recv
        [t] = v.recv(min_num=1, timeout=60)
        last = t.obs["screenshot"]
        folders = v.record_folders
    finally:
        v.close()
    trajs = {t.path: t for t in load_run(tmp_path)}
    done = [t for t in trajs.values() if t.complete]
    assert sorted(t.seed for t in done) == [20, 21] and all(len(t) == 3 and t.agent == "policy" for t in done)
    assert done[0].steps[0]["action"] in ({"action_type": "hotkey", "keys": ["up"]}, NOOP)
    assert all(t.header["env_id"] == GAME and t.header["vector_index"] in (0, 1) for t in done)
    now = trajs[folders[0]]                     # sub-env 0's new episode: one step, cut by close()
    assert not now.complete and len(now) == 1 and np.array_equal(now.frame(1), last)


def test_compressed_transport_keeps_the_screenshot(local_ray):
    v = RayVectorEnv(GAME, 1, transport="png")
    w = RayVectorEnv(GAME, 1, transport="raw")
    try:
        a, _ = v.reset(seed=4)
        b, _ = w.reset(seed=4)
        assert np.array_equal(a["screenshot"], b["screenshot"])     # PNG is lossless; the game is deterministic
    finally:
        v.close()
        w.close()


def test_image_codecs_round_trip():
    img = np.random.default_rng(0).integers(0, 255, (60, 80, 3), dtype=np.uint8)
    assert np.array_equal(decode_image(encode_image(img, "png")), img)
    smooth = np.tile(np.linspace(0, 255, 80, dtype=np.uint8)[None, :, None], (60, 1, 3))
    jpeg = decode_image(encode_image(smooth, "jpeg", quality=95))
    assert jpeg.shape == smooth.shape and np.abs(jpeg.astype(int) - smooth).mean() < 3
    with pytest.raises(ValueError, match="png.*jpeg"):
        encode_image(img, "gif")


def test_bad_arguments_say_what_is_accepted(local_ray):
    with pytest.raises(ValueError, match="transport"):
        RayVectorEnv(GAME, 1, transport="zip")
    with pytest.raises(ValueError, match="num_envs"):
        RayVectorEnv(GAME, 0)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasiums_own_vector_envs_run_our_envs(mode, suite_env):
    suite_env("game").reset(seed=0)   # a live env in this process: forked workers must not use its driver
    v = gym.make_vec(GAME, num_envs=2, vectorization_mode=mode, max_steps=3)
    try:
        obs, info = v.reset(seed=0)
        assert obs["screenshot"].shape == (2, 600, 800, 3)
        for _ in range(3):
            obs, r, term, trunc, info = v.step([NOOP, NOOP])
        assert trunc.all()
    finally:
        v.close()


def test_the_async_rollout_example_runs():
    """docs/examples/async_rollouts.py, as a user would run it (its own local Ray)."""
    import subprocess
    import sys
    from pathlib import Path
    example = Path(__file__).parents[1] / "docs" / "examples" / "async_rollouts.py"
    r = subprocess.run([sys.executable, str(example), "--envs", "2", "--transitions", "12"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "12 transitions" in r.stdout or "13 transitions" in r.stdout, r.stdout
    assert "errors: 0" in r.stdout


# -- several sandboxes per actor (envs_per_actor) ----------------------------------------
@pytest.fixture(scope="module")
def group_venv(local_ray):
    """4 sub-envs, 2 per actor: actor A holds 0 and 1, actor B holds 2 and 3."""
    v = gym.make_vec(GAME, num_envs=4, vectorization_mode="vector_entry_point", envs_per_actor=2,
                     max_steps=50, call_timeout_s=60)
    yield v
    tokens = set(v.tokens)
    v.close()
    assert all(owned_pids(t) == [] for t in tokens)               # close() leaves nothing running


def _until_gone(pids, seconds=15.0):
    deadline = time.monotonic() + seconds
    while _pids_alive(pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    return _pids_alive(pids)


def test_envs_per_actor_serves_several_sandboxes_from_one_actor(group_venv):
    v = group_venv
    assert isinstance(v, RayVectorEnv) and v.envs_per_actor == 2 and v.members == [[0, 1], [2, 3]]
    obs, info = v.reset(seed=0)
    assert obs["screenshot"].shape == (4, 600, 800, 3) and v.observation_space.contains(obs)
    assert list(info["seed"]) == [0, 1, 2, 3]
    pids = [w["pid"] for w in v.where()]
    assert pids[0] == pids[1] and pids[2] == pids[3] and pids[0] != pids[2] and os.getpid() not in pids
    sandboxes = v.sandbox_pids()                                  # but each sandbox has its own Xvfb and Chromium
    assert len({s["display"] for s in sandboxes}) == 4 and len({s["browser"] for s in sandboxes}) == 4
    assert all(s["browser"] in s["browser_processes"] for s in sandboxes)
    uids = [w["jail_uid"] for w in v.where()]
    assert uids == [None] * 4 or len(set(uids)) == 4               # and its own jail
    for actor in (pids[0], pids[2]):                               # one Playwright driver per actor
        assert len([p for p in children(actor) if "/playwright/driver/" in cmdline(p)]) == 1
    _, rewards, term, trunc, info = v.step([NOOP] * 4)
    assert rewards.shape == (4,) and trunc.shape == (4,) and list(info["step"]) == [1, 1, 1, 1]
    v.send({0: NOOP, 1: NOOP, 3: NOOP})                           # two of them queue on actor A
    got = []
    for _ in range(10):
        got += v.recv(min_num=3 - len(got), timeout=30)
        if len(got) == 3:
            break
    assert {t.index: t.info["step"] for t in got} == {0: 2, 1: 2, 3: 2}
    _, _, _, _, info = v.step([NOOP] * 4)
    assert list(info["step"]) == [3, 3, 2, 3]


def test_a_dead_chromium_truncates_only_its_sandbox_not_its_siblings(group_venv):
    v = group_venv
    v.reset(seed=1)
    v.step([NOOP] * 4)
    v.step([NOOP] * 4)
    actor = v.where()[1]["pid"]
    old = v.sandbox_pids()[1]
    os.kill(old["browser"], signal.SIGKILL)                        # sub-env 1's Chromium; 0 is on the same actor
    before = (v.replacements, v.sandbox_replacements)
    _, _, term, trunc, info = v.step([NOOP] * 4)
    assert trunc[1] and not term[1] and info["replaced"][1] and "browser died" in info["error"][1]
    assert not trunc[[0, 2, 3]].any() and list(info["step"][[0, 2, 3]]) == [3, 3, 3]
    assert not info["_error"][[0, 2, 3]].any()
    assert (v.replacements, v.sandbox_replacements) == (before[0], before[1] + 1)
    assert v.where()[1]["pid"] == actor                            # replaced inside the same actor
    assert _until_gone(old["browser_processes"] + [old["display"]]) == []   # the dead sandbox was closed
    _, _, _, trunc, info = v.step([NOOP] * 4)                      # NEXT_STEP: sub-env 1's new sandbox resets
    assert info["_seed"][1] and not trunc.any() and list(info["step"][[0, 2, 3]]) == [4, 4, 4]
    _, _, _, trunc, info = v.step([NOOP] * 4)
    assert list(info["step"]) == [5, 1, 5, 5] and not trunc.any()
    assert v.sandbox_pids()[1]["browser"] not in old["browser_processes"]


def test_a_dead_actor_truncates_and_replaces_all_its_sub_envs_only(group_venv):
    v = group_venv
    v.reset(seed=2)
    v.step([NOOP] * 4)
    where, token = v.where(), v.tokens[2]
    victim = where[2]["pid"]
    os.kill(victim, signal.SIGKILL)                                # actor B: sub-envs 2 and 3
    before = v.replacements
    _, _, term, trunc, info = v.step([NOOP] * 4)
    assert trunc[2] and trunc[3] and info["replaced"][2] and info["replaced"][3]
    assert "died" in info["error"][2] and "died" in info["error"][3]
    assert not trunc[0] and not trunc[1] and list(info["step"][:2]) == [2, 2]
    assert v.replacements == before + 1
    now = v.where()
    assert now[2]["pid"] == now[3]["pid"] != victim and now[0]["pid"] == where[0]["pid"]
    assert owned_pids(token) == []                                 # both its sandboxes were stopped
    _, _, _, trunc, info = v.step([NOOP] * 4)                      # the new actor's sub-envs reset
    assert info["_seed"][2] and info["_seed"][3] and list(info["step"][:2]) == [3, 3] and not trunc.any()
    # with send/recv, a sibling that was idle when its actor died hears of it at its next step
    os.kill(now[2]["pid"], signal.SIGKILL)
    v.send({2: NOOP})
    [t] = v.recv(min_num=1, timeout=60)
    assert t.index == 2 and t.truncated and t.info["replaced"] and "died" in t.info["error"]
    v.send({3: NOOP})
    [t] = v.recv(min_num=1, timeout=60)
    assert t.index == 3 and t.truncated and t.info["replaced"] and "shared with sub-env 2" in t.info["error"]
    _, _, _, trunc, info = v.step([NOOP] * 4)                      # both reset on the new actor, 0 and 1 go on
    assert info["_seed"][2] and info["_seed"][3] and list(info["step"][:2]) == [4, 4] and not trunc.any()


def test_a_dead_playwright_driver_takes_its_actor_and_only_its_sub_envs(group_venv):
    v = group_venv
    v.reset(seed=3)
    v.step([NOOP] * 4)
    actor = v.where()[0]["pid"]
    [driver] = [p for p in children(actor) if "/playwright/driver/" in cmdline(p)]
    os.kill(driver, signal.SIGKILL)                                # every Chromium of actor A is cut off
    _, _, _, trunc, info = v.step([NOOP] * 4)
    assert trunc[0] and trunc[1] and info["replaced"][0] and info["replaced"][1] and "died" in info["error"][1]
    assert not trunc[2] and not trunc[3] and list(info["step"][2:]) == [2, 2]
    assert v.where()[0]["pid"] == v.where()[1]["pid"] != actor
    _, _, _, trunc, info = v.step([NOOP] * 4)
    assert info["_seed"][0] and info["_seed"][1] and not trunc.any()


def test_envs_per_actor_need_not_divide_num_envs(local_ray):
    v = RayVectorEnv(GAME, 3, envs_per_actor=2)
    try:
        assert v.members == [[0, 1], [2]]
        pids = [w["pid"] for w in v.where()]
        assert pids[0] == pids[1] != pids[2]
        tokens = set(v.tokens)
        with pytest.raises(Exception, match="before calling env.reset"):   # the caller's error, not a fault
            v.step([NOOP] * 3)
        assert v.replacements == v.sandbox_replacements == 0
    finally:
        v.close()
    assert len(tokens) == 2 and all(owned_pids(t) == [] for t in tokens)
    with pytest.raises(ValueError, match="envs_per_actor"):
        RayVectorEnv(GAME, 2, envs_per_actor=0)
    with pytest.raises(ValueError, match="envs_per_actor"):
        RayVectorEnv(GAME, 2, envs_per_actor=1.5)


def test_a_hung_group_actor_times_out_and_takes_its_sub_envs_with_it(local_ray):
    v = RayVectorEnv(GAME, 3, envs_per_actor=2, env_kwargs={"max_steps": 50}, call_timeout_s=15)
    try:
        v.reset(seed=0)
        pid = v.where()[0]["pid"]
        os.kill(pid, signal.SIGSTOP)                              # actor of 0 and 1: alive, never answers
        _, _, _, trunc, info = v.step([NOOP] * 3)
        assert trunc[0] and trunc[1] and not trunc[2] and info["step"][2] == 1
        assert "time-out" in info["error"][0] and "time-out" in info["error"][1]
        assert v.where()[0]["pid"] == v.where()[1]["pid"] != pid and not _pids_alive([pid])
        _, _, _, trunc, info = v.step([NOOP] * 3)
        assert info["_seed"][0] and info["_seed"][1] and info["step"][2] == 2 and not trunc.any()
    finally:
        tokens = set(v.tokens)
        v.close()
    assert all(owned_pids(t) == [] for t in tokens)
