"""Training data from a run's recorded episodes: the verified trajectories as supervised fine-tuning
conversations, or every step as a Parquet table (`hybridgym export`; the data flywheel).

    hybridgym export runs/bench --out data/sft --schema uitars1.5 --which success
    hybridgym export runs/bench --out data/steps.parquet --format parquet

`export_sft` writes each selected episode as the one conversation a `ChatAgent` of the model family
would have had playing it (built by `hybridgym.chat_agent`'s own functions): the family's prompt,
per step a user turn (the screenshot the agent saw, resized as the family is sent it, and the
feedback on the last action) and an assistant turn (the step's parsed actions written in the
family's schema, which its reader turns back into exactly those actions: checked for every turn).
Layouts: "openai" (`sft-openai.jsonl`, one {"messages"} per line, images as data: URLs) and
"sharegpt" (`sft-sharegpt.json` for LLaMA-Factory, one `<image>` per image, the images under
`images/`, registered in `dataset_info.json`). `episodes.jsonl` says which episode each
conversation is.

A step whose output was refused (no parsed actions) or whose model request failed is left out:
its user turn's text joins the next kept turn's, whose screenshot is the screen after it; the
refusal's own error is not shown. An episode whose actions the family cannot write (pyautogui has
no SDK, UI-TARS no file editor) or not read back the same is skipped whole and counted by reason.
Text from the agent or the pages (SDK output, errors, the instruction) cannot break the image
count or the chat template: the placeholders `<image>`, `<video>`, `<audio>` and special tokens
`<|...|>`, `<｜...｜>` get a zero-width space after their "<" (`neutralize`); an episode whose
actions themselves hold one is skipped, as the text would no longer be what was typed.

`export_parquet` writes one row per step (the screenshot the agent saw as PNG bytes, what it sent,
its raw output, the parsed actions, the outcome, the episode's result), with the Hugging Face
`datasets` features in the schema: `datasets.load_dataset("parquet", data_files=...)` gives an
Image column; pandas, polars and duckdb read it as well.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Iterable


from .actions import ActionError, Codec
from .chat_agent import FAMILIES, conversation, model_image_size, opening, screenshot_bytes, turn_text
from .suites import SUITE_SPECS
from .trajectory import Trajectory, TrajectoryError, find_trajectories

WHICH = ("success", "failure", "all")
LAYOUTS = ("openai", "sharegpt")
SFT_OPENAI, SFT_SHAREGPT, DATASET_INFO, EPISODES, IMAGES = (
    "sft-openai.jsonl", "sft-sharegpt.json", "dataset_info.json", "episodes.jsonl", "images")
PARQUET = "steps.parquet"
#: the dataset's name in dataset_info.json (LLaMA-Factory's `dataset:`)
DATASET_NAME = "hybridgym_sft"
IMAGE_TOKEN = "<image>"
#: what could be read as a multimodal placeholder or a special token: LLaMA-Factory's <image>, <video>,
#: <audio>; ChatML, Qwen and Llama 3's <|...|>; DeepSeek's <｜...｜>
SPECIAL = re.compile(r"<(?=(?:image|video|audio)>|\|[^<>|\s]{1,64}\|>|｜)", re.I)
ZWSP = "\u200b"
#: rows per Parquet row group (screenshots are most of a row's bytes)
ROW_GROUP = 64


class ExportError(ValueError):
    """A run that cannot be exported as asked: no trajectories, an unknown family, layout or selection."""


def neutralize(text: str) -> str:
    """`text` with a zero-width space after the "<" of every placeholder or special token (`SPECIAL`), so a
    trainer neither counts it as an image nor reads it as a token of the chat template."""
    return SPECIAL.sub("<" + ZWSP, text) if text else text


# -- which episodes -------------------------------------------------------------------------------------
def accepted(traj: Trajectory) -> bool:
    """The verifier accepted the episode: it ended, its check succeeded and the sandbox had no error."""
    return traj.complete and traj.success and not (traj.result or {}).get("error")


def selected(traj: Trajectory, which: str) -> bool:
    """"success": accepted; "failure": ended and not accepted; "all": every episode (export_sft then leaves
    out, as skipped, those that did not end)."""
    if which == "all":
        return True
    return traj.complete and accepted(traj) == (which == "success")


def _trajectories(run_dir: str | os.PathLike, which: str) -> tuple[Path, list[Trajectory], int]:
    """(root, the selected trajectories, how many were found)."""
    if which not in WHICH:
        raise ExportError(f"which must be one of {', '.join(WHICH)}, got {which!r}")
    root = Path(run_dir)
    try:
        paths = find_trajectories(root)
    except FileNotFoundError as e:
        raise ExportError(str(e)) from None
    found = []
    for path in paths:
        try:
            found.append(Trajectory(path))
        except (TrajectoryError, ValueError):
            continue
    if not found:
        raise ExportError(f"no trajectories in {root}: a run folder holds episode folders with episode.json "
                          f"(`hybridgym bench --record DIR`, `hybridgym run`, RecordTrajectory)")
    return root, [t for t in found if selected(t, which)], len(found)


def _episode_key(root: Path, traj: Trajectory) -> str:
    """The episode's name, unique within the run (its folder relative to the run, '/' as '__')."""
    try:
        rel = traj.path.relative_to(root).as_posix()
    except ValueError:
        rel = traj.name
    rel = traj.name if rel in ("", ".") else rel
    return re.sub(r"[^A-Za-z0-9._-]+", "_", rel.replace("/", "__"))


def platform_of(traj: Trajectory) -> str:
    """The codec platform of the episode's suite ("computer" or "mobile")."""
    spec = SUITE_SPECS.get(traj.suite or "")
    if spec is not None:
        return spec.platform
    return (traj.header.get("codec") or {}).get("platform") or "computer"


def screen_of(traj: Trajectory) -> tuple[int, int]:
    """(width, height) of the episode's screenshots."""
    screen = traj.header.get("screen")
    if screen:
        return int(screen[0]), int(screen[1])
    shape = traj.header.get("screenshot_shape") or traj.frame(0).shape
    return int(shape[1]), int(shape[0])


def frame_file(traj: Trajectory, index: int) -> Path | None:
    """The file of the screenshot after step `index` (0: after reset), None when there is none or its name
    points out of the episode's frames/ (`Trajectory.frame_path` refuses it)."""
    try:
        path = traj.frame_path(index)
    except TrajectoryError:
        return None
    return path if path is not None and path.is_file() else None


def split_of(traj: Trajectory) -> str | None:
    """"train" or "test": the split of the episode's seed for its task (None for a task not in the catalogue)."""
    from hybridgym.tasks.base import TASKS
    task = TASKS.get(traj.task_id or "")
    if task is None or traj.seed is None:
        return None
    return task.split(int(traj.seed))


# -- SFT conversations ---------------------------------------------------------------------------------------
class EpisodeSkipped(Exception):
    """An episode that cannot be written as a conversation of the family; its message is the reason counted."""


def _no_reply(step: dict) -> bool:
    """The step has nothing to train on: its output was refused (no parsed actions) or its request failed."""
    if not step.get("actions"):
        return True
    output = step.get("agent_output")
    return isinstance(output, dict) and bool(output.get("error")) and not output.get("content")


def _reply_text(written: object) -> str:
    """The family's output as the model writes it: text as it is, JSON items as their JSON text."""
    return written if isinstance(written, str) else json.dumps(written, ensure_ascii=False)


def _assistant_text(step: dict, reader: Codec, writer: Codec) -> str:
    """The step's parsed actions in the writer's schema; EpisodeSkipped when they cannot be written, read back the
    same, or hold a special token."""
    schema = writer.schema
    try:
        actions = reader.parse(step["actions"])
    except ActionError:
        raise EpisodeSkipped("recorded actions that do not parse") from None
    try:
        text = _reply_text(writer.format(actions))
    except ActionError:
        for a in actions:
            try:
                writer.format([a])
            except ActionError:
                raise EpisodeSkipped(f"{schema} cannot write {a.action_type}") from None
        raise EpisodeSkipped(f"{schema} cannot write these actions together") from None
    try:
        back = writer.parse(text)
    except ActionError:
        back = None
    if back != actions:
        kinds = "+".join(a.action_type for a in actions)
        raise EpisodeSkipped(f"{kinds} does not read back the same in {schema} on the {writer.platform}")
    if SPECIAL.search(text):
        raise EpisodeSkipped("a special token in the agent's actions")
    return text


def sft_conversation(traj: Trajectory, family_name: str,
                     history: int | None = None) -> tuple[list[dict], list[int], int]:
    """One episode as the conversation a ChatAgent of `family_name` would have had: (messages, the frame index
    of each image part in order, steps left out). The image parts' URLs are their frame indices (ints), for a
    layout to replace. Raises EpisodeSkipped for an episode that cannot be written."""
    family = FAMILIES[family_name]
    screen, platform = screen_of(traj), platform_of(traj)
    sent = model_image_size(family, screen)
    reader = Codec(screen, platform=platform, schema="dict")
    writer = Codec(screen, coords=family.coords, platform=platform, schema=family.schema, image_size=sent)
    opening_messages, first_text = opening(family, platform=platform, sdk=bool(traj.header.get("sdk")),
                                           instruction=traj.instruction, image_size=sent or screen)
    turns: list[dict] = []
    carried, prev, prev_kept, left_out = [first_text], None, True, 0
    for index, step in enumerate(traj.steps, start=1):
        # the user turn of step `index`: the screen after step index-1 and the feedback on it
        sdk_output = (prev or {}).get("sdk_output") or ""
        error = ((prev or {}).get("action_error") or "") if prev_kept else ""
        text, feedback = turn_text(carried, sdk_output, error)
        if _no_reply(step):
            left_out += 1
            carried, prev, prev_kept = ([text] if text else []), step, False
            continue
        if frame_file(traj, index - 1) is None:
            raise EpisodeSkipped("a step without its screenshot")
        turns.append({"image": index - 1, "text": neutralize(text), "feedback": neutralize(feedback),
                      "reply": {"content": _assistant_text(step, reader, writer)}})
        carried, prev, prev_kept = [], step, True
    if not turns:
        raise EpisodeSkipped("no step with actions")
    messages = conversation(opening_messages, turns, history or len(turns))
    frames = [part["image_url"]["url"] for m in messages if isinstance(m["content"], list)
              for part in m["content"] if part["type"] == "image_url"]
    return messages, frames, left_out


class _Images:
    """The screenshots of one episode as a family is sent them: PNG bytes (for data: URLs) or files under
    OUT/images (hard links to the recorded PNG when it is sent as it is)."""

    def __init__(self, traj: Trajectory, size: tuple[int, int] | None):
        self.traj, self.size = traj, size
        self._bytes: dict[int, bytes] = {}
        self._files: dict[int, str] = {}

    def _as_is(self, index: int) -> bool:
        path = frame_file(self.traj, index)
        return self.size is None and path is not None and path.suffix.lower() == ".png"

    def png(self, index: int) -> bytes:
        if index not in self._bytes:
            if self._as_is(index):
                self._bytes[index] = frame_file(self.traj, index).read_bytes()
            else:
                self._bytes[index] = screenshot_bytes(self.traj.frame(index), self.size)
        return self._bytes[index]

    def data_url(self, index: int) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png(index)).decode()

    def file(self, index: int, folder: Path, relative_to: Path) -> str:
        """The image's file under `folder` (written once per export, over a file of an earlier export), as a
        path relative to `relative_to`."""
        if index not in self._files:
            src = frame_file(self.traj, index)
            dst = folder / (src.stem + (f"-{self.size[0]}x{self.size[1]}" if self.size else "") + ".png")
            folder.mkdir(parents=True, exist_ok=True)
            dst.unlink(missing_ok=True)
            if self._as_is(index):
                try:
                    os.link(src, dst)
                except OSError:          # another file system, or links not allowed: a copy
                    shutil.copyfile(src, dst)
            else:
                dst.write_bytes(self.png(index))
            self._files[index] = dst.relative_to(relative_to).as_posix()
        return self._files[index]


def _openai_messages(messages: list[dict], images: _Images) -> list[dict]:
    out = []
    for m in messages:
        if isinstance(m["content"], list):
            m = {**m, "content": [{"type": "image_url", "image_url": {"url": images.data_url(p["image_url"]["url"])}}
                                  if p["type"] == "image_url" else p for p in m["content"]]}
        out.append(m)
    return out


def _sharegpt_record(messages: list[dict], images: _Images, folder: Path, out_dir: Path) -> dict:
    """LLaMA-Factory's multimodal messages layout: each content a string, one <image> per image, in order."""
    paths, out = [], []
    for m in messages:
        content = m["content"]
        if isinstance(content, list):
            parts = []
            for p in content:
                if p["type"] == "image_url":
                    paths.append(images.file(p["image_url"]["url"], folder, out_dir))
                    parts.append(IMAGE_TOKEN)
                else:
                    parts.append(p["text"])
            content = "".join(parts)
        out.append({"role": m["role"], "content": content})
    return {"messages": out, "images": paths}


def dataset_info() -> dict:
    """The LLaMA-Factory registration of `sft-sharegpt.json` (its dataset_info.json)."""
    return {DATASET_NAME: {"file_name": SFT_SHAREGPT, "formatting": "sharegpt",
                           "columns": {"messages": "messages", "images": "images"},
                           "tags": {"role_tag": "role", "content_tag": "content", "user_tag": "user",
                                    "assistant_tag": "assistant", "system_tag": "system"}}}


class _AtomicText:
    """A text file written under a temporary name and renamed over its path when complete."""

    def __init__(self, path: Path):
        self.path, self.tmp = path, path.with_name(path.name + ".tmp")
        self.f = open(self.tmp, "w", encoding="utf-8")

    def commit(self) -> None:
        self.f.close()
        os.replace(self.tmp, self.path)

    def discard(self) -> None:
        self.f.close()
        self.tmp.unlink(missing_ok=True)


def _layouts(layouts: Iterable[str] | str) -> tuple[str, ...]:
    names = tuple(x.strip() for x in (layouts.split(",") if isinstance(layouts, str) else layouts) if x.strip())
    bad = [x for x in names if x not in LAYOUTS]
    if bad or not names:
        raise ExportError(f"layouts must be among {', '.join(LAYOUTS)}, got {', '.join(bad) or 'none'}")
    return names


def export_sft(run_dir: str | os.PathLike, out_dir: str | os.PathLike, *, schema: str = "uitars1.5",
               which: str = "success", layouts: Iterable[str] | str = ("openai", "sharegpt"),
               history: int | None = None) -> dict:
    """Write the selected episodes of `run_dir` as SFT conversations of model family `schema`
    (`hybridgym.chat_agent.FAMILIES`) into `out_dir`; `history=K` keeps the last K screenshots of each.
    Returns the counts (episodes found and selected, conversations, assistant turns, images, steps left out,
    skipped episodes by reason, episodes per split) and the paths written."""
    if schema not in FAMILIES:
        raise ExportError(f"unknown model family {schema!r}; families: {', '.join(FAMILIES)}")
    if history is not None and not (isinstance(history, int) and history >= 1):
        raise ExportError(f"history must be a whole number of screenshots >= 1, got {history!r}")
    names = _layouts(layouts)
    root, trajs, found = _trajectories(run_dir, which)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    family = FAMILIES[schema]
    files = {"episodes": _AtomicText(out / EPISODES)}
    if "openai" in names:
        files["openai"] = _AtomicText(out / SFT_OPENAI)
    if "sharegpt" in names:
        files["sharegpt"] = _AtomicText(out / SFT_SHAREGPT)
        files["sharegpt"].f.write("[")
    counts = {"episodes": found, "selected": len(trajs), "conversations": 0, "turns": 0, "images": 0,
              "left_out_steps": 0}
    skipped: Counter = Counter()
    splits: Counter = Counter()
    try:
        for traj in trajs:
            if not traj.complete:
                skipped["did not end"] += 1
                continue
            try:
                messages, frames, left_out = sft_conversation(traj, schema, history)
            except EpisodeSkipped as e:
                skipped[str(e)] += 1
                continue
            key = _episode_key(root, traj)
            images = _Images(traj, model_image_size(family, screen_of(traj)))
            if "openai" in files:
                files["openai"].f.write(json.dumps({"messages": _openai_messages(messages, images)},
                                                   ensure_ascii=False) + "\n")
            if "sharegpt" in files:
                record = _sharegpt_record(messages, images, out / IMAGES / key, out)
                files["sharegpt"].f.write(("," if counts["conversations"] else "") + "\n"
                                          + json.dumps(record, ensure_ascii=False))
            split = split_of(traj)
            splits[str(split)] += 1
            files["episodes"].f.write(json.dumps({
                "conversation": counts["conversations"], "episode": key, "task_id": traj.task_id, "suite": traj.suite,
                "agent": traj.agent, "seed": traj.seed, "split": split, "success": traj.success,
                "reward": traj.reward, "steps": len(traj), "turns": len(traj) - left_out, "images": len(frames),
                "left_out_steps": left_out}, ensure_ascii=False) + "\n")
            counts["conversations"] += 1
            counts["turns"] += len(traj) - left_out
            counts["images"] += len(frames)
            counts["left_out_steps"] += left_out
        if "sharegpt" in files:
            files["sharegpt"].f.write("\n]\n")
    except BaseException:
        for f in files.values():
            f.discard()
        raise
    for f in files.values():
        f.commit()
    paths = {"episodes": str(out / EPISODES)}
    if "openai" in names:
        paths["openai"] = str(out / SFT_OPENAI)
    if "sharegpt" in names:
        info = out / DATASET_INFO
        info.write_text(json.dumps(dataset_info(), indent=2) + "\n", encoding="utf-8")
        paths.update(sharegpt=str(out / SFT_SHAREGPT), dataset_info=str(info), images=str(out / IMAGES))
    return {**counts, "skipped": dict(skipped), "splits": dict(splits), "schema": schema, "which": which,
            "history": history, "paths": paths}


# -- Parquet ---------------------------------------------------------------------------------------------
#: column -> its type (Arrow and the `datasets` Value dtype); "image": a struct {bytes, path}, a `datasets` Image
COLUMNS: dict[str, str] = {
    "episode": "string", "task_id": "string", "suite": "string", "agent": "string", "seed": "int64",
    "split": "string", "instruction": "string", "platform": "string", "screen_width": "int32",
    "screen_height": "int32", "step": "int32", "image": "image", "frame_after": "string", "action": "string",
    "agent_output": "string", "actions": "string", "sdk_output": "string", "action_error": "string",
    "reward": "float64", "terminated": "bool", "truncated": "bool", "success": "bool", "message": "string",
    "answer": "string", "call_user": "bool", "score": "float64", "error": "string", "timings": "string",
    "episode_complete": "bool", "episode_success": "bool", "episode_reward": "float64", "episode_steps": "int32",
    "episode_message": "string", "episode_error": "string", "episode_score": "float64",
}


def _schema():
    import pyarrow as pa
    types = {"string": pa.string(), "int64": pa.int64(), "int32": pa.int32(), "float64": pa.float64(),
             "bool": pa.bool_(), "image": pa.struct([("bytes", pa.binary()), ("path", pa.string())])}
    features = {name: ({"_type": "Image"} if kind == "image" else {"dtype": kind, "_type": "Value"})
                for name, kind in COLUMNS.items()}
    return pa.schema([(name, types[kind]) for name, kind in COLUMNS.items()],
                     metadata={"huggingface": json.dumps({"info": {"features": features}})})


def _json_text(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def _text(value: Any) -> str | None:
    """A field that is text, or else its JSON (None stays None)."""
    return value if value is None or isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _number(value: Any) -> float | None:
    try:
        return None if value is None or isinstance(value, bool) else float(value)
    except (TypeError, ValueError):
        return None


def step_rows(traj: Trajectory, root: Path) -> Iterable[dict]:
    """The episode's steps as Parquet rows (the image: the screenshot the agent saw before the step)."""
    result = traj.result or {}
    screen, platform = screen_of(traj), platform_of(traj)
    key, split = _episode_key(root, traj), split_of(traj)
    episode = {"episode": key, "task_id": traj.task_id, "suite": traj.suite, "agent": traj.agent,
               "seed": traj.seed, "split": split, "instruction": traj.instruction, "platform": platform,
               "screen_width": screen[0], "screen_height": screen[1], "episode_complete": traj.complete,
               "episode_success": traj.success if traj.complete else None,
               "episode_reward": traj.reward, "episode_steps": len(traj),
               "episode_message": _text(result.get("message")), "episode_error": _text(result.get("error")),
               "episode_score": _number(result.get("score"))}

    top = root.resolve()

    def rel(path: Path | None) -> str | None:
        if path is None:
            return None
        try:
            return path.resolve().relative_to(top).as_posix()
        except ValueError:
            return path.as_posix()

    for index, step in enumerate(traj.steps, start=1):
        seen = frame_file(traj, index - 1)
        if seen is not None:
            data = seen.read_bytes() if seen.suffix.lower() == ".png" else screenshot_bytes(traj.frame(index - 1), None)
            image = {"bytes": data, "path": rel(seen)}
        else:
            image = None
        yield {**episode, "step": int(step.get("step", index)), "image": image,
               "frame_after": rel(frame_file(traj, index)), "action": _json_text(step.get("action")),
               "agent_output": _json_text(step.get("agent_output")), "actions": _json_text(step.get("actions")),
               "sdk_output": _text(step.get("sdk_output")), "action_error": _text(step.get("action_error")),
               "reward": _number(step.get("reward")), "terminated": bool(step.get("terminated")),
               "truncated": bool(step.get("truncated")),
               "success": None if step.get("success") is None else bool(step.get("success")),
               "message": _text(step.get("message")), "answer": _text(step.get("answer")),
               "call_user": None if step.get("call_user") is None else bool(step.get("call_user")),
               "score": _number(step.get("score")), "error": _text(step.get("error")),
               "timings": _json_text(step.get("timings"))}


def export_parquet(run_dir: str | os.PathLike, out_path: str | os.PathLike, *, which: str = "all") -> Path:
    """Write every step of the selected episodes of `run_dir` as one Parquet file (one row per step; the
    columns of `COLUMNS`; the `datasets` features in the schema's metadata). Returns its path."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ExportError("the Parquet export needs pyarrow: pip install pyarrow") from None
    root, trajs, _ = _trajectories(run_dir, which)
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    schema = _schema()
    try:
        with pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
            batch: list[dict] = []
            for traj in trajs:
                for row in step_rows(traj, root):
                    batch.append(row)
                    if len(batch) >= ROW_GROUP:
                        writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                        batch = []
            if batch or not trajs:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, out)
    return out


# -- the command -----------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="hybridgym export", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run_dir", metavar="RUN_DIR", help="a run folder of recorded episodes (bench --record DIR)")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="the output folder (parquet: DIR/steps.parquet, or a path ending in .parquet)")
    p.add_argument("--format", default="sft", choices=["sft", "parquet"],
                   help="sft: chat conversations for fine-tuning (default); parquet: one row per step")
    p.add_argument("--schema", default="uitars1.5", metavar="FAMILY",
                   help=f"sft: the model family whose conversations to write ({', '.join(FAMILIES)})")
    p.add_argument("--which", choices=WHICH, default=None,
                   help="success: episodes the verifier accepted (default for sft); failure: ended and not "
                        "accepted; all (default for parquet)")
    p.add_argument("--layout", default="openai,sharegpt",
                   help="sft: comma-separated, of openai (JSON lines) and sharegpt (LLaMA-Factory)")
    p.add_argument("--history", type=int, default=None, metavar="K",
                   help="sft: keep only the last K screenshots of each conversation (default: all)")
    args = p.parse_args(argv)
    try:
        if args.format == "parquet":
            out = Path(args.out)
            path = export_parquet(args.run_dir, out if out.suffix == ".parquet" else out / PARQUET,
                                  which=args.which or "all")
            import pyarrow.parquet as pq
            print(f"wrote {pq.ParquetFile(path).metadata.num_rows} steps to {path}")
            return 0
        result = export_sft(args.run_dir, args.out, schema=args.schema, which=args.which or "success",
                            layouts=args.layout, history=args.history)
    except ExportError as e:
        print(f"hybridgym export: {e}", file=sys.stderr)
        return 2
    print(f"{result['episodes']} episodes in {args.run_dir}, {result['selected']} {result['which']}: "
          f"{result['conversations']} conversations ({result['schema']}), {result['turns']} assistant turns, "
          f"{result['images']} images, {result['left_out_steps']} steps left out (no actions)")
    for reason, n in sorted(result["skipped"].items()):
        print(f"  skipped {n}: {reason}")
    if result["splits"].get("test"):
        print(f"  note: {result['splits']['test']} of them are test-split episodes (seeds held out for "
              f"evaluation); training on them leaks the test set", file=sys.stderr)
    for name, path in result["paths"].items():
        print(f"  {name}: {path}")
    if not result["conversations"]:
        print("hybridgym export: nothing exported", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
