"""Checkers of the Webmail app's state (tasks/webapps/mail.py `MailApp.state()`): folders, flags and sent mail."""

from __future__ import annotations

import re
from typing import Iterable, Mapping, Sequence

from .checkers import CheckResult, Condition, all_of, checker, judged, normalize_text, not_judged

#: fields whose change a task never judges: opening a message marks it read, as in any mail client
IGNORED = ("read",)


def mailbox_changes(before: Mapping, after: Mapping, ignore: Iterable[str] = IGNORED) -> dict:
    """What differs between two states: new messages, removed ids, {id: {field: (old, new)}}, new folders."""
    old = {m["id"]: m for m in before["messages"]}
    now = {m["id"]: m for m in after["messages"]}
    changed = {}
    for i, m in old.items():
        if i in now:
            diff = {k: (m[k], now[i].get(k)) for k in m if k not in ignore and now[i].get(k) != m[k]}
            if diff:
                changed[i] = diff
    return {"new": [now[i] for i in now if i not in old], "removed": [i for i in old if i not in now],
            "changed": changed, "new_folders": [f for f in after["folders"] if f not in before["folders"]],
            "gone_folders": [f for f in before["folders"] if f not in after["folders"]]}


@checker
def mailbox_changed_only(before: Mapping, after: Mapping, expected: Mapping[int, Mapping[str, object]],
                         new_messages: int = 0, new_folders: Sequence[str] = ()) -> CheckResult:
    """The mailbox changed exactly as `expected` ({id: {field: new value}}), plus `new_messages` new
    messages and the `new_folders`; nothing else (read flags aside)."""
    ch = mailbox_changes(before, after)
    was = {m["id"]: m for m in before["messages"]}
    conditions = []
    for i, fields in expected.items():
        now = next((m for m in after["messages"] if m["id"] == i), None)
        name = f"message {i} has {dict(fields)}"
        done = i in was and all(was[i].get(k) == v for k, v in fields.items())   # held before: nothing to do
        if now is None:
            conditions.append(Condition(name, False, f"message {i} was deleted for good", guard=done))
            continue
        wrong = {k: now.get(k) for k, v in fields.items() if now.get(k) != v}
        conditions.append(Condition(name, not wrong, f"message {now['subject']!r} has {wrong}, expected {dict(fields)}"
                                    if wrong else f"message {now['subject']!r} has {dict(fields)}", guard=done))
    stray = {i: d for i, d in ch["changed"].items()
             if i not in expected or set(d) - set(expected[i])}
    first = next(iter(stray), None)
    conditions.append(Condition("no other message changed", not stray,
                                f"{len(stray)} other message(s) changed, e.g. message {first}: "
                                f"{ {k: v[1] for k, v in stray[first].items()} }" if stray else "", guard=True))
    conditions.append(Condition("no message deleted for good", not ch["removed"],
                                f"{len(ch['removed'])} message(s) were deleted for good", guard=True))
    conditions.append(Condition(f"{new_messages} message(s) sent", len(ch["new"]) == new_messages,
                                f"{len(ch['new'])} message(s) were sent, expected {new_messages}",
                                guard=new_messages == 0))
    conditions.append(Condition(f"folders added: {sorted(new_folders)}",
                                sorted(ch["new_folders"]) == sorted(new_folders) and not ch["gone_folders"],
                                f"folders added {ch['new_folders']} / removed {ch['gone_folders']}, "
                                f"expected added {list(new_folders)}", guard=not new_folders))
    return judged(conditions, f"{len(expected)} message(s) changed as asked, nothing else")


def _addrs(people: Sequence[Mapping]) -> list[str]:
    return sorted(p["addr"].lower() for p in people)


def _norm_body(text: str) -> str:
    return normalize_text(re.sub(r"[,$]", "", text))


@checker
def mail_sent(before: Mapping, after: Mapping, to: Sequence[str], subject: str, body_has: Sequence[str] = (),
              cc: Sequence[str] = (), in_reply_to: int | None = None, forward_of: int | None = None,
              attachments: Sequence[str] = ()) -> CheckResult:
    """Exactly one new message, in Sent, with these recipients, subject, phrases in its body
    (compared without case, commas and $), reference and attachment names."""
    new = mailbox_changes(before, after)["new"]
    one = Condition("one message sent", len(new) == 1, f"{len(new)} messages were sent, expected 1")
    names = ("the sent message's To", "its Cc", "its subject", "its body", "its reference (reply)",
             "its reference (forward)", "its attachments")
    if not one.held:
        return CheckResult.failed(one.message, conditions=[one, *not_judged(names, one.message)])
    m = new[0]
    found = [
        None if _addrs(m["to"]) == sorted(a.lower() for a in to) else f"To is {_addrs(m['to'])}, expected {sorted(to)}",
        None if _addrs(m["cc"]) == sorted(a.lower() for a in cc) else f"Cc is {_addrs(m['cc'])}, expected {sorted(cc)}",
        None if normalize_text(m["subject"]) == normalize_text(subject)
        else f"subject is {m['subject']!r}, expected {subject!r}",
    ]
    missing = [p for p in body_has if _norm_body(p) not in _norm_body(m["body"])]
    found.append(f"the body lacks {missing}" if missing else None)
    found.append(None if m.get("in_reply_to") == in_reply_to else
                 "it is not a reply to the right message" if in_reply_to else "it is a reply, not a new message")
    found.append(None if m.get("forward_of") == forward_of else
                 "it does not forward the right message" if forward_of else "it forwards a message")
    found.append(None if sorted(a["name"] for a in m["attachments"]) == sorted(attachments) else
                 f"attachments are {[a['name'] for a in m['attachments']]}, expected {list(attachments)}")
    conditions = [one, *(Condition(n, why is None, why or "") for n, why in zip(names, found))]
    problems = [why for why in found if why]
    if problems:
        return CheckResult.failed("the sent message is wrong: " + "; ".join(problems), conditions=conditions)
    return CheckResult.passed(f"sent {m['subject']!r} to {', '.join(to)}", conditions)


@checker
def mail_sent_and_changed(before: Mapping, after: Mapping, sent: Mapping, expected: Mapping[int, Mapping] = {},
                          new_folders: Sequence[str] = ()) -> CheckResult:
    """One message sent as `sent` describes (mail_sent's arguments), other changes exactly `expected`."""
    return all_of(mail_sent(before, after, **sent),
                  mailbox_changed_only(before, after, expected, new_messages=1, new_folders=new_folders))
