"""The acceptance test of the model schemas: each task's oracle, spoken by a scripted
OpenAI-compatible server in one model family's dialect, solves the task through `ChatAgent`
over real HTTP on 127.0.0.1.

The server answers each chat-completions request with the oracle's next action written by that
schema's formatter (`Codec.format`), so the path is the real one: the agent encodes the
screenshot and sends the request with the `openai` package, the server's reply comes back as
text (or as tool calls, for the computer-use JSON families), the env reads it with the schema's
reader in the family's coordinate space (the image the agent sends resized where the family
resizes it) and performs it.

By default a sample: one task per suite and schema, a different one for each schema (the MiniWoB
suite from the pages with a solver; the game suite from the games of at most `SAMPLE_GAME_STEPS` steps: an
oracle's long game, such as pong's, is 40-60 s of CI and reads no form of action the short ones do not). `-m slow` plays every task with every schema
(HYBRIDGYM_SCHEMA_ROTATIONS=k: with k of them, in turn).
"""

from __future__ import annotations

import json
import os
import zlib

import pytest

from hybridgym.actions import ActionError, Codec, Terminal
from hybridgym.agents import ChatAgent, OracleAgent, run_episode
from hybridgym.tasks import TASKS
from hybridgym.tasks.base import SUITES

from .chat_server import ScriptedChatServer

#: family -> what its server replies: "text" (the content) or "tool_calls" (OpenAI-style tool calls)
FAMILIES = {"seed": "text", "uitars": "text", "qwen": "tool_calls", "qwen3": "text", "openai": "text",
            "anthropic": "tool_calls", "pyautogui": "text"}


def _tasks_of(suite: str) -> list[str]:
    return sorted(t for t, task in TASKS.items() if task.suite == suite and task.has_oracle)


def _expressible(family: str, task_id: str) -> bool:
    """pyautogui code has no answer, no SDK and no phone buttons: it plays the tasks that need none."""
    task = TASKS[task_id]
    if family != "pyautogui":
        return True
    return not task.sdk and task.suite != "mobile" and task.expected_answer(task.draw(0)) is None


#: the default sample's games: those whose episodes have at most this many steps
SAMPLE_GAME_STEPS = 150


def _sample() -> list[tuple[str, str]]:
    cases = []
    for i, family in enumerate(FAMILIES):
        for suite in SUITES:
            ids = [t for t in _tasks_of(suite) if _expressible(family, t)
                   and (suite != "game" or TASKS[t].max_steps <= SAMPLE_GAME_STEPS)]
            if ids:   # the few short games in turn, so that the families play different ones
                pick = i if suite == "game" else zlib.crc32(f"{family}/{suite}".encode())
                cases.append((family, ids[pick % len(ids)]))
    return cases


def _everything() -> list[tuple[str, str]]:
    """Every task with every family; with HYBRIDGYM_SCHEMA_ROTATIONS=k, every task with k families, in turn
    (task i with families i, i+1, ... i+k-1 of FAMILIES): every task and every family, k times cheaper."""
    families = list(FAMILIES)
    rotations = int(os.environ.get("HYBRIDGYM_SCHEMA_ROTATIONS") or len(families))
    ids = [t for s in SUITES for t in _tasks_of(s)]
    return [(f, t) for i, t in enumerate(ids)
            for f in (families[(i + r) % len(families)] for r in range(rotations)) if _expressible(f, t)]


class _OracleVoice:
    """The server's script: the oracle's next actions (worked out by the agent's thread, which owns the
    sandbox's Playwright objects; the server answers on its own thread) in the family's dialect."""

    def __init__(self, env, family: str, reply_as: str):
        self.env, self.family, self.reply_as = env, family, reply_as
        self.oracle = OracleAgent()
        self.actions: list = []
        self.written: list[object] = []

    def next_actions(self, obs) -> None:
        base = self.env.unwrapped
        plain = Codec(base.screen_size, platform=base.codec.platform)     # the oracle's own form
        self.actions = plain.parse(self.oracle.act(obs))

    def __call__(self, request: dict):
        written = self.env.unwrapped.codec.format(self.actions)    # the env's codec reads the family's dialect
        self.written.append(written)
        if self.reply_as == "tool_calls":
            calls, text = _as_tool_calls(written)
            return {"tool_calls": calls} if calls else text      # a final answer is the reply's text
        return written if isinstance(written, str) else json.dumps(written)


def _as_tool_calls(written) -> tuple[list[dict], str]:
    """A formatter's output as an OpenAI-compatible server returns it when it parses tool calls (vLLM's
    tool parsers): (the tool calls, the text around them). Qwen writes <tool_call> JSON blocks, Anthropic
    tool_use and text blocks."""
    if isinstance(written, str):      # Qwen text: <tool_call>{...}</tool_call> blocks
        calls = [json.loads(part.split("</tool_call>")[0]) for part in written.split("<tool_call>")[1:]]
        text = written.split("<tool_call>")[0]
    else:
        blocks = written if isinstance(written, list) else written.get("content", [written])
        calls = [{"name": b["name"], "arguments": b["input"]} for b in blocks if b.get("type") == "tool_use"]
        text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
    return [{"name": c["name"], "arguments": json.dumps(c["arguments"], ensure_ascii=False)} for c in calls], text


class _SpyAgent(ChatAgent):
    """The ChatAgent as it is, telling the script the observation it acts on."""

    voice: _OracleVoice

    def reset(self, env, obs, info):
        super().reset(env, obs, info)
        self.voice.oracle.reset(env, obs, info)

    def act(self, obs):
        self.voice.next_actions(obs)
        return super().act(obs)


def _play(suite_env, family: str, task_id: str, seed: int = 0) -> tuple[dict, _OracleVoice, ScriptedChatServer]:
    env = suite_env(TASKS[task_id].suite)
    voice = _OracleVoice(env, family, FAMILIES[family])
    try:
        with ScriptedChatServer(voice) as server:
            agent = _SpyAgent(base_url=server.base_url, model=f"scripted-{family}", schema=family)
            agent.voice = voice
            summary = run_episode(env, agent, seed, task=task_id)
    finally:
        env.unwrapped.set_action_format()       # the suite's env is shared: back to auto
    return summary, voice, server


def _assert_solved(summary: dict, voice: _OracleVoice, server, family: str, task_id: str) -> None:
    assert summary["success"], (family, task_id, summary["message"], summary["error"], voice.written[-3:])
    assert summary["invalid_actions"] == 0, (family, task_id, voice.written)
    assert summary["error"] is None
    assert len(server.requests) == summary["steps"]      # every step went through the server


@pytest.mark.parametrize("family,task_id", _sample(), ids=lambda v: v)
def test_the_oracle_spoken_in_each_schema_solves_a_sample(suite_env, family, task_id):
    summary, voice, server = _play(suite_env, family, task_id)
    _assert_solved(summary, voice, server, family, task_id)
    assert summary["agent_stats"]["requests"] == summary["steps"]


@pytest.mark.slow
@pytest.mark.parametrize("family,task_id", _everything(), ids=lambda v: v)
def test_the_oracle_spoken_in_each_schema_solves_every_task(suite_env, family, task_id):
    summary, voice, server = _play(suite_env, family, task_id)
    _assert_solved(summary, voice, server, family, task_id)


def test_a_formatter_that_cannot_write_an_action_says_so():
    with pytest.raises(ActionError, match="pyautogui"):
        Codec((1280, 800), schema="pyautogui").format([Terminal("ls")])
