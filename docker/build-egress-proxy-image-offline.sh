#!/usr/bin/env bash
# Builds the egress proxy image (Squid from Debian) without a container registry:
# debootstrap a minimal Debian with squid-openssl and ca-certificates, then `docker import`.
#
#   bash docker/build-egress-proxy-image-offline.sh [TAG]   # default hypofix/egress-proxy:1
#
# Same contract as docker/egress-proxy.Dockerfile: /usr/sbin/squid built with OpenSSL (Debian's
# GnuTLS `squid` 5.7 does not check a TLS upstream's certificate, so it would hand a mirror's
# credentials to anyone on the path), bash, the user `proxy` (Debian's uid 13) to run it as, the
# system CA list (plus this host's extra CAs from /usr/local/share/ca-certificates, so a company
# index behind an internal CA verifies), label org.hypofix.egress=squid-openssl. Hypofix writes
# the configuration at run time (src/sandbox/egress.ts); the image holds none.
set -euo pipefail

TAG="${1:-hypofix/egress-proxy:1}"
SUITE="${DEBIAN_SUITE:-bookworm}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

command -v debootstrap >/dev/null || { echo "debootstrap is not installed (apt-get install -y debootstrap)" >&2; exit 2; }
command -v docker >/dev/null || { echo "docker is not installed (apt-get install -y docker.io)" >&2; exit 2; }

work="$(mktemp -d /var/tmp/hypofix-egress-rootfs.XXXXXX)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"

echo "hypofix: debootstrap $SUITE with squid-openssl for $TAG (a minute or two, once)" >&2
debootstrap --variant=minbase --include=squid-openssl,ca-certificates \
  "$SUITE" "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  echo "hypofix: debootstrap of $SUITE failed (see above)" >&2
  exit 2
}

if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" /usr/sbin/update-ca-certificates >/dev/null 2>&1
fi

rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/* \
  "$root"/etc/squid/squid.conf

tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
  --change 'USER proxy' \
  --change 'CMD ["squid", "-v"]' \
  --change 'LABEL org.hypofix.egress=squid-openssl' \
  - "$TAG" >/dev/null

docker run --rm --network none --read-only "$TAG" sh -c '[ "$(id -un)" = proxy ] && squid -v | grep -q -- --with-openssl && bash -c true' || {
  echo "hypofix: $TAG does not run squid built with OpenSSL (and bash) as the user proxy" >&2
  exit 2
}
echo "hypofix: built $TAG" >&2
