#!/usr/bin/env bash
# Builds a Python sandbox image without a container registry: debootstrap a
# minimal Debian with python3, pytest, coverage, pip and venv, then `docker import`.
#
#   bash docker/build-sandbox-image-offline.sh [--python 3.9|3.11|3.13] [TAG]
#
# Python 3.9 comes from bullseye, 3.11 from bookworm (the default), 3.13 from trixie.
# TAG defaults to "${HYPOFIX_SANDBOX_IMAGE:-hypofix/sandbox-python:2}-py<version>".
# Same contract as docker/sandbox-python.Dockerfile: non-root user 10001, workdir
# /work, a venv at /opt/hypofix/venv (first on PATH, owned by 10001, with system site
# packages so the image's pytest and coverage stay importable), labels
# org.hypofix.sandbox=python and org.hypofix.python=<version>.
set -euo pipefail

PYTHON=3.11
if [ "${1:-}" = "--python" ]; then
  PYTHON="${2:?--python needs a version}"
  shift 2
fi
case "$PYTHON" in
  3.9) SUITE=bullseye ;;
  3.11) SUITE=bookworm ;;
  3.13) SUITE=trixie ;;
  *) echo "hypofix: no Debian suite for Python $PYTHON (3.9, 3.11 or 3.13)" >&2; exit 2 ;;
esac
TAG="${1:-${HYPOFIX_SANDBOX_IMAGE:-hypofix/sandbox-python:2}-py$PYTHON}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
VENV=/opt/hypofix/venv

command -v debootstrap >/dev/null || { echo "debootstrap is not installed (apt-get install -y debootstrap)" >&2; exit 2; }
command -v docker >/dev/null || { echo "docker is not installed (apt-get install -y docker.io)" >&2; exit 2; }

work="$(mktemp -d /var/tmp/hypofix-rootfs.XXXXXX)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"

echo "hypofix: debootstrap $SUITE (Python $PYTHON) for $TAG (a few minutes, once)" >&2
debootstrap --variant=minbase \
  --include=python3,python3-pytest,python3-coverage,python3-pip,python3-venv \
  "$SUITE" "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  echo "hypofix: debootstrap of $SUITE failed (see above)" >&2
  exit 2
}

# The non-root user the sandbox runs as; same uid as the Dockerfile.
chroot "$root" /usr/sbin/groupadd --gid 10001 sandbox
chroot "$root" /usr/sbin/useradd --uid 10001 --gid 10001 --home-dir /work --no-create-home --shell /bin/sh sandbox
mkdir -p "$root/work"
chown 10001:10001 "$root/work"

# The venv a setup command installs into, as the sandbox user (never root).
chroot "$root" /usr/bin/python3 -m venv --system-site-packages "$VENV"
chroot "$root" /bin/chown -R 10001:10001 "$(dirname "$VENV")"

# Trim what a test run never needs.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/*

tar -C "$root" -c . | docker import \
  --change 'USER 10001:10001' \
  --change 'WORKDIR /work' \
  --change "ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 LANG=C.UTF-8 HOME=/tmp VIRTUAL_ENV=$VENV PATH=$VENV/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
  --change 'CMD ["/bin/sh"]' \
  --change 'LABEL org.hypofix.sandbox=python' \
  --change "LABEL org.hypofix.python=$PYTHON" \
  - "$TAG" >/dev/null

# Check the contract the sandbox relies on before anyone uses the tag.
docker run --rm --network none --read-only "$TAG" python3 -c "
import os, sys, pytest, coverage, pip, venv
assert os.getuid() == 10001, os.getuid()
assert os.getcwd() == '/work', os.getcwd()
assert sys.prefix == '$VENV', sys.prefix
assert '%d.%d' % sys.version_info[:2] == '$PYTHON', sys.version
assert os.stat('$VENV').st_uid == 10001, 'the venv belongs to the sandbox user'
" || {
  echo "hypofix: $TAG does not meet the sandbox contract (uid 10001, /work, Python $PYTHON in a writable venv with pytest, coverage and pip)" >&2
  exit 2
}
echo "hypofix: built $TAG" >&2
