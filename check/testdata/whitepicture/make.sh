#!/bin/sh
# Makes tides-white-picture.pdf: three paragraphs of ../library/en-tides.txt with a junk word typed
# white after each word, over a white picture the size of the page placed behind the text, saved
# as PDF by LibreOffice 7.4 (as Word's "Behind Text" picture). The page shows the copied paragraphs
# with gaps; the text layer holds the junk between their words, drawn on the picture, not on the
# page. And tides-covered.pdf: the three paragraphs on page 1, then ../original.txt's paragraphs
# on page 2 under a white picture the size of the page in front of the text (Word's "In Front of
# Text"): a blank page to a reader, text that pads out the figure to a checker. Needs soffice,
# python3 and ImageMagick's convert.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
convert -size 200x260 xc:white "$tmp/white.png"
python3 - "$tmp/white.png" "$tmp/tides-white-picture.fodt" <<'PY'
import base64, random, sys
png = base64.b64encode(open(sys.argv[1], 'rb').read()).decode()
t = open('../library/en-tides.txt', encoding='utf-8').read().split('\n\n')
paras = [p.strip() for p in t if len(p.strip()) > 100][:3]
junk = 'lorem ipsum dolor amet elit tempor magna aliqua veniam nostrud'.split()
random.seed(1)
body = ''.join('<text:p text:style-name="P">' + ''.join(
    w + ' <text:span text:style-name="J">' + random.choice(junk) + ' </text:span>' for w in p.split()) + '</text:p>'
    for p in paras)
ns = ' '.join('xmlns:%s="urn:oasis:names:tc:opendocument:xmlns:%s"' % kv for kv in (
    ('office', 'office:1.0'), ('style', 'style:1.0'), ('text', 'text:1.0'), ('draw', 'drawing:1.0'),
    ('fo', 'xsl-fo-compatible:1.0'), ('svg', 'svg-compatible:1.0')))
open(sys.argv[2], 'w', encoding='utf-8').write(f'''<?xml version="1.0" encoding="UTF-8"?>
<office:document {ns} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:automatic-styles>
<style:style style:name="J" style:family="text"><style:text-properties fo:color="#ffffff"/></style:style>
<style:style style:name="P" style:family="paragraph"><style:text-properties fo:font-size="11pt" style:font-name="DejaVu Sans"/></style:style>
<style:style style:name="fr1" style:family="graphic"><style:graphic-properties style:wrap="run-through" style:run-through="background"
 style:vertical-pos="top" style:vertical-rel="page" style:horizontal-pos="left" style:horizontal-rel="page"/></style:style>
</office:automatic-styles>
<office:body><office:text>
<text:p text:style-name="P"><draw:frame draw:style-name="fr1" draw:name="bg" text:anchor-type="page" text:anchor-page-number="1"
 svg:x="0cm" svg:y="0cm" svg:width="21cm" svg:height="29.7cm" draw:z-index="0"><draw:image><office:binary-data>{png}</office:binary-data></draw:image></draw:frame></text:p>
{body}
</office:text></office:body></office:document>''')
PY
python3 - "$tmp/white.png" "$tmp/tides-covered.fodt" <<'PY'
import base64, sys
from xml.sax.saxutils import escape
png = base64.b64encode(open(sys.argv[1], 'rb').read()).decode()
t = open('../library/en-tides.txt', encoding='utf-8').read().split('\n\n')
copied = [p.strip() for p in t if len(p.strip()) > 100][:3]
own = [p.strip() for p in open('../original.txt', encoding='utf-8').read().split('\n\n') if p.strip()]
ns = ' '.join('xmlns:%s="urn:oasis:names:tc:opendocument:xmlns:%s"' % kv for kv in (
    ('office', 'office:1.0'), ('style', 'style:1.0'), ('text', 'text:1.0'), ('draw', 'drawing:1.0'),
    ('fo', 'xsl-fo-compatible:1.0'), ('svg', 'svg-compatible:1.0')))
body = ''.join('<text:p text:style-name="P">%s</text:p>' % escape(p) for p in copied)
body += ('<text:p text:style-name="PB"><draw:frame draw:style-name="fr1" draw:name="cover" text:anchor-type="page"'
         ' text:anchor-page-number="2" svg:x="0cm" svg:y="0cm" svg:width="21cm" svg:height="29.7cm" draw:z-index="5">'
         '<draw:image><office:binary-data>%s</office:binary-data></draw:image></draw:frame></text:p>' % png)
body += ''.join('<text:p text:style-name="P">%s</text:p>' % escape(p) for p in own)
open(sys.argv[2], 'w', encoding='utf-8').write(f'''<?xml version="1.0" encoding="UTF-8"?>
<office:document {ns} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:automatic-styles>
<style:style style:name="P" style:family="paragraph"><style:text-properties fo:font-size="11pt" style:font-name="DejaVu Sans"/></style:style>
<style:style style:name="PB" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style>
<style:style style:name="fr1" style:family="graphic"><style:graphic-properties style:wrap="run-through" style:run-through="foreground"
 style:vertical-pos="top" style:vertical-rel="page" style:horizontal-pos="left" style:horizontal-rel="page"/></style:style>
</office:automatic-styles>
<office:body><office:text>{body}</office:text></office:body></office:document>''')
PY
for f in tides-white-picture tides-covered; do
	soffice --headless --convert-to pdf --outdir "$tmp" "$tmp/$f.fodt" >/dev/null
	cp "$tmp/$f.pdf" .
done
