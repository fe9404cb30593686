package extract

// The styles of an HTML page imported into a DOCX (w:altChunk) that hide text: Word's HTML import
// honours them as a browser does, inline or by the page's style sheets. Junk typed between the words
// of a copy in a span styled white, 1 pt or mso-hide:all (Word's own hidden text, as its HTML export
// writes it) is not seen, and a check that reads it reads words the page does not show.

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/andybalholm/cascadia"
	cssinput "github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
	"golang.org/x/image/colornames"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlStyle is what an element's inline styles and those of the elements around it say of its
// text: hidden (display:none, visibility:hidden, mso-hide:all), its size in points (0 unknown), its
// colour, a background under it.
type htmlStyle struct {
	gone, invisible, back bool
	size                  float64
	color                 [3]float64 // the text's colour, when colored
	colored               bool
}

// of returns st as element n's attributes (font color, bgcolor), the declarations the page's style
// sheets give it and its style attribute change it, in that order.
func (st htmlStyle) of(n *html.Node, sheet htmlSheet) htmlStyle {
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			st.gone = true
		case "bgcolor", "background":
			st.back = true
		case "color":
			if n.DataAtom == atom.Font {
				st.color, st.colored = cssColor(a.Val)
			}
		}
	}
	for _, d := range sheet[n] {
		st = st.declare(d[0], d[1])
	}
	for _, a := range n.Attr {
		if a.Key == "style" {
			for _, decl := range strings.Split(a.Val, ";") {
				if k, v, ok := strings.Cut(decl, ":"); ok {
					st = st.declare(k, v)
				}
			}
		}
	}
	return st
}

// declare returns st as the CSS declaration k: v changes it.
func (st htmlStyle) declare(k, v string) htmlStyle {
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
		st.color, st.colored = cssColor(v)
	case "background", "background-color":
		c, ok := cssColor(v)
		st.back = st.back || v != "" && v != "none" && v != "transparent" && !(ok && isWhite(c))
	case "font-size":
		if pt, ok := cssPoints(v); ok {
			st.size = pt
		} else if f, root, ok := cssRelative(v); ok {
			// Of the size around it (the page's, for rem): Word's HTML import sets text in 12 pt
			// where nothing says.
			around := 12.0
			if !root && st.size != 0 {
				around = st.size
			}
			if st.size = around * f; st.size == 0 {
				st.size = -1 // a size of nothing, as cssPoints says it
			}
		}
	}
	return st
}

// cssRelative reads a relative CSS length (em, rem, per cent) as a factor of the size around it,
// or of the page's (root, for rem).
func cssRelative(v string) (f float64, root, ok bool) {
	for _, u := range []struct {
		unit string
		f    float64
	}{{"rem", 1}, {"em", 1}, {"%", 0.01}} {
		if num, found := strings.CutSuffix(v, u.unit); found {
			n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || n < 0 {
				return 0, false, false
			}
			return n * u.f, u.unit == "rem", true
		}
	}
	return 0, false, false
}

// htmlSheet is what a page's style sheets declare of each element (property, value), in the
// cascade's order: by the selector's specificity, then as written.
type htmlSheet map[*html.Node][][2]string

// sheetWork bounds the selectors matched against a page's elements, as their compound selectors
// times elements: a hostile page of many rules and many elements would take minutes. A thesis's
// page of 5,000 elements has its first 4,000 compounds followed.
const sheetWork = 20_000_000

// htmlSheetOf reads the page's <style> elements (tdewolff/parse's CSS parser) and matches their
// rules' selectors against its elements (cssSelector, with cascadia's compound selectors), for the
// properties htmlStyle follows. A selector cascadia does not read, the rules of @media and other
// at-rules, and those past sheetWork are passed over.
func htmlSheetOf(root *html.Node) htmlSheet {
	var text strings.Builder
	nodes := 0
	var find func(n *html.Node)
	find = func(n *html.Node) {
		nodes++
		if n.Type == html.ElementNode && n.DataAtom == atom.Style {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				text.WriteString(c.Data)
				text.WriteByte('\n')
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c)
		}
	}
	find(root)
	if text.Len() == 0 {
		return nil
	}
	type match struct {
		spec  cascadia.Specificity
		order int
		decls [][2]string
	}
	matched := map[*html.Node][]match{}
	p := css.NewParser(cssinput.NewInputString(text.String()), false)
	var selector strings.Builder
	var decls [][2]string
	depth, rules, selectors := 0, 0, 0 // depth: inside at-rules
	for done := false; !done && selectors*nodes < sheetWork; {
		gt, _, data := p.Next()
		switch gt {
		case css.ErrorGrammar:
			done = p.Err() != nil // the end, or a sheet this parser gives up on
		case css.BeginAtRuleGrammar:
			depth++
		case css.EndAtRuleGrammar:
			depth = max(depth-1, 0)
		case css.BeginRulesetGrammar:
			selector.Reset()
			for _, t := range p.Values() {
				selector.Write(t.Data)
			}
			decls = decls[:0]
		case css.DeclarationGrammar:
			var v strings.Builder
			for _, t := range p.Values() {
				v.Write(t.Data)
			}
			decls = append(decls, [2]string{string(data), v.String()})
		case css.EndRulesetGrammar:
			rules++
			if depth > 0 || len(decls) == 0 {
				continue
			}
			kept := slices.Clone(decls)
			for _, text := range splitTop(selector.String(), ",", false) {
				sel, ok := parseSelector(text)
				if !ok {
					continue
				}
				selectors += len(sel.parts)
				for _, n := range sel.matchAll(root) {
					matched[n] = append(matched[n], match{sel.spec, rules, kept})
				}
			}
		}
	}
	sheet := htmlSheet{}
	for n, ms := range matched {
		slices.SortStableFunc(ms, func(a, b match) int {
			switch {
			case a.spec.Less(b.spec):
				return -1
			case b.spec.Less(a.spec):
				return 1
			}
			return a.order - b.order
		})
		for _, m := range ms {
			sheet[n] = append(sheet[n], m.decls...)
		}
	}
	return sheet
}

// hides says why text so styled cannot be seen, and its size when that is why. White counts where
// no background lies under it (its own or an element's around it, inline, by bgcolor or by the
// style sheets, the body's too).
func (st htmlStyle) hides() (hideSet, float64) {
	var why hideSet
	if st.gone || st.invisible {
		why |= hideVanish
	}
	switch {
	case !st.colored || st.back:
	case isWhite(st.color):
		why |= hideWhite
	case faint(st.color, whiteRGB, st.size):
		why |= hideFaint
	}
	if st.size > 0 && st.size <= maxTinySize || st.size < 0 {
		return why | hideTiny, max(st.size, 0)
	}
	return why, 0
}

// cssColor reads a CSS or HTML colour: #rgb, #rrggbb, rgb(r, g, b) (numbers or per cents) or a
// CSS colour name; ok false for any other. Only white was known by name: #FEFEFE, ivory or yellow
// junk in an altChunk's HTML was read.
func cssColor(v string) (c [3]float64, ok bool) {
	v = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(v)), " ", "")
	if rgb, found := colornames.Map[v]; found {
		return [3]float64{float64(rgb.R) / 255, float64(rgb.G) / 255, float64(rgb.B) / 255}, true
	}
	if h, found := strings.CutPrefix(v, "#"); found && (len(h) == 3 || len(h) == 6) {
		if len(h) == 3 {
			h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
		}
		n, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			return c, false
		}
		return [3]float64{float64(n>>16&255) / 255, float64(n>>8&255) / 255, float64(n&255) / 255}, true
	}
	if args, found := strings.CutPrefix(v, "rgb("); found && strings.HasSuffix(args, ")") {
		parts := strings.Split(strings.TrimSuffix(args, ")"), ",")
		if len(parts) != 3 {
			return c, false
		}
		for i, p := range parts {
			scale := 255.0
			if q, pct := strings.CutSuffix(p, "%"); pct {
				p, scale = q, 100
			}
			f, err := strconv.ParseFloat(p, 64)
			if err != nil {
				return c, false
			}
			c[i] = min(max(f/scale, 0), 1)
		}
		return c, true
	}
	return c, false
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

// cssSelector is a complex selector: compound selectors (cascadia's, without combinators) joined
// by combinators, matched right to left with each answer kept per element. cascadia matches a
// descendant combinator by trying every ancestor for each element, again for each combinator: "p
// div div div" on a page nested 990 deep did not end in 20 s; kept answers make it linear.
type cssSelector struct {
	parts []cascadia.Sel // left to right
	combs []byte         // combs[i] joins parts[i] and parts[i+1]: ' ', '>', '+' or '~'
	spec  cascadia.Specificity
}

// parseSelector reads one complex selector; ok is false for one this reading does not follow
// (a pseudo-class or pseudo-element cascadia does not know, a namespace, a stray combinator).
func parseSelector(text string) (sel cssSelector, ok bool) {
	comb := byte(0)
	// A run of whitespace is pieces " " and "", one combinator however many; next to ">", "+" or
	// "~" it is none.
	for _, tok := range splitTop(text, " \t\r\n>+~", true) {
		if tok == "" {
			continue
		}
		if len(tok) == 1 && strings.ContainsAny(tok, " >+~") {
			if tok != " " || comb == 0 {
				comb = tok[0]
			}
			continue
		}
		c, err := cascadia.Parse(tok)
		if err != nil {
			return cssSelector{}, false
		}
		if len(sel.parts) > 0 {
			if comb == 0 {
				return cssSelector{}, false
			}
			sel.combs = append(sel.combs, comb)
		} else if comb != 0 && comb != ' ' {
			return cssSelector{}, false
		}
		sel.parts = append(sel.parts, c)
		sel.spec = sel.spec.Add(c.Specificity())
		comb = 0
	}
	return sel, len(sel.parts) > 0 && comb == 0
}

// splitTop cuts s at each of seps outside brackets, parentheses and quotes; with keep, each
// separator is a piece of its own too, whitespace of any kind as " ".
func splitTop(s, seps string, keep bool) []string {
	var out []string
	var cur strings.Builder
	depth, quote := 0, rune(0)
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '[' || r == '(':
			depth++
		case r == ']' || r == ')':
			depth = max(depth-1, 0)
		case depth == 0 && strings.ContainsRune(seps, r):
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
			if keep {
				if unicode.IsSpace(r) {
					r = ' '
				}
				out = append(out, string(r))
			}
			continue
		}
		cur.WriteRune(r)
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// matchAll returns the elements under root the selector matches.
func (sel cssSelector) matchAll(root *html.Node) []*html.Node {
	last := len(sel.parts) - 1
	memo := make([]map[*html.Node]bool, len(sel.parts)) // part i matches the element
	// up and back: part i matches the element or an element above it (before it among its
	// siblings)
	up := make([]map[*html.Node]bool, len(sel.parts))
	back := make([]map[*html.Node]bool, len(sel.parts))
	for i := range memo {
		memo[i], up[i], back[i] = map[*html.Node]bool{}, map[*html.Node]bool{}, map[*html.Node]bool{}
	}
	var match func(n *html.Node, i int) bool
	// reach reports whether p, or an element step walks to from it, matches part i; the answer is
	// kept for every element it walked past.
	reach := func(p *html.Node, i int, step func(*html.Node) *html.Node, kept map[*html.Node]bool) bool {
		var path []*html.Node
		v := false
		for ; p != nil; p = step(p) {
			if r, ok := kept[p]; ok {
				v = r
				break
			}
			if match(p, i) {
				v, kept[p] = true, true
				break
			}
			path = append(path, p)
		}
		for _, q := range path {
			kept[q] = v
		}
		return v
	}
	match = func(n *html.Node, i int) bool {
		if v, ok := memo[i][n]; ok {
			return v
		}
		v := sel.parts[i].Match(n)
		if v && i > 0 {
			switch sel.combs[i-1] {
			case ' ':
				v = reach(parentElement(n), i-1, parentElement, up[i-1])
			case '>':
				p := parentElement(n)
				v = p != nil && match(p, i-1)
			case '+':
				p := prevElement(n)
				v = p != nil && match(p, i-1)
			case '~':
				v = reach(prevElement(n), i-1, prevElement, back[i-1])
			}
		}
		memo[i][n] = v
		return v
	}
	var out []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n, last) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return out
}

// parentElement is n's parent element, nil at the top.
func parentElement(n *html.Node) *html.Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode {
			return p
		}
	}
	return nil
}

// prevElement is the element before n among its siblings, nil for none.
func prevElement(n *html.Node) *html.Node {
	for p := n.PrevSibling; p != nil; p = p.PrevSibling {
		if p.Type == html.ElementNode {
			return p
		}
	}
	return nil
}
