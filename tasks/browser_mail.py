"""Browser tasks on the Webmail app (assets/web/mail/, backend tasks/webapps/mail.py): read, search, star, move, reply, forward.

## Description
"Lumen Mail": a seeded mailbox (~70 messages over Inbox, Sent, Archive, Trash and custom
folders; meeting rooms, invoices, budgets, flights, CSV and text attachments,
newsletters) with folder navigation, search, pagination, stars, bulk move/delete,
new folders, compose with address autocomplete, reply, forward and attachments that
open in a new tab.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when the checker passes on the mailbox (`MailApp.state()`): exactly the asked-for
messages changed folder or flag, exactly the asked-for message was sent, nothing else
(opening a message marks it read; read flags are not judged); for questions, the
`finished(content=...)` answer must match.

## Starting State
A mailbox seed (and sometimes a few messages of the task's own) is drawn from the reset
seed; the app is installed fresh at setup and the page opens on the Inbox.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
"""

from __future__ import annotations

import numpy as np

from hybridgym.reward.checkers import all_of, answer_matches
from hybridgym.reward.mail import mail_sent, mail_sent_and_changed, mailbox_changed_only
from hybridgym.tasks.webapps import mail

from .base import Task, register_task
from .browser_shop import choose, click, click_nav, fill, finish, page_of, type_nav, wait_ready, wait_tabs

_NOTES = ["Please take a look when you can.", "Can you handle this one?", "FYI, see below.",
          "Forwarding for your records.", "Could you check the figures?", "Over to you, thanks!"]
_REPLIES = ["Thanks, that works for me.", "Sounds good, see you then.", "Got it, I will follow up tomorrow.",
            "Thank you! I will review it this afternoon.", "Great, let's go ahead.", "Noted, thanks for the update."]
_SUBJECTS = ["Agenda for next week", "Draft proposal", "Vendor shortlist", "Hiring plan update",
             "Customer feedback summary", "Website copy review", "Travel plans for April"]
_BODIES = ["Hi, here is the draft we talked about. Let me know what you think.",
           "Please find my notes below and share them with the team.",
           "Following up on our call: the next step is on your side."]
_FOLDER_NAMES = ["Clients", "Finance 2026", "Hiring", "Conference", "Vendors", "Team Offsite", "Suppliers"]
_NEW_PROJECTS = ["Orchid", "Quartz", "Sierra", "Tundra", "Willow", "Zephyr"]


def _box(rng: np.random.Generator) -> tuple[int, dict]:
    seed = int(rng.integers(0, 2**31 - 1))
    return seed, mail.generate_mailbox(seed)


def _inbox(box: dict) -> list[dict]:
    return [m for m in box["messages"] if m["folder"] == "inbox"]


def _unique_subject(box: dict, m: dict) -> bool:
    return sum(x["subject"] == m["subject"] for x in box["messages"]) == 1


def _by_sender(box: dict, min_count: int, max_count: int = 5) -> dict[str, list[dict]]:
    """Inbox messages per contact address, for contacts with `min_count` to `max_count` of them."""
    contacts = {c["addr"] for c in box["contacts"]}
    out: dict[str, list[dict]] = {}
    for m in _inbox(box):
        if m["from"]["addr"] in contacts:
            out.setdefault(m["from"]["addr"], []).append(m)
    return {a: ms for a, ms in sorted(out.items()) if min_count <= len(ms) <= max_count}


class MailTask(Task):
    """Base of the webmail tasks: installs the mailbox from params, reads its state."""

    suite = "browser"

    def setup(self, sb, params: dict) -> None:
        mail.install(sb.server, params["mailbox"], extra=params.get("extra", []))
        sb.browser.load(sb.server.url("/mail/index.html"))
        wait_ready(sb)

    def read_state(self, sb, params: dict) -> dict:
        return mail.app_of(sb.server).state()


def _search(sb, text: str, folder_link: str | None = None):
    """Oracle steps: (open a folder, then) search it."""
    if folder_link:
        yield from click_nav(sb, f"a.folder-link[data-folder={folder_link!r}]")
    yield click(sb, "#search")
    yield from type_nav(sb, text + "\n")


def _open(sb, mid: int):
    yield from click_nav(sb, f"tr.row[data-id='{mid}'] a.open")


def _write_top(sb, text: str):
    """Oracle steps in a compose form: put the caret at the very start of the body and type."""
    yield click(sb, "#body")
    yield {"action_type": "hotkey", "keys": ["ctrl", "home"]}
    yield {"action_type": "type", "text": text}


def _pick_contact(sb, field: str, name: str, addr: str):
    """Oracle steps: type a contact's name in To/Cc and take the autocomplete suggestion."""
    yield click(sb, f"#{field}")
    yield {"action_type": "type", "text": name}
    sb.browser.page.wait_for_selector(f"#suggest-{field}.open div.sel:has-text({addr!r})", timeout=5000)
    yield {"action_type": "hotkey", "keys": ["enter"]}


@register_task
class MailAnswerFact(MailTask):
    """Answer a question whose answer is stated in one email of the inbox (a room, a seat).

    The mailbox holds ~45 inbox messages over 3 pages; search or paging finds it.
    The mailbox must be untouched (read flags aside).
    """

    id = "browser.mail-answer-fact-v0"
    max_steps = 10

    def sample(self, rng):
        seed, box = _box(rng)
        pool = [m for m in _inbox(box) if ("room" in m["facts"] or "seat" in m["facts"]) and _unique_subject(box, m)]
        if not pool:
            return self.sample(rng)
        m = pool[int(rng.integers(0, len(pool)))]
        if "room" in m["facts"]:
            q = f"In which room is the meeting in {m['from']['name']}'s email \"{m['subject']}\"? Answer with the room only."
            a, kind = m["facts"]["room"], "room"
        else:
            q = f"What is my seat on flight {m['facts']['flight']}, according to my email? Answer with the seat only."
            a, kind = m["facts"]["seat"], "seat"
        return {"mailbox": seed, "message": m["id"], "subject": m["subject"], "question": q, "answer": a,
                "kind": kind}

    def instruction(self, params):
        return "In Lumen Mail: " + params["question"]

    def check(self, state, params, answer, baseline):
        truths = [params["answer"], f"{params['kind']} {params['answer']}"]   # "B2.14" or "Room B2.14"
        return all_of(answer_matches(answer, truths), mailbox_changed_only(baseline, state, {}))

    def oracle(self, sb, params):
        yield from _search(sb, params["subject"])
        yield from _open(sb, params["message"])
        yield finish(params["answer"] if params["answer"] in sb.browser.page.inner_text("#body") else "")


@register_task
class MailStarSender(MailTask):
    """Star every inbox email from one contact (2 or more of them, over several pages)."""

    id = "browser.mail-star-sender-v0"
    max_steps = 12

    def sample(self, rng):
        seed, box = _box(rng)
        senders = _by_sender(box, 2)
        addr = sorted(senders)[int(rng.integers(0, len(senders)))]
        ms = senders[addr]
        if all(m["starred"] for m in ms):
            return self.sample(rng)
        return {"mailbox": seed, "name": ms[0]["from"]["name"], "ids": [m["id"] for m in ms if not m["starred"]],
                "all": [m["id"] for m in ms]}

    def instruction(self, params):
        return f"In Lumen Mail, star every email from {params['name']} in your Inbox."

    def check(self, state, params, answer, baseline):
        return mailbox_changed_only(baseline, state, {i: {"starred": True} for i in params["ids"]})

    def oracle(self, sb, params):
        yield from _search(sb, params["name"])
        for i in params["ids"]:
            yield click(sb, f"tr.row[data-id='{i}'] button.star")
            sb.browser.page.wait_for_selector(f"tr.row[data-id='{i}'] button.star.on", timeout=5000)
        yield finish()


@register_task
class MailMoveToFolder(MailTask):
    """Move one named inbox email to a custom folder."""

    id = "browser.mail-move-v0"
    max_steps = 10

    def sample(self, rng):
        seed, box = _box(rng)
        pool = [m for m in _inbox(box) if _unique_subject(box, m)]
        m = pool[int(rng.integers(0, len(pool)))]
        return {"mailbox": seed, "message": m["id"], "subject": m["subject"], "sender": m["from"]["name"],
                "folder": str(rng.choice(mail.CUSTOM_FOLDERS))}

    def instruction(self, params):
        return (f"In Lumen Mail, move the email \"{params['subject']}\" from {params['sender']} "
                f"to the {params['folder']} folder.")

    def check(self, state, params, answer, baseline):
        return mailbox_changed_only(baseline, state, {params["message"]: {"folder": params["folder"]}})

    def oracle(self, sb, params):
        yield from _search(sb, params["subject"])
        yield from _open(sb, params["message"])
        yield from choose(sb, "#move-select", params["folder"], navigates=True)
        yield finish()


@register_task
class MailDeleteNewsletters(MailTask):
    """Delete (move to Trash) every inbox newsletter from one sender; other mail stays."""

    id = "browser.mail-delete-newsletters-v0"
    max_steps = 12

    def sample(self, rng):
        seed, box = _box(rng)
        groups: dict[str, list[int]] = {}
        for m in _inbox(box):
            if any(m["from"]["addr"] == n[1] for n in mail.NEWSLETTERS):
                groups.setdefault(m["from"]["name"], []).append(m["id"])
        groups = {k: v for k, v in sorted(groups.items()) if len(v) >= 2}
        if not groups:
            return self.sample(rng)
        name = sorted(groups)[int(rng.integers(0, len(groups)))]
        return {"mailbox": seed, "name": name, "ids": groups[name]}

    def instruction(self, params):
        return f"In Lumen Mail, delete every \"{params['name']}\" newsletter in your Inbox."

    def check(self, state, params, answer, baseline):
        return mailbox_changed_only(baseline, state, {i: {"folder": "trash"} for i in params["ids"]})

    def oracle(self, sb, params):
        yield from _search(sb, params["name"])
        for i in params["ids"]:
            yield click(sb, f"tr.row[data-id='{i}'] input.pick")
        yield from click_nav(sb, "#delete-btn")
        yield finish()


@register_task
class MailCompose(MailTask):
    """Write a new email to a contact with another in Cc (names only: the address book's
    autocomplete gives the addresses), with a given subject and body. About 10 steps."""

    id = "browser.mail-compose-v0"
    max_steps = 20

    def sample(self, rng):
        seed, box = _box(rng)
        a, b = (box["contacts"][int(i)] for i in rng.choice(len(box["contacts"]), size=2, replace=False))
        return {"mailbox": seed, "to": a, "cc": b, "subject": str(rng.choice(_SUBJECTS)), "body": str(rng.choice(_BODIES))}

    def instruction(self, params):
        return (f"In Lumen Mail, send a new email to {params['to']['name']} with {params['cc']['name']} in Cc. "
                f"Subject: \"{params['subject']}\". Body: \"{params['body']}\"")

    def check(self, state, params, answer, baseline):
        return all_of(mail_sent(baseline, state, [params["to"]["addr"]], params["subject"], [params["body"]],
                                cc=[params["cc"]["addr"]]),
                      mailbox_changed_only(baseline, state, {}, new_messages=1))

    def oracle(self, sb, params):
        yield from click_nav(sb, "#compose")
        yield from _pick_contact(sb, "to", params["to"]["name"], params["to"]["addr"])
        yield from _pick_contact(sb, "cc", params["cc"]["name"], params["cc"]["addr"])
        yield click(sb, "#subject")
        yield {"action_type": "type", "text": params["subject"]}
        yield click(sb, "#body")
        yield {"action_type": "type", "text": params["body"]}
        yield from click_nav(sb, "#send")
        yield finish()


@register_task
class MailReply(MailTask):
    """Reply to the most recent inbox email from a contact with a given sentence."""

    id = "browser.mail-reply-v0"
    max_steps = 12

    def sample(self, rng):
        seed, box = _box(rng)
        senders = _by_sender(box, 2)
        addr = sorted(senders)[int(rng.integers(0, len(senders)))]
        m = max(senders[addr], key=lambda x: (x["date"], x["id"]))
        return {"mailbox": seed, "message": m["id"], "name": m["from"]["name"], "addr": addr,
                "subject": m["subject"], "text": str(rng.choice(_REPLIES))}

    def instruction(self, params):
        return (f"In Lumen Mail, reply to the most recent email from {params['name']} in your Inbox with: "
                f"\"{params['text']}\"")

    def check(self, state, params, answer, baseline):
        subject = params["subject"] if params["subject"].startswith("Re: ") else "Re: " + params["subject"]
        return mail_sent_and_changed(baseline, state, {"to": [params["addr"]], "subject": subject,
                                                       "body_has": [params["text"]], "in_reply_to": params["message"]})

    def oracle(self, sb, params):
        yield from _search(sb, params["name"])
        yield from _open(sb, params["message"])
        yield from click_nav(sb, "#reply")
        yield from _write_top(sb, params["text"])
        yield from click_nav(sb, "#send")
        yield finish()


@register_task
class MailForward(MailTask):
    """Forward an email with an attachment to an outside address, with a short note on top."""

    id = "browser.mail-forward-v0"
    max_steps = 14

    def sample(self, rng):
        seed, box = _box(rng)
        pool = [m for m in _inbox(box) if m["attachments"] and _unique_subject(box, m)]
        if not pool:
            return self.sample(rng)
        m = pool[int(rng.integers(0, len(pool)))]
        to = f"{rng.choice(['accounts', 'finance', 'office', 'reports'])}@{rng.choice(['bluepeak.test', 'harbor.test'])}"
        return {"mailbox": seed, "message": m["id"], "subject": m["subject"], "to": to,
                "note": str(rng.choice(_NOTES)), "attachments": [a["name"] for a in m["attachments"]]}

    def instruction(self, params):
        return (f"In Lumen Mail, forward the email \"{params['subject']}\" with its attachment to {params['to']}, "
                f"with the note \"{params['note']}\" at the top.")

    def check(self, state, params, answer, baseline):
        return mail_sent_and_changed(baseline, state, {
            "to": [params["to"]], "subject": "Fwd: " + params["subject"], "body_has": [params["note"]],
            "forward_of": params["message"], "attachments": params["attachments"]})

    def oracle(self, sb, params):
        yield from _search(sb, params["subject"])
        yield from _open(sb, params["message"])
        yield from click_nav(sb, "#forward")
        yield from fill(sb, "#to", params["to"])
        yield from _write_top(sb, params["note"])
        yield from click_nav(sb, "#send")
        yield finish()


@register_task
class MailAttachmentAnswer(MailTask):
    """Read a figure from a CSV attachment (opens in a new tab) and answer with it."""

    id = "browser.mail-attachment-answer-v0"
    max_steps = 10

    def sample(self, rng):
        seed, box = _box(rng)
        pool = [m for m in _inbox(box) if "revenue" in m["facts"]
                and sum(x["subject"] == m["subject"] and x["from"] == m["from"] for x in box["messages"]) == 1]
        if not pool:
            return self.sample(rng)
        m = pool[int(rng.integers(0, len(pool)))]
        region = str(rng.choice(mail.REGIONS))
        return {"mailbox": seed, "message": m["id"], "subject": m["subject"], "sender": m["from"]["name"],
                "region": region, "answer": m["facts"]["revenue"][region]}

    def instruction(self, params):
        return (f"In Lumen Mail, open the attachment of the email \"{params['subject']}\" from {params['sender']}: "
                f"what revenue does it give for the {params['region']} region? Answer with the number only.")

    def check(self, state, params, answer, baseline):
        return all_of(answer_matches(answer, str(params["answer"]), numeric=True), mailbox_changed_only(baseline, state, {}))

    def oracle(self, sb, params):
        yield from _search(sb, f"{params['subject']} {params['sender']}")
        yield from _open(sb, params["message"])
        yield click(sb, "a.attachment-link")
        wait_tabs(sb, 2)
        tab = page_of(sb, 1)
        tab.wait_for_load_state()
        row = next(ln for ln in tab.inner_text("body").splitlines() if ln.startswith(params["region"] + ","))
        yield finish(row.split(",")[1])


@register_task
class MailReplyQuoteMove(MailTask):
    """Answer a colleague's question with a figure from another colleague's email, then file both emails.

    A asks about a project's budget; B's email states the approved budget. The agent
    replies to A quoting the figure and moves both emails to the Projects folder
    (about 15 steps: search, read, reply, send, search again, select, move).
    """

    id = "browser.mail-reply-quote-move-v0"
    max_steps = 30

    def sample(self, rng):
        seed, box = _box(rng)
        a, b = (box["contacts"][int(i)] for i in rng.choice(len(box["contacts"]), size=2, replace=False))
        proj, budget = str(rng.choice(_NEW_PROJECTS)), int(rng.integers(12, 180)) * 500
        n = len(box["messages"])
        extra = [
            {"from": b, "subject": f"Budget for {proj}", "date": "2026-03-13 11:05", "read": False,
             "body": f"Hi Sam,\n\nGood news: finance approved a budget of ${budget:,} for {proj}. "
                     f"Spending can start next month.\n\nBest,\n{b['name'].split()[0]}"},
            {"from": a, "subject": f"Question about {proj}", "date": "2026-03-14 08:40", "read": False,
             "body": f"Hi Sam,\n\nDo you know how much budget {proj} got approved? I need the figure for the plan.\n\n"
                     f"Thanks,\n{a['name'].split()[0]}"},
        ]
        return {"mailbox": seed, "extra": extra, "a": a, "b": b, "project": proj, "budget": budget,
                "budget_id": n + 1, "question_id": n + 2, "folder": "Projects"}

    def instruction(self, params):
        return (f"In Lumen Mail, {params['a']['name']} asked about the {params['project']} budget. Reply to that email "
                f"with the approved budget figure, which is in {params['b']['name']}'s email, and then move both "
                f"emails to the {params['folder']} folder.")

    def check(self, state, params, answer, baseline):
        f = params["folder"]
        return mail_sent_and_changed(
            baseline, state,
            {"to": [params["a"]["addr"]], "subject": f"Re: Question about {params['project']}",
             "body_has": [str(params["budget"])], "in_reply_to": params["question_id"]},
            {params["budget_id"]: {"folder": f}, params["question_id"]: {"folder": f}})

    def oracle(self, sb, params):
        yield from _search(sb, params["project"])
        yield from _open(sb, params["budget_id"])
        yield from click_nav(sb, "#back")
        yield from _search(sb, params["project"])
        yield from _open(sb, params["question_id"])
        yield from click_nav(sb, "#reply")
        yield from _write_top(sb, f"Hi {params['a']['name'].split()[0]}, the approved budget is ${params['budget']:,}.")
        yield from click_nav(sb, "#send")
        yield from _search(sb, params["project"])
        for i in (params["budget_id"], params["question_id"]):
            yield click(sb, f"tr.row[data-id='{i}'] input.pick")
        yield from choose(sb, "#move-select", params["folder"], navigates=True)
        yield finish()


@register_task
class MailNewFolderMove(MailTask):
    """Create a custom folder and move every inbox email from one contact into it (about 10 steps)."""

    id = "browser.mail-new-folder-move-v0"
    max_steps = 18

    def sample(self, rng):
        seed, box = _box(rng)
        senders = _by_sender(box, 2)
        addr = sorted(senders)[int(rng.integers(0, len(senders)))]
        return {"mailbox": seed, "name": senders[addr][0]["from"]["name"], "ids": [m["id"] for m in senders[addr]],
                "folder": str(rng.choice(_FOLDER_NAMES))}

    def instruction(self, params):
        return (f"In Lumen Mail, create a folder named \"{params['folder']}\" and move every email from "
                f"{params['name']} in your Inbox into it.")

    def check(self, state, params, answer, baseline):
        return mailbox_changed_only(baseline, state, {i: {"folder": params["folder"]} for i in params["ids"]},
                                    new_folders=[params["folder"]])

    def oracle(self, sb, params):
        yield click(sb, "#new-folder")
        sb.browser.page.wait_for_selector("#folder-modal.open #folder-name", timeout=5000)
        yield from type_nav(sb, params["folder"] + "\n")
        yield from _search(sb, params["name"], folder_link="inbox")
        for i in params["ids"]:
            yield click(sb, f"tr.row[data-id='{i}'] input.pick")
        yield from choose(sb, "#move-select", params["folder"], navigates=True)
        yield finish()


@register_task
class MailRestoreFromTrash(MailTask):
    """Move an email that was deleted by mistake from the Trash back to the Inbox."""

    id = "browser.mail-restore-trash-v0"
    max_steps = 8

    def sample(self, rng):
        seed, box = _box(rng)
        who = box["contacts"][int(rng.integers(0, len(box["contacts"])))]
        subject = str(rng.choice(_SUBJECTS))
        extra = [{"folder": "trash", "from": who, "subject": subject, "body": str(rng.choice(_BODIES)),
                  "date": f"2026-03-{int(rng.integers(5, 13)):02d} 10:{int(rng.integers(10, 59))}", "read": True}]
        return {"mailbox": seed, "extra": extra, "message": len(box["messages"]) + 1, "subject": subject,
                "name": who["name"]}

    def instruction(self, params):
        return (f"In Lumen Mail, I deleted the email \"{params['subject']}\" from {params['name']} by mistake. "
                f"Put it back in the Inbox.")

    def check(self, state, params, answer, baseline):
        return mailbox_changed_only(baseline, state, {params["message"]: {"folder": "inbox"}})

    def oracle(self, sb, params):
        yield from click_nav(sb, "a.folder-link[data-folder='trash']")
        yield from _open(sb, params["message"])
        yield from choose(sb, "#move-select", "Inbox", navigates=True)
        yield finish()


@register_task
class MailOldestAnswer(MailTask):
    """Answer with the sender of the oldest email in the Inbox (the last row of its last page)."""

    id = "browser.mail-oldest-answer-v0"
    max_steps = 10

    def sample(self, rng):
        seed, box = _box(rng)
        m = min(_inbox(box), key=lambda x: (x["date"], x["id"]))
        return {"mailbox": seed, "sender": m["from"]["name"]}

    def instruction(self, params):
        return "In Lumen Mail, who sent the oldest email in your Inbox? Answer with the sender's name only."

    def check(self, state, params, answer, baseline):
        return all_of(answer_matches(answer, params["sender"]), mailbox_changed_only(baseline, state, {}))

    def oracle(self, sb, params):
        while not sb.browser.page.locator("#next-page").is_disabled():
            yield from click_nav(sb, "#next-page")
        yield finish(sb.browser.page.locator("tr.row td.from").last.inner_text())
