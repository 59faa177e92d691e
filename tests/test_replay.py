"""`hybridgym.replay`: recorded episodes played again in real envs agree with their recordings, and a tampered,
cut or unfinished trajectory is reported with what differed."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from hybridgym.actions import Codec
from hybridgym.agents import OracleAgent, make_agent, run_episode
from hybridgym.replay import DETERMINISTIC_SUITES, ReplayInputError, _Rebase, main, replay
from hybridgym.trajectory import RecordTrajectory, Trajectory

#: one task per suite; the browser last: the tests after the first use its env
TASKS = {"computer": "computer.editor-create-file-v0", "mobile": "mobile.event-add-v1", "game": "game.snake-v0",
         "miniwob": "miniwob.click-button-v0", "browser": "browser.todo-add-v0"}
_RECORDED: dict[tuple[str, str], Path] = {}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("replay-run")


def record(suite_env, run_dir: Path, suite: str, agent, seed: int = 0) -> Path:
    """The trajectory of `agent` on the suite's task (recorded once per module), played in the session's env."""
    key = (suite, agent.name)
    if key not in _RECORDED:
        env = suite_env(suite)
        env.unwrapped.set_action_format()            # what an earlier test set is not the oracle's
        recorder = RecordTrajectory(env, run_dir, agent=agent)
        try:
            run_episode(recorder, agent, seed, task=TASKS[suite])
        finally:
            recorder.recorder.close()                # not recorder.close(): the env stays for the next test
        _RECORDED[key] = recorder.last_episode
    return _RECORDED[key]


def edited(path: Path, tmp_path: Path, edit) -> Path:
    """A copy of the trajectory at `path` whose steps (a list of dicts) `edit` changes in place."""
    copy = tmp_path / path.name
    shutil.copytree(path, copy)
    steps = [json.loads(line) for line in (copy / "steps.jsonl").read_text().splitlines()]
    edit(steps)
    (copy / "steps.jsonl").write_text("".join(json.dumps(s) + "\n" for s in steps))
    return copy


class UITarsOracle(OracleAgent):
    """The oracle writing each action as UI-TARS text (relative coordinates), as a model would, with the env
    set to read that schema."""

    name = "oracle-uitars"

    def reset(self, env, obs, info):
        super().reset(env, obs, info)
        base = env.unwrapped
        base.set_action_format("uitars")
        self._dicts = Codec(base.screen_size, platform=base.codec.platform, schema="dict")
        self._text = Codec(base.screen_size, platform=base.codec.platform, schema="uitars")

    def act(self, obs):
        return self._text.format(self._dicts.parse(super().act(obs)))


@pytest.mark.parametrize("suite", list(TASKS))
def test_oracle_replay_agrees_in_every_suite(suite, suite_env, run_dir):
    path = record(suite_env, run_dir, suite, make_agent("oracle"))
    result = replay(path, env=suite_env(suite))
    assert result.agree, result.reasons
    assert result.success_recorded is result.success_replayed is True
    assert result.steps_replayed == result.steps_recorded == len(Trajectory(path))
    assert result.frames_compared == result.steps_recorded + 1
    if suite in DETERMINISTIC_SUITES:
        assert result.frames_equal == result.frames_compared
        assert result.first_frame_difference is None
    assert str(result).startswith("AGREE")


def test_replay_puts_the_envs_action_format_back(suite_env, run_dir):
    env = suite_env("browser")
    path = record(suite_env, run_dir, "browser", make_agent("oracle"))
    env.unwrapped.set_action_format("seed")
    try:
        assert replay(path, env=env).agree
        assert env.unwrapped.codec.schema == "seed"
    finally:
        env.unwrapped.set_action_format()


def test_raw_replay_reads_model_text_with_the_recorded_codec(suite_env, run_dir):
    path = record(suite_env, run_dir, "browser", UITarsOracle())
    traj = Trajectory(path)
    assert traj.header["codec"]["schema"] == "uitars"
    assert traj.steps[0]["action"].startswith("Action: click(")     # text, as the model wrote it
    raw = replay(path, mode="raw", env=suite_env("browser"))
    assert raw.agree, raw.reasons
    assert raw.success_replayed is True
    parsed = replay(path, mode="parsed", env=suite_env("browser"))
    assert parsed.agree, parsed.reasons


def test_random_agent_replays_to_the_same_failure(suite_env, run_dir):
    path = record(suite_env, run_dir, "browser", make_agent("random"))
    traj = Trajectory(path)
    assert traj.complete and not traj.success
    result = replay(path, env=suite_env("browser"))
    assert result.agree, result.reasons
    assert result.success_recorded is result.success_replayed is False
    assert result.steps_replayed == len(traj)


def test_moved_click_makes_the_replay_disagree(suite_env, run_dir, tmp_path):
    path = record(suite_env, run_dir, "browser", make_agent("oracle"))

    def move_first_click(steps):
        click = next(a for s in steps for a in s["actions"] if a["action_type"] == "click")
        click["x"], click["y"] = 5, 795      # the bottom-left corner: not the title field
    result = replay(edited(path, tmp_path, move_first_click), env=suite_env("browser"))
    assert not result.agree
    assert result.success_recorded is True and result.success_replayed is False
    assert "success: recorded True, replayed False" in result.reasons
    assert any(r.startswith("the checker's message") for r in result.reasons)
    assert any(r.startswith("reward differs at 1 step") for r in result.reasons)
    assert str(result).startswith("DISAGREE")


def test_dropped_last_step_is_reported(suite_env, run_dir, tmp_path):
    path = record(suite_env, run_dir, "browser", make_agent("oracle"))
    n = len(Trajectory(path))
    result = replay(edited(path, tmp_path, lambda steps: steps.pop()), env=suite_env("browser"))
    assert not result.agree
    assert result.steps_replayed == n - 1 and not result.ended
    assert f"result.json counts {n} steps, steps.jsonl holds {n - 1}" in result.reasons
    assert f"the recording ended after step {n - 1}; the replay had not ended then" in result.reasons


def test_trajectory_that_did_not_end_is_reported(suite_env, run_dir, tmp_path):
    path = record(suite_env, run_dir, "browser", make_agent("oracle"))
    cut = edited(path, tmp_path, lambda steps: None)
    (cut / "result.json").unlink()
    result = replay(cut, env=suite_env("browser"))
    assert not result.agree and not result.complete
    assert result.reasons[0].startswith("the recording did not end (no result.json")
    assert result.success_recorded is None
    assert str(result).startswith("INCOMPLETE")


def test_report_escapes_hostile_recorded_text(suite_env, run_dir, tmp_path):
    path = record(suite_env, run_dir, "browser", make_agent("oracle"))
    copy = edited(path, tmp_path, lambda steps: None)
    result_file = copy / "result.json"
    recorded = json.loads(result_file.read_text())
    recorded["message"] = "\x1b]0;owned\x07\x1b[2J\u202eall good"
    result_file.write_text(json.dumps(recorded))
    result = replay(copy, env=suite_env("browser"))
    assert not result.agree
    line = str(result)
    assert "the checker's message" in line
    assert not re.search("[\x00-\x1f\x7f\u202e]", line), line


def test_frames_named_outside_the_trajectory_are_not_read(suite_env, run_dir, tmp_path):
    path = record(suite_env, run_dir, "browser", make_agent("oracle"))
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)                                   # opening it to read would wait for ever

    def point_frames_away(steps):
        for s in steps:
            s["frame"] = "../../../../../../etc/hostname"
    copy = edited(path, tmp_path, point_frames_away)
    header = json.loads((copy / "episode.json").read_text())
    header["first_frame"] = str(fifo)
    (copy / "episode.json").write_text(json.dumps(header))
    result = replay(copy, env=suite_env("browser"))
    assert result.agree and result.frames_compared == 0
    assert f"{len(Trajectory(path)) + 1} recorded frame(s) missing, unreadable or outside" in result.notes[0]


def test_replay_refuses_an_env_of_another_suite(suite_env, run_dir):
    path = record(suite_env, run_dir, "browser", make_agent("oracle"))
    with pytest.raises(ReplayInputError, match="of the 'browser' suite; the env given is of the 'game' suite"):
        replay(path, env=suite_env("game"))


def test_main_on_a_run_folder_reports_each_episode_and_exits_1_on_a_disagreement(suite_env, run_dir, tmp_path,
                                                                                  capsys):
    path = record(suite_env, run_dir, "browser", make_agent("oracle"))
    run = tmp_path / "run"
    shutil.copytree(path, run / path.name)

    def drop_typing(steps):
        for s in steps:
            s["actions"] = [a for a in s["actions"] if a["action_type"] != "type"]
    edited(path, run / "tampered", drop_typing)
    assert main([str(run)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("AGREE") and path.name in lines[0]
    assert lines[1].startswith("DISAGREE")
    assert lines[2].startswith("total: 2 episodes, 1 agree, 1 disagree")


def test_main_exits_0_when_all_agree_and_writes_json(suite_env, run_dir, capsys):
    path = record(suite_env, run_dir, "game", make_agent("oracle"))
    assert main([str(path), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["agree"] is True and lines[0]["task_id"] == TASKS["game"]
    assert lines[0]["frames_equal"] == lines[0]["frames_compared"] > 1
    assert lines[1]["total"]["agree"] == 1 and lines[1]["total"]["suites"]["game"]["episodes"] == 1


def test_replay_sends_the_replay_envs_workspace_path(suite_env, run_dir, tmp_path):
    """A computer oracle types the home's path into the save dialog: `/home/user/...`, the same in every
    process. An older recording, or an agent, may have typed the jail's folder on the host, which is another
    folder in another process: the replay sends its own env's."""
    path = record(suite_env, run_dir, "computer", make_agent("oracle"))
    workspace = str(suite_env("computer").unwrapped.sandbox.workspace.root)
    elsewhere = "/tmp/hybridgym-jails/1-2/home"
    sent = [json.dumps(s["actions"]) for s in Trajectory(path).steps]
    assert any("/home/user/" in a for a in sent) and not any(workspace in a for a in sent)

    def recorded_elsewhere(steps):
        for s in steps:
            s["action"] = json.loads(json.dumps(s["action"]).replace("/home/user", elsewhere))
            s["actions"] = json.loads(json.dumps(s["actions"]).replace("/home/user", elsewhere))
    copy = edited(path, tmp_path, recorded_elsewhere)
    header = json.loads((copy / "episode.json").read_text())
    assert header["workspace"] == workspace                     # the recording says where its workspace was
    for known in (True, False):                                 # ... and without it, the replay finds it
        if known:
            header["workspace"] = elsewhere
        else:
            header.pop("workspace")
        (copy / "episode.json").write_text(json.dumps(header))
        result = replay(copy, env=suite_env("computer"))
        assert result.agree, result.reasons
        assert any("workspace" in note and elsewhere in note for note in result.notes)


def test_rebase_replaces_only_the_recorded_origin():
    base = SimpleNamespace(sandbox=SimpleNamespace(workspace=None, server=SimpleNamespace(origin="http://127.0.0.1:2")))
    rebase = _Rebase({"web_origin": "http://127.0.0.1:1"}, [], base)
    sent = {"text": "http://127.0.0.1:1/todo http://127.0.0.1:10/x", "n": [1, "http://127.0.0.1:1"]}
    assert rebase(sent) == {"text": "http://127.0.0.1:2/todo http://127.0.0.1:10/x", "n": [1, "http://127.0.0.1:2"]}


@pytest.mark.parametrize("env_id", ["os:system", "gymnasium.envs.classic_control:CartPole-v1", "CartPole-v1",
                                    "hybridgym/no-such-task-v0"])
def test_replay_refuses_an_env_id_that_is_not_a_hybridgym_one(env_id, tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "episode.json").write_text(json.dumps({"format": "hybridgym.trajectory", "version": 1,
                                                     "env_id": env_id, "env_kwargs": {}, "task_id": "x"}))
    with pytest.raises(ReplayInputError, match="not a registered hybridgym env id"):
        replay(folder)
    assert main([str(folder)]) == 2


def test_main_exits_2_on_a_folder_without_trajectories(tmp_path, capsys):
    assert main([str(tmp_path / "missing")]) == 2
    assert main([str(tmp_path)]) == 2
    assert "holds no trajectory" in capsys.readouterr().err


@pytest.mark.parametrize("broken", ["header-list", "step-number", "result-list", "not-json"])
def test_replay_refuses_a_trajectory_of_the_wrong_shape(broken, tmp_path):
    folder = tmp_path / broken
    folder.mkdir()
    header = {"format": "hybridgym.trajectory", "version": 1, "env_id": "hybridgym/game.snake-v0", "env_kwargs": {}}
    (folder / "episode.json").write_text({"header-list": "[1, 2]", "not-json": "{"}.get(broken, json.dumps(header)))
    (folder / "steps.jsonl").write_text("7\n" if broken == "step-number" else "")
    if broken == "result-list":
        (folder / "result.json").write_text("[]")
    with pytest.raises(ReplayInputError, match=str(folder)):
        replay(folder)
