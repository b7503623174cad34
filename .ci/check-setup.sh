#!/usr/bin/env bash
# The README's setup command and .ci/run install the same packages: both call
# scripts/setup.sh, and no other page or script installs any of its packages
# by hand. Then scripts/setup.sh itself is run against stand-ins for apt-get,
# sudo and id: as root it calls apt-get directly, as a user through sudo, and
# as a user without sudo it stops with a message before installing anything.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "check-setup: $*" >&2; exit 1; }

readme_command='scripts/setup.sh && swift run -c release sleet demo'
grep -qxF "$readme_command" README.md || fail "README.md lacks the setup line: $readme_command"
grep -qE '^scripts/setup\.sh( |$)' .ci/run || fail ".ci/run does not call scripts/setup.sh"

mapfile -t packages < <(scripts/setup.sh --list)
[ "${#packages[@]}" -gt 0 ] || fail "scripts/setup.sh --list printed no package"

# Any other `apt-get install` of one of these packages is a second list.
while IFS= read -r hit; do
  for p in "${packages[@]}"; do
    if grep -qE "(^|[[:space:]])${p//./\\.}([[:space:]]|$)" <<<"${hit#*:*:}"; then
      fail "$hit installs '$p' by hand: call scripts/setup.sh instead"
    fi
  done
done < <(git ls-files | grep -v '^scripts/setup\.sh$' | xargs grep -nI 'apt-get install' 2>/dev/null || true)

# Run the script against stand-ins that log what would run.
shims=$(mktemp -d)
trap 'rm -rf "$shims"' EXIT
cat >"$shims/apt-get" <<'SHIM'
#!/bin/bash
echo "apt-get $*" >>"$SETUP_LOG"
SHIM
cat >"$shims/sudo" <<'SHIM'
#!/bin/bash
echo "sudo:" >>"$SETUP_LOG"
exec "$@"
SHIM
cat >"$shims/id" <<'SHIM'
#!/bin/bash
echo "$SETUP_UID"
SHIM
cat >"$shims/swift" <<'SHIM'
#!/bin/bash
SHIM
chmod +x "$shims"/*
bash=$(command -v bash)
expected_install="apt-get install -y -qq ${packages[*]}"

run_setup() {  # $1 = uid, $2 = PATH for the script
  : >"$shims/log"
  SETUP_LOG="$shims/log" SETUP_UID="$1" PATH="$2" "$bash" scripts/setup.sh
}

run_setup 0 "$shims" || fail "as root, scripts/setup.sh failed"
[ "$(cat "$shims/log")" = $'apt-get update -qq\n'"$expected_install" ] ||
  fail "as root, expected apt-get without sudo; it ran: $(cat "$shims/log")"

run_setup 1000 "$shims" || fail "as a user with sudo, scripts/setup.sh failed"
[ "$(cat "$shims/log")" = $'sudo:\napt-get update -qq\nsudo:\n'"$expected_install" ] ||
  fail "as a user, expected apt-get through sudo; it ran: $(cat "$shims/log")"

# Where apt knows no `chromium` (Ubuntu), the rest is installed and the script says so.
ubuntu=$(mktemp -d -p "$shims")
cp "$shims/apt-get" "$shims/id" "$shims/swift" "$ubuntu/"
printf '#!/bin/bash\n[ "$2" != chromium ]\n' >"$ubuntu/apt-cache"
chmod +x "$ubuntu/apt-cache"
message=$(run_setup 0 "$ubuntu" 2>&1) || fail "without a chromium package, scripts/setup.sh failed: $message"
without_chromium=$(printf '%s\n' "${packages[@]}" | grep -vx chromium | tr '\n' ' ')
[ "$(cat "$shims/log")" = $'apt-get update -qq\napt-get install -y -qq '"${without_chromium% }" ] ||
  fail "without a chromium package, expected the rest installed; it ran: $(cat "$shims/log")"
grep -q "DemoBrowserTests" <<<"$message" || fail "without a chromium package, the message does not name the browser test"

nosudo=$(mktemp -d -p "$shims")
cp "$shims/apt-get" "$shims/id" "$shims/swift" "$nosudo/"
if message=$(run_setup 1000 "$nosudo" 2>&1); then
  fail "as a user without sudo, scripts/setup.sh succeeded"
fi
[ ! -s "$shims/log" ] || fail "as a user without sudo, it still ran: $(cat "$shims/log")"
grep -q "no sudo" <<<"$message" || fail "as a user without sudo, the message does not say so: $message"

echo "check-setup: README.md and .ci/run install the same ${#packages[@]} packages through scripts/setup.sh; root, sudo and no-sudo paths behave"
