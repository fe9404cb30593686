package extract

// Drawings in front of the text that cover a page: a picture of one colour (or a shape of one
// solid, opaque fill) the size of the page, laid "In Front of Text" over paragraphs, hides them
// from a reader, while they still pad out the figure. Which paragraphs are on that page is known
// only where the document says where its pages begin (page and section breaks, and the places
// Word found them when it last saved the file, w:lastRenderedPageBreak): the covered page is the
// one the drawing is anchored on, from the page start before its anchor to the next (or to the
// end), when its text can fit on one page.

import (
	"bytes"
	"image"
	"math"
)

// pageCapacity is how much text, in ems (as ems counts them), fits on a page of the document's size with inch margins at 8 pt and single spacing: paragraphs
// taken as one covered page hold no more, or some of them would show on the next one.
func (w *docxWalker) pageCapacity() float64 {
	width, height := float64(w.pageW)/emuPerPoint-144, float64(w.pageH)/emuPerPoint-144
	return max(width, 0) * max(height, 0) / (8 * 9.6)
}

// ems measures text as pageCapacity does, by its bytes alone (every paragraph passes here): a
// Chinese character, three bytes, one em; a Latin letter a third (which lets Latin text fit a
// page at a size a little below 8 pt).
func ems(s string) float64 {
	return float64(len(s)) / 3
}

// maxPlainPixels bounds the pictures decoded to tell whether they are of one colour (a page at
// 300 dpi has 8.7 M pixels); a larger one is taken as a real picture.
const maxPlainPixels = 1 << 24

// plainPicture reports whether a picture part (PNG, JPEG, GIF) is a picture of one colour, and
// that colour as a grey.
func plainPicture(raw []byte) (docxColor, bool) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxPlainPixels/cfg.Height {
		return docxColor{}, false
	}
	img, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return docxColor{}, false
	}
	_, _, lum := luminance(img)
	grey, plain := plainLum(lum)
	g := float64(grey) / 255
	return rgbColor(g, g, g), plain
}

// endAnchor notes a drawing of one colour the size of the page, in front of the text (it covers
// the page: coverPages) or behind it (it is the page's background: pageBackdrops).
func (w *docxWalker) endAnchor(s *docxShape) {
	w.noteAnchor(s)
	if !s.wrapNone || s.why != 0 || w.pageW <= 0 || w.pageH <= 0 {
		return
	}
	block, atStart := w.overText(s)
	if float64(s.cx)*float64(s.cy) >= 0.9*float64(w.pageW)*float64(w.pageH) {
		block, atStart = true, false // the page's size: wherever it stands, it is over its page
	}
	if !block {
		return
	}
	if len(w.covers)+len(w.backdrops) >= maxPageDrawings {
		return
	}
	c, plain := s.fill, s.solid
	if !plain && s.blip != "" && w.pictureData != nil {
		p, ok := w.plainPictures[s.blip]
		if !ok {
			p.c, p.plain = plainPicture(w.pictureData(s.blip))
			if w.plainPictures != nil {
				w.plainPictures[s.blip] = p
			}
		}
		c, plain = p.c, p.plain
	}
	// In front of the text, any opaque picture hides the page, whatever it shows, but for a
	// picture of text: what it shows is then looked at as pictures are (text_pictures), and the
	// text under it is read. A photograph over a page of junk had padded out the figure.
	shows := plain
	if !plain && !s.behind && s.blip != "" && w.opaquePicture(s.blip) {
		_, text := docxLook(w.pictureData(s.blip))
		shows = !text
	}
	at := w.seqs // anchored in the paragraph being read, else before the next one
	if p := w.top(); p != nil {
		at = p.seq
	}
	switch {
	case s.behind && plain:
		w.backdrops = append(w.backdrops, pageBackdrop{at: at, c: c, atStart: atStart})
	case !s.behind && shows:
		w.covers = append(w.covers, pageCover{at: at, atStart: atStart})
	}
}

// pageCover is a drawing of one colour over the text of a page: anchored in or before paragraph
// at (a seq), and, when atStart, placed from that paragraph, so over the page's text only if the
// paragraph is at the top of its page (overText).
type pageCover struct {
	at      int
	atStart bool
}

// overText reports whether drawing s lies over the whole of its page's text, between the margins,
// as its place says: from the page, the margins or the column, or, down the page, from the
// paragraph or line it is anchored in (atStart: then only if that is at the top of its page). A
// white rectangle the size of the text, not of the page, over a page of junk read it as text.
func (w *docxWalker) overText(s *docxShape) (over, atStart bool) {
	if s.posH == nil || s.posV == nil {
		return false, false
	}
	x, y := *s.posH, *s.posV
	switch s.relH {
	case "page":
	case "margin", "column":
		x += w.marginL
	default:
		return false, false
	}
	switch s.relV {
	case "page", "topMargin":
	case "margin":
		y += w.marginT
	case "paragraph", "line":
		y += w.marginT
		atStart = true
	default:
		return false, false
	}
	tolX, tolY := w.pageW/50, w.pageH/50
	return x <= w.marginL+tolX && x+s.cx >= w.pageW-w.marginR-tolX && y <= w.marginT+tolY && y+s.cy >= w.pageH-w.marginB-tolY, atStart
}

// topOfPage reports whether paragraph a (a seq) is the first of its page that shows anything, its
// page beginning at start.
func (w *docxWalker) topOfPage(start, a int) bool {
	for i := start; i < a; i++ {
		if w.seqEms[i] > 0 {
			return false
		}
	}
	return true
}

// maxPageDrawings bounds the page-sized drawings judged in one document (a thesis has a cover
// or two), and plainPictures decodes each picture once, for both walks of the body: a file of
// thousands of such drawings of one picture would otherwise decode it thousands of times.
const maxPageDrawings = 256

// plainPictureOf is plainPicture's answer for a picture part.
type plainPictureOf struct {
	c     docxColor
	plain bool
}

// nextSeq numbers a paragraph begun (paraBuilder.seq), for the pages of docx_cover.go.
func (w *docxWalker) nextSeq() int {
	w.seqs++
	w.kept = append(w.kept, -1)
	w.seqEms = append(w.seqEms, 0)
	return w.seqs - 1
}

// pageBackdrop is a drawing of one colour c the size of the page behind the text, anchored in or
// before paragraph at (a seq).
type pageBackdrop struct {
	at      int
	c       docxColor
	atStart bool // placed from its paragraph (pageCover)
}

// pageBackdrops gives the colour each paragraph is read on when a drawing behind the text is its
// page's background (white text on a black picture behind it shows), by the same pages as
// coverPages; nil for none. The walk that found them is done again with them (docxWalker.onPage).
func (w *docxWalker) pageBackdrops() map[int]docxColor {
	var out map[int]docxColor
	for _, b := range w.backdrops {
		start, end, ok := w.pageOf(b.at)
		if !ok || b.atStart && !w.topOfPage(start, b.at) {
			continue
		}
		if out == nil {
			out = map[int]docxColor{}
		}
		for i := start; i < end; i++ {
			out[i] = b.c
		}
	}
	return out
}

// pageOf is the page paragraph a (a seq) is on, as seqs from start to end: from the page start at
// or before it to the next one (or the end), if its text, hidden or not, fits on a page.
func (w *docxWalker) pageOf(a int) (start, end int, ok bool) {
	end = -1
	for _, s := range w.pageStarts {
		if s <= a && s > start {
			start = s
		}
		if s > a && (end < 0 || s < end) {
			end = s
		}
	}
	if end < 0 || end > w.seqs {
		end = w.seqs // the last page
	}
	n := 0.0
	for i := start; i < end; i++ {
		n += w.seqEms[i]
	}
	return start, end, n <= w.pageCapacity()
}

// pageBreak notes that a page begins: before the paragraph being read (at its start), or after it.
func (w *docxWalker) pageBreak(before bool) {
	p := w.top()
	switch {
	case p == nil:
		w.pageStarts = append(w.pageStarts, w.seqs)
	case before || p.cur.Len() == 0 && len(p.lines) == 0:
		w.pageStarts = append(w.pageStarts, p.seq)
	default:
		p.breakAfter = true
	}
}

// coverPages takes the paragraphs of each page a covering drawing is anchored on out of the text,
// as hidden text (covered), when the page's start and the next page's start are both known and
// its text can fit on a page; and the paragraphs of small print (smallParagraphs), as hidden text
// (tiny).
func (w *docxWalker) coverPages() {
	covered := make([]bool, len(w.paras))
	any := w.coveredBoxes(covered)
	any = w.coveredParagraphs(covered) || any
	small := w.smallParagraphs()
	if len(w.covers) == 0 && !any && small == nil {
		return
	}
	any = any || small != nil
	for _, a := range w.covers {
		start, end, ok := w.pageOf(a.at)
		if !ok || a.atStart && !w.topOfPage(start, a.at) {
			continue
		}
		for seq := start; seq < end; seq++ {
			if i := w.kept[seq]; i >= 0 && i < len(covered) {
				covered[i], any = true, true
			}
		}
	}
	if !any {
		return
	}
	newIndex := make([]int, len(w.paras)) // of the last paragraph kept at or before each one
	var kept []Paragraph
	var orphans []orphanHidden
	for i, p := range w.paras {
		if !covered[i] && (small == nil || !small[i]) {
			kept = append(kept, p)
			newIndex[i] = len(kept) - 1
			continue
		}
		newIndex[i] = len(kept) - 1
		h := Hidden{Text: p.Text, Reasons: []string{HideCovered}}
		if !covered[i] {
			h = Hidden{Text: p.Text, Reasons: []string{HideTiny}, Size: w.paraSizes[i].pt}
		}
		orphans = append(orphans, orphanHidden{Hidden: h, after: len(kept) - 1})
		for _, h := range p.Hidden {
			orphans = append(orphans, orphanHidden{Hidden: h, after: len(kept) - 1})
		}
	}
	for i := range w.orphans {
		if a := w.orphans[i].after; a >= 0 && a < len(newIndex) {
			w.orphans[i].after = newIndex[a]
		}
	}
	for i := range w.chunks { // paragraphs before it: those kept before the first after them
		if at := w.chunks[i].at; at > 0 && at <= len(newIndex) {
			w.chunks[i].at = newIndex[at-1] + 1
		}
	}
	w.paras, w.orphans = kept, append(w.orphans, orphans...)
}

// smallParagraphs marks the paragraphs whose own size is smallShare of the document's own size or
// less, and maxSmallSize or less (the document's own size is the largest that a tenth of its
// characters or more are drawn at, as a paragraph's, hideSmall, or sizeTally.ownSize's when that is
// small print): nil for none. A
// paragraph of junk set at 3 pt after each of zh-thesis S002's (25.9 %), thirty of them, 2,811
// characters, read 14.4 % with no warning: to a reader, a line of specks between paragraphs.
func (w *docxWalker) smallParagraphs() []bool {
	var tally sizeTally
	for _, s := range w.paraSizes {
		tally.add(s.pt, s.chars)
	}
	body := tally.ownSize(largeChars)
	var small []bool
	for i, s := range w.paraSizes {
		if s.chars > 0 && s.pt > maxTinySize && s.pt <= min(body*smallShare, maxSmallSize) {
			if small == nil {
				small = make([]bool, len(w.paraSizes))
			}
			small[i] = true
		}
	}
	return small
}

// anchored is a floating drawing: where it stands (EMU from what relH and relV name), its place in
// the drawing order, whether it is in front of the text and of one opaque colour, the paragraph it
// is anchored in, and the paragraphs of its text boxes (seqs from firstSeq to endSeq).
type anchored struct {
	x, y, cx, cy     int64
	relH, relV       string
	z                int64
	front, solid     bool
	wrapNone         bool   // the text does not wrap round it (In Front of Text, Behind Text)
	blip             string // its picture's relationship, if it shows one
	host             int
	firstSeq, endSeq int
}

// maxAnchors bounds the floating drawings compared with each other (coveredBoxes): a thesis has
// dozens, and pairs of them are compared.
const maxAnchors = 2048

// noteAnchor keeps a floating drawing of a known place, for coveredBoxes.
func (w *docxWalker) noteAnchor(s *docxShape) {
	if s.posH == nil || s.posV == nil || s.why != 0 || s.host < 0 || len(w.anchors) >= maxAnchors {
		return
	}
	w.anchors = append(w.anchors, anchored{x: *s.posH, y: *s.posV, cx: s.cx, cy: s.cy, relH: s.relH, relV: s.relV, z: s.z,
		front: !s.behind, wrapNone: s.wrapNone, solid: s.solid, blip: s.blip, host: s.host, firstSeq: s.firstSeq, endSeq: w.seqs})
}

// opaque reports whether drawing a shows nothing of what lies under it: a solid fill, or a
// picture with no see-through pixels (a photograph, a screenshot), looked at only when it covers
// a text box.
func (w *docxWalker) opaque(a anchored) bool {
	return a.solid || a.blip != "" && w.opaquePicture(a.blip)
}

// opaquePicture reports whether the picture of relationship id lets nothing through, decoding it
// once for a document's walkers (opaquePictures, shared as plainPictures is).
func (w *docxWalker) opaquePicture(id string) bool {
	if w.pictureData == nil {
		return false
	}
	o, ok := w.opaquePictures[id]
	if !ok {
		o = opaquePicture(w.pictureData(id))
		if w.opaquePictures != nil {
			w.opaquePictures[id] = o
		}
	}
	return o
}

// opaquePicture reports whether a picture part (PNG, JPEG, GIF) has no see-through pixels.
func opaquePicture(raw []byte) bool {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxPlainPixels/cfg.Height {
		return false
	}
	img, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return false
	}
	o, ok := img.(interface{ Opaque() bool })
	return ok && o.Opaque()
}

// coveredBoxes marks in covered (by paragraph) the text of text boxes an opaque drawing (a solid
// fill, or a picture with no see-through pixels) covers: anchored in the same paragraph and placed from the same things (so that their
// places compare), drawn after it in front of the text, and over the whole of it. A text box of
// junk under a white rectangle reads nothing to a reader, and read 12.6 % for 25.9 %. It reports
// whether it marked any.
func (w *docxWalker) coveredBoxes(covered []bool) bool {
	any := false
	for _, a := range w.anchors {
		if a.endSeq <= a.firstSeq {
			continue // no text
		}
		for _, b := range w.anchors {
			if !b.front || b.z <= a.z || b.host != a.host || b.relH != a.relH || b.relV != a.relV ||
				b.x > a.x || b.y > a.y || b.x+b.cx < a.x+a.cx || b.y+b.cy < a.y+a.cy || !w.opaque(b) {
				continue
			}
			for seq := a.firstSeq; seq < a.endSeq; seq++ {
				if i := w.kept[seq]; i >= 0 && i < len(covered) {
					covered[i], any = true, true
				}
			}
			break
		}
	}
	return any
}

// coveredParagraphs marks in covered (by paragraph) the paragraphs an opaque drawing (a text box's
// own text aside) covers: in front of the text (not wrapped round: text flows round a drawing
// laid Square or Top and Bottom), placed down from the paragraph it is anchored in,
// from its top or above, across the text's width, and down past the paragraph's last line, and
// past the next ones' while it covers them whole. A white rectangle (Insert > Shapes, In Front of
// Text) over a paragraph of junk after each of zh-thesis S004's paragraphs read 15.7 % for 34.2 %
// with no warning. Where the lines fall is estimated, the paragraphs being laid out nowhere in
// the file: a paragraph's lines hold the text width of its characters (a Chinese character an em
// at its size, another character 0.55 em), each 1.2 times its size high, and the next paragraph
// starts 10 pt lower (Word's spacing after is 0-8 pt): rather less covered than more. It reports
// whether it marked any.
func (w *docxWalker) coveredParagraphs(covered []bool) bool {
	const pt = emuPerPoint
	textW := w.pageW - w.marginL - w.marginR
	if textW <= 0 {
		return false
	}
	any := false
	var boxed map[int]bool // the paragraphs of text boxes, which stand elsewhere
	for _, a := range w.anchors {
		for seq := a.firstSeq; seq < a.endSeq; seq++ {
			if boxed == nil {
				boxed = map[int]bool{}
			}
			boxed[seq] = true
		}
	}
	for _, a := range w.anchors {
		if !a.front || !a.wrapNone || a.relV != "paragraph" || a.host < 0 || a.host >= len(w.kept) || !w.opaque(a) {
			continue
		}
		x := a.x
		switch a.relH {
		case "column", "margin":
		case "page":
			x -= w.marginL
		default:
			continue
		}
		if x > textW/50 || x+a.cx < textW-textW/50 || a.y > 3*pt {
			continue
		}
		bottom := a.y + a.cy // from the host paragraph's top
		top := int64(0)
		for seq := a.host; seq < len(w.kept); seq++ {
			if boxed[seq] {
				continue
			}
			i := w.kept[seq]
			if i < 0 || i >= len(w.paras) {
				break // a paragraph not kept: its room unknown
			}
			size := w.paraSizes[i].pt
			if size <= 0 {
				size = 12
			}
			ems := 0.0
			for _, r := range w.paras[i].Text {
				if r >= 0x2E80 {
					ems++
				} else {
					ems += 0.55
				}
			}
			lines := max(1, math.Ceil(ems*size*pt/float64(textW)))
			end := top + int64(lines*1.2*size*pt)
			if end > bottom {
				break
			}
			covered[i], any = true, true
			top = end + 10*pt
		}
	}
	return any
}
