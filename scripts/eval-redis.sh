#!/usr/bin/env bash
# Checks the development set against libraries on a Redis server and compares every report with the
# one scripts/eval.sh made against a library folder: the same figures (within 0.005) and the same
# sources, or it fails. It starts a redis-server of its own on a free port of the loopback, with its
# data in a temporary folder, and stops it at the end.
#   scripts/eval-redis.sh BINARY EVAL_OUT [DEVSET]     EVAL_OUT: the folder scripts/eval.sh wrote
set -euo pipefail
bin=$1
folder=$2
devset=${3:-../shared/devset}
out=$(mktemp -d "${TMPDIR:-/tmp}/thesischeck-eval-redis.XXXXXX")
export XDG_CONFIG_HOME="$out/config"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --dir "$out" --save "" --appendonly no --daemonize no >"$out/redis.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 50); do
	redis-cli -p "$port" ping >/dev/null 2>&1 && break
	sleep 0.1
done
redis-cli -p "$port" ping >/dev/null || { echo "eval-redis: redis-server did not start:"; cat "$out/redis.log"; exit 1; }
status=0
db=0
for set in zh en zh-thesis en-thesis zh-wild en-wild; do
	[ -d "$devset/$set" ] || continue
	[ -d "$folder/$set/reports" ] || { echo "eval-redis $set: no folder reports in $folder/$set (run scripts/eval.sh with EVAL_OUT first)"; status=1; continue; }
	lib="redis://127.0.0.1:$port/$db"
	db=$((db + 1))
	rep="$out/$set/reports"
	mkdir -p "$rep"
	"$bin" library add --library "$lib" "$devset/$set/library" >"$out/$set/add.log" 2>&1 || {
		echo "eval-redis $set: library add failed:"; cat "$out/$set/add.log"; status=1; continue; }
	for f in "$devset/$set"/submissions/*; do
		stem=$(basename "${f%.*}")
		"$bin" check --library "$lib" --json "$rep/$stem.json" "$f" >"$rep/$stem.log" 2>&1 || {
			echo "eval-redis $set: check $f failed:"; cat "$rep/$stem.log"; status=1; }
	done
	python3 - "$set" "$folder/$set/reports" "$rep" <<'PY' || status=1
import json, os, sys
name, a, b = sys.argv[1:]
figures = ('similarity', 'similarity_excluding_quotes', 'max_single_source')
bad, n, worst = [], 0, 0.0
for f in sorted(os.listdir(a)):
    if not f.endswith('.json'):
        continue
    n += 1
    fa = json.load(open(os.path.join(a, f)))
    try:
        fb = json.load(open(os.path.join(b, f)))
    except OSError:
        bad.append('%s: no report against Redis' % f)
        continue
    for k in figures:
        d = abs(fa[k] - fb[k])
        worst = max(worst, d)
        if d > 0.005:
            bad.append('%s: %s %.4f (folder) vs %.4f (Redis)' % (f, k, fa[k], fb[k]))
    sa = [os.path.basename(s['path']) for s in fa.get('sources') or []]
    sb = [os.path.basename(s['path']) for s in fb.get('sources') or []]
    if sorted(sa) != sorted(sb):
        bad.append('%s: sources %s (folder) vs %s (Redis)' % (f, sa, sb))
print('%s: Redis vs folder: %d reports, largest figure difference %.4f: %s' % (name, n, worst, 'FAIL: ' + '; '.join(bad) if bad else 'pass'))
sys.exit(1 if bad or n == 0 else 0)
PY
done
exit $status
