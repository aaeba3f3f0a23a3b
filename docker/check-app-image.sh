#!/usr/bin/env bash
# Builds the App image and checks that `hypofix serve` in it answers /healthz and
# /readyz against a throwaway Redis; validates docker/compose.yml when a compose
# tool is installed. Too slow for `npm test` (the image build takes minutes).
#
#   bash docker/check-app-image.sh                         # BASE: the offline base, built if missing
#   BASE=node:20-bookworm-slim bash docker/check-app-image.sh
set -euo pipefail
cd "$(dirname "$0")/.."

BASE="${BASE:-hypofix/node-base:20}"
TAG="${TAG:-hypofix/app:check}"
PORT="${PORT:-7431}"
REDIS_PORT="${REDIS_PORT:-7432}"

if [ "$BASE" = "hypofix/node-base:20" ] && ! docker image inspect "$BASE" >/dev/null 2>&1; then
  bash docker/build-node-base-offline.sh "$BASE"
fi
start=$(date +%s)
docker build -q -f docker/app.Dockerfile --build-arg "BASE=$BASE" -t "$TAG" . >/dev/null
echo "hypofix: built $TAG from $BASE in $(($(date +%s) - start)) s" >&2

dir="$(mktemp -d)"
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$dir" --save "" --daemonize yes \
  --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
name="hypofix-check-$$"
cleanup() {
  docker rm -f "$name" >/dev/null 2>&1 || true
  [ -f "$dir/redis.pid" ] && kill "$(cat "$dir/redis.pid")" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

key="$(node -e 'process.stdout.write(require("crypto").generateKeyPairSync("rsa",{modulusLength:2048,privateKeyEncoding:{type:"pkcs1",format:"pem"},publicKeyEncoding:{type:"spki",format:"pem"}}).privateKey)')"
docker run -d --name "$name" --network host -e HOST=127.0.0.1 -e PORT="$PORT" -e APP_ID=1 \
  -e PRIVATE_KEY="$key" -e WEBHOOK_SECRET=check -e REDIS_URL="redis://127.0.0.1:$REDIS_PORT" \
  "$TAG" serve --no-worker >/dev/null
for _ in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null || { docker logs "$name" >&2; echo "hypofix: /healthz did not answer" >&2; exit 1; }
curl -fsS "http://127.0.0.1:$PORT/readyz" >/dev/null || { docker logs "$name" >&2; echo "hypofix: /readyz not ready" >&2; exit 1; }
[ "$(docker exec "$name" id -u)" != 0 ] || { echo "hypofix: the image runs as root" >&2; exit 1; }
echo "hypofix: $TAG serves /healthz and /readyz as $(docker exec "$name" id -un)" >&2

# The compose file reads ../.env; an empty one stands in while validating.
created_env=""
[ -e .env ] || { touch .env; created_env=1; }
if command -v docker-compose >/dev/null; then
  docker-compose -f docker/compose.yml config -q && echo "hypofix: docker/compose.yml is valid (docker-compose)" >&2
elif docker compose version >/dev/null 2>&1; then
  docker compose -f docker/compose.yml config -q && echo "hypofix: docker/compose.yml is valid (docker compose)" >&2
else
  echo "hypofix: no compose tool to validate docker/compose.yml (apt-get install docker-compose)" >&2
fi
[ -z "$created_env" ] || rm -f .env
