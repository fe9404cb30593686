package extract

// The inline styles of an HTML page imported into a DOCX (w:altChunk) that hide text: Word's HTML
// import honours them as a browser does. Junk typed between the words of a copy in a span styled
// white, 1 pt or mso-hide:all (Word's own hidden text, as its HTML export writes it) is not seen,
// and a check that reads it reads words the page does not show.

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlStyle is what an element's inline styles and those of the elements around it say of its
// text: hidden (display:none, visibility:hidden, mso-hide:all), its size in points (0 unknown), its
// colour white, a background under it.
type htmlStyle struct {
	gone, invisible, white, back bool
	size                         float64
}

// of returns st as element n's style attribute and attributes (font color, bgcolor) change it.
func (st htmlStyle) of(n *html.Node) htmlStyle {
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			st.gone = true
		case "bgcolor", "background":
			st.back = true
		case "color":
			if n.DataAtom == atom.Font {
				st.white = htmlWhite(a.Val)
			}
		case "style":
			for _, decl := range strings.Split(a.Val, ";") {
				k, v, ok := strings.Cut(decl, ":")
				if !ok {
					continue
				}
				k = strings.ToLower(strings.TrimSpace(k))
				v = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important")))
				switch k {
				case "display":
					st.gone = st.gone || v == "none"
				case "mso-hide":
					st.gone = st.gone || v == "all"
				case "visibility":
					st.invisible = v == "hidden" || v == "collapse"
				case "color":
					st.white = htmlWhite(v)
				case "background", "background-color":
					st.back = st.back || v != "" && v != "none" && v != "transparent" && !htmlWhite(v)
				case "font-size":
					if pt, ok := cssPoints(v); ok {
						st.size = pt
					}
				}
			}
		}
	}
	return st
}

// hides says why text so styled cannot be seen, and its size when that is why. White counts only
// where white shows (htmlWhiteShows) and no background lies under it.
func (st htmlStyle) hides(whiteShows bool) (hideSet, float64) {
	var why hideSet
	if st.gone || st.invisible {
		why |= hideVanish
	}
	if st.white && !st.back && whiteShows {
		why |= hideWhite
	}
	if st.size > 0 && st.size <= maxTinySize || st.size < 0 {
		return why | hideTiny, max(st.size, 0)
	}
	return why, 0
}

// htmlWhite reports whether a CSS or HTML colour is white.
func htmlWhite(v string) bool {
	switch strings.ReplaceAll(strings.ToLower(strings.TrimSpace(v)), " ", "") {
	case "white", "#fff", "#ffffff", "rgb(255,255,255)":
		return true
	}
	return false
}

// htmlWhiteShows reports whether white text on the page is read on white: not when a style sheet
// or the body gives backgrounds this reading does not follow (a class's, the page's own).
func htmlWhiteShows(root *html.Node) bool {
	shows := true
	var look func(n *html.Node)
	look = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Style:
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if strings.Contains(strings.ToLower(c.Data), "background") {
						shows = false
					}
				}
			case atom.Body:
				if st := (htmlStyle{}).of(n); st.back {
					shows = false
				}
			}
		}
		for c := n.FirstChild; c != nil && shows; c = c.NextSibling {
			look(c)
		}
	}
	look(root)
	return shows
}

// cssPoints reads an absolute CSS font size in points (pt, px, in, cm, mm, or 0); ok false for a
// relative one (em, %, keywords), which this reading does not follow. A negative size is -1.
func cssPoints(v string) (float64, bool) {
	if v == "0" {
		return -1, true
	}
	for _, u := range []struct {
		unit string
		pt   float64
	}{{"pt", 1}, {"px", 0.75}, {"in", 72}, {"cm", 72 / 2.54}, {"mm", 72 / 25.4}} {
		if num, ok := strings.CutSuffix(v, u.unit); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil {
				return 0, false
			}
			if f <= 0 {
				return -1, true
			}
			return f * u.pt, true
		}
	}
	return 0, false
}
