#!/usr/bin/env bash
# npm test: every check and every test suite, ending in one line "N passed, N failed, N skipped".
# The suites run inside a private D-Bus session with an unlocked gnome-keyring, so the
# keychain tests use a real Secret Service; without those programs they run outside it
# and the keychain tests report the missing Secret Service instead.
set -euo pipefail
cd "$(dirname "$0")/.."

# The type check and the build side by side (none reads what the other writes), each said once
# both are done; either failing stops the run. The lint runs beside the test suites instead
# (scripts/run-suites.mjs): its type-aware rules spend about 80 s of mostly one core, which the
# end-to-end suite, waiting on its browsers about a third of the time, leaves free.
checks=$(mktemp -d)
npm run --silent typecheck >"$checks/typecheck" 2>&1 & typecheck=$!
npm run --silent build >"$checks/build" 2>&1 & build=$!
typecheck_status=0; wait $typecheck || typecheck_status=$?
build_status=0; wait $build || build_status=$?
echo "== typecheck"; cat "$checks/typecheck"
echo "== build"; [ $build_status -ne 0 ] && cat "$checks/build"
rm -rf "$checks"
if [ $typecheck_status -ne 0 ] || [ $build_status -ne 0 ]; then echo "The type check or the build failed (see above)." >&2; exit 1; fi

if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  # A throwaway keyring in a temporary home, unlocked with a throwaway password.
  keyring_home=$(mktemp -d)
  trap 'rm -rf "$keyring_home"' EXIT
  exec env HOME="$keyring_home" XDG_DATA_HOME="$keyring_home/.local/share" REAL_HOME="$HOME" \
    dbus-run-session -- bash -c 'echo -n test-keyring-pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec node scripts/run-suites.mjs'
fi
exec node scripts/run-suites.mjs
