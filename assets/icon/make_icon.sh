#!/usr/bin/env bash
# Regenerates assets/icon.png from assets/icon/make_icon.go. The generator runs in a throwaway module
# so that it works whether or not the main module already requires golang.org/x/image.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's#^//go:build ignore##' "$root/assets/icon/make_icon.go" >"$tmp/main.go"
printf 'module makeicon\n\ngo 1.26\n\nrequire golang.org/x/image v0.40.0\n' >"$tmp/go.mod"
(cd "$tmp" && GOFLAGS=-mod=mod go build -o make_icon .)
cd "$root" && "$tmp/make_icon"
echo "wrote $root/assets/icon.png"
