package extract

// Theme colours of a Word document: a run, a shading or the page may name its colour by the
// theme's ("background1", "accent2") instead of by value, and then Word shows the theme's colour
// whatever the value says (ECMA-376 17.3.2.6: "If the themeColor attribute is specified, then the
// val attribute is ignored"). A run marked val="000000" themeColor="background1" shows white.
// Theme fonts likewise: a run's asciiTheme="minorHAnsi" is drawn in the theme's minor Latin
// typeface, whatever its ascii names, and junk in an embedded font that draws specks, made the
// theme's, was read (docxTheme.font).

import (
	"encoding/xml"
	"strconv"
	"strings"
)

// docxTheme is a document's colour scheme (word/theme/theme1.xml) and the mapping of the names
// runs use onto it (w:clrSchemeMapping in word/settings.xml).
type docxTheme struct {
	scheme  map[string][3]float64 // dk1, lt1, dk2, lt2, accent1-6, hlink, folHlink
	mapping map[string]string     // bg1, t1, bg2, t2, accent1-6, hyperlink, followedHyperlink → dark1, light1, …
	// fonts are its font scheme's typefaces, by the names runs give them (ST_Theme: minorHAnsi,
	// majorEastAsia …).
	fonts map[string]string
}

// defaultTheme is Office's theme (2013 and later), which Word uses for a document without one.
var defaultTheme = map[string][3]float64{
	"dk1": hexRGB("000000"), "lt1": hexRGB("FFFFFF"), "dk2": hexRGB("44546A"), "lt2": hexRGB("E7E6E6"),
	"accent1": hexRGB("4472C4"), "accent2": hexRGB("ED7D31"), "accent3": hexRGB("A5A5A5"),
	"accent4": hexRGB("FFC000"), "accent5": hexRGB("5B9BD5"), "accent6": hexRGB("70AD47"),
	"hlink": hexRGB("0563C1"), "folHlink": hexRGB("954F72"),
}

func hexRGB(v string) [3]float64 { return hexColor(v).rgb }

// parseTheme reads a theme part and a settings part, either of which may be missing or damaged
// (the defaults stand for what could not be read).
func parseTheme(theme, settings []byte) *docxTheme {
	t := &docxTheme{scheme: map[string][3]float64{}, mapping: map[string]string{}, fonts: map[string]string{}}
	if len(theme) > 0 {
		var current string
		fonts := "" // major or minor: the font of the scheme being read
		eachStart(newXMLDecoder(theme), func(se xml.StartElement) {
			switch se.Name.Local {
			case "majorFont":
				fonts = "major"
			case "minorFont":
				fonts = "minor"
			case "latin", "ea", "cs", "font":
				t.themeFont(fonts, se)
			case "dk1", "lt1", "dk2", "lt2", "accent1", "accent2", "accent3", "accent4", "accent5", "accent6", "hlink", "folHlink":
				if _, seen := t.scheme[se.Name.Local]; !seen {
					current = se.Name.Local
				}
			case "srgbClr", "sysClr":
				if c := drawingColor(se); current != "" && c.known {
					t.scheme[current] = c.rgb
				}
				current = ""
			}
		})
	}
	if len(settings) > 0 {
		eachStart(newXMLDecoder(settings), func(se xml.StartElement) {
			if isW(se.Name) && se.Name.Local == "clrSchemeMapping" {
				for _, a := range se.Attr {
					t.mapping[a.Name.Local] = a.Value
				}
			}
		})
	}
	return t
}

// themeNames maps the names runs use (ST_ThemeColor) to clrSchemeMapping's attributes.
var themeNames = map[string]string{"background1": "bg1", "text1": "t1", "background2": "bg2", "text2": "t2"}

// schemeNames maps clrSchemeMapping's values (ST_ColorSchemeIndex) to the theme's elements.
var schemeNames = map[string]string{"dark1": "dk1", "light1": "lt1", "dark2": "dk2", "light2": "lt2",
	"hyperlink": "hlink", "followedHyperlink": "folHlink"}

// resolve turns a theme colour into the colour Word shows; other colours are returned as they are.
// A nil theme is Office's.
func (t *docxTheme) resolve(c docxColor) docxColor {
	if c.theme == "" {
		return c
	}
	mods := c.mods
	name := c.theme
	if m, ok := themeNames[name]; ok {
		name = map[string]string{"bg1": "light1", "t1": "dark1", "bg2": "light2", "t2": "dark2"}[m]
		if t != nil && t.mapping[m] != "" {
			name = t.mapping[m]
		}
	} else if t != nil && t.mapping[name] != "" {
		name = t.mapping[name] // accent1-6, hyperlink, followedHyperlink
	}
	if s, ok := schemeNames[name]; ok {
		name = s
	}
	rgb, ok := defaultTheme[name]
	if t != nil {
		if v, found := t.scheme[name]; found {
			rgb, ok = v, true
		}
	}
	if !ok {
		return docxColor{set: true}
	}
	for i := range rgb {
		if c.tint > 0 {
			rgb[i] = 1 - (1-rgb[i])*c.tint
		}
		if c.shade > 0 {
			rgb[i] *= c.shade
		}
	}
	out := rgbColor(rgb[0], rgb[1], rgb[2])
	out.mods = mods
	return out
}

// themedColor reads a colour given by value (the attribute val) or by the theme (themeAttr, with
// its tint and shade, hex fractions of 255), which wins.
func themedColor(se xml.StartElement, val, themeAttr, tintAttr, shadeAttr string) docxColor {
	name := attr(se, themeAttr)
	if name == "" || name == "none" {
		return hexColor(attr(se, val))
	}
	frac := func(a string) float64 {
		if n, err := strconv.ParseUint(strings.TrimSpace(attr(se, a)), 16, 8); err == nil {
			return float64(n) / 255
		}
		return 0
	}
	c := docxColor{set: true, theme: name, tint: frac(tintAttr), shade: frac(shadeAttr)}
	if c.tint > 0 {
		c.shade = 0 // "If the themeTint is supplied, the value of [themeShade] shall be ignored."
	}
	return c
}

// themeFont notes a typeface of the font scheme's major or minor font (which): its Latin one for
// the names Word gives ASCII and other text, its East Asian one, or where that is empty, its font
// for simplified Chinese (script Hans), and its complex-script one. A typeface of "+mn-lt" and
// the like, in the theme's object defaults, names these and is no font of its own.
func (t *docxTheme) themeFont(which string, se xml.StartElement) {
	face := attr(se, "typeface")
	if which == "" || face == "" || strings.HasPrefix(face, "+") {
		return
	}
	set := func(names ...string) {
		for _, n := range names {
			if t.fonts[which+n] == "" {
				t.fonts[which+n] = face
			}
		}
	}
	switch se.Name.Local {
	case "latin":
		set("Ascii", "HAnsi")
	case "ea":
		set("EastAsia")
	case "cs":
		set("Bidi")
	case "font":
		if attr(se, "script") == "Hans" {
			set("EastAsia")
		}
	}
}

// font is the name of the font a run draws its text of kind i (0 ASCII, 1 other, 2 East Asian) in:
// the theme's typeface where the run names a theme font the theme has, else the name it gives. A
// nil theme is Office's, whose fonts no document embeds.
func (t *docxTheme) font(rp runProps, i int) string {
	if rp.themeFonts[i] != "" && t != nil {
		if f := t.fonts[rp.themeFonts[i]]; f != "" {
			return f
		}
	}
	return rp.fonts[i]
}
