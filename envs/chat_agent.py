"""A model-backed agent: any OpenAI-compatible chat-completions endpoint (vLLM, SGLang, a hosted API)
plays the env through the `openai` package.

Each step sends one request: the family's prompt (`hybridgym.prompts`), a history window of the
last `history` steps with their screenshots (older steps keep their text and the model's replies,
not their screenshots) and the new observation: the screenshot as an image part (a data: URL, PNG
or JPEG, resized to the model's size where the family wants it) and a text part with the last SDK
output and the last action error.  The reply goes to `env.step` as it is: the reply's text, or,
when the server returned tool calls, the list of calls {"name", "arguments"} (the arguments
decoded from their JSON text), which each schema's reader takes.  The conversation is built by
this module's functions (`opening`, `turn_text`, `conversation`, `screenshot_bytes`), which
`hybridgym.export` uses to write recorded episodes as the same conversations, for training.

A family names the model's action schema and the coordinates it writes; at reset the agent sets
them on the env (`set_action_format`), so the env reads the model's numbers in the right space,
including the resize.  An HTTP error or a time-out that outlasts the retries does not end the
episode: it is counted, and the step is a no-op (`Wait(0)`).

Counted per episode (`episode_stats()`, in the bench summary as "agent_stats"): requests, prompt and
completion tokens (the server's `usage`), the model's seconds (each request's round trip, retries
included), the agent's own seconds (encoding the screenshot and building the request, without the
round trip), retries and errors.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .actions import Wait
from .agents import Agent
from .imaging import encode_image
from .prompts import build_prompt, tools as family_tools


def _as_is(screen: tuple[int, int]) -> None:
    return None


def anthropic_size(screen: tuple[int, int]) -> tuple[int, int] | None:
    """The size Anthropic's computer use wants: at most 1280x800 pixels in all (the WXGA it recommends) and
    1568 on the long edge, below which its API does not downscale (a downscale it did would move every
    coordinate the model writes); None when the screenshot already fits."""
    w, h = screen
    scale = min(1.0, math.sqrt(1280 * 800 / (w * h)), 1568 / max(w, h))
    return None if scale == 1.0 else (max(1, math.floor(w * scale)), max(1, math.floor(h * scale)))


@dataclass(frozen=True)
class Family:
    """A model family: the schema its output is in, the coordinates it writes, the image size it wants
    (`model_size(screen)`: None to send the screenshot as it is)."""
    schema: str
    coords: str
    model_size: Callable[[tuple[int, int]], tuple[int, int] | None] = _as_is


#: family name -> Family; `ChatAgent(schema=...)` and `--schema` take these names
FAMILIES: dict[str, Family] = {
    "seed": Family("seed", "relative"), "uitars2": Family("seed", "relative"),
    # UI-TARS-1.5 writes pixels of the image the server smart-resizes: the screenshot is sent as it is
    "uitars": Family("uitars", "smart_resize"),
    "uitars1.5": Family("uitars", "smart_resize"),
    "qwen": Family("qwen", "smart_resize"), "qwen2.5": Family("qwen", "smart_resize"),
    "qwen3": Family("qwen", "relative"),
    "openai": Family("openai", "absolute"),
    "anthropic": Family("anthropic", "absolute", anthropic_size),
    "claude": Family("anthropic", "absolute", anthropic_size),
    "pyautogui": Family("pyautogui", "absolute"),
}
IMAGE_FORMATS = ("png", "jpeg")
_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n?(.*?)\n?```$", re.S)
#: the text of a user turn whose screenshot is out of the history window and that has no text of its own
LEFT_OUT = "(an earlier screenshot, left out)"


# -- a conversation, as ChatAgent has it (hybridgym.export writes training data the same way) -----------------
def model_image_size(family: Family, screen: tuple[int, int],
                     image_size: str | tuple[int, int] | None = "model") -> tuple[int, int] | None:
    """The size the screenshot is sent at, None when it is sent as it is: `image_size` "model" (the family's
    size), None (as it is) or (width, height)."""
    if image_size == "model":
        size = family.model_size(tuple(screen))
    else:
        size = tuple(image_size) if image_size is not None else None
    return None if size == tuple(screen) else size


def opening(family: Family, *, platform: str, sdk: bool, instruction: str, image_size: tuple[int, int],
            language: str = "English", tools_sent: bool = False,
            system_prompt: str | None = None) -> tuple[list[dict], str]:
    """What opens the conversation: the system message (a list of none or one) and the first user turn's text
    (the family's prompt from `hybridgym.prompts.build_prompt`; `system_prompt` replaces the family's)."""
    if system_prompt is not None:
        return [{"role": "system", "content": system_prompt}], f"Task: {instruction}"
    prompt = build_prompt(family.schema, family.coords, platform=platform, sdk=sdk, instruction=instruction,
                          image_size=image_size, language=language, tools_sent=tools_sent)
    return ([{"role": "system", "content": prompt.system}] if prompt.system else []), prompt.task


def turn_text(intro: list[str], sdk_output: str | None = "", action_error: str | None = "") -> tuple[str, str]:
    """A user turn's (text, feedback): `intro` (the task, on the first step or when it changed), then the feedback
    on the last action (the SDK's output, the action's error), which a tool call's result repeats."""
    feedback = []
    if sdk_output:
        feedback.append(f"Output of your last SDK call:\n{sdk_output}")
    if action_error:
        feedback.append(f"Your last action was refused: {action_error}")
    return "\n\n".join(list(intro) + feedback), "\n\n".join(feedback)


def conversation(opening_messages: list[dict], turns: list[dict], history: int) -> list[dict]:
    """The messages of a conversation: the opening, then per turn ({"image", "text", "feedback", "reply"}) a user
    message (its screenshot's URL while among the last `history` turns) and the model's reply ({"content"} and
    maybe "tool_calls", "error"); a reply made of tool calls is followed by each call's result: the next turn's
    feedback. It ends at the first turn without a reply."""
    messages = list(opening_messages)
    first_image = len(turns) - history
    for i, turn in enumerate(turns):
        content = []
        if i >= first_image:
            content.append({"type": "image_url", "image_url": {"url": turn["image"]}})
        if turn["text"]:
            content.append({"type": "text", "text": turn["text"]})
        elif i < first_image:
            content.append({"type": "text", "text": LEFT_OUT})
        messages.append({"role": "user", "content": content})
        reply = turn["reply"]
        if reply is None:
            break
        calls = reply.get("tool_calls")
        if calls:
            messages.append({"role": "assistant", "content": reply.get("content"), "tool_calls": calls})
        else:
            failed = "(no reply: the request failed)" if reply.get("error") else ""
            messages.append({"role": "assistant", "content": reply.get("content") or failed})
        for call in calls or ():
            result = turns[i + 1]["feedback"] if i + 1 < len(turns) else ""
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result or "done"})
    return messages


def screenshot_bytes(frame: np.ndarray, size: tuple[int, int] | None, image_format: str = "png",
                     jpeg_quality: int = 90) -> bytes:
    """A screenshot as sent: resized to `size` (bilinear; None: as it is), encoded as PNG or JPEG."""
    if size is not None:
        from PIL import Image
        frame = np.asarray(Image.fromarray(np.asarray(frame)).resize(tuple(size), Image.BILINEAR))
    return encode_image(np.asarray(frame), image_format, jpeg_quality)


class ChatAgent(Agent):
    """Plays the env with a model behind an OpenAI-compatible chat-completions endpoint.

    Arguments:
        base_url: the endpoint's base URL, e.g. "http://127.0.0.1:8000/v1" (vLLM).
        model: the model name the server serves.
        schema: the model's family (`FAMILIES`): "seed"/"uitars2", "uitars"/"uitars1.5", "qwen"/"qwen2.5",
            "qwen3", "openai", "anthropic"/"claude" or "pyautogui".
        api_key: the endpoint's key (default: $OPENAI_API_KEY, else "EMPTY", which local servers take).
        history: screenshots per request, the new one included (older steps keep their text and replies).
        image_size: "model" (the family's size: Anthropic's fits 1280x800; the others are sent as they are),
            None (as it is) or (width, height).
        image_format: "png" (lossless) or "jpeg" (`jpeg_quality`).
        temperature, max_tokens: sampling of the reply.
        timeout_s: seconds a request may take; retries: the `openai` client's retries of a failed or
            timed-out request (status 408, 409, 429, 5xx; connection errors), with its back-off.
        system_prompt: replaces the family's prompt (the task's instruction still opens the first turn).
        language: of UI-TARS's thoughts (its template's {language}).
        tools: send the family's function tools (`hybridgym.prompts.tools`; Qwen and Anthropic) for a
            server that parses tool calls, which then come back as the reply's tool calls.
        extra_body: more fields of the request body (e.g. {"top_k": 1} or vLLM's options).
    """

    name = "chat"

    def __init__(self, base_url: str, model: str, schema: str = "seed", api_key: str | None = None,
                 history: int = 3, image_size: str | tuple[int, int] | None = "model", image_format: str = "png",
                 jpeg_quality: int = 90, temperature: float = 0.0, max_tokens: int = 1024, timeout_s: float = 120.0,
                 retries: int = 2, system_prompt: str | None = None, language: str = "English",
                 tools: bool = False, extra_body: dict | None = None):
        if schema not in FAMILIES:
            raise ValueError(f"unknown model family {schema!r}; families: {', '.join(FAMILIES)}")
        if not (isinstance(history, int) and history >= 1):
            raise ValueError(f"history must be a whole number of screenshots >= 1, got {history!r}")
        if image_format not in IMAGE_FORMATS:
            raise ValueError(f"image_format must be one of {IMAGE_FORMATS}, got {image_format!r}")
        if not (image_size in (None, "model") or (isinstance(image_size, (tuple, list)) and len(image_size) == 2
                                                   and all(isinstance(v, int) and v > 0 for v in image_size))):
            raise ValueError(f"image_size must be 'model', None or (width, height) in pixels, got {image_size!r}")
        import openai        # here, not at import: the package takes most of a second to import
        self._errors = (openai.APIError,)
        self.family_name, self.family = schema, FAMILIES[schema]
        self.model, self.history, self.image_size = model, history, image_size
        self.image_format, self.jpeg_quality = image_format, jpeg_quality
        self.temperature, self.max_tokens = temperature, max_tokens
        self.system_prompt, self.language, self.use_tools = system_prompt, language, tools
        self.extra_body = dict(extra_body or {})
        self._sent = 0
        self._http = openai.DefaultHttpxClient(event_hooks={"request": [self._count_sent]})
        self.client = openai.OpenAI(base_url=base_url, api_key=api_key or os.environ.get("OPENAI_API_KEY", "EMPTY"),
                                    timeout=timeout_s, max_retries=retries, http_client=self._http)
        self._turns: list[dict] = []
        self._stats = self._new_stats()
        self.last_output: dict | None = None

    def _count_sent(self, request) -> None:
        self._sent += 1          # every attempt, retries included

    def close(self) -> None:
        """Close the HTTP connections."""
        self.client.close()

    # -- the episode -----------------------------------------------------------------------------------
    def reset(self, env, obs, info):
        """Sets the family's schema, coordinates and image size on the env and starts a new conversation."""
        base = env.unwrapped
        screen = tuple(base.screen_size)
        self.sent_size = self._sent_size(screen)
        base.set_action_format(schema=self.family.schema, coords=self.family.coords, image_size=self.sent_size)
        platform = base.codec.platform
        image = self.sent_size or screen
        self._opening, self._first_text = opening(
            self.family, platform=platform, sdk=bool(info.get("sdk")), instruction=obs["instruction"],
            image_size=image, language=self.language, tools_sent=self.use_tools, system_prompt=self.system_prompt)
        self._tools = (family_tools(self.family.schema, self.family.coords, platform=platform,
                                    sdk=bool(info.get("sdk")), image_size=image) if self.use_tools else None)
        self._instruction = obs["instruction"]
        self._turns = []
        self._stats = self._new_stats()

    def act(self, obs):
        t0 = time.perf_counter()
        self._add_turn(obs)
        request = {"model": self.model, "messages": conversation(self._opening, self._turns, self.history),
                   "temperature": self.temperature, "max_tokens": self.max_tokens}
        if self._tools:
            request["tools"] = self._tools
        if self.extra_body:
            request["extra_body"] = self.extra_body
        stats = self._stats
        sent_before = self._sent
        t_call = time.perf_counter()
        try:
            response = self.client.chat.completions.create(**request)
        except self._errors as e:
            model_s = time.perf_counter() - t_call
            stats["errors"] += 1
            stats["last_error"] = f"{type(e).__name__}: {e}"[:500]
            reply, action = {"content": None, "error": stats["last_error"]}, Wait(0.0)
        else:
            model_s = time.perf_counter() - t_call
            reply, action = self._read(response)
        t_back = time.perf_counter()
        stats["requests"] += 1
        stats["retries"] += max(0, self._sent - sent_before - 1)
        self._turns[-1]["reply"] = reply
        self.last_output = reply      # the model's raw reply: its text and tool calls (trajectories record it)
        stats["model_s"].append(model_s)
        stats["overhead_s"].append((t_call - t0) + (time.perf_counter() - t_back))
        return action

    def episode_stats(self) -> dict:
        """This episode's counts: requests, tokens, the model's seconds (the round trips) and the agent's own
        (`overhead_s`, of which `mean_encode_ms` per step is the screenshot's encoding), retries, errors."""
        s = self._stats
        n = max(1, len(s["model_s"]))
        return {"model": self.model, "family": self.family_name, "requests": s["requests"],
                "prompt_tokens": s["prompt_tokens"], "completion_tokens": s["completion_tokens"],
                "model_s": round(sum(s["model_s"]), 4), "mean_model_s": round(sum(s["model_s"]) / n, 4),
                "overhead_s": round(sum(s["overhead_s"]), 4),
                "mean_overhead_ms": round(1000 * sum(s["overhead_s"]) / n, 3),
                "mean_encode_ms": round(1000 * sum(s["encode_s"]) / n, 3),
                "retries": s["retries"], "errors": s["errors"], "last_error": s["last_error"]}

    # -- building the request ---------------------------------------------------------------------------
    @staticmethod
    def _new_stats() -> dict:
        return {"requests": 0, "prompt_tokens": 0, "completion_tokens": 0, "model_s": [], "overhead_s": [],
                "encode_s": [], "retries": 0, "errors": 0, "last_error": None}

    def _sent_size(self, screen: tuple[int, int]) -> tuple[int, int] | None:
        return model_image_size(self.family, screen, self.image_size)

    def _add_turn(self, obs) -> None:
        """A step's user turn: its screenshot, and its text: the task (first step, or when it changed), then the
        feedback on the last action (the SDK's output, the action's error), which a tool call's result repeats."""
        intro = []
        if not self._turns:
            intro.append(self._first_text)
        elif obs.get("instruction") and obs["instruction"] != self._instruction:
            self._instruction = obs["instruction"]
            intro.append(f"The task is now: {self._instruction}")
        text, feedback = turn_text(intro, obs.get("sdk_output"), obs.get("action_error"))
        self._turns.append({"image": self._image_url(obs["screenshot"]), "text": text, "feedback": feedback,
                            "reply": None})

    def _image_url(self, frame: np.ndarray) -> str:
        t0 = time.perf_counter()
        url = self._encoded(frame)
        self._stats["encode_s"].append(time.perf_counter() - t0)
        return url

    def _encoded(self, frame: np.ndarray) -> str:
        data = screenshot_bytes(frame, self.sent_size, self.image_format, self.jpeg_quality)
        return f"data:image/{self.image_format};base64,{base64.b64encode(data).decode()}"

    # -- reading the reply ----------------------------------------------------------------------------------------
    def _read(self, response) -> tuple[dict, object]:
        usage = getattr(response, "usage", None)
        if usage is not None:
            self._stats["prompt_tokens"] += usage.prompt_tokens or 0
            self._stats["completion_tokens"] += usage.completion_tokens or 0
        if not response.choices:
            return {"content": None}, ""
        message = response.choices[0].message
        content = message.content
        calls = [{"id": c.id, "type": "function", "function": {"name": c.function.name,
                                                                 "arguments": c.function.arguments}}
                 for c in (message.tool_calls or []) if getattr(c, "function", None) is not None]
        reply = {"content": content, "tool_calls": calls}
        if calls:
            return reply, [{"name": c["function"]["name"], "arguments": _arguments(c["function"]["arguments"])}
                           for c in calls]
        return reply, self._text_action(content or "")

    def _text_action(self, text: str) -> object:
        """The reply's text for the env; for the JSON families, text that is not JSON (once out of a ``` fence)
        is what their APIs make of a reply without a tool call: the final answer."""
        if self.family.schema not in ("openai", "anthropic"):
            return text
        body = text.strip()
        fenced = _FENCE.match(body)
        if fenced:
            body = fenced.group(1).strip()
        if not body or body[:1] in ("{", "["):
            return body             # (an empty reply is refused by the env as such)
        if self.family.schema == "anthropic":
            return [{"type": "text", "text": text}]
        return [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}]


def _arguments(text: str) -> object:
    """A tool call's arguments: the object its JSON text holds, else the text as it is (the reader says what
    is wrong with it)."""
    if not isinstance(text, str):
        return text
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return text
    return value if isinstance(value, dict) else text
