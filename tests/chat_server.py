"""A scripted OpenAI-compatible chat-completions server for the tests, on 127.0.0.1 over real HTTP.

`ScriptedChatServer(respond)` answers `POST /v1/chat/completions` with what `respond(body)` returns
for the request's JSON body: a str is the reply's content; a dict is the reply message
({"content": ..., "tool_calls": [...]}, either key optional), its tool calls written either as the
OpenAI API does ({"id", "type": "function", "function": {"name", "arguments": JSON text}}) or short,
{"name", "arguments"} with the arguments a dict or JSON text.  `GET /v1/models` lists the model.

It records every answered request body (`requests`) and counts every attempt (`attempts`), can be told
to fail the next k requests with an HTTP status (`fail_next`) or to hold them back (`delay_next`), and
is a context manager: on leaving, the server and every thread it started are stopped (a held-back
request is let go at once), and an exception raised by `respond` is raised again there, so a broken
script fails the test instead of reading as a flaky server.

Usage tokens are counted, not invented: prompt tokens are the characters of the request's text
parts / 4 plus, per image, its 28x28-pixel patches (as Qwen-VL counts them); completion tokens the
characters of the reply's content and tool-call arguments / 4.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

#: pixels on a side of the patch an image token stands for
PATCH = 28


class _Server(ThreadingHTTPServer):
    daemon_threads = False      # server_close() joins every handler thread
    block_on_close = True


class ScriptedChatServer:
    """An OpenAI-compatible server whose replies are given by `respond(request_body)`."""

    def __init__(self, respond: Callable[[dict], str | dict], model: str = "scripted"):
        self.respond, self.model = respond, model
        self.requests: list[dict] = []
        self.responses: list[dict] = []      # the completions sent back, one per answered request
        self.attempts = 0
        self.script_errors: list[BaseException] = []
        self._lock = threading.Lock()
        self._failures: list[int] = []       # statuses of the next requests to refuse
        self._delays: list[float] = []       # seconds to hold back the next requests
        self._closing = threading.Event()
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- the test's controls ---------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        """The URL the `openai` client takes as `base_url` (ends in /v1)."""
        if self._httpd is None:
            raise RuntimeError("the server is not started: use it as a context manager (with ScriptedChatServer(...))")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def fail_next(self, k: int, status: int = 500) -> None:
        """Refuse the next `k` chat requests with HTTP `status` (the script is not asked)."""
        with self._lock:
            self._failures.extend([status] * k)

    def delay_next(self, k: int, seconds: float) -> None:
        """Hold back the answer to the next `k` chat requests for `seconds` (cut short when the server closes)."""
        with self._lock:
            self._delays.extend([seconds] * k)

    # -- lifecycle ------------------------------------------------------------------------------------
    def __enter__(self) -> "ScriptedChatServer":
        self._httpd = _Server(("127.0.0.1", 0), self._handler_class())
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="scripted-chat-server")
        self._thread.start()
        return self

    def __exit__(self, kind, value, tb) -> None:
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()       # joins the handler threads
        self._thread.join()
        if kind is None and self.script_errors:
            raise self.script_errors[0]

    # -- answering ----------------------------------------------------------------------------------------
    def _handler_class(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"     # one request per connection: no thread waits on a kept-alive socket

            def log_message(self, *args):     # quiet
                pass

            def do_GET(self):
                if self.path.rstrip("/") == "/v1/models":
                    self._send(200, {"object": "list", "data": [
                        {"id": server.model, "object": "model", "created": 0, "owned_by": "hybridgym-tests"}]})
                else:
                    self._send(404, _error(f"no such path {self.path}; this server has GET /v1/models and "
                                           f"POST /v1/chat/completions", "not_found"))

            def do_POST(self):
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, _error(f"no such path {self.path}; POST /v1/chat/completions", "not_found"))
                    return
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length))
                except ValueError as e:
                    self._send(400, _error(f"the body is not JSON: {e}", "invalid_request_error"))
                    return
                status, delay = server._next_trouble()
                if delay and server._closing.wait(delay):
                    return                        # closing: the client has given up or will see a reset
                if status is not None:
                    self._send(status, _error(f"scripted failure (HTTP {status})", "server_error"))
                    return
                try:
                    reply = server.respond(body)
                    message = _message(reply)
                except Exception as e:        # the test's script is broken: say so at __exit__
                    server.script_errors.append(e)
                    self._send(500, _error(f"the script failed: {type(e).__name__}: {e}", "server_error"))
                    return
                with server._lock:
                    server.requests.append(body)
                    completion = {
                        "id": f"chatcmpl-scripted-{len(server.requests)}", "object": "chat.completion",
                        "created": int(time.time()), "model": body.get("model", server.model),
                        "choices": [{"index": 0, "message": message, "logprobs": None,
                                     "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
                        "usage": _usage(body, message)}
                    server.responses.append(completion)
                self._send(200, completion)

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass                          # the client gave up (a time-out)

        return Handler

    def _next_trouble(self) -> tuple[int | None, float]:
        with self._lock:
            self.attempts += 1
            status = self._failures.pop(0) if self._failures else None
            delay = self._delays.pop(0) if self._delays else 0.0
        return status, delay


def _error(message: str, kind: str) -> dict:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _message(reply: str | dict) -> dict:
    """The assistant message of a script's reply (see the module docstring)."""
    if isinstance(reply, str):
        return {"role": "assistant", "content": reply}
    if not isinstance(reply, dict) or set(reply) - {"content", "tool_calls"}:
        raise TypeError(f"respond() must return a str (the content) or a dict with 'content' and/or 'tool_calls', "
                        f"got {reply!r:.200}")
    message = {"role": "assistant", "content": reply.get("content")}
    calls = reply.get("tool_calls") or []
    if calls:
        message["tool_calls"] = [_tool_call(call, i) for i, call in enumerate(calls)]
    return message


def _tool_call(call: dict, i: int) -> dict:
    if "function" in call:                      # already in the API's form
        return {"id": call.get("id", f"call_{i}"), "type": "function", "function": call["function"]}
    arguments = call["arguments"]
    return {"id": f"call_{i}", "type": "function",
            "function": {"name": call["name"],
                         "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments)}}


def _usage(body: dict, message: dict) -> dict:
    prompt = 0
    for m in body.get("messages", []):
        content = m.get("content")
        parts = [{"type": "text", "text": content}] if isinstance(content, str) else (content or [])
        for part in parts:
            if part.get("type") == "text":
                prompt += math.ceil(len(part["text"]) / 4)
            elif part.get("type") == "image_url":
                w, h = image_size(part["image_url"]["url"])
                prompt += math.ceil(w / PATCH) * math.ceil(h / PATCH)
        for call in m.get("tool_calls") or []:
            prompt += math.ceil(len(call["function"]["arguments"]) / 4)
    reply = (message.get("content") or "") + "".join(c["function"]["arguments"] for c in message.get("tool_calls", []))
    completion = math.ceil(len(reply) / 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def decode_image_url(url: str) -> bytes:
    """The image file in a `data:image/...;base64,` URL."""
    head, _, data = url.partition(",")
    if not (head.startswith("data:image/") and head.endswith(";base64")):
        raise ValueError(f"expected a data:image/...;base64, URL, got {url[:40]!r}")
    try:
        return base64.b64decode(data, validate=True)
    except binascii.Error as e:
        raise ValueError(f"the image URL's base64 does not decode: {e}") from None


def image_size(url: str) -> tuple[int, int]:
    """(width, height) of the image in a data URL (its header only is read)."""
    from PIL import Image
    with Image.open(io.BytesIO(decode_image_url(url))) as image:
        return image.size
