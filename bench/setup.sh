#!/usr/bin/env bash
# Tools the benchmarks drive, from Debian's packages: wrk (load), nginx (a fast
# loopback upstream), hyperfine (command timing). Installed only when missing.
set -euo pipefail
missing=()
command -v wrk >/dev/null || missing+=(wrk)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v hyperfine >/dev/null || missing+=(hyperfine)
if ((${#missing[@]})); then
  if [ "$(id -u)" -ne 0 ]; then
    echo "bench: install ${missing[*]} (apt-get install -y ${missing[*]})" >&2
    exit 1
  fi
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi
