"""Computer tasks for GUI + SDK: the SDK (terminal, read_file, write_file) is the sensible path for part of the work.

## Description
Look something up among many files (order records, service configs, logs, pictures,
a CSV) where a shell command is quicker than the GUI, then answer, edit a file in
Mousepad, save a new one, or delete and rename files. The desktop apps and the SDK
share the home folder.

## Action Space / Observation Space
Those of `ComputerEnv` (the whole 1280×800 desktop), plus the SDK (`sdk = True`):
`terminal(command=...)`, `read_file(path=...)`, `write_file(path=..., content=...)`;
the step's observation carries the command's output (`sdk_output`).

## Rewards
1.0 when the home is the baseline with exactly the asked changes (`expected_tree`),
and, for questions, the `finished(content=...)` answer is the number asked for
(`match_answer` on `expected_answer`: exactly one number, the truth; numbers the instruction
states are not counted; an order total to the cent, in no currency but the records' own,
which state none).

The instructions name no tool the checker cannot tell apart: a file the task asks to write
may be written with Mousepad (open) or through the SDK alike.

## Test split
Test seeds draw order ids, error codes, ports, picture numbers, years and folder names from
other halves of their ranges and pools than training seeds.

## Starting State
The standard home drawn from the seed plus the task's data (orders/, services/, logs/,
Pictures/, Downloads/, Camera/), and an xterm, Mousepad or PCManFM open.

## Episode End
`finished(...)`, or the task's `max_steps` (oracle steps plus slack).

## Version History
* v0: first version.
* v1 (find-order-total, count-errors): the answer is read by `match_answer` (one number, no
  list of candidates); count-errors' counts are spread wider. dedupe-pictures: the pictures are
  in a named folder of Pictures/ (drawn per seed). csv-total (v0 still): the instruction no
  longer says "with the text editor" (the checker reads the file only). Train/test instances
  are disjoint in every task.
"""

from __future__ import annotations

import re
from typing import Iterator

import numpy as np

from hybridgym.reward import CheckResult
from hybridgym.reward.answers import Answer, match_answer
from hybridgym.reward.checkers import all_of

from .base import Outcome, Task, register_task
from .kit import actions as act
from .kit.data import WORDS, Pool, pick, split_of
from .kit.desktop import (CITIES, TOPICS, HomeTask, editor_goto_line, editor_save_as, home, image, moved,
                          place, save)

#: what the order records and the log lines are about
_PRODUCTS = ["desk lamp", "usb hub", "notebook", "monitor arm", "keyboard", "webcam", "headset", "chair mat"]
_CITIES = Pool(CITIES)
_TRIPS = Pool(["lisbon", "osaka", "denver", "tallinn", "nairobi", "quito", "perth", "bergen", "porto", "leeds",
               "kyoto", "lima", "oslo", "cusco", "hobart", "split", "ghent", "tromso", "accra", "sintra"])


def _half(rng: np.random.Generator, lo: int, hi: int) -> range:
    """The range [lo, hi) cut in two: its lower half for training seeds, its upper half for test seeds."""
    mid = (lo + hi) // 2
    return range(lo, mid) if split_of(rng) == "train" else range(mid, hi)


def _year(rng: np.random.Generator) -> int:
    """A year: 2015-2020 for training seeds, 2021-2026 for test seeds."""
    return int(pick(rng, _half(rng, 2015, 2027)))


@register_task(id="computer.find-order-total-v1")
class FindOrderTotal(Task):
    """Hybrid GUI+SDK: find an order's total among ~300 order files in the workspace.

    The files are under orders/<year>-<month>/; one holds the asked order id. An
    xterm is open on the desktop, but `terminal(command="grep -r ...")` is the sensible path. The agent answers with
    `finished(content="<total>")`; the checker compares the number with the truth.
    """

    suite = "computer"
    max_steps = 8
    sdk = True

    def sample(self, rng: np.random.Generator) -> dict:
        files = {}
        ids = pick(rng, _half(rng, 1000, 10000), 300)
        target = int(rng.integers(len(ids)))
        truth, year = "", 2025 if split_of(rng) == "train" else 2026
        for i, oid in enumerate(ids):
            month = f"{year}-{int(rng.integers(1, 13)):02d}"
            lines, total = [], 0.0
            for _ in range(int(rng.integers(1, 4))):
                qty, price = int(rng.integers(1, 5)), round(float(rng.uniform(5, 250)), 2)
                total += qty * price
                lines.append(f"  {qty} x {pick(rng, _PRODUCTS)} @ {price:.2f}")
            body = (f"Order: A-{oid}\nCustomer city: {pick(rng, CITIES)}\nItems:\n" + "\n".join(lines)
                    + f"\nTotal: {total:.2f}\n")
            files[f"orders/{month}/order-{i:03d}.txt"] = body
            if i == target:
                truth = f"{total:.2f}"
        return {"order": f"A-{ids[target]}", "truth": truth, "files": files}

    def instruction(self, params: dict) -> str:
        return (f"The folder orders/ in your home folder holds order records. What is the total of order "
                f"{params['order']}? Answer with the number only, e.g. finished(content='123.45').")

    def setup(self, sb, params: dict) -> None:
        place(sb, params["files"])
        sb.launch_app(["xterm", "-geometry", "120x40"])  # the GUI path: a terminal window
        sb.wait_for_window("xterm")

    def expected_answer(self, params: dict) -> Answer:
        return Answer(float(params["truth"]), kind="number", rel_tol=0.0, context=self.instruction(params))

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return match_answer(outcome.answer, self.expected_answer(params))

    def oracle(self, sb, params: dict):
        obs = yield act.terminal(f"grep -rl -- 'Order: {params['order']}$' orders | xargs cat")
        m = re.search(r"^Total: ([0-9.]+)$", obs["sdk_output"], re.M)
        yield act.finish(m.group(1) if m else "not found")


@register_task(id="computer.hybrid-fix-config-port-v0", max_steps=24, sdk=True)
class HybridFixConfigPort(HomeTask):
    """Find which of ~40 service configs sets a given port (grep through the SDK), then fix
    that line in the text editor.

    The checker wants only that line changed (`port = <new>`) and every other file intact.
    """

    app = ("editor",)

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        ports = pick(rng, _half(rng, 2000, 10000), 40)
        names = [f"{a}-{b}" for a, b in zip(rng.choice(WORDS, 40), rng.choice(TOPICS, 40))]
        for i, (name, port) in enumerate(zip(names, ports)):
            files[f"services/{name}-{i:02d}/service.conf"] = (f"name = {name}\nhost = 10.0.{i}.{int(rng.integers(2, 250))}\n"
                                                            f"port = {port}\nworkers = {int(rng.integers(1, 9))}\n")
        target = int(rng.integers(40))
        return {"home": files, "path": f"services/{names[target]}-{target:02d}/service.conf",
                "old": ports[target], "new": int(pick(rng, _half(rng, 10000, 20000)))}

    def instruction(self, params: dict) -> str:
        return (f"One of the service.conf files under services/ in your home folder has the line \"port = "
                f"{params['old']}\". Change that port to {params['new']} and save the file; change nothing else.")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["path"]: before[params["path"]].replace(f"port = {params['old']}\n".encode(),
                                                                f"port = {params['new']}\n".encode())}

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        obs = yield act.terminal(f"grep -rn '^port = {params['old']}$' services")
        path, line = obs["sdk_output"].strip().splitlines()[0].split(":")[:2]
        yield act.keys("ctrl", "o")
        sb.wait_ready("mousepad", "Open File", timeout=5)
        yield act.typed(sb.shown_path(path))   # typing a path opens the dialog's location field
        yield act.wait(0.3)
        yield act.keys("enter")
        yield from act.until(lambda: any(path in w["title"] for w in sb.windows()), tries=15)
        yield from editor_goto_line(sb, line, f"port = {params['new']}")
        yield from save(sb, path)
        yield act.finish()


@register_task(id="computer.hybrid-count-errors-v1", max_steps=8, sdk=True)
class HybridCountErrors(HomeTask):
    """Count the log lines with a given error code across ~25 log files (grep through the SDK) and answer.

    The agent answers `finished(content="<count>")`; the checker compares the number
    and confirms no file changed.
    """

    app = ("terminal",)

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        codes = [f"E{c}" for c in pick(rng, _half(rng, 100, 1000), int(rng.integers(3, 9)))]
        code, count = codes[0], 0
        year, month, per_file = _year(rng), int(rng.integers(1, 13)), int(rng.integers(8, 45))
        for d in range(25):
            lines = []
            for _ in range(int(rng.integers(per_file // 2, per_file + 1))):
                level = pick(rng, ["INFO", "INFO", "WARN", "ERROR"])
                c = pick(rng, codes) if level == "ERROR" else ""
                count += int(c == code)
                lines.append(f"{year}-{month:02d}-{d + 1:02d} {int(rng.integers(24)):02d}:{int(rng.integers(60)):02d} {level} "
                             f"{c} {pick(rng, _PRODUCTS)} {pick(rng, ['saved', 'timeout', 'retry', 'done'])}".replace("  ", " "))
            files[f"logs/app-{year}-{month:02d}-{d + 1:02d}.log"] = "\n".join(lines) + "\n"
        return {"home": files, "code": code, "truth": str(count)}

    def instruction(self, params: dict) -> str:
        return (f"How many ERROR lines with the code {params['code']} are there in all the .log files under logs/ "
                f"in your home folder? Answer with the number only, e.g. finished(content='42').")

    def expected_answer(self, params: dict) -> Answer:
        return Answer(int(params["truth"]), kind="number", context=self.instruction(params))

    def check(self, state: dict, params: dict, outcome: Outcome, baseline: dict) -> CheckResult:
        return all_of(match_answer(outcome.answer, self.expected_answer(params)),
                      super().check(state, params, outcome, baseline))

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        obs = yield act.terminal(f"cat logs/*.log | grep -c ' ERROR {params['code']} '")
        m = re.search(r"^(\d+)\s*$", obs["sdk_output"], re.M)
        yield act.finish(m.group(1) if m else "?")


@register_task(id="computer.hybrid-dedupe-pictures-v1", max_steps=8, sdk=True)
class HybridDedupePictures(HomeTask):
    """Delete the duplicate pictures in Pictures/ (same bytes, other names), keeping of each set
    the name that sorts first. Checksums through the SDK are the sensible path.

    The checker wants exactly the later-named copies gone and everything else intact.
    """

    app = ("files", "Pictures/{folder}")

    def sample(self, rng: np.random.Generator) -> dict:
        files = {p: c for p, c in home(rng).items() if not p.startswith("Pictures/")}
        names = [f"IMG_{n}.png" for n in pick(rng, _half(rng, 1000, 10000), 14)]
        originals = {n: image(rng) for n in names[:10]}
        copies = {n: originals[pick(rng, names[:10])] for n in names[10:]}
        folder = f"{pick(rng, _TRIPS)}-{_year(rng)}"
        files.update({f"Pictures/{folder}/{n}": c for n, c in {**originals, **copies}.items()})
        return {"home": files, "folder": folder}

    def instruction(self, params: dict) -> str:
        return (f"Some pictures in the folder Pictures/{params['folder']} of your home folder are exact duplicates "
                "of others under a different name. Delete the duplicates: of each group of identical files keep only the one whose "
                "name sorts first alphabetically.")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        seen, out = set(), {}
        for p in sorted(p for p in before if p.startswith("Pictures/")):
            if before[p] in seen:
                out[p] = None
            seen.add(before[p])
        return out

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        obs = yield act.terminal(f"cd 'Pictures/{params['folder']}' && md5sum * | sort -k1,1 -k2,2")
        seen, extra = set(), []
        for line in obs["sdk_output"].splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1].endswith(".png"):
                if parts[0] in seen:
                    extra.append(parts[1])
                seen.add(parts[0])
        yield act.terminal(f"cd 'Pictures/{params['folder']}' && rm -- " + " ".join(extra))
        yield act.finish()


@register_task(id="computer.hybrid-csv-total-v0", max_steps=22, sdk=True)
class HybridCsvTotal(HomeTask):
    """Sum a column of a CSV for one region (awk through the SDK), then write the total into a
    new file (Mousepad is open for it; the SDK's write_file does as well: the checker reads the file).

    The checker wants the new file holding the total with two decimals, and nothing else changed.
    """

    app = ("editor",)

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        regions = pick(rng, _CITIES, 4)
        rows, total, year = [], 0.0, _year(rng)
        for i in range(int(rng.integers(60, 120))):
            region, amount = pick(rng, regions), round(float(rng.uniform(10, 900)), 2)
            total += amount if region == regions[0] else 0.0
            day = f"{year}-{int(rng.integers(1, 13)):02d}-{int(rng.integers(1, 29)):02d}"
            rows.append(f"{i + 1},{day},{region},{amount:.2f}")
        csv = f"Downloads/sales-{year}.csv"
        files[csv] = "id,date,region,amount\n" + "\n".join(rows) + "\n"
        return {"home": files, "csv": csv, "region": regions[0], "total": f"{total:.2f}",
                "out": f"Documents/total-{regions[0].lower()}.txt"}

    def instruction(self, params: dict) -> str:
        return (f"Add up the amount column of {params['csv']} for the rows whose region is {params['region']}. Then "
                f"save the total with two decimals (e.g. 1234.50) as the only content of a new file {params['out']}.")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return {params["out"]: params["total"].encode()}

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        obs = yield act.terminal(f"awk -F, '$3 == \"{params['region']}\" {{ s += $4 }} END {{ printf \"%.2f\\n\", s }}' "
                                 f"{params['csv']}")
        total = obs["sdk_output"].strip().splitlines()[0]
        yield act.click(sb.width // 2, sb.height // 2)
        yield act.typed(total)
        yield from editor_save_as(sb, params["out"])
        yield act.finish()


@register_task(id="computer.hybrid-batch-rename-v0", max_steps=8, sdk=True)
class HybridBatchRename(HomeTask):
    """Rename 10-20 camera pictures IMG_<n>.png to <trip>-001.png, <trip>-002.png, ... in the order of <n>
    (a shell loop through the SDK is the sensible path); the file manager is open on the folder.

    The checker wants each picture under its new name with its bytes, and nothing else changed.
    """

    app = ("files", "Camera")

    def sample(self, rng: np.random.Generator) -> dict:
        files = home(rng)
        nums = sorted(pick(rng, _half(rng, 1000, 10000), int(rng.integers(10, 21))))
        for n in nums:
            files[f"Camera/IMG_{n}.png"] = image(rng)
        return {"home": files, "trip": f"{pick(rng, _TRIPS)}-{_year(rng)}", "nums": nums}

    def instruction(self, params: dict) -> str:
        return (f"Rename the pictures in the Camera folder of your home folder from IMG_<number>.png to "
                f"{params['trip']}-001.png, {params['trip']}-002.png, ... numbered in the order of their original "
                "numbers (smallest first).")

    def changes(self, params: dict, before: dict[str, bytes]) -> dict:
        return moved(before, {f"Camera/IMG_{n}.png": f"Camera/{params['trip']}-{i + 1:03d}.png"
                              for i, n in enumerate(params["nums"])})

    def oracle(self, sb, params: dict) -> Iterator[dict]:
        yield act.terminal(f"cd Camera && i=0; for f in $(ls IMG_*.png | sort -t_ -k2 -n); do i=$((i+1)); "
                           f"mv -- \"$f\" \"$(printf '{params['trip']}-%03d.png' $i)\"; done; ls")
        yield act.finish()
