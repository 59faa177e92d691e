"""judge-eval: a reward's agreement with the checkers, on runs recorded here from numpy frames (no GUI)."""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from hybridgym.judge_eval import EvalError, agreement, auc, evaluate, main
from hybridgym.trajectory import Recorder

from .chat_server import ScriptedChatServer

ROOT = Path(__file__).resolve().parents[1]
BRIGHT, DARK = 200, 20


def _benchmark():
    spec = importlib.util.spec_from_file_location("reward_agreement", ROOT / "benchmarks" / "reward_agreement.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Episode:
    agent: str
    suite: str
    seed: int
    success: bool
    goals_held: int          # of 2 goal conditions
    guard_held: bool
    steps: int
    final: int               # the final screen's pixel value
    check: bool = True       # result.json carries "check" (older recordings do not)
    ended: bool = True


def _check(ep: Episode) -> dict:
    conditions = [{"name": f"goal {i + 1}", "held": i < ep.goals_held, "message": "", "guard": False} for i in range(2)]
    conditions.append({"name": "existing records intact", "held": ep.guard_held, "message": "", "guard": True})
    partial = 1.0 if ep.success else 0.0 if not ep.guard_held else ep.goals_held / 2
    return {"success": ep.success, "reward": float(ep.success), "message": "done" if ep.success else "not done",
            "partial": partial, "conditions": conditions}


def record(root: Path, episodes: list[Episode]) -> Path:
    """A run folder of the episodes: per step a click and a grey screen, the last step's screen `final`."""
    rec = Recorder(root)
    for ep in episodes:
        shape = (24, 32, 3)
        w = rec.begin({"screenshot": np.full(shape, 90, np.uint8), "instruction": "Add the record"},
                      {"task_id": f"{ep.suite}.task-v0", "suite": ep.suite, "seed": ep.seed, "max_steps": 20},
                      agent=ep.agent)
        for k in range(ep.steps):
            last = k == ep.steps - 1
            shot = np.full(shape, ep.final if last else 60 + k, np.uint8)
            action = {"action_type": "click", "x": k, "y": 1}
            w.step(action, {"screenshot": shot}, float(ep.success and last), last and ep.ended, False,
                   {"actions": [action]})
        if ep.ended:
            w.end({"success": ep.success, "message": "done" if ep.success else "not done"},
                  **({"check": _check(ep)} if ep.check else {}))
        else:
            w.abort()
    rec.close()
    return root


#: 4 oracle successes (one ends on a dark screen), 4 random failures, 2 adversary failures: one with half its
#: goals held and a bright screen (partial 0.5: fools partial at 0.5 and the bright-screen judge), one with
#: every goal held but a guard broken (partial 0)
MIXED = [Episode("oracle", "browser", 0, True, 2, True, 3, BRIGHT), Episode("oracle", "browser", 1, True, 2, True, 3, BRIGHT),
         Episode("oracle", "computer", 0, True, 2, True, 3, BRIGHT), Episode("oracle", "computer", 1, True, 2, True, 3, DARK),
         Episode("random", "browser", 0, False, 0, True, 10, DARK), Episode("random", "browser", 1, False, 0, True, 10, DARK),
         Episode("random", "computer", 0, False, 0, True, 10, DARK), Episode("random", "computer", 1, False, 0, True, 10, DARK),
         Episode("adversary", "browser", 0, False, 1, True, 5, BRIGHT),
         Episode("adversary", "computer", 0, False, 2, False, 5, DARK)]


@pytest.fixture
def run(tmp_path):
    return record(tmp_path / "run", MIXED)


def counts(metrics: dict) -> tuple:
    return metrics["tp"], metrics["fp"], metrics["fn"], metrics["tn"]


def bright_judge(server):
    return {"name": "judge", "base_url": server.base_url, "model": server.model, "frames": 1, "retries": 0,
            "timeout_s": 30.0}


# -- the metrics ---------------------------------------------------------------------------------------------
def test_agreement_counts_the_confusion_matrix_and_leaves_undefined_ratios_none():
    m = agreement([(True, True)] * 3 + [(True, False)] + [(False, True)] * 2 + [(False, False)] * 4)
    assert counts(m) == (3, 1, 2, 4) and m["n"] == 10
    assert m["precision"] == pytest.approx(0.75) and m["recall"] == pytest.approx(0.6)
    assert m["f1"] == pytest.approx(2 * 0.75 * 0.6 / 1.35) and m["accuracy"] == pytest.approx(0.7)
    none = agreement([(False, False)] * 2)
    assert none["precision"] is None and none["recall"] is None and none["f1"] is None and none["accuracy"] == 1.0
    assert agreement([])["accuracy"] is None


def test_auc_is_the_chance_a_success_scores_above_a_failure_ties_half():
    assert auc([1.0, 1.0], [0.0, 0.5]) == 1.0
    assert auc([0.5], [0.5]) == 0.5
    assert auc([0.2, 0.8], [0.5]) == 0.5
    assert auc([1.0], []) is None


# -- built-in rewards against the checkers ---------------------------------------------------------------------
def test_builtin_rewards_agree_with_the_checkers_as_computed_by_hand(run):
    result = evaluate(run, ["binary", "partial", "step_cost", {"name": "step_cost", "cost": 0.2}, "checker"])
    assert (result["episodes"], result["successes"], result["failures"], result["no_conditions"]) == (10, 4, 6, 0)
    rows = {r["reward"]: r for r in result["rewards"]}
    assert list(rows) == ["binary", "partial", "step_cost", "step_cost(cost=0.2)", "checker"]
    for name in ("binary", "checker", "step_cost"):
        assert counts(rows[name]["overall"]) == (4, 0, 0, 6) and rows[name]["overall"]["f1"] == 1.0
    partial = rows["partial"]
    assert counts(partial["overall"]) == (4, 1, 0, 5)          # the adversary with half its goals held
    assert partial["overall"]["precision"] == pytest.approx(0.8) and partial["overall"]["f1"] == pytest.approx(8 / 9)
    assert partial["overall"]["accuracy"] == pytest.approx(0.9)
    assert partial["mean_on_success"] == 1.0 and partial["mean_on_failure"] == pytest.approx(0.5 / 6)
    assert partial["auc"] == 1.0
    assert counts(partial["by_agent"]["adversary"]) == (0, 1, 0, 1)
    assert counts(partial["by_agent"]["oracle"]) == (4, 0, 0, 0) and counts(partial["by_agent"]["random"]) == (0, 0, 0, 4)
    assert counts(partial["by_suite"]["browser"]) == (2, 1, 0, 2) and counts(partial["by_suite"]["computer"]) == (2, 0, 0, 3)
    cost = rows["step_cost"]
    assert cost["mean_on_success"] == pytest.approx(0.97) and cost["mean_on_failure"] == pytest.approx(-0.5 / 6)
    slow = rows["step_cost(cost=0.2)"]["overall"]              # 1 - 3 * 0.2 = 0.4 < 0.5: every success missed
    assert counts(slow) == (0, 0, 4, 6) and slow["precision"] is None and slow["recall"] == 0.0 and slow["f1"] == 0.0
    assert all(r["errors"] == 0 and r["fallbacks"] == 0 for r in rows.values())


def test_a_higher_threshold_stops_partial_credit_passing_for_success(run):
    [row] = evaluate(run, ["partial"], threshold=0.9)["rewards"]
    assert counts(row["overall"]) == (4, 0, 0, 6) and row["threshold"] == 0.9


def test_episodes_recorded_without_conditions_are_left_out_of_partial_not_scored_zero(tmp_path):
    old = [Episode("oracle", "browser", 0, True, 2, True, 3, BRIGHT, check=False),
           Episode("random", "browser", 0, False, 0, True, 5, DARK, check=False),
           Episode("adversary", "browser", 0, False, 1, True, 5, BRIGHT)]
    result = evaluate(record(tmp_path / "old", old), ["binary", "partial", {"name": "step_cost", "base": "partial"}])
    rows = {r["reward"]: r for r in result["rewards"]}
    assert result["no_conditions"] == 2
    assert rows["binary"]["overall"]["n"] == 3 and rows["binary"]["no_conditions"] == 0
    for name in ("partial", "step_cost(base=partial)"):
        assert rows[name]["overall"]["n"] == 1 and rows[name]["no_conditions"] == 2
    assert counts(rows["partial"]["overall"]) == (0, 1, 0, 0)
    assert [e["values"]["partial"] for e in result["episode_values"]] == [0.5, None, None]


def test_incomplete_episodes_are_counted_and_left_out(tmp_path):
    eps = MIXED[:2] + [Episode("random", "browser", 5, False, 0, True, 4, DARK, ended=False)]
    result = evaluate(record(tmp_path / "r", eps), ["binary"])
    assert result["episodes"] == 2 and result["incomplete"] == 1


# -- rewards that fail -----------------------------------------------------------------------------------------
def test_a_reward_that_raises_on_one_episode_is_an_error_for_it_not_the_end(run):
    def fussy(outcome):
        if outcome.seed == 1 and outcome.suite == "computer":
            raise RuntimeError("cannot score this one")
        return 1.0 if outcome.success else 0.0

    def not_a_number(outcome):
        return float("nan") if outcome.seed == 0 else 0.0

    result = evaluate(run, [fussy, not_a_number, "binary"])
    rows = {r["reward"]: r for r in result["rewards"]}
    assert rows["fussy"]["errors"] == 2 and rows["fussy"]["overall"]["n"] == 8     # oracle + random computer seed 1
    assert counts(rows["fussy"]["overall"]) == (3, 0, 0, 5)
    assert len(rows["fussy"]["error_messages"]) == 2
    assert all("RuntimeError: cannot score this one" in m for m in rows["fussy"]["error_messages"])
    assert all("computer.task-v0" in m and "seed1" in m for m in rows["fussy"]["error_messages"])
    assert rows["not_a_number"]["errors"] == 6 and "nan" in rows["not_a_number"]["error_messages"][0]
    assert rows["binary"]["errors"] == 0 and rows["binary"]["overall"]["n"] == 10


def test_bad_input_is_refused_with_what_is_accepted(run, tmp_path):
    with pytest.raises(ValueError, match="unknown reward 'nope'.*binary"):
        evaluate(run, ["nope"])
    with pytest.raises(ValueError, match="no option 'price'"):
        evaluate(run, [{"name": "step_cost", "price": 1}])
    with pytest.raises(EvalError, match="threshold"):
        evaluate(run, ["binary"], threshold=float("nan"))
    with pytest.raises(EvalError, match="workers"):
        evaluate(run, ["binary"], workers=0)
    (tmp_path / "empty").mkdir()
    with pytest.raises(EvalError, match="no complete trajectory"):
        evaluate(tmp_path / "empty")
    with pytest.raises(FileNotFoundError):
        evaluate(tmp_path / "missing")


# -- a judge through the scripted server -----------------------------------------------------------------------
def test_a_judge_fooled_by_bright_screens_gets_the_f1_computed_by_hand(run):
    bench = _benchmark()
    with ScriptedChatServer(bench.bright_screen_judge) as server:
        result = evaluate(run, {"judge": bright_judge(server)})
        assert len(server.requests) == 10
    [row] = result["rewards"]
    # successes O1-O3 bright (tp), O4 dark (fn); the adversary's bright screen (fp); the rest dark (tn)
    assert counts(row["overall"]) == (3, 1, 1, 5)
    assert row["overall"]["precision"] == 0.75 and row["overall"]["recall"] == 0.75 and row["overall"]["f1"] == 0.75
    assert row["overall"]["accuracy"] == pytest.approx(0.8)
    assert counts(row["by_agent"]["adversary"]) == (0, 1, 0, 1) and counts(row["by_agent"]["oracle"]) == (3, 0, 1, 0)
    assert counts(row["by_suite"]["browser"]) == (2, 1, 0, 2) and counts(row["by_suite"]["computer"]) == (1, 0, 1, 3)
    assert row["mean_on_success"] == 0.75 and row["mean_on_failure"] == pytest.approx(1 / 6)
    assert row["fallbacks"] == 0 and "without_fallbacks" not in row and row["seconds_per_episode"] > 0


def test_judge_fallbacks_are_counted_and_the_agreement_without_them_given(run):
    bench = _benchmark()
    with ScriptedChatServer(bench.bright_screen_judge) as server:
        server.fail_next(2, status=500)          # the first two episodes (sorted by folder) fall back
        result = evaluate(run, [bright_judge(server)])
    [row] = result["rewards"]
    first_two = [e["episode"] for e in result["episode_values"][:2]]
    assert row["fallbacks"] == 2 and len(row["fallback_errors"]) == 2
    assert all(m.split(":")[0] in first_two and "500" in m for m in row["fallback_errors"])
    assert row["without_fallbacks"]["n"] == 8 and row["overall"]["n"] == 10


def test_judging_on_several_workers_gives_the_same_table(run):
    bench = _benchmark()
    with ScriptedChatServer(bench.bright_screen_judge) as server:
        one = evaluate(run, [bright_judge(server), "partial"], workers=1)
        three = evaluate(run, [bright_judge(server), "partial"], workers=3)
    assert one["episode_values"] == three["episode_values"]
    assert [r["overall"] for r in one["rewards"]] == [r["overall"] for r in three["rewards"]]


# -- the command -----------------------------------------------------------------------------------------------
def test_the_command_prints_the_table_and_writes_json_and_markdown(run, tmp_path, capsys):
    out, md = tmp_path / "o" / "agreement.json", tmp_path / "o" / "agreement.md"
    assert main([str(run), "--json", str(out), "--markdown", str(md)]) == 0
    printed = capsys.readouterr().out
    assert "| binary" in printed and "| partial" in printed and "| step_cost" in printed and "By agent:" in printed
    assert md.read_text() == printed
    saved = json.loads(out.read_text())
    assert [r["reward"] for r in saved["rewards"]] == ["binary", "partial", "step_cost"]
    assert counts(saved["rewards"][1]["overall"]) == (4, 1, 0, 5)
    assert main([str(run), "--reward", "partial", "--threshold", "0.9", "--reward-json",
                 '{"name": "step_cost", "cost": 0.2}', "--json", str(out)]) == 0
    saved = json.loads(out.read_text())
    assert [(r["reward"], counts(r["overall"])) for r in saved["rewards"]] == [
        ("partial", (4, 0, 0, 6)), ("step_cost(cost=0.2)", (0, 0, 4, 6))]


def test_the_command_adds_the_judge_from_its_url_and_keeps_its_key_out_of_the_output(run, tmp_path, capsys,
                                                                                   monkeypatch):
    bench = _benchmark()
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-key")
    out = tmp_path / "j.json"
    with ScriptedChatServer(bench.bright_screen_judge) as server:
        assert main([str(run), "--base-url", server.base_url, "--model", server.model, "--frames", "1",
                     "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    saved = json.loads(out.read_text())
    assert [r["reward"] for r in saved["rewards"]] == ["binary", "partial", "step_cost", "judge(model=scripted, frames=1)"]
    assert saved["rewards"][3]["overall"]["f1"] == 0.75
    assert "sk-secret" not in printed and "sk-secret" not in out.read_text()


def test_the_command_exits_2_on_bad_input_and_says_what_is_accepted(run, tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    cases = [([str(tmp_path / "empty")], "no complete trajectory"),
             ([str(run), "--reward", "nope"], "registered: binary"),
             ([str(run), "--reward", "judge"], "--base-url"),
             ([str(run), "--base-url", "http://127.0.0.1:9/v1"], "both --base-url and --model"),
             ([str(run), "--reward-json", "{nope"], "not JSON"),
             ([str(run), "--reward-json", '["binary"]'], "an object with 'name'"),
             ([str(run), "--threshold", "nan"], "threshold")]
    for argv, said in cases:
        assert main(argv) == 2, argv
        assert said in capsys.readouterr().err, argv


def test_hostile_text_in_a_run_is_escaped_in_the_table(tmp_path, capsys):
    run = record(tmp_path / "h", [Episode("evil\x1b[2J|agent\u202e", "browser", 0, True, 2, True, 3, BRIGHT)])
    assert main([str(run), "--reward", "binary"]) == 0
    printed = capsys.readouterr().out
    assert "\x1b" not in printed and "\u202e" not in printed and "evil\\x1b[2J\\|agent\\u202e" in printed


# -- the figure's script ---------------------------------------------------------------------------------------
def test_the_benchmark_writes_every_builtin_reward_and_the_judge(run, tmp_path):
    bench = _benchmark()
    out, md = tmp_path / "ra.json", tmp_path / "ra.md"
    assert bench.main([str(run), "--out", str(out), "--markdown", str(md), "--workers", "1"]) == 0
    saved = json.loads(out.read_text())
    assert [(r["reward"], r["threshold"]) for r in saved["rewards"]] == [
        ("binary", 0.5), ("partial", 0.5), ("partial", 0.9), ("step_cost", 0.5), ("judge (bright screen)", 0.5)]
    assert saved["rewards"][2]["overall"]["fp"] == 0 and saved["rewards"][4]["overall"]["f1"] == 0.75
    assert saved["judge_requests"] == 10 and saved["partial_mismatches"] == []
    assert saved["command"].startswith("python benchmarks/reward_agreement.py") and md.read_text().startswith("<!--")
