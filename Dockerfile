# A hybridgym node (a Ray worker that runs sandboxes, or a machine for `hybridgym bench`), built from
# Debian's packages and PyPI only: the same set-up as a fresh Debian machine (.ci/setup).
#
#   docker build -t hybridgym .
#   docker run --rm --privileged --shm-size=2g hybridgym hybridgym bench --suite game --agent oracle
#   # a Ray worker that offers 4 sandboxes to a head at HEAD:6379:
#   docker run -d --privileged --shm-size=2g --network=host hybridgym \
#       ray start --address=HEAD:6379 --resources='{"sandbox": 4}' --num-cpus=4 --block
#
# --privileged gives the full jail (a uid per env, its own network namespace, cgroups, a tmpfs home with
# a quota: docs/security.md). Without it, run as the image's unprivileged user (`--user hybridgym`): the
# envs still work, in the weaker non-root jail that docs/security.md describes.
# HYBRIDGYM_EXTRAS chooses what pip installs ("dev" for the tests and benchmarks; "ray,miniwob,mcp" for a node).
FROM debian:12-slim

ARG HYBRIDGYM_EXTRAS=ray,miniwob,mcp
ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 HYBRIDGYM_EXTRAS=${HYBRIDGYM_EXTRAS}
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/hybridgym
COPY . .
RUN bash .ci/setup \
 && rm -rf /var/lib/apt/lists/* /root/.cache/pip \
 && useradd --create-home --shell /bin/bash hybridgym \
 && chmod -R a+rX /opt/hybridgym
ENV PATH=/opt/hybridgym/.venv/bin:$PATH
CMD ["hybridgym", "list"]
