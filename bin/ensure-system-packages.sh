#!/usr/bin/env bash
# Debian packages the project needs beyond npm: Chromium (PDF rendering, browser tests),
# poppler-utils (pdfsig) and qpdf (checking our PDFs). Installs what is missing when it can
# (root with apt-get); otherwise stops at once with the exact command to run.
#   --optional   only warn (used by `npm start`: the demo runs without them)
set -euo pipefail
optional=false
[ "${1:-}" = "--optional" ] && optional=true

declare -A provides=([chromium]=chromium [pdfsig]=poppler-utils [qpdf]=qpdf)
missing=()
for cmd in "${!provides[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${provides[$cmd]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0

command="apt-get update && apt-get install -y ${missing[*]}"
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing missing Debian packages: ${missing[*]}" >&2
  if (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >&2; then exit 0; fi
  echo "apt-get failed." >&2
fi
if $optional; then
  echo "Note: ${missing[*]} not installed; PDF rendering with Chromium will be unavailable. To install: sudo sh -c '$command'" >&2
  exit 0
fi
echo "Missing Debian packages: ${missing[*]}. Run: sudo sh -c '$command'" >&2
exit 1
