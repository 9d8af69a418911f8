#!/usr/bin/env bash
# Install what the generated-client tests (tests/clients/) run on, from Debian's
# packages: Node.js with npm (openapi-typescript, tsc, @redocly/cli; the packages
# themselves come from the npm registry by `npm ci`) and a Java runtime (17+) for
# openapi-generator, whose jar is in the PyPI package `openapi-generator-cli`.
# Without root, or when apt fails, those tests skip with a reason.
set -u
missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "clients_setup: ${missing[*]} missing and this is not root; generated-client tests will skip" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y "${missing[@]}" >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1 || true
    apt-get install -y "${missing[@]}" >/dev/null 2>&1 \
        || echo "clients_setup: apt-get install ${missing[*]} failed; generated-client tests will skip" >&2
fi
exit 0
