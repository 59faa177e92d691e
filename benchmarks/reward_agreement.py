"""How far each built-in reward, and a judge that can be fooled, agrees with the checkers on a recorded run.

The rewards: binary (the checker's verdict as 1/0), partial (the share of the checker's goal conditions that
held; 0 when a guard failed) at thresholds 0.5 and 0.9, step_cost (binary less 0.01 per step) and a scripted
model judge: an OpenAI-compatible server on 127.0.0.1 (tests/chat_server.py) that answers "success" when the
final screenshot it is sent is bright (mean pixel > 128) and "failure" otherwise: a stand-in for a judge that
reads the look of a screen, not the task's state, so its F1 shows what such a judge gets wrong. Each is
compared with the recorded checker verdicts by `hybridgym.judge_eval.evaluate` (precision, recall, F1 per
reward, per agent and per suite).

Episodes recorded without the checker's conditions (result.json without "check": recordings older than
partial credit) have no partial value: they are counted as "no conditions" and left out of partial's rows.
Where the recording has both, the partial value rebuilt from the recorded conditions is compared with the
partial the env reported at the time ("partial_mismatches": they differ when the check's own fraction, a
game's score / target, is not part of the recording).

    .venv/bin/python benchmarks/reward_agreement.py runs/all \
        --out benchmarks/results/reward_agreement.json --markdown benchmarks/results/reward_agreement.md
"""

from __future__ import annotations

import argparse
import io
import json
import shlex
import sys
import time
from pathlib import Path

import numpy as np

from hybridgym.judge_eval import evaluate, markdown
from hybridgym.trajectory import load_run

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.chat_server import ScriptedChatServer, decode_image_url  # noqa: E402

#: mean pixel (0..255) above which the scripted judge calls a final screen a success
BRIGHT = 128


def final_brightness(body: dict) -> float | None:
    """The mean pixel of the last image in a chat request (the judge sends the final screen last)."""
    from PIL import Image
    urls = [part["image_url"]["url"] for m in body.get("messages", []) if isinstance(m.get("content"), list)
            for part in m["content"] if isinstance(part, dict) and part.get("type") == "image_url"]
    if not urls:
        return None
    with Image.open(io.BytesIO(decode_image_url(urls[-1]))) as image:
        return float(np.asarray(image.convert("RGB")).mean())


def bright_screen_judge(body: dict) -> str:
    """The scripted judge's reply: success for a bright final screen (a judge the look of a screen fools)."""
    mean = final_brightness(body)
    if mean is None:
        return "I was shown no screenshot, so I cannot tell."
    verdict = "success" if mean > BRIGHT else "failure"
    return json.dumps({"verdict": verdict, "reason": f"the final screen's mean pixel is {mean:.0f}"})


def partial_mismatches(run_dir: str, result: dict) -> list[str]:
    """Episodes whose partial value rebuilt from the recording differs from the partial recorded at the time."""
    recorded = {}
    for traj in load_run(run_dir, complete_only=True):
        check = (traj.result or {}).get("check")
        if isinstance(check, dict) and isinstance(check.get("partial"), (int, float)):
            recorded[traj.name] = float(check["partial"])
    out = []
    for episode in result["episode_values"]:
        value = episode["values"].get("partial")
        if value is not None and episode["episode"] in recorded and abs(value - recorded[episode["episode"]]) > 1e-9:
            out.append(f"{episode['episode']}: rebuilt {value:.3f}, recorded {recorded[episode['episode']]:.3f}")
    return out


def measure(run_dir: str, workers: int = 2) -> dict:
    """Every reward's agreement on `run_dir` (partial at 0.5 and at 0.9) and the judge's calls."""
    with ScriptedChatServer(bright_screen_judge) as server:
        judge = {"name": "judge", "base_url": server.base_url, "model": server.model, "frames": 1, "retries": 0}
        t0 = time.perf_counter()
        at_half = evaluate(run_dir, {"binary": "binary", "partial": "partial", "step_cost": "step_cost",
                                     "judge (bright screen)": judge}, threshold=0.5, workers=workers)
        wall = time.perf_counter() - t0
        calls = server.attempts
    at_nine = evaluate(run_dir, {"partial": "partial"}, threshold=0.9)
    rows = at_half["rewards"]
    rows.insert(2, at_nine["rewards"][0])
    return {**at_half, "rewards": rows, "judge_requests": calls, "wall_s": round(wall, 2),
            "partial_mismatches": partial_mismatches(run_dir, at_half)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run_dir", help="a recorded run (hybridgym bench --agent oracle,random,adversary --record DIR)")
    p.add_argument("--out", default="benchmarks/results/reward_agreement.json")
    p.add_argument("--markdown", default="benchmarks/results/reward_agreement.md")
    p.add_argument("--workers", type=int, default=2, help="episodes judged at once (2)")
    args = p.parse_args(argv)
    result = measure(args.run_dir, args.workers)
    text = markdown(result)
    if result["partial_mismatches"]:
        text += (f"\nPartial rebuilt from the recording differs from the partial recorded at the time on "
                 f"{len(result['partial_mismatches'])} episodes, e.g. {result['partial_mismatches'][0]}\n")
    command = "python benchmarks/reward_agreement.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    text = f"<!-- {command} -->\n" + text
    print(text, end="")
    for path, content in ((args.out, json.dumps({"command": command, **result}, indent=1) + "\n"),
                          (args.markdown, text)):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(content, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
