#!/usr/bin/env bash
# What scripts/test-prerequisites.sh says and does when something is missing. Each run gets a PATH of its
# own: links to the real tools but the one left out, a stand-in `id` (which user runs it), a stand-in
# apt-get that records its calls and installs nothing (no run can change this machine), and a stand-in
# sudo when asked for.
set -euo pipefail
script="$(cd "$(dirname "$0")" && pwd)/test-prerequisites.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# run <uid> <tool left out, or -> [with-sudo] [VAR=value...]: runs the script; sets $status.
run() {
  local uid=$1 left_out=$2 bin="$tmp/bin" tool
  shift 2
  rm -rf "$bin" "$tmp/apt-get.log"
  mkdir "$bin"
  for tool in bash openssl unshare make g++ python3 janus-pp-rec ffmpeg ffprobe; do
    [ "$tool" = "$left_out" ] || ln -s "$(command -v "$tool")" "$bin/$tool"
  done
  printf '#!/bin/sh\necho %s\n' "$uid" >"$bin/id"
  printf '#!/bin/sh\necho "$*" >>%s/apt-get.log\n' "$tmp" >"$bin/apt-get"
  chmod +x "$bin/id" "$bin/apt-get"
  if [ "${1:-}" = with-sudo ]; then
    printf '#!/bin/sh\n' >"$bin/sudo"
    chmod +x "$bin/sudo"
    shift
  fi
  status=0
  env -i PATH="$bin" "$@" "$script" >"$tmp/out" 2>&1 || status=$?
}

expect() { # <what> <test...>
  if "${@:2}"; then
    echo "ok    $1"
  else
    echo "FAIL  $1"
    sed 's/^/      | /' "$tmp/out"
    failures=$((failures + 1))
  fi
}
says() { grep -qF -- "$1" "$tmp/out"; }
apt_calls() { cat "$tmp/apt-get.log" 2>/dev/null || true; }

run 0 -
expect 'with everything there, it passes silently and calls no apt-get' \
  test "$status" = 0 -a ! -s "$tmp/out" -a -z "$(apt_calls)"

run 1000 openssl
expect 'without openssl, as a user, it stops' test "$status" != 0
expect '... naming the tool and its package' says 'openssl            openssl (on PATH)'
expect '... and the command that installs it' \
  says '  apt-get update && apt-get install -y --no-install-recommends openssl'
expect '... without calling apt-get' test -z "$(apt_calls)"

run 1000 openssl with-sudo
expect '... with sudo there, the command uses it' \
  says '  sudo apt-get update && sudo apt-get install -y --no-install-recommends openssl'

run 0 - REDIS_SERVER=/nowhere/redis-server INSTALL_PREREQUISITES=0
expect 'without redis-server, as root with INSTALL_PREREQUISITES=0, it stops' test "$status" != 0
expect '... naming the path the tests use and its package' \
  says 'redis-server       /nowhere/redis-server (or set REDIS_SERVER to its path)'
expect '... and the command that installs it' \
  says '  apt-get update && apt-get install -y --no-install-recommends redis-server'
expect '... without calling apt-get' test -z "$(apt_calls)"

run 0 unshare JANUS_BIN=/nowhere/janus
expect 'without unshare and janus, as root, it calls apt-get update once' \
  test "$(apt_calls | head -n 1)" = 'update -qq'
expect '... then installs both packages, without recommends' \
  test "$(apt_calls | tail -n +2)" = 'install -y -qq --no-install-recommends janus util-linux'
expect '... and when they are still missing after it (a stand-in apt-get), says so and stops' \
  test "$status" != 0 -a -n "$(grep -F 'still missing' "$tmp/out")"

if [ "$failures" != 0 ]; then
  echo "$failures failed"
  exit 1
fi
