"""ChatAgent against a scripted OpenAI-compatible server over real HTTP on 127.0.0.1: what each request
carries (screenshot, instruction, history window, the family's prompt, the SDK only where offered), retries,
time-outs, token counts, tool calls; and the CLI's `--agent chat` and `--agent module:Class` on a real env."""

from __future__ import annotations

import io
import json
import threading
from types import SimpleNamespace

import numpy as np
import pytest
from PIL import Image

from hybridgym.actions import Click, Codec, Wait
from hybridgym.agents import ChatAgent, run_episode
from hybridgym.chat_agent import FAMILIES, anthropic_size
from hybridgym.cli import main

from .chat_server import ScriptedChatServer, decode_image_url

SEED_CLICK = ("<seed:tool_call><function=click><parameter=point><point>500 500</point></parameter></function>"
              "</seed:tool_call>")


class FakeEnv:
    """What ChatAgent.reset reads of an env: its screen, its codec's platform, set_action_format (recorded;
    `reader()` is the codec the env would then hold)."""

    def __init__(self, screen=(1280, 800), platform="computer"):
        self.screen_size, self.unwrapped = screen, self
        self.codec = SimpleNamespace(platform=platform)
        self.formats = []

    def set_action_format(self, schema="auto", coords=None, image_size=None):
        self.formats.append((schema, coords, image_size))

    def reader(self) -> Codec:
        schema, coords, image_size = self.formats[-1]
        return Codec(self.screen_size, coords=coords, platform=self.codec.platform, schema=schema,
                     image_size=image_size)


def frame(i: int, screen=(1280, 800)) -> np.ndarray:
    """A screenshot telling its step apart: a gradient and a block of shade i."""
    w, h = screen
    f = np.zeros((h, w, 3), np.uint8)
    f[..., 0] = np.arange(w, dtype=np.uint8)[None, :]
    f[..., 1] = np.arange(h, dtype=np.uint8)[:, None]
    f[10:50, 10:50, 2] = i
    return f


def obs(i=0, screen=(1280, 800), error="", sdk_output="", instruction="Add milk to the list"):
    return {"screenshot": frame(i, screen), "instruction": instruction, "sdk_output": sdk_output,
            "action_error": error}


def images(body: dict) -> list[np.ndarray]:
    return [np.asarray(Image.open(io.BytesIO(decode_image_url(part["image_url"]["url"]))).convert("RGB"))
            for m in body["messages"] if isinstance(m["content"], list)
            for part in m["content"] if part["type"] == "image_url"]


def texts(body: dict, role: str = "user") -> list[str]:
    out = []
    for m in body["messages"]:
        if m["role"] == role:
            content = m["content"]
            out += [content] if isinstance(content, str) else [p["text"] for p in content if p["type"] == "text"]
    return out


@pytest.fixture
def server():
    with ScriptedChatServer(lambda body: SEED_CLICK) as s:
        yield s


def started(server, schema="seed", env=None, info=None, first=None, **kwargs) -> tuple[ChatAgent, FakeEnv]:
    agent = ChatAgent(server.base_url, "test-model", schema=schema, **kwargs)
    env = env or FakeEnv()
    agent.reset(env, first or obs(0, env.screen_size), info or {"sdk": False, "suite": "browser"})
    return agent, env


def test_a_request_carries_the_screenshot_the_instruction_and_the_prompt(server):
    agent, env = started(server)
    action = agent.act(obs(7))
    assert env.reader().parse(action) == [Click(640, 400)]
    assert env.formats == [("seed", "relative", None)]
    body = server.requests[0]
    assert body["model"] == "test-model" and body["temperature"] == 0
    (image,) = images(body)
    assert np.array_equal(image, frame(7))                 # lossless, the observation itself
    assert body["messages"][0]["role"] == "system" and "<seed:tool_call>" in body["messages"][0]["content"]
    assert "Add milk to the list" in texts(body)[0]


def test_the_sdk_output_and_the_action_error_are_in_the_step_text(server):
    agent, _ = started(server)
    agent.act(obs(0))
    agent.act(obs(1, error="Seed XML tool call: unknown function 'clik'", sdk_output="hello.txt"))
    last = texts(server.requests[1])[-1]
    assert "unknown function 'clik'" in last and "hello.txt" in last


@pytest.mark.parametrize("history", [1, 2, 3])
def test_the_history_window_keeps_n_screenshots_and_every_reply(server, history):
    agent, _ = started(server, history=history)
    for i in range(5):
        agent.act(obs(i))
    body = server.requests[-1]
    shown = images(body)
    assert len(shown) == history
    assert [int(img[20, 20, 2]) for img in shown] == list(range(5 - history, 5))     # the newest ones
    roles = [m["role"] for m in body["messages"]]
    assert roles.count("user") == 5 and roles.count("assistant") == 4
    assert all(SEED_CLICK == t for t in texts(body, "assistant"))
    assert "Add milk to the list" in texts(body)[0]              # the task stays when its screenshot goes


def test_the_anthropic_family_is_sent_its_size_and_the_env_reads_it():
    screen = (720, 1600)                                          # the phone: past 1568 px and 1.02 Mpx
    size = anthropic_size(screen)
    assert size[0] * size[1] <= 1280 * 800 and max(size) <= 1568
    assert anthropic_size((1280, 800)) is None
    with ScriptedChatServer(lambda body: '[{"type": "text", "text": "done"}]') as s:
        agent, env = started(s, "anthropic", env=FakeEnv(screen, "mobile"))
        agent.act(obs(0, screen))
    assert env.formats == [("anthropic", "absolute", size)]
    (image,) = images(s.requests[0])
    assert image.shape == (size[1], size[0], 3)
    expected = np.asarray(Image.fromarray(frame(0, screen)).resize(size, Image.BILINEAR))
    assert np.array_equal(image, expected)


@pytest.mark.parametrize("image_size,sent", [(None, (1280, 800)), ((1024, 640), (1024, 640))])
def test_image_size_none_sends_the_screenshot_as_is_and_a_size_resizes(server, image_size, sent):
    agent, env = started(server, "openai", image_size=image_size)
    agent.act(obs(0))
    (image,) = images(server.requests[0])
    assert image.shape[:2] == (sent[1], sent[0])
    assert env.formats[-1] == ("openai", "absolute", None if sent == (1280, 800) else sent)


def test_jpeg_images_are_sent_as_jpeg(server):
    agent, _ = started(server, image_format="jpeg")
    agent.act(obs(0))
    url = server.requests[0]["messages"][1]["content"][0]["image_url"]["url"]
    assert url.startswith("data:image/jpeg;base64,")
    assert images(server.requests[0])[0].shape == (800, 1280, 3)


@pytest.mark.parametrize("platform,template", [("computer", "COMPUTER_USE_DOUBAO"), ("mobile", "MOBILE_USE_DOUBAO")])
def test_uitars_is_prompted_with_the_ui_tars_template(server, platform, template):
    import ui_tars.prompt
    screen = (1280, 800) if platform == "computer" else (720, 1600)
    agent, env = started(server, "uitars", env=FakeEnv(screen, platform))
    agent.act(obs(0, screen))
    body = server.requests[0]
    assert all(m["role"] != "system" for m in body["messages"])
    expected = getattr(ui_tars.prompt, template).format(language="English", instruction="Add milk to the list")
    assert texts(body)[0] == expected
    assert env.formats == [("uitars", "smart_resize", None)]


#: words that appear in a family's prompt only when it describes the SDK
SDK_WORDS = {"seed": "execute_bash", "uitars": "terminal(", "qwen": "execute_bash", "openai": "execute_bash",
             "anthropic": '"bash"', "pyautogui": None}


@pytest.mark.parametrize("family", sorted(FAMILIES))
@pytest.mark.parametrize("sdk", [False, True])
def test_the_sdk_is_described_only_when_the_task_offers_it(server, family, sdk):
    agent, _ = started(server, family, info={"sdk": sdk, "suite": "computer"})
    agent.act(obs(0))
    body = server.requests[0]
    prompt = "\n".join(texts(body, "system") + texts(body))
    word = SDK_WORDS[FAMILIES[family].schema]
    assert "Add milk to the list" in prompt
    if word is not None:
        assert (word in prompt) == sdk, (family, sdk)
    assert ("str_replace" in prompt) == (sdk and FAMILIES[family].schema not in ("uitars", "pyautogui"))


def test_the_phone_gets_the_phone_vocabulary(server):
    agent, _ = started(server, "seed", env=FakeEnv((720, 1600), "mobile"))
    agent.act(obs(0, (720, 1600)))
    system = texts(server.requests[0], "system")[0]
    assert "press_home" in system and "phone" in system and "right_single" not in system


def test_a_500_is_retried_and_counted(server):
    agent, env = started(server)
    server.fail_next(2, status=500)
    action = agent.act(obs(0))
    assert env.reader().parse(action) == [Click(640, 400)]
    stats = agent.episode_stats()
    assert stats["retries"] == 2 and stats["errors"] == 0 and stats["requests"] == 1
    assert server.attempts == 3 and len(server.requests) == 1


def test_a_time_out_is_a_counted_no_op_and_the_episode_goes_on(server):
    agent, env = started(server, timeout_s=0.3, retries=0)
    server.delay_next(1, 10.0)
    assert agent.act(obs(0)) == Wait(0.0)
    stats = agent.episode_stats()
    assert stats["errors"] == 1 and "Timeout" in stats["last_error"]
    assert env.reader().parse(agent.act(obs(1))) == [Click(640, 400)]      # the next step is answered
    assert agent.episode_stats()["requests"] == 2


def test_errors_after_every_retry_are_a_no_op(server):
    agent, _ = started(server, retries=1)
    server.fail_next(2, status=503)
    assert agent.act(obs(0)) == Wait(0.0)
    stats = agent.episode_stats()
    assert stats["errors"] == 1 and stats["retries"] == 1 and "503" in stats["last_error"]


def test_token_counts_are_the_servers_usage(server):
    agent, _ = started(server)
    for i in range(3):
        agent.act(obs(i))
    stats = agent.episode_stats()
    assert stats["prompt_tokens"] == sum(r["usage"]["prompt_tokens"] for r in server.responses) > 3 * 1000
    assert stats["completion_tokens"] == sum(r["usage"]["completion_tokens"] for r in server.responses) > 0
    assert stats["requests"] == 3 and stats["model_s"] > 0 and stats["overhead_s"] > 0


def test_tool_calls_come_back_as_name_and_arguments_and_their_results_follow():
    reply = {"content": "I click.", "tool_calls": [{"name": "click", "arguments": {"point": [500, 500]}}]}
    with ScriptedChatServer(lambda body: reply) as s:
        agent, env = started(s)
        action = agent.act(obs(0))
        assert action == [{"name": "click", "arguments": {"point": [500, 500]}}]
        assert env.reader().parse(action) == [Click(640, 400)]
        agent.act(obs(1, error="something was refused"))
    messages = s.requests[1]["messages"]
    assistant = next(m for m in messages if m["role"] == "assistant")
    call = assistant["tool_calls"][0]
    assert call["function"]["name"] == "click" and json.loads(call["function"]["arguments"]) == {"point": [500, 500]}
    tool = next(m for m in messages if m["role"] == "tool")
    assert tool["tool_call_id"] == call["id"] and "something was refused" in tool["content"]


def test_arguments_that_are_not_json_go_to_the_reader_as_text():
    reply = {"tool_calls": [{"name": "click", "arguments": "{not json"}]}
    with ScriptedChatServer(lambda body: reply) as s:
        agent, _ = started(s)
        assert agent.act(obs(0)) == [{"name": "click", "arguments": "{not json"}]


def test_the_tools_are_sent_when_asked(server):
    agent, _ = started(server, "qwen", tools=True, info={"sdk": True, "suite": "computer"})
    agent.act(obs(0))
    names = [t["function"]["name"] for t in server.requests[0]["tools"]]
    assert names == ["computer_use", "execute_bash", "str_replace_editor"]
    assert "<tools>" not in texts(server.requests[0], "system")[0]      # the server's template writes them
    agent, _ = started(server, "seed")
    agent.act(obs(0))
    assert "tools" not in server.requests[-1]


@pytest.mark.parametrize("family,final", [
    ("anthropic", [{"type": "text", "text": "The total is 42."}]),
    ("openai", [{"type": "message", "role": "assistant",
                 "content": [{"type": "output_text", "text": "The total is 42."}]}])])
def test_plain_text_from_a_json_family_is_its_final_answer(family, final):
    with ScriptedChatServer(lambda body: "The total is 42.") as s:
        agent, _ = started(s, family)
        assert agent.act(obs(0)) == final


def test_json_in_a_fence_and_empty_replies_pass_as_text():
    replies = iter(['```json\n{"type": "computer_call", "action": {"type": "wait"}}\n```', ""])
    with ScriptedChatServer(lambda body: next(replies)) as s:
        agent, _ = started(s, "openai")
        assert agent.act(obs(0)) == '{"type": "computer_call", "action": {"type": "wait"}}'
        assert agent.act(obs(1)) == ""


def test_a_system_prompt_replaces_the_familys(server):
    agent, _ = started(server, system_prompt="Be brief.")
    agent.act(obs(0))
    assert texts(server.requests[0], "system") == ["Be brief."]
    assert texts(server.requests[0])[0] == "Task: Add milk to the list"


def test_extra_body_reaches_the_server(server):
    agent, _ = started(server, extra_body={"top_k": 1})
    agent.act(obs(0))
    assert server.requests[0]["top_k"] == 1


def test_bad_arguments_are_refused_with_what_is_accepted(server):
    with pytest.raises(ValueError, match="families: seed"):
        ChatAgent(server.base_url, "m", schema="gpt")
    with pytest.raises(ValueError, match="history"):
        ChatAgent(server.base_url, "m", history=0)
    with pytest.raises(ValueError, match="image_size"):
        ChatAgent(server.base_url, "m", image_size="big")


def test_the_server_lists_its_model_and_leaves_no_thread():
    before = set(threading.enumerate())
    with ScriptedChatServer(lambda body: "x", model="scripted-7b") as s:
        agent = ChatAgent(s.base_url, "scripted-7b")
        assert [m.id for m in agent.client.models.list()] == ["scripted-7b"]
        s.delay_next(1, 30.0)                   # a request still held back when the server closes
        agent.reset(FakeEnv(), obs(0), {"sdk": False})
        agent.client = agent.client.with_options(timeout=0.2, max_retries=0)
        assert agent.act(obs(0)) == Wait(0.0)
        agent.close()
    assert set(threading.enumerate()) <= before


def test_a_broken_script_fails_the_test_at_the_servers_exit():
    with pytest.raises(KeyError):
        with ScriptedChatServer(lambda body: body["nope"]) as s:
            agent, _ = started(s, retries=0)
            assert agent.act(obs(0)) == Wait(0.0)


# --- through a real env and the CLI (Xvfb + Chromium) -----------------------------------------------------
TASK = "browser.todo-add-v0"


def test_run_episode_records_the_agent_stats(suite_env):
    env = suite_env("browser")
    finished = "<seed:tool_call><function=finished></function></seed:tool_call>"
    try:
        with ScriptedChatServer(lambda body: finished) as s:
            agent = ChatAgent(s.base_url, "m", schema="seed")
            summary = run_episode(env, agent, 0, task=TASK)
    finally:
        env.unwrapped.set_action_format()
    assert summary["steps"] == 1 and summary["invalid_actions"] == 0 and not summary["success"]
    assert summary["agent_stats"]["requests"] == 1 and summary["agent_stats"]["errors"] == 0


def test_bench_with_a_chat_agent_through_the_cli(tmp_path, capsys):
    out = tmp_path / "bench.jsonl"
    finished = "Thought: nothing to do.\nAction: finished(content='')"
    with ScriptedChatServer(lambda body: finished) as s:
        assert main(["bench", "--suite", "browser", "--task", TASK, "--agent", "noop,chat", "--base-url", s.base_url,
                     "--model", "scripted", "--schema", "uitars", "--history", "2", "--out", str(out)]) == 0
    rows = {r["agent"]: r for r in map(json.loads, out.read_text().splitlines())}
    chat = rows["chat"]
    assert chat["steps"] == 1 and chat["invalid_actions"] == 0 and chat["error"] is None
    assert chat["agent_stats"]["requests"] == 1 and chat["agent_stats"]["family"] == "uitars"
    assert rows["noop"]["invalid_actions"] == 0           # the env read dicts again after the chat agent
    assert len(s.requests) == 1 and "## Action Space" in s.requests[0]["messages"][0]["content"][1]["text"]
    assert "chat" in capsys.readouterr().out


AGENT_MODULE = '''
from hybridgym.agents import Agent

class Finisher(Agent):
    def act(self, obs):
        return {"action_type": "finished", "content": ""}

class NoAct:
    pass

class NeedsArgs(Agent):
    def __init__(self, x):
        self.x = x
'''


def test_bench_with_an_agent_class_of_ones_own(tmp_path, monkeypatch, capsys):
    (tmp_path / "my_agents_for_bench.py").write_text(AGENT_MODULE)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "bench.jsonl"
    assert main(["bench", "--suite", "browser", "--task", TASK, "--agent", "my_agents_for_bench:Finisher",
                 "--out", str(out)]) == 0
    (row,) = map(json.loads, out.read_text().splitlines())
    assert row["agent"] == "Finisher" and row["steps"] == 1 and row["invalid_actions"] == 0
    assert "agent_stats" not in row


@pytest.mark.parametrize("spec,message", [
    ("no_such_module_xyz:Agent", "cannot import module 'no_such_module_xyz'"),
    ("my_agents_for_errors:Missing", "has no 'Missing'"),
    ("my_agents_for_errors:NoAct", "no act(obs) method"),
    ("my_agents_for_errors:NeedsArgs", "made with no arguments"),
    ("my_broken_agents:Agent", "importing module 'my_broken_agents' failed: SyntaxError"),
    ("oracle,bogus", "unknown agent 'bogus'"),
    ("chat", "--agent chat needs --base-url and --model"),
])
def test_an_agent_the_cli_cannot_make_is_refused_with_what_is_accepted(tmp_path, monkeypatch, capsys, spec, message):
    (tmp_path / "my_agents_for_errors.py").write_text(AGENT_MODULE)
    (tmp_path / "my_broken_agents.py").write_text("def broken(:\n")
    monkeypatch.chdir(tmp_path)
    assert main(["bench", "--suite", "browser", "--task", TASK, "--agent", spec]) == 2
    assert message in capsys.readouterr().err


def test_an_unknown_family_is_refused_by_the_cli(capsys):
    assert main(["run", "--task", TASK, "--agent", "chat", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
                 "--schema", "gpt"]) == 2
    assert "families: seed" in capsys.readouterr().err


# --- the prompts ---------------------------------------------------------------------------------------------
def test_each_prompt_states_the_coordinate_space_in_use():
    from hybridgym.prompts import build_prompt
    common = dict(platform="computer", sdk=False, instruction="x", image_size=(1280, 800))
    assert "0 to 1000" in build_prompt("seed", "relative", **common).system
    assert "1280x800 screenshot" in build_prompt("openai", "absolute", **common).system
    assert "resolution is 1288x812" in build_prompt("qwen", "smart_resize", **common).system   # smart_resize(800, 1280)
    assert "resolution is 1000x1000" in build_prompt("qwen", "relative", **common).system
    resized = build_prompt("anthropic", "absolute", **{**common, "image_size": (1024, 640)}).system
    assert "1024x640 screenshot" in resized and "1280x800" not in resized


def test_a_prompt_for_an_unknown_schema_or_platform_says_what_exists():
    from hybridgym.prompts import build_prompt
    with pytest.raises(ValueError, match="prompts exist for seed"):
        build_prompt("dict", "absolute", platform="computer", sdk=False, instruction="x", image_size=(10, 10))
    with pytest.raises(ValueError, match="platform must be one of"):
        build_prompt("seed", "relative", platform="tv", sdk=False, instruction="x", image_size=(10, 10))


def test_the_instructions_braces_survive_the_ui_tars_template():
    from hybridgym.prompts import build_prompt
    task = build_prompt("uitars", "smart_resize", platform="computer", sdk=False, instruction="type {language} {x}",
                        image_size=(1280, 800)).task
    assert task.rstrip().endswith("type {language} {x}") and "Use English" in task


def test_importing_the_agents_does_not_import_openai():
    import subprocess
    import sys
    code = "import sys, hybridgym.agents; assert 'openai' not in sys.modules; hybridgym.agents.ChatAgent"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
