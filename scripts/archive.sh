#!/usr/bin/env bash
# Scores the thesis sets of the development set inside an archive, as a school's library holds its
# theses: among N unrelated documents (benchgen -archive: articles, reports and other schools'
# theses, each with its own cover and declarations). Each set's library is added to a copy of the
# archive's library, every submission is checked against it and scored by score.py beside the same
# set checked against its own library alone. Fails when a template paragraph is flagged inside the
# archive, or when recall or precision is lower there than alone. The scores alone are taken from
# EVAL_OUT/SET/score.txt when scripts/eval.sh left them there (make test), else made here.
#   scripts/archive.sh [BINARY [DEVSET [N]]]
set -euo pipefail
bin=${1:-bin/thesischeck}
devset=${2:-../shared/devset}
n=${3:-2000}
out=${ARCHIVE_OUT:-$(mktemp -d)}
mkdir -p "$out"
# Reports are signed: with a key of this run, never the user's own.
export XDG_CONFIG_HOME="$out/config"
${GO:-go} build -o "$out/benchgen" ./scripts/benchgen
rm -rf "$out/archive" "$out/archive-lib"
"$out/benchgen" -archive "$out/archive" -n "$n" -docx 10 >"$out/archive.log"
"$bin" library add --library "$out/archive-lib" "$out/archive" >>"$out/archive.log" 2>&1 || {
	echo "archive: library add failed:"; cat "$out/archive.log"; exit 1; }
status=0
found=0
score() { # score SET LIBRARY DIR: the checks run on every core (each reads the library only)
	local rep="$3/reports"
	rm -rf "$3"
	mkdir -p "$rep"
	printf '%s\0' "$devset/$1"/submissions/* | BIN="$bin" LIB="$2" REP="$rep" SET="$1" xargs -0 -P "$(nproc)" -I{} sh -c '
		f="$1"; stem=$(basename "${f%.*}")
		"$BIN" check --library "$LIB" --json "$REP/$stem.json" "$f" >"$REP/$stem.log" 2>&1 || {
			echo "archive $SET: check $f failed:"; cat "$REP/$stem.log"; exit 1; }' sh {} || return 1
	python3 "$devset/score.py" "$devset/$1/truth.json" "$rep" >"$3/score.txt"
}
for set in zh-thesis en-thesis zh-wild en-wild; do
	[ -d "$devset/$set" ] || continue
	found=$((found + 1))
	alone="$out/$set/alone" inside="$out/$set/inside"
	rm -rf "$out/$set"
	mkdir -p "$out/$set"
	alone_score="${EVAL_OUT:-/nonexistent}/$set/score.txt"
	if [ ! -f "$alone_score" ]; then
		"$bin" library add --library "$alone/library" "$devset/$set/library" >"$out/$set/add.log" 2>&1
		score "$set" "$alone/library" "$alone/score" || { status=1; continue; }
		alone_score="$alone/score/score.txt"
	fi
	cp -r "$out/archive-lib" "$inside-library"
	"$bin" library add --library "$inside-library" "$devset/$set/library" >>"$out/$set/add.log" 2>&1
	score "$set" "$inside-library" "$inside/score" || { status=1; continue; }
	rm -rf "$inside-library"
	a=$(grep '^SUMMARY' "$alone_score")
	b=$(grep '^SUMMARY' "$inside/score/score.txt")
	echo "$set alone:  $a"
	echo "$set inside: $b"
	python3 - "$set" "$n" "$a" "$b" <<'PY' || status=1
import re, sys
name, n, alone, inside = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
va, vb = dict(re.findall(r'(\w+)=([0-9.]+)', alone)), dict(re.findall(r'(\w+)=([0-9.]+)', inside))
bad = []
for k in ('recall', 'precision'):
    if float(vb[k]) < float(va[k]):
        bad.append('%s %s inside the archive, %s alone' % (k, vb[k], va[k]))
m = re.search(r'template_flagged=(\d+)/', inside)
if not m or int(m.group(1)) > 0:
    bad.append('template_flagged %s (bar 0)' % (m.group(1) if m else '?'))
print('%s in %s documents: %s' % (name, n, 'FAIL: ' + '; '.join(bad) if bad else 'pass'))
sys.exit(1 if bad else 0)
PY
done
if [ $found -eq 0 ]; then
	echo "archive: no thesis set under $devset" >&2
	exit 1
fi
exit $status
