package extract

// Text Word shows that is not in the document's own paragraphs: a part imported with w:altChunk
// (an HTML page, an MHT archive, plain text or another DOCX, which Word converts when it opens the
// file; tools that make a DOCX from a web page write one), a Word document embedded as an object
// (Insert → Object), which Word draws in place, and the text of a SmartArt graphic or a chart. A reader sees
// that text, so a check must read it, or a copied paragraph put there would be missing from the
// figures with nothing said.
// They are read where they stand, between the paragraphs around them.

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/net/html/charset"

	"thesischeck/internal/english"
)

// maxChunkDepth bounds DOCX parts inside DOCX parts: a document imports another at most twice over.
const maxChunkDepth = 2

// maxChunks bounds the parts one document imports or embeds.
const maxChunks = 1000

// maxHTMLPage bounds an imported HTML page: parsing builds a tree of several times its size, and
// a thesis's page, markup and all, is a few MB.
const maxHTMLPage = 16 << 20

// chunkBudget is what reading imported parts may still cost, shared by a document and the parts
// inside its parts: the bytes of the parts read, and the text they gave. A package of a thousand
// small parts that each inflate to the limit of one part must fail, not take gigabytes.
type chunkBudget struct{ raw, text int }

func newChunkBudget() *chunkBudget { return &chunkBudget{raw: MaxTextBytes, text: MaxDocText} }

// docxChunk is an imported or embedded part, where it stands.
type docxChunk struct {
	at      int    // paragraphs of the body before it
	id      string // its relationship
	word    bool   // an embedded Word document (an altChunk is read by its content)
	diagram bool   // a SmartArt graphic's data model
	chart   bool   // a chart
	// icon: an embedded object Word draws as an icon (DrawAspect="Icon"), showing none of its text.
	icon bool
	back docxColor // what lies under it on the page (a graphic's text is judged on it)
}

// altChunk notes a w:altChunk.
func (w *docxWalker) altChunk(t xml.StartElement) {
	if id := attr(t, "id"); id != "" && len(w.chunks) < maxChunks {
		w.chunks = append(w.chunks, docxChunk{at: len(w.paras), id: id})
	}
}

// diagram notes a SmartArt graphic (dgm:relIds), whose text is in its data model's part: Word draws
// the graphic with its text in place, so a paragraph typed into its boxes is on the page.
func (w *docxWalker) diagram(t xml.StartElement) {
	if why, _ := w.hide(); why != 0 {
		return
	}
	if id := attr(t, "dm"); id != "" && len(w.chunks) < maxChunks {
		w.chunks = append(w.chunks, docxChunk{at: len(w.paras), id: id, diagram: true, back: w.under()})
	}
}

// chart notes a chart (c:chart): Word draws its title, its axes' titles and the text boxes put on
// it, which hold any text (a thesis whose copied paragraphs were made the titles of charts read
// 0.0 % with no warning).
func (w *docxWalker) chart(t xml.StartElement) {
	if why, _ := w.hide(); why != 0 {
		return
	}
	if id := attr(t, "id"); id != "" && len(w.chunks) < maxChunks {
		w.chunks = append(w.chunks, docxChunk{at: len(w.paras), id: id, chart: true, back: w.under()})
	}
}

// under is the colour under a graphic that stands here, its theme's names resolved.
func (w *docxWalker) under() docxColor {
	return applyMods(w.theme.resolve(w.background(runProps{})))
}

// object reads a w:object: an embedded Word document is noted as a part to read (its text hidden
// when Word draws it as an icon); any other object (an Excel sheet, an equation) shows a picture
// of itself, which is looked at as pictures are.
func (w *docxWalker) object(d *xml.Decoder) error {
	var progID, objectID, pictureID string
	icon := false
	err := eachStart(d, func(t xml.StartElement) {
		switch t.Name.Local {
		case "OLEObject":
			progID, objectID = attr(t, "ProgID"), attr(t, "id")
			icon = strings.EqualFold(attr(t, "DrawAspect"), "Icon")
		case "imagedata":
			pictureID = attr(t, "id")
		}
	})
	if err != nil {
		return err
	}
	if why, _ := w.hide(); why != 0 {
		return nil
	}
	if strings.HasPrefix(progID, "Word.Document") && objectID != "" && len(w.chunks) < maxChunks {
		w.chunks = append(w.chunks, docxChunk{at: len(w.paras), id: objectID, word: true, icon: icon})
		return nil
	}
	if pictureID != "" {
		w.pictureStart(pictureID)
	}
	return nil
}

// readChunks reads the parts the body w read imports or embeds and puts their paragraphs where
// they stand among w's, the hidden text that stood outside any paragraph (w's and theirs) placed
// beside the paragraph before it; it returns what no paragraph could take. A part that cannot be
// read is said in a warning, not an error: the rest of the document is still the document.
func readChunks(ctx context.Context, pkg *docxPackage, rels []rel, mainName string, w *docxWalker, depth int, budget *chunkBudget) ([]Paragraph, []Hidden, []Warning, []picture, error) {
	paras, orphans := w.paras, w.orphans
	if len(w.chunks) == 0 {
		return paras, attachOrphans(paras, orphans), nil, nil, nil
	}
	var out []Paragraph
	var warnings []Warning
	var pictures []picture // a DOCX part's own
	var unread []string
	next := 0
	// moved maps the body's paragraphs to their places among out, for the orphans that follow them.
	moved := make([]int, len(paras))
	var more []orphanHidden // the parts' own
	for _, c := range w.chunks {
		for i := next; i < c.at; i++ {
			moved[i] = len(out) + i - next
		}
		out = append(out, paras[next:c.at]...)
		next = c.at
		name := relByID(rels, c.id, mainName)
		if name == "" || pkg.parts[strings.ToLower(name)] == nil {
			continue // a relationship to nothing shows nothing
		}
		raw, err := pkg.read(name)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if budget.raw -= len(raw); budget.raw < 0 {
			return nil, nil, nil, nil, fmt.Errorf("%w: its imported parts expand to more than %d MB", ErrTooLarge, MaxTextBytes>>20)
		}
		var doc *Document
		dc := drawContext{theme: w.theme, page: c.back}
		switch {
		case c.diagram:
			if m := reDrawingRel.FindSubmatch(raw); m != nil {
				dc.shapes = smartArtShapes(pkg.readOptional(relByID(rels, string(m[1]), mainName)), dc)
			}
			doc, err = drawingDocument(raw, dc)
		case c.chart:
			doc, err = chartDocument(pkg, name, raw, dc)
		default:
			doc, err = readChunk(ctx, raw, c.word, depth, budget)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, nil, nil, ctx.Err()
			}
			unread = append(unread, fmt.Sprintf("%s (%v)", name, err))
			continue
		}
		for _, p := range doc.Paragraphs {
			budget.text -= len(p.Text)
		}
		if budget.text < 0 {
			return nil, nil, nil, nil, fmt.Errorf("%w: more than %d MB of text", ErrTooLarge, MaxDocText>>20)
		}
		if c.icon {
			for _, h := range iconText(doc) {
				more = append(more, orphanHidden{Hidden: h, after: len(out) - 1})
			}
		} else {
			for _, h := range doc.unplacedHidden {
				more = append(more, orphanHidden{Hidden: h, after: len(out) - 1})
			}
			out = append(out, doc.Paragraphs...)
		}
		warnings = append(warnings, doc.Warnings...)
		pictures = append(pictures, doc.pictures...)
		if len(out) > MaxParagraphs {
			return nil, nil, nil, nil, fmt.Errorf("%w: more than %d paragraphs", ErrTooLarge, MaxParagraphs)
		}
	}
	for i := next; i < len(paras); i++ {
		moved[i] = len(out) + i - next
	}
	out = append(out, paras[next:]...)
	for _, o := range orphans {
		if o.after >= 0 && o.after < len(moved) {
			o.after = moved[o.after]
		}
		more = append(more, o)
	}
	sort.SliceStable(more, func(i, j int) bool { return more[i].after < more[j].after })
	if len(unread) > 0 {
		warnings = append(warnings, Warning{Kind: WarnUnreadableParts, Count: len(unread),
			Message: fmt.Sprintf("%s Word shows could not be read: %s; their text is missing from the check",
				english.Count(len(unread), "imported or embedded part", "imported or embedded parts"), strings.Join(unread, "; "))})
	}
	return out, attachOrphans(out, more), warnings, pictures, nil
}

// reDrawingRel finds the relationship of a SmartArt graphic's drawing part in its data model.
var reDrawingRel = regexp.MustCompile(`<(?:\w+:)?dataModelExt\b[^>]*?\brelId="([^"]+)"`)

// iconText is the text of a document Word draws as an icon, which shows none of it: as hidden
// pieces, its own hidden text with them.
func iconText(doc *Document) []Hidden {
	var hs []Hidden
	for _, p := range doc.Paragraphs {
		hs = append(hs, Hidden{Text: p.Text, Reasons: []string{HideIcon}})
		hs = append(hs, p.Hidden...)
	}
	return append(hs, doc.unplacedHidden...)
}

// readChunk reads one part: a DOCX (an embedded Word document, or one imported), an MHT archive,
// an HTML page or plain text, told by their content.
func readChunk(ctx context.Context, raw []byte, word bool, depth int, budget *chunkBudget) (*Document, error) {
	head := strings.ToLower(string(raw[:min(len(raw), 1024)]))
	switch {
	case bytes.HasPrefix(raw, []byte("PK\x03\x04")):
		if depth >= maxChunkDepth {
			return nil, fmt.Errorf("a Word document inside %d others", depth)
		}
		return readDOCXDepth(ctx, raw, depth+1, budget)
	case word:
		return nil, fmt.Errorf("an embedded document in an older Word format")
	case strings.HasPrefix(head, "{\\rtf"):
		return nil, fmt.Errorf("RTF")
	case strings.Contains(head, "mime-version:") || strings.Contains(head, "multipart/related"):
		page, err := mhtPage(raw)
		if err != nil {
			return nil, err
		}
		return htmlDocument(page)
	case strings.Contains(head, "<html") || strings.Contains(head, "<body") || strings.Contains(head, "<!doctype html") ||
		strings.Contains(head, "<p") || strings.Contains(head, "<div"):
		return htmlDocument(raw)
	}
	return readTXT(raw)
}

// chartDocument reads a chart's text: the paragraphs of its rich text (its title, its axes'
// titles, rich data labels), those of the text boxes drawn on it (its user shapes' part) and its
// category labels when they are text (chartLabels), each judged by its properties as a SmartArt
// graphic's are (drawingDocument).
func chartDocument(pkg *docxPackage, name string, raw []byte, dc drawContext) (*Document, error) {
	r, err := readDrawing(raw, dc)
	if err != nil {
		return nil, err
	}
	for _, l := range chartLabels(raw) {
		if r.labels == 0 {
			r.paras = append(r.paras, Paragraph{Text: l})
		} else {
			r.orphans = append(r.orphans, orphanHidden{Hidden: Hidden{Text: l, Reasons: r.labels.names(), Size: r.labelsSize}, after: len(r.paras) - 1})
		}
	}
	if shapes := pkg.target(pkg.rels(name), "chartUserShapes", name, ""); shapes != "" && pkg.parts[strings.ToLower(shapes)] != nil {
		raw, err := pkg.read(shapes)
		if err != nil {
			return nil, err
		}
		more, err := readDrawing(raw, drawContext{theme: dc.theme, page: r.area})
		if err != nil {
			return nil, err
		}
		for _, o := range more.orphans {
			o.after += len(r.paras)
			r.orphans = append(r.orphans, o)
		}
		r.paras = append(r.paras, more.paras...)
	}
	return r.document(), nil
}

// A chart's category labels are read as text when one holds minChartLabel letters or more, or all
// of them minChartLabels together: a chart's own (years, months, places, a dozen short names) hold
// fewer, and are not read, lest every chart add to the characters a figure is a share of; copied
// paragraphs typed as labels (which read 0.0 %) hold more.
const (
	minChartLabel  = 20
	minChartLabels = 100
)

// chartLabels is the text of a chart's category labels (the values its c:cat caches hold), one
// label a paragraph, when Word shows them (the category axis is not deleted, nor its labels set to
// none) and they are text (minChartLabel); nil else.
func chartLabels(raw []byte) []string {
	d := newXMLDecoder(raw)
	var labels []string
	var names []string
	letters, longest, shown := 0, 0, true
	inCat, inV := 0, false
	var v strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if !inNS(t.Name, nsC, "c") {
				continue
			}
			names = append(names, t.Name.Local)
			switch t.Name.Local {
			case "cat":
				inCat++
			case "v":
				inV = inCat > 0
				v.Reset()
			case "delete", "tickLblPos":
				if n := len(names); n >= 2 && names[n-2] == "catAx" {
					val := attr(t, "val")
					shown = shown && !(t.Name.Local == "delete" && (val == "1" || val == "true") || t.Name.Local == "tickLblPos" && val == "none")
				}
			}
		case xml.EndElement:
			if !inNS(t.Name, nsC, "c") {
				continue
			}
			if n := len(names); n > 0 {
				names = names[:n-1]
			}
			switch t.Name.Local {
			case "cat":
				inCat--
			case "v":
				if inV {
					if s := strings.TrimSpace(v.String()); s != "" {
						labels = append(labels, s)
						n := countRunes(s, unicode.IsLetter)
						letters, longest = letters+n, max(longest, n)
					}
				}
				inV = false
			}
		case xml.CharData:
			if inV {
				v.Write(t)
			}
		}
	}
	if !shown || longest < minChartLabel && letters < minChartLabels {
		return nil
	}
	return labels
}

// htmlDocument reads an HTML page, refusing one too large or nested too deep to parse.
func htmlDocument(page []byte) (*Document, error) {
	if len(page) > maxHTMLPage {
		return nil, fmt.Errorf("an HTML page of %d MB", len(page)>>20)
	}
	if htmlDepth(page) > maxHTMLDepth {
		return nil, fmt.Errorf("an HTML page whose elements nest more than %d deep", maxHTMLDepth)
	}
	return &Document{Paragraphs: htmlParagraphs(page)}, nil
}

// maxHTMLDepth bounds how deep the elements of an imported HTML page may nest. golang.org/x/net's
// parser looks through the elements open at each tag, so a page that opens elements without closing
// them takes time in the square of its length: 80,000 <div> or 20,000 "<a><b></p>" (200 KB) took
// 25 and 6 s, and a page of 16 MB would take hours. A page written by a person or a tool nests a few
// dozen deep; 1,000 deep parses in 6 ms.
const maxHTMLDepth = 1000

// htmlDepth is how deep a page's elements nest, as its tags say (html.Tokenizer, a linear pass):
// each start tag opens an element and each end tag closes one of its name, but for void elements
// and those whose ends HTML implies (p, li, td, option …), which never pile up.
func htmlDepth(page []byte) int {
	r, err := charset.NewReader(bytes.NewReader(page), "")
	if err != nil {
		r = bytes.NewReader(page)
	}
	z := html.NewTokenizer(r)
	depth, deepest := 0, 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return deepest
		case html.StartTagToken:
			if name, _ := z.TagName(); !htmlImpliedEnd[string(name)] {
				depth++
				deepest = max(deepest, depth)
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); !htmlImpliedEnd[string(name)] {
				depth = max(depth-1, 0)
			}
		}
	}
}

// htmlImpliedEnd are the void elements and those whose end tags HTML implies.
var htmlImpliedEnd = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true, "input": true,
	"link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true,
	"p": true, "li": true, "dt": true, "dd": true, "tr": true, "td": true, "th": true, "option": true, "optgroup": true,
	"rb": true, "rt": true, "rp": true, "rtc": true, "tbody": true, "thead": true, "tfoot": true, "colgroup": true,
	"caption": true, "html": true, "head": true, "body": true,
}

// mhtPage is the HTML page of an MHT archive (a MIME message, as Word and html-docx-js write it):
// its first text/html part, its transfer encoding undone.
func mhtPage(raw []byte) ([]byte, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("MHT: %v", err)
	}
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || !strings.HasPrefix(mediaType, "multipart/") {
		return partBody(msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextRawPart()
		if err != nil {
			return nil, fmt.Errorf("MHT: no HTML page")
		}
		if t, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); t == "text/html" {
			return partBody(p.Header.Get("Content-Transfer-Encoding"), p)
		}
	}
}

func partBody(encoding string, r io.Reader) ([]byte, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		return nil, fmt.Errorf("MHT: a base64 page") // Word writes quoted-printable; not seen otherwise
	}
	return io.ReadAll(io.LimitReader(r, maxHTMLPage+1))
}

// htmlParagraphs reads an HTML page's text into paragraphs: one per block (p, div, li, a table
// cell, a heading, which is marked so), none from script, style, the head. Text a reader cannot see
// by the styles Word's HTML import honours (htmlStyle, inline or by the page's style sheets) is left
// out of the paragraph and kept as its hidden text. The page is parsed as a browser parses it (end
// tags it leaves out are implied), in the charset its <meta> names.
func htmlParagraphs(page []byte) []Paragraph {
	r, err := charset.NewReader(bytes.NewReader(page), "")
	if err != nil {
		r = bytes.NewReader(page)
	}
	root, err := html.Parse(r)
	if err != nil {
		return nil
	}
	var ps []Paragraph
	var orphans []orphanHidden
	var b strings.Builder
	var pieces []Hidden // the hidden pieces of the paragraph being read, marked in b
	var hid strings.Builder
	var hidWhy hideSet
	var hidSize float64
	gap := false // roomy hidden text with spaces in it since the last visible text (spaceAfterGap)
	heading := false
	var guides strings.Builder        // ruby text read after the paragraph (htmlGuide)
	lettered := map[*html.Node]bool{} // whether a ruby's base shows letters, by the ruby (htmlGuide)
	endHidden := func() {
		if text := htmlText(hid.String()); text != "" {
			b.WriteRune(hiddenMark)
			pieces = append(pieces, Hidden{Text: text, Reasons: hidWhy.names(), Size: hidSize})
		}
		hid.Reset()
		hidWhy, hidSize = 0, 0
	}
	flush := func() {
		endHidden()
		if guides.Len() > 0 {
			b.WriteString("\n" + guides.String())
			guides.Reset()
		}
		text, at := takeMarks(htmlText(b.String()))
		switch {
		case text != "":
			for i := range pieces {
				pieces[i].Offset = at[i]
			}
			ps = append(ps, Paragraph{Text: text, Heading: heading, Hidden: pieces})
		default:
			for _, h := range pieces {
				orphans = append(orphans, orphanHidden{Hidden: h, after: len(ps) - 1})
			}
		}
		pieces = nil
		b.Reset()
		heading, gap = false, false
	}
	sheet := htmlSheetOf(root)
	var walk func(n *html.Node, st htmlStyle)
	walk = func(n *html.Node, st htmlStyle) {
		switch n.Type {
		case html.TextNode:
			if why, size := st.hides(); why != 0 {
				if hid.Len() > 0 && why != hidWhy {
					endHidden()
				}
				hid.WriteString(n.Data)
				hidWhy, hidSize = why, size
				gap = gap || roomy(why) && strings.ContainsAny(n.Data, " \t\r\n")
				return
			}
			endHidden()
			b.WriteString(spaceAfterGap(&gap, b.String(), n.Data))
			b.WriteString(n.Data)
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Head, atom.Title, atom.Noscript, atom.Template:
				return
			case atom.Rp:
				return // shown only where ruby is not
			case atom.Rt:
				guides.WriteString(htmlGuide(n, st, sheet, lettered))
				return
			case atom.Br:
				if why, _ := st.hides(); why == 0 {
					endHidden()
					b.WriteByte('\n')
				}
				return
			}
			st = st.of(n, sheet)
		}
		block := n.Type == html.ElementNode && htmlBlock(n.DataAtom)
		if block {
			flush()
			switch n.DataAtom {
			case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
				heading = true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, st)
		}
		if block {
			flush()
		}
	}
	walk(root, htmlStyle{})
	flush()
	attachOrphans(ps, orphans) // with no paragraph to stand by, the page shows nothing: dropped
	return ps
}

// htmlGuide is the text of a ruby's rt to read after its paragraph, as a DOCX's phonetic guides are
// read (docx_ruby.go): what it shows, when it holds Han characters or stands over no letters; none
// when it spells its base's sounds. What the page's styles hide in it is left out unwarned.
// lettered keeps, for each ruby, whether its base shows letters: read again for each of its rt, a
// ruby of 20,000 took 8 s, its base's text walked for every one.
func htmlGuide(rt *html.Node, ruby htmlStyle, sheet htmlSheet, lettered map[*html.Node]bool) string {
	var guide strings.Builder
	var text func(n *html.Node, st htmlStyle, out *strings.Builder)
	text = func(n *html.Node, st htmlStyle, out *strings.Builder) {
		if n.Type == html.TextNode {
			if why, _ := st.hides(); why == 0 {
				out.WriteString(n.Data)
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom != atom.Rt && c.DataAtom != atom.Rp {
				text(c, st.of(c, sheet), out)
			} else if c.Type == html.TextNode {
				text(c, st, out)
			}
		}
	}
	text(rt, ruby.of(rt, sheet), &guide)
	letters, ok := lettered[rt.Parent]
	if !ok && rt.Parent != nil {
		var base strings.Builder
		text(rt.Parent, ruby, &base) // the ruby's other text, its rt and rp left out
		letters = strings.ContainsFunc(base.String(), isLetterOrDigit)
		lettered[rt.Parent] = letters
	}
	g := guide.String()
	if strings.ContainsFunc(g, isHan) || !letters {
		return g
	}
	return ""
}

func htmlBlock(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.Li, atom.Td, atom.Th, atom.Tr, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
		atom.Blockquote, atom.Pre, atom.Section, atom.Article, atom.Body, atom.Table, atom.Ul, atom.Ol, atom.Dd, atom.Dt:
		return true
	}
	return false
}

// htmlText collapses an HTML text's white space as a browser does, except that a line break
// between two Chinese characters is dropped (a browser shows a space there, but the source's
// lines are where an editor wrapped them, not spaces someone typed).
func htmlText(s string) string {
	var b strings.Builder
	space, newline := false, false
	var last rune
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			newline = newline || r == '\n' || r == '\r'
			continue
		}
		if space && b.Len() > 0 && !(newline && isCJK(last) && isCJK(r)) {
			b.WriteByte(' ')
		}
		space, newline = false, false
		b.WriteRune(r)
		last = r
	}
	if !utf8.ValidString(b.String()) {
		return strings.ToValidUTF8(b.String(), "\uFFFD")
	}
	return b.String()
}
