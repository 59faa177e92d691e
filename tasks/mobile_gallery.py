"""Mobile tasks on the phone's Gallery app (assets/phone/apps/gallery.js): favorite, trash, move, restore; count, date.

## Description
The agent opens a photo and marks it a favorite, deletes it (to the trash, confirm) or moves it to another
album; restores the trashed photo (Albums > Trash); counts the photos of an album (the trash not counted); or
says on which date a photo was taken (under the opened photo).

## Action Space / Observation Space
Those of `MobileEnv` (docs/mobile-suite.md): a 720×1600 screenshot of the phone; tap, long_press, swipe,
type, open_app, press_home, press_back and finished.

## Rewards
1.0 when the `photos` rows show exactly the asked change (one field of one photo) and every other collection
is unchanged (`phone_changed`); the questions also need the count ("3", "3 photos"), or the date in any
clear form, as `finished(content=...)` (`match_answer`).

## Starting State
The home screen at 2026-03-14 09:30 with all ten apps seeded from the reset seed (`kit.phone_world`): 8-12
photos with distinct names in 4 of the albums Travel, Pets, Food, Family and Camera, one of them in the trash.

## Episode End
`finished(...)`, or `max_steps` (12).

## Tasks
* `mobile.gallery-favorite-v1`: mark a photo a favorite (open it, the heart; only its `favorite` turns true).
* `mobile.gallery-trash-v1`: delete a photo (open it, Delete, confirm; only its `trashed` turns true).
* `mobile.gallery-move-v1`: move a photo to another album (open it, Move; only its `album` changes).
* `mobile.gallery-restore-v1`: restore the trashed photo (Albums > Trash, Restore; only its `trashed` turns false).
* `mobile.gallery-count-v1`: how many photos an album has, the trash not counted (the number as the answer).
* `mobile.gallery-date-v1`: on which date a photo was taken (under the opened photo; any clear form of the date).

## Version History
* v0: first version.
* v1: the phone's names (contacts' first names, alarm labels, event titles, notes, files, albums, expenses) and
  numbers come from split-disjoint pools, so no test instance is a training one; a question's answer is read by
  `reward.answers.match_answer` (one number, time or date; no list, no hedge); gallery-count adds 0-12 camera
  shots to the album, drawn uniformly, and reads a number ("3 photos").
"""

from __future__ import annotations

import numpy as np

from .base import add_task, register_task
from .kit import actions as act
from .kit.data import pick
from .kit.phone import OK, PHOTO_THUMB, AskRecord, ChangeRecord, Param, ToolAppTask, menu_choice, tap
from .kit.phone_world import past_date

#: the parameter `photo` is the photo's file name
PHOTO = ("photo=name",)


@register_task(id="mobile.gallery-count-v1",
               template="How many photos are in the {album} album in Gallery? Answer with a number.")
class AlbumCount(ToolAppTask):
    """How many photos are in an album (not counting the trash)? The album gets 0-12 more camera shots
    ("IMG_4821.jpg"), drawn uniformly, on top of its seeded photos."""

    truth = "{count}"
    answer_form = "number"

    def choose(self, rng, records):
        album = pick(rng, sorted({p["album"] for p in records["photos"]}))
        taken = {p["name"] for p in records["photos"]}
        for n in rng.choice(np.arange(1000, 10000), int(rng.integers(0, 13)), replace=False):
            if f"IMG_{n}.jpg" not in taken:
                records["photos"].append({"name": f"IMG_{n}.jpg", "album": album, "date": past_date(rng),
                                          "favorite": False, "trashed": False})
        return {"album": album, "count": sum(p["album"] == album and not p["trashed"] for p in records["photos"])}

    def solve(self, sb, p):
        yield act.open_app("gallery")
        yield tap(sb, "#tab-albums")


def _shown(photo: dict) -> bool:
    return not photo["trashed"]


def _other_album(rng, photo, records) -> dict:
    return {"album": pick(rng, sorted({x["album"] for x in records["photos"]} - {photo["album"]}))}


for task in (
    ChangeRecord("mobile.gallery-favorite-v1", 12, "In Gallery, add the photo {photo} to your favorites.", "photos",
                 PHOTO, "gallery", ("reach", PHOTO_THUMB), ("tap", "#photo-fav"),
                 where=lambda p: _shown(p) and not p["favorite"], to={"favorite": True}),
    ChangeRecord("mobile.gallery-trash-v1", 12, "Delete the photo {photo} from the Gallery.", "photos", PHOTO,
                 "gallery", ("reach", PHOTO_THUMB), ("tap", "#photo-delete"), ("tap", OK),
                 where=_shown, to={"trashed": True}),
    ChangeRecord("mobile.gallery-move-v1", 12, "Move the photo {photo} to the album {album}.", "photos", PHOTO,
                 "gallery", ("reach", PHOTO_THUMB), ("tap", "#photo-move"), ("tap", menu_choice("{album}")),
                 where=_shown, new=_other_album, to={"album": Param("album")}),
    ChangeRecord("mobile.gallery-restore-v1", 12, "Restore the photo {photo} from the trash.", "photos", PHOTO,
                 "gallery", ("tap", "#tab-albums"), ("reach", '.album-card[data-album="__trash"]'),
                 ("reach", PHOTO_THUMB), ("tap", "#photo-restore"),
                 where=lambda p: p["trashed"], to={"trashed": False}),
    AskRecord("mobile.gallery-date-v1", 12, "On what date was the photo {photo} taken?", "photos", ("date", *PHOTO),
              "gallery", ("reach", PHOTO_THUMB), where=_shown, truth="{date}", answer_form="date"),
):
    add_task(task)
