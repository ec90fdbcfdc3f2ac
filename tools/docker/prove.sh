#!/usr/bin/env bash
# Build and start the Docker image on a machine whose network reaches only the package
# registries (no image registry): the base image is made locally with debootstrap.
#   bash tools/docker/prove.sh          (as root; logs in /tmp/docker-proof/)
# Steps: install docker.io + debootstrap, start dockerd, debootstrap Debian bookworm with
# Python 3.11, import it as the base, build the app image on it (BASE build argument),
# run it on port 7860, then ask for a reply and a score through the app's own API.
set -euo pipefail
cd "$(dirname "$0")/../.."
LOG=/tmp/docker-proof; mkdir -p "$LOG"
export DEBIAN_FRONTEND=noninteractive
command -v dockerd >/dev/null || apt-get install -y -qq docker.io >"$LOG/apt.log" 2>&1
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >>"$LOG/apt.log" 2>&1
if ! docker info >/dev/null 2>&1; then
  (dockerd >"$LOG/dockerd.log" 2>&1 &)
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
fi
docker info >/dev/null
if ! docker image inspect empathy-lab-base:bookworm >/dev/null 2>&1; then
  root=/tmp/docker-proof/rootfs
  rm -rf "$root"
  debootstrap --variant=minbase \
    --include=python3,python3-pip,python3-venv,python3-dev,ca-certificates \
    bookworm "$root" http://deb.debian.org/debian >"$LOG/debootstrap.log" 2>&1
  # python:3.11-slim's conventions: a `python` command, pip allowed to install system-wide.
  ln -sf /usr/bin/python3 "$root/usr/local/bin/python"
  rm -f "$root"/usr/lib/python3*/EXTERNALLY-MANAGED
  # This machine's way to PyPI: its CA bundle (the registry is reached through a proxy
  # that signs with it) and its folder of CPU wheels (torch's CPU build is not on PyPI).
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  if [ -d /opt/wheels ]; then mkdir -p "$root/opt" && cp -r /opt/wheels "$root/opt/wheels"; fi
  tar -C "$root" -c . | docker import \
    --change "ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt" \
    --change "ENV PIP_FIND_LINKS=/opt/wheels" \
    --change "ENV PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" \
    - empathy-lab-base:bookworm
  rm -rf "$root"
fi
start=$(date +%s)
docker build --network host --build-arg BASE=empathy-lab-base:bookworm \
  -t empathy-lab . >"$LOG/build.log" 2>&1
echo "built in $(( $(date +%s) - start )) s"
docker rm -f empathy-lab-proof >/dev/null 2>&1 || true
docker run -d --name empathy-lab-proof --network host empathy-lab >/dev/null
python3 tools/docker/smoke.py http://127.0.0.1:7860 | tee "$LOG/smoke.txt"
docker rm -f empathy-lab-proof >/dev/null
