#!/usr/bin/env bash
# Builds a Node.js base image for docker/app.Dockerfile without a container
# registry: debootstrap a minimal Debian (git, ca-certificates, tini), add this
# host's node and npm, then `docker import`.
#
#   bash docker/build-node-base-offline.sh [TAG]        # default hypofix/node-base:20
#   docker build -f docker/app.Dockerfile --build-arg BASE=hypofix/node-base:20 -t hypofix/app .
#
# Debian's nodejs (18 in bookworm) is older than Hypofix needs (>= 20.18.1), so the
# host's own binary goes in; it must be Node 20 or newer and dynamically linked
# against glibc only (checked). The host's extra CA certificates
# (/usr/local/share/ca-certificates) are trusted too, so `npm ci` in the image build
# works behind the same TLS-inspecting proxy the host uses.
set -euo pipefail

TAG="${1:-hypofix/node-base:20}"
SUITE="${DEBIAN_SUITE:-bookworm}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
NODE="$(readlink -f "$(command -v node)")"
NPM_DIR="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"

command -v debootstrap >/dev/null || { echo "debootstrap is not installed (apt-get install -y debootstrap)" >&2; exit 2; }
command -v docker >/dev/null || { echo "docker is not installed (apt-get install -y docker.io)" >&2; exit 2; }
major="$("$NODE" -p 'process.versions.node.split(".")[0]')"
[ "$major" -ge 20 ] || { echo "hypofix: host node is $("$NODE" --version); the image needs Node >= 20" >&2; exit 2; }
[ -f "$NPM_DIR/bin/npm-cli.js" ] || { echo "hypofix: npm not found beside node ($NPM_DIR)" >&2; exit 2; }

work="$(mktemp -d /var/tmp/hypofix-node-rootfs.XXXXXX)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"

echo "hypofix: debootstrap $SUITE + node $("$NODE" --version) for $TAG (a few minutes, once)" >&2
debootstrap --variant=minbase --include=ca-certificates,git,tini,libstdc++6 \
  "$SUITE" "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  echo "hypofix: debootstrap of $SUITE failed (see above)" >&2
  exit 2
}

install -m 0755 "$NODE" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules"
cp -a "$NPM_DIR" "$root/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

# Node trusts only its own CA list unless told: NODE_EXTRA_CA_CERTS adds the system's.
extra_ca=()
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" /usr/sbin/update-ca-certificates >/dev/null 2>&1
  extra_ca=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt')
fi

# The app's user; app.Dockerfile runs as it.
chroot "$root" /usr/sbin/groupadd --gid 10002 hypofix
chroot "$root" /usr/sbin/useradd --uid 10002 --gid 10002 --create-home --shell /bin/sh hypofix

rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/*

tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
  --change 'CMD ["node"]' \
  --change 'LABEL org.hypofix.base=node' \
  "${extra_ca[@]}" \
  - "$TAG" >/dev/null

docker run --rm --network none "$TAG" sh -c 'node -e "process.exit(+process.versions.node.split(\".\")[0] >= 20 ? 0 : 1)" && npm --version >/dev/null && git --version >/dev/null' || {
  echo "hypofix: $TAG does not run node >= 20, npm and git" >&2
  exit 2
}
echo "hypofix: built $TAG" >&2
