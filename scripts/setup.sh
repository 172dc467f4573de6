#!/usr/bin/env bash
# Installs what the app (default) or the test suite (--test) needs on a fresh machine:
# system packages where they are missing (Debian/Ubuntu, as root or through sudo), then
# the npm dependencies from the lock file.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=app
[ "${1:-}" = "--test" ] && mode=test

# The Node.js this use needs, checked first, with what to do when it is too old.
node scripts/check-node.mjs "$mode"

# keytar builds from source: it needs libsecret's headers and a C++ toolchain.
packages=(libsecret-1-dev build-essential python3)
# The tests also need a browser for the end-to-end suite, a Secret Service for the keychain,
# a Japanese font so that the screenshots of the Japanese screens can be read, and systemd's
# tools (systemd-analyze, systemctl) to check the unit files of docs/systemd.
# The suite runs in Chromium's headless shell (lighter than the full browser run headless);
# `npm run ui` and the benchmarks open the full one.
[ "$mode" = test ] && packages+=(chromium chromium-headless-shell gnome-keyring dbus-x11 dbus fonts-ipafont-gothic systemd)
# The ACME hooks are tested with the real clients administrators run (certbot, lego) against
# Let's Encrypt's test CA (pebble), whose HTTPS listener gets a throwaway certificate from openssl.
[ "$mode" = test ] && packages+=(certbot lego pebble openssl)
# Team mode (issue 37) is tested against a real PostgreSQL: the tests start a throwaway cluster
# of their own on loopback (support/postgres.ts) with Debian's server binaries.
[ "$mode" = test ] && packages+=(postgresql)
# BIND itself (named, named-checkzone), which the zone files `dns export --bind` writes are tested with.
[ "$mode" = test ] && packages+=(bind9 bind9-utils)
# The Debian package (scripts/build-deb.ts, issue 52) is built with Debian's own tools, checked by
# lintian, and its man page read with man in tests/integration/debian-package.test.ts.
[ "$mode" = test ] && packages+=(dpkg-dev fakeroot lintian binutils man-db)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing system packages: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo"
  if [ "$(id -u)" -ne 0 ] && [ -z "$sudo" ]; then
    echo "setup: cannot install ${missing[*]}: run this as root or install them with your package manager." >&2
    exit 1
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The test suite never starts the Electron binary (docs/contributing.md), so it does not fetch it.
if [ "$mode" = test ]; then
  export ELECTRON_SKIP_BINARY_DOWNLOAD=1
fi
# Exactly the lock file. rollup is pinned (package.json "overrides") to a version whose every
# platform package the registry serves, so the lock records them all and npm ci accepts it here
# and on any other platform.
npm ci --no-audit --no-fund

# Electron's package fetches its binary only when asked: the app asks now, so that `npm start`
# finds it (not with ELECTRON_SKIP_BINARY_DOWNLOAD=1, which says it cannot or should not).
# A failed fetch says what was fetched and what to try (a mirror, a proxy, npm run ui), not a stack.
if [ "$mode" = app ] && [ -z "${ELECTRON_SKIP_BINARY_DOWNLOAD:-}" ]; then
  node scripts/fetch-electron.mjs setup
fi
