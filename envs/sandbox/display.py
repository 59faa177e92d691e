"""A private Xvfb display per env: started with pyvirtualdisplay, never touching the process's DISPLAY."""

from __future__ import annotations

import os

from pyvirtualdisplay import Display

from .processes import require


class XvfbDisplay:
    """One Xvfb server of a given size. `name` is the X display string (":N").

    framebuffer_dir: a private folder where Xvfb keeps the screen's pixels in a memory-mapped file
    (`-fbdir`; the file is `framebuffer`, an XWD image), for readers that take the screen without a
    request to the server (`capture.Framebuffer`). The pointer is then not drawn (`-nocursor`): Xvfb
    would draw it into that memory, where an XShm grab never shows it."""

    def __init__(self, width: int, height: int, depth: int = 24, refresh_hz: int = 60,
                 framebuffer_dir: "os.PathLike | str | None" = None):
        if width < 64 or height < 64:
            raise ValueError(f"display size must be at least 64x64, got {width}x{height}")
        if not 1 <= refresh_hz <= 1000:
            raise ValueError(f"refresh_hz must be 1..1000, got {refresh_hz}")
        self.width, self.height, self.depth = width, height, depth
        self.refresh_hz = refresh_hz
        self.framebuffer_dir = os.fspath(framebuffer_dir) if framebuffer_dir is not None else None
        self._display: Display | None = None

    def start(self) -> "XvfbDisplay":
        if self._display is None:
            require("Xvfb", "the virtual X display of every sandbox")
            extra = ["-nolisten", "tcp", "-noreset"]
            if self.framebuffer_dir is not None:
                extra += ["-fbdir", self.framebuffer_dir, "-nocursor"]
            self._display = Display(
                backend="xvfb", size=(self.width, self.height), color_depth=self.depth,
                manage_global_env=False, extra_args=extra,
            )
            self._display.start()
            if self.refresh_hz != 60:
                self._set_refresh()
        return self

    def _set_refresh(self) -> None:
        """Give the screen a RandR mode of the same size at `refresh_hz`. Xvfb's own mode has no
        timings, so clients assume 60 Hz; Chromium paces its frames (requestAnimationFrame, the
        compositor's draws) by the rate of the screen's mode when it starts."""
        from Xlib import display as xdisplay
        from Xlib.ext import randr
        d = xdisplay.Display(self.name)
        try:
            root = d.screen().root
            res = randr.get_screen_resources(root)
            w, h = self.width, self.height
            mode = randr.create_mode(root, dict(
                id=0, width=w, height=h, dot_clock=self.refresh_hz * w * h, h_sync_start=w, h_sync_end=w,
                h_total=w, h_skew=0, v_sync_start=h, v_sync_end=h, v_total=h, name_length=0, flags=0),
                f"{w}x{h}@{self.refresh_hz}").mode
            out, crtc = res.outputs[0], res.crtcs[0]
            randr.add_output_mode(d, out, mode)
            status = randr.set_crtc_config(d, crtc, res.config_timestamp, 0, 0, mode, randr.Rotate_0, [out]).status
            if status != 0:
                raise RuntimeError(f"Xvfb refused the {self.refresh_hz} Hz mode (RandR status {status})")
        finally:
            d.close()

    @property
    def name(self) -> str:
        if self._display is None:
            raise RuntimeError("display is not started")
        return self._display.new_display_var

    @property
    def framebuffer(self) -> str | None:
        """The screen's memory-mapped file (with `framebuffer_dir`), else None."""
        return os.path.join(self.framebuffer_dir, "Xvfb_screen0") if self.framebuffer_dir is not None else None

    @property
    def pid(self) -> int | None:
        """Pid of the Xvfb process."""
        return self._display._obj.pid if self._display is not None else None

    def is_alive(self) -> bool:
        return self._display is not None and self._display.is_alive()

    def child_env(self, **extra: str) -> dict[str, str]:
        """Environment for a program that should draw on this display."""
        env = dict(os.environ)
        env["DISPLAY"] = self.name
        env.pop("WAYLAND_DISPLAY", None)
        env.update(extra)
        return env

    def stop(self) -> None:
        if self._display is not None:
            try:
                self._display.stop()
            except Exception:
                proc = self._display._obj._subproc
                if proc is not None and proc.poll() is None:
                    proc.kill()
            self._display = None
