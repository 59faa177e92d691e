"""A game's picture read from its canvas: what changed since the last read, not the whole picture.

A game step changes a few small parts of its 800x600 canvas (the snake's head and tail, the ball and the paddle).
The page keeps the pixels it sent last and, after the step, sends only the tiles (`TILE` x `TILE` pixels) that
differ, as raw pixels (a WebAssembly module, `tilediff.wat`, finds them); Python keeps the last whole picture and
pastes the tiles in. The first read, a read after the page was replaced, and a step that changed much of the
picture (through Playwright more than `MAX_RAW_BYTES` of tiles, on the channel three quarters of the canvas) send
the whole canvas. Either way the picture is the canvas's pixels exactly (tests compare it with the screen).

Through Playwright the tiles cross as base64 in the JSON answer and a whole picture as a PNG, smaller in JSON
than raw pixels. On the page's channel (`hybridgym.sandbox.channel`) both cross as raw pixels in a binary message
of their own: 1.9 MB of raw pixels cost a step less there than encoding and decoding the PNG (9.8 against 14.1
ms, measured on flappy's canvas).
"""

from __future__ import annotations

import base64
import io

import numpy as np
from PIL import Image

from .capture import cv2

#: the side of a tile, in canvas pixels (the unit the page compares and sends)
TILE = 32
#: above this many bytes of changed tiles the page sends the whole canvas instead, as a PNG through Playwright
#: (on the channel: above three quarters of the canvas's raw bytes)
MAX_RAW_BYTES = 400_000

#: `tilediff.wat` built (the command is in that file): its `diff` tells the tiles where two pictures differ
TILE_DIFF_WASM = (
    "AGFzbQEAAAABCwFgBn9/f39/fwF/AwIBAAUDAQABBw4CA21lbQIABGRpZmYAAAqaAgGXAgEKfyACIARqQQFrIARuIQgCQANAIAYgA08NASAGIAJsQQRsIQkgBSAGIARuIAhsaiEKQQAhBwJAA0AgByAITw0BIAogB2ohCyALLQAARQRAIAkgByAEbEEEbGohDCAHQQFqIARsIQ0gDSACSwRAIAIhDQsgCSANQQRsaiENQQAhDwJAA0AgDEEQaiANSw0BIAAgDGr9AAQAIAEgDGr9AAQA/VH9UwRAQQEhDwwCCyAMQRBqIQwMAAsLAkADQCAPIAwgDU9yDQEgACAMaigCACABIAxqKAIARwRAQQEhDwsgDEEEaiEMDAALCyAPBEAgC0EBOgAAIA5BAWohDgsLIAdBAWohBwwACwsgBkEBaiEGDAALCyAOCw==")

# `readCanvas(c, base, next, bin)` (async): the canvas's pixels as {id, png} (the whole picture; with `bin`, {id,
# whole: true, bytes}: its rows as a Uint8Array) or {id, tiles, raw} (the tiles that differ from the picture the
# page sent as `base`; `tiles` lists their [x, y] tile numbers, `raw` their rows, base64; with `bin`, `bytes`: the
# rows as a Uint8Array instead). Rows are of 4-byte pixels, R, G, B, A or, with `bgr: true`, B, G, R, A (or X, an
# opaque canvas's unused byte). The page keeps the pictures it sends as `next` in the memory of the `tilediff`
# module (made once per document), the last two in turn, and the module compares them.
# The canvas's pixels go straight into that memory: a VideoFrame of the canvas copied in its own layout (B, G, R, X
# here), 0.2-0.7 ms with the raster of the step's drawing, where getImageData took 1.0-1.3 ms (it makes and fills a
# new buffer each time; the pixels are the same). getImageData is the fallback (a canvas the VideoFrame does not
# copy as one plane of 4-byte pixels). A canvas with no 2D context (WebGL), or a page that cannot run the module
# (its Content-Security-Policy), is sent whole every time.
READ_CANVAS_JS = """async (c, base, next, bin) => {
  const T = %(tile)d, W = c.width, H = c.height, n = W * H * 4;
  const ctx = c.getContext('2d');
  if (!ctx) { window.__hybridgymCanvas = null; return {id: next, png: c.toDataURL('image/png')}; }
  if (window.__hybridgymDiff === undefined) {
    try {
      const wasm = Uint8Array.from(atob('%(wasm)s'), (ch) => ch.charCodeAt(0));
      window.__hybridgymDiff = new WebAssembly.Instance(new WebAssembly.Module(wasm), {}).exports;
    } catch (e) { window.__hybridgymDiff = null; }
  }
  const X = window.__hybridgymDiff, prev = window.__hybridgymCanvas;
  window.__hybridgymCanvas = null;
  // the memory: two pictures, then a byte per tile
  const cols = Math.ceil(W / T), rows = Math.ceil(H / T), need = 2 * n + cols * rows;
  let grown = !!X;
  if (X && X.mem.buffer.byteLength < need) {
    try { X.mem.grow(Math.ceil((need - X.mem.buffer.byteLength) / 65536)); } catch (e) { grown = false; }
  }
  if (!grown) {   // no memory to keep a picture in: the whole canvas every time
    return bin ? {id: next, whole: true, bytes: new Uint8Array(ctx.getImageData(0, 0, W, H).data.buffer)}
      : {id: next, png: c.toDataURL('image/png')};
  }
  const slot = prev ? 1 - prev.slot : 0, px = new Uint8Array(X.mem.buffer, slot * n, n);
  let bgr = null, frame = null;
  try {
    frame = new VideoFrame(c, {timestamp: 0});
    const fmt = frame.format;
    if (['BGRX', 'BGRA', 'RGBX', 'RGBA'].includes(fmt) && frame.codedWidth === W && frame.codedHeight === H
        && frame.allocationSize() === n) {
      const layout = await frame.copyTo(px);
      if (layout.length === 1 && layout[0].offset === 0 && layout[0].stride === W * 4) bgr = fmt.startsWith('BGR');
    }
  } catch (e) { bgr = null; } finally { if (frame) frame.close(); }
  if (bgr === null) { px.set(ctx.getImageData(0, 0, W, H).data); bgr = false; }
  window.__hybridgymCanvas = {id: next, w: W, h: H, slot, bgr};
  const whole = () => bin ? {id: next, whole: true, bgr, bytes: px.slice()} : {id: next, png: c.toDataURL('image/png')};
  if (!prev || prev.id !== base || prev.w !== W || prev.h !== H || prev.bgr !== bgr) return whole();
  const mark = new Uint8Array(X.mem.buffer, 2 * n, cols * rows);
  mark.fill(0);
  X.diff(prev.slot * n, slot * n, W, H, T, 2 * n);
  const tiles = [];
  let bytes = 0;
  for (let ty = 0; ty < rows; ty++) {
    for (let tx = 0; tx < cols; tx++) {
      if (mark[ty * cols + tx]) { tiles.push([tx, ty]); bytes += (Math.min(W, tx * T + T) - tx * T) * (Math.min(H, ty * T + T) - ty * T) * 4; }
    }
  }
  if (bytes > (bin ? W * H * 3 : %(max_raw)d)) return whole();   // on the channel: tiles unless most of it changed
  const out = new Uint8Array(bytes);
  let o = 0;
  for (const [tx, ty] of tiles) {
    const x0 = tx * T, x1 = Math.min(W, x0 + T), y1 = Math.min(H, ty * T + T);
    for (let y = ty * T; y < y1; y++) { out.set(px.subarray((y * W + x0) * 4, (y * W + x1) * 4), o); o += (x1 - x0) * 4; }
  }
  if (bin) return {id: next, tiles, bgr, bytes: out};
  let s = '';
  for (let i = 0; i < out.length; i += 0x8000) s += String.fromCharCode.apply(null, out.subarray(i, i + 0x8000));
  return {id: next, tiles, bgr, raw: btoa(s)};
}""" % {"tile": TILE, "max_raw": MAX_RAW_BYTES, "wasm": TILE_DIFF_WASM}


def opaque_png(data_url: str, size: tuple[int, int]) -> np.ndarray | None:
    """RGB pixels of a PNG data URL when it is `size` (width, height) and fully opaque, else None.
    OpenCV decodes an 800x600 game picture and makes it RGB in 4.6 ms, PIL in 5.8 ms."""
    data = base64.b64decode(data_url.split(",", 1)[1])
    if cv2 is not None:
        px = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
        if px is not None and px.dtype == np.uint8 and px.ndim == 3 and px.shape[2] in (3, 4):
            if px.shape[:2] != (size[1], size[0]) or (px.shape[2] == 4 and px[..., 3].min() < 255):
                return None
            return cv2.cvtColor(px, cv2.COLOR_BGRA2RGB if px.shape[2] == 4 else cv2.COLOR_BGR2RGB)
    with Image.open(io.BytesIO(data)) as im:
        if im.size != tuple(size) or im.mode not in ("RGB", "RGBA"):
            return None
        if im.mode == "RGBA":
            if im.getchannel("A").getextrema()[0] < 255:
                return None
            im = im.convert("RGB")
        return np.array(im)   # writable (np.asarray of a PIL image is read-only)


class CanvasPicture:
    """The last whole picture read from a page's canvas, and the id the page knows it by.

    `base()` is the id to send with the next read (-1: none, the page sends the whole canvas),
    `next_id()` the id of the picture the read makes; `apply(pic, size)` turns the page's answer
    into a new RGB array (the caller may keep or change it: the picture kept here is a copy),
    or None when the canvas is not `size` (width, height) or not opaque."""

    def __init__(self):
        self._frame: np.ndarray | None = None
        self._id = -1
        self._next = 0

    def forget(self) -> None:
        """A new page: the next read sends the whole canvas."""
        self._frame, self._id = None, -1

    def base(self) -> int:
        return self._id if self._frame is not None else -1

    def next_id(self) -> int:
        self._next += 1
        return self._next

    def apply(self, pic: dict, size: tuple[int, int], raw: bytes | None = None) -> np.ndarray | None:
        """`raw`: the changed tiles' bytes when they came apart from `pic` (`bytes: true`: the page's channel);
        `pic["bgr"]`: the bytes are B, G, R, A pixels (else R, G, B, A)."""
        base = self._frame
        # whatever goes wrong below (`base` is patched in place), the next read starts from the whole canvas
        self.forget()
        tiles, bgr = pic.get("tiles"), pic.get("bgr") is True
        if pic.get("png") is not None:
            frame = opaque_png(pic["png"], size)
        elif pic.get("whole") and pic.get("bytes") and raw is not None:
            frame = _opaque_rgba(raw, size, bgr)
        elif base is not None and base.shape[:2] == (size[1], size[0]) and isinstance(tiles, list):
            frame = _patched(base, tiles, raw if pic.get("bytes") and raw is not None
                             else base64.b64decode(pic.get("raw") or ""), bgr)
        else:
            frame = None
        if frame is None:
            return None
        self._frame, self._id = frame, int(pic["id"])
        return frame.copy()


def _opaque_rgba(raw: bytes, size: tuple[int, int], bgr: bool = False) -> np.ndarray | None:
    """The RGB pixels of a whole canvas's raw RGBA (`bgr`: BGRA) rows, or None unless it is `size` and fully opaque."""
    w, h = size
    if len(raw) != w * h * 4:
        return None
    px = np.frombuffer(raw, np.uint8).reshape(h, w, 4)
    if px[..., 3].min() < 255:
        return None
    if cv2 is not None:
        return cv2.cvtColor(px, cv2.COLOR_BGRA2RGB if bgr else cv2.COLOR_RGBA2RGB)
    return px[..., 2::-1].copy() if bgr else px[..., :3].copy()


def _patched(frame: np.ndarray, tiles: list, raw: bytes, bgr: bool = False) -> np.ndarray | None:
    """`frame` with the page's changed tiles (RGBA, or BGRA with `bgr`) pasted in (in place: a copy of a whole
    picture costs 0.4 ms of a step), or None if one is not opaque (the frame is then part pasted:
    `CanvasPicture.apply` forgot it)."""
    h, w = frame.shape[:2]
    buf = np.frombuffer(raw, np.uint8)
    if len(buf) % 4 or (len(buf) and buf[3::4].min() < 255):   # every pixel opaque, checked at once
        return None
    o = 0
    for tx, ty in tiles:
        x0, y0 = int(tx) * TILE, int(ty) * TILE
        x1, y1 = min(w, x0 + TILE), min(h, y0 + TILE)
        n = (x1 - x0) * (y1 - y0) * 4
        if x0 >= w or y0 >= h or o + n > len(buf):
            return None
        tile = buf[o:o + n].reshape(y1 - y0, x1 - x0, 4)
        frame[y0:y1, x0:x1] = tile[..., 2::-1] if bgr else tile[..., :3]
        o += n
    return frame if o == len(buf) else None
