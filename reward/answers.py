"""The one answer matcher: how every answer task reads the agent's `finished(content=...)`.

A task declares what it expects as an `Answer` (the truth and how it is read) and judges the
agent's text with `match_answer`. The policy, the same for every task:

- **text**: the whole answer, normalized (NFKC, case folded, whitespace collapsed, one pair of
  surrounding quotes or brackets, a leading "the/a/an" and trailing punctuation dropped), equals
  the truth or one of the task's declared `aliases` (verbatim labels as the UI prints them, e.g.
  "Aurora (room booked)"). Never a substring of a longer text: "Morgan Blake or Sam Lee" fails.
- **number**: the answer states exactly one number (digits with thousands separators, or a
  number word up to twenty), equal to the truth within `rel_tol`. Words around it are allowed
  ("3 photos", "1,400 km", "I spent $42.50 in March 2026"): dates ("March 2026", "2026-03-14") and times are
  not counted as numbers, nor numbers that echo the instruction (`context`: "12 of the 30 users"
  for "How many of the 30 users ...", a number with a word beside it as the instruction has them). A currency
  symbol or code other than the declared `currency` fails, and so does a second number
  ("41 or 42", a list of every candidate).
- **date**: the answer is one date, parsed explicitly (ISO 2026-03-14, "14 March 2026",
  "March 14, 2026", "Mar 14 2026", with an optional weekday and ordinal suffix); day, month and
  year must all be given and equal the truth.
- **time**: one time of day, "7:05", "07:05", "7:05 am", "19:05" / "7:05 pm", equal to the truth
  ("HH:MM", 24-hour).

`choices` declares a task whose answer is one of k fixed options (yes/no, a weekday): the
guessability gate in the tests then allows the most common answer a share of 1/k instead of 10%.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Iterable

from .checkers import CheckResult, checker

KINDS = ("text", "number", "date", "time")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty".split())}
#: currency marks: a declared currency may be written as any of its own forms, no other may appear
CURRENCIES = {"$": ("$", "usd", "dollar", "dollars"), "€": ("€", "eur", "euro", "euros"),
              "£": ("£", "gbp", "pound", "pounds"), "¥": ("¥", "jpy", "yen")}


@dataclass(frozen=True)
class Answer:
    """What a task expects as its final answer and how it is read (see the module's policy)."""
    truth: str | int | float
    kind: str = "text"
    aliases: tuple[str, ...] = ()
    currency: str | None = None
    rel_tol: float = 0.0
    choices: int | None = None
    context: str = field(default="", compare=False)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"answer kind must be one of {KINDS}, got {self.kind!r}")
        if self.currency is not None and self.currency not in CURRENCIES:
            raise ValueError(f"currency must be one of {sorted(CURRENCIES)}, got {self.currency!r}")

    def key(self) -> str:
        """The truth as one canonical string: what the guessability gate and the test split compare."""
        if self.kind == "number":
            v = float(self.truth)
            return str(int(v)) if v == int(v) else repr(v)
        return normalize_answer(str(self.truth))


_PAIRS = ('""', "''", "“”", "‘’", "()", "[]", "«»", "``", "**")


def normalize_answer(text: str) -> str:
    """NFKC, case folded, whitespace collapsed, one pair of surrounding quotes/brackets, a leading
    article and trailing punctuation dropped."""
    t = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    t = re.sub(r"\s+", " ", t).strip()
    t = t.rstrip(" .!。")
    for pair in _PAIRS:
        if len(t) >= 2 and t[0] == pair[0] and t[-1] == pair[1]:
            t = t[1:-1].strip().rstrip(" .!。")
            break
    t = re.sub(r"^(?:the|a|an) ", "", t)
    return t


# ---- numbers --------------------------------------------------------------------------------------
_MONTH_RE = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE_PHRASES = [
    re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}\b"),
    re.compile(rf"\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_RE}(?:,?\s+\d{{4}})?\b"),
    re.compile(rf"\b{_MONTH_RE}\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+\d{{4}}\b)?"),
    re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:am|pm)?\b"),
]
# a month or a year named as the time of something ("in March 2026", "during 2025"): not the answer's
# number, unless nothing else is ("born in 1950" answers a year question)
_PERIOD_PHRASES = [
    re.compile(rf"\b{_MONTH_RE}\s+\d{{4}}\b"),
    re.compile(r"\bq[1-4]\s+\d{4}\b"),
    re.compile(r"\b(?:in|of|during|since|until|for)\s+(?:19|20)\d{2}\b"),
]
# digits with thousands separators (1,234,567 / 1 234 / 1’234) or plain, with a decimal part
_NUMBER = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:[,\u2009\u202f’' ]\d{3})+|\d+)(?:\.\d+)?(?![\w])|"
                     r"(?<![\w.])-?\.\d+(?![\w])")


def _numbers(text: str) -> list[float]:
    out = []
    for m in _NUMBER.finditer(text):
        out.append(float(re.sub(r"[,\u2009\u202f’' ]", "", m.group(0))))
    for w in re.findall(r"[a-z]+", text):
        if w in _NUMBER_WORDS:
            out.append(float(_NUMBER_WORDS[w]))
    return out


def _strip_dates(text: str, periods: bool = True) -> str:
    for pat in _DATE_PHRASES + (_PERIOD_PHRASES if periods else []):
        text = pat.sub(" ", text)
    return text


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z]+|\d+(?:\.\d+)?", text)


def _is_number(token: str) -> bool:
    return token[0].isdigit() or token in _NUMBER_WORDS


def _echoes(text: str, context: str) -> set[float]:
    """Numbers of `text` that echo the context: the number with a word beside it, as the context
    has them ("of the 30 users" for "How many of the 30 users ..."), not a number alone."""
    ctx = _tokens(context)
    pairs = set(zip(ctx, ctx[1:]))
    toks = _tokens(text)
    out = set()
    for i, t in enumerate(toks):
        if not _is_number(t):
            continue
        beside = ([(toks[i - 1], t)] if i > 0 else []) + ([(t, toks[i + 1])] if i + 1 < len(toks) else [])
        if any(p in pairs for p in beside):
            out.add(float(t) if t[0].isdigit() else float(_NUMBER_WORDS[t]))
    return out


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    # a currency mark glued to the number is not part of it
    return re.sub(r"([$€£¥])(?=\s*\d)", r"\1 ", text)


def stated_numbers(answer: str, context: str = "") -> list[float]:
    """The distinct numbers an answer states, as the policy counts them: dates and times left out,
    and, when more than one remains, those that echo the `context` (a number with a word beside
    it as the context has them)."""
    text = _strip_dates(_clean(answer))
    nums = list(dict.fromkeys(_numbers(text)))
    if not nums:
        text = _strip_dates(_clean(answer), periods=False)
        nums = list(dict.fromkeys(_numbers(text)))
    if len(nums) > 1 and context:
        echoed = _echoes(text, _strip_dates(_clean(context)))
        rest = [n for n in nums if n not in echoed]
        nums = rest if rest else nums
    return nums


def _currency_ok(answer: str, currency: str | None) -> str | None:
    t = unicodedata.normalize("NFKC", answer).casefold()
    for mark, forms in CURRENCIES.items():
        if mark == currency:
            continue
        for f in forms:
            if (f in t) if len(f) == 1 else re.search(rf"\b{re.escape(f)}\b", t):
                return f
    return None


# ---- dates and times ------------------------------------------------------------------------------
_DATE_FORMATS = ("%Y-%m-%d", "%d %B %Y", "%B %d %Y", "%d %b %Y", "%b %d %Y", "%Y/%m/%d")


def parse_date(text: str) -> date | None:
    """One date in `text`, parsed by explicit formats (weekday and ordinal suffixes allowed); None
    when the whole text is not one date."""
    t = normalize_answer(text)
    t = re.sub(rf"^(?:{'|'.join(_WEEKDAYS)}|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?),?\s+", "", t)
    t = re.sub(r"(?<=\d)(?:st|nd|rd|th)\b", "", t)
    t = re.sub(r"\bof\s+", "", t)
    t = re.sub(r"\bsept\b", "sep", t)
    t = re.sub(r"[,.]", " ", t)
    t = re.sub(r"\s+", " ", t).strip()
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(t, fmt).date()
        except ValueError:
            continue
    return None


def parse_time(text: str) -> tuple[int, int] | None:
    """One time of day in `text` ("7:05", "07:05", "7:05 pm", "19:05"); None when it is not one."""
    t = normalize_answer(text).replace(".", "")
    m = re.fullmatch(r"(\d{1,2})[:h](\d{2})\s*(am|pm|a m|p m)?", t)
    if not m:
        return None
    h, mi, half = int(m.group(1)), int(m.group(2)), (m.group(3) or "").replace(" ", "")
    if half:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if half == "pm" else 0)
    if h > 23 or mi > 59:
        return None
    return h, mi


# ---- the matcher ----------------------------------------------------------------------------------
@checker
def match_answer(answer: str | None, expected: Answer) -> CheckResult:
    """Whether the agent's final answer is the expected one, read by the module's policy."""
    if answer is None or not answer.strip():
        return CheckResult.failed("no answer given (finish with finished(content='...'))")
    if len(answer) > 2000:
        return CheckResult.failed(f"the answer is {len(answer)} characters long; give the answer alone")
    shown = answer.strip()[:80]
    if expected.kind == "number":
        other = _currency_ok(answer, expected.currency)
        if other is not None:
            return CheckResult.failed(f"answer {shown!r} is in {other!r}, not {expected.currency or 'a plain number'}")
        nums = stated_numbers(answer, expected.context)
        if len(nums) != 1:
            return CheckResult.failed(f"answer {shown!r} must state exactly one number, found {len(nums)}")
        want = float(expected.truth)
        if abs(nums[0] - want) <= max(1e-9, expected.rel_tol * abs(want)):
            return CheckResult.passed(f"answer {shown!r} is {expected.truth}")
        return CheckResult.failed(f"answer {shown!r} is not {expected.truth}")
    if expected.kind == "date":
        got, want = parse_date(answer), date.fromisoformat(str(expected.truth))
        if got is None:
            return CheckResult.failed(f"answer {shown!r} is not one date with day, month and year")
        if got != want:
            return CheckResult.failed(f"answer {shown!r} is {got.isoformat()}, not {want.isoformat()}")
        return CheckResult.passed(f"answer {shown!r} is {want.isoformat()}")
    if expected.kind == "time":
        got, want = parse_time(answer), parse_time(str(expected.truth))
        if got is None:
            return CheckResult.failed(f"answer {shown!r} is not one time of day")
        if got != want:
            return CheckResult.failed(f"answer {shown!r} is {got[0]:02d}:{got[1]:02d}, not {expected.truth}")
        return CheckResult.passed(f"answer {shown!r} is {expected.truth}")
    said = normalize_answer(answer)
    accepted = [str(expected.truth), *expected.aliases]
    if any(said == normalize_answer(t) for t in accepted):
        return CheckResult.passed(f"answer {shown!r} is right")
    return CheckResult.failed(f"answer {shown!r} is not {str(expected.truth)!r}")


def answer_keys(answers: Iterable[Answer]) -> list[str]:
    return [a.key() for a in answers]
