#!/bin/sh
# Makes tides-blank.pdf: two paragraphs of ../library/en-tides.txt with two junk words typed after
# each word in a font whose glyphs are empty and take no room (DejaVu Sans with its outlines and
# advances removed, as Adobe Blank is), saved as PDF by LibreOffice 7.4. The page shows the copied
# paragraphs as they are; the text layer holds the junk between their words. And
# tides-blank-wide.pdf: the same with a font whose empty glyphs keep their advances (the junk shows
# as wide gaps). Needs soffice, python3 with fontTools (Debian: python3-fonttools) and DejaVu Sans.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/fonts"
/usr/bin/python3 - "$tmp/fonts" <<'PY'
import sys
from fontTools.ttLib import TTFont
from fontTools.pens.ttGlyphPen import TTGlyphPen
for name, keep in (('BlankTest', False), ('BlankWide', True)):
    f = TTFont('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf')
    for g in f.getGlyphOrder():
        f['glyf'][g] = TTGlyphPen(None).glyph()
        if not keep:
            f['hmtx'][g] = (0, 0)
    for rec in f['name'].names:
        if rec.nameID in (1, 4, 6, 16):
            rec.string = name
    for t in ('GPOS', 'GSUB', 'kern', 'hdmx', 'LTSH', 'VDMX'):
        if t in f:
            del f[t]
    f.save('%s/%s.ttf' % (sys.argv[1], name))
PY
cat >"$tmp/fonts.conf" <<CONF
<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include><dir>$tmp/fonts</dir><cachedir>$tmp/cache</cachedir></fontconfig>
CONF
for font in BlankTest BlankWide; do
python3 - "$tmp/$font.docx" "$font" <<'PY'
import random, sys, zipfile
from xml.sax.saxutils import escape
t = open('../library/en-tides.txt', encoding='utf-8').read().split('\n\n')
paras = [p.strip() for p in t if len(p) > 300][:2]
junk = 'zephyr quixotic bramble lattice obsidian fjord nimbus cobalt wistful garnet'.split()
rnd = random.Random(1)
def run(text, font):
    return ('<w:r><w:rPr><w:rFonts w:ascii="%s" w:hAnsi="%s"/></w:rPr><w:t xml:space="preserve">%s</w:t></w:r>'
            % (font, font, escape(text)))
body = ''
for p in paras:
    body += '<w:p>' + ''.join(run(w + ' ', 'DejaVu Sans') + run(rnd.choice(junk) + ' ' + rnd.choice(junk) + ' ', sys.argv[2])
                              for w in p.split()) + '</w:p>'
w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
z = zipfile.ZipFile(sys.argv[1], 'w')
z.writestr('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
z.writestr('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
z.writestr('word/document.xml', '<?xml version="1.0" encoding="UTF-8"?><w:document %s><w:body>%s</w:body></w:document>' % (w, body))
z.close()
PY
FONTCONFIG_FILE="$tmp/fonts.conf" soffice --headless --convert-to pdf --outdir "$tmp" "$tmp/$font.docx" >/dev/null
pdffonts "$tmp/$font.pdf" | grep -q "$font"
done
cp "$tmp/BlankTest.pdf" tides-blank.pdf
cp "$tmp/BlankWide.pdf" tides-blank-wide.pdf
