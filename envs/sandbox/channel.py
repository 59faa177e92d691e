"""A WebSocket from a page to this process: a game step's call and its picture without Playwright's driver.

A call through Playwright goes Python -> the driver (node) -> Chromium's browser process -> the renderer and
back, and a picture crosses it as base64 in JSON. Here a shared worker of the page opens a WebSocket to a server
in this process and the call goes Python -> the worker (through Chromium's network service) -> the page and
back, with the picture as raw bytes. A shared worker because Playwright watches a page's own WebSockets (see
`PAGE_JS`). Measured on a game step (`benchmarks/bench_game_step.py`).

Who can reach the server (the trust model, docs/security.md):
- it listens on 127.0.0.1 in the env's own network namespace (`Jail.listen`), where only the env's GUI
  programs run: the agent's SDK shell has no network (`--unshare-net`), and other envs have their own
  namespaces. As a non-root user the jail shares the host's network: then other local programs see the port;
- a connection must name a 128-bit secret in its path, new for each pairing, which only the page is told
  (over Playwright, which the agent cannot reach); any other request is refused at the handshake, and a
  paired connection is the only one served. A page's script is the game's, not the agent's: the agent
  sends keys and clicks, never script;
- what comes back is data: a JSON header of known fields and raw pixels whose size is checked before use
  (`canvas.CanvasPicture.apply`).

Anything that goes wrong on the channel (the page navigated away, the answer is late or malformed) drops it;
the caller then makes the same call through Playwright, and the next call pairs again.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import secrets
import socket
import threading
from typing import Callable

from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.http11 import Response
from websockets.protocol import State
from websockets.sync.server import Server, ServerConnection, serve

_log = logging.getLogger(__name__)
_quiet = logging.getLogger(__name__ + ".server")
_quiet.setLevel(logging.CRITICAL)   # a refused handshake is not news

#: the largest message the page may send: an 800x600 RGBA picture is 1.9 MB; a phone-sized or bigger one fits
MAX_MESSAGE = 32 * 2 ** 20


class ChannelError(Exception):
    """The channel could not make the call. `closed`: the page's end closed first (its document went away)."""

    def __init__(self, message: str, closed: bool = False):
        super().__init__(message)
        self.closed = closed


# `connect(url, step)`: the page's end. The WebSocket lives in a shared worker of the page's own (a blob of this
# script), which relays its messages to the page over a MessagePort: Playwright reports every frame of a page's
# (or a dedicated worker's) WebSocket to its client (Chromium copies it to DevTools as base64, the driver passes
# it on, the client decodes it), which cost a game step with tiles about 1 ms and the machine's CPU besides;
# it leaves shared workers alone. `step(message)` is the caller's async function; its answer goes back as one
# text message (JSON: {seq, value}) and, when the value has a `bytes` field (a Uint8Array), that many bytes in
# one binary message after it (moved to the worker, not copied). An error in `step` answers {seq, error}.
# `window.__hybridgymChannel.close()` closes the socket (the worker ends with it, or with the page).
PAGE_JS = """([url, step]) => new Promise((resolve) => {
  const old = window.__hybridgymChannel;
  if (old) { try { old.close(); } catch (e) {} }
  const src = 'onconnect = (ev) => { const port = ev.ports[0], ws = new WebSocket(' + JSON.stringify(url) + ');'
    + " ws.binaryType = 'arraybuffer';"
    + ' ws.onopen = () => port.postMessage({open: true}); ws.onerror = () => port.postMessage({open: false});'
    + ' ws.onclose = () => { port.postMessage({closed: true}); close(); };'
    + ' ws.onmessage = (e) => port.postMessage({data: e.data});'
    + " port.onmessage = (e) => { if (e.data === 'close') { ws.close(); close(); } else for (const m of e.data) ws.send(m); };"
    + ' };';
  const blob = URL.createObjectURL(new Blob([src], {type: 'text/javascript'}));
  let port;
  try { port = new SharedWorker(blob).port; } catch (e) { resolve(false); return; } finally { URL.revokeObjectURL(blob); }
  const ch = {close: () => { if (window.__hybridgymChannel === ch) window.__hybridgymChannel = null; port.postMessage('close'); }};
  window.__hybridgymChannel = ch;
  port.onmessage = async (e) => {
    const d = e.data;
    if (d.open !== undefined) { resolve(d.open); return; }
    if (d.closed) { if (window.__hybridgymChannel === ch) window.__hybridgymChannel = null; resolve(false); return; }
    let m = null;
    try {
      m = JSON.parse(d.data);
      const value = await step(m.arg);
      const bytes = value && value.bytes instanceof Uint8Array ? value.bytes : null;
      if (bytes) value.bytes = bytes.length;
      const head = JSON.stringify({seq: m.seq, value});
      if (bytes) { const b = bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice(); port.postMessage([head, b.buffer], [b.buffer]); }
      else port.postMessage([head]);
    } catch (err) {
      port.postMessage([JSON.stringify({seq: m ? m.seq : null, error: String(err && err.stack || err)})]);
    }
  };
  port.start();
})"""


class PageChannel:
    """The server end. `listen()` makes the listening socket (in the env's network namespace); `port` is
    known from the start (Chromium's proxy rules name it). `pair(evaluate, step_js)` has the page connect
    (`evaluate(function, arg)` runs JavaScript in the page through Playwright); `call(arg)` sends one
    message and returns the page's (value, bytes); `close()` ends it all."""

    def __init__(self, listen: Callable[[], socket.socket]):
        self._sock = listen()
        self.port: int = self._sock.getsockname()[1]
        self._lock = threading.Lock()
        self._secret: str | None = None        # the path the next connection must ask for
        self._conn: ServerConnection | None = None
        self._arrived = threading.Condition(self._lock)
        self._released: threading.Event | None = None   # set: the paired connection's handler returns
        self._seq = 0
        self.answered = 0                      # calls the page answered (tests and benchmarks read it)
        self.key: object = None                # what the caller paired with (its page and step function)
        self._server: Server = serve(self._handle, sock=self._sock, process_request=self._check,
                                     compression=None, ping_interval=None, max_size=MAX_MESSAGE,
                                     max_queue=4, open_timeout=5, close_timeout=0.5, logger=_quiet,
                                     server_header=None)
        self._thread = threading.Thread(target=self._server.serve_forever, name="hybridgym-channel", daemon=True)
        self._thread.start()

    @property
    def origin(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def paired(self) -> bool:
        """A connection is paired and open (a page that closed its end, or went away, is not)."""
        conn = self._conn
        return conn is not None and conn.protocol.state is State.OPEN

    # -- the server's side (its threads) ---------------------------------------------------------------
    def _asks_secret(self, request) -> bool:
        """Whether a handshake asks for the path of the pairing under way (call with the lock held)."""
        return (self._secret is not None and request is not None
                and hmac.compare_digest(request.path.encode(), f"/{self._secret}".encode()))

    def _check(self, conn: ServerConnection, request) -> Response | None:
        with self._lock:
            ok = self._asks_secret(request)
        return None if ok else conn.respond(403, "")

    def _handle(self, conn: ServerConnection) -> None:
        with self._lock:
            # the secret is good for one connection: a second one with it (there is none) is refused
            if not self._asks_secret(conn.request):
                return
            self._secret = None
            self._drop_locked()
            self._conn, released = conn, threading.Event()
            self._released = released
            self._arrived.notify_all()
        # the connection lives as long as this handler; the library's handler threads are not daemons, so it
        # also ends when the interpreter is exiting (an env nobody closed must not keep the process alive)
        while not released.wait(0.5):
            if not threading.main_thread().is_alive():
                return

    # -- the caller's side -----------------------------------------------------------------------------
    def pair(self, evaluate: Callable[[str, object], object], step_js: str, key: object = None,
             timeout: float = 5.0) -> bool:
        """Have the page connect, with `step_js` (an async JavaScript function of one argument) as its
        handler of `call`s; True once the connection is this process's. Any earlier connection is dropped."""
        with self._lock:
            self._drop_locked()
            self._secret = secrets.token_urlsafe(16)
            url = f"ws://{self.origin}/{self._secret}"
        try:
            ok = evaluate(f"([url]) => ({PAGE_JS})([url, {step_js}])", [url])
        except Exception:   # the page went away meanwhile: no channel, the caller goes on through Playwright
            ok = False
        with self._lock:
            if ok:
                self._arrived.wait_for(lambda: self._conn is not None, timeout)
            self._secret = None
            if self._conn is None:
                return False
            self.key = key
            return True

    def call(self, arg, timeout: float) -> tuple[object, bytes | None]:
        """The page's step function's value for `arg` (JSON) and its bytes; raises ChannelError (the channel
        is then dropped) when the page does not answer in `timeout` s, answers out of turn, or errs."""
        conn = self._conn
        if conn is None:
            raise ChannelError("not paired")
        self._seq += 1
        try:
            conn.send(json.dumps({"seq": self._seq, "arg": arg}))
            head = conn.recv(timeout=timeout)
            if not isinstance(head, str):
                raise ChannelError("the page's answer is not text")
            msg = json.loads(head)
            if not isinstance(msg, dict) or msg.get("seq") != self._seq:
                raise ChannelError("an answer out of turn")
            if "error" in msg:
                raise ChannelError(f"the page's step failed: {str(msg['error'])[:500]}")
            value, data = msg.get("value"), None
            n = value.get("bytes") if isinstance(value, dict) else None
            if n is not None:
                data = conn.recv(timeout=timeout)
                if not isinstance(data, bytes) or len(data) != n:
                    raise ChannelError("the page's bytes are not the size it said")
            self.answered += 1
            return value, data
        except ChannelError:
            self.drop()
            raise
        except (WebSocketException, TimeoutError, OSError, ValueError, RuntimeError) as e:
            self.drop()
            raise ChannelError(f"{type(e).__name__}: {e}", closed=isinstance(e, ConnectionClosed)) from None

    def drop(self) -> None:
        """Forget the paired connection (the page's end closes)."""
        with self._lock:
            self._drop_locked()

    def _drop_locked(self) -> None:
        conn, released = self._conn, self._released
        self._conn, self._released, self.key = None, None, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()
        if released is not None:
            released.set()

    def close(self) -> None:
        self.drop()
        with contextlib.suppress(Exception):
            self._server.shutdown()
        with contextlib.suppress(OSError):
            self._sock.close()
        self._thread.join(timeout=2)
