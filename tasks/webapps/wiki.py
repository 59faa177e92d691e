"""Veloripedia: a generated encyclopedia of a fictional world (≥ 500 linked articles) with a BM25 search engine, served by the env's AppServer.

Each split has its own corpus, built from a fixed seed once per process (`corpus("train")` from
`CORPUS_SEED`, `corpus("test")` from `TEST_CORPUS_SEED`, each well under a second) that never
changes, so questions about it have one true answer. The two draw their names (countries, towns,
people, rivers, mountains, company names) from disjoint halves of the name pools, so no entity of
the test world is named like one of the training world.
Articles are countries, cities, people, companies, rivers, universities, mountains
and events; each has an infobox (population, founded, mayor, founder, headquarters,
length, ...) and prose that links it to other articles.

`Veloripedia` is the site's backend under `/wiki/` (a task installs it with
`sb.server.install(Veloripedia.prefix, Veloripedia)` and `.load(seed, split=...)`; the split picks
the corpus, the seed drives the random article); its style sheet and script are static files (`assets/web/wiki/`):

    /wiki/                      main page
    /wiki/a/<slug>              an article
    /wiki/search?q=..&page=N    ranked full-text search (BM25, 10 results a page, snippets)
    /wiki/categories            all categories; /wiki/category/<slug>?page=N one category
    /wiki/lists                 list pages; /wiki/list/<kind>?sort=<col>&dir=asc|desc
    /wiki/random                a random article (302)
    /wiki/api/search?q=..       the same search as JSON
    /wiki/api/suggest?q=..      title suggestions for the search box (prefix matches)

`write_markdown(folder, split)` writes a split's corpus as Markdown files (`<slug>.md` plus
`index.tsv`) for SDK tasks, whose terminal has no network.
"""

from __future__ import annotations

import functools
import html
import math
import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlencode

from hybridgym.sandbox.webserver import JsonBackend, Request, Response, endpoint
from hybridgym.tasks.kit.data import Pool

CORPUS_SEED = 1723
TEST_CORPUS_SEED = 90417
SITE = "Veloripedia"
PAGE_SIZE = 10
CATEGORY_PAGE_SIZE = 60

# -- names ---------------------------------------------------------------------
_PRE = Pool(["Ash", "Bel", "Cor", "Dun", "Ember", "Fal", "Glen", "Har", "Iver", "Kel", "Lor", "Mar", "Nor",
        "Oak", "Pen", "Quar", "Ros", "Sil", "Tor", "Ul", "Val", "Wes", "Yar", "Zel", "Brin", "Cal", "Drav",
        "Elm", "Fen", "Gal", "Hol", "Kar", "Lyn", "Mor", "Ost", "Riv", "Stan", "Thal", "Vin", "Wyr"])
_SUF = ["brook", "ford", "haven", "mere", "stead", "wick", "holm", "gate", "field", "moor", "port", "dale",
        "bury", "crest", "ton", "vale", "reach", "march", "wold", "stow"]
_FIRST = Pool(["Ada", "Bram", "Celia", "Dorian", "Elin", "Felix", "Greta", "Hugo", "Ilse", "Jonas", "Katya", "Lucan",
          "Mira", "Niall", "Oona", "Pavel", "Quinn", "Rosa", "Soren", "Tamsin", "Ulric", "Vera", "Wendel",
          "Xenia", "Yusuf", "Zora", "Anselm", "Brigid", "Cassius", "Delphine", "Emeric", "Freya", "Gideon",
          "Hester", "Isidore", "Juno", "Konrad", "Liesel", "Matthias", "Nadia", "Osric", "Petra", "Rainer",
          "Sabine", "Tobias", "Ursula", "Viktor", "Wilma", "Alaric", "Beatrix", "Caspar", "Dagny", "Edmund",
          "Fenna", "Gustav", "Hilde", "Ivo", "Jorun", "Kasimir", "Linnea"])
_LAST = Pool(["Ardent", "Blackwood", "Corran", "Dahl", "Eastmere", "Fairweather", "Grell", "Hollis", "Ingram",
         "Jessop", "Kestrel", "Lindqvist", "Marchetti", "Norrell", "Okafor", "Pellham", "Quillon", "Ravensworth",
         "Sorel", "Thorne", "Underhill", "Vashti", "Whitcombe", "Ystad", "Zorin", "Abernathy", "Brandt",
         "Castellan", "Devereux", "Ellsworth", "Falk", "Gorman", "Hartigan", "Iveson", "Jurado", "Kowal",
         "Lachance", "Moreau", "Nystrom", "Orlov", "Prideaux", "Rasmussen", "Stroud", "Tennant", "Valdane",
         "Wexley", "Aldous", "Brisco", "Carvell", "Dunmore", "Esterly", "Fontaine", "Galloway", "Hardcastle"])
#: (country, currency); train draws the even-indexed, test the odd-indexed (`Pool`)
_COUNTRIES = Pool([
    ("Arvenia", "arvenian krone"), ("Belmora", "belmoran lira"), ("Caldonia", "caldonian mark"),
    ("Drevia", "drevian thaler"), ("Estmark", "estmark crown"), ("Fennlund", "fenn florin"),
    ("Galvaro", "galvaran peso"), ("Hesperine", "hesperine ducat"), ("Istovia", "istovian dinar"),
    ("Jarlsmark", "jarl shilling"), ("Korvania", "korvanian real"), ("Lusmere", "lusmeran franc"),
    ("Montavia", "montavian guilder"), ("Nordhal", "nordhal rand"), ("Ostrelia", "ostrelian zloty"),
    ("Pellucia", "pellucian sol"), ("Quessia", "quessian scudo"), ("Rodavia", "rodavian kuna"),
    ("Sarnland", "sarnish mark"), ("Tessaria", "tessarian lev"), ("Ulvenia", "ulvenian forint"),
    ("Varkosa", "varkosan koruna"), ("Wendmark", "wend escudo"), ("Ysmeria", "ysmerian rial"),
    ("Zaravia", "zaravian dram"), ("Aldovia", "aldovian lat"), ("Brevonia", "brevonian litas"),
    ("Cindralia", "cindralian markka"), ("Dovaria", "dovarian tolar"), ("Elvessa", "elvessan denar"),
    ("Frisvald", "frisvald kip"), ("Gorsland", "gors riel")])


def _language(currency: str) -> str:
    adj = currency.split()[0].capitalize()
    if adj.endswith("ine"):
        return adj[:-3] + "ic"
    return adj if adj.endswith(("an", "ish")) else adj + "ish"


_INDUSTRIES = ["shipbuilding", "textiles", "software", "brewing", "rail transport", "pharmaceuticals",
               "mining", "publishing", "aviation", "banking"]
_CO_SUFFIX = {"shipbuilding": ["Shipyards", "Marine Works"], "textiles": ["Mills", "Weavers"],
              "software": ["Systems", "Labs"], "brewing": ["Brewery", "Breweries"],
              "rail transport": ["Railways", "Rail"], "pharmaceuticals": ["Pharma", "Laboratories"],
              "mining": ["Mining", "Minerals"], "publishing": ["Press", "Publishing House"],
              "aviation": ["Aeronautics", "Airways"], "banking": ["Bank", "Savings Bank"]}
_RIVER_ROOTS = Pool(["Aldra", "Bexa", "Corvin", "Dresa", "Elva", "Fyrn", "Gela", "Hask", "Isen", "Jorra", "Kalm",
                "Lessa", "Mirra", "Nessa", "Orv", "Pelt", "Rhune", "Sarn", "Tessel", "Uvra", "Vell", "Wend",
                "Yssa", "Zorn", "Amber", "Brae", "Cress", "Dorn", "Eske", "Fallow", "Grise", "Hollin",
                "Arla", "Bosk", "Calder", "Dwyn", "Emsa", "Farra", "Glenna", "Hurn", "Ilva", "Jesk", "Korra",
                "Lunn", "Mossa", "Nerra", "Olva", "Pirra", "Quell", "Roon", "Selka", "Tarn", "Ulla", "Vessa",
                "Wyla", "Ysk", "Zella", "Aven", "Brisk", "Cloy", "Deln", "Ebra", "Fosk", "Garr"])
_MOUNT_ROOTS = Pool(["Kael", "Brennar", "Osk", "Varn", "Telmor", "Ishka", "Draug", "Helm", "Skarra", "Vintar",
                "Morrow", "Galdh", "Rusk", "Ebon", "Frost", "Tyrr", "Orlen", "Halvar", "Zenn", "Cairn",
                "Aske", "Brim", "Coldra", "Dwell", "Eyr", "Falkhorn", "Gerra",
                "Aurn", "Belkar", "Cragmor", "Dunhelm", "Erskin", "Fjeld", "Gorm", "Hrafn", "Ilmar", "Jotun",
                "Kessar", "Lodur", "Myrk", "Norrk", "Ossar", "Paldor", "Quorn", "Rimmon", "Sveld", "Tindra",
                "Ulfar", "Vasskar", "Wolden", "Yggra", "Zarn", "Ardhorn", "Blaven"])
_EVENT_KINDS = [("Jazz Festival", "music festival"), ("Film Festival", "film festival"),
                ("Book Fair", "trade fair"), ("Marathon", "sporting event"), ("Regatta", "sporting event"),
                ("Summit", "political conference"), ("Expo", "world exhibition"), ("Flood", "natural disaster")]


def slugify(title: str) -> str:
    """The article slug of a title: lower case, words joined by hyphens (e.g. 'Ada Dahl' -> 'ada-dahl')."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


@dataclass
class Article:
    """One page: an infobox of (label, text, linked slug or None) rows, prose with [[slug|text]] links, categories."""
    slug: str
    title: str
    kind: str
    infobox: list[tuple[str, str, str | None]] = field(default_factory=list)
    paragraphs: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)

    def field(self, label: str) -> str:
        for lab, text, _ in self.infobox:
            if lab == label:
                return text
        raise KeyError(f"{self.title} has no infobox field {label!r}")

    def link(self, label: str) -> str:
        for lab, _, slug in self.infobox:
            if lab == label and slug:
                return slug
        raise KeyError(f"{self.title} has no linked infobox field {label!r}")

    def plain_text(self) -> str:
        return " ".join(_LINK.sub(lambda m: m.group(2), p) for p in self.paragraphs)


_LINK = re.compile(r"\[\[([a-z0-9-]+)\|([^\]]+)\]\]")


@dataclass
class Corpus:
    """The articles (by slug), the structured facts they were written from, and the search index."""
    articles: dict[str, Article]
    facts: dict[str, dict]               # slug -> raw values (ints, slugs) used for truths
    by_kind: dict[str, list[str]]
    categories: dict[str, list[str]]     # category title -> slugs, sorted by title
    index: "SearchIndex" = None

    def __len__(self) -> int:
        return len(self.articles)

    def search(self, query: str) -> list[tuple[str, float]]:
        return self.index.search(query)


# -- generation ----------------------------------------------------------------------
def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _fmt(n: int) -> str:
    return f"{n:,}"


def _L(slug: str, arts_titles: dict[str, str]) -> str:
    return f"[[{slug}|{arts_titles[slug]}]]"


SPLITS = ("train", "test")


@functools.lru_cache(maxsize=2)
def corpus(split: str = "train") -> Corpus:
    """The corpus of a split ("train": CORPUS_SEED, "test": TEST_CORPUS_SEED and the other halves
    of the name pools), built once per process and split."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    return build_corpus(CORPUS_SEED if split == "train" else TEST_CORPUS_SEED, split)


def build_corpus(seed: int, split: str = "train") -> Corpus:
    """The corpus of `seed`, its names drawn from `split`'s half of every name pool (countries,
    towns, people, rivers, mountains, company names), so the two splits share no named entity."""
    rng = random.Random(seed)
    PRE, FIRST, LAST = _PRE.half(split), _FIRST.half(split), _LAST.half(split)
    RIVERS, MOUNTS = _RIVER_ROOTS.half(split), _MOUNT_ROOTS.half(split)
    facts: dict[str, dict] = {}
    title: dict[str, str] = {}

    def add(kind: str, name: str, **vals) -> str:
        slug = slugify(name)
        if slug in facts:
            raise ValueError(f"duplicate article {name}")
        facts[slug] = {"kind": kind, "title": name, **vals}
        title[slug] = name
        return slug

    # countries and cities
    countries = [add("country", n, currency=c, language=_language(c), founded=rng.randint(1050, 1880),
                     area=rng.randint(40_000, 420_000))
                 for n, c in _COUNTRIES.half(split)]
    city_names = rng.sample([p + s for p in PRE for s in _SUF], 128)
    cities = []
    for i, name in enumerate(city_names):
        pop = int(math.exp(rng.uniform(math.log(4_000), math.log(2_600_000))))
        cities.append(add("city", name, country=countries[i % len(countries)], population=pop,
                          founded=rng.randint(780, 1890), elevation=rng.randint(2, 1900),
                          area=round(rng.uniform(8, 900), 1)))
    for c in countries:
        mine = [s for s in cities if facts[s]["country"] == c]
        facts[c]["capital"] = max(mine, key=lambda s: facts[s]["population"] * rng.uniform(0.6, 1.0))
        facts[c]["population"] = sum(facts[s]["population"] for s in mine) * rng.randint(3, 6)
    # rivers run through 2-5 cities; the last is the mouth
    rivers = []
    free = cities[:]
    rng.shuffle(free)
    for root in RIVERS[:30]:
        n = rng.randint(2, 4)
        through, free = free[:n], free[n:]
        if len(through) < 2:
            break
        rivers.append(add("river", f"{root} River", length=rng.randint(40, 1400), cities=through,
                          mouth=through[-1], discharge=rng.randint(5, 2400)))
        for s in through:
            facts[s]["river"] = rivers[-1]
    # people
    people_names = rng.sample([f"{f} {l}" for f in FIRST for l in LAST], 380)
    people = [add("person", n, born=rng.randint(1890, 1992), birthplace=rng.choice(cities)) for n in people_names]
    pool = people[:]
    rng.shuffle(pool)
    mayors, pool = pool[:len(cities)], pool[len(cities):]
    for c, p in zip(cities, mayors):
        facts[c]["mayor"] = p
        facts[p]["occupation"] = "politician"
        facts[p]["born"] = rng.randint(1950, 1990)
    # universities
    uni_cities = rng.sample(cities, 24)
    unis = []
    for i, c in enumerate(uni_cities):
        name = f"University of {title[c]}" if i % 3 else f"{title[c]} Institute of Technology"
        unis.append(add("university", name, city=c, founded=rng.randint(1200, 1970),
                        students=rng.randint(1_500, 48_000)))
    rectors = rng.sample(pool, len(unis))
    for u, p in zip(unis, rectors):
        facts[u]["rector"] = p
        facts[p]["occupation"] = "academic"
    for p in people:
        facts[p]["alma_mater"] = rng.choice(unis)
    # companies
    founders = rng.sample([p for p in pool if p not in rectors], 80)
    co_names = set()
    companies = []
    for p in founders:
        ind = rng.choice(_INDUSTRIES)
        while True:
            base = rng.choice([rng.choice(PRE) + rng.choice(["ex", "ia", "on", "ar", "is", "ora"]),
                               facts[p]["title"].split()[1]])
            name = f"{base} {rng.choice(_CO_SUFFIX[ind])}"
            if name not in co_names and slugify(name) not in facts:
                co_names.add(name)
                break
        facts[p]["occupation"] = facts[p].get("occupation", "entrepreneur")
        founded = facts[p]["born"] + rng.randint(22, max(22, min(50, 2024 - facts[p]["born"])))
        companies.append(add("company", name, industry=ind, founder=p, founded=founded,
                             hq=rng.choice(cities), employees=int(math.exp(rng.uniform(math.log(40), math.log(90_000)))),
                             revenue=rng.randint(3, 9000)))
    ceo_pool = [p for p in pool if p not in founders and p not in rectors]
    for co, p in zip(companies, rng.sample(ceo_pool, len(companies))):
        facts[co]["ceo"] = p
        facts[p]["employer"] = co
        facts[p].setdefault("occupation", "business executive")
    for p in people:
        facts[p].setdefault("occupation", rng.choice(["engineer", "writer", "architect", "physician",
                                                      "composer", "journalist", "chemist", "painter"]))
    # spouses: pairs among people not mayors
    singles = [p for p in people if p not in mayors]
    rng.shuffle(singles)
    for a, b in zip(singles[0:60:2], singles[1:60:2]):
        facts[a]["spouse"], facts[b]["spouse"] = b, a
    # mountains
    mountains = []
    climbers = rng.sample([p for p in people if facts[p]["occupation"] in ("engineer", "writer", "physician",
                                                                           "painter", "chemist")], 26)
    for root, p in zip(MOUNTS, climbers):
        facts[p]["occupation"] = "mountaineer"
        name = f"Mount {root}" if len(mountains) % 2 else f"{root} Peak"
        mountains.append(add("mountain", name, elevation=rng.randint(1800, 7900), country=rng.choice(countries),
                             first_ascent=p, ascent_year=facts[p]["born"] + rng.randint(19, max(19, min(45, 2024 - facts[p]["born"])))))
    # events
    events = []
    ev_names = set()
    while len(events) < 44:
        c = rng.choice(cities)
        kind, typ = rng.choice(_EVENT_KINDS)
        year = rng.randint(1880, 2024)
        name = f"{year} {title[c]} {kind}"
        if name in ev_names:
            continue
        ev_names.add(name)
        ev = {"location": c, "year": year, "type": typ}
        if kind != "Flood":
            ev["organizer"] = rng.choice(companies)
        else:
            ev["deaths"] = rng.randint(0, 400)
        events.append(add("event", name, **ev))

    back: dict[tuple[str, str], list[str]] = defaultdict(list)   # (field, slug) -> slugs whose field is slug
    for o, v in facts.items():
        for key in ("founder", "mayor", "rector", "first_ascent", "birthplace", "hq", "country"):
            if key in v:
                back[(key, v[key])].append(o)
    articles = {s: _write_article(s, facts, title, back, rng) for s in facts}
    by_kind: dict[str, list[str]] = defaultdict(list)
    for s, f in facts.items():
        by_kind[f["kind"]].append(s)
    cats: dict[str, list[str]] = defaultdict(list)
    for s, a in articles.items():
        for c in a.categories:
            cats[c].append(s)
    for c in cats:
        cats[c].sort(key=lambda s: title[s])
    corp = Corpus(articles, facts, dict(by_kind), dict(sorted(cats.items())))
    corp.index = SearchIndex(articles)
    return corp


def _write_article(s: str, F: dict, T: dict, back: dict, rng: random.Random) -> Article:
    f = F[s]
    L = functools.partial(_L, arts_titles=T)
    a = Article(s, f["title"], f["kind"])
    box, P, cats = a.infobox, a.paragraphs, a.categories
    k = f["kind"]
    if k == "country":
        cities = [c for c in back[("country", s)] if F[c]["kind"] == "city"]
        box += [("Capital", T[f["capital"]], f["capital"]), ("Population", _fmt(f["population"]), None),
                ("Area", f"{_fmt(f['area'])} km²", None), ("Founded", str(f["founded"]), None),
                ("Official language", f["language"], None), ("Currency", f["currency"], None)]
        big = sorted(cities, key=lambda c: -F[c]["population"])[:4]
        P.append(f"{f['title']} is a country of the Velorian continent. Its capital and seat of government is "
                 f"{L(f['capital'])}. The state traces its origins to {f['founded']}, and its people speak {f['language']}.")
        P.append("Its largest cities include " + ", ".join(L(c) for c in big) +
                 f". The national currency is the {f['currency']}.")
        cats += ["Countries"]
    elif k == "city":
        box += [("Country", T[f["country"]], f["country"]), ("Population", _fmt(f["population"]), None),
                ("Founded", str(f["founded"]), None), ("Mayor", T[f["mayor"]], f["mayor"]),
                ("Elevation", f"{_fmt(f['elevation'])} m", None), ("Area", f"{f['area']} km²", None)]
        if "river" in f:
            box.append(("River", T[f["river"]], f["river"]))
        P.append(f"{f['title']} is a city in {L(f['country'])}" + (f" on the {L(f['river'])}" if "river" in f else "") +
                 f". It was founded in {f['founded']} and had a population of {_fmt(f['population'])} at the last census.")
        P.append(f"The city is governed by a council led by mayor {L(f['mayor'])}. "
                 f"It lies at an elevation of {f['elevation']} metres above sea level.")
        y1 = rng.randint(f["founded"] + 20, 1900) if f["founded"] < 1880 else f["founded"] + 10
        P.append(f"Originally a {rng.choice(['market town', 'fishing village', 'river crossing', 'fortified hill town'])}, "
                 f"{f['title']} received its town charter in {y1}. By {y1 + rng.randint(10, 60)} it had grown to "
                 f"{_fmt(max(300, f['population'] // rng.randint(4, 20)))} inhabitants, and its "
                 f"{rng.choice(['old harbour', 'cathedral', 'covered market', 'stone bridge', 'town hall'])} dates from "
                 f"that period. Today its economy rests on {rng.choice(_INDUSTRIES)} and {rng.choice(_INDUSTRIES)}.")
        born = [p for p in back[("birthplace", s)] if p != f["mayor"]][:4]
        hq = back[("hq", s)][:3]
        extra = []
        if born:
            extra.append("Notable people born here include " + ", ".join(L(p) for p in born) + ".")
        if hq:
            extra.append("Companies headquartered in the city include " + ", ".join(L(c) for c in hq) + ".")
        if extra:
            P.append(" ".join(extra))
        cats += ["Cities", f"Cities in {T[f['country']]}"]
    elif k == "person":
        box += [("Born", str(f["born"]), None), ("Birthplace", T[f["birthplace"]], f["birthplace"]),
                ("Occupation", f["occupation"], None), ("Alma mater", T[f["alma_mater"]], f["alma_mater"])]
        if "employer" in f:
            box.append(("Employer", T[f["employer"]], f["employer"]))
        if "spouse" in f:
            box.append(("Spouse", T[f["spouse"]], f["spouse"]))
        last = f["title"].split()[1]
        P.append(f"{f['title']} (born {f['born']} in {L(f['birthplace'])}) is {_a(f['occupation'])} "
                 f"from {L(F[f['birthplace']]['country'])}. {last} studied at {L(f['alma_mater'])}.")
        roles = []
        for o in back[("founder", s)]:
            roles.append(f"{last} founded {L(o)} in {F[o]['founded']}.")
        for o in back[("mayor", s)]:
            roles.append(f"{last} has served as mayor of {L(o)} since {rng.randint(2008, 2023)}.")
        for o in back[("rector", s)]:
            roles.append(f"{last} is the rector of {L(o)}.")
        for o in back[("first_ascent", s)]:
            roles.append(f"In {F[o]['ascent_year']} {last} made the first ascent of {L(o)}.")
        if "employer" in f:
            roles.append(f"{last} is the chief executive of {L(f['employer'])}.")
        if "spouse" in f:
            roles.append(f"{last} is married to {L(f['spouse'])}.")
        if roles:
            P.append(" ".join(roles))
        cats += ["People", f"{f['occupation'].capitalize()}s", f"People from {T[F[f['birthplace']]['country']]}"]
    elif k == "company":
        box += [("Industry", f["industry"], None), ("Founded", str(f["founded"]), None),
                ("Founder", T[f["founder"]], f["founder"]), ("Headquarters", T[f["hq"]], f["hq"]),
                ("CEO", T[f["ceo"]], f["ceo"]), ("Employees", _fmt(f["employees"]), None),
                ("Revenue", f"{_fmt(f['revenue'])} million", None)]
        branch = rng.choice([c for c in F if c != f["hq"] and F[c]["kind"] == "city"])
        P.append(f"{f['title']} is {_a(f['industry'])} company headquartered in {L(f['hq'])}. "
                 f"It was founded in {f['founded']} by {L(f['founder'])}.")
        P.append(f"The company employs about {_fmt(f['employees'])} people and is led by chief executive "
                 f"{L(f['ceo'])}. In {f['founded'] + rng.randint(5, 40)} it opened a second site in {L(branch)}.")
        P.append(f"In its early years the firm {rng.choice(['struggled to raise capital', 'grew through acquisitions', 'relied on a single large customer', 'expanded across the continent'])}; "
                 f"by {min(2024, f['founded'] + rng.randint(10, 30))} it had {_fmt(max(5, f['employees'] // rng.randint(3, 12)))} staff. "
                 f"Its annual revenue is about {_fmt(f['revenue'])} million.")
        cats += ["Companies", f"{f['industry'].capitalize()} companies"]
    elif k == "river":
        box += [("Length", f"{_fmt(f['length'])} km", None), ("Mouth", T[f["mouth"]], f["mouth"]),
                ("Discharge", f"{_fmt(f['discharge'])} m³/s", None)]
        P.append(f"The {f['title']} is a river of the Velorian continent, {_fmt(f['length'])} kilometres long. "
                 "It flows through " + ", ".join(L(c) for c in f["cities"][:-1]) +
                 f" and reaches the sea at {L(f['mouth'])}.")
        cats += ["Rivers"]
    elif k == "university":
        box += [("City", T[f["city"]], f["city"]), ("Founded", str(f["founded"]), None),
                ("Rector", T[f["rector"]], f["rector"]), ("Students", _fmt(f["students"]), None)]
        P.append(f"{f['title']} is a public university in {L(f['city'])}, established in {f['founded']}. "
                 f"About {_fmt(f['students'])} students are enrolled. Its rector is {L(f['rector'])}.")
        cats += ["Universities"]
    elif k == "mountain":
        box += [("Elevation", f"{_fmt(f['elevation'])} m", None), ("Country", T[f["country"]], f["country"]),
                ("First ascent", T[f["first_ascent"]], f["first_ascent"]), ("Ascent year", str(f["ascent_year"]), None)]
        P.append(f"{f['title']} is a mountain in {L(f['country'])} with an elevation of {_fmt(f['elevation'])} metres. "
                 f"It was first climbed in {f['ascent_year']} by {L(f['first_ascent'])}.")
        cats += ["Mountains"]
    elif k == "event":
        box += [("Year", str(f["year"]), None), ("Location", T[f["location"]], f["location"]), ("Type", f["type"], None)]
        if "organizer" in f:
            box.append(("Organizer", T[f["organizer"]], f["organizer"]))
            P.append(f"The {f['title']} was {_a(f['type'])} held in {L(f['location'])} in {f['year']}, "
                     f"organized by {L(f['organizer'])}. It drew {_fmt(rng.randint(800, 90_000))} visitors.")
        else:
            box.append(("Deaths", str(f["deaths"]), None))
            P.append(f"The {f['title']} struck {L(f['location'])} in {f['year']} when heavy rain swelled the rivers; "
                     f"{f['deaths']} people died.")
        cats += ["Events"]
    return a


# -- search --------------------------------------------------------------------------
_WORD = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class SearchIndex:
    """An inverted index with Okapi BM25 ranking over title (weighted ×3), infobox and prose.

    An exact title match ranks first; then documents by BM25 score, ties by title.
    """

    K1, B, TITLE_WEIGHT = 1.2, 0.75, 3

    def __init__(self, articles: dict[str, Article]):
        self.postings: dict[str, dict[str, int]] = defaultdict(dict)
        self.length: dict[str, int] = {}
        self.titles = {s: a.title for s, a in articles.items()}
        self._by_title = {a.title.lower(): s for s, a in articles.items()}
        for s, a in articles.items():
            toks = tokens(a.title) * self.TITLE_WEIGHT + tokens(" ".join(f"{l} {t}" for l, t, _ in a.infobox)) \
                + tokens(a.plain_text())
            self.length[s] = len(toks)
            for t, n in Counter(toks).items():
                self.postings[t][s] = n
        self.n = len(articles)
        self.avg = sum(self.length.values()) / max(1, self.n)

    def idf(self, term: str) -> float:
        df = len(self.postings.get(term, ()))
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def search(self, query: str) -> list[tuple[str, float]]:
        """(slug, score) of every matching article, best first."""
        scores: dict[str, float] = defaultdict(float)
        for term in set(tokens(query)):
            idf = self.idf(term)
            for s, tf in self.postings.get(term, {}).items():
                norm = tf * (self.K1 + 1) / (tf + self.K1 * (1 - self.B + self.B * self.length[s] / self.avg))
                scores[s] += idf * norm
        exact = self._by_title.get(" ".join(query.lower().split()))
        if exact is not None:
            scores[exact] = scores.get(exact, 0.0) + 1000.0
        return sorted(scores.items(), key=lambda kv: (-kv[1], self.titles[kv[0]]))


def suggest(c: Corpus, query: str, limit: int = 8) -> list[dict]:
    """Titles for the search box's drop-down: those starting with the query first, then those with a
    word starting with it; alphabetical within each group."""
    q = " ".join(query.lower().split())
    if not q:
        return []
    starts = sorted((a.title for a in c.articles.values() if a.title.lower().startswith(q)))
    inner = sorted(a.title for a in c.articles.values()
                   if not a.title.lower().startswith(q) and f" {q}" in f" {a.title.lower()}")
    return [{"slug": slugify(t), "title": t} for t in (starts + inner)[:limit]]


def snippet(article: Article, query: str, width: int = 180) -> str:
    """HTML: the first passage of the article that holds a query term, with the terms in bold."""
    text = article.plain_text()
    terms = set(tokens(query))
    low = text.lower()
    pos = min((m.start() for t in terms for m in [re.search(rf"\b{re.escape(t)}\b", low)] if m), default=0)
    start = max(0, pos - 60)
    piece = text[start:start + width]
    out = html.escape(("…" if start else "") + piece + ("…" if start + width < len(text) else ""))
    for t in sorted(terms, key=len, reverse=True):
        out = re.sub(rf"(?i)\b({re.escape(t)})\b", r"<b>\1</b>", out)
    return out


# -- Markdown export (SDK tasks) -------------------------------------------------------
def to_markdown(a: Article) -> str:
    lines = [f"# {a.title}", "", f"Kind: {a.kind}"]
    for label, text, slug in a.infobox:
        lines.append(f"{label}: [{text}]({slug}.md)" if slug else f"{label}: {text}")
    lines.append("")
    for p in a.paragraphs:
        lines += [_LINK.sub(lambda m: f"[{m.group(2)}]({m.group(1)}.md)", p), ""]
    lines.append("Categories: " + ", ".join(a.categories))
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=2)
def _markdown_files(split: str = "train") -> dict[str, str]:
    c = corpus(split)
    files = {f"{s}.md": to_markdown(a) for s, a in c.articles.items()}
    files["index.tsv"] = "slug\ttitle\tkind\n" + "".join(f"{s}\t{a.title}\t{a.kind}\n" for s, a in c.articles.items())
    return files


def write_markdown(folder: Path, split: str = "train") -> int:
    """Write every article of `split`'s corpus as `<slug>.md` and an `index.tsv` (slug, title, kind)
    into `folder`; returns the count."""
    folder.mkdir(parents=True, exist_ok=True)
    files = _markdown_files(split)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return len(files) - 1


# -- HTML ------------------------------------------------------------------------------
def _render_links(text: str) -> str:
    out, last = [], 0
    for m in _LINK.finditer(text):
        out.append(html.escape(text[last:m.start()]))
        out.append(f'<a href="/wiki/a/{m.group(1)}">{html.escape(m.group(2))}</a>')
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def _page(title: str, body: str, query: str = "") -> str:
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} — {SITE}</title>
<link rel="stylesheet" href="/wiki/style.css"></head>
<body>
<header class="top"><a class="logo" href="/wiki/"><span class="mark">V</span>{SITE}<small>The free encyclopedia of Veloria</small></a>
<form class="search" action="/wiki/search" method="get" role="search">
<input id="q" name="q" type="search" placeholder="Search {SITE}" value="{html.escape(query)}" autocomplete="off">
<button id="go" type="submit">Search</button></form></header>
<div class="wrap"><nav class="side"><ul>
<li><a href="/wiki/" id="nav-main">Main page</a></li>
<li><a href="/wiki/random" id="nav-random">Random article</a></li>
<li><a href="/wiki/categories" id="nav-categories">Categories</a></li>
<li><a href="/wiki/lists" id="nav-lists">Lists</a></li>
</ul></nav>
<main id="content">{body}</main></div>
<footer>Text is generated for the hybridgym environment; every fact here is fictional.</footer>
<script src="/common/webapp.js"></script>
<script src="/wiki/wiki.js"></script>
</body></html>"""


def render_article(a: Article) -> str:
    rows = "".join(
        f'<tr data-field="{slugify(l)}"><th>{html.escape(l)}</th><td>'
        + (f'<a href="/wiki/a/{s}">{html.escape(t)}</a>' if s else html.escape(t)) + "</td></tr>"
        for l, t, s in a.infobox)
    paras = "".join(f"<p>{_render_links(p)}</p>" for p in a.paragraphs)
    cats = " | ".join(f'<a href="/wiki/category/{slugify(c)}">{html.escape(c)}</a>' for c in a.categories)
    body = (f'<h1 id="title">{html.escape(a.title)}</h1><div class="sub">From {SITE}</div>'
            f'<table class="infobox" id="infobox"><caption>{html.escape(a.title)}</caption>{rows}</table>'
            f'{paras}<div class="cats" id="cats">Categories: {cats}</div>')
    return _page(a.title, body)


def _pager(base: str, params: dict, page: int, pages: int) -> str:
    if pages <= 1:
        return ""
    def link(p: int, text: str, cls: str = "") -> str:
        return f'<a class="{cls}" href="{base}?{urlencode({**params, "page": p})}">{text}</a>'
    parts = []
    if page > 1:
        parts.append(link(page - 1, "‹ Previous", "prev"))
    for p in range(1, pages + 1):
        if abs(p - page) <= 3 or p in (1, pages):
            parts.append(f'<span class="cur">{p}</span>' if p == page else link(p, str(p), "num"))
        elif parts and parts[-1] != "…":
            parts.append("…")
    if page < pages:
        parts.append(link(page + 1, "Next ›", "next"))
    return f'<div class="pager" id="pager">{"".join(parts)}</div>'


def render_search(c: Corpus, q: str, page: int) -> str:
    hits = c.search(q) if q.strip() else []
    pages = max(1, math.ceil(len(hits) / PAGE_SIZE))
    page = min(max(1, page), pages)
    shown = hits[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
    items = "".join(
        f'<li class="result"><a class="rtitle" href="/wiki/a/{s}">{html.escape(c.articles[s].title)}</a>'
        f'<div class="snip">{snippet(c.articles[s], q)}</div>'
        f'<div class="meta">{c.articles[s].kind} · {len(c.articles[s].plain_text().split())} words</div></li>'
        for s, _ in shown)
    head = (f'<h1>Search results</h1><div class="count" id="count">{len(hits)} results for '
            f'“{html.escape(q)}”</div>' if q.strip() else "<h1>Search</h1><p>Type words to search for.</p>")
    if q.strip() and not hits:
        head += '<p class="none">There were no results matching the query.</p>'
    body = f'{head}<ol class="results" id="results" start="{(page - 1) * PAGE_SIZE + 1}">{items}</ol>' \
           + _pager("/wiki/search", {"q": q}, page, pages)
    return _page(f"Search: {q}", body, q)


def render_category(c: Corpus, name: str, page: int) -> str:
    slugs = c.categories[name]
    pages = max(1, math.ceil(len(slugs) / CATEGORY_PAGE_SIZE))
    page = min(max(1, page), pages)
    shown = slugs[(page - 1) * CATEGORY_PAGE_SIZE: page * CATEGORY_PAGE_SIZE]
    items = "".join(f'<li><a href="/wiki/a/{s}">{html.escape(c.articles[s].title)}</a></li>' for s in shown)
    body = (f'<h1>Category: {html.escape(name)}</h1><p class="count" id="count">This category contains '
            f'{len(slugs)} pages.</p><ul class="catlist" id="catlist">{items}</ul>'
            + _pager(f"/wiki/category/{slugify(name)}", {}, page, pages))
    return _page(f"Category: {name}", body)


def render_categories(c: Corpus) -> str:
    items = "".join(f'<li><a href="/wiki/category/{slugify(n)}">{html.escape(n)}</a> ({len(s)})</li>'
                    for n, s in c.categories.items())
    return _page("Categories", f'<h1>All categories</h1><ul class="catlist cols" id="catlist">{items}</ul>')


#: list pages: kind -> (title, [(column label, infobox label or "title")])
LISTS = {
    "city": ("List of cities", [("City", "title"), ("Country", "Country"), ("Population", "Population"),
                                ("Founded", "Founded"), ("Mayor", "Mayor")]),
    "company": ("List of companies", [("Company", "title"), ("Industry", "Industry"), ("Headquarters", "Headquarters"),
                                      ("Founded", "Founded"), ("Employees", "Employees")]),
    "river": ("List of rivers", [("River", "title"), ("Length", "Length"), ("Mouth", "Mouth")]),
    "mountain": ("List of mountains", [("Mountain", "title"), ("Elevation", "Elevation"), ("Country", "Country")]),
    "university": ("List of universities", [("University", "title"), ("City", "City"), ("Founded", "Founded"),
                                            ("Students", "Students")]),
}


def _sort_key(text: str):
    num = re.sub(r"[^\d.]", "", text.split(" ")[0])
    return (0, float(num), "") if num and re.match(r"^[\d,.]+", text) else (1, 0.0, text.lower())


def render_list(c: Corpus, kind: str, sort: str, direction: str) -> str:
    title, cols = LISTS[kind]
    rows = []
    for s in c.by_kind[kind]:
        a = c.articles[s]
        cells = []
        for _, lab in cols:
            if lab == "title":
                cells.append((a.title, s))
            else:
                cells.append(next(((t, sl) for l, t, sl in a.infobox if l == lab), ("", None)))
        rows.append(cells)
    labels = [l for l, _ in cols]
    col = labels.index(sort) if sort in labels else 0
    rows.sort(key=lambda r: _sort_key(r[col][0]), reverse=direction == "desc")
    def next_dir(i: int) -> str:
        if i == col:
            return "asc" if direction == "desc" else "desc"
        return "desc" if _numeric_col(rows, i) else "asc"
    head = "".join(
        f'<th><a class="sort" data-col="{l}" href="/wiki/list/{kind}?{urlencode({"sort": l, "dir": next_dir(i)})}">'
        f'{html.escape(l)}{(" ▼" if direction == "desc" else " ▲") if i == col else ""}</a></th>'
        for i, l in enumerate(labels))
    body_rows = "".join(
        "<tr>" + "".join(f'<td><a href="/wiki/a/{sl}">{html.escape(t)}</a></td>' if sl else f"<td>{html.escape(t)}</td>"
                         for t, sl in r) + "</tr>" for r in rows)
    body = (f'<h1>{html.escape(title)}</h1><p>{len(rows)} entries. Click a column heading to sort.</p>'
            f'<table class="wikitable" id="list"><thead><tr>{head}</tr></thead><tbody>{body_rows}</tbody></table>')
    return _page(title, body)


def _numeric_col(rows: list, i: int) -> bool:
    return bool(rows) and _sort_key(rows[0][i][0])[0] == 0


def render_lists() -> str:
    items = "".join(f'<li><a href="/wiki/list/{k}">{html.escape(t)}</a></li>' for k, (t, _) in LISTS.items())
    return _page("Lists", f'<h1>Lists</h1><ul class="catlist" id="lists">{items}</ul>')


def render_main(c: Corpus, rng: random.Random) -> str:
    featured = c.articles[rng.choice(c.by_kind["city"])]
    counts = "".join(f'<li><a href="/wiki/category/{slugify(n)}">{html.escape(n)}</a> ({len(c.categories[n])})</li>'
                     for n in ("Countries", "Cities", "People", "Companies", "Rivers", "Universities",
                               "Mountains", "Events"))
    know = "".join("<li>… that " + _render_links(c.articles[s].paragraphs[0].split(". ")[0].replace(
        c.articles[s].title, f"[[{s}|{c.articles[s].title}]]", 1)) + "?</li>" for s in rng.sample(c.by_kind["company"], 3))
    featured_text = "".join(f"<p>{_render_links(p)}</p>" for p in featured.paragraphs[:3])
    body = (f'<h1>Welcome to {SITE}</h1><p class="lead">the encyclopedia of the Velorian continent, with '
            f'<b>{len(c)}</b> articles.</p><div class="boxes"><section class="box"><h2>Featured article</h2>'
            f'<h3><a href="/wiki/a/{featured.slug}">{html.escape(featured.title)}</a></h3>'
            f'{featured_text}</section>'
            f'<section class="box"><h2>Browse</h2><ul>{counts}</ul></section>'
            f'<section class="box"><h2>Did you know</h2><ul>{know}</ul></section></div>')
    return _page("Main page", body)


# -- the app on the AppServer -------------------------------------------------------------
def _html(text: str, status: int = 200) -> Response:
    return Response(status, text, "text/html; charset=utf-8")


def _page_number(req: Request) -> int:
    try:
        return int(req.arg("page", "1"))
    except ValueError:
        return 1


class Veloripedia(JsonBackend):
    """The encyclopedia's pages, search and suggestions of one split's corpus (`load(seed, split=...)`,
    "train" by default); the seed drives the random article."""

    name = "Veloripedia"
    prefix = "/wiki/"

    def clear(self) -> None:
        self.rng = random.Random(0)
        self.split = "train"

    def populate(self, seed: int = 0, split: str = "train") -> None:
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
        self.rng = random.Random(seed)
        self.split = split

    def corpus(self) -> Corpus:
        return corpus(self.split)

    def not_found(self, req: Request) -> Response:
        return _html(_page("Not found", "<h1>Page not found</h1>"), 404)

    @endpoint("GET", "")
    @endpoint("GET", "index.html")
    @endpoint("GET", "main")
    def main(self, req, body):
        return _html(render_main(self.corpus(), random.Random(7)))

    @endpoint("GET", "a/{slug}")
    def article(self, req, body, slug):
        c = self.corpus()
        if slug in c.articles:
            return _html(render_article(c.articles[slug]))
        return _html(_page("Not found", f"<h1>No article “{html.escape(slug)}”</h1>"
                                        '<p>Try the <a href="/wiki/search">search</a>.</p>'), 404)

    @endpoint("GET", "search")
    def search_page(self, req, body):
        return _html(render_search(self.corpus(), req.arg("q"), _page_number(req)))

    @endpoint("GET", "api/search")
    def search_api(self, req, body):
        c, q = self.corpus(), req.arg("q")
        return {"query": q, "results": [{"slug": s, "title": c.articles[s].title, "score": round(sc, 4)}
                                        for s, sc in c.search(q)[:50]]}

    @endpoint("GET", "api/suggest")
    def suggest_api(self, req, body):
        return {"query": req.arg("q"), "results": suggest(self.corpus(), req.arg("q"))}

    @endpoint("GET", "categories")
    def categories(self, req, body):
        return _html(render_categories(self.corpus()))

    @endpoint("GET", "category/{slug}")
    def category(self, req, body, slug):
        c = self.corpus()
        names = {slugify(n): n for n in c.categories}
        if slug not in names:
            return self.not_found(req)
        return _html(render_category(c, names[slug], _page_number(req)))

    @endpoint("GET", "lists")
    def lists(self, req, body):
        return _html(render_lists())

    @endpoint("GET", "list/{kind}")
    def one_list(self, req, body, kind):
        if kind not in LISTS:
            return self.not_found(req)
        return _html(render_list(self.corpus(), kind, req.arg("sort", ""), req.arg("dir", "asc")))

    @endpoint("GET", "random")
    def random_article(self, req, body):
        slug = self.rng.choice(sorted(self.corpus().articles))
        return Response(302, b"", "text/plain", {"Location": f"/wiki/a/{quote(slug)}"})
