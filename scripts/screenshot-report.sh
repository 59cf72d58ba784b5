#!/usr/bin/env bash
# Renders a report.html in headless Chromium (Debian's `chromium`) and writes a PNG of the whole page beside it.
set -euo pipefail
usage() {
  cat <<'TEXT'
Usage: scripts/screenshot-report.sh [REPORT_HTML] [WIDTH]
       npm run report:screenshot -- [REPORT_HTML] [WIDTH]

Renders REPORT_HTML (default: reports/latest/report.html) in headless Chromium at WIDTH
CSS pixels (default: 1280) and writes the whole page, however tall, as a PNG beside it
(reports/latest/report.png). Needs Debian's chromium (apt-get install chromium); the
CHROMIUM environment variable names another binary.
TEXT
}
case "${1:-}" in -h | --help) usage; exit 0 ;; -*) usage >&2; exit 2 ;; esac
[ $# -le 2 ] || { usage >&2; exit 2; }
html="${1:-reports/latest/report.html}"
# "1280,1600" (the old width,height) still works: the height is now the page's own.
width="${2:-1280}"
width="${width%%,*}"
[[ "$width" =~ ^[0-9]+$ ]] && [ "$width" -ge 100 ] || { echo "WIDTH must be a number of pixels, 100 or more, got \"$width\"" >&2; exit 2; }
chromium="${CHROMIUM:-chromium}"
command -v "$chromium" >/dev/null || { echo "$chromium is not installed (apt-get install chromium)" >&2; exit 2; }
[ -f "$html" ] || { echo "no report at $html (run npm run conformance first)" >&2; exit 2; }
out="${html%.html}.png"
CHROMIUM="$chromium" node "$(dirname "${BASH_SOURCE[0]}")/screenshot-page.js" "$html" "$out" "$width"
echo "$out"
