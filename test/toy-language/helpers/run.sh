#!/usr/bin/env bash
# Runs one toy test (a bash script) from the repository root: exit 0 passes. With TOY_TRACE
# set, bash writes `+file:line:` for every command it runs to that file: per-test coverage.
if [ -n "${TOY_TRACE:-}" ]; then
  exec 9>"$TOY_TRACE"
  export BASH_XTRACEFD=9
  PS4='+${BASH_SOURCE}:${LINENO}:'
  set -x
fi
# shellcheck source=/dev/null
. "$1"
