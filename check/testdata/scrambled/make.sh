#!/bin/sh
# Makes wetland.pdf (three paragraphs of ../library/zh-wetland.txt, as LibreOffice 7.4 writes a
# PDF of them) and wetland-scrambled.pdf: the same file with its fonts' ToUnicode maps permuted
# among their Chinese characters, as "font encryption" tools do. The glyphs are unchanged, so a
# reader shows the same page; a checker reads other characters. Needs soffice, qpdf, python3.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/wetland.txt" <<'PY'
import sys
t = open('../library/zh-wetland.txt', encoding='utf-8').read().split('\n\n')
body = [p for p in t if p.startswith(('湿地被称为', '芦苇', '湿地还是'))]
open(sys.argv[1], 'w', encoding='utf-8').write('城市湿地\n\n' + '\n\n'.join(body) + '\n')
PY
soffice --headless --convert-to pdf --outdir "$tmp" "$tmp/wetland.txt" >/dev/null
cp "$tmp/wetland.pdf" wetland.pdf
qpdf --qdf --object-streams=disable wetland.pdf "$tmp/q.pdf"
python3 - "$tmp/q.pdf" "$tmp/q2.pdf" <<'PY'
import random, re, sys
data = open(sys.argv[1], 'rb').read()
pat = re.compile(rb'(<[0-9A-F]{2}> )<([0-9A-F]{4})>')
han = [m.group(2) for m in pat.finditer(data) if 0x4E00 <= int(m.group(2), 16) <= 0x9FFF]
perm = han[:]
random.Random(7).shuffle(perm)
to = dict(zip(han, perm))
open(sys.argv[2], 'wb').write(pat.sub(lambda m: m.group(1) + b'<' + to.get(m.group(2), m.group(2)) + b'>', data))
PY
fix-qdf "$tmp/q2.pdf" >"$tmp/q3.pdf"
qpdf "$tmp/q3.pdf" wetland-scrambled.pdf
