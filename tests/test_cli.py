"""The hybridgym command: list, run (screenshots saved), bench (JSON lines and a table)."""

from __future__ import annotations

import json

from hybridgym.cli import main


def test_list_shows_every_suite(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for suite in ("computer", "browser", "mobile", "game"):
        assert f"{suite} (" in out
    assert "hybridgym/browser.todo-add-v0" in out


def test_run_saves_a_png_per_step(tmp_path, capsys):
    assert main(["run", "--task", "computer.find-order-total-v1", "--agent", "oracle", "--out", str(tmp_path)]) == 0
    pngs = sorted(p.name for p in tmp_path.glob("*.png"))
    assert "step-001.png" in pngs and "final.png" in pngs
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["success"] is True


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
