#!/usr/bin/env bash
# Install Debian's Chromium for the Playwright browser tests (tests/skillgate/dashboard/).
# Never `playwright install`: it downloads a browser build from outside the package
# registries. Without root, or when apt fails, the browser tests skip with a reason.
set -u
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    echo "browser_setup: /usr/bin/chromium is missing and this is not root; browser tests will skip" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y chromium >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1 || true
    apt-get install -y chromium >/dev/null 2>&1 \
        || echo "browser_setup: apt-get install chromium failed; browser tests will skip" >&2
fi
exit 0
