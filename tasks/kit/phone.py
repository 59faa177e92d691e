"""The phone: booting the phone shell for a task, and (added by the mobile families) the oracles' touches."""

from __future__ import annotations

#: the phone's clock at the start of every episode unless a task says otherwise (a Saturday morning)
PHONE_NOW = "2026-03-14T09:30:00"


def boot_phone(sb, records: dict[str, list[dict]], fields: dict[str, tuple[str, ...]],
               now: str = PHONE_NOW) -> None:
    """A task's setup: seed the phone's records, set its clock to `now` (running from there,
    local time "YYYY-MM-DDTHH:MM:SS"), load the shell and wait until the home screen is up."""
    sb.server.store.load(records, fields)
    sb.browser.set_clock(now)
    sb.browser.load(sb.server.url("/index.html"))
    sb.browser.page.wait_for_selector("body[data-ready]", timeout=10000)
