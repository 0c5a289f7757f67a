#!/bin/sh
# The src/ files this branch changes against main (or the ref given), one per line, then their count:
# the proof that a new model family is the checklist's files and no others.
#
#   scripts/family-files.sh [base-ref]
set -eu
base="${1:-main}"
files=$(git diff --name-only "$base...HEAD" -- src)
[ -n "$files" ] && printf '%s\n' "$files"
printf '%s src files changed against %s\n' "$(printf '%s' "$files" | grep -c . || true)" "$base"
