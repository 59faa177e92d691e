"""Round trips of every action schema: for each typed action type and random instances of it, is
`parse(format(action))` the same action, on the computer (1280x800) and on the phone (1080x2400),
with the screenshot sent as it is and resized (1280x800 sent as 1024x640)?

Prints a table (per schema: action types it can write, instances tried, identical) and writes
it as JSON; `--examples FILE` also writes the markdown table of how each schema writes one
instance of each action (the table in docs/action-schemas.md).

    .venv/bin/python benchmarks/schema_roundtrip.py --out benchmarks/results/schema_roundtrip.json \
        --examples runs/schema_examples.md
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from hybridgym.actions import SCHEMA_NAMES, ActionError, Codec
from hybridgym.actions import model as A

SCREENS = {"computer": ((1280, 800), None), "computer, sent as 1024x640": ((1280, 800), (1024, 640)),
           "mobile": ((1080, 2400), None)}
_TEXTS = ["hello", "It's a \"quote\"\nand a new line", "C:\\Users\\x", "ünïcødé 你好 🙂", "</parameter> <tag> & ;",
          "a\\nb", "  spaces  ", "'", "{\"json\": [1, 2]}"]


def random_action(cls: type[A.Action], rng: np.random.Generator, screen: tuple[int, int]) -> A.Action:
    """One instance of an action type with random fields (pixels anywhere on the screen)."""
    w, h = screen

    def px() -> tuple[int, int]:
        return int(rng.integers(0, w)), int(rng.integers(0, h))

    text = _TEXTS[int(rng.integers(len(_TEXTS)))]
    key = str(rng.choice(["enter", "a", "tab", "f5", "ctrl", "pageup", "/", "space"]))
    make = {
        A.Click: lambda: A.Click(*px()), A.DoubleClick: lambda: A.DoubleClick(*px()),
        A.RightClick: lambda: A.RightClick(*px()), A.MiddleClick: lambda: A.MiddleClick(*px()),
        A.MoveTo: lambda: A.MoveTo(*px()), A.Drag: lambda: A.Drag(*px(), *px()),
        A.MouseDown: lambda: A.MouseDown(*px()), A.MouseUp: lambda: A.MouseUp(*px()),
        A.Scroll: lambda: A.Scroll(str(rng.choice(["up", "down", "left", "right"])), *px(),
                                   amount=int(rng.integers(1, 10))),
        A.TypeText: lambda: A.TypeText(text), A.Hotkey: lambda: A.Hotkey(("ctrl", key) if key != "ctrl" else ("ctrl",)),
        A.KeyDown: lambda: A.KeyDown(key), A.KeyUp: lambda: A.KeyUp(key),
        A.Tap: lambda: A.Tap(*px()), A.LongPress: lambda: A.LongPress(*px(), duration=float(rng.integers(1, 4))),
        A.Swipe: lambda: A.Swipe(*px(), *px()), A.PressHome: A.PressHome, A.PressBack: A.PressBack,
        A.OpenApp: lambda: A.OpenApp(str(rng.choice(["Contacts", "Settings", "Clock"]))),
        A.Terminal: lambda: A.Terminal(str(rng.choice(["ls -la", "cat 'a b.txt' | wc -l", "echo \"$HOME\" > out.txt"]))),
        A.ReadFile: lambda: A.ReadFile("notes/todo.txt"), A.WriteFile: lambda: A.WriteFile("out.txt", text),
        A.EditFile: lambda: rng.choice([
            A.EditFile("view", "notes.txt"), A.EditFile("view", "notes.txt", view_range=(2, -1)),
            A.EditFile("create", "new.py", file_text=text), A.EditFile("str_replace", "a.txt", old_str=text, new_str="x"),
            A.EditFile("insert", "a.txt", new_str=text, insert_line=int(rng.integers(0, 9))),
            A.EditFile("undo_edit", "a.txt")]),
        A.Wait: lambda: A.Wait(float(rng.choice([1.0, 2.0, 5.0]))), A.Finished: lambda: A.Finished(text),
        A.CallUser: lambda: A.CallUser("I cannot do this task"),
    }
    return make[cls]()


MOBILE_ONLY = (A.Tap, A.LongPress, A.Swipe, A.PressHome, A.PressBack, A.OpenApp)
mismatches: list[dict] = []


def equivalents(schema: str, platform: str, action: A.Action, screen: tuple[int, int]) -> list[list[A.Action]]:
    """Readings, other than the action itself, that perform the same motions (counted as identical, and
    listed in the JSON): on the phone, UI-TARS text has one click, one drag and one scroll, read back as
    the Tap, the Swipe and the finger stroke the phone performs them as; pyautogui drags from the
    pointer, so a Drag is written moveTo(start) + dragTo(end)."""
    from hybridgym.actions.uitars import scroll_swipe
    if schema == "uitars" and platform == "mobile":
        if isinstance(action, A.Click):
            return [[A.Tap(action.x, action.y)]]
        if isinstance(action, A.Drag):
            return [[A.Swipe(action.x1, action.y1, action.x2, action.y2)]]
        if isinstance(action, A.Scroll):
            return [[scroll_swipe(action.direction, (action.x, action.y), screen)]]
    if schema == "pyautogui" and isinstance(action, A.Drag):
        return [[A.MoveTo(action.x1, action.y1), action]]
    return []


def round_trips(seeds: int) -> dict:
    results = {}
    for schema in SCHEMA_NAMES:
        row = {}
        for label, (screen, image) in SCREENS.items():
            platform = "mobile" if label == "mobile" else "computer"
            codec = Codec(screen, platform=platform, schema=schema, image_size=image)
            kinds = {}
            for cls in A.ALL_ACTIONS:
                if platform == "computer" and cls in MOBILE_ONLY:
                    continue       # the codec refuses the phone's own actions on a computer
                tried = same = 0
                refused = None
                for seed in range(seeds):
                    action = random_action(cls, np.random.default_rng(seed), screen)
                    try:
                        written = codec.format([action])
                    except ActionError as e:
                        refused = str(e)
                        break
                    tried += 1
                    try:
                        back = codec.parse(written)
                    except ActionError as e:
                        back = [f"ActionError: {e}"]
                    if back == [action] or back in equivalents(schema, platform, action, screen):
                        same += 1
                    elif len(mismatches) < 40:
                        mismatches.append({"schema": schema, "screen": label, "action": repr(action),
                                           "written": written, "read": repr(back)})
                kinds[cls.action_type] = {"tried": tried, "identical": same, **({"cannot": refused} if refused else {})}
            row[label] = kinds
        results[schema] = row
    return results


def examples(screen=(1280, 800)) -> str:
    """Markdown: how each schema writes one instance of each action (or that it cannot)."""
    rng = np.random.default_rng(1)
    lines = ["| action | " + " | ".join(SCHEMA_NAMES) + " |", "|---" * (len(SCHEMA_NAMES) + 1) + "|"]
    for cls in A.ALL_ACTIONS:
        platform = "mobile" if cls in (A.Tap, A.LongPress, A.Swipe, A.PressHome, A.PressBack, A.OpenApp) else "computer"
        action = random_action(cls, rng, screen)
        cells = []
        for schema in SCHEMA_NAMES:
            try:
                written = Codec(screen, platform=platform, schema=schema).format([action])
                text = written if isinstance(written, str) else json.dumps(written, ensure_ascii=False)
                cells.append("`" + text.replace("|", "\\|").replace("\n", "⏎").replace("`", "'")[:160] + "`")
            except ActionError:
                cells.append("–")
        lines.append(f"| `{action!r}` | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=50, help="random instances per action type and screen")
    p.add_argument("--out", help="JSON file for the results")
    p.add_argument("--examples", help="markdown file for the table of written examples")
    args = p.parse_args()
    results = round_trips(args.seeds)
    print(f"{'schema':10s} {'screen':28s} {'types':>6s} {'tried':>6s} {'identical':>9s}")
    for schema, row in results.items():
        for label, kinds in row.items():
            written = [k for k, v in kinds.items() if "cannot" not in v]
            tried = sum(v["tried"] for v in kinds.values())
            same = sum(v["identical"] for v in kinds.values())
            print(f"{schema:10s} {label:28s} {len(written):>3d}/{len(kinds):<2d} {tried:6d} {same:9d}")
    for m in mismatches[:10]:
        print("not identical:", m)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps({"results": results, "not_identical": mismatches}, indent=1,
                                             default=str) + "\n")
    if args.examples:
        Path(args.examples).parent.mkdir(parents=True, exist_ok=True)
        Path(args.examples).write_text(examples())


if __name__ == "__main__":
    main()
