#!/bin/sh
# Makes blank.ttf, a TrueType font whose glyphs (.notdef, space, a-z, A-Z) are empty and take no
# room, as Adobe Blank's are; inked.ttf, the same font with an outline in every glyph: the two
# fonts a DOCX embeds in the tests of blank fonts; and specks.ttf, whose capitals are inked as
# those and whose lower-case letters, comma and full stop are specks (a box 0.06 em wide), for junk
# typed in glyphs that draw specks. Needs python3 with fontTools (Debian: python3-fonttools).
set -e
/usr/bin/python3 - <<'PY'
import string
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

def build(path, family, inked, specks=False):
    names = ['.notdef', 'space'] + list(string.ascii_letters)
    cmap = {ord(c): c for c in string.ascii_letters} | {32: 'space'}
    if specks:
        names += ['comma', 'period']
        cmap |= {ord(','): 'comma', ord('.'): 'period'}
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap(cmap)
    glyphs = {}
    for n in names:
        pen = TTGlyphPen(None)
        top, right = 700, 450
        if specks and (len(n) == 1 and n.islower() or n in ('comma', 'period')):
            top, right = 60, 110
        if inked and n != 'space':
            pen.moveTo((50, 0)); pen.lineTo((50, top)); pen.lineTo((right, top)); pen.lineTo((right, 0)); pen.closePath()
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
build('specks.ttf', 'SpeckTest', True, specks=True)
PY
