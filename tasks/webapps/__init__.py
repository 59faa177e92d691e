"""Backends of the web apps in assets/web/: seeded data, the API the app's pages call, state for checkers.

One module per app, each with one `JsonBackend` subclass (`hybridgym.sandbox.webserver`):
a task's setup installs it on the env's server and loads the episode's data,

    app = sb.server.install(ShopApp.prefix, ShopApp).load(seed, cart=...)

and its `read_state` reaches the same instance the same way to read `app.state()`. The
server empties every backend at the env's next reset. A module's functions at the end
draw task parameters from the app's data (`shop.sample_address`, `calendar.is_free`, ...).
"""
