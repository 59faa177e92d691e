"""Backends of the web apps in assets/web/: seeded data, route handlers on the env's AppServer, and state for checkers.

One module per app. A task's `setup` calls the app's installer, which adds the
app's routes to `sb.server` (they are removed at the next reset).
"""
