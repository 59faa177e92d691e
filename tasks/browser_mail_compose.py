"""Browser tasks on the Webmail app (assets/web/mail/, backend tasks/webapps/mail.py): compose, reply, forward.

## Description
"Lumen Mail": a seeded mailbox (~70 messages over Inbox, Sent, Archive, Trash and custom
folders) with search, compose with address autocomplete, reply, forward (attachments
go along) and bulk moves. The tasks here write mail: a new message with Cc, a reply, a
forward with a note, and a reply quoting a figure from another email followed by
filing both. Reading and organising mail: `browser_mail.py`.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when the checker passes on the mailbox (`MailApp.state()`): exactly the asked-for
message was sent (recipients, subject, body text, the message it answers or forwards)
and, where asked, exactly the asked-for messages moved; nothing else changed (read
flags are not judged).

## Starting State
A mailbox seed (and for some tasks two messages of the task's own) is drawn from the
reset seed; the app is loaded fresh at setup and the page opens on the Inbox.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1 (mail-reply-quote-move): the reply must state the budget as its one figure (the reply's own
  text, the quoted email left out, read by `reward.answers.stated_numbers`): a list of figures or a
  wrong figure that contains the right one as a substring fails. The test split's mailboxes
  and projects have names of their own; mail-forward's instruction names the sender too.
"""

from __future__ import annotations

import re

from hybridgym.reward.answers import stated_numbers
from hybridgym.reward.checkers import CheckResult, all_of, checker
from hybridgym.reward.mail import mail_sent, mail_sent_and_changed, mailbox_changed_only
from hybridgym.tasks.webapps import mail

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import Pool, pick
from .kit.web import MailTask, choose, click, click_nav, fill

_NOTES = ["Please take a look when you can.", "Can you handle this one?", "FYI, see below.",
          "Forwarding for your records.", "Could you check the figures?", "Over to you, thanks!"]
_REPLIES = ["Thanks, that works for me.", "Sounds good, see you then.", "Got it, I will follow up tomorrow.",
            "Thank you! I will review it this afternoon.", "Great, let's go ahead.", "Noted, thanks for the update."]
_NEW_PROJECTS = Pool(["Orchid", "Quartz", "Sierra", "Tundra", "Willow", "Zephyr", "Aurora", "Basalt", "Comet",
                      "Dune", "Fern", "Glacier", "Horizon", "Lagoon", "Magnolia", "Nova", "Polaris", "Redwood"])
#: the outside addresses a forward goes to
_OUTSIDE = Pool([f"{who}@{where}" for who in ("accounts", "finance", "office", "reports")
                 for where in ("bluepeak.test", "harbor.test", "example.org")])


def own_text(body: str) -> str:
    """The part of a reply the sender wrote: the body less the quoted email (the "On <date>, <who>
    wrote:" line the compose page adds and every line after it, and any "> " line)."""
    lines = []
    for ln in body.splitlines():
        if re.match(r"^On .+ wrote:\s*$", ln):
            break
        if not ln.lstrip().startswith(">"):
            lines.append(ln)
    return "\n".join(lines)


@checker
def reply_states_figure(before, after, figure: int, context: str = "") -> CheckResult:
    """The one new message's own text states exactly one number, and it is `figure` (read as
    `reward.answers` reads a number: "$34,500", "34500"; dates and times are not counted)."""
    old = {m["id"] for m in before["messages"]}
    new = [m for m in after["messages"] if m["id"] not in old]
    if len(new) != 1:
        return CheckResult.failed(f"{len(new)} messages were sent, expected 1")
    nums = stated_numbers(own_text(new[0]["body"]), context)
    if len(nums) != 1:
        return CheckResult.failed(f"the reply must state the one figure asked for; it states {len(nums)} numbers")
    if nums[0] != float(figure):
        return CheckResult.failed(f"the reply states {nums[0]:g}, not the approved budget")
    return CheckResult.passed(f"the reply states the budget, {figure:,}")


def _open_then(sb, text: str, mid: int, button: str = "#reply"):
    """Oracle steps: find message `mid` by searching `text`, open it, and press a button of it (Reply)."""
    yield from fill(sb, "#search", text + "\n", navigates=True)
    yield from click_nav(sb, f"tr.row[data-id='{mid}'] a.open")
    yield from click_nav(sb, button)


def _write_top(sb, text: str):
    """Oracle steps in a compose form: put the caret at the very start of the body and type, then send."""
    yield click(sb, "#body")
    yield act.keys("ctrl", "home")
    yield act.typed(text)
    yield from click_nav(sb, "#send")


def _pick_contact(sb, field: str, name: str, addr: str):
    """Oracle steps: type a contact's name in To/Cc and take the autocomplete suggestion."""
    yield click(sb, f"#{field}")
    yield act.typed(name)
    sb.browser.page.wait_for_selector(f"#suggest-{field}.open div.sel:has-text({addr!r})", timeout=5000)
    yield act.keys("enter")


@register_task(id="browser.mail-compose-v0", max_steps=20)
class MailCompose(MailTask):
    """Write a new email to a contact with another in Cc (names only: the address book's
    autocomplete gives the addresses), with a given subject and body. About 10 steps."""

    def sample_for(self, rng, box):
        a, b = pick(rng, box["contacts"], k=2)
        return {"to": a, "cc": b, "subject": str(rng.choice(mail.NEW_SUBJECTS)),
                "body": str(rng.choice(mail.NEW_BODIES))}

    def instruction(self, params):
        return (f"In Lumen Mail, send a new email to {params['to']['name']} with {params['cc']['name']} in Cc. "
                f"Subject: \"{params['subject']}\". Body: \"{params['body']}\"")

    def check(self, state, params, outcome: Outcome, baseline):
        return all_of(mail_sent(baseline, state, [params["to"]["addr"]], params["subject"], [params["body"]],
                                cc=[params["cc"]["addr"]]),
                      mailbox_changed_only(baseline, state, {}, new_messages=1))

    def oracle(self, sb, params):
        yield from click_nav(sb, "#compose")
        yield from _pick_contact(sb, "to", params["to"]["name"], params["to"]["addr"])
        yield from _pick_contact(sb, "cc", params["cc"]["name"], params["cc"]["addr"])
        yield click(sb, "#subject")
        yield act.typed(params["subject"])
        yield click(sb, "#body")
        yield act.typed(params["body"])
        yield from click_nav(sb, "#send")
        yield act.finish()


@register_task(id="browser.mail-reply-v0", max_steps=12)
class MailReply(MailTask):
    """Reply to the most recent inbox email from a contact with a given sentence."""

    def sample_for(self, rng, box):
        senders = mail.by_sender(box, 2)
        addr = pick(rng, sorted(senders))
        m = max(senders[addr], key=lambda x: (x["date"], x["id"]))
        return {"message": m["id"], "name": m["from"]["name"], "addr": addr,
                "subject": m["subject"], "text": str(rng.choice(_REPLIES))}

    def instruction(self, params):
        return (f"In Lumen Mail, reply to the most recent email from {params['name']} in your Inbox with: "
                f"\"{params['text']}\"")

    def check(self, state, params, outcome: Outcome, baseline):
        subject = params["subject"] if params["subject"].startswith("Re: ") else "Re: " + params["subject"]
        return mail_sent_and_changed(baseline, state, {"to": [params["addr"]], "subject": subject,
                                                       "body_has": [params["text"]], "in_reply_to": params["message"]})

    def oracle(self, sb, params):
        yield from _open_then(sb, params["name"], params["message"])
        yield from _write_top(sb, params["text"])
        yield act.finish()


@register_task(id="browser.mail-forward-v0", max_steps=14)
class MailForward(MailTask):
    """Forward an email with an attachment to an outside address, with a short note on top."""

    def sample_for(self, rng, box):
        pool = [m for m in mail.inbox(box) if m["attachments"] and mail.unique_subject(box, m)]
        if not pool:
            return None
        m = pick(rng, pool)
        to = pick(rng, _OUTSIDE)
        return {"message": m["id"], "subject": m["subject"], "to": to, "sender": m["from"]["name"],
                "note": str(rng.choice(_NOTES)), "attachments": [a["name"] for a in m["attachments"]]}

    def instruction(self, params):
        sender = f" from {params['sender']}" if params.get("sender") else ""
        return (f"In Lumen Mail, forward the email \"{params['subject']}\"{sender} with its attachment to {params['to']}, "
                f"with the note \"{params['note']}\" at the top.")

    def check(self, state, params, outcome: Outcome, baseline):
        return mail_sent_and_changed(baseline, state, {
            "to": [params["to"]], "subject": "Fwd: " + params["subject"], "body_has": [params["note"]],
            "forward_of": params["message"], "attachments": params["attachments"]})

    def oracle(self, sb, params):
        yield from _open_then(sb, params["subject"], params["message"], button="#forward")
        yield from fill(sb, "#to", params["to"])
        yield from _write_top(sb, params["note"])
        yield act.finish()


@register_task(id="browser.mail-reply-quote-move-v1", max_steps=30)
class MailReplyQuoteMove(MailTask):
    """Answer a colleague's question with a figure from another colleague's email, then file both emails.

    A asks about a project's budget; B's email states the approved budget. The agent
    replies to A quoting the figure and moves both emails to the Projects folder
    (about 15 steps: search, read, reply, send, search again, select, move).
    """

    def sample_for(self, rng, box):
        a, b = pick(rng, box["contacts"], k=2)
        proj, budget = pick(rng, _NEW_PROJECTS), int(rng.integers(12, 180)) * 500
        n = len(box["messages"])
        extra = [
            {"from": b, "subject": f"Budget for {proj}", "date": "2026-03-13 11:05", "read": False,
             "body": f"Hi Sam,\n\nGood news: finance approved a budget of ${budget:,} for {proj}. "
                     f"Spending can start next month.\n\nBest,\n{b['name'].split()[0]}"},
            {"from": a, "subject": f"Question about {proj}", "date": "2026-03-14 08:40", "read": False,
             "body": f"Hi Sam,\n\nDo you know how much budget {proj} got approved? I need the figure for the plan.\n\n"
                     f"Thanks,\n{a['name'].split()[0]}"},
        ]
        return {"extra": extra, "a": a, "b": b, "project": proj, "budget": budget,
                "budget_id": n + 1, "question_id": n + 2, "folder": "Projects"}

    def instruction(self, params):
        return (f"In Lumen Mail, {params['a']['name']} asked about the {params['project']} budget. Reply to that email "
                f"with the approved budget figure, which is in {params['b']['name']}'s email, and then move both "
                f"emails to the {params['folder']} folder.")

    def check(self, state, params, outcome: Outcome, baseline):
        f = params["folder"]
        return all_of(mail_sent_and_changed(
            baseline, state,
            {"to": [params["a"]["addr"]], "subject": f"Re: Question about {params['project']}",
             "in_reply_to": params["question_id"]},
            {params["budget_id"]: {"folder": f}, params["question_id"]: {"folder": f}}),
            reply_states_figure(baseline, state, params["budget"], self.instruction(params)))

    def oracle(self, sb, params):
        yield from _open_then(sb, params["project"], params["budget_id"], button="#back")
        yield from _open_then(sb, params["project"], params["question_id"])
        yield from _write_top(sb, f"Hi {params['a']['name'].split()[0]}, the approved budget is ${params['budget']:,}.")
        yield from fill(sb, "#search", params["project"] + "\n", navigates=True)
        for i in (params["budget_id"], params["question_id"]):
            yield click(sb, f"tr.row[data-id='{i}'] input.pick")
        yield from choose(sb, "#move-select", params["folder"], navigates=True)
        yield act.finish()
