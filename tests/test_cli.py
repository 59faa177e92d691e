"""The hybridgym command: list, bench (JSON lines and a table); run and bench --record: tests/test_trajectory.py."""

from __future__ import annotations

import json

from hybridgym.cli import main


def test_list_shows_every_suite(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for suite in ("computer", "browser", "mobile", "game"):
        assert f"{suite} (" in out
    assert "hybridgym/browser.todo-add-v0" in out


def test_bench_writes_json_lines_and_a_table(tmp_path, capsys):
    out = tmp_path / "bench.jsonl"
    assert main(["bench", "--suite", "browser", "--task", "browser.todo-add-v0", "--agent", "oracle,noop",
                 "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["agent"] for r in rows} == {"oracle", "noop"}
    for r in rows:
        for key in ("task_id", "suite", "agent", "seed", "success", "reward", "steps", "wall_s"):
            assert key in r
    assert all(r["success"] for r in rows if r["agent"] == "oracle")
    assert not any(r["success"] for r in rows if r["agent"] == "noop")
    table = capsys.readouterr().out
    assert "browser.todo-add-v0" in table and "100%" in table


def test_bench_rejects_an_unknown_suite(capsys):
    assert main(["bench", "--suite", "nope"]) == 2
    assert "unknown suite" in capsys.readouterr().err
