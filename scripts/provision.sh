#!/usr/bin/env bash
# Makes this machine ready for Hypofix, reusing what exists: node_modules, the
# Docker engine (docker.io from Debian, dockerd started), the sandbox images for
# Python 3.9, 3.11 and 3.13 and for Node 18, 20 and 22 (docker/sandbox-node.versions)
# and the setup's egress proxy image (built offline with debootstrap, in parallel, when
# a tag is absent; the default Python tag points at 3.11), host python3 with pytest and
# coverage (the `local` sandbox and benchmarks use it) and, unless `--cli`, Redis on
# 127.0.0.1:6379 (the App's queue and its tests) and the tests' npm mirror
# (scripts/npm-mirror.ts: the packages of the fixtures' and corpora's lockfiles,
# fetched once from the npm registry).
set -euo pipefail
cd "$(dirname "$0")/.."
with_redis=1
[ "${1:-}" = "--cli" ] && with_redis=0

IMAGE="${HYPOFIX_SANDBOX_IMAGE:-hypofix/sandbox-python:2}"
EGRESS_IMAGE="${HYPOFIX_EGRESS_IMAGE:-hypofix/egress-proxy:1}"
PYTHONS=(3.9 3.11 3.13)
DEFAULT_PYTHON=3.11
NODE_IMAGE="${HYPOFIX_NODE_IMAGE:-hypofix/sandbox-node:1}"
log() { echo "provision: $*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_updated=0
apt_install() {
  if [ $apt_updated = 0 ]; then as_root apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@" >/dev/null
}

missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v debootstrap >/dev/null || missing+=(debootstrap)
/usr/bin/python3 -c 'import pytest, coverage' 2>/dev/null || missing+=(python3-pytest python3-coverage)
[ $with_redis = 1 ] && ! command -v redis-server >/dev/null && missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  apt_install "${missing[@]}"
fi

if ! docker info >/dev/null 2>&1; then
  log "starting dockerd"
  (as_root nohup dockerd >/var/log/hypofix-dockerd.log 2>&1 &)
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  docker info >/dev/null 2>&1 || { log "dockerd did not start; see /var/log/hypofix-dockerd.log"; exit 2; }
fi

# One build job per missing image; one for all missing Node images (they share a rootfs).
jobs=()
for v in "${PYTHONS[@]}"; do
  docker image inspect "$IMAGE-py$v" >/dev/null 2>&1 || jobs+=("python$v")
done
missing_nodes=()
while read -r major _; do
  [[ -z "$major" || "$major" == \#* ]] && continue
  # An image from before the command runner's unreadable node copy is rebuilt too.
  [ "$(docker image inspect --format '{{ index .Config.Labels "org.hypofix.node-runner" }}' "$NODE_IMAGE-node$major" 2>/dev/null)" = 1 ] ||
    missing_nodes+=("$major")
done <docker/sandbox-node.versions
[ ${#missing_nodes[@]} -gt 0 ] && jobs+=("node")
docker image inspect "$EGRESS_IMAGE" >/dev/null 2>&1 || jobs+=("egress")
if [ ${#jobs[@]} -gt 0 ]; then
  # The builds wait on the mirror more than on the CPU: in parallel they take about as long as one.
  log "building images offline, in parallel (minutes, once): ${jobs[*]}${missing_nodes[*]:+ (Node ${missing_nodes[*]})}"
  started=$(date +%s)
  logs="$(mktemp -d)"
  pids=()
  for job in "${jobs[@]}"; do
    case "$job" in
      python*) bash docker/build-sandbox-image-offline.sh --python "${job#python}" "$IMAGE-py${job#python}" ;;
      node) HYPOFIX_NODE_IMAGE="$NODE_IMAGE" bash docker/build-sandbox-node-offline.sh "${missing_nodes[@]}" ;;
      egress) bash docker/build-egress-proxy-image-offline.sh "$EGRESS_IMAGE" ;;
    esac >"$logs/$job.log" 2>&1 &
    pids+=($!)
  done
  failed=0
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then
      failed=1
      cat "$logs/${jobs[$i]}.log" >&2
    fi
  done
  rm -rf "$logs"
  [ $failed = 0 ] || { log "building an image failed (see above)"; exit 2; }
  log "built ${jobs[*]} in $(($(date +%s) - started)) s"
fi
if ! docker image inspect "$IMAGE" >/dev/null 2>&1; then
  docker tag "$IMAGE-py$DEFAULT_PYTHON" "$IMAGE"
fi
# The Node family's base tag (what the JavaScript language's imageBase names) is its default, Node 20.
if [ "$(docker image inspect --format '{{.Id}}' "$NODE_IMAGE" 2>/dev/null)" != "$(docker image inspect --format '{{.Id}}' "$NODE_IMAGE-node20")" ]; then
  docker tag "$NODE_IMAGE-node20" "$NODE_IMAGE"
fi

if [ $with_redis = 1 ] && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  log "starting redis-server on 127.0.0.1:6379"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null
  for _ in $(seq 1 20); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.25; done
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "npm install"
  # Not `npm ci`: vite lists a Windows-only optional dependency that this registry
  # does not serve, which `npm ci` counts as a lock mismatch. `npm install` keeps the
  # locked versions and skips the optional package.
  npm install --no-audit --no-fund >/dev/null
fi

if [ $with_redis = 1 ]; then
  npx tsx scripts/npm-mirror.ts
fi
