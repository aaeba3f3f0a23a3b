#!/usr/bin/env bash
# Builds the Python sandbox image without a container registry: debootstrap a
# minimal Debian bookworm with python3, pytest and coverage, then `docker import`.
# Produces the same tag and contract as docker/sandbox-python.Dockerfile
# (non-root user 10001, workdir /work, python3 + pytest + coverage).
set -euo pipefail

TAG="${1:-${HYPOFIX_SANDBOX_IMAGE:-hypofix/sandbox-python:1}}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SUITE="${DEBIAN_SUITE:-bookworm}"

command -v debootstrap >/dev/null || { echo "debootstrap is not installed (apt-get install -y debootstrap)" >&2; exit 2; }
command -v docker >/dev/null || { echo "docker is not installed (apt-get install -y docker.io)" >&2; exit 2; }

work="$(mktemp -d /var/tmp/hypofix-rootfs.XXXXXX)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"

echo "hypofix: debootstrap $SUITE into $root (this takes a few minutes once)" >&2
debootstrap --variant=minbase \
  --include=python3,python3-pytest,python3-coverage \
  "$SUITE" "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  echo "hypofix: debootstrap failed (see above)" >&2
  exit 2
}

# The non-root user the sandbox runs as; same uid as the Dockerfile.
chroot "$root" /usr/sbin/groupadd --gid 10001 sandbox
chroot "$root" /usr/sbin/useradd --uid 10001 --gid 10001 --home-dir /work --no-create-home --shell /bin/sh sandbox
mkdir -p "$root/work"
chown 10001:10001 "$root/work"

# Trim what a test run never needs.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/*

tar -C "$root" -c . | docker import \
  --change 'USER 10001:10001' \
  --change 'WORKDIR /work' \
  --change 'ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 LANG=C.UTF-8 HOME=/tmp' \
  --change 'CMD ["/bin/sh"]' \
  --change 'LABEL org.hypofix.sandbox=python' \
  - "$TAG" >/dev/null

# Check the contract the sandbox relies on before anyone uses the tag.
docker run --rm --network none --read-only "$TAG" python3 -c \
  'import os, pytest, coverage; assert os.getuid() == 10001, os.getuid(); assert os.getcwd() == "/work"' || {
  echo "hypofix: $TAG does not meet the sandbox contract (uid 10001, /work, python3 with pytest and coverage)" >&2
  exit 2
}
echo "hypofix: built $TAG" >&2
