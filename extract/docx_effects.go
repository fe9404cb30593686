package extract

// Word 2010's text effects (w14:textFill, w14:textOutline in a run's properties), which Word shows
// in place of the run's colour: Format Text Effects → Text Fill → No fill (or a transparency of
// 100 %), with no outline, makes text invisible while w:color still says black; a fill of black
// over w:color white makes text visible that w:color alone would hide.

import (
	"encoding/xml"
	"slices"
	"strconv"
)

const nsW14 = "http://schemas.microsoft.com/office/word/2010/wordml"

// textPaint is a w14:textFill or w14:textOutline.
type textPaint struct {
	set   bool      // given
	none  bool      // w14:noFill
	color docxColor // a solid fill's colour; not known for a gradient
	alpha float64   // opacity, 0–1
	width int64     // an outline's width, EMU; -1 unset
	// stops are a gradient fill's colours (Text Fill → Gradient fill): text whose stops are all
	// white, or all transparent, shows nothing. nil for a solid fill, and for a gradient whose
	// colours were not read (a pattern, a picture), whose colour is not known.
	stops []textStop
}

// textStop is a stop of a gradient: its colour and opacity.
type textStop struct {
	color docxColor
	alpha float64
}

// applyEffect reads a Word 2010 run property (w14:…) into r, consuming it; it reports whether it was
// one of those that decide whether text shows.
func applyEffect(r *runProps, d *xml.Decoder, t xml.StartElement) bool {
	switch t.Name.Local {
	case "textFill":
		r.textFill = readTextPaint(d, t)
	case "textOutline":
		r.textOutline = readTextPaint(d, t)
	case "shadow", "glow":
		if p := readTextPaint(d, t); !p.none && p.alpha >= 0.05 {
			r.relief = triOn
		}
	default:
		return false
	}
	return true
}

// readTextPaint reads the element start (w14:textFill or w14:textOutline) to its end.
func readTextPaint(d *xml.Decoder, start xml.StartElement) textPaint {
	p := textPaint{set: true, alpha: 1, width: -1, color: docxColor{set: true}}
	if w, err := strconv.ParseInt(attr(start, "w"), 10, 64); err == nil {
		p.width = w
	}
	depth, gradient := 0, false
	// The colour and opacity read: the fill's, or the gradient's last stop's; nil in a gradient
	// before its first stop and in patterns and pictures.
	color, alpha := &p.color, &p.alpha
	for {
		tok, err := d.Token()
		if err != nil {
			return p
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch t.Name.Local {
			case "noFill":
				if depth == 1 {
					p.none = true
				}
			case "gradFill", "pattFill", "blipFill":
				gradient = true
				color, alpha = nil, nil
			case "gs":
				if gradient && depth == 3 { // gradFill, gsLst, gs
					p.stops = append(p.stops, textStop{color: docxColor{set: true}, alpha: 1})
					color, alpha = &p.stops[len(p.stops)-1].color, &p.stops[len(p.stops)-1].alpha
				}
			case "srgbClr", "sysClr", "schemeClr", "prstClr":
				if color != nil {
					*color = drawingColor(t)
				}
			case "alpha":
				if n, err := strconv.Atoi(attr(t, "val")); err == nil && alpha != nil {
					*alpha = 1 - float64(min(max(n, 0), 100000))/100000
				}
			case "lumMod", "lumOff", "shade", "tint":
				if n, err := strconv.Atoi(attr(t, "val")); err == nil && color != nil {
					color.mods = append(color.mods, colorMod{t.Name.Local, float64(n) / 100000})
				}
			}
		case xml.EndElement:
			if depth == 0 {
				return p
			}
			depth--
		}
	}
}

// colorMod is a DrawingML colour transform (lumMod, lumOff, shade, tint), applied when the colour
// is resolved.
type colorMod struct {
	kind string
	v    float64
}

// schemeThemeNames maps DrawingML's scheme colours to WordprocessingML's theme colour names.
var schemeThemeNames = map[string]string{"bg1": "background1", "tx1": "text1", "bg2": "background2", "tx2": "text2",
	"dk1": "dark1", "lt1": "light1", "dk2": "dark2", "lt2": "light2", "hlink": "hyperlink", "folHlink": "followedHyperlink",
	"accent1": "accent1", "accent2": "accent2", "accent3": "accent3", "accent4": "accent4", "accent5": "accent5", "accent6": "accent6"}

// drawingColor reads a DrawingML colour element (its transforms follow as children).
func drawingColor(t xml.StartElement) docxColor {
	switch t.Name.Local {
	case "srgbClr":
		return hexColor(attr(t, "val"))
	case "sysClr":
		return hexColor(attr(t, "lastClr"))
	case "prstClr":
		return hexColor(attr(t, "val"))
	case "schemeClr":
		if name, ok := schemeThemeNames[attr(t, "val")]; ok {
			return docxColor{set: true, theme: name}
		}
	}
	return docxColor{set: true}
}

// applyMods applies a colour's DrawingML transforms, channel by channel (close enough to Word's
// luminance arithmetic to tell white from grey).
func applyMods(c docxColor) docxColor {
	if !c.known || len(c.mods) == 0 {
		return c
	}
	for _, m := range c.mods {
		for i, v := range c.rgb {
			switch m.kind {
			case "lumMod", "shade":
				v *= m.v
			case "lumOff":
				v += m.v
			case "tint":
				v = 1 - (1-v)*m.v
			}
			c.rgb[i] = min(max(v, 0), 1)
		}
	}
	c.mods = nil
	return c
}

// shows tells whether paint p can be seen on back: given, with some opacity, and of a colour that
// is not back's (or not known), or of a gradient one of whose stops is.
func (p textPaint) shows(back docxColor) bool { return p.seen(back, -1) }

// reads tells whether text of paint p, size points (0: not known), can be read on back: it shows,
// and not too faintly (faint).
func (p textPaint) reads(back docxColor, size float64) bool { return p.seen(back, size) }

// seen is shows (size < 0) or reads.
func (p textPaint) seen(back docxColor, size float64) bool {
	if p.none || p.alpha < 0.05 || p.width == 0 {
		return false
	}
	seen := func(c docxColor, alpha float64) bool {
		return alpha >= 0.05 && (!c.known || !back.known || !colorsClose(c.rgb, back.rgb) && (size < 0 || !faint(c.rgb, back.rgb, size)))
	}
	if len(p.stops) == 0 {
		return seen(p.color, 1)
	}
	return slices.ContainsFunc(p.stops, func(s textStop) bool { return seen(s.color, s.alpha) })
}

// transparent: no fill, or one of no opacity (every stop of a gradient).
func (p textPaint) transparent() bool {
	return p.none || p.alpha < 0.05 || len(p.stops) > 0 && !slices.ContainsFunc(p.stops, func(s textStop) bool { return s.alpha >= 0.05 })
}

// resolved is p with its colours' theme names and transforms applied.
func (p textPaint) resolved(th *docxTheme) textPaint {
	p.color = applyMods(th.resolve(p.color))
	if p.stops != nil {
		p.stops = slices.Clone(p.stops) // a style's, shared by its runs
		for i := range p.stops {
			p.stops[i].color = applyMods(th.resolve(p.stops[i].color))
		}
	}
	return p
}
