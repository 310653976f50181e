#!/usr/bin/env bash
# Installs what the browser tests (tests/browser.rs) drive: Debian's Chromium and ChromeDriver.
# Run by .ci/run, and by the tests themselves (once a run) when Chromium or ChromeDriver is missing;
# it does nothing when both are there.
set -euo pipefail
if [ -x /usr/bin/chromedriver ] && [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
/usr/bin/chromedriver --version
