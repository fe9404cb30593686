#!/bin/sh
# Makes blank.ttf, a TrueType font whose glyphs (.notdef, space, a-z, A-Z) are empty and take no
# room, as Adobe Blank's are, and inked.ttf, the same font with an outline in every glyph: the two
# fonts a DOCX embeds in the tests of blank fonts. Needs python3 with fontTools (Debian:
# python3-fonttools).
set -e
/usr/bin/python3 - <<'PY'
import string
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

def build(path, family, inked):
    names = ['.notdef', 'space'] + list(string.ascii_letters)
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): c for c in string.ascii_letters} | {32: 'space'})
    glyphs = {}
    for n in names:
        pen = TTGlyphPen(None)
        if inked and n != 'space':
            pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((450, 700)); pen.lineTo((450, 0)); pen.closePath()
        glyphs[n] = pen.glyph()
    fb.setupGlyf(glyphs)
    width = 500 if inked else 0
    fb.setupHorizontalMetrics({n: (width, 0) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({'familyName': family, 'styleName': 'Regular'})
    fb.setupOS2(xAvgCharWidth=width)
    fb.setupPost()
    fb.save(path)

build('blank.ttf', 'BlankTest', False)
build('inked.ttf', 'InkedTest', True)
PY
