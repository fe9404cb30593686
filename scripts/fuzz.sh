#!/usr/bin/env bash
# Runs every Fuzz target of the module for a while each: scripts/fuzz.sh [FUZZTIME] (default 30s).
# `go test -fuzz` takes one package and one target at a time, hence the loop.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-30s}
export CGO_ENABLED=1

# `go test -list` prints a package's matching test names, then a line "ok <pkg> <time>".
targets=$(go test -list '^Fuzz' ./... | awk '
	/^Fuzz/ { names[n++] = $1; next }
	/^ok/   { for (i = 0; i < n; i++) print $2, names[i]; n = 0 }')

if [ -z "$targets" ]; then
	echo "fuzz: no Fuzz targets"
	exit 0
fi
while read -r pkg name; do
	echo "fuzz: $pkg $name for $fuzztime"
	go test -run '^$' -fuzz "^${name}\$" -fuzztime="$fuzztime" "$pkg"
done <<<"$targets"
