"""The HTML report of a run (`hybridgym.report`): its aggregates are `hybridgym.scores`' with their intervals,
every episode has its page with the screen each step saw and its actions drawn over it, agent text is shown
as text (no script of an adversary runs), and the pages work in a real Chromium from file://."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from hybridgym.actions import Click, Drag, Finished, Scroll, Terminal, TypeText
from hybridgym.report import describe, main, overlay, write_report
from hybridgym.scores import mean_ci, wilson
from hybridgym.trajectory import Recorder, Trajectory
from tests import gamejs
from tests.gamejs import NEEDS_CHROMIUM

browser = gamejs.browser        # the fixture: one headless Chromium for the module

W, H = 320, 200
XSS = ['<script>window.pwned=1</script>', '<img src=x onerror="window.pwned=1">', '"><svg onload="window.pwned=1">']


def frame(k: int) -> np.ndarray:
    """A synthetic screenshot that differs per step: a coloured band that moves, on grey."""
    img = np.full((H, W, 3), 200, np.uint8)
    img[20 + 10 * k: 40 + 10 * k, :, :] = (40 * k % 255, 90, 160)
    return img


def record(run: Path, task: str, suite: str, agent: str, seed: int, steps: list[dict], outcome: str = "success",
           instruction: str = "Do the thing.", **result) -> Path:
    """One episode in `run`: `steps` are dicts of actions (typed `hybridgym.actions`), agent_output,
    sdk_output, action_error, same_frame; outcome "success", "failure" or "incomplete"."""
    recorder = Recorder(run)
    info = {"task_id": task, "suite": suite, "seed": seed, "max_steps": 10}
    writer = recorder.begin({"screenshot": frame(0), "instruction": instruction}, info, agent=agent,
                            settings={"env_id": f"hybridgym/{task}", "screen": [W, H]})
    for k, step in enumerate(steps, start=1):
        acts = [a.to_dict() for a in step["actions"]]
        last = k == len(steps) and outcome != "incomplete"
        obs = {"screenshot": frame(k - 1 if step.get("same_frame") else k), "sdk_output": step.get("sdk_output", "")}
        writer.step(acts[0] if len(acts) == 1 else acts, obs, float(last and outcome == "success"), last, False,
                    {"actions": acts, "success": last and outcome == "success", "message": step.get("message", ""),
                     "action_error": step.get("action_error")}, agent_output=step.get("agent_output"))
    if outcome == "incomplete":
        writer.abort()
    else:
        writer.end({"success": outcome == "success", "message": result.pop("message", f"{outcome} by the checker")},
                   **result)
    recorder.close()
    return writer.folder


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A run of 3 suites, 2 agents, several seeds: successes, failures, an episode that did not end, a click,
    a drag, typed text, a scroll, an SDK call, normalized scores of a game."""
    run = tmp_path_factory.mktemp("run")
    gui = [{"actions": [Click(100, 50)], "agent_output": "Thought: the title field.\nAction: click(100, 50)"},
           {"actions": [Drag(10, 20, 200, 150)]},
           {"actions": [TypeText("hello world")], "same_frame": True},
           {"actions": [Scroll("down", 160, 100, 3)]},
           {"actions": [Finished("done")]}]
    record(run, "browser.a-v0", "browser", "alpha", 0, gui)
    record(run, "browser.a-v0", "browser", "alpha", 1, gui[:2], "failure", message="0 records were added")
    record(run, "browser.a-v0", "browser", "beta", 0, gui[:1])
    record(run, "browser.a-v0", "browser", "beta", 1, gui[:1])
    sdk = [{"actions": [Terminal("wc -l data.csv")], "sdk_output": "42 data.csv\n"},
           {"actions": [Finished("42")]}]
    record(run, "computer.b-v0", "computer", "alpha", 0, sdk)
    record(run, "computer.b-v0", "computer", "alpha", 1, sdk[:1], "incomplete")
    record(run, "computer.b-v0", "computer", "beta", 0, [{"actions": [Click(5, 5)], "action_error": "no such key"}],
           "failure")
    for seed, norm in ((0, 40.0), (1, 60.0), (2, 80.0)):
        record(run, "game.c-v0", "game", "alpha", seed, gui[:1], "failure", score=seed, normalized_score=norm)
    return run


@pytest.fixture(scope="module")
def report(run, tmp_path_factory) -> Path:
    return write_report(run, tmp_path_factory.mktemp("report"), title="test run")


class Tables(HTMLParser):
    """The rows of an HTML page's tables: {data-kind: [(row attributes, [cell texts])]}, and its <img>s and
    <section>s (each section: the src of its images and its text)."""

    def __init__(self, text: str):
        super().__init__()
        self.tables: dict[str, list] = {}
        self.sections: list[dict] = []
        self._kind = self._row = self._cell = self._section = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self._kind = a.get("data-kind")
            self.tables.setdefault(self._kind, [])
        elif tag == "tr" and self._kind:
            self._row = (a, [])
            self.tables[self._kind].append(self._row)
        elif tag == "td" and self._row is not None:
            self._cell = []
        elif tag == "section":
            self._section = {"imgs": [], "text": []}
            self.sections.append(self._section)
        elif tag == "img" and self._section:
            self._section["imgs"].append(a.get("src"))

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            self._row[1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr":
            self._row = None
        elif tag == "table":
            self._kind = None
        elif tag == "section":
            self._section = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._section:
            self._section["text"].append(data)


def rows(page: Path, kind: str) -> list[tuple[dict, list[str]]]:
    return [r for r in Tables(page.read_text()).tables[kind] if "data-agent" in r[0]]


def rate_text(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]"


# -- the files -----------------------------------------------------------------------------------------------
def test_report_writes_index_and_one_page_per_episode(run, report):
    assert report.name == "index.html"
    pages = sorted(p.name for p in (report.parent / "episodes").glob("*.html"))
    assert pages == sorted(p.name + ".html" for p in run.iterdir())
    assert len(rows(report, "episodes")) == 10


def test_report_defaults_to_a_report_folder_in_the_run(tmp_path):
    record(tmp_path, "browser.a-v0", "browser", "alpha", 0, [{"actions": [Click(1, 2)]}])
    assert write_report(tmp_path) == tmp_path / "report" / "index.html"
    assert (tmp_path / "report" / "episodes" / "browser.a-v0__alpha__seed0.html").is_file()


def test_task_rates_are_wilson_intervals_of_the_seeds(report):
    by_task = {(c[0], c[1]): c for _, c in rows(report, "task")}
    # columns: task, agent, episodes, seeds, did not end, success [CI], normalized [CI], reward, steps
    assert by_task[("browser.a-v0", "alpha")][2:6] == ["2", "2", "0", rate_text(1, 2)]
    assert by_task[("browser.a-v0", "beta")][5] == rate_text(2, 2)
    assert by_task[("computer.b-v0", "alpha")][4] == "1"          # the episode that did not end, flagged
    assert by_task[("computer.b-v0", "alpha")][5] == rate_text(1, 2)   # ... and counted as a failure
    mean, lo, hi = mean_ci([40.0, 60.0, 80.0])
    assert by_task[("game.c-v0", "alpha")][6] == f"{mean:.1f} [{lo:.1f}, {hi:.1f}]"
    assert by_task[("game.c-v0", "alpha")][5] == rate_text(0, 3)


def test_agent_table_holds_overall_rows_and_per_suite_rows_for_the_filter(report):
    agent_rows = rows(report, "agent")
    overall = {c[0]: c for a, c in agent_rows if a["data-scope"] == "all"}
    assert overall["alpha"][1] == "7" and overall["alpha"][4] == rate_text(2, 7)
    assert overall["beta"][4] == rate_text(2, 3)
    in_browser = {c[0]: c for a, c in agent_rows if a["data-scope"] == "suite" and a["data-suite"] == "browser"}
    assert in_browser["alpha"][4] == rate_text(1, 2)
    suite_rows = {(c[0], c[1]): c for _, c in rows(report, "suite")}
    assert suite_rows[("computer", "alpha")][4] == "1"


def test_index_flags_the_episode_that_did_not_end(report):
    text = report.read_text()
    assert "1 of 10 episodes did not end" in text
    incomplete = [(a, c) for a, c in rows(report, "episodes") if a["data-outcome"] == "incomplete"]
    assert len(incomplete) == 1 and "did not end" in incomplete[0][1][5]
    page = report.parent / "episodes" / "computer.b-v0__alpha__seed1.html"
    assert "This episode did not end" in page.read_text()


def test_each_step_shows_the_screen_the_agent_saw(run, report):
    page = report.parent / "episodes" / "browser.a-v0__alpha__seed0.html"
    sections = Tables(page.read_text()).sections
    traj = Trajectory(run / "browser.a-v0__alpha__seed0")
    assert len(sections) == len(traj) == 5
    for k, section in enumerate(sections, start=1):
        (src,) = section["imgs"]
        assert (page.parent / src).resolve() == traj.frame_path(k - 1).resolve()
    # step 3 typed without changing the screen: step 4 saw the file of step 2 again
    assert sections[3]["imgs"] == sections[2]["imgs"]
    text = "".join(sections[0]["text"])
    assert "Action: click(100, 50)" in text and "click (100, 50)" in text


def test_episode_page_shows_sdk_output_errors_and_result(report):
    page = (report.parent / "episodes" / "computer.b-v0__alpha__seed0.html").read_text()
    assert "SDK output" in page and "42 data.csv" in page and "terminal $ wc -l data.csv" in page
    failed = (report.parent / "episodes" / "computer.b-v0__beta__seed0.html").read_text()
    assert "Action error" in failed and "no such key" in failed and "failure by the checker" in failed


def test_overlay_draws_each_action_in_screen_pixels():
    svg = overlay([Click(100, 50).to_dict(), Drag(10, 20, 200, 150).to_dict(), TypeText("a<b").to_dict(),
                   Scroll("up", 160, 100, 2).to_dict(), Finished("x").to_dict()], W, H)
    assert f'viewBox="0 0 {W} {H}"' in svg
    assert 'class="act click" data-n="1" cx="100.0" cy="50.0"' in svg
    assert '<line x1="10.0" y1="20.0"' in svg and 'data-n="2" cx="10.0" cy="20.0"' in svg
    assert "3 type &quot;a&lt;b&quot;" in svg and "<b" not in svg
    assert "4 scroll up ×2" in svg
    assert 'data-n="5"' not in svg                     # finished is listed beside, not drawn


def test_describe_says_each_kind_of_action_in_words():
    assert describe(Drag(1, 2, 3, 4).to_dict()) == "drag (1, 2) → (3, 4)"
    assert describe(Scroll("down", 5, 6, 3).to_dict()) == "scroll down ×3 (5, 6)"
    assert describe({"action_type": "hotkey", "keys": ["ctrl", "s"]}) == "hotkey ctrl+s"
    assert describe({"action_type": "long_press", "x": 7, "y": 8, "duration": 1.5}) == "long press (7, 8) 1.5 s"
    assert describe({"action_type": "no_such", "q": 1}) == 'no_such {"q": 1}'


def test_two_runs_with_the_same_episode_names_get_distinct_pages(tmp_path):
    for sub in ("a", "b"):
        record(tmp_path / "runs" / sub, "browser.a-v0", "browser", "alpha", 0, [{"actions": [Click(1, 2)]}])
    index = write_report(tmp_path / "runs", tmp_path / "out")
    assert sorted(p.name for p in (index.parent / "episodes").iterdir()) == [
        "browser.a-v0__alpha__seed0-2.html", "browser.a-v0__alpha__seed0.html"]


def test_frame_named_outside_its_folder_is_refused_not_linked(tmp_path):
    folder = record(tmp_path / "run", "browser.a-v0", "browser", "alpha", 0,
                    [{"actions": [Click(1, 2)]}, {"actions": [Click(3, 4)]}])
    lines = [json.loads(line) for line in (folder / "steps.jsonl").read_text().splitlines()]
    lines[0]["frame"] = "../../../../etc/passwd"
    (folder / "steps.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    page = write_report(tmp_path / "run", tmp_path / "out").parent / "episodes" / "browser.a-v0__alpha__seed0.html"
    sections = Tables(page.read_text()).sections
    assert sections[0]["imgs"] and not sections[1]["imgs"]
    assert "screenshot refused" in "".join(sections[1]["text"]) and "etc/passwd" not in str(sections[1]["imgs"])


def test_report_groups_a_hand_edited_header_of_odd_types(tmp_path):
    folder = record(tmp_path / "run", "browser.a-v0", "browser", "alpha", 0, [{"actions": [Click(1, 2)]}])
    header = json.loads((folder / "episode.json").read_text())
    header.update(task_id=["a", "list"], agent={"name": 1}, seed=[0])
    (folder / "episode.json").write_text(json.dumps(header))
    index = write_report(tmp_path / "run", tmp_path / "out")
    ((_, cells),) = rows(index, "task")
    assert cells[:2] == ['["a", "list"]', '{"name": 1}']


def test_main_prints_the_index_and_exits_2_without_trajectories(run, tmp_path, capsys):
    assert main([str(run), "--out", str(tmp_path / "r"), "--title", "T"]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "r" / "index.html")
    (tmp_path / "empty").mkdir()
    assert main([str(tmp_path / "empty")]) == 2
    assert "holds no trajectories" in capsys.readouterr().err
    assert main([str(tmp_path / "missing")]) == 2
    assert "no such folder" in capsys.readouterr().err


# -- hostile agent text --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    """A report of an episode whose every agent-made text is markup that would run script if it were not
    escaped: raw output, typed text, SDK output, the answer, the agent's name, the checker's message."""
    run = tmp_path_factory.mktemp("hostile")
    payload = " ".join(XSS)
    record(run, 'browser.x-v0"><script>window.pwned=1</script>', "browser", payload, 0,
           [{"actions": [TypeText(payload)], "agent_output": payload, "sdk_output": payload,
             "message": payload},
            {"actions": [Terminal(payload)], "sdk_output": payload, "action_error": payload}],
           "failure", instruction=payload, message=payload, answer=payload)
    return write_report(run, tmp_path_factory.mktemp("hostile-report"), title=payload)


def test_report_escapes_agent_text(hostile):
    for page in [hostile, *(hostile.parent / "episodes").glob("*.html")]:
        text = page.read_text()
        for attack in ("<script>window", "<img src=x", "<svg onload"):
            assert attack not in text, (page.name, attack)
        assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in text


@NEEDS_CHROMIUM
def test_report_runs_no_agent_script_in_chromium(hostile, browser):
    page = browser.new_page()
    try:
        for url in [hostile.as_uri(), *(p.as_uri() for p in (hostile.parent / "episodes").glob("*.html"))]:
            page.goto(url)
            page.wait_for_load_state("load")
            assert page.evaluate("() => typeof window.pwned") == "undefined"
            assert page.evaluate("() => document.querySelectorAll('[onerror], [onload], img[src=x]').length") == 0
            body = page.inner_text("body")
            for attack in XSS:
                assert attack in body                   # shown, as text
        assert page.evaluate("() => document.scripts.length") == 0      # an episode page runs no script
        page.goto(hostile.as_uri())
        assert page.evaluate("() => document.scripts.length") == 1      # the index: its filter only
        assert page.locator("#f-agent option").all_inner_texts()[1] == " ".join(XSS)
    finally:
        page.close()


# -- in a browser ---------------------------------------------------------------------------------------------
def visible_rows(page, kind: str) -> int:
    return page.evaluate(f"""() => [...document.querySelectorAll('table[data-kind={kind}] tbody tr[data-agent]')]
                                   .filter(tr => tr.offsetParent !== null).length""")


def assert_png_not_blank(path: Path) -> None:
    from PIL import Image
    with Image.open(path) as img:
        assert img.format == "PNG"
        pixels = np.asarray(img.convert("RGB"))
    assert pixels.shape[0] > 200 and len(np.unique(pixels.reshape(-1, 3)[::37], axis=0)) > 20


@NEEDS_CHROMIUM
def test_index_filters_and_episode_overlay_in_chromium(report, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(report.as_uri())
        assert visible_rows(page, "episodes") == 10 and page.inner_text("#count") == "10 of 10 episodes shown"
        page.select_option("#f-agent", "beta")
        assert visible_rows(page, "episodes") == 3 and visible_rows(page, "task") == 2
        page.select_option("#f-outcome", "success")
        assert visible_rows(page, "episodes") == 2
        assert visible_rows(page, "agent") == 1 and visible_rows(page, "task") == 2    # rates ignore the outcome
        page.select_option("#f-agent", "")
        page.select_option("#f-outcome", "incomplete")
        assert visible_rows(page, "episodes") == 1
        page.select_option("#f-outcome", "")
        page.select_option("#f-suite", "game")
        assert visible_rows(page, "episodes") == 3 and visible_rows(page, "agent") == 1
        assert page.inner_text("#agent-scope") == "suite game"
        assert "suite=game" in page.url
        page.reload()                                   # the filters are kept in the address
        assert page.input_value("#f-suite") == "game" and visible_rows(page, "episodes") == 3
        page.click("#f-reset")
        page.screenshot(path=str(tmp_path / "index.png"), full_page=True)
        assert_png_not_blank(tmp_path / "index.png")

        page.click("table[data-kind=episodes] tr[data-agent=alpha][data-suite=browser] a >> nth=0")
        page.wait_for_load_state("load")
        assert page.url.endswith("/episodes/browser.a-v0__alpha__seed0.html")
        step = page.locator("section.step").first
        img, circle = step.locator("img"), step.locator("circle.act.click")
        assert img.evaluate("i => i.complete && i.naturalWidth") == W
        box, dot = img.bounding_box(), circle.bounding_box()
        scale = box["width"] / W
        assert abs(box["height"] / H - scale) < 0.01
        assert abs(dot["x"] + dot["width"] / 2 - (box["x"] + 100 * scale)) < 2
        assert abs(dot["y"] + dot["height"] / 2 - (box["y"] + 50 * scale)) < 2
        drag = page.locator("section.step >> nth=1").locator("circle.act.drag").bounding_box()
        assert abs(drag["x"] + drag["width"] / 2 - (box["x"] + 10 * scale)) < 2
        page.screenshot(path=str(tmp_path / "episode.png"), full_page=True)
        assert_png_not_blank(tmp_path / "episode.png")
        page.click("a[rel=next] >> nth=0")
        assert page.url.endswith("/episodes/browser.a-v0__alpha__seed1.html")
        page.click("text=↑ all episodes >> nth=0")
        assert page.url.split("#")[0].endswith("/index.html")
    finally:
        page.close()


@NEEDS_CHROMIUM
def test_the_report_of_a_real_oracle_episode_shows_its_screens_and_clicks(browser, suite_env, tmp_path):
    """A real episode (the browser oracle, recorded through RecordTrajectory): its page in Chromium loads every
    screenshot, draws a ring for each click at the click's place, and screenshots as a real page."""
    from hybridgym.agents import make_agent, run_episode
    from hybridgym.trajectory import RecordTrajectory
    env = suite_env("browser")
    env.unwrapped.set_action_format()
    rec = RecordTrajectory(env, tmp_path / "run", agent="oracle")
    try:
        run_episode(rec, make_agent("oracle"), 0, task="browser.todo-add-v0")
    finally:
        rec.recorder.close()             # not rec.close(): the session's env stays
    traj = Trajectory(rec.last_episode)
    clicks = [a for s in traj.steps for a in s["actions"] if a["action_type"] == "click"]
    index = write_report(tmp_path / "run")
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    try:
        page.goto(index.as_uri())
        page.click(f"a[href*='{traj.name}']")
        page.evaluate("() => document.querySelectorAll('img').forEach(i => { i.loading = 'eager'; })")
        page.wait_for_function("() => [...document.images].every(i => i.complete)")
        assert page.evaluate("() => [...document.images].every(i => i.naturalWidth === 1280)")
        assert page.locator("svg circle").count() >= len(clicks) >= 1
        page.screenshot(path=str(tmp_path / "episode.png"), full_page=True)
        assert_png_not_blank(tmp_path / "episode.png")
    finally:
        page.close()


def test_report_reads_a_run_without_decoding_its_frames(run, tmp_path, monkeypatch):
    """The report only needs each episode's header for its screen size: no frame is opened."""
    from PIL import Image
    opened = []
    monkeypatch.setattr(Image, "open", lambda *a, **k: opened.append(a) or (_ for _ in ()).throw(AssertionError))
    write_report(run, tmp_path / "r")
    assert opened == []
    assert json.loads((run / "browser.a-v0__alpha__seed0" / "episode.json").read_text())["screenshot_shape"] == [H, W, 3]
