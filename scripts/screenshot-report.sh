#!/usr/bin/env bash
# Renders a report.html in headless Chromium (Debian's `chromium`) and writes a PNG beside it.
# Usage: scripts/screenshot-report.sh [reports/latest/report.html] [width,height]
set -euo pipefail
html="${1:-reports/latest/report.html}"
size="${2:-1280,1600}"
command -v chromium >/dev/null || { echo "chromium is not installed (apt-get install chromium)"; exit 2; }
[ -f "$html" ] || { echo "no report at $html (run npm run conformance first)"; exit 2; }
out="${html%.html}.png"
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --user-data-dir="$profile" --hide-scrollbars \
  --window-size="$size" --screenshot="$(realpath -m "$out")" "file://$(realpath "$html")" >/dev/null 2>&1
echo "$out"
