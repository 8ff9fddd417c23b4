#!/bin/sh
# Runs a command inside a throwaway network namespace: loopback, and a veth pair whose end v0 has
# 10.200.0.1/24. Janus gathers no ICE candidates on loopback, so the live journeys run Janus, the
# servers, coturn and Chromium in here, where v0 carries the media. Root, or unprivileged user namespaces.
set -eu
# ip is in /usr/sbin, which a user's PATH on Debian leaves out.
PATH=$PATH:/usr/sbin:/sbin
[ "$(id -u)" -eq 0 ] && userns= || userns=-r
exec unshare $userns -n sh -c '
  ip link set lo up
  ip link add v0 type veth peer name v1
  ip addr add 10.200.0.1/24 dev v0
  ip link set v0 up
  ip link set v1 up
  exec "$@"' in-netns "$@"
