"""The page channel (`hybridgym.sandbox.channel`): a game page's WebSocket to the env's process.

The server end against a real WebSocket peer (websockets' own client, standing in for the page), then the
real thing: a game env whose steps go over it, what happens when the page drops it, and who can reach it."""

from __future__ import annotations

import ctypes
import json
import socket
import threading
import time

import numpy as np
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from hybridgym.sandbox.channel import ChannelError, PageChannel


def _listen() -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    return s


class Peer:
    """The page's end, in a thread: connects to the URL `pair` gives it and answers each call with `answer(arg)`
    -> list of messages to send (so a test can make it answer wrongly)."""

    def __init__(self, answer):
        self.answer, self.url, self.conn, self.error = answer, None, None, None

    def evaluate(self, function: str, arg):
        self.url = arg[0]
        opened = threading.Event()

        def run():
            try:
                with connect(self.url, compression=None, max_size=None) as ws:
                    self.conn = ws
                    opened.set()
                    for raw in ws:
                        m = json.loads(raw)
                        for out in self.answer(m["seq"], m["arg"]):
                            ws.send(out)
            except Exception as e:  # noqa: BLE001 - the test reads it
                self.error = e
                opened.set()
        threading.Thread(target=run, daemon=True).start()
        opened.wait(5)
        return self.conn is not None


def _echo(seq, arg):
    if arg == "bytes":
        return [json.dumps({"seq": seq, "value": {"bytes": 3}}), b"abc"]
    return [json.dumps({"seq": seq, "value": {"echo": arg}})]


@pytest.fixture
def channel():
    ch = PageChannel(_listen)
    yield ch
    ch.close()


def test_a_paired_page_answers_calls_with_json_and_bytes(channel):
    peer = Peer(_echo)
    assert channel.pair(peer.evaluate, "async (m) => m", key="k")
    assert channel.paired and channel.key == "k"
    assert channel.call([1, 2], 5) == ({"echo": [1, 2]}, None)
    assert channel.call("bytes", 5) == ({"bytes": 3}, b"abc")
    assert channel.answered == 2


def test_a_connection_without_the_secret_is_refused(channel):
    url = f"ws://127.0.0.1:{channel.port}"
    with pytest.raises(InvalidStatus, match="403"):   # nothing is being paired
        connect(url + "/", open_timeout=5)
    seen = {}

    def evaluate(function, arg):   # while a pairing is open: a wrong secret, then the page's own
        with pytest.raises(InvalidStatus, match="403"):
            connect(url + "/" + "A" * 22, open_timeout=5)
        seen["secret"] = arg[0]
        return Peer(_echo).evaluate(function, arg)
    assert channel.pair(evaluate, "async (m) => m")
    with pytest.raises(InvalidStatus, match="403"):   # the secret served once
        connect(seen["secret"], open_timeout=5)
    assert channel.call(7, 5) == ({"echo": 7}, None)


@pytest.mark.parametrize("bad", ["out_of_turn", "wrong_size", "error", "binary_head", "silent"])
def test_a_wrong_answer_drops_the_channel(channel, bad):
    def answer(seq, arg):
        return {"out_of_turn": [json.dumps({"seq": seq + 5, "value": 1})],
                "wrong_size": [json.dumps({"seq": seq, "value": {"bytes": 10}}), b"abc"],
                "error": [json.dumps({"seq": seq, "error": "TypeError: x"})],
                "binary_head": [b"\x00" * 8],
                "silent": []}[bad]
    assert channel.pair(Peer(answer).evaluate, "async (m) => m")
    with pytest.raises(ChannelError):
        channel.call(1, 0.5)
    assert not channel.paired
    with pytest.raises(ChannelError, match="not paired"):
        channel.call(1, 0.5)


def test_big_calls_and_answers_in_pieces(channel):
    """A call of 4 MB (a long text typed with page input is a big list of events) goes out whole, and an answer's
    bytes sent in pieces (a fragmented message) come back whole."""
    def answer(seq, arg):
        n = arg["n"]
        pieces = [bytes([i % 251]) * (n // 4) for i in range(4)]
        return [json.dumps({"seq": seq, "value": {"len": len(arg["s"]), "bytes": n}}), iter(pieces)]
    assert channel.pair(Peer(answer).evaluate, "async (m) => m")
    for size in (4 * 2 ** 20, 10):
        value, data = channel.call({"s": "x" * size, "n": 2 ** 21}, 10)
        assert value["len"] == size and len(data) == 2 ** 21
        assert data == b"".join(bytes([i % 251]) * 2 ** 19 for i in range(4))
    assert channel.paired and channel.answered == 2


def test_a_page_that_closes_its_end_is_no_longer_paired(channel):
    """The page's document goes (its worker closes the socket): `paired` says so before any call, and a call
    in flight when it closes fails as `closed` (the page did none of it: the caller makes it through Playwright)."""
    peer = Peer(_echo)
    assert channel.pair(peer.evaluate, "async (m) => m")
    threading.Thread(target=peer.conn.close, daemon=True).start()   # (it waits for the server's answer)
    t = time.monotonic()
    while channel.paired and time.monotonic() - t < 5:
        time.sleep(0.01)
    assert not channel.paired
    peer = Peer(lambda seq, arg: peer.conn.close() or [])
    assert channel.pair(peer.evaluate, "async (m) => m")
    with pytest.raises(ChannelError) as e:
        channel.call(1, 5)
    assert e.value.closed and not channel.paired


def test_a_page_that_never_connects_leaves_it_unpaired(channel):
    t = time.monotonic()
    assert not channel.pair(lambda f, a: False, "async (m) => m")
    assert not channel.pair(lambda f, a: (_ for _ in ()).throw(RuntimeError("page gone")), "async (m) => m")
    assert time.monotonic() - t < 2 and not channel.paired


def test_close_ends_the_server():
    ch = PageChannel(_listen)
    port = ch.port
    assert ch.pair(Peer(_echo).evaluate, "async (m) => m")
    ch.close()
    assert not ch.paired
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2)
    assert not ch._thread.is_alive()


# -- the real thing ---------------------------------------------------------------------------------------

def _screen(sb):
    sb.browser.wait_real_frame()
    return sb.capture.settle(quiet=0.1, max_wait=2.0)[0]


def test_game_steps_go_over_the_channel_and_it_comes_back_after_the_page_drops_it(suite_env):
    env = suite_env("game")
    obs, _ = env.reset(seed=3, options={"task": "game.snake-v0"})
    sb = env.unwrapped.sandbox
    ch = sb.browser._channel
    assert ch is not None and ch.paired
    before = ch.answered
    for key in ["up", "right", "right"]:
        obs, *_ = env.step({"action_type": "hotkey", "keys": [key]})
    assert ch.answered == before + 3
    assert np.array_equal(_screen(sb), obs["screenshot"])
    # the page closes its end: the next steps read the right picture (through Playwright while the close is
    # on its way, then on a new pairing)
    sb.browser.page.evaluate("window.__hybridgymChannel.close()")
    for key in ["down", "down"]:
        obs, *_ = env.step({"action_type": "hotkey", "keys": [key]})
        assert np.array_equal(_screen(sb), obs["screenshot"])
    assert ch.paired
    # a new episode is a new document: its own pairing
    env.reset(seed=4)
    assert ch.paired
    n = ch.answered
    env.step({"action_type": "hotkey", "keys": ["left"]})
    assert ch.answered == n + 1


def test_the_same_steps_give_the_same_pictures_with_and_without_the_channel(suite_env):
    env = suite_env("game")
    keys = ["up", "right", "right", "down", "down", "left", "up", "space"]
    runs = []
    for off in (False, True):
        obs, _ = env.reset(seed=8, options={"task": "game.breakout-v0"})
        sb = env.unwrapped.sandbox
        ch = sb.browser._channel
        if off:   # through Playwright, as before the channel
            sb.browser._channel = None
        try:
            pics = [obs["screenshot"]]
            for k in keys:
                pics.append(env.step({"action_type": "hotkey", "keys": [k]})[0]["screenshot"])
        finally:
            sb.browser._channel = ch
        runs.append(pics)
    differ = [i for i, (a, b) in enumerate(zip(*runs)) if not np.array_equal(a, b)]
    assert not differ, f"steps {differ} differ (0: the reset's picture)"
    assert len({p.tobytes() for p in runs[0]}) > 1   # the game moved


def _connect_in_netns(jail, url: str):
    """Open a WebSocket to `url` from inside `jail`'s network namespace (as the env's GUI programs would)."""
    out = {}

    def body():
        libc = ctypes.CDLL(None, use_errno=True)
        if jail._netns_fd is not None and libc.setns(jail._netns_fd, 0x40000000) != 0:
            out["error"] = OSError(ctypes.get_errno(), "setns")
            return
        try:
            with connect(url, open_timeout=5):
                out["ok"] = True
        except Exception as e:  # noqa: BLE001
            out["error"] = e
    t = threading.Thread(target=body)
    t.start()
    t.join(10)
    return out


def test_who_can_reach_the_channel(suite_env):
    env = suite_env("game")
    env.reset(seed=1, options={"task": "game.snake-v0"})
    sb = env.unwrapped.sandbox
    port = sb.browser._channel.port
    # from where the page is, without the secret: refused at the handshake
    got = _connect_in_netns(sb.jail, f"ws://127.0.0.1:{port}/")
    assert isinstance(got.get("error"), InvalidStatus) and "403" in str(got["error"])
    # the agent's programs (the SDK shell) have no network at all: not even a TCP connection
    probe = ("python3 -c \"import socket; socket.create_connection(('127.0.0.1', %d), timeout=2); print('REACHED')\""
             % port)
    res = sb.shell.run(probe, timeout=20)
    assert "REACHED" not in res.output and res.exit_code != 0, res.output
    # and the steps still go over it
    n = sb.browser._channel.answered
    env.step({"action_type": "hotkey", "keys": ["up"]})
    assert sb.browser._channel.answered == n + 1


# the agent's WebSocket handshake at `path`, from its terminal: prints the server's status line
_HANDSHAKE = ("python3 -c \"import socket; s = socket.create_connection(('127.0.0.1', %d), timeout=3); "
              "s.sendall(b'GET %s HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n"
              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n'); "
              "print('STATUS', s.recv(200).split(b'\\r\\n')[0].decode())\"")


def test_an_agent_with_a_network_shell_cannot_use_the_channel(monkeypatch):
    """The worst case: a game task whose SDK terminal joins the env's network (no game task does). Through
    `env.step`, the agent connects to the channel's port and asks for the handshake at guessed paths."""
    import gymnasium as gym

    from hybridgym.tasks.game import GAME_TASKS
    task = GAME_TASKS["snake"]
    monkeypatch.setattr(task, "sdk", True)
    monkeypatch.setattr(task, "sdk_network", True)
    env = gym.make("hybridgym/game.snake-v0")
    try:
        env.reset(seed=2)
        ch = env.unwrapped.sandbox.browser._channel
        if env.unwrapped.sandbox.jail.shares_host_network:
            pytest.skip("as a non-root user the jail has no network namespace of its own")
        for path in ["/", "/" + "A" * 22, "/..%2f"]:
            obs, _, term, trunc, info = env.step({"action_type": "terminal", "command": _HANDSHAKE % (ch.port, path)})
            assert not (term or trunc)
            assert "STATUS HTTP/1.1 403" in obs["sdk_output"], obs["sdk_output"]
        n = ch.answered
        obs, *_ = env.step({"action_type": "hotkey", "keys": ["up"]})
        assert ch.paired and ch.answered == n + 1   # the env's own steps go on over it
    finally:
        env.close()


def test_a_dead_chromium_is_noticed_although_its_page_may_still_answer_on_the_channel():
    """Chromium's page and network service outlive its browser process for a moment and can still answer on the
    channel: the step must not take that answer for a live browser (it would go on with a dead sandbox)."""
    import os
    import signal

    import gymnasium as gym
    env = gym.make("hybridgym/game.snake-v0")
    try:
        env.reset(seed=0)
        browser = env.unwrapped.sandbox.browser
        env.step({"action_type": "wait", "seconds": 0})
        assert browser._channel.paired and len(browser._lifelines) == 2
        # this process's own driver and Chromium (another env's, or a Ray worker's, would be watched in vain)
        from hybridgym.sandbox.processes import children, descendants, has_mark
        driver, chromium = browser._lifelines
        assert driver in children(os.getpid()) and chromium in descendants(driver)
        assert has_mark(chromium, "DISPLAY", env.unwrapped.sandbox.display.name)
        os.kill(browser._lifelines[1], signal.SIGKILL)
        _, _, term, trunc, info = env.step({"action_type": "wait", "seconds": 0})
        assert trunc and "browser died" in info.get("error", ""), info
        env.reset(seed=1)   # a new sandbox, its own channel
        n = env.unwrapped.sandbox.browser._channel.answered
        env.step({"action_type": "hotkey", "keys": ["up"]})
        assert env.unwrapped.sandbox.browser._channel.answered == n + 1
    finally:
        env.close()


def test_the_pages_tiles_and_whole_pictures_are_checked_before_use():
    """`CanvasPicture.apply`: tiles pasted where they belong; a tile or a whole picture that is not opaque, or
    whose bytes are not the size the tiles need, gives no picture (the next read then sends the whole canvas)."""
    from hybridgym.sandbox.canvas import TILE, CanvasPicture
    size = (3 * TILE, 2 * TILE)
    whole = np.zeros((size[1], size[0], 4), np.uint8)
    whole[..., 3] = 255
    whole[..., 0] = 7
    pic = CanvasPicture()
    frame = pic.apply({"id": 1, "whole": True, "bytes": True}, size, whole.tobytes())
    assert frame.shape == (size[1], size[0], 3) and (frame[..., 0] == 7).all() and pic.base() == 1
    tile = np.full((TILE, TILE, 4), 255, np.uint8)
    tile[..., 1] = 9
    frame = pic.apply({"id": 2, "tiles": [[2, 1]], "bytes": True}, size, tile.tobytes())
    assert (frame[TILE:, 2 * TILE:, 1] == 9).all() and (frame[:TILE, :, 1] == 0).all() and pic.base() == 2
    see_through = tile.copy()
    see_through[5, 5, 3] = 254
    assert pic.apply({"id": 3, "tiles": [[0, 0]], "bytes": True}, size, see_through.tobytes()) is None
    assert pic.base() == -1     # forgotten: the page sends the whole canvas next
    pic.apply({"id": 4, "whole": True, "bytes": True}, size, whole.tobytes())
    assert pic.apply({"id": 5, "tiles": [[0, 0], [1, 0]], "bytes": True}, size, tile.tobytes()) is None   # too few bytes
    pic.apply({"id": 6, "whole": True, "bytes": True}, size, whole.tobytes())
    assert pic.apply({"id": 7, "tiles": [[9, 9]], "bytes": True}, size, tile.tobytes()) is None            # off the canvas
    bad = whole.copy()
    bad[0, 0, 3] = 0
    assert pic.apply({"id": 8, "whole": True, "bytes": True}, size, bad.tobytes()) is None
    assert pic.apply({"id": 9, "whole": True, "bytes": True}, size, whole.tobytes()[:-4]) is None


# the page's read of a canvas of its own (`#t`, made with `[w, h]` once per size), painted with RGB rows
# (base64), the answer's raw bytes as base64 (JSON cannot carry a Uint8Array)
_READ_TEST_JS = """async ([w, h, rgb, base, next, bin]) => {
  let c = document.getElementById('t');
  if (!c || c.width !== w || c.height !== h) {
    if (c) c.remove();
    c = document.createElement('canvas'); c.id = 't'; c.width = w; c.height = h;
    c.getContext('2d', {alpha: false});
  }
  const ctx = c.getContext('2d'), img = ctx.createImageData(w, h), s = atob(rgb);
  for (let i = 0, j = 0; i < w * h; i++, j += 3) {
    img.data[4 * i] = s.charCodeAt(j); img.data[4 * i + 1] = s.charCodeAt(j + 1);
    img.data[4 * i + 2] = s.charCodeAt(j + 2); img.data[4 * i + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
  const out = await (READ)(c, base, next, bin);
  if (out.bytes) {
    let t = '';
    for (let i = 0; i < out.bytes.length; i += 0x8000) t += String.fromCharCode.apply(null, out.bytes.subarray(i, i + 0x8000));
    out.bytes = t.length; out.raw64 = btoa(t);
  }
  return out;
}"""


@pytest.mark.parametrize("bin", [True, False], ids=["channel", "playwright"])
def test_the_page_sends_exactly_the_tiles_that_changed(suite_env, bin):
    """`canvas.READ_CANVAS_JS` in a real page (its WebAssembly `tilediff`), on a canvas whose rows and columns
    end in part tiles (203 x 77: not a multiple of the tile, nor of the module's 16 bytes): after each change
    the tiles it sends are those a pixel changed in, one channel by one is enough, and the picture pasted
    together is the canvas's; a read on a picture the page does not have, a new size, or a page that cannot
    run the module sends the whole canvas. The pixels come from a VideoFrame of the canvas (B, G, R, X), or
    from getImageData (R, G, B, A) where there is none."""
    import base64

    from hybridgym.sandbox.canvas import READ_CANVAS_JS, TILE, CanvasPicture
    env = suite_env("game")
    env.reset(seed=0, options={"task": "game.snake-v0"})
    br = env.unwrapped.sandbox.browser
    js = _READ_TEST_JS.replace("READ", READ_CANVAS_JS)
    rng = np.random.default_rng(0)
    pic = CanvasPicture()

    def read(px, base=None):
        h, w = px.shape[:2]
        out = br.evaluate_cdp(js, [w, h, base64.b64encode(px.tobytes()).decode(), pic.base() if base is None else base,
                                   pic.next_id(), bin])
        raw = base64.b64decode(out.pop("raw64")) if "raw64" in out else None
        frame = pic.apply(out, (w, h), raw)
        assert frame is not None and np.array_equal(frame, px)
        return out

    def changed_tiles(a, b):
        d = (a != b).any(axis=2)
        return sorted([tx, ty] for ty in range(-(-a.shape[0] // TILE)) for tx in range(-(-a.shape[1] // TILE))
                      if d[ty * TILE:(ty + 1) * TILE, tx * TILE:(tx + 1) * TILE].any())

    px = rng.integers(0, 256, (77, 203, 3), dtype=np.uint8)
    first = read(px)
    assert first.get("whole") or first.get("png")                      # nothing to compare with yet
    out = read(px)
    assert out["tiles"] == [] and out["bgr"] is True                   # copied by a VideoFrame, as B, G, R, X
    for points in ([(0, 0)], [(202, 76)], [(201, 10), (5, 70)], [(100, 40), (101, 40), (131, 33)]):
        new = px.copy()
        for x, y in points:
            new[y, x, (x + y) % 3] ^= 1                                 # one channel, by one
        out = read(new)
        assert sorted(out["tiles"]) == changed_tiles(px, new) and out["tiles"]
        px = new
    for _ in range(5):                                                  # scattered changes
        new = px.copy()
        for x, y in zip(rng.integers(0, 203, 12), rng.integers(0, 77, 12)):
            new[y, x] = 255 - new[y, x]
        out = read(new)
        assert sorted(out["tiles"]) == changed_tiles(px, new)
        px = new
    stale = pic.base() - 1                                              # a picture the page no longer has
    out = read(px, base=stale)
    assert out.get("whole") or out.get("png")
    px = rng.integers(0, 256, (40, 64, 3), dtype=np.uint8)              # a new size
    pic.forget()
    read(px)
    new = px.copy()
    new[39, 63, 0] ^= 1
    assert read(new)["tiles"] == [[1, 1]]
    br.evaluate_cdp("() => { window.VideoFrame = undefined; }")        # no VideoFrame: getImageData's R, G, B, A
    out = read(px)
    assert out.get("whole") or out.get("png")                          # not compared with pixels of another order
    new = px.copy()
    new[0, 0, 2] ^= 1
    out = read(new)
    assert out["tiles"] == [[0, 0]] and out["bgr"] is False
    br.evaluate_cdp("() => { window.__hybridgymDiff = null; }")        # no module (a page's policy forbids it)
    out = read(px)
    assert out.get("whole") or out.get("png")
