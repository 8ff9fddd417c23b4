#!/usr/bin/env bash
# The first step of `npm test`: every program the tests start, checked before any test runs, in a few
# milliseconds. As root with apt (a fresh CI machine), what is missing is installed; otherwise, or with
# INSTALL_PREREQUISITES=0, it is named with the apt-get command that installs it, and the run stops.
# The paths are the tests' own, and so are the variables that point a test elsewhere (CHROMIUM_PATH…).
set -euo pipefail

packages=() # Debian packages to install, each once
report=()   # what is missing, one line each

missing() { # package, what is missing
  report+=("$(printf '  %-18s %s' "$1" "$2")")
  [[ " ${packages[*]} " == *" $1 "* ]] || packages+=("$1")
}
need_file() { # package, path, the variable that points the tests elsewhere
  [ -x "$2" ] || missing "$1" "$2 (or set $3 to its path)"
}
need_command() { # package, command
  command -v "$2" >/dev/null || missing "$1" "$2 (on PATH)"
}

check() {
  packages=()
  report=()
  # npm install itself: it compiles one native module (unix-dgram, for Janus's client).
  need_command build-essential make
  need_command build-essential g++
  need_command python3 python3
  # Browser journeys: headless Chromium, and fonts for it to lay text out with.
  need_file chromium "${CHROMIUM_PATH:-/usr/bin/chromium}" CHROMIUM_PATH
  [ -d /usr/share/fonts/truetype/liberation ] || missing fonts-liberation /usr/share/fonts/truetype/liberation
  # Server tests: a throwaway PostgreSQL 15 (and its pg_dump and pg_restore for the backup guide), Redis.
  local postgres_bin=${POSTGRES_BIN:-/usr/lib/postgresql/15/bin} tool
  for tool in initdb postgres pg_ctl pg_dump pg_restore; do
    if [ ! -x "$postgres_bin/$tool" ]; then
      missing postgresql-15 "$postgres_bin/{initdb,postgres,pg_ctl,pg_dump,pg_restore} (or set POSTGRES_BIN to their folder)"
      break
    fi
  done
  need_file redis-server "${REDIS_SERVER:-/usr/bin/redis-server}" REDIS_SERVER
  # The deployment test: nginx in front of two instances, with a certificate of its own.
  need_file nginx "${NGINX_BIN:-/usr/sbin/nginx}" NGINX_BIN
  need_command openssl openssl
  # Live journeys: Janus and coturn in a network namespace of their own (scripts/in-netns.sh).
  need_file janus "${JANUS_BIN:-/usr/bin/janus}" JANUS_BIN
  need_file coturn "${TURNSERVER_BIN:-/usr/bin/turnserver}" TURNSERVER_BIN
  # Replays: Janus's recordings converted (janus-pp-rec), and recordings joined and measured (ffmpeg).
  need_command janus-tools janus-pp-rec
  need_command ffmpeg ffmpeg
  need_command ffmpeg ffprobe
  need_command iproute2 ip
  need_command util-linux unshare
  # As root, PostgreSQL runs as its own user (initdb refuses root).
  if [ "$uid" -eq 0 ]; then need_command util-linux runuser; fi
}

# As scripts/in-netns.sh: a user's PATH on Debian leaves out where ip lives.
PATH=$PATH:/usr/sbin:/sbin
uid=$(id -u)
check

if [ ${#packages[@]} -gt 0 ]; then
  if [ "$uid" -eq 0 ] && [ "${INSTALL_PREREQUISITES:-1}" != 0 ] && command -v apt-get >/dev/null; then
    echo "npm test: installing what the tests need: ${packages[*]}" >&2
    installed=("${packages[@]}")
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${installed[@]}"
    # The tests start their own PostgreSQL, Redis, Janus, coturn and nginx, on free ports and from
    # folders of their own: the services the packages have just started (package:service) stay off.
    if [ -d /run/systemd/system ]; then
      for pair in postgresql-15:postgresql redis-server:redis-server janus:janus coturn:coturn nginx:nginx; do
        if [[ " ${installed[*]} " == *" ${pair%%:*} "* ]]; then
          systemctl disable --now "${pair#*:}" >/dev/null 2>&1 || true
        fi
      done
    fi
    check
    if [ ${#packages[@]} -gt 0 ]; then
      printf '%s\n' 'npm test: apt-get ran, and these are still missing:' "${report[@]}" >&2
      exit 1
    fi
  else
    sudo=
    if [ "$uid" -ne 0 ] && command -v sudo >/dev/null; then sudo='sudo '; fi
    {
      echo 'npm test needs programs that are not installed:'
      printf '%s\n' "${report[@]}"
      echo 'Install them, then run npm test again (on Debian; run as root, npm test installs them itself):'
      echo "  ${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${packages[*]}"
    } >&2
    exit 1
  fi
fi

# Without root, the live journeys' network namespace needs unprivileged user namespaces.
if [ "$uid" -ne 0 ] && ! unshare -r -n true 2>/dev/null; then
  {
    echo 'npm test: the live journeys run in a network namespace of their own (scripts/in-netns.sh),'
    echo 'which needs root or unprivileged user namespaces: run npm test as root, or allow them'
    echo '(sysctl kernel.unprivileged_userns_clone=1; on Ubuntu kernel.apparmor_restrict_unprivileged_userns=0).'
  } >&2
  exit 1
fi
