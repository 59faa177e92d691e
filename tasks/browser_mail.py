"""Browser tasks on the Webmail app (assets/web/mail/, backend tasks/webapps/mail.py): read, search, star, move, delete.

## Description
"Lumen Mail": a seeded mailbox (~70 messages over Inbox, Sent, Archive, Trash and custom
folders; meeting rooms, invoices, budgets, flights, CSV and text attachments,
newsletters) with folder navigation, search, pagination, stars, bulk move/delete,
new folders, compose with address autocomplete, reply, forward and attachments that
open in a new tab. The tasks here read and organise mail; writing it:
`browser_mail_compose.py`.

## Action Space / Observation Space
Those of `BrowserEnv` (the whole 1280×800 screen; clicks, keys, typing, scrolls).

## Rewards
1.0 when the checker passes on the mailbox (`MailApp.state()`): exactly the asked-for
messages changed folder or flag, nothing else (opening a message marks it read; read
flags are not judged); for questions, the `finished(content=...)` answer must be the
expected one as `reward.answers.match_answer` reads it (the whole answer one text, or
exactly one number: a list of candidates fails).

## Starting State
A mailbox seed (and sometimes a few messages of the task's own) is drawn from the reset
seed; the app is loaded fresh at setup and the page opens on the Inbox.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1: answers judged by `match_answer` (no substring or "any of these" matching); the test
  split's mailboxes have people, projects, rooms and newsletters of their own; mail-oldest-answer
  asks for the k-th oldest email (k drawn from 1 to 12).
"""

from __future__ import annotations

from hybridgym.reward.answers import Answer, match_answer
from hybridgym.reward.checkers import all_of
from hybridgym.reward.mail import mailbox_changed_only
from hybridgym.tasks.webapps import mail

from .base import Outcome, register_task
from .kit import actions as act
from .kit.data import Pool, pick
from .kit.web import MailTask, choose, click, click_nav, fill, page_of, type_nav, wait_tabs

_FOLDER_NAMES = Pool(["Clients", "Finance 2026", "Hiring", "Conference", "Vendors", "Team Offsite", "Suppliers",
                     "Legal", "Partners", "Board Papers", "Recruiting 2026", "Events"])


def _find(sb, text: str, folder: str | None = None):
    """Oracle steps: (open a folder, then) search it, and wait for the results."""
    if folder:
        yield from click_nav(sb, f"a.folder-link[data-folder={folder!r}]")
    yield from fill(sb, "#search", text + "\n", navigates=True)


def _pick_rows(sb, ids: list[int]):
    for i in ids:
        yield click(sb, f"tr.row[data-id='{i}'] input.pick")


def _untouched(state, baseline, outcome: Outcome, expected: Answer):
    return all_of(match_answer(outcome.answer, expected), mailbox_changed_only(baseline, state, {}))


@register_task(id="browser.mail-answer-fact-v1", max_steps=10)
class MailAnswerFact(MailTask):
    """Answer a question whose answer is stated in one email of the inbox (a room, a seat).

    The mailbox holds ~45 inbox messages over 3 pages; search or paging finds it.
    The mailbox must be untouched (read flags aside).
    """

    def sample_for(self, rng, box):
        pool = [m for m in mail.inbox(box) if ("room" in m["facts"] or "seat" in m["facts"])
                and mail.unique_subject(box, m)]
        if not pool:
            return None
        m = pick(rng, pool)
        if "room" in m["facts"]:
            q = f"In which room is the meeting in {m['from']['name']}'s email \"{m['subject']}\"? Answer with the room only."
            a, kind = m["facts"]["room"], "room"
        else:
            q = f"What is my seat on flight {m['facts']['flight']}, according to my email? Answer with the seat only."
            a, kind = m["facts"]["seat"], "seat"
        return {"message": m["id"], "subject": m["subject"], "question": q, "answer": a,
                "kind": kind}

    def instruction(self, params):
        return "In Lumen Mail: " + params["question"]

    def expected_answer(self, params):
        return Answer(params["answer"], aliases=(f"{params['kind']} {params['answer']}",),
                      context=self.instruction(params))

    def check(self, state, params, outcome: Outcome, baseline):
        return _untouched(state, baseline, outcome, self.expected_answer(params))

    def oracle(self, sb, params):
        yield from _find(sb, params["subject"])
        yield from click_nav(sb, f"tr.row[data-id='{params['message']}'] a.open")
        yield act.finish(params["answer"] if params["answer"] in sb.browser.page.inner_text("#body") else "")


@register_task(id="browser.mail-star-sender-v0", max_steps=12)
class MailStarSender(MailTask):
    """Star every inbox email from one contact (2 or more of them, over several pages)."""

    def sample_for(self, rng, box):
        senders = mail.by_sender(box, 2)
        ms = senders[pick(rng, sorted(senders))]
        if all(m["starred"] for m in ms):
            return None
        return {"name": ms[0]["from"]["name"], "ids": [m["id"] for m in ms if not m["starred"]],
                "all": [m["id"] for m in ms]}

    def instruction(self, params):
        return f"In Lumen Mail, star every email from {params['name']} in your Inbox."

    def check(self, state, params, outcome: Outcome, baseline):
        return mailbox_changed_only(baseline, state, {i: {"starred": True} for i in params["ids"]})

    def oracle(self, sb, params):
        yield from _find(sb, params["name"])
        for i in params["ids"]:
            yield click(sb, f"tr.row[data-id='{i}'] button.star")
            sb.browser.page.wait_for_selector(f"tr.row[data-id='{i}'] button.star.on", timeout=5000)
        yield act.finish()


@register_task(id="browser.mail-move-v0", max_steps=10)
class MailMoveToFolder(MailTask):
    """Move one named inbox email to a custom folder."""

    def sample_for(self, rng, box):
        m = pick(rng, [m for m in mail.inbox(box) if mail.unique_subject(box, m)])
        return {"message": m["id"], "subject": m["subject"], "sender": m["from"]["name"],
                "folder": str(rng.choice(mail.CUSTOM_FOLDERS))}

    def instruction(self, params):
        return (f"In Lumen Mail, move the email \"{params['subject']}\" from {params['sender']} "
                f"to the {params['folder']} folder.")

    def check(self, state, params, outcome: Outcome, baseline):
        return mailbox_changed_only(baseline, state, {params["message"]: {"folder": params["folder"]}})

    def oracle(self, sb, params):
        yield from _find(sb, params["subject"])
        yield from click_nav(sb, f"tr.row[data-id='{params['message']}'] a.open")
        yield from choose(sb, "#move-select", params["folder"], navigates=True)
        yield act.finish()


@register_task(id="browser.mail-delete-newsletters-v0", max_steps=12)
class MailDeleteNewsletters(MailTask):
    """Delete (move to Trash) every inbox newsletter from one sender; other mail stays."""

    def sample_for(self, rng, box):
        groups: dict[str, list[int]] = {}
        for m in mail.inbox(box):
            if any(m["from"]["addr"] == n[1] for n in box["newsletters"]):
                groups.setdefault(m["from"]["name"], []).append(m["id"])
        groups = {k: v for k, v in sorted(groups.items()) if len(v) >= 2}
        if not groups:
            return None
        name = pick(rng, sorted(groups))
        return {"name": name, "ids": groups[name]}

    def instruction(self, params):
        return f"In Lumen Mail, delete every \"{params['name']}\" newsletter in your Inbox."

    def check(self, state, params, outcome: Outcome, baseline):
        return mailbox_changed_only(baseline, state, {i: {"folder": "trash"} for i in params["ids"]})

    def oracle(self, sb, params):
        yield from _find(sb, params["name"])
        yield from _pick_rows(sb, params["ids"])
        yield from click_nav(sb, "#delete-btn")
        yield act.finish()


@register_task(id="browser.mail-attachment-answer-v1", max_steps=10)
class MailAttachmentAnswer(MailTask):
    """Read a figure from a CSV attachment (opens in a new tab) and answer with it."""

    def sample_for(self, rng, box):
        pool = [m for m in mail.inbox(box) if "revenue" in m["facts"]
                and sum(x["subject"] == m["subject"] and x["from"] == m["from"] for x in box["messages"]) == 1]
        if not pool:
            return None
        m = pick(rng, pool)
        region = str(rng.choice(mail.REGIONS))
        return {"message": m["id"], "subject": m["subject"], "sender": m["from"]["name"],
                "region": region, "answer": m["facts"]["revenue"][region]}

    def instruction(self, params):
        return (f"In Lumen Mail, open the attachment of the email \"{params['subject']}\" from {params['sender']}: "
                f"what revenue does it give for the {params['region']} region? Answer with the number only.")

    def expected_answer(self, params):
        return Answer(params["answer"], kind="number", context=self.instruction(params))

    def check(self, state, params, outcome: Outcome, baseline):
        return _untouched(state, baseline, outcome, self.expected_answer(params))

    def oracle(self, sb, params):
        yield from _find(sb, f"{params['subject']} {params['sender']}")
        yield from click_nav(sb, f"tr.row[data-id='{params['message']}'] a.open")
        yield click(sb, "a.attachment-link")
        wait_tabs(sb, 2)
        tab = page_of(sb, 1)
        tab.wait_for_load_state()
        row = next(ln for ln in tab.inner_text("body").splitlines() if ln.startswith(params["region"] + ","))
        yield act.finish(row.split(",")[1])


@register_task(id="browser.mail-new-folder-move-v0", max_steps=18)
class MailNewFolderMove(MailTask):
    """Create a custom folder and move every inbox email from one contact into it (about 10 steps)."""

    def sample_for(self, rng, box):
        senders = mail.by_sender(box, 2)
        ms = senders[pick(rng, sorted(senders))]
        return {"name": ms[0]["from"]["name"], "ids": [m["id"] for m in ms],
                "folder": str(rng.choice(_FOLDER_NAMES))}

    def instruction(self, params):
        return (f"In Lumen Mail, create a folder named \"{params['folder']}\" and move every email from "
                f"{params['name']} in your Inbox into it.")

    def check(self, state, params, outcome: Outcome, baseline):
        return mailbox_changed_only(baseline, state, {i: {"folder": params["folder"]} for i in params["ids"]},
                                    new_folders=[params["folder"]])

    def oracle(self, sb, params):
        yield click(sb, "#new-folder")
        sb.browser.page.wait_for_selector("#folder-modal.open #folder-name", timeout=5000)
        yield from type_nav(sb, params["folder"] + "\n")
        yield from _find(sb, params["name"], folder="inbox")
        yield from _pick_rows(sb, params["ids"])
        yield from choose(sb, "#move-select", params["folder"], navigates=True)
        yield act.finish()


@register_task(id="browser.mail-restore-trash-v0", max_steps=8)
class MailRestoreFromTrash(MailTask):
    """Move an email that was deleted by mistake from the Trash back to the Inbox."""

    def sample_for(self, rng, box):
        who = pick(rng, box["contacts"])
        subject = str(rng.choice(mail.NEW_SUBJECTS))
        extra = [{"folder": "trash", "from": who, "subject": subject, "body": str(rng.choice(mail.NEW_BODIES)),
                  "date": f"2026-03-{int(rng.integers(5, 13)):02d} 10:{int(rng.integers(10, 59))}", "read": True}]
        return {"extra": extra, "message": len(box["messages"]) + 1, "subject": subject,
                "name": who["name"]}

    def instruction(self, params):
        return (f"In Lumen Mail, I deleted the email \"{params['subject']}\" from {params['name']} by mistake. "
                f"Put it back in the Inbox.")

    def check(self, state, params, outcome: Outcome, baseline):
        return mailbox_changed_only(baseline, state, {params["message"]: {"folder": "inbox"}})

    def oracle(self, sb, params):
        yield from click_nav(sb, "a.folder-link[data-folder='trash']")
        yield from click_nav(sb, f"tr.row[data-id='{params['message']}'] a.open")
        yield from choose(sb, "#move-select", "Inbox", navigates=True)
        yield act.finish()


@register_task(id="browser.mail-oldest-answer-v1", max_steps=12)
class MailOldestAnswer(MailTask):
    """Answer with the sender of the k-th oldest email in the Inbox (k from 1 to 12; the oldest are
    the last rows of the last page)."""

    def sample_for(self, rng, box):
        rank = int(rng.integers(1, 13))
        ms = sorted(mail.inbox(box), key=lambda x: (x["date"], x["id"]))
        if len(ms) < rank:
            return None
        m = ms[rank - 1]
        return {"rank": rank, "message": m["id"], "sender": m["from"]["name"]}

    def instruction(self, params):
        k = params.get("rank", 1)
        which = "the oldest email" if k == 1 else f"email number {k} counting from the oldest (1 = the oldest)"
        return f"In Lumen Mail, who sent {which} in your Inbox? Answer with the sender's name only."

    def expected_answer(self, params):
        return Answer(params["sender"], context=self.instruction(params))

    def check(self, state, params, outcome: Outcome, baseline):
        return _untouched(state, baseline, outcome, self.expected_answer(params))

    def oracle(self, sb, params):
        row = f"tr.row[data-id='{params['message']}']"
        while not sb.browser.page.locator(row).count() and not sb.browser.page.locator("#next-page").is_disabled():
            yield from click_nav(sb, "#next-page")
        yield act.finish(sb.browser.page.locator(f"{row} td.from").inner_text())
