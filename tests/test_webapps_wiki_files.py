"""Veloripedia (corpus, search engine, pages), Driveshare (backend API), their checkers, and browser downloads landing in the workspace."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

import pytest

from hybridgym.reward.research import downloaded, records_changed_only, workspace_unchanged
from hybridgym.sandbox import AppServer, Request
from hybridgym.tasks import TASKS, Outcome
from hybridgym.tasks.webapps import files as drive_app
from hybridgym.tasks.webapps import wiki


# -- corpus --------------------------------------------------------------------------------
def test_corpus_has_at_least_500_linked_articles_and_is_rebuilt_identically():
    a, b = wiki.build_corpus(wiki.CORPUS_SEED), wiki.build_corpus(wiki.CORPUS_SEED)
    assert len(a) >= 500
    assert [wiki.to_markdown(x) for x in a.articles.values()] == [wiki.to_markdown(x) for x in b.articles.values()]
    assert wiki.build_corpus(wiki.CORPUS_SEED + 1).articles.keys() != a.articles.keys()
    for art in a.articles.values():
        targets = [s for _, _, s in art.infobox if s] + re.findall(r"\[\[([a-z0-9-]+)\|", " ".join(art.paragraphs))
        assert targets, f"{art.slug} links nowhere"
        assert all(t in a.articles for t in targets), f"{art.slug} links to a missing article"


def test_markdown_export_has_one_file_per_article_and_an_index(tmp_path):
    n = wiki.write_markdown(tmp_path / "corpus")
    c = wiki.corpus()
    assert n == len(c) == len(list((tmp_path / "corpus").glob("*.md")))
    index = (tmp_path / "corpus" / "index.tsv").read_text().splitlines()
    assert index[0] == "slug\ttitle\tkind" and len(index) == len(c) + 1
    slug = c.by_kind["company"][0]
    md = (tmp_path / "corpus" / f"{slug}.md").read_text()
    founder = c.facts[slug]["founder"]
    assert f"Founder: [{c.articles[founder].title}]({founder}.md)" in md


# -- search ---------------------------------------------------------------------------------
def test_search_puts_the_article_with_the_exact_title_first():
    c = wiki.corpus()
    for kind in ("company", "person", "city", "river", "event"):
        for slug in c.by_kind[kind][:5]:
            assert c.search(c.articles[slug].title)[0][0] == slug


def test_search_ranks_articles_that_mention_the_terms_by_bm25():
    c = wiki.corpus()
    linked = 0
    for company in c.by_kind["company"]:
        hits = [s for s, _ in c.search(c.articles[company].title + " company")]   # no exact-title bonus
        assert hits[0] == company
        linked += {c.facts[company]["founder"], c.facts[company]["ceo"]} <= set(hits[:6])
    # the founder's and the CEO's pages name the company, so they rank near the top
    assert linked >= 0.9 * len(c.by_kind["company"])
    # a rare word weighs more than a common one
    assert c.index.idf("shipbuilding") > c.index.idf("city")
    assert c.search("zzzz-no-such-word") == []


def test_search_results_page_paginates_with_snippets():
    handle = wiki.Veloripedia().load(0)
    page1 = handle(Request("GET", "search", {"q": ["river"]}, {})).payload().decode()
    page2 = handle(Request("GET", "search", {"q": ["river"], "page": ["2"]}, {})).payload().decode()
    total = int(re.search(r'id="count">(\d+) results', page1).group(1))
    assert total > wiki.PAGE_SIZE
    first = re.findall(r'class="rtitle" href="/wiki/a/([a-z0-9-]+)"', page1)
    second = re.findall(r'class="rtitle" href="/wiki/a/([a-z0-9-]+)"', page2)
    assert len(first) == wiki.PAGE_SIZE and second and not set(first) & set(second)
    assert "<b>River</b>" in page1 or "<b>river</b>" in page1
    api = json.loads(handle(Request("GET", "api/search", {"q": ["river"]}, {})).payload())
    assert [r["slug"] for r in api["results"][:wiki.PAGE_SIZE]] == first


def test_wiki_serves_articles_categories_lists_and_random_redirects():
    handle = wiki.Veloripedia().load(0)
    c = wiki.corpus()
    slug = c.by_kind["city"][0]
    art = handle(Request("GET", f"a/{slug}", {}, {}))
    assert art.status == 200 and f'<h1 id="title">{c.articles[slug].title}</h1>' in art.payload().decode()
    assert handle(Request("GET", "a/no-such-page", {}, {})).status == 404
    cat = handle(Request("GET", "category/cities", {}, {})).payload().decode()
    assert f"This category contains {len(c.by_kind['city'])} pages" in cat
    lst = handle(Request("GET", "list/city", {"sort": ["Population"], "dir": ["desc"]}, {})).payload().decode()
    biggest = max(c.by_kind["city"], key=lambda s: c.facts[s]["population"])
    assert re.search(r"<tbody><tr><td><a href=\"/wiki/a/([a-z0-9-]+)\"", lst).group(1) == biggest
    rnd = handle(Request("GET", "random", {}, {}))
    assert rnd.status == 302 and rnd.headers["Location"].split("/")[-1] in c.articles


# -- questions: the truth is what the pages say ---------------------------------------------------
def _walk_markdown(files: dict[str, str], start: str, ops: list) -> list[str]:
    text, values = files[f"{start}.md"], []
    for op, label in ops:
        line = re.search(rf"^{re.escape(label)}: (.*)$", text, re.M).group(1)
        if op == "read":
            values.append(re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", line))
        else:
            text = files[re.search(r"\]\(([^)]+)\)", line).group(1)]
    return values


@pytest.mark.parametrize("task_id", sorted(t for t in TASKS if t.startswith("browser.research-") and "-sdk" not in t))
def test_question_truth_equals_what_the_pages_say(task_id):
    task = TASKS[task_id]
    for seed in (*range(4), *range(1000, 1004)):
        p = task.draw(seed)
        files = wiki._markdown_files(p["split"])
        assert len({s for s, _ in p["walks"]} | {op[1] for _, ops in p["walks"] for op in ops if op[0] == "follow"}) >= 1
        hops = sum(1 for _, ops in p["walks"] for op in ops if op[0] == "follow") + len(p["walks"])
        assert hops >= 2, "a question must need at least two articles"
        values = [v for s, ops in p["walks"] for v in _walk_markdown(files, s, ops)]
        assert task.check({}, p, Outcome(task.question.combine(values), finished=True), {}).success, (seed, p)


# -- checkers ----------------------------------------------------------------------------------------
def test_the_test_split_has_its_own_corpus_with_no_shared_names():
    train, test = wiki.corpus("train"), wiki.corpus("test")
    assert len(test) >= 500
    assert not {a.title for a in train.articles.values()} & {a.title for a in test.articles.values()}
    handle = wiki.Veloripedia().load(0, split="test")
    slug = test.by_kind["company"][0]
    assert test.articles[slug].title in handle(Request("GET", f"a/{slug}", {}, {})).payload().decode()
    assert handle(Request("GET", f"a/{train.by_kind['company'][0]}", {}, {})).status == 404


def _research(task_id: str, seed: int):
    task = TASKS[task_id]
    return task, task.draw(seed)


def _ok(task, p, answer) -> bool:
    return task.check({}, p, Outcome(answer, finished=True), {}).success


@pytest.mark.parametrize("seed", [3, 1003])
def test_research_answers_pass_in_natural_forms_and_cheats_fail(seed):
    task, p = _research("browser.research-hometown-river-length-v1", seed)
    km = p["truth"]
    assert _ok(task, p, f"{km:,} km") and _ok(task, p, str(km)) and _ok(task, p, f"The river is {km} km long.")
    assert not _ok(task, p, str(km * 10)) and not _ok(task, p, f"{km} or {km + 1}")
    everything = ", ".join(str(v) for v in range(40, 1401, 7))
    assert not _ok(task, p, everything)
    task, p = _research("browser.research-hq-mayor-v1", seed)
    c = wiki.corpus(p["split"])
    assert _ok(task, p, p["truth"]) and _ok(task, p, f"the {p['truth'].upper()}.")
    assert not _ok(task, p, " or ".join(c.facts[s]["title"] for s in c.by_kind["person"][:60] + [p["walks"][0][0]]))
    assert not _ok(task, p, p["truth"] + " and " + c.facts[c.by_kind["person"][0]]["title"])
    assert not _ok(task, p, None) and not _ok(task, p, "  ")


def test_the_most_common_research_answer_fails_where_it_is_wrong():
    from collections import Counter
    task = TASKS["browser.research-hq-currency-v1"]
    draws = [task.draw(s) for s in range(1000, 1200)]
    top = Counter(task.expected_answer(p).key() for p in draws).most_common(1)[0][0]
    wrong = next(p for p in draws if task.expected_answer(p).key() != top)
    assert not _ok(task, wrong, top) and _ok(task, wrong, wrong["truth"])


def test_wiki_list_answer_is_one_company_name():
    task = TASKS["browser.wiki-list-largest-v1"]
    p = task.draw(1001)
    c = wiki.corpus(p["split"])
    assert p["split"] == "test" and _ok(task, p, p["truth"])
    same = [c.facts[s]["title"] for s in c.by_kind["company"] if c.facts[s]["industry"] == p["industry"]]
    assert not _ok(task, p, "\n".join(same)) and not _ok(task, p, ", ".join(same))


def test_downloaded_wants_exactly_the_asked_file():
    assert downloaded({"Downloads/a.csv": b"x"}, "a.csv", b"x").success
    assert not downloaded({"Downloads/a.csv": b"x", "Downloads/a (1).csv": b"x"}, "a.csv", b"x").success
    assert not downloaded({"Downloads/a.csv": b"x", "Downloads/b.csv": b"y"}, "a.csv", b"x").success
    assert not downloaded({"Downloads/a (1).csv": b"x"}, "a.csv", b"x").success
    assert not downloaded({"Downloads/a.csv": b"y"}, "a.csv", b"x").success
    assert not downloaded({"a.csv": b"x"}, "a.csv", b"x").success
    assert not downloaded({"Downloads/ba.csv": b"x"}, "a.csv", b"x").success
    assert workspace_unchanged({"x.txt": b"1"}, {"x.txt": b"1", "Downloads/a": b""}).success
    assert not workspace_unchanged({"x.txt": b"1"}, {"x.txt": b"2"}).success
    assert not workspace_unchanged({}, {"out.csv": b"1"}).success


def _files_state(task, p, downloads=(), workspace=None, records=None):
    store = drive_app.Driveshare().load(p["drive"], split=p["split"]).state()
    base = {"records": store, "downloads": {}, "workspace": {}}
    after = {"records": records or store,
             "downloads": {f"Downloads/{f.name}": f.data for f in downloads},
             "workspace": workspace or {}}
    return base, after


@pytest.mark.parametrize("seed", [2, 1002])
def test_files_download_refuses_extra_downloads_and_workspace_changes(seed):
    task = TASKS["browser.files-download-v1"]
    p = task.draw(seed)
    f = task.target(p)
    d = task.drive(p)
    base, good = _files_state(task, p, [f])
    assert task.check(good, p, Outcome(None, finished=True), base).success
    others = [g for g in d.files if g.folder != 5]
    _, everything = _files_state(task, p, others)
    assert not task.check(everything, p, Outcome(None, finished=True), base).success
    _, twice = _files_state(task, p, [f])
    stem, ext = f.name.rsplit(".", 1)
    twice["downloads"][f"Downloads/{stem} (1).{ext}"] = f.data
    assert not task.check(twice, p, Outcome(None, finished=True), base).success
    _, dirty = _files_state(task, p, [f], workspace={"notes.txt": b"x"})
    assert not task.check(dirty, p, Outcome(None, finished=True), base).success


@pytest.mark.parametrize("seed", [4, 1004])
def test_files_csv_total_needs_the_total_to_the_cent_and_one_number(seed):
    task = TASKS["browser.files-csv-total-sdk-v1"]
    p = task.draw(seed)
    f = task.target(p)
    total = f.facts["total"]
    base, good = _files_state(task, p, [f])
    def ok(answer):
        return task.check(good, p, Outcome(answer, finished=True), base).success
    assert ok(f"{total:.2f}") and ok(f"{total:,.2f}") and ok(f"The total is {total:.2f}")
    assert not ok(f"{total + 0.01:.2f}") and not ok(f"{total * 10:.2f}") and not ok(f"€{total:.2f}")
    assert not ok(f"{total:.2f} or {total + 1:.2f}") and not ok(f"{round(total)}")


@pytest.mark.parametrize("seed", [1, 1001])
def test_files_answers_zip_setting_and_door_code(seed):
    task = TASKS["browser.files-zip-config-sdk-v1"]
    p = task.draw(seed)
    f = task.target(p)
    value = f.facts["config"][p["key"]]
    base, good = _files_state(task, p, [f])
    assert task.check(good, p, Outcome(str(value), finished=True), base).success
    assert not task.check(good, p, Outcome(json.dumps(f.facts["config"]), finished=True), base).success
    task = TASKS["browser.files-notes-code-v1"]
    p = task.draw(seed)
    code = task.target(p).facts["code"]
    base, good = _files_state(task, p)
    assert task.check(good, p, Outcome(f"The code is {code}.", finished=True), base).success
    assert not task.check(good, p, Outcome(str(code * 10), finished=True), base).success
    codes = " ".join(str(g.facts["code"]) for g in task.drive(p).files if "code" in g.facts)
    assert not task.check(good, p, Outcome(codes, finished=True), base).success
    _, downloaded_too = _files_state(task, p, [task.target(p)])
    assert not task.check(downloaded_too, p, Outcome(str(code), finished=True), base).success


def test_files_move_by_owner_month_refuses_moving_every_file():
    task = TASKS["browser.files-move-by-owner-month-v1"]
    p = task.draw(1000)
    base, _ = _files_state(task, p)
    d = task.drive(p)
    asked = {drive_app.file_id(d, d.files[k]) for k in p["files"]}
    def moved(ids):
        return [{**r, "folder": p["dest"] + 1} if r["id"] in ids else r for r in base["records"]["files"]]
    good = {**base, "records": {**base["records"], "files": moved(asked)}}
    assert task.check(good, p, Outcome(None, finished=True), base).success
    archive = {r["id"] for r in base["records"]["files"] if r["folder"] == 6}
    greedy = {**base, "records": {**base["records"], "files": moved(archive)}}
    assert not task.check(greedy, p, Outcome(None, finished=True), base).success


def test_split_drives_share_no_file_owner_or_year():
    train = [drive_app.drive(s, "train") for s in range(20)]
    test = [drive_app.drive(s, "test") for s in range(20)]
    names = lambda ds: {f.name for d in ds for f in d.files}   # noqa: E731
    owners = lambda ds: {f.owner for d in ds for f in d.files} - {"me"}   # noqa: E731
    assert not names(train) & names(test) and not owners(train) & owners(test)
    assert {f.modified[:4] for d in test for f in d.files} == {"2027"}


def test_records_changed_only_refuses_extra_changes():
    before = [{"id": 1, "name": "a", "folder": 2}, {"id": 2, "name": "b", "folder": 2}]
    assert records_changed_only(before, [{"id": 1, "name": "z", "folder": 2}, before[1]], 1, {"name": "z"}).success
    assert not records_changed_only(before, [{"id": 1, "name": "z", "folder": 3}, before[1]], 1, {"name": "z"}).success
    assert not records_changed_only(before, [{"id": 1, "name": "z", "folder": 2}, {"id": 2, "name": "c", "folder": 2}],
                                    1, {"name": "z"}).success
    assert not records_changed_only(before, [{"id": 1, "name": "z", "folder": 2}], 1, {"name": "z"}).success
    assert not records_changed_only(before, before, 1, {"name": "z"}).success


# -- Driveshare backend --------------------------------------------------------------------------
@pytest.fixture
def drive_server(tmp_path):
    server = AppServer(tmp_path)
    server.install(drive_app.Driveshare.prefix, drive_app.Driveshare).load(42)
    yield server, drive_app.drive(42)
    server.close()


def _call(server, path, body=None):
    req = urllib.request.Request(server.url("/files/api/" + path), method="POST" if body is not None else "GET",
                                 data=json.dumps(body).encode() if body is not None else None)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def test_drive_is_generated_from_the_seed():
    a, b = drive_app.drive(42), drive_app.drive(42)
    assert [(f.name, f.data) for f in a.files] == [(f.name, f.data) for f in b.files]
    assert [f.name for f in drive_app.drive(43).files] != [f.name for f in a.files]
    assert {f.kind for f in a.files} >= {"csv", "txt", "json", "zip", "pdf"}
    assert sum(1 for f in a.files if f.folder == 5) > drive_app.PAGE * 2


def test_drive_api_lists_previews_and_downloads(drive_server):
    server, d = drive_server
    status, _, body = _call(server, "list?folder=2")
    listing = json.loads(body)
    assert status == 200 and [p["name"] for p in listing["path"]] == ["My Drive", "Reports"]
    csv_file = next(f for f in d.files if f.kind == "csv" and f.folder == 1)
    fid = drive_app.file_id(d, csv_file)
    info = json.loads(_call(server, f"file/{fid}")[2])
    assert info["name"] == csv_file.name and info["preview"]["total_rows"] == csv_file.facts["rows"]
    assert len(info["preview"]["rows"]) == 20
    status, headers, data = _call(server, f"download/{fid}")
    assert data == csv_file.data and f'filename="{csv_file.name}"' in headers["Content-Disposition"]
    z = next(f for f in d.files if f.kind == "zip")
    entries = json.loads(_call(server, f"file/{drive_app.file_id(d, z)}")[2])["preview"]["entries"]
    assert "config/settings.json" in [e["name"] for e in entries]


def test_drive_api_validates_rename_move_and_share(drive_server):
    server, d = drive_server
    reports = [f for f in d.files if f.folder == 1]
    a, b = drive_app.file_id(d, reports[0]), reports[1].name
    assert _call(server, f"rename/{a}", {"name": b})[0] == 409
    assert _call(server, f"rename/{a}", {"name": "  "})[0] == 400
    assert _call(server, f"rename/{a}", {"name": "renamed.csv"})[0] == 200
    assert _call(server, f"move/{a}", {"folder": 99})[0] == 404
    assert _call(server, f"move/{a}", {"folder": 6})[0] == 200
    assert _call(server, f"share/{a}", {"email": "not-an-email", "role": "editor"})[0] == 400
    assert _call(server, f"share/{a}", {"email": "x@y.example", "role": "owner"})[0] == 400
    assert _call(server, f"share/{a}", {"email": "x@y.example", "role": "editor"})[0] == 201
    assert _call(server, f"share/{a}", {"email": "x@y.example", "role": "viewer"})[0] == 409
    assert _call(server, f"trash/{a}", {})[0] == 200
    snap = server.install(drive_app.Driveshare.prefix, drive_app.Driveshare).state()
    rec = next(r for r in snap["files"] if r["id"] == a)
    assert (rec["name"], rec["folder"], rec["trashed"]) == ("renamed.csv", 6, True)
    assert snap["shares"][0]["file"] == a and snap["shares"][0]["role"] == "editor"
    assert a not in [r["id"] for r in json.loads(_call(server, "list?folder=6")[2])["files"]]


# -- downloads reach the workspace (real Chromium) -------------------------------------------------
def test_a_file_downloaded_in_the_browser_is_visible_to_the_sdk_terminal(suite_env):
    env = suite_env("browser").unwrapped
    env.reset(seed=5, options={"task": "browser.files-csv-total-sdk-v1"})
    sb, params = env.sandbox, env.episode.params
    task = env.episode.task
    target = task.target(params)
    for action in task._download(sb, params):
        env.step(action)
    obs, *_ = env.step({"action_type": "terminal", "command": f"wc -c < ~/Downloads/{target.name}"})
    assert obs["sdk_output"].strip() == str(len(target.data))
    # a new episode starts with an empty workspace, and downloads still land there
    env.reset(seed=6, options={"task": "browser.files-download-v1"})
    assert not (env.sandbox.workspace.root / "Downloads" / target.name).exists()
    task, params = env.episode.task, env.episode.params
    for action in task._download(env.sandbox, params):
        env.step(action)
    assert (env.sandbox.workspace.root / "Downloads" / task.target(params).name).read_bytes() == task.target(params).data


def test_a_share_link_opens_a_page_with_the_file_and_a_download(drive_server):
    server, d = drive_server
    f = d.files[0]
    fid = drive_app.file_id(d, f)
    share = json.loads(_call(server, f"share/{fid}", {"email": "x@y.example", "role": "viewer"})[2])
    with urllib.request.urlopen(server.url(share["link"])) as r:
        page = r.read().decode()
    assert f.name in page and f"/files/api/download/{fid}" in page and "can view" in page
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(server.url("/files/s/000000000000"))


def test_search_box_suggestions_put_title_prefix_matches_first():
    c = wiki.corpus()
    got = [r["title"] for r in wiki.suggest(c, "ash")]
    starts = sorted(a.title for a in c.articles.values() if a.title.lower().startswith("ash"))
    assert got == starts[:8] and len(got) == 8
    river = [r["title"] for r in wiki.suggest(c, "river", limit=50)]
    assert river and all(" river" in f" {t.lower()}" for t in river)
    assert wiki.suggest(c, "   ") == []
