#!/usr/bin/env bash
# npm test: every check and every test suite, ending in one line "N passed, N failed, N skipped".
# The suites run inside a private D-Bus session with an unlocked gnome-keyring, so the
# keychain tests use a real Secret Service; without those programs they run outside it
# and the keychain tests report the missing Secret Service instead.
set -euo pipefail
cd "$(dirname "$0")/.."

# The type check, the lint, the build, the unused-code check (knip: exports, files and
# exported types nobody imports) and the formatter's check (Prettier: an unformatted file fails) side by side (each is mostly one core's work; none reads what
# another writes: the bundled config the build writes for a moment is ignored by the lint and the format check), each
# said once all are done; any failing stops the run.
checks=$(mktemp -d)
npm run --silent typecheck >"$checks/typecheck" 2>&1 & typecheck=$!
npm run --silent lint >"$checks/lint" 2>&1 & lint=$!
npm run --silent build >"$checks/build" 2>&1 & build=$!
npm run --silent unused >"$checks/unused" 2>&1 & unused=$!
npm run --silent format:check >"$checks/format" 2>&1 & format=$!
typecheck_status=0; wait $typecheck || typecheck_status=$?
lint_status=0; wait $lint || lint_status=$?
build_status=0; wait $build || build_status=$?
unused_status=0; wait $unused || unused_status=$?
format_status=0; wait $format || format_status=$?
echo "== typecheck"; cat "$checks/typecheck"
echo "== lint"; cat "$checks/lint"
echo "== build"; [ $build_status -ne 0 ] && cat "$checks/build"
echo "== unused"; cat "$checks/unused"
echo "== format"; cat "$checks/format"
rm -rf "$checks"
if [ $typecheck_status -ne 0 ] || [ $lint_status -ne 0 ] || [ $build_status -ne 0 ] || [ $unused_status -ne 0 ] || [ $format_status -ne 0 ]; then echo "The type check, the lint, the build, the unused-code check or the format check failed (see above; npm run format formats the tree)." >&2; exit 1; fi

if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  # A throwaway keyring in a temporary home, unlocked with a throwaway password.
  keyring_home=$(mktemp -d)
  trap 'rm -rf "$keyring_home"' EXIT
  exec env HOME="$keyring_home" XDG_DATA_HOME="$keyring_home/.local/share" REAL_HOME="$HOME" \
    dbus-run-session -- bash -c 'echo -n test-keyring-pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec node scripts/run-suites.mjs'
fi
exec node scripts/run-suites.mjs
