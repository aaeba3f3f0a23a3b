#!/usr/bin/env bash
# The whole test suite, as `npm test` runs it: provision, typecheck, lint, vitest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/provision.sh
# The local sandbox and host-side benchmarks need a python3 that has pytest.
export HYPOFIX_PYTHON="${HYPOFIX_PYTHON:-/usr/bin/python3}"
echo "== typecheck" >&2
npx tsc -p tsconfig.json --noEmit
echo "== layers" >&2
npx tsx scripts/check-layers.ts
echo "== lint" >&2
npx eslint .
npx prettier --check . >/dev/null || { npx prettier --check .; exit 1; }
echo "== vitest" >&2
npx vitest run "$@"
