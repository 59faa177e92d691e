"""Trajectories: recorded as the episode runs (wrapper, vector envs, bench, run), read back, kept after a crash;
and the run's scores with their confidence intervals."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import gymnasium as gym
import numpy as np
import pytest

import hybridgym  # noqa: F401
from hybridgym.agents import make_agent, run_episode
from hybridgym.cli import main
from hybridgym.scores import mean_ci, summarize, wilson
from hybridgym.trajectory import (FORMAT, VERSION, Recorder, RecordTrajectory, Trajectory, TrajectoryError,
                                  load_run)

BROWSER = "hybridgym/browser.todo-add-v0"
GAME = "hybridgym/game.snake-v0"


def test_the_wrapper_records_an_episode_that_reads_back_frame_for_frame(tmp_path):
    env = RecordTrajectory(gym.make(BROWSER), tmp_path, agent="oracle")
    seen = []
    try:
        obs, info = env.reset(seed=3)
        seen.append(obs["screenshot"].copy())
        agent = make_agent("oracle")
        agent.reset(env, obs, info)
        sent = []
        while True:
            action = agent.act(obs)
            sent.append(action)
            obs, reward, terminated, truncated, info = env.step(action)
            seen.append(obs["screenshot"].copy())
            if terminated or truncated:
                break
    finally:
        env.close()
    traj = Trajectory(env.last_episode)
    assert traj.header["format"] == FORMAT and traj.header["version"] == VERSION
    assert (traj.task_id, traj.seed, traj.agent, traj.suite) == ("browser.todo-add-v0", 3, "oracle", "browser")
    assert traj.instruction and traj.header["env_id"] == BROWSER and traj.header["screen"] == [1280, 800]
    assert traj.header["versions"]["hybridgym"] and traj.header["codec"]["schema"] == "auto"
    assert traj.complete and traj.success and traj.result["message"] == info["message"]
    assert len(traj) == len(sent) == len(seen) - 1
    for i, frame in enumerate(seen):     # lossless: every observation comes back as it was
        assert np.array_equal(traj.frame(i), frame), f"frame {i} differs"
    assert [s["step"] for s in traj.steps] == list(range(1, len(sent) + 1))
    assert traj.steps[-1]["terminated"] and traj.steps[-1]["reward"] == 1.0
    assert all(s["actions"] for s in traj.steps) and "step_s" in traj.steps[0]["timings"]
    assert traj.steps[0]["action"] == json.loads(json.dumps(sent[0], default=lambda a: a.to_dict()))


def test_an_unchanged_screen_names_the_earlier_frame_and_an_agents_raw_reply_is_kept(tmp_path):
    class Echo:
        name = "echo"
        last_output = None

        def act(self, obs):
            self.last_output = {"content": "<think>wait</think>", "tool_calls": []}
            return {"action_type": "wait", "seconds": 0}

        def episode_stats(self):
            return {"requests": 3}

    agent = Echo()
    env = RecordTrajectory(gym.make(BROWSER, max_steps=3), tmp_path, agent=agent)
    try:
        obs, info = env.reset(seed=0)
        for _ in range(3):
            env.step(agent.act(obs))
    finally:
        env.close()
    traj = Trajectory(env.last_episode)
    assert traj.agent == "echo" and traj.result["agent_stats"] == {"requests": 3}
    assert traj.steps[0]["agent_output"]["content"] == "<think>wait</think>"
    assert len({s["frame"] for s in traj.steps} | {traj.header["first_frame"]}) <= 2   # waits change nothing
    assert len(list((env.last_episode / "frames").iterdir())) <= 2
    assert traj.result["complete"] and not traj.success and traj.steps[-1]["truncated"]


def test_a_crash_keeps_the_steps_done_and_the_episode_reads_as_incomplete(tmp_path):
    script = textwrap.dedent(f"""
        import gymnasium as gym, hybridgym
        from hybridgym.trajectory import RecordTrajectory
        env = RecordTrajectory(gym.make("{GAME}"), {str(tmp_path)!r}, agent="crasher")
        obs, info = env.reset(seed=1)
        for _ in range(4):
            env.step({{"action_type": "hotkey", "keys": ["up"]}})
        raise SystemExit("the trainer crashed")   # no close(): the process just ends
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert "the trainer crashed" in proc.stderr
    [traj] = load_run(tmp_path)
    assert not traj.complete and not traj.success and len(traj) == 4
    assert all(traj.frame_path(i).is_file() for i in range(5))
    assert "incomplete" in repr(traj)
    assert load_run(tmp_path, complete_only=True) == []


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_gymnasiums_vector_envs_record_each_sub_env(mode, tmp_path):
    venv = gym.make_vec(GAME, num_envs=2, vectorization_mode=mode, max_steps=3,
                        wrappers=[lambda e: RecordTrajectory(e, tmp_path, agent="vec")])
    try:
        venv.reset(seed=10)
        for _ in range(3):
            venv.step([{"action_type": "hotkey", "keys": ["left"]}] * 2)
    finally:
        venv.close()
    trajs = load_run(tmp_path)
    assert sorted(t.seed for t in trajs) == [10, 11]
    assert all(t.complete and len(t) == 3 and t.agent == "vec" for t in trajs)


def test_a_folder_that_is_not_a_trajectory_is_a_clear_error(tmp_path):
    with pytest.raises(TrajectoryError, match="no episode.json"):
        Trajectory(tmp_path)
    (tmp_path / "episode.json").write_text(json.dumps({"format": "hybridgym.trajectory", "version": 99}))
    with pytest.raises(TrajectoryError, match="upgrade hybridgym"):
        Trajectory(tmp_path)
    with pytest.raises(ValueError, match="lossless"):
        Recorder(tmp_path / "x", image_format="jpeg")


def test_recorder_keeps_hostile_agent_output_as_data_and_names_folders_safely(tmp_path):
    rec = Recorder(tmp_path)
    frame = np.zeros((20, 30, 3), np.uint8)
    w = rec.begin({"screenshot": frame, "instruction": "x"}, {"task_id": "../../etc/passwd", "seed": 0},
                  agent="a/b\\c")
    hostile = {"text": "\u202e\x00</script>", "n": np.int64(3), "big": np.zeros((100, 100)), "nan": float("nan"),
               "obj": object()}
    w.step(hostile, {"screenshot": frame}, 0.0, True, False, {"actions": []})
    w.end({})
    rec.close()
    [traj] = load_run(tmp_path)
    assert traj.path.parent == tmp_path and "/" not in traj.name
    action = traj.steps[0]["action"]
    assert action["text"] == "\u202e\x00</script>" and action["n"] == 3 and action["big"].startswith("<array")
    assert action["nan"] == "nan" and action["obj"].startswith("<object")


def test_a_frame_named_outside_the_trajectory_is_refused(tmp_path):
    rec = Recorder(tmp_path)
    frame = np.zeros((20, 30, 3), np.uint8)
    w = rec.begin({"screenshot": frame}, {"task_id": "t", "seed": 0}, agent="a")
    for k in range(3):
        w.step({}, {"screenshot": frame + k}, 0.0, k == 2, False, {})
    w.end({})
    rec.close()
    [traj] = load_run(tmp_path)
    (tmp_path / "secret.txt").write_text("host data")
    (traj.path / "frames" / "link.png").symlink_to(tmp_path / "secret.txt")
    for bad in ("../../secret.txt", "/etc/passwd", "frames/link.png", "frames/../episode.json"):
        traj.steps[0]["frame"] = bad
        with pytest.raises(TrajectoryError, match="not a file of its frames"):
            traj.frame_path(1)
    assert traj.frame(2).shape == (20, 30, 3)


def test_bench_records_resumes_and_writes_markdown_and_csv(tmp_path, capsys):
    run = tmp_path / "runs" / "bench"          # nested folders that do not exist yet
    args = ["bench", "--suite", "browser", "--task", "browser.todo-add-v0", "--agent", "oracle,noop",
            "--episodes", "2", "--record", str(run), "--no-progress"]
    assert main(args) == 0
    lines = [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]
    assert len(lines) == 4 and all(r["episode"] for r in lines)
    trajs = load_run(run)
    assert len(trajs) == 4 and all(t.complete for t in trajs)
    assert {t.success for t in trajs if t.agent == "oracle"} == {True}
    md = (run / "summary.md").read_text()
    assert "| browser.todo-add-v0 | oracle | 2 | 100% [34%, 100%]" in md
    csv_rows = (run / "summary.csv").read_text().splitlines()
    assert csv_rows[0].startswith("task_id,agent,episodes,successes,success_rate,success_low")
    # again without --resume: refused, nothing touched
    assert main(args) == 2
    assert "--resume" in capsys.readouterr().err
    # an episode cut short (its result never written) and one missing from the results: both played again
    cut = next(t for t in trajs if t.agent == "noop" and t.seed == 1)
    (cut.path / "result.json").unlink()
    kept = [r for r in lines if not (r["agent"] == "oracle" and r["seed"] == 0)]
    (run / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in kept))
    assert main(args + ["--resume", "-v"]) == 0
    out = capsys.readouterr()
    assert "2 to play" in out.out
    played = [json.loads(x) for x in out.out.splitlines() if x.startswith("{")]
    assert sorted((r["agent"], r["seed"]) for r in played) == [("noop", 1), ("oracle", 0)]
    assert len((run / "results.jsonl").read_text().splitlines()) == 4
    assert all(t.complete for t in load_run(run)) and len(load_run(run)) == 4


def test_bench_on_two_workers_plays_every_episode_once(tmp_path):
    out = tmp_path / "w2.jsonl"
    assert main(["bench", "--suite", "game", "--task", "game.snake-v0", "--agent", "random,noop", "--episodes", "2",
                 "--workers", "2", "--out", str(out), "--no-progress"]) == 0
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted((r["agent"], r["seed"]) for r in rows) == [("noop", 0), ("noop", 1), ("random", 0), ("random", 1)]
    assert all(r.get("error") is None for r in rows)
    assert (tmp_path / "w2.md").is_file() and (tmp_path / "w2.csv").is_file()


def test_bench_refuses_two_agents_of_one_name_and_zero_workers(capsys):
    assert main(["bench", "--suite", "browser", "--agent", "noop,noop"]) == 2
    assert "more than once" in capsys.readouterr().err
    assert main(["bench", "--suite", "browser", "--agent", "noop", "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err


def test_run_records_the_reset_frame_every_action_and_the_result(tmp_path, capsys):
    assert main(["run", "--task", "computer.find-order-total-v1", "--agent", "oracle", "--out", str(tmp_path)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    traj = Trajectory(tmp_path / summary["episode"])
    assert traj.success and summary["success"] and len(traj) == summary["steps"]
    assert traj.frame(0).shape == (800, 1280, 3) and traj.frame(len(traj)).shape == (800, 1280, 3)
    assert all(s["actions"] for s in traj.steps)


# -- scores ------------------------------------------------------------------------------------------
def test_wilson_and_t_intervals_match_their_textbook_values():
    lo, hi = wilson(8, 10)
    assert round(lo, 3) == 0.490 and round(hi, 3) == 0.943
    assert wilson(0, 0) == (0.0, 1.0) and wilson(5, 5)[1] == 1.0
    mean, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])       # sd 1.291, t(3) = 3.182
    assert mean == 2.5 and round(hi - mean, 3) == round(3.182 * 1.2910 / 2, 3)
    assert mean_ci([]) is None and mean_ci([7.0]) == (7.0, 7.0, 7.0)


def test_summarize_groups_by_task_and_agent_with_intervals():
    records = [{"task_id": "t", "suite": "game", "agent": "a", "seed": s, "success": s < 3, "reward": 1.0,
                "steps": 2, "normalized_score": 10.0 * s} for s in range(5)]
    [row] = summarize(records, ("task_id", "agent"))
    assert row["episodes"] == 5 and row["successes"] == 3 and row["seeds"] == 5
    assert (row["success_low"], row["success_high"]) == wilson(3, 5)
    assert row["normalized_score"] == 20.0 and row["normalized_low"] < 20.0 < row["normalized_high"]


def test_a_chat_agents_raw_replies_and_stats_are_in_its_trajectory(tmp_path):
    from tests.chat_server import ScriptedChatServer
    replies = iter(["Thought: the field first.\nAction: click(start_box='(390,316)')",
                    "Thought: done.\nAction: finished(content='')"])
    run = tmp_path / "chat"
    with ScriptedChatServer(lambda body: next(replies)) as s:
        assert main(["bench", "--suite", "browser", "--task", "browser.todo-add-v0", "--agent", "chat",
                     "--base-url", s.base_url, "--model", "scripted", "--schema", "uitars1.5", "--record", str(run),
                     "--no-progress"]) == 0
    [traj] = load_run(run)
    assert len(traj) == 2 and traj.agent == "chat"
    assert traj.steps[0]["agent_output"]["content"].startswith("Thought: the field first.")
    assert traj.steps[0]["actions"][0]["action_type"] == "click"
    assert traj.header["codec"]["schema"] == "uitars" and traj.header["codec"]["coords"] == "smart_resize"
    assert traj.result["agent_stats"]["requests"] == 2 and traj.result["agent_stats"]["model"] == "scripted"
