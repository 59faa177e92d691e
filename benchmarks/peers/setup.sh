#!/bin/sh
# Create (or update) the peers' own virtual environment, /work/main/.venv-peers, for
# benchmarks/bench_peers.py: the `miniwob` package and BrowserGym from PyPI, pinned in
# benchmarks/peers/requirements.txt. Idempotent: a second run only checks the pins.
#
# BrowserGym drives Playwright, but `playwright install` is not needed (nor reachable here):
# benchmarks/peers/worker.py launches Debian's /usr/bin/chromium instead.
#
#     sh benchmarks/peers/setup.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
venv="${PEERS_VENV:-$repo/.venv-peers}"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
"$venv/bin/python" - <<'PY'
import importlib.metadata as md
for name in ("miniwob", "browsergym-core", "browsergym-miniwob", "playwright", "selenium", "gymnasium"):
    print(f"{name}=={md.version(name)}")
PY
echo "peers venv ready: $venv"
