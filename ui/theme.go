package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"thesischeck/assets"
)

// Fonts shared by every window: Noto Sans SC covers Latin and CJK, so Chinese renders on machines
// without a CJK font.
var (
	fontRegular = fyne.NewStaticResource("NotoSansSC-Regular.ttf", assets.FontRegular)
	fontBold    = fyne.NewStaticResource("NotoSansSC-Bold.ttf", assets.FontBold)
	appIcon     = fyne.NewStaticResource("icon.png", assets.Icon)
)

// Colour names of the app's own figures, resolved by the theme so they follow light and dark.
const (
	colorGood     fyne.ThemeColorName = "tcGood"     // low similarity
	colorMedium   fyne.ThemeColorName = "tcMedium"   // worth a look
	colorBad      fyne.ThemeColorName = "tcBad"      // high similarity
	colorBand     fyne.ThemeColorName = "tcBand"     // summary band background
	colorTrack    fyne.ThemeColorName = "tcTrack"    // empty part of gauges and bars
	colorMuted    fyne.ThemeColorName = "tcMuted"    // template and excluded text
	colorWarnBack fyne.ThemeColorName = "tcWarnBack" // warning strip
)

// appTheme is the default theme with the bundled font and a fixed or system variant.
type appTheme struct {
	variant string // "", "light" or "dark"
}

func (t *appTheme) v(v fyne.ThemeVariant) fyne.ThemeVariant {
	switch t.variant {
	case "light":
		return theme.VariantLight
	case "dark":
		return theme.VariantDark
	}
	return v
}

func (t *appTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	v = t.v(v)
	dark := v == theme.VariantDark
	pick := func(light, darkC color.NRGBA) color.Color {
		if dark {
			return darkC
		}
		return light
	}
	switch n {
	case colorGood:
		return pick(color.NRGBA{0x2e, 0x7d, 0x32, 0xff}, color.NRGBA{0x66, 0xbb, 0x6a, 0xff})
	case colorMedium:
		return pick(color.NRGBA{0xe0, 0x8a, 0x00, 0xff}, color.NRGBA{0xff, 0xb7, 0x4d, 0xff})
	case colorBad:
		return pick(color.NRGBA{0xc6, 0x28, 0x28, 0xff}, color.NRGBA{0xef, 0x53, 0x50, 0xff})
	case colorBand:
		return pick(color.NRGBA{0xf3, 0xf5, 0xf9, 0xff}, color.NRGBA{0x2a, 0x2d, 0x33, 0xff})
	case colorTrack:
		return pick(color.NRGBA{0xdd, 0xe1, 0xe7, 0xff}, color.NRGBA{0x44, 0x48, 0x50, 0xff})
	case colorMuted:
		return pick(color.NRGBA{0x8a, 0x8f, 0x98, 0xff}, color.NRGBA{0x8a, 0x8f, 0x98, 0xff})
	case colorWarnBack:
		return pick(color.NRGBA{0xff, 0xf3, 0xd6, 0xff}, color.NRGBA{0x4a, 0x3b, 0x12, 0xff})
	}
	return theme.DefaultTheme().Color(n, v)
}

func (t *appTheme) Font(s fyne.TextStyle) fyne.Resource {
	if s.Monospace || s.Symbol {
		return theme.DefaultTheme().Font(s)
	}
	if s.Bold {
		return fontBold
	}
	return fontRegular
}

func (t *appTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }

func (t *appTheme) Size(n fyne.ThemeSizeName) float32 { return theme.DefaultTheme().Size(n) }

// similarityColor grades a share the way CNKI readers read it: under 10 % fine, under 30 % worth a
// look, above that a problem.
func similarityColor(share float64) fyne.ThemeColorName {
	switch {
	case share < 0.10:
		return colorGood
	case share < 0.30:
		return colorMedium
	}
	return colorBad
}
