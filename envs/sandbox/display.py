"""A private Xvfb display per env: started with pyvirtualdisplay, never touching the process's DISPLAY."""

from __future__ import annotations

import os

from pyvirtualdisplay import Display


class XvfbDisplay:
    """One Xvfb server of a given size. `name` is the X display string (":N")."""

    def __init__(self, width: int, height: int, depth: int = 24):
        if width < 64 or height < 64:
            raise ValueError(f"display size must be at least 64x64, got {width}x{height}")
        self.width, self.height, self.depth = width, height, depth
        self._display: Display | None = None

    def start(self) -> "XvfbDisplay":
        if self._display is None:
            self._display = Display(
                backend="xvfb", size=(self.width, self.height), color_depth=self.depth,
                manage_global_env=False, extra_args=["-nolisten", "tcp", "-noreset"],
            )
            self._display.start()
        return self

    @property
    def name(self) -> str:
        if self._display is None:
            raise RuntimeError("display is not started")
        return self._display.new_display_var

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
