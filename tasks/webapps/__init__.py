"""Backends of the web apps in assets/web/: seeded data, route handlers on the env's AppServer, and state for checkers.

One module per app. A task's `setup` calls the app's installer, which adds the
app's routes to `sb.server` (they are removed at the next reset).
"""

import weakref


class Installed:
    """Which app object answers an app's routes on each server (one per env), for its checkers."""

    def __init__(self, name: str, prefix: str, module: str):
        self.name, self.prefix, self.module = name, prefix, module
        self._apps: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def install(self, server, app):
        """Make `app` answer `prefix` on `server` for this episode; returns it."""
        server.route(self.prefix, app)
        self._apps[server] = app
        return app

    def app_of(self, server):
        try:
            return self._apps[server]
        except KeyError:
            raise LookupError(f"no {self.name} installed on this server; call {self.module}.install in setup") from None
