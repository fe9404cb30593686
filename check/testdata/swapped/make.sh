#!/bin/sh
# Makes swapped.pdf: the Chinese paragraphs of ../library with their six commonest characters each
# held as the next of them (gen), the font drawing each held character with the glyph of the one it
# stands for (the CIDToGIDMap of internal/synth's PDF, whose ToUnicode map is the identity). A
# reader sees the library's text; a checker reads the swapped one, as through a font that "字体加密"
# tools make for a few common characters. Needs go, qpdf, python3.
set -e
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd gen && go run . "$tmp/plain.pdf") >"$tmp/pairs"
qpdf --qdf --object-streams=disable "$tmp/plain.pdf" "$tmp/q.pdf"
python3 - "$tmp/q.pdf" "$tmp/pairs" "$tmp/q2.pdf" <<'PY'
import re, sys
data = open(sys.argv[1], 'rb').read()
obj = re.search(rb'/CIDToGIDMap (\d+) 0 R', data).group(1)
m = re.search(rb'\n' + obj + rb' 0 obj\n.*?stream\n', data, re.S)
start = m.end()
end = data.index(b'endstream', start)
old = data[start:end]
new = bytearray(old)
for line in open(sys.argv[2]):
    shown, held = map(int, line.split())
    new[2 * held:2 * held + 2] = old[2 * shown:2 * shown + 2]
open(sys.argv[3], 'wb').write(data[:start] + bytes(new) + data[end:])
PY
fix-qdf "$tmp/q2.pdf" >"$tmp/q3.pdf"
qpdf "$tmp/q3.pdf" swapped.pdf
