"""Mobile tasks on the phone's Clock app (assets/phone/apps/clock.js): add, switch, delete, repeat an alarm; its time.

## Description
The agent sets a new alarm (the shell's time picker and a label), turns an alarm on or off, deletes the alarm
with a given label (long press, Delete), makes an alarm repeat on given weekdays, or says when the alarm with
a given label rings.

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the `alarms` rows show exactly the asked change (a repeat is exactly the asked days) and every other
collection is unchanged (`phone_changed`); the question also needs the time, "07:05" or "7:05", as
`finished(content=...)`.

## Starting State
The home screen at 2026-03-14 09:30 with a phone drawn from the reset seed (`kit.phone_world.phone_world`),
whose Clock has 3-4 alarms between 05:00 and 09:55 with distinct times and labels, some switched off.

## Episode End
`finished(...)`, or `max_steps` (6-14).

## Tasks
* `mobile.alarm-add-v1`: set an alarm at a time with a label (the time picker; one new enabled alarm).
* `mobile.alarm-toggle-v1`: turn an alarm off or on (its switch; only its `enabled` flips).
* `mobile.alarm-delete-v1`: delete the alarm with a given label (long press, Delete; only it is gone).
* `mobile.alarm-repeat-v1`: make an alarm repeat on given weekdays (only its `days`, exactly those).
* `mobile.alarm-time-question-v1`: when the alarm with a given label rings (the time as the answer).

## Version History
* v0: first version. alarm-repeat drew its weekdays anew for each weekday (about one seed in 20 asked
  for none, which no change could satisfy); it draws them once since the task kit.
* v1: the phone's names (contacts' first names, alarm labels, event titles, notes, files, albums, expenses) and
  numbers come from split-disjoint pools, so no test instance is a training one; a question's answer is read by
  `reward.answers.match_answer` (one number, time or date; no list, no hedge); alarm-repeat names the alarm's
  label too.
"""

from __future__ import annotations

from .base import add_task, register_task
from .kit import actions as act
from .kit.data import pick, pool_of
from .kit.phone import (AddRecord, AskRecord, ChangeRecord, DeleteRecord, Param, PhoneTask, fill, pick_time, reach, row,
                        tap)
from .kit.phone_world import ALARM_LABELS, WEEKDAYS, changed, hm, params_of

#: an alarm in the Clock's list: its main line is the time
ALARM = row("alarm", "{time}")


def _new_alarm(rng, records) -> dict:
    """A time (every 5 minutes, 05:00-10:55) and a label no alarm has."""
    taken = {a["time"] for a in records["alarms"]}
    t = pick(rng, [hm(m) for m in range(5 * 60, 11 * 60, 5) if hm(m) not in taken])
    label = pick(rng, [x for x in pool_of(rng, ALARM_LABELS) if x not in {a["label"] for a in records["alarms"]}])
    return {"time": t, "label": label}


def _set_alarm(sb, time: str, label: str):
    """From anywhere: open Clock, add an alarm (the time picker, a label), save it."""
    yield act.open_app("Clock")
    yield tap(sb, "#add-alarm")
    yield tap(sb, "#alarm-time")
    yield from pick_time(sb, time)
    yield from fill(sb, ("#alarm-label", label))
    yield tap(sb, "#save")


class AlarmToggle(ChangeRecord):
    """Turn one alarm off or on: a `ChangeRecord` whose instruction says which."""

    def instruction(self, p):
        return f"Turn {'on' if p['enabled'] else 'off'} the {p['time']} alarm ({p['label']})."


@register_task(id="mobile.alarm-repeat-v1")
class AlarmRepeat(PhoneTask):
    """Make an alarm repeat on given weekdays (drawn once; the alarm starts with none)."""

    def choose(self, rng, records):
        a = pick(rng, records["alarms"])
        a["days"] = ""
        chosen = set(pick(rng, WEEKDAYS, int(rng.integers(2, 4))))
        return params_of(a, "time", "label", days=",".join(d for d in WEEKDAYS if d in chosen))

    def instruction(self, p):
        return (f"Make the {p['time']} alarm ({p['label']}) repeat every {', '.join(p['days'].split(','))} "
                "(only those days).")

    def expected(self, p):
        return changed(p, "alarms", {"time": p["time"]}, {"days": p["days"]})

    def solve(self, sb, p):
        yield act.open_app("Clock")
        yield from reach(sb, f'{row("alarm", p["time"])} .main')
        for d in p["days"].split(","):
            yield tap(sb, f"#day-{d}")
        yield tap(sb, "#save")


for task in (
    AddRecord("mobile.alarm-add-v1", 14, 'Set an alarm for {time} labeled "{label}".', "alarms", ("time", "label"),
              _set_alarm, _new_alarm, fixed={"enabled": True}),
    AlarmToggle("mobile.alarm-toggle-v1", 8, "",   # no template: the instruction says "on" or "off"
                "alarms", ("time", "label"), "Clock", ("reach", f"{ALARM} .switch"),
                match=("time",), new=lambda rng, alarm, records: {"enabled": not alarm["enabled"]},
                to={"enabled": Param("enabled")}),
    DeleteRecord("mobile.alarm-delete-v1", 8, 'Delete the alarm labeled "{label}".', "alarms", ("label",), "Clock",
                 ("hold", '.row.alarm:has(.secondary:text("{label} ·"))', "delete")),
    AskRecord("mobile.alarm-time-question-v1", 6, 'At what time is the alarm labeled "{label}" set? Answer as HH:MM.',
              "alarms", ("label", "time"), "Clock", truth="{time}", answer_form="time"),
):
    add_task(task)
