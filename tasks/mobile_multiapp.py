"""Mobile tasks across the phone's apps: read something in one app and act on it in another.

## Description
Each task carries a fact from one app to another, as a person does with a phone: a meeting proposed by text
goes into Calendar; the sender of the latest text is called back; a new number introduced by text, or a
tradesperson recommended in a note, becomes a contact; the most recent missed caller gets a text; an event's
location is texted to a contact; a payment a friend texted about, or a dinner in the calendar, becomes an
expense; a contact's number, or the largest download's name, goes into a note; a photo's date becomes an event.

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the phone's records show exactly the one asked change (a new event, call, contact, text, expense or
note with the asked fields) and every other collection is unchanged (`phone_changed`: reading a conversation
marks it read, which does not count); else 0.0.

## Starting State
The home screen at 2026-03-14 09:30 with a phone drawn from the reset seed: the first five tasks seed the
contacts, messages, calls, alarms and events (`kit.phone_world.phone_world`); the others seed the tool apps
too (`tool_world`). Each task adds the record that holds its fact (a text, a missed call, a note, a dinner).

## Episode End
`finished(...)`, or `max_steps` (10-32).

## Tasks
* `mobile.message-to-event-v1`: a meeting a contact proposed by text, added to the calendar (an hour long).
* `mobile.call-last-sender-v1`: call whoever sent the most recent text (one new outgoing call to them).
* `mobile.save-number-from-message-v1`: a new number introduced by text, saved as a contact under the full name.
* `mobile.text-missed-caller-v1`: text the most recent missed caller a given message.
* `mobile.event-location-text-v1`: text a contact the location of an event, as the calendar writes it.
* `mobile.message-to-expense-v1`: what a friend texted they paid, logged in Expenses (amount and date from the text).
* `mobile.contact-to-note-v1`: a note "Call <name>" whose text is the contact's number (digits compared).
* `mobile.event-to-expense-v1`: an expense dated the day of a dinner in the calendar.
* `mobile.largest-file-to-note-v1`: a note whose text is the name of the largest file in Download.
* `mobile.note-to-contact-v1`: the tradesperson a note recommends, added as a contact (name and number).
* `mobile.photo-to-event-v1`: an event on the day a photo was taken (Calendar's date picker).

## Version History
* v0: first version.
* v1: the phone's names (contacts' first names, alarm labels, event titles, notes, files, albums, expenses) and
  numbers come from split-disjoint pools, so no test instance is a training one; a question's answer is read by
  `reward.answers.match_answer` (one number, time or date; no list, no hedge); call-last-sender names the text's
  topic, save-number-from-message the sender's first name, text-missed-caller draws its text,
  largest-file-to-note its title, from split pools.
"""

from __future__ import annotations

from .base import register_task
from .kit import actions as act
from .kit.data import Pool, pick
from .kit.phone import (EVENT_KEYS, TODAY, TODAY_CALL, NewExpenseTask, PhoneTask, ToolAppTask, add_contact, add_event,
                        calendar_day, files_by_size, long_press_menu, note_item, open_contact, open_thread, photo_thumb,
                        reach, send_text, tap, write_note)
from .kit.phone_world import (PLACES, added, call_made, hm, incoming_text, largest_file, logged_call, new_contact_name,
                              new_expense, params_of, phone_number, text_sent)

# split-disjoint pools: a test instance never names what a training one does
_TRADES = Pool(["Plumber", "Electrician", "Locksmith", "Piano tuner", "Dog sitter", "Window cleaner", "Gardener",
                "Painter", "Roofer", "Babysitter", "Carpenter", "Chimney sweep"])
_PEOPLE = Pool(["Marta Quist", "Oskar Lind", "Rui Tavares", "Hana Novak", "Tariq Aziz", "Lena Vogel", "Ida Brandt",
                "Pavel Horak", "Noor Saleh", "Emre Kaya", "Zofia Wrona", "Arjun Mehta"])
#: what the latest text is about (`call-last-sender`)
_TOPICS = Pool(["the car keys", "the rent", "Saturday's party", "the broken heater", "the school trip",
                "the concert tickets", "the lost cat", "the flat viewing", "the football match", "the job offer",
                "the wedding gift", "the delivery"])
#: the texts `text-missed-caller` sends
_CALLBACK_TEXTS = Pool([
    "Sorry I missed your call, I'll ring you back soon.", "Missed your call, in a meeting. Talk later?",
    "Sorry, my phone was on silent. Call you tonight.", "Just saw your call, driving now, call you in an hour.",
    "Missed you! Is it urgent? Text me.", "Sorry I missed you, free after 6 pm.",
    "Saw the missed call, all OK?", "I was at the gym, calling you back in 20 minutes.",
    "Sorry, couldn't pick up. What's up?", "Missed your call, I'm on the train. Later?",
    "My battery died, sorry! Call you tomorrow morning.", "Sorry, in a lecture. Will call at lunch."])
#: the note titles `largest-file-to-note` asks for
_CLEANUP_TITLES = Pool(["Clean up", "Biggest download", "Free up space", "Delete later", "Storage check",
                        "Largest download", "Space hog", "Phone cleanup", "To remove", "Big file"])
#: restaurants of `event-to-expense`'s dinner
_RESTAURANTS = Pool(["Luigi's", "the Harbour Grill", "Casa Verde", "Sakura House", "the Golden Lotus", "Bistro Nord",
                     "El Toro", "the Olive Tree", "Spice Route", "the Blue Door", "Chez Marie", "Noodle Bar 88"])
#: the events `photo-to-event` creates
_PHOTO_TODOS = Pool(["Print the photo", "Send the photo to Grandma", "Frame the picture", "Post the photo",
                     "Share the photo with Dad", "Add the photo to the album book", "Email the photo to work",
                     "Make a card from the photo"])


@register_task(id="mobile.message-to-event-v1", max_steps=32,
               template=('{name} texted you to propose a meeting. Add it to the calendar as "{title}", '
                         "at the date, time and place from the message, one hour long."))
class MessageToEvent(PhoneTask):
    """A contact proposes a meeting by text (date, time, place); add it to the calendar, an hour long."""

    def choose(self, rng, records):
        c = pick(rng, records["contacts"])
        day, start = int(rng.integers(16, 31)), int(rng.integers(18, 36)) * 30
        place = pick(rng, PLACES[:-1])
        records["messages"].append(incoming_text(
            c["name"], c["phone"], f"Can we meet on March {day} at {hm(start)} at {place}? An hour should do.",
            f"{TODAY} 08:{int(rng.integers(10, 59))}"))
        return {"name": c["name"], "title": f"Meeting with {c['name'].split()[0]}", "date": f"2026-03-{day:02d}",
                "start": hm(start), "end": hm(start + 60), "location": place}

    def expected(self, p):
        return added("events", params_of(p, *EVENT_KEYS))

    def solve(self, sb, p):
        yield from open_thread(sb, p["name"])
        yield act.press_home()
        yield from add_event(sb, p["title"], p["date"], p["start"], p["end"], p["location"])


@register_task(id="mobile.call-last-sender-v1", max_steps=10,
               template="Call the person who sent you the most recent text message (it is about {topic}).")
class CallLastSender(PhoneTask):
    """Call whoever sent the most recent message (read Messages, call from Phone or Contacts)."""

    def choose(self, rng, records):
        c, topic = pick(rng, records["contacts"]), pick(rng, _TOPICS)
        records["messages"].append(incoming_text(c["name"], c["phone"], f"Please call me back about {topic}.",
                                                 f"{TODAY} 09:2{int(rng.integers(0, 9))}"))
        return params_of(c, "name", "phone", topic=topic)

    def expected(self, p):
        return call_made(p["phone"])

    def solve(self, sb, p):
        yield act.open_app("Messages")
        yield tap(sb, "#thread-list .row.thread")
        yield tap(sb, "#thread-call")
        yield tap(sb, "#end-call")


@register_task(id="mobile.save-number-from-message-v1",
               template=("{first} texted you from a new number and said who they are. Save the number as a contact "
                         "under their full name."))
class SaveNumberFromMessage(PhoneTask):
    """A text from an unknown number says who it is; save that number as a new contact."""

    def choose(self, rng, records):
        name, number = new_contact_name(rng, records["contacts"]), phone_number(rng)
        records["messages"].append(incoming_text("", number, f"Hi, it's {name}, this is my new number. Save it!",
                                                 f"{TODAY} 09:0{int(rng.integers(0, 9))}"))
        return {"name": name, "phone": number, "first": name.split()[0]}

    def expected(self, p):
        return added("contacts", params_of(p, "name", "phone"))

    def solve(self, sb, p):
        yield from open_thread(sb, p["phone"])
        yield from add_contact(sb, p["name"], p["phone"])


@register_task(id="mobile.text-missed-caller-v1",
               template='Text the person whose call you missed most recently: "{body}"')
class TextMissedCaller(PhoneTask):
    """Text the person whose call you missed most recently (read the call log, send in Messages)."""

    def choose(self, rng, records):
        c = pick(rng, records["contacts"])
        records["calls"].append(logged_call(c["name"], c["phone"], "missed",
                                            f"{TODAY} 09:{int(rng.integers(0, 25)):02d}"))
        return params_of(c, "name", "phone", body=pick(rng, _CALLBACK_TEXTS))

    def expected(self, p):
        return text_sent(p["phone"], p["body"])

    def solve(self, sb, p):
        yield act.open_app("Phone")
        yield from long_press_menu(sb, TODAY_CALL, "message")
        yield from send_text(sb, p["body"])


@register_task(id="mobile.event-location-text-v1", max_steps=16,
               template=('Text {name} the location of "{title}" on {date}: the message is just the location as written in '
                         "the calendar."))
class EventLocationToContact(PhoneTask):
    """Text a contact where an upcoming event takes place (read Calendar, send in Messages)."""

    def choose(self, rng, records):
        e = pick(rng, records["events"])
        e["location"] = pick(rng, PLACES[:-1])
        c = pick(rng, records["contacts"])
        return params_of(e, "title", "date", "location", name=c["name"], phone=c["phone"])

    def expected(self, p):
        return text_sent(p["phone"], p["location"])

    def solve(self, sb, p):
        yield act.open_app("Calendar")
        yield from calendar_day(sb, p["date"])
        yield from open_contact(sb, p["name"])
        yield tap(sb, "#contact-message")
        yield from send_text(sb, p["location"])


# ---- with the tool apps ---------------------------------------------------------------------------------------
@register_task(id="mobile.message-to-expense-v1", max_steps=20)
class MessageToExpense(NewExpenseTask):
    """A friend's text says what they paid for you; log it in Expenses (amount and date from the text)."""

    source = "messages"
    template = ('{friend} sent me a message about something they paid for. Add it in Expenses with the title '
                '"{expense[title]}", category {expense[category]}, and the amount and date from the message.')

    def choose(self, rng, records):
        friend = pick(rng, records["contacts"])
        e = new_expense(rng)
        records["messages"].append(incoming_text(
            friend["name"], friend["phone"],
            f"I paid ${e['amount']:.2f} for the {e['title'].lower()} on {e['date']}, add it to your expenses?",
            "2026-03-14 08:47"))
        return {"friend": friend["name"], "expense": e}


@register_task(id="mobile.contact-to-note-v1", max_steps=20,
               template='Create a note titled "Call {name}" whose text is {name}\'s phone number from Contacts.')
class ContactToNote(ToolAppTask):
    """Write a note whose text is a contact's phone number (read it in Contacts)."""

    def choose(self, rng, records):
        return params_of(pick(rng, records["contacts"]), "name", "phone")

    def expected(self, p):
        return added("notes", {"title": f"Call {p['name']}", "body": p["phone"]})

    def solve(self, sb, p):
        yield act.open_app("contacts")
        yield from write_note(sb, f"Call {p['name']}", p["phone"])


@register_task(id="mobile.event-to-expense-v1", max_steps=20)
class EventToExpense(NewExpenseTask):
    """Log an expense on the date of a calendar dinner (read the date in Calendar)."""

    source = "calendar"
    template = ('Add an expense "{expense[title]}" of ${expense[amount]:.2f} in the Food category, dated the day '
                "of that dinner in my calendar.")

    def choose(self, rng, records):
        e = new_expense(rng)
        place = pick(rng, _RESTAURANTS)
        records["events"].append({"title": f"Dinner at {place}", "date": e["date"], "start": "19:30", "end": "21:30",
                                  "location": place, "notes": ""})
        e.update(title=f"Dinner at {place}", category="Food")
        return {"expense": e}


@register_task(id="mobile.largest-file-to-note-v1", max_steps=20,
               template='Create a note titled "{title}" whose text is the name of the largest file in the Download folder.')
class LargestFileToNote(ToolAppTask):
    """Find the largest file in Download (Files) and write its name in a new note."""

    def choose(self, rng, records):
        return {"title": pick(rng, _CLEANUP_TITLES),
                "answer": largest_file(records, "Download")}

    def expected(self, p):
        return added("notes", {"title": p["title"], "body": p["answer"]})

    def solve(self, sb, p):
        yield from files_by_size(sb, "Download")
        yield from write_note(sb, p["title"], p["answer"])


@register_task(id="mobile.note-to-contact-v1", max_steps=20,
               template=('My note "Recommended by Joe" names a {trade}. Add them to Contacts with the name and phone number '
                         "from the note."))
class NoteToContact(ToolAppTask):
    """A note names a tradesperson with a phone number; add them as a contact (read the note, then Contacts)."""

    def choose(self, rng, records):
        trade, name, phone = pick(rng, _TRADES), pick(rng, _PEOPLE), phone_number(rng)
        records["notes"].append({"title": "Recommended by Joe", "body": f"{trade}: {name}, {phone} (ask for a quote)",
                                 "pinned": False, "updated": "2026-03-12 20:14"})
        return {"trade": trade.lower(), "name": name, "phone": phone}

    def expected(self, p):
        return added("contacts", params_of(p, "name", "phone"))

    def solve(self, sb, p):
        yield act.open_app("notes")
        yield from reach(sb, note_item(p, "Recommended by Joe"))
        yield from add_contact(sb, p["name"], p["phone"])


@register_task(id="mobile.photo-to-event-v1", max_steps=24,
               template='Create a calendar event titled "{title}" on the date the photo {photo} was taken.')
class PhotoToEvent(ToolAppTask):
    """Create a calendar event on the day a photo was taken (read the date in Gallery, then the date picker)."""

    def choose(self, rng, records):
        p = pick(rng, [p for p in records["photos"] if not p["trashed"]])
        title = pick(rng, _PHOTO_TODOS)
        return params_of(p, "date", photo=p["name"], title=title)

    def expected(self, p):
        return added("events", params_of(p, "title", "date"))

    def solve(self, sb, p):
        yield act.open_app("gallery")
        yield from reach(sb, photo_thumb(p, p["photo"]))
        yield from add_event(sb, p["title"], p["date"])
