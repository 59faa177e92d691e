"""Information-seeking browser tasks over Veloripedia (tasks/webapps/wiki.py): multi-hop questions, each in a GUI-only and a GUI+SDK variant.

## Description
Veloripedia is a generated encyclopedia of a fictional world (≥ 500 linked articles:
countries, cities, people, companies, rivers, universities, mountains, events) with a
search engine, infoboxes whose values link to other articles, categories and sortable
list pages. Every question needs facts from at least two articles (e.g. a company's
page for its founder, the founder's page for the birthplace, the city's page for the
population); one task reads a list page instead. In the `-sdk` variant the same
articles are also in the workspace as Markdown (`~/corpus/<slug>.md`,
`~/corpus/index.tsv`), since the SDK terminal has no network.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls); the
`-sdk` tasks also take `terminal` actions.

## Rewards
1.0 when the `finished(content=...)` answer matches the truth computed from the corpus's
structured facts, judged by `reward.answers.match_answer` (numbers: exactly one number,
exactly equal, separators and units allowed, no currency; names: the whole answer equals the
name, case and a leading article ignored, never a list or a longer text). Nothing is
written, so nothing else can change.

## Starting State
The question's entities are drawn from the reset seed: the answer first, uniformly from the
question's distinct answers, then an entity with that answer (no answer is common). A training
seed asks about the training corpus, a test seed about the test corpus (its own seed and the
other halves of the name pools: no entity of one is named like one of the other), which the
episode's server serves (and the `-sdk` variant writes); the page opens on the main page.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1: answers judged by `match_answer`; the test split has its own corpus (and 16 countries a
  corpus instead of 8); the answer is drawn uniformly from the distinct answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.answers import Answer, match_answer
from hybridgym.tasks.webapps import wiki

from .base import Outcome, Task, register_task
from .kit import actions as act
from .kit.data import split_of
from .kit.web import click, open_app

SDK_NOTE = (" The same encyclopedia is also available to the terminal as Markdown files in ~/corpus "
            "(one <slug>.md per article; ~/corpus/index.tsv lists slug, title and kind).")

#: one walk through the site: start at an article (found by search), then ("read", label) or ("follow", label)
Path = tuple[str, tuple[tuple[str, str], ...]]


@dataclass(frozen=True)
class Question:
    """A question template: `pick(rng, corpus)` -> (entities for the text, truth, numeric, walks),
    for the corpus of the draw's split."""
    name: str
    text: str
    pick: Callable
    combine: Callable[[list[str]], str] = lambda vals: vals[-1]


def _v(c: wiki.Corpus, slug: str, *path: str):
    """Follow fact keys from an article: `_v(c, s, "founder", "birthplace", "title")`; KeyError
    when the walk does not exist for this article (no spouse, no organizer, a town on no river)."""
    value = slug
    for key in path:
        value = c.facts[value][key]
    return value


def _choose(rng: np.random.Generator, items: list):
    return items[int(rng.integers(len(items)))]


def _num(text: str) -> int:
    return int(re.sub(r"[^\d]", "", text.split(" ")[0]))


def _by_truth(kind: str, truth: Callable[[wiki.Corpus, str], object]):
    """A pick over the articles of `kind` that balances the answers: the truth is drawn uniformly
    from the distinct truths first, then an article with that truth (so no answer is common).
    The groups are computed once per corpus (split)."""
    cache: dict[int, list] = {}

    def groups(c: wiki.Corpus) -> list:
        if id(c) not in cache:
            by: dict = {}
            for s in c.by_kind[kind]:
                try:
                    by.setdefault(truth(c, s), []).append(s)
                except KeyError:
                    continue
            cache[id(c)] = sorted(by.items(), key=lambda kv: str(kv[0]))
        return cache[id(c)]

    def pick(rng: np.random.Generator, c: wiki.Corpus) -> tuple:
        value, slugs = _choose(rng, groups(c))
        return value, _choose(rng, slugs)
    return pick


def _one(kind: str, walk: tuple, path: tuple[str, ...], numeric: bool):
    draw = _by_truth(kind, lambda c, s: _v(c, s, *path))

    def pick(rng, c):
        truth, s = draw(rng, c)
        return {"x": c.facts[s]["title"]}, truth, numeric, [(s, walk)]
    return pick


_age_draw = _by_truth("company", lambda c, s: c.facts[s]["founded"] - _v(c, s, "founder", "born"))


def _founder_age(rng, c):
    truth, s = _age_draw(rng, c)
    return ({"x": c.facts[s]["title"]}, truth, True,
            [(s, (("read", "Founded"), ("follow", "Founder"), ("read", "Born")))])


def _larger_hq(rng, c):
    cos = c.by_kind["company"]
    while True:
        a, b = _choose(rng, cos), _choose(rng, cos)
        if _v(c, a, "hq") != _v(c, b, "hq"):
            break
    big = max((a, b), key=lambda s: _v(c, s, "hq", "population"))
    walk = (("read", "Headquarters"), ("follow", "Headquarters"), ("read", "Population"))
    return {"x": c.facts[a]["title"], "y": c.facts[b]["title"]}, _v(c, big, "hq", "title"), False, [(a, walk), (b, walk)]


def _larger_of(vals: list[str]) -> str:
    (name_a, pop_a), (name_b, pop_b) = vals[0:2], vals[2:4]
    return name_a if _num(pop_a) >= _num(pop_b) else name_b


QUESTIONS = [
    Question("founder-hometown-population",
             "What is the population of the city where the founder of {x} was born?",
             _one("company", (("follow", "Founder"), ("follow", "Birthplace"), ("read", "Population")),
                  ("founder", "birthplace", "population"), True)),
    Question("hq-mayor", "Who is the mayor of the city where {x} has its headquarters?",
             _one("company", (("follow", "Headquarters"), ("read", "Mayor")), ("hq", "mayor", "title"), False)),
    Question("birth-country-capital", "What is the capital of the country in which {x} was born?",
             _one("person", (("follow", "Birthplace"), ("follow", "Country"), ("read", "Capital")),
                  ("birthplace", "country", "capital", "title"), False)),
    Question("hometown-river-length",
             "How long, in kilometres, is the river that flows through the birthplace of {x}?",
             _one("person", (("follow", "Birthplace"), ("follow", "River"), ("read", "Length")),
                  ("birthplace", "river", "length"), True)),
    Question("rector-birth-year", "In what year was the rector of {x} born?",
             _one("university", (("follow", "Rector"), ("read", "Born")), ("rector", "born"), True)),
    Question("event-city-founded", "In what year was the city where the {x} took place founded?",
             _one("event", (("follow", "Location"), ("read", "Founded")), ("location", "founded"), True)),
    Question("ceo-birthplace", "In which city was the CEO of {x} born?",
             _one("company", (("follow", "CEO"), ("read", "Birthplace")), ("ceo", "birthplace", "title"), False)),
    Question("university-city-elevation",
             "What is the elevation, in metres, of the city where {x} is located?",
             _one("university", (("follow", "City"), ("read", "Elevation")), ("city", "elevation"), True)),
    Question("founder-age", "How old was the founder of {x} in the year the company was founded "
             "(founding year minus birth year)?", _founder_age,
             lambda vals: str(int(vals[0]) - int(vals[1]))),
    Question("larger-hq-city", "{x} and {y} are headquartered in different cities. Which of those two "
             "cities has the larger population? Answer with the city's name.", _larger_hq, _larger_of),
    Question("river-mouth-country", "In which country is the city at the mouth of the {x}?",
             _one("river", (("follow", "Mouth"), ("read", "Country")), ("mouth", "country", "title"), False)),
    Question("spouse-birthplace", "In which city was the spouse of {x} born?",
             _one("person", (("follow", "Spouse"), ("read", "Birthplace")), ("spouse", "birthplace", "title"),
                  False)),
    Question("founder-university-city", "In which city is the university that the founder of {x} attended?",
             _one("company", (("follow", "Founder"), ("follow", "Alma mater"), ("read", "City")),
                  ("founder", "alma_mater", "city", "title"), False)),
    Question("hq-currency", "What is the currency of the country where {x} has its headquarters?",
             _one("company", (("follow", "Headquarters"), ("follow", "Country"), ("read", "Currency")),
                  ("hq", "country", "currency"), False)),
    Question("event-organizer-founder", "Who founded the company that organized the {x}?",
             _one("event", (("follow", "Organizer"), ("read", "Founder")), ("organizer", "founder", "title"), False)),
    Question("climber-hometown", "In which city was the person who made the first ascent of {x} born?",
             _one("mountain", (("follow", "First ascent"), ("read", "Birthplace")),
                  ("first_ascent", "birthplace", "title"), False)),
]


def _answer(truth, numeric: bool, context: str) -> Answer:
    """A research answer: a number read exactly (no unit or currency asked for; a number the
    question states is not counted), or a name as the article prints it."""
    if numeric:
        return Answer(truth, kind="number", rel_tol=0.0, currency=None, context=context)
    return Answer(str(truth), kind="text")


class ResearchTask(Task):
    """Answer a multi-hop question about the fictional world of Veloripedia, the encyclopedia
    served at /wiki/ (≥ 500 articles, a search box, infoboxes with linked values).

    The answer needs facts from two to four articles. Success: `finished(content=answer)`
    with the truth computed from the split's corpus, judged by `match_answer` (numbers:
    exactly one number, exactly equal; names: the whole answer is the name). Nothing is
    written, so nothing else can change. The GUI+SDK variant (`sdk = True`) also
    puts the corpus into `~/corpus/` as Markdown for the terminal.
    """

    suite = "browser"
    question: Question
    max_steps = 15

    def sample(self, rng: np.random.Generator) -> dict:
        split = split_of(rng)
        names, truth, numeric, walks = self.question.pick(rng, wiki.corpus(split))
        return {"split": split, "names": names, "truth": truth, "numeric": numeric,
                "walks": [[s, [list(op) for op in ops]] for s, ops in walks]}

    def instruction(self, params: dict) -> str:
        text = ("Using Veloripedia, the encyclopedia open in the browser, answer: "
                + self.question.text.format(**params["names"])
                + " Give only the answer with finished(content=...).")
        return text + (SDK_NOTE if self.sdk else "")

    def setup(self, sb, params: dict) -> None:
        if self.sdk:
            wiki.write_markdown(sb.workspace.root / "corpus", _split(params))
        _open_wiki(sb, seed=int(sum(map(ord, str(params["truth"])))), split=_split(params))

    def expected_answer(self, params: dict) -> Answer:
        return _answer(params["truth"], params["numeric"], self.instruction(params))

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return match_answer(outcome.answer, self.expected_answer(params))

    # -- oracles -----------------------------------------------------------------
    def oracle(self, sb, params: dict) -> Iterator[dict]:
        walk = self._sdk_walk if self.sdk else self._gui_walk
        values: list[str] = []
        for start, ops in params["walks"]:
            values += yield from walk(sb, params, start, ops)
        yield act.finish(self.question.combine(values))

    def _gui_walk(self, sb, params: dict, start: str, ops: list) -> Iterator[dict]:
        """Search for the start article, open it from the results, follow infobox links, read values."""
        page = sb.browser.page
        yield click(sb, "#q")
        yield act.keys("ctrl", "a")
        yield act.typed(wiki.corpus(_split(params)).facts[start]["title"] + "\n")
        page.wait_for_url(lambda url: "/wiki/search?" in url)
        yield click(sb, f'#results a.rtitle[href="/wiki/a/{start}"]')
        page.wait_for_url(lambda url: url.endswith(f"/wiki/a/{start}"))
        values = []
        for op, label in ops:
            row = f'#infobox tr[data-field="{wiki.slugify(label)}"]'
            if op == "read":
                values.append(page.locator(row + " td").inner_text().strip())
            else:
                target = page.locator(row + " a").get_attribute("href")
                yield act.click(*_link_point(sb, row + " a"))
                page.wait_for_url(lambda url: url.endswith(target))
        return values

    def _sdk_walk(self, sb, params: dict, start: str, ops: list) -> Iterator[dict]:
        """Find the start article's file with grep, then cat the files its fields link to."""
        title = wiki.corpus(_split(params)).facts[start]["title"]
        obs = yield act.terminal(f"grep -lx '# {title}' corpus/*.md")
        obs = yield act.terminal(f"cat {obs['sdk_output'].split()[0]}")
        values = []
        for op, label in ops:
            m = re.search(rf"^{re.escape(label)}: (.*)$", obs["sdk_output"], re.M)
            if op == "read":
                values.append(re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1)).strip())
            else:
                target = re.search(r"\]\(([^)]+)\)", m.group(1)).group(1)
                obs = yield act.terminal(f"cat corpus/{target}")
        return values


def _split(params: dict) -> str:
    return params.get("split", "train")


def _open_wiki(sb, seed: int, split: str) -> None:
    """A task's setup: serve the split's encyclopedia (its random article drawn from `seed`) and open its main page."""
    sb.server.install(wiki.Veloripedia.prefix, wiki.Veloripedia).load(seed, split=split)
    open_app(sb, "/wiki/")


def _link_point(sb, selector: str) -> tuple[int, int]:
    """Screen point inside the first line of a link (a wrapped link's box centre may fall between its lines)."""
    loc = sb.browser.page.locator(selector).first
    loc.scroll_into_view_if_needed(timeout=2000)
    r = loc.evaluate("e => { const r = e.getClientRects()[0]; return [r.x + r.width / 2, r.y + r.height / 2]; }")
    return sb.browser.to_screen(*r)


def _register(q: Question, sdk: bool) -> None:
    cls = type(f"Research_{q.name.replace('-', '_')}{'_sdk' if sdk else ''}", (ResearchTask,), {
        "id": f"browser.research-{q.name}{'-sdk' if sdk else ''}-v1",
        "question": q, "sdk": sdk, "max_steps": 20 if q.pick in (_larger_hq, _founder_age) else 15,
        "__doc__": f"{q.text} ({'GUI+SDK' if sdk else 'GUI only'}). " + ResearchTask.__doc__,
    })
    register_task(cls)


for _q in QUESTIONS:
    for _sdk in (False, True):
        _register(_q, _sdk)


@register_task(id="browser.wiki-list-largest-v1")
class WikiListLargest(Task):
    """Find, through Veloripedia's list pages, the company of a given industry that has the most
    or fewest employees, or was founded first or last.

    The agent opens Lists → List of companies (a table of 80 companies, sortable by clicking
    a column heading). Success: `finished(content=<company name>)`, the whole answer being
    that one name (`match_answer`). Nothing is written, so nothing else can change.
    """

    suite = "browser"
    max_steps = 12
    #: (column, field, sort direction that puts the answer first, wording)
    _GOALS = [("Employees", "employees", "desc", "has the most employees"),
              ("Employees", "employees", "asc", "has the fewest employees"),
              ("Founded", "founded", "asc", "was founded first"),
              ("Founded", "founded", "desc", "was founded most recently")]

    def sample(self, rng: np.random.Generator) -> dict:
        split = split_of(rng)
        c = wiki.corpus(split)
        while True:
            industry = str(rng.choice(wiki._INDUSTRIES))
            column, key, direction, words = self._GOALS[int(rng.integers(len(self._GOALS)))]
            cos = sorted((s for s in c.by_kind["company"] if c.facts[s]["industry"] == industry),
                         key=lambda s: c.facts[s][key], reverse=direction == "desc")
            if len(cos) >= 2 and c.facts[cos[0]][key] != c.facts[cos[1]][key]:   # one right answer
                return {"split": split, "industry": industry, "column": column, "dir": direction, "goal": words,
                        "truth": c.facts[cos[0]]["title"]}

    def instruction(self, params: dict) -> str:
        return (f"According to Veloripedia's list of companies, which company in the {params['industry']} industry "
                f"{params['goal']}? Answer with the company's name.")

    def setup(self, sb, params: dict) -> None:
        _open_wiki(sb, seed=0, split=_split(params))

    def expected_answer(self, params: dict) -> Answer:
        return Answer(params["truth"], kind="text")

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return match_answer(outcome.answer, self.expected_answer(params))

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        page = sb.browser.page
        yield click(sb, "#nav-lists")
        yield click(sb, '#lists a[href="/wiki/list/company"]')
        want = f"sort={params['column']}&dir={params['dir']}"
        head = f'#list th a[data-col="{params["column"]}"]'
        yield click(sb, head)
        page.wait_for_url(lambda url: f"sort={params['column']}" in url)
        if want not in page.url:   # a numeric column sorts descending first; a second click flips it
            yield click(sb, head)
            page.wait_for_url(lambda url: want in url)
        rows = page.locator("#list tbody tr").evaluate_all(
            "rs => rs.map(r => [...r.cells].map(c => c.innerText.trim()))")
        best = next(r[0] for r in rows if r[1] == params["industry"])
        yield act.finish(best)
