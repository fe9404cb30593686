package extract

// Text DrawingML draws outside a document's paragraphs: a SmartArt graphic's data model, a chart's
// rich text (its title, its axes' titles, its data labels) and the shapes drawn on a chart. Their
// runs carry DrawingML's properties (a:rPr: a size in hundredths of a point, a fill, an outline),
// which hide text as a Word run's do: 3,400 characters of white or 1-pt junk in a chart's title or
// a SmartArt graphic's boxes read zh-thesis S002 (25.9 %) as 12.6 %, with no warning. Each run is
// judged by runHide, as a Word run is, on what lies under it: the fill of the nearest box around it
// that has one (a SmartArt node, a chart's title, legend or chart area, a shape drawn on a chart),
// else the page where the graphic stands.

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// xnode is an element of a small part read whole (xmlTree), for properties that follow the text
// they format: a chart's title gives its fill (c:spPr) after its text (c:tx), its chart area after
// the whole chart.
type xnode struct {
	start xml.StartElement
	kids  []*xnode
	text  []byte // the character data directly inside it
}

func (n *xnode) local() string { return n.start.Name.Local }

// child is n's first child of that local name in namespace ns (prefix its usual prefix); nil when
// it has none.
func (n *xnode) child(ns, prefix, local string) *xnode {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.local() == local && inNS(k.start.Name, ns, prefix) {
			return k
		}
	}
	return nil
}

// maxTreeDepth bounds how deep xmlTree follows elements: a chart or a SmartArt graphic nests about
// fifteen deep, and what lies deeper is no text a reader sees.
const maxTreeDepth = 64

// skipTree names the elements xmlTree passes over: a chart's number caches and extensions, which
// can be the bulk of a large chart's part and hold no text (its category labels are read apart).
var skipTree = map[string]bool{"numRef": true, "numLit": true, "numCache": true, "extLst": true, "externalData": true}

// xmlTree reads a part into a tree of its elements.
func xmlTree(raw []byte) (*xnode, error) {
	d := newXMLDecoder(raw)
	root := &xnode{}
	stack := []*xnode{root}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return root, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		top := stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) > maxTreeDepth || skipTree[t.Name.Local] {
				if err := d.Skip(); err != nil {
					return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
				}
				continue
			}
			n := &xnode{start: t.Copy()}
			top.kids = append(top.kids, n)
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			top.text = append(top.text, t...)
		}
	}
}

// drawPaint is the fill among n's children (a:noFill, a:solidFill, a:gradFill …): the paint of
// text (a:rPr), of its outline (a:ln) or of a shape (spPr); set is false when n has none.
func drawPaint(n *xnode) textPaint {
	p := textPaint{alpha: 1, width: -1}
	if n == nil {
		return p
	}
	for _, k := range n.kids {
		switch k.local() {
		case "noFill":
			p.set, p.none = true, true
		case "solidFill":
			p.set = true
			p.color, p.alpha = drawColor(k)
		case "gradFill":
			p.set, p.color = true, docxColor{set: true}
			for _, gs := range k.child(nsA, "a", "gsLst").kidsNamed("gs") {
				c, a := drawColor(gs)
				p.stops = append(p.stops, textStop{color: c, alpha: a})
			}
		case "pattFill", "blipFill", "grpFill":
			p.set, p.color = true, docxColor{set: true} // of a colour not known
		default:
			continue
		}
		return p
	}
	return p
}

// kidsNamed are n's children of that local name.
func (n *xnode) kidsNamed(local string) []*xnode {
	if n == nil {
		return nil
	}
	var out []*xnode
	for _, k := range n.kids {
		if k.local() == local {
			out = append(out, k)
		}
	}
	return out
}

// drawColor is the colour among n's children, with its transforms, and its opacity (0–1).
func drawColor(n *xnode) (docxColor, float64) {
	for _, k := range n.kids {
		switch k.local() {
		case "srgbClr", "sysClr", "schemeClr", "prstClr", "scrgbClr", "hslClr":
			c, alpha := drawingColor(k.start), 1.0
			for _, m := range k.kids {
				v, err := strconv.Atoi(attr(m.start, "val"))
				if err != nil {
					continue
				}
				switch m.local() {
				case "alpha": // DrawingML's is the opacity (Word 2010's w14:alpha, the transparency)
					alpha = float64(min(max(v, 0), 100000)) / 100000
				case "lumMod", "lumOff", "shade", "tint":
					c.mods = append(c.mods, colorMod{m.local(), float64(v) / 100000})
				}
			}
			return c, alpha
		}
	}
	return docxColor{set: true}, 1
}

// drawRunProps reads DrawingML text properties (a:rPr, a:defRPr) as a Word run's: its size, its
// fill, its outline (a:ln) and its highlight.
func drawRunProps(n *xnode) runProps {
	var rp runProps
	if n == nil {
		return rp
	}
	if v, err := strconv.Atoi(attr(n.start, "sz")); err == nil && v >= 0 {
		rp.sz = max(v/50, 1) // hundredths of a point; Word's are halves
	}
	rp.textFill = drawPaint(n)
	if ln := n.child(nsA, "a", "ln"); ln != nil {
		// A line with no fill of its own draws nothing on text (its paint is not set).
		rp.textOutline = drawPaint(ln)
		if w, err := strconv.ParseInt(attr(ln.start, "w"), 10, 64); err == nil && rp.textOutline.set {
			rp.textOutline.width = w
		}
	}
	if h := n.child(nsA, "a", "highlight"); h != nil {
		rp.highlight, _ = drawColor(h)
	}
	return rp
}

// drawContext is what decides whether a graphic's text shows: the document's theme, and what lies
// under the graphic on the page.
type drawContext struct {
	theme *docxTheme
	page  docxColor
	// shapes are the fills of a SmartArt graphic's shapes as Word last drew them (its drawing
	// part), by the text of each of their paragraphs: what lies under a node's text when its data
	// model leaves the fill to the graphic's colour styles.
	shapes map[string]docxColor
}

// nsDsp is the namespace of a SmartArt graphic's drawing part, where Word keeps the shapes it drew
// for it, each with its fill and its text.
const nsDsp = "http://schemas.microsoft.com/office/drawing/2008/diagram"

// smartArtShapes reads a SmartArt graphic's drawing part: the fill under each paragraph of text
// its shapes hold (a shape's own, or its style's fill reference: idx 0 is none), resolved by the
// theme; nil when the part is missing or damaged.
func smartArtShapes(raw []byte, dc drawContext) map[string]docxColor {
	root, err := xmlTree(raw)
	if err != nil {
		return nil
	}
	out := map[string]docxColor{}
	var walk func(n *xnode)
	walk = func(n *xnode) {
		if inNS(n.start.Name, nsDsp, "dsp") && n.local() == "sp" {
			sp := n.child(nsDsp, "dsp", "spPr")
			back := docxColor{set: true}
			switch ref := n.child(nsDsp, "dsp", "style").child(nsA, "a", "fillRef"); {
			case drawPaint(sp).set:
				back = dc.filled(sp, dc.page)
			case ref != nil && attr(ref.start, "idx") == "0":
				back = dc.page
			case ref != nil:
				if c, _ := drawColor(ref); c.set {
					back = applyMods(dc.theme.resolve(c))
				}
			}
			for _, p := range n.child(nsDsp, "dsp", "txBody").kidsNamed("p") {
				if t := paragraphText(p); t != "" {
					out[t] = back
				}
			}
			return
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(root)
	return out
}

// paragraphText is the text of a DrawingML paragraph's runs, trimmed.
func paragraphText(p *xnode) string {
	var b strings.Builder
	for _, k := range p.kids {
		if k.local() == "r" || k.local() == "fld" {
			b.Write(k.child(nsA, "a", "t").textOrNil())
		}
	}
	return strings.TrimSpace(b.String())
}

// drawScope is what a text body inherits: the text properties of the boxes around it (a chart's
// c:txPr) and the colour under it, unknown when a box is filled by the theme's styles.
type drawScope struct {
	props runProps
	back  docxColor
	// styled: in a SmartArt node the graphic's colour styles fill (back not known; the shapes
	// Word drew may say).
	styled bool
}

// drawReader gathers the paragraphs of a DrawingML part.
type drawReader struct {
	dc    drawContext
	paras []Paragraph
	// orphans: hidden paragraphs, after the paragraph of paras they followed (-1: none).
	orphans []orphanHidden
	why     hideSet // hides every run read (a deleted data label); 0 for none
	// labels: why a chart's category labels, drawn with its category axis's text properties,
	// cannot be seen, and their size.
	labels     hideSet
	labelsSize float64
	area       docxColor // what lies under a chart's area: the shapes drawn on it are on it
}

// drawingDocument reads the paragraphs of a SmartArt graphic's data model, a chart or the shapes
// drawn on a chart, in the order the part lists them, with what the runs' properties hide kept as
// hidden text.
func drawingDocument(raw []byte, dc drawContext) (*Document, error) {
	r, err := readDrawing(raw, dc)
	if err != nil {
		return nil, err
	}
	return r.document(), nil
}

// readDrawing reads a DrawingML part's text (drawReader).
func readDrawing(raw []byte, dc drawContext) (*drawReader, error) {
	root, err := xmlTree(raw)
	if err != nil {
		return nil, err
	}
	r := &drawReader{dc: dc, area: dc.page}
	r.visit(root, drawScope{back: dc.page})
	return r, nil
}

// document is what r read: its paragraphs, their hidden text, and the hidden text no paragraph
// could take.
func (r *drawReader) document() *Document {
	doc := &Document{Paragraphs: r.paras}
	doc.unplacedHidden = attachOrphans(doc.Paragraphs, r.orphans)
	return doc
}

// visit reads n's text bodies, each within the scope of the boxes around it.
func (r *drawReader) visit(n *xnode, sc drawScope) {
	switch {
	case inNS(n.start.Name, nsDgm, "dgm") && n.local() == "t", n.local() == "rich", n.local() == "txBody":
		r.body(n, sc)
		return
	case inNS(n.start.Name, nsDgm, "dgm") && n.local() == "pt":
		// A SmartArt node is filled by the graphic's colour styles (white text on an accent
		// colour, by Office's), which are not read: what lies under its text is known only when
		// its own shape properties fill it or leave it unfilled.
		sc.back, sc.styled = docxColor{set: true}, true
		if sp := n.child(nsDgm, "dgm", "spPr"); drawPaint(sp).set {
			sc.back, sc.styled = r.dc.filled(sp, r.dc.page), false
		}
	default:
		sc.back = r.dc.filled(n.child(nsC, "c", "spPr"), sc.back)
		sc.back = r.dc.filled(n.child(nsCdr, "cdr", "spPr"), sc.back)
	}
	if tx := n.child(nsC, "c", "txPr"); tx != nil {
		sc.props = sc.props.overValues(bodyDefaults(tx))
	}
	why := r.why
	if del := n.child(nsC, "c", "delete"); del != nil && onOff(del.start) {
		r.why |= hideShape // a deleted data label, axis or legend shows nothing
	}
	if inNS(n.start.Name, nsC, "c") && n.local() == "chartSpace" {
		r.area = sc.back
	}
	if inNS(n.start.Name, nsC, "c") && (n.local() == "catAx" || n.local() == "dateAx") {
		r.labels, r.labelsSize = r.runHide(sc.props, sc.back)
	}
	for _, k := range n.kids {
		r.visit(k, sc)
	}
	r.why = why
}

// filled is the colour under a box's text: its fill (spPr), else back, which it covers.
func (dc drawContext) filled(sp *xnode, back docxColor) docxColor {
	if sp == nil {
		return back
	}
	switch f := drawPaint(sp); {
	case !f.set || f.none || f.alpha < 0.05:
		return back
	case len(f.stops) == 0 && f.alpha >= 0.95:
		return applyMods(dc.theme.resolve(f.color))
	default:
		return docxColor{set: true} // a gradient, a picture, or see-through: not known
	}
}

// bodyDefaults are a text body's run defaults: its first level's (a:lstStyle/a:lvl1pPr/a:defRPr)
// under its first paragraph's (a:pPr/a:defRPr), which is how a chart's c:txPr sets the properties
// of all the text of its box.
func bodyDefaults(body *xnode) runProps {
	rp := drawRunProps(body.child(nsA, "a", "lstStyle").child(nsA, "a", "lvl1pPr").child(nsA, "a", "defRPr"))
	if p := body.child(nsA, "a", "p"); p != nil {
		rp = rp.overValues(drawRunProps(p.child(nsA, "a", "pPr").child(nsA, "a", "defRPr")))
	}
	return rp
}

// body reads a text body's paragraphs (a:p), its runs (a:r, a:fld) and breaks.
func (r *drawReader) body(n *xnode, sc drawScope) {
	base := sc.props.overValues(drawRunProps(n.child(nsA, "a", "lstStyle").child(nsA, "a", "lvl1pPr").child(nsA, "a", "defRPr")))
	for _, p := range n.kidsNamed("p") {
		if !inNS(p.start.Name, nsA, "a") {
			continue
		}
		props := base.overValues(drawRunProps(p.child(nsA, "a", "pPr").child(nsA, "a", "defRPr")))
		back := sc.back
		if sc.styled {
			if c, ok := r.dc.shapes[paragraphText(p)]; ok {
				back = c
			}
		}
		var b, hid strings.Builder // the text, and the hidden piece being read
		var pieces []Hidden
		var hidWhy hideSet
		var hidSize float64
		endHidden := func() {
			if hidWhy != 0 {
				b.WriteRune(hiddenMark)
				pieces = append(pieces, Hidden{Text: hid.String(), Reasons: hidWhy.names(), Size: hidSize})
			}
			hid.Reset()
			hidWhy = 0
		}
		for _, k := range p.kids {
			if !inNS(k.start.Name, nsA, "a") {
				continue
			}
			var text string
			switch k.local() {
			case "r", "fld":
				text = string(k.child(nsA, "a", "t").textOrNil())
			case "br":
				endHidden()
				b.WriteByte(' ')
				continue
			default:
				continue
			}
			why, size := r.runHide(props.overValues(drawRunProps(k.child(nsA, "a", "rPr"))), back)
			if why != hidWhy {
				endHidden()
			}
			if why == 0 {
				b.WriteString(text)
				continue
			}
			hid.WriteString(text)
			hidWhy, hidSize = why, size
		}
		endHidden()
		r.paragraph(b.String(), pieces)
	}
}

func (n *xnode) textOrNil() []byte {
	if n == nil {
		return nil
	}
	return n.text
}

// runHide judges a run with properties rp on back, as a Word run is judged.
func (r *drawReader) runHide(rp runProps, back docxColor) (hideSet, float64) {
	rp.textFill = rp.textFill.resolved(r.dc.theme)
	rp.textOutline = rp.textOutline.resolved(r.dc.theme)
	if h := applyMods(r.dc.theme.resolve(rp.highlight)); h.set && !h.none {
		back = h
	}
	why, size := runHide(rp, back)
	return why | r.why, size
}

// paragraph adds a paragraph read as s, the places of its hidden pieces marked in it: a paragraph
// of text, or its hidden pieces standing apart when it shows none.
func (r *drawReader) paragraph(s string, pieces []Hidden) {
	text, at := takeMarks(s)
	trimmed := strings.TrimSpace(text)
	lead := utf8.RuneCountInString(text) - utf8.RuneCountInString(strings.TrimLeftFunc(text, unicode.IsSpace))
	n := utf8.RuneCountInString(trimmed)
	var hs []Hidden
	for i, h := range pieces {
		if h.Text = strings.Join(strings.Fields(h.Text), " "); h.Text == "" {
			continue
		}
		h.Offset = min(max(at[i]-lead, 0), n)
		hs = append(hs, h)
	}
	if trimmed == "" {
		for _, h := range hs {
			r.orphans = append(r.orphans, orphanHidden{Hidden: h, after: len(r.paras) - 1})
		}
		return
	}
	r.paras = append(r.paras, Paragraph{Text: trimmed, Hidden: hs})
}
