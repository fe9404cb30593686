package extract

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// paraBuilder collects one w:p. Text boxes put paragraphs inside paragraphs, so they stack.
type paraBuilder struct {
	lines      []string
	cur        strings.Builder
	style      string
	outline    int
	numID      string
	numLevel   int
	hasNum     bool
	notes      []string
	shd        docxColor     // the paragraph's own shading (w:pPr/w:shd)
	hidden     []*docxHidden // text in it that a reader cannot see
	breakAfter bool          // a page begins after it (docxWalker.pageBreak)
	seq        int           // its place among all the paragraphs begun, kept or not (docx_cover.go)
	frameExact float64       // the exact height of its frame, points; 0 for none
	// lineExact is its exact line height, points, 0 for none; lineSet: its own w:spacing gave
	// the line height (its style's is not looked up).
	lineExact float64
	lineSet   bool
	// gap: hidden text that takes its room on the page, spaces in it, stood since the last visible
	// text (roomy)
	gap      bool
	ind      indent // its own w:ind
	frameOff bool   // in a frame placed off the page (frameOff)
	// off: it lies off the page (offColumn), worked out at its first run's text (offKnown), when
	// its properties have all been read
	off, offKnown bool
	// Text of it was written in a table of contents (a TOC field's result, a content control of
	// the table-of-contents gallery) or in a content control showing its placeholder: the
	// paragraph is left out if it reads as an entry of a table of contents (tocEntry) or as
	// Word's prompt (wordPrompt), and read as any other if not, since Word shows it.
	toc, prompt bool
	guides      []rubyGuide // phonetic guides read after its text (docx_ruby.go)
	mark        runProps    // its paragraph mark's run properties (w:pPr/w:rPr)
	// sized: its visible text, run by run, with the size each is drawn at (hideSmall); writes
	// counts the writes of visible and hidden text, in order
	sized  []sizedText
	writes int
}

// nextWrite numbers a write of text into the paragraph, visible or hidden.
func (p *paraBuilder) nextWrite() int {
	p.writes++
	return p.writes
}

func (p *paraBuilder) breakLine() {
	p.lines = append(p.lines, p.cur.String())
	p.cur.Reset()
	p.gap = false
}

func (p *paraBuilder) text() string {
	return linesText(append(p.lines, p.cur.String()))
}

// linesText joins the lines of a paragraph (split by w:br) as its text.
func linesText(lines []string) string {
	kept := lines[:0]
	for _, l := range lines {
		l = strings.Map(func(r rune) rune {
			switch r {
			case '\t', '\n', '\r':
				return ' '
			case 0:
				return -1
			}
			return r
		}, l)
		if strings.TrimSpace(l) != "" {
			kept = append(kept, l)
		}
	}
	return strings.TrimSpace(joinLines(kept))
}

type sdtKind int

const (
	sdtPlain  sdtKind = iota
	sdtTOC            // a table of contents
	sdtPrompt         // showing its placeholder
)

type fieldState struct {
	instr  strings.Builder
	result bool // past w:fldChar separate: what follows is the field's displayed result
	toc    bool
	// A drop-down form field's entries (w:ddList) and the one it shows: Word writes no result
	// for it, and shows the entry.
	entries    []string
	pick, dflt int
	picked     bool
}

type docxWalker struct {
	ctx    context.Context
	styles styleSheet
	num    *numbering
	notes  map[string]string // "f2" / "e3" → note text, for the body walk
	// fonts are the fonts the document embeds, by name (docxFonts); runFonts those of the run being
	// read, for ascii, hAnsi and eastAsia text, when one of them is embedded.
	fonts    map[string][]*fontProgram
	runFonts *[3][]*fontProgram
	theme    *docxTheme // nil: Office's
	stores   *docxStores
	// bound is, per open w:sdt, the text of the custom XML node it is bound to, if it is.
	bound []boundText

	paras    []Paragraph
	stack    []*paraBuilder
	fields   []*fieldState
	altTaken []bool // per open mc:AlternateContent: a branch was already read
	// namespaces are the part's namespace declarations (prefix → URIs), when it has alternate
	// content.
	namespaces map[string][]string
	// ignored are the namespaces, other than Office's, that the part marks as ignorable: Word
	// skips their elements with what they hold, but those named by mc:ProcessContent
	// ("uri local", "uri *": their content is read).
	ignored               map[string]bool
	ignoredDepth          int    // inside elements Word ignores
	bidi                  []bool // per open w:bdo or w:dir: it wrote a formatting character, to be closed
	names                 []string
	tText                 strings.Builder
	inT                   bool
	preserve              bool
	runMark               bool            // the run holds a custom footnote mark, which is not body text
	markText              strings.Builder // the custom mark's text (markEnd)
	ruby                  *rubyState      // the phonetic guide being read (docx_ruby.go)
	sdts                  []sdtKind
	tocDepth, promptDepth int    // inside content controls of a table of contents, of a placeholder
	fldSimpleTOC          []bool // per open w:fldSimple: a table of contents

	// pictureIDs are the relationship ids of the pictures shown, in order (pictures.go).
	pictureIDs []string
	// Pages covered by a drawing in front of the text (docx_cover.go): the paragraphs the
	// drawings are anchored at, the paragraphs pages begin at, and how to read a picture part.
	covers         []pageCover
	pageStarts     []int
	pictureData    func(id string) []byte
	backdrops      []pageBackdrop
	anchors        []anchored                // floating drawings, for those that cover others (coveredBoxes)
	opaquePictures map[string]bool           // shared as plainPictures: whether a picture lets nothing through
	onPage         map[int]docxColor         // a page's background by paragraph (seq), for the second walk
	seqs           int                       // paragraphs begun
	kept           []int                     // by seq: the paragraph's index in paras, -1 if not kept
	seqEms         []float64                 // by seq: the room its text takes, hidden text too
	plainPictures  map[string]plainPictureOf // shared by a document's walkers (docx_cover.go)
	// chunks are the parts imported (w:altChunk) or embedded (a Word document object), read
	// after the walk (docx_chunks.go).
	chunks []docxChunk

	// Hidden text (docx_hidden.go): the run's own properties and character style, why it cannot
	// be seen (worked out at its first text), the backgrounds of the table cells and text boxes
	// it is in, the page's colour, and the drawings it is in with what hides them.
	run      runProps
	runStyle string
	runWhy   hideSet
	runSize  float64
	runDone  bool
	// runNarrow: the run's spaces are condensed to almost nothing (narrowSpaces)
	runNarrow bool
	// The runs w:fitText may shrink (fitRuns), by where their w:r tags end; that of the run being
	// read, and of the element being started.
	fits  map[int64]fitRun
	boxes map[int64]boxBody // the part's text boxes (textBoxes)
	// part is the part being walked (xmlBytes); tableRows, the cells of each row of its tables
	// (tableRows), counted when a table's style first needs its last row or column.
	part            []byte
	tableRows       map[int64][]int
	runOff, elemOff int64
	// the same for text in a complex script, and whether the run is all complex script
	runWhyCS   hideSet
	runSizeCS  float64
	paraSizes  []paraSize // of each of paras, its own size (hideSmall), for smallParagraphs
	runPt      float64    // the run's size, points (runPoints); runPtCS, of its complex script
	runPtCS    float64
	runCS      bool
	backs      []docxBack
	tables     []docxTable
	page       docxColor
	shapes     []docxShape
	pageW      int64 // EMU
	pageH      int64
	orphans    []orphanHidden      // hidden paragraphs: no visible text to stand in
	noteHidden map[string][]Hidden // "f2" → the hidden text of that note

	marginL, marginR int64 // the page's, EMU
	marginT, marginB int64 // its top and bottom margins, EMU
	widest, tallest  int64 // the largest section's page, EMU
	// What the styles give, by paragraph and character style: worked out once each.
	styledRuns   map[[2]string]runProps
	styleShading map[string]docxColor

	// Notes parts: the text of each footnote or endnote, keyed by id.
	noteID    string
	noteParts []string
	noteTexts map[string]string

	// The body: notes already attached to a paragraph, and the references to them that followed.
	notesKept   map[string]bool
	noteRepeats int
	textBytes   int // text of the paragraphs and their notes so far, bounded by MaxDocText
}

func newDocxWalker(ctx context.Context, ss styleSheet, num *numbering) *docxWalker {
	w := &docxWalker{ctx: ctx, styles: ss, num: num, noteTexts: map[string]string{}, notesKept: map[string]bool{}, noteHidden: map[string][]Hidden{},
		styledRuns: map[[2]string]runProps{}, styleShading: map[string]docxColor{}}
	w.place(pageOf(nil))
	return w
}

func (w *docxWalker) top() *paraBuilder {
	if len(w.stack) == 0 {
		return nil
	}
	return w.stack[len(w.stack)-1]
}

func (w *docxWalker) parent() string {
	if len(w.names) == 0 {
		return ""
	}
	return w.names[len(w.names)-1]
}

func (w *docxWalker) grandparent() string {
	if len(w.names) < 2 {
		return ""
	}
	return w.names[len(w.names)-2]
}

func (w *docxWalker) inTOC() bool {
	if w.tocDepth > 0 || slices.Contains(w.fldSimpleTOC, true) {
		return true
	}
	for _, f := range w.fields {
		if f.toc && f.result {
			return true
		}
	}
	return false
}

// write adds text to the innermost open paragraph: visible text to its text, hidden text apart.
func (w *docxWalker) write(s string) {
	p := w.top()
	if p == nil {
		return
	}
	if r := w.ruby; r != nil && r.inGuide && r.p == p {
		p = r.g // a phonetic guide's text, kept apart (docx_ruby.go)
	}
	if w.runMark {
		w.markText.WriteString(s)
		return
	}
	p.toc = p.toc || w.inTOC()
	p.prompt = p.prompt || w.promptDepth > 0
	why, size := w.hideText(s)
	if why != 0 || w.runFonts == nil {
		w.put(p, s, why, size)
		return
	}
	// Letters an embedded font draws as specks, with the marks and spaces after them, are hidden.
	for s != "" {
		n, unseen := w.unseenPiece(s)
		if unseen {
			w.put(p, s[:n], hideBlankFont, size)
		} else {
			w.put(p, s[:n], 0, size)
		}
		s = s[n:]
	}
}

// unseenPiece returns the length of the first piece of s whose letters and digits are all unseen
// (drawn as specks, or as nothing, by one of the run's embedded fonts, regular, bold or italic), or
// all seen, and which it is; the spaces between the two go with the unseen piece, as the marks
// after one do. Word draws a character in the run's eastAsia font
// when it is Chinese, Japanese or Korean, in its ascii font when it is ASCII, and in its hAnsi
// font else.
func (w *docxWalker) unseenPiece(s string) (int, bool) {
	state := -1  // 0 seen, 1 unseen; -1 no letter yet
	spaces := -1 // where the spaces before r start; -1 when r follows no space
	for i, r := range s {
		if unicode.IsSpace(r) {
			if spaces < 0 {
				spaces = i
			}
			continue
		}
		before := spaces
		spaces = -1
		if !isLetterOrDigit(r) {
			continue
		}
		k := 1
		switch {
		case r < 0x80:
			k = 0
		case eastAsian(r):
			k = 2
		}
		u := 0
		for _, f := range w.runFonts[k] {
			if f.Unseen(f.Glyph(r), r, true) {
				u = 1
			}
		}
		switch {
		case state < 0:
			state = u
		case u != state && u == 1 && before > 0:
			return before, false
		case u != state:
			return i, state == 1
		}
	}
	return len(s), state == 1
}

// eastAsian reports a character Word sets in a run's East Asian font: isCJK's, and bopomofo.
func eastAsian(r rune) bool { return isCJK(r) || unicode.Is(unicode.Bopomofo, r) }

// put adds text s, hidden for why (0: visible), to paragraph p.
func (w *docxWalker) put(p *paraBuilder, s string, why hideSet, size float64) {
	seq := p.nextWrite()
	if why == 0 {
		if w.runNarrow {
			s = strings.ReplaceAll(s, " ", "\u200a")
		}
		p.cur.WriteString(spaceAfterGap(&p.gap, p.cur.String(), s))
		pt := w.runPt
		if w.runCS || complexScript(s) {
			pt = w.runPtCS
		}
		p.sized = append(p.sized, sizedText{line: len(p.lines), from: p.cur.Len(), to: p.cur.Len() + len(s), pt: pt, seq: seq})
		p.cur.WriteString(s)
		return
	}
	p.gap = p.gap || roomy(why) && strings.ContainsAny(s, " \t")
	line, off := len(p.lines), p.cur.Len()
	if n := len(p.hidden); n > 0 {
		if h := p.hidden[n-1]; h.line == line && h.off == off && h.why == why && h.apart == nil {
			h.text.WriteString(s)
			h.size = max(h.size, size)
			return
		}
	}
	h := &docxHidden{line: line, off: off, why: why, size: size, seq: seq}
	h.text.WriteString(s)
	p.hidden = append(p.hidden, h)
}

// startText begins a w:t or m:t element, whose character data is the text.
func (w *docxWalker) startText(t xml.StartElement) {
	w.inT = true
	w.preserve = false
	for _, a := range t.Attr {
		if a.Name.Local == "space" && (a.Name.Space == nsXML || a.Name.Space == "xml") && a.Value == "preserve" {
			w.preserve = true
		}
	}
	w.tText.Reset()
}

// endText ends a w:t or m:t element: its text is written into the paragraph.
func (w *docxWalker) endText() {
	w.inT = false
	s := w.tText.String()
	if !w.preserve {
		s = strings.Trim(s, " \t\r\n")
	}
	w.write(s)
}

// bidiControls are the characters for Word's w:bdo (override) and w:dir (embedding), by element and
// direction.
var bidiControls = map[string]string{"bdortl": "\u202E", "bdoltr": "\u202D", "dirrtl": "\u202B", "dirltr": "\u202A"}

// control writes a formatting character, which neither shows nor hides, into the paragraph.
func (w *docxWalker) control(c string) {
	if p := w.top(); p != nil && c != "" && !w.runMark {
		p.cur.WriteString(c)
	}
}

func (w *docxWalker) walk(raw []byte) error {
	w.namespaces, w.ignored = nil, nil
	if bytes.Contains(raw, []byte("AlternateContent")) || bytes.Contains(raw, []byte("Ignorable")) {
		w.namespaces = declaredNamespaces(raw)
		w.ignored = ignoredElements(raw, w.namespaces)
	}
	raw = xmlBytes(raw)
	w.fits = fitRuns(w.ctx, raw, w.styles)
	w.boxes = textBoxes(raw)
	w.part, w.tableRows = raw, nil
	d := xmlDecoder(raw)
	for n := 0; ; n++ {
		if n&4095 == 0 && w.ctx.Err() != nil {
			return w.ctx.Err()
		}
		if len(w.paras) > MaxParagraphs {
			// Before the paragraphs of a hostile part, small each, cost gigabytes.
			return fmt.Errorf("%w: more than %d paragraphs", ErrTooLarge, MaxParagraphs)
		}
		if w.textBytes > MaxDocText {
			return fmt.Errorf("%w: more than %d MB of text", ErrTooLarge, MaxDocText>>20)
		}
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			skip, err := w.start(d, t)
			if err != nil {
				return err
			}
			if !skip {
				w.names = append(w.names, t.Name.Space+" "+t.Name.Local)
			}
		case xml.EndElement:
			if len(w.names) > 0 {
				w.names = w.names[:len(w.names)-1]
			}
			w.end(t)
		case xml.CharData:
			if w.inT {
				w.tText.Write(t)
			}
		}
	}
}

// start handles an opening tag; skip reports that its whole element was consumed.
func (w *docxWalker) start(d *xml.Decoder, t xml.StartElement) (skip bool, err error) {
	w.elemOff = d.InputOffset()
	if w.ignores(t.Name) {
		w.ignoredDepth++ // its text is hidden (hide)
		return false, nil
	}
	if t.Name.Space == nsMC || t.Name.Space == "mc" {
		switch t.Name.Local {
		case "AlternateContent":
			w.altTaken = append(w.altTaken, false)
		case "Choice", "Fallback":
			// Both branches hold the same content (a text box as DrawingML and as VML): read the one
			// Word shows, the first choice whose namespaces it knows, else the fallback.
			if n := len(w.altTaken); n > 0 {
				if w.altTaken[n-1] || t.Name.Local == "Choice" && !w.understood(attr(t, "Requires")) {
					return true, d.Skip()
				}
				w.altTaken[n-1] = true
			}
		}
		return false, nil
	}
	if inNS(t.Name, nsMath, "m") {
		// An equation's text: Word draws it in the paragraph (and a PDF of it holds it), so it is
		// read as a run's text is; its runs take w:rPr, white or hidden text included.
		switch t.Name.Local {
		case "t":
			w.startText(t)
		case "r":
			w.startRun()
		}
		return false, nil
	}
	if t.Name.Space == nsW14 {
		if p := w.parent(); (p == nsW+" rPr" || p == nsWStrict+" rPr") && w.isRunProps() && applyEffect(&w.run, d, t) {
			return true, nil
		}
	}
	if !isW(t.Name) {
		return w.shapeStart(d, t)
	}
	parent := w.parent()
	inW := func(local string) bool {
		return parent == nsW+" "+local || parent == nsWStrict+" "+local || parent == "w "+local
	}
	if t.Name.Local == "sdtContent" {
		if n := len(w.bound); n > 0 && w.bound[n-1].ok {
			// Word shows the bound node's text instead of what the control holds.
			w.writeBound(w.bound[n-1].text)
			return true, d.Skip()
		}
	}
	if w.startFormat(t, parent, inW) || w.startControl(t) || w.rubyStart(t, inW) {
		return false, nil
	}
	switch t.Name.Local {
	case "t":
		w.startText(t)
	case "instrText":
		if n := len(w.fields); n > 0 {
			var s string
			if err := d.DecodeElement(&s, &t); err != nil {
				return true, err
			}
			w.fields[n-1].instr.WriteString(s)
			w.markTOC(w.fields[n-1])
			return true, nil
		}
		return true, d.Skip()
	case "fldChar":
		w.fieldChar(t)
	case "listEntry", "result", "default":
		if inW("ddList") {
			w.dropDown(t)
		}
	case "fldSimple":
		w.fldSimpleTOC = append(w.fldSimpleTOC, isTOCInstr(attr(t, "instr")))
	case "tab", "ptab":
		if inW("r") {
			w.write("\t")
		}
	case "br", "cr":
		if r := w.ruby; r != nil && r.inGuide {
			w.write(" ") // a guide is one line above its base
		} else if inW("r") {
			if why, _ := w.hide(); why == 0 {
				if p := w.top(); p != nil {
					p.breakLine()
				}
			}
			if attr(t, "type") == "page" {
				w.pageBreak(false)
			}
		}
	case "lastRenderedPageBreak":
		w.pageBreak(false) // where Word found a page's end when it saved the file
	case "pageBreakBefore":
		if inW("pPr") && onOff(t) {
			w.pageBreak(true)
		}
	case "sectPr":
		if p := w.top(); p != nil && inW("pPr") {
			p.breakAfter = true // a section ends with this paragraph; the next begins a page, mostly
		}
	case "noBreakHyphen":
		w.write("-")
	case "footnoteReference", "endnoteReference":
		w.noteReference(t)
	case "footnote", "endnote":
		w.noteID, w.noteParts = "", nil
		switch attr(t, "type") {
		case "separator", "continuationSeparator", "continuationNotice":
			return true, d.Skip()
		}
		if id := attr(t, "id"); id != "-1" && id != "0" { // Word's separator notes
			w.noteID = id
		}
	case "del", "moveFrom", "delText", "pPrChange", "rPrChange", "sectPrChange", "tblPrChange",
		"trPrChange", "tcPrChange", "numberingChange", "rt", "commentReference":
		// Deleted and moved-away text and old formatting are not text; nor is a phonetic guide
		// that rubyStart does not read.
		return true, d.Skip()
	case "sym":
		// A symbol: in a symbol font (Wingdings, Symbol) its character is in U+F000-U+F0FF and is a
		// glyph, not text; in any other font Word shows the character itself, so a paragraph
		// written as w:sym elements is text a reader reads.
		if r, err := strconv.ParseUint(attr(t, "char"), 16, 32); err == nil && (r < 0xF000 || r > 0xF0FF) && utf8.ValidRune(rune(r)) && inW("r") {
			w.write(string(rune(r)))
		}
		return true, d.Skip()
	case "bdo", "dir":
		// Bidirectional override and embedding around runs: the characters Unicode gives for them,
		// so that readingOrder reads overridden text as it is shown.
		c := bidiControls[t.Name.Local+attr(t, "val")]
		w.control(c)
		w.bidi = append(w.bidi, c != "")
	case "object":
		return true, w.object(d)
	case "altChunk":
		w.altChunk(t)
		return true, d.Skip()
	}
	return false, nil
}

// startFormat handles the tags of paragraph, run, cell and table properties, and of paragraphs,
// runs and tables themselves; handled is false for any other tag.
func (w *docxWalker) startFormat(t xml.StartElement, parent string, inW func(local string) bool) (handled bool) {
	switch t.Name.Local {
	case "p":
		w.stack = append(w.stack, &paraBuilder{outline: -1, seq: w.nextSeq()})
	case "pStyle":
		if p := w.top(); p != nil && inW("pPr") {
			p.style = attr(t, "val")
		}
	case "outlineLvl":
		if p := w.top(); p != nil && inW("pPr") {
			if n, err := strconv.Atoi(attr(t, "val")); err == nil {
				p.outline = n
			}
		}
	case "numId":
		if p := w.top(); p != nil && inW("numPr") {
			p.numID, p.hasNum = attr(t, "val"), true
		}
	case "ilvl":
		if p := w.top(); p != nil && inW("numPr") {
			p.numLevel, _ = strconv.Atoi(attr(t, "val"))
		}
	case "r":
		w.startRun()
	case "rStyle":
		if inW("rPr") && w.isRunProps() {
			w.runStyle = attr(t, "val")
		}
	case "vanish", "specVanish", "color", "sz", "szCs", "cs", "rtl", "position", "w", "highlight", "rFonts", "emboss", "imprint", "shadow", "fitText", "vertAlign", "eastAsianLayout":
		switch p := w.top(); {
		case inW("rPr") && w.isRunProps():
			w.run.apply(t)
		case inW("rPr") && p != nil && strings.HasSuffix(w.grandparent(), " pPr"):
			p.mark.apply(t) // the paragraph mark's, which its list label takes too
		}
	case "shd":
		switch {
		case inW("rPr") && w.isRunProps():
			w.run.apply(t)
		case inW("pPr"):
			if p := w.top(); p != nil {
				p.shd = shading(t)
			}
		case inW("tcPr"):
			// A cell's "no shading" leaves what its table gives it (its own or its style's).
			if n := len(w.backs); n > 0 && !w.backs[n-1].shape {
				if c := shading(t); !c.none {
					w.backs[n-1].c = c
				}
			}
		case inW("tblPr"):
			if n := len(w.tables); n > 0 {
				w.tables[n-1].shd = shading(t)
			}
		}
	case "tc":
		back := docxBack{}
		if n := len(w.tables); n > 0 {
			w.tables[n-1].col++
			back.c = w.tables[n-1].cellShading()
		}
		w.backs = append(w.backs, back)
	case "tbl":
		w.tables = append(w.tables, docxTable{left: w.marginL, at: w.elemOff, row: -1, look: wordLook})
	case "tblLook":
		if n := len(w.tables); n > 0 && inW("tblPr") {
			w.tables[n-1].look = readLook(t)
		}
	case "tblStyleRowBandSize", "tblStyleColBandSize": // the table's own, over its style's
		if v, err := strconv.Atoi(attr(t, "val")); err == nil && v > 0 && inW("tblPr") {
			if n := len(w.tables); n > 0 {
				w.tables[n-1].bands[bandIndex(t.Name.Local)] = v
			}
		}
	case "tblInd", "tblpPr", "gridCol":
		if n := len(w.tables); n > 0 && (inW("tblPr") || inW("tblGrid")) {
			w.tablePlace(&w.tables[n-1], t)
		}
	case "ind":
		if p := w.top(); p != nil && inW("pPr") {
			p.ind.read(t)
		}
	case "tr":
		if n := len(w.tables); n > 0 {
			w.tables[n-1].rowExact = 0
			w.tables[n-1].row++
			w.tables[n-1].col = -1
		}
	case "trHeight":
		// A row of an exact height cuts off what does not fit in it.
		if n := len(w.tables); n > 0 && inW("trPr") && attr(t, "hRule") == "exact" {
			if v, err := strconv.Atoi(attr(t, "val")); err == nil && v >= 0 {
				w.tables[n-1].rowExact = max(float64(v)/20, 0.001)
			}
		}
	case "spacing":
		if inW("rPr") && w.isRunProps() {
			w.run.apply(t)
		} else if p := w.top(); p != nil && inW("pPr") && attr(t, "line") != "" {
			p.lineExact, p.lineSet = exactLine(t), true
		}
	case "framePr":
		// So does a frame of an exact height.
		if p := w.top(); p != nil && inW("pPr") && attr(t, "hRule") == "exact" {
			if v, err := strconv.Atoi(attr(t, "h")); err == nil && v >= 0 {
				p.frameExact = max(float64(v)/20, 0.001)
			}
		}
		if p := w.top(); p != nil && inW("pPr") {
			p.frameOff = w.frameOff(t)
		}
	case "tblStyle":
		if n := len(w.tables); n > 0 && inW("tblPr") {
			tb := &w.tables[n-1]
			tb.cellShd, tb.conds, tb.bands = w.styles.tableStyle(attr(t, "val"))
			if tb.lastShaded() {
				if w.tableRows == nil {
					w.tableRows = tableRows(w.part)
				}
				tb.rows = w.tableRows[tb.at]
			}
		}
	case "background":
		if parent == nsW+" document" || parent == nsWStrict+" document" || parent == "w document" {
			w.page = themedColor(t, "color", "themeColor", "themeTint", "themeShade")
		}
	default:
		return false
	}
	return true
}

// boundText is the text a data-bound content control shows (docxStores.value).
type boundText struct {
	text string
	ok   bool
}

// writeBound writes a bound control's text where the control stands: into the paragraph it is
// in, or as paragraphs of their own (one a line) when it stands between paragraphs.
func (w *docxWalker) writeBound(text string) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	w.startRun()
	if w.controlInParagraph() {
		for i, l := range lines {
			if i > 0 {
				w.top().breakLine()
			}
			w.write(l)
		}
		return
	}
	for _, l := range lines {
		w.stack = append(w.stack, &paraBuilder{outline: -1, seq: w.nextSeq()})
		w.write(l)
		p := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.finish(p)
	}
}

// controlInParagraph tells whether the content control being read stands in a paragraph (run
// level) rather than between paragraphs.
func (w *docxWalker) controlInParagraph() bool {
	for i := len(w.names) - 1; i >= 0; i-- {
		_, local, _ := strings.Cut(w.names[i], " ")
		switch local {
		case "p":
			return w.top() != nil
		case "body", "tc", "txbxContent", "footnote", "endnote", "comment", "hdr", "ftr", "docPartBody":
			return false
		}
	}
	return false
}

// startControl handles the tags of content controls, some of which hide what they hold (a table
// of contents, a placeholder); handled is false for any other tag.
func (w *docxWalker) startControl(t xml.StartElement) (handled bool) {
	switch t.Name.Local {
	case "sdt":
		w.sdts = append(w.sdts, sdtPlain)
		w.bound = append(w.bound, boundText{})
	case "dataBinding":
		if n := len(w.bound); n > 0 {
			w.bound[n-1].text, w.bound[n-1].ok = w.stores.value(attr(t, "storeItemID"), attr(t, "xpath"), attr(t, "prefixMappings"))
		}
	case "docPartGallery":
		// Word wraps its table of contents in a content control of this gallery.
		if n := len(w.sdts); n > 0 && strings.Contains(strings.ToLower(attr(t, "val")), "table of contents") {
			w.sdts[n-1] = sdtTOC
		}
	case "showingPlcHdr":
		// The control shows its placeholder, which is its content: Word's prompt ("Click here to
		// enter text."), or whatever text the file puts there.
		if n := len(w.sdts); n > 0 && onOff(t) && w.sdts[n-1] == sdtPlain {
			w.sdts[n-1] = sdtPrompt
		}
	case "sdtContent":
		if n := len(w.sdts); n > 0 {
			switch w.sdts[n-1] {
			case sdtTOC:
				w.tocDepth++
			case sdtPrompt:
				w.promptDepth++
			}
		}
	default:
		return false
	}
	return true
}

// fieldChar follows a field's begin, separator (its result follows) and end.
func (w *docxWalker) fieldChar(t xml.StartElement) {
	switch attr(t, "fldCharType") {
	case "begin":
		w.fields = append(w.fields, &fieldState{})
	case "separate":
		if n := len(w.fields); n > 0 {
			w.fields[n-1].result = true
		}
	case "end":
		if n := len(w.fields); n > 0 {
			f := w.fields[n-1]
			w.fields = w.fields[:n-1]
			if !f.result && len(f.entries) > 0 && strings.Contains(strings.ToUpper(f.instr.String()), "FORMDROPDOWN") {
				i := f.dflt
				if f.picked {
					i = f.pick
				}
				if i >= 0 && i < len(f.entries) {
					w.write(f.entries[i])
				}
			}
		}
	}
}

// dropDown reads the parts of a drop-down form field's list (w:ffData/w:ddList).
func (w *docxWalker) dropDown(t xml.StartElement) {
	n := len(w.fields)
	if n == 0 {
		return
	}
	f := w.fields[n-1]
	switch t.Name.Local {
	case "listEntry":
		f.entries = append(f.entries, attr(t, "val"))
	case "result":
		f.pick, _ = strconv.Atoi(attr(t, "val"))
		f.picked = true
	case "default":
		f.dflt, _ = strconv.Atoi(attr(t, "val"))
	}
}

// noteReference attaches the footnote or endnote a run refers to to the paragraph.
func (w *docxWalker) noteReference(t xml.StartElement) {
	if p := w.top(); p != nil && w.notes != nil {
		// A note referred to again is kept once, its text and its hidden words alike: 20,000
		// references to one long note would otherwise be 20,000 copies of it.
		key := t.Name.Local[:1] + attr(t, "id")
		text := w.notes[key]
		hs := w.noteHidden[key]
		switch {
		case text == "" && len(hs) == 0:
		case w.notesKept[key]:
			w.noteRepeats++
		default:
			w.notesKept[key] = true
			if text != "" {
				p.notes = append(p.notes, text)
				w.textBytes += len(text)
			}
			if len(hs) > 0 {
				p.hidden = append(p.hidden, &docxHidden{line: len(p.lines), off: p.cur.Len(), seq: p.nextWrite(), apart: hs})
			}
		}
	}
	if onOff2(t, "customMarkFollows") {
		w.runMark = true
	}
}

// markEnd ends a run's custom footnote mark (w:customMarkFollows): the run's text is the mark Word
// shows instead of a number, a symbol or two (*, †, 注). A copy typed as the marks of footnote
// references, which Word shows as the run's text, read 0.0 % with no warning: a mark of three
// letters or digits or more is read as the text it is.
func (w *docxWalker) markEnd() {
	if !w.runMark {
		return
	}
	w.runMark = false
	mark := w.markText.String()
	w.markText.Reset()
	if countRunes(mark, isLetterOrDigit) >= 3 {
		w.write(mark)
	}
}

// isRunProps reports whether the rPr being read belongs to a run (and not to a paragraph mark).
func (w *docxWalker) isRunProps() bool {
	gp := w.grandparent()
	return strings.HasSuffix(gp, " r")
}

func onOff2(se xml.StartElement, local string) bool {
	for _, a := range se.Attr {
		if a.Name.Local == local {
			return a.Value == "1" || a.Value == "true" || a.Value == "on"
		}
	}
	return false
}

// tocEntry tells whether a paragraph of a table of contents reads as one of its entries: a
// heading of at most 120 characters and its page number (Arabic, or Roman up to xxx), or a title
// of at most 20 characters ("目录", "Table of Contents"). Copied paragraphs put in a table of contents'
// field or content control, or given a TOC style, show in Word as any text does, and read 0 %
// while they were left out with the table.
func tocEntry(text string) bool {
	if n := utf8.RuneCountInString(text); n <= 20 {
		return true
	}
	m := tocPageRE.FindStringSubmatchIndex(text)
	return m != nil && utf8.RuneCountInString(text[:m[0]]) <= 120
}

var tocPageRE = regexp.MustCompile(`[\s.·…_\-–—]+(?:[0-9]{1,4}|(?i:x{0,2}(?:ix|iv|vi{0,3}|i{1,3})|x{1,3}))$`)

// wordPrompt tells whether the text of a content control showing its placeholder is one of Word's
// prompts, which are no author's text; any other text there is shown as the author's is.
func wordPrompt(text string) bool {
	return wordPrompts[strings.TrimSpace(text)]
}

var wordPrompts = map[string]bool{
	"Click here to enter text.": true, "Click or tap here to enter text.": true, "Choose an item.": true,
	"Click here to enter a date.": true, "Click or tap to enter a date.": true,
	"单击此处输入文字。": true, "单击或点击此处输入文字。": true, "选择一项。": true, "单击此处输入日期。": true,
	"单击或点击以输入日期。": true, "按一下這裡以輸入文字。": true, "按一下或點選這裡以輸入文字。": true, "選擇一個項目。": true,
}

// declaredNamespaces finds every namespace declaration of an XML part, wherever it is: at most 16
// namespaces a prefix (a part that declares one prefix for thousands would make every choice
// and ignorable attribute look through them; past 16 the prefix also names "", no one's).
func declaredNamespaces(raw []byte) map[string][]string {
	out := map[string][]string{}
	for _, m := range xmlnsRE.FindAllSubmatch(raw, -1) {
		prefix, uri := string(m[1]), string(m[2])
		switch uris := out[prefix]; {
		case slices.Contains(uris, uri):
		case len(uris) < 16:
			out[prefix] = append(uris, uri)
		case !slices.Contains(uris, ""):
			out[prefix] = append(uris, "")
		}
	}
	return out
}

var xmlnsRE = regexp.MustCompile(`xmlns:([A-Za-z_][\w.-]*)\s*=\s*["']([^"']*)["']`)

// understood tells whether Word knows every namespace an mc:Choice requires (a prefix declared
// only for namespaces of Office's families). A choice requiring another one is not what Word
// shows: its fallback is, and a file may put other text in each (LibreOffice shows the fallback
// too). Where a prefix is declared twice, once for another namespace, the choice is not taken.
func (w *docxWalker) understood(requires string) bool {
	for _, prefix := range strings.Fields(requires) {
		uris := w.namespaces[prefix]
		if len(uris) == 0 {
			return false
		}
		for _, u := range uris {
			if !officeNamespace(u) {
				return false
			}
		}
	}
	return true
}

// ignores tells whether Word ignores an element, and what it holds (ignoredElements).
func (w *docxWalker) ignores(n xml.Name) bool {
	return w.ignored[n.Space] && !w.ignored[n.Space+" "+n.Local] && !w.ignored[n.Space+" *"]
}

// officeNamespace: a namespace of Office's families, which Word knows.
func officeNamespace(uri string) bool {
	for _, p := range []string{"http://schemas.microsoft.com/office/", "http://schemas.openxmlformats.org/",
		"http://purl.oclc.org/ooxml/", "urn:schemas-microsoft-com:"} {
		if strings.HasPrefix(uri, p) {
			return true
		}
	}
	return false
}

// ignoredElements reads the part's mc:Ignorable and mc:ProcessContent attributes, wherever they
// are, into docxWalker.ignored. A junk word wrapped in an element of an ignorable namespace of no
// one's is not shown by Word (ECMA-376 Part 3), and was read between the words of a copy.
func ignoredElements(raw []byte, namespaces map[string][]string) map[string]bool {
	out := map[string]bool{}
	for _, m := range ignorableRE.FindAllSubmatch(raw, -1) {
		for _, prefix := range strings.Fields(string(m[2])) {
			if string(m[1]) == "Ignorable" {
				for _, u := range namespaces[prefix] {
					out[u] = out[u] || !officeNamespace(u)
				}
				continue
			}
			if p, local, ok := strings.Cut(prefix, ":"); ok { // ProcessContent: prefix:local
				for _, u := range namespaces[p] {
					out[u+" "+local] = true
				}
			}
		}
	}
	return out
}

var ignorableRE = regexp.MustCompile(`:(Ignorable|ProcessContent)\s*=\s*["']([^"']*)["']`)

func isTOCInstr(s string) bool {
	f := strings.Fields(strings.ToUpper(s))
	return len(f) > 0 && f[0] == "TOC"
}

func (w *docxWalker) markTOC(f *fieldState) {
	if isTOCInstr(f.instr.String()) {
		f.toc = true
	}
}

func (w *docxWalker) end(t xml.EndElement) {
	if w.ignores(t.Name) {
		w.ignoredDepth--
		return
	}
	if t.Name.Space == nsMC || t.Name.Space == "mc" {
		if t.Name.Local == "AlternateContent" && len(w.altTaken) > 0 {
			w.altTaken = w.altTaken[:len(w.altTaken)-1]
		}
		return
	}
	if inNS(t.Name, nsMath, "m") {
		switch t.Name.Local {
		case "t":
			w.endText()
		case "r":
			w.startRun()
		}
		return
	}
	if !isW(t.Name) {
		w.shapeEnd(t)
		return
	}
	switch t.Name.Local {
	case "t":
		w.endText()
	case "r":
		w.startRun()
	case "rt":
		w.guideEnd()
	case "ruby":
		w.rubyEnd()
	case "bdo", "dir":
		if n := len(w.bidi); n > 0 {
			if w.bidi[n-1] {
				w.control("\u202C")
			}
			w.bidi = w.bidi[:n-1]
		}
	case "tc":
		if n := len(w.backs); n > 0 && !w.backs[n-1].shape {
			w.backs = w.backs[:n-1]
		}
	case "tbl":
		if n := len(w.tables); n > 0 {
			w.tables = w.tables[:n-1]
		}
	case "p":
		n := len(w.stack)
		if n == 0 {
			return
		}
		p := w.stack[n-1]
		w.stack = w.stack[:n-1]
		if w.ruby != nil && w.ruby.p == p {
			w.ruby = nil // a guide not closed in its paragraph
		}
		w.finish(p)
	case "sdtContent":
		if n := len(w.sdts); n > 0 {
			switch w.sdts[n-1] {
			case sdtTOC:
				w.tocDepth--
			case sdtPrompt:
				w.promptDepth--
			}
		}
	case "fldSimple":
		if n := len(w.fldSimpleTOC); n > 0 {
			w.fldSimpleTOC = w.fldSimpleTOC[:n-1]
		}
	case "sdt":
		if n := len(w.sdts); n > 0 {
			w.sdts = w.sdts[:n-1]
		}
		if n := len(w.bound); n > 0 {
			w.bound = w.bound[:n-1]
		}
	case "footnote", "endnote":
		if w.noteID != "" {
			w.noteTexts[w.noteID] = strings.TrimSpace(joinLines(w.noteParts))
		}
		w.noteID, w.noteParts = "", nil
	}
}

// finish turns a closed w:p into a Paragraph (or a part of a note).
func (w *docxWalker) finish(p *paraBuilder) {
	p.endGuides()
	size := p.hideSmall()
	text, before := p.text(), len(w.paras)
	defer func() { // where it is, for the pages of docx_cover.go
		if p.seq < len(w.kept) {
			if len(w.paras) > before {
				w.kept[p.seq] = before
			}
			w.seqEms[p.seq] = ems(text)
			for _, h := range p.hidden {
				w.seqEms[p.seq] += ems(h.text.String())
			}
		}
		if p.breakAfter {
			w.pageStarts = append(w.pageStarts, p.seq+1)
		}
	}()
	if (p.toc || w.styles.isTOC(p.style)) && tocEntry(text) || p.prompt && wordPrompt(text) {
		return
	}
	numID, numLevel := p.numID, p.numLevel
	if !p.hasNum {
		numID, numLevel = w.styles.numbering(p.style)
	}
	label := w.num.next(numID, numLevel)
	var hidden []Hidden
	if len(p.hidden) > 0 {
		hidden = p.hiddenPieces(text)
	}
	level, title := w.styles.headingLevel(p.style)
	if p.outline >= 0 {
		level = p.outline
		if level >= 9 {
			level = -1
		}
	}
	if lvl := w.num.level(numID, numLevel); label != "" && level < 0 && !title && lvl.worded() {
		text, hidden = w.labelled(p, lvl, label, text, hidden)
	}
	if w.notes == nil { // reading a notes part
		if w.noteID != "" {
			if text != "" {
				w.noteParts = append(w.noteParts, text)
			}
			w.noteHidden[w.noteID] = append(w.noteHidden[w.noteID], hidden...)
		}
		return
	}
	if text == "" {
		for _, h := range hidden {
			w.orphans = append(w.orphans, orphanHidden{Hidden: h, after: len(w.paras) - 1})
		}
		return
	}
	para := Paragraph{Text: text, Notes: p.notes, Hidden: hidden}
	w.textBytes += len(text)
	if level >= 0 || title {
		para.Heading = true
		if level >= 0 && label != "" && !strings.HasPrefix(text, strings.TrimSpace(label)) {
			para.Text = strings.TrimSpace(label) + labelSep(label, text) + text
			shift := utf8.RuneCountInString(para.Text) - utf8.RuneCountInString(text)
			for i := range para.Hidden {
				para.Hidden[i].Offset += shift
			}
		}
		if level == 0 {
			// Tells Structure this is a chapter-level heading (see outlineChapters).
			para.Chapter = para.Text
		}
	}
	w.paras = append(w.paras, para)
	w.paraSizes = append(w.paraSizes, size)
}

// labelled puts the label of a list paragraph p that is not a heading, of level lvl, before its
// text, when it has words of its own (numLevel.worded): a reader reads them, and a copy typed as
// the number formats of empty list items read 0.0 % with no warning. The label is formatted as
// Word formats it, by the paragraph's style, its mark's properties and the level's, which can
// hide it.
func (w *docxWalker) labelled(p *paraBuilder, lvl *numLevel, label, text string, hidden []Hidden) (string, []Hidden) {
	rp := w.styledRun(p.style, "").over(p.mark).over(lvl.rp)
	rp.color = w.theme.resolve(rp.color)
	back := docxWhite
	if p.shd.set && !p.shd.none {
		back = w.theme.resolve(p.shd)
	}
	if why, size := runHide(rp, back); why != 0 {
		h := Hidden{Text: strings.TrimSpace(label), Reasons: why.names(), Size: size}
		return text, append([]Hidden{h}, hidden...)
	}
	labelled := strings.TrimSpace(label)
	if text != "" {
		labelled += labelSep(label, text) + text
	}
	shift := utf8.RuneCountInString(labelled) - utf8.RuneCountInString(text)
	for i := range hidden {
		hidden[i].Offset += shift
	}
	return labelled, hidden
}

// labelSep keeps the space a numbering label ends with ("1.1 背景") or none ("第一章绪论").
func labelSep(label, text string) string {
	if strings.HasSuffix(label, " ") {
		return " "
	}
	return ""
}
