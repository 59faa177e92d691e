"""The sandbox's error: a part of it failed (a crashed browser, a dead display, a window that never came)."""


class SandboxError(RuntimeError):
    """A part of the sandbox failed (crashed browser, dead display, a window that did not appear, ...)."""
