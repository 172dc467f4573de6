#!/usr/bin/env bash
# npm test: every check and every test suite, ending in one line "N passed, N failed, N skipped".
# The suites run inside a private D-Bus session with an unlocked gnome-keyring, so the
# keychain tests use a real Secret Service; without those programs they run outside it
# and the keychain tests report the missing Secret Service instead.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== typecheck"; npm run --silent typecheck
echo "== lint"; npm run --silent lint
echo "== build"; npm run --silent build >/dev/null

if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  # A throwaway keyring in a temporary home, unlocked with a throwaway password.
  keyring_home=$(mktemp -d)
  trap 'rm -rf "$keyring_home"' EXIT
  exec env HOME="$keyring_home" XDG_DATA_HOME="$keyring_home/.local/share" REAL_HOME="$HOME" \
    dbus-run-session -- bash -c 'echo -n test-keyring-pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec node scripts/run-suites.mjs'
fi
exec node scripts/run-suites.mjs
