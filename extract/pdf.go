package extract

// The PDF reader rebuilds running text from glyph positions. The stages, each in its own
// file:
//
//	pdf.go         open the file, read each page's glyphs (behind a recover), check ctx
//	pdf_lines.go   glyphs → lines (by baseline), words (by gaps), superscript note markers
//	pdf_layout.go  lines → running headers/footers, footnotes, paragraphs, headings
//
// github.com/ledongthuc/pdf is used through a patched copy in third_party/pdf (see
// PATCHES.md there): it gives one Text per character with its real advance, also for CID
// fonts. Everything here is linear or n·log n in the number of glyphs.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ledongthuc/pdf"

	"thesischeck/internal/english"
)

// maxPDFPages bounds the pages read from one file; a thesis has a few hundred.
const maxPDFPages = 20000

// pdfMaxGlyphs is the glyphs of one page the PDF reader keeps (its maxGlyphs); a dense page has 6,000.
const pdfMaxGlyphs = 131072

// readPDF extracts the paragraphs of a PDF. A PDF whose pages carry no text gives a
// Document without paragraphs (the caller reports ErrNoText).
func readPDF(ctx context.Context, data []byte) (*Document, error) {
	r, err := pdfOpen(data)
	if err != nil {
		return nil, err
	}
	pages, err := pdfPages(r)
	if err != nil {
		return nil, err
	}
	laid, lacking, err := readPDFPages(ctx, data, pages)
	if err != nil {
		return nil, err
	}
	oneCore(ctx) // the layout below joins the pages on one core
	pdfHideFine(laid, &lacking)
	unmapped := 0
	for _, pg := range laid {
		unmapped += pg.unmapped
		if pg.unmapped >= pdfUnmappedPage && pg.unmapped*10 >= pg.glyphs {
			lacking.unmapped = append(lacking.unmapped, pg.num)
			lacking.unmappedChars += pg.unmapped
		}
		if pg.outlined >= pdfOutlinedPage {
			lacking.outlined = append(lacking.outlined, pg.num)
			lacking.outlinedLines += pg.outlined
		}
		if pg.unseen > 0 {
			lacking.unseen = append(lacking.unseen, pg.num)
			lacking.unseenPictures += pg.unseen
		}
	}
	doc := &Document{Title: pdfTitle(r), Warnings: lacking.warnings(), unmapped: unmapped, outlined: len(lacking.outlined)}
	for _, pg := range laid {
		doc.pictures = append(doc.pictures, pg.pictures[:min(len(pg.pictures), maxPictures-len(doc.pictures))]...)
	}
	doc.Paragraphs, doc.unplacedHidden = layoutPDF(laid)
	// Not a scan: a file whose every page broke off before any text was said to have no text layer.
	if len(doc.Paragraphs) == 0 && len(doc.unplacedHidden) == 0 && len(lacking.unreadable) == len(pages) {
		return nil, fmt.Errorf("%w: no page could be read (%s, damaged content)", ErrCorrupt, english.Count(len(pages), "page", "pages"))
	}
	return doc, nil
}

// pdfFineShare and pdfFineChars: a document's fine print (small print on lines of its own, in
// no place pdfSmallBlocks hides it: a chart's labels, or pages of it) is left out, all of it, when
// it is this share of the letters and digits its lines read or more, and this many or more, and
// smallShare of the document's own size or less (sizeTally.ownSize). zh-thesis S004 (34.3 % as a
// PDF) read 13.7 % with no warning with junk set at 3 pt in blocks of short lines above and below
// each page's text, each block far from the text and from the others; and 13.7 % with a page of
// 3-pt junk after it. Under the share, such junk lowers a figure by a twentieth of it at most. A
// figure's labels are a few dozen characters, but a chart can draw its points as characters: a
// 2001 paper's three pages of charts at 4 pt (extract/testdata/pdf/long-cid.pdf) draw 10,390
// glyphs, mostly 1s, of which its lines read 1,488 of its 49,338 letters and digits (3.0 %); it
// reads as before. Left out, a shrunk chart's print changes no figure but to make it right; the
// warning (WarnSmallPrint) is not hidden text's, for no one can tell the two.
const (
	pdfFineShare = 0.05
	pdfFineChars = 200
)

// pdfHideFine takes for each page its layout without its fine print (pdfPage.alt) when the
// document's fine print is too much to be read (pdfFineShare), and says so in lacking.
func pdfHideFine(laid []*pdfPage, lacking *pdfLacking) {
	if !slices.ContainsFunc(laid, func(pg *pdfPage) bool { return pg.alt != nil }) {
		return // most documents
	}
	var sizes sizeTally
	for _, pg := range laid {
		for _, s := range pg.sizes.sizes {
			sizes.add(s.pt, s.chars)
		}
	}
	// A document shrunk whole, pages four to a sheet, has no text larger than its own print.
	large := sizes.ownSize(largeChars)
	small := func(pg *pdfPage) bool { return pg.alt != nil && pg.fineSize <= large*smallShare }
	fine, letters := 0, 0
	for _, pg := range laid {
		letters += pdfLetters(pg.lines)
		if small(pg) {
			fine += pg.fine
		}
	}
	if fine < pdfFineChars || float64(fine) < pdfFineShare*float64(letters) {
		return
	}
	lacking.fineChars, lacking.fineShare = fine, float64(fine)/float64(letters)
	for i, pg := range laid {
		if small(pg) {
			laid[i] = pg.alt
			lacking.fine = append(lacking.fine, pg.num)
			lacking.fineSize = max(lacking.fineSize, pg.fineSize)
		}
	}
}

// pdfLacking lists the pages whose text is missing in part or whole.
type pdfLacking struct {
	unreadable []int // pages that could not be read at all, or whose content ends in damage
	truncated  []int // pages that drew more glyphs than a page holds; the rest were left out
	// unmapped are pages whose text is much of it drawn in glyphs their font gives no character
	// for (a composite font without a ToUnicode map), unmappedChars how many.
	unmapped      []int
	unmappedChars int
	// outlined are pages that draw pdfOutlinedPage lines of text or more as outlines, outlinedLines
	// how many in all.
	outlined      []int
	outlinedLines int
	// unseen are pages with pictures over visible text that were not looked at for text
	// (pdfPhotoOver, past photoPixels), unseenPictures how many.
	unseen         []int
	unseenPictures int
	// fine are pages whose fine print was left out (pdfHideFine), fineChars its letters and
	// digits, that share of the document's, drawn at fineSize or less.
	fine                []int
	fineChars           int
	fineShare, fineSize float64
}

// pdfOutlinedPage is the fewest lines of text drawn as outlines that make a page's text lacking. On
// the 673 pages of the devset's and the fixtures' PDFs (figures, charts, a scanned report's plots
// with outlined titles) no page has one; each of the 84 pages of ten of them converted to outlines by
// Ghostscript (-dNoOutputFonts) has 3 to 43.
const pdfOutlinedPage = 3

// pdfUnmappedPage is the fewest glyphs without a character that make a page's text lacking, when
// they are also a tenth of its glyphs or more. A paper's mathematics has a few symbols a page
// whose fonts say nothing (the fixtures: 38 and 63 in four and five pages); a paragraph drawn so
// that no checker reads it has hundreds.
const pdfUnmappedPage = 50

func (l pdfLacking) warnings() []Warning {
	var ws []Warning
	if n := len(l.unreadable); n > 0 {
		ws = append(ws, Warning{Kind: WarnUnreadablePages, Count: n, Pages: l.unreadable,
			Message: fmt.Sprintf("%d pages could not be read in full (damaged content; pages %s): their text is missing from the check", n, intList(l.unreadable, 0))})
	}
	if n := len(l.truncated); n > 0 {
		ws = append(ws, Warning{Kind: WarnTruncatedPages, Count: n, Pages: l.truncated,
			Message: fmt.Sprintf("%d pages draw more than %d characters (pages %s): the characters past that were left out", n, pdfMaxGlyphs, intList(l.truncated, 0))})
	}
	if n := l.unmappedChars; n > 0 {
		ws = append(ws, Warning{Kind: WarnUnmapped, Count: n, Pages: l.unmapped,
			Message: fmt.Sprintf("%s on %s are in fonts that do not say which characters they are (no Unicode map): their text is missing from the check",
				english.Count(n, "character", "characters"), pageList(l.unmapped))})
	}
	if n := l.outlinedLines; n > 0 {
		ws = append(ws, Warning{Kind: WarnOutlined, Count: n, Pages: l.outlined,
			Message: fmt.Sprintf("%s on %s are drawn as outlines (text converted to curves): a reader sees them, but they are shapes, not characters, and were not checked",
				english.Count(n, "line of text", "lines of text"), pageList(l.outlined))})
	}
	if n := l.fineChars; n > 0 {
		ws = append(ws, Warning{Kind: WarnSmallPrint, Count: n, Pages: l.fine,
			Message: fmt.Sprintf("%s of small print (%s) on lines of their own on %s, %.1f %% of the text and more than a figure's labels, were left out: read, they would lower the figures (a chart shrunk, or padding)",
				english.Count(n, "character", "characters"), tinyLabel(l.fineSize), pageList(l.fine), 100*l.fineShare)})
	}
	if n := l.unseenPictures; n > 0 {
		ws = append(ws, Warning{Kind: WarnPicturesUnseen, Count: n, Pages: l.unseen,
			Message: fmt.Sprintf("%s drawn over text on %s not looked at for text (a check decodes %d million pixels of such pictures at most): the text under them was read, though a photograph there would hide it",
				english.Count(n, "picture", "pictures"), pageList(l.unseen), photoPixels/1_000_000)})
	}
	return ws
}

// pageList names pages: "page 3", "pages 2, 5".
func pageList(pages []int) string {
	if len(pages) == 1 {
		return fmt.Sprintf("page %d", pages[0])
	}
	return "pages " + intList(pages, 0)
}

// pdfHelpers are the cores a PDF's pages may be read on beside the reading goroutine's own. A
// check reads one thesis while the other core has nothing to do (a 313-page thesis: 0.45 s on
// one core); in an import, whose workers fill the cores already, a helper only shares them.
var pdfHelpers = make(chan struct{}, max(runtime.NumCPU()-1, 0))

// pdfParallelPages is the fewest pages worth a helper: each opens the file again with a reader of
// its own (a Reader caches objects and fonts unguarded).
const pdfParallelPages = 16

// readPDFPages reads the pages' glyphs into lines on this goroutine and on a helper's for each
// pdfHelpers lets it have, each taking the next page not taken: pages dealt out in turn (i, i+k,
// i+2k… on each of k goroutines) can leave a core idle while the other reads the last pages of its
// share (a page of figures or a dense table costs many of text), and a helper's reader opens while
// the first pages are read rather than before.
// An unreadable page is left out and listed in lacking: one must not cost the whole thesis, and
// pdftotext skips it too. A page past the bounds of a real document (pdf.ErrLimit) fails the file.
func readPDFPages(ctx context.Context, data []byte, pages []pdf.Page) (_ []*pdfPage, lacking pdfLacking, _ error) {
	helpers, release := pdfTakeHelpers(len(pages))
	defer release()
	laid := make([]*pdfPage, len(pages))
	status := make([]pageStatus, len(pages))
	errs := make([]error, 1+helpers)
	var next, text, budget atomic.Int64
	budget.Store(photoPixels)
	read := func(k int, own []pdf.Page) {
		defer func() {
			if x := recover(); x != nil {
				errs[k] = fmt.Errorf("%w: %v", ErrCorrupt, x)
			}
		}()
		for {
			i := int(next.Add(1) - 1)
			if i >= len(own) {
				return
			}
			if err := ctx.Err(); err != nil {
				errs[k] = err
				return
			}
			pg, err := readPDFPage(own[i], i+1, &budget)
			if errors.Is(err, pdf.ErrLimit) {
				errs[k] = fmt.Errorf("%w: %v", ErrTooLarge, err)
				return
			}
			if err != nil || pg.damaged {
				status[i] = pageUnreadable
			}
			if err != nil {
				continue
			}
			if pg.truncated {
				status[i] = pageTruncated
			}
			n := 0
			for _, l := range pg.lines {
				n += len(l.text)
				for _, h := range l.hidden {
					n += len(h.Text)
				}
			}
			for _, h := range pg.loose {
				n += len(h.Text)
			}
			if text.Add(int64(n)) > MaxDocText {
				errs[k] = fmt.Errorf("%w: more than %d MB of text", ErrTooLarge, MaxDocText>>20)
				return
			}
			laid[i] = pg
		}
	}
	var wg sync.WaitGroup
	for k := 1; k <= helpers; k++ {
		wg.Go(func() {
			// A helper whose reader does not open leaves the pages to the others.
			if own, ok := pdfHelperPages(data, len(pages)); ok {
				read(k, own)
			}
		})
	}
	read(0, pages)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, lacking, err
		}
	}
	for i, st := range status {
		switch st {
		case pageUnreadable:
			lacking.unreadable = append(lacking.unreadable, i+1)
		case pageTruncated:
			lacking.truncated = append(lacking.truncated, i+1)
		}
	}
	return slices.DeleteFunc(laid, func(p *pdfPage) bool { return p == nil }), lacking, nil
}

type pageStatus uint8

const (
	pageRead pageStatus = iota
	pageUnreadable
	pageTruncated
)

// pdfTakeHelpers takes the helpers free while a file of n pages has pdfParallelPages pages per
// reader; release gives them back.
func pdfTakeHelpers(n int) (helpers int, release func()) {
	for n >= pdfParallelPages*(helpers+2) {
		select {
		case pdfHelpers <- struct{}{}:
			helpers++
			continue
		default:
		}
		break
	}
	return helpers, func() {
		for range helpers {
			<-pdfHelpers
		}
	}
}

// pdfHelperPages opens data again for a helper, whose reader is its own: the n pages, or false
// when they cannot be had.
func pdfHelperPages(data []byte, n int) ([]pdf.Page, bool) {
	r, err := pdfOpen(data)
	if err != nil {
		return nil, false
	}
	own, err := pdfPages(r)
	return own, err == nil && len(own) == n
}

// pdfOpen opens data, telling a password-protected file from a damaged one. A file that is
// encrypted but opens with the empty user password (permissions only, which many
// university systems add) is read like any other.
func pdfOpen(data []byte) (r *pdf.Reader, err error) {
	defer func() {
		if x := recover(); x != nil {
			r, err = nil, fmt.Errorf("%w: %v", ErrCorrupt, x)
		}
	}()
	r, err = pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if pdfHasEncrypt(data) {
			return nil, ErrEncrypted
		}
		if !bytes.Contains(data[max(0, len(data)-4096):], []byte("%%EOF")) {
			return nil, fmt.Errorf("%w: the end of the file is missing (an incomplete download?)", ErrCorrupt)
		}
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if !r.Trailer().Key("Encrypt").IsNull() {
		// The library accepted the empty password; make sure it really decrypts.
		if r.Trailer().Key("Root").Key("Pages").Kind() != pdf.Dict {
			return nil, ErrEncrypted
		}
	}
	return r, nil
}

// pdfHasEncrypt reports whether the trailer (or the xref stream dictionary) names /Encrypt.
// It looks at the end of the file, where the last trailer is.
func pdfHasEncrypt(data []byte) bool {
	tail := data
	if len(tail) > 64<<10 {
		tail = tail[len(tail)-64<<10:]
	}
	return bytes.Contains(tail, []byte("/Encrypt")) || bytes.Contains(data[:min(len(data), 64<<10)], []byte("/Encrypt"))
}

func pdfPages(r *pdf.Reader) (pages []pdf.Page, err error) {
	defer func() {
		if x := recover(); x != nil {
			pages, err = nil, fmt.Errorf("%w: page tree: %v", ErrCorrupt, x)
		}
	}()
	pages = r.Pages(maxPDFPages)
	if len(pages) == 0 {
		return nil, fmt.Errorf("%w: no pages", ErrCorrupt)
	}
	return pages, nil
}

// readPDFPage reads one page's glyphs into lines. A panic in the parser becomes an error, which
// wraps pdf.ErrLimit when the page is past the bounds of a real document.
func readPDFPage(p pdf.Page, n int, budget *atomic.Int64) (pg *pdfPage, err error) {
	defer func() {
		if x := recover(); x != nil {
			if e, ok := x.(error); ok {
				pg, err = nil, fmt.Errorf("page %d: %w", n, e)
				return
			}
			pg, err = nil, fmt.Errorf("page %d: %v", n, x)
		}
	}()
	box := p.MediaBox()
	content := p.Content()
	visible, hidden, fine, unseen := pdfSplitHidden(content, p.CropBox(), budget)
	pictures := pdfPictures(&content, visible, n) // in the page's own coordinates, as the images
	pg = &pdfPage{num: n, box: pdfUpright(visible, hidden, box),
		truncated: content.Truncated, damaged: content.Damaged,
		outlined: pdfOutlinedLines(content.Shapes, box), pictures: pictures, unseen: unseen}
	pg.countSizes(visible, fine, content.Paints)
	var alt *pdfPage
	if pg.fineSize > 0 {
		// The page as it reads without its fine print, laid out now, while its glyphs are at hand;
		// the document takes it if its fine print is too much (pdfFineShare).
		a := *pg
		var shown []pdf.Text
		for i, g := range visible {
			if fine[i] == 0 {
				shown = append(shown, g)
			}
		}
		a.layOut(shown, slices.Clone(hidden))
		alt = &a
	}
	pg.layOut(visible, hidden)
	if alt != nil {
		if n := pdfLetters(pg.lines) - pdfLetters(alt.lines); n > 0 {
			pg.alt, pg.fine = alt, n
		}
	}
	p.Recycle(content) // the page keeps strings and copies, none of content's glyphs
	return pg, nil
}

// layOut makes the page's lines of its visible glyphs, with its hidden ones put in them (or
// loose), and counts the glyphs.
func (pg *pdfPage) layOut(visible []pdf.Text, hidden []pdfHiddenGlyph) {
	pg.unmapped, pg.glyphs = pdfUnmapped(visible), len(visible)
	pg.lines = pdfBuildLines(visible, pg.num, hidden)
	if len(hidden) > 0 {
		pg.loose = pdfPlaceHidden(pg.lines, hidden, pg.num)
	}
}

// pdfLetters counts the letters and digits of lines.
func pdfLetters(lines []pdfLine) int {
	n := 0
	for i := range lines {
		for _, r := range lines[i].text {
			if isLetterOrDigit(r) {
				n++
			}
		}
	}
	return n
}

// countSizes counts the page's visible glyphs by their size, by paint (a tally's add for each
// letter took the reading of the bench's 309-page thesis from 130-131 ms to 132-139), and finds
// the largest size of its fine print (fine, pdfSplitHidden).
func (pg *pdfPage) countSizes(visible []pdf.Text, fine []float64, paints []pdf.Paint) {
	byPaint := make([]int, len(paints))
	for i := range visible {
		byPaint[visible[i].Paint]++
		if fine != nil {
			pg.fineSize = max(pg.fineSize, fine[i])
		}
	}
	for i, n := range byPaint {
		if n > 0 {
			pg.sizes.add(pdfPaintSize(&paints[i]), n)
		}
	}
}

// pdfUnmapped counts the glyphs whose font gives no character for them: they are drawn, and the
// reader sees them, but their text cannot be read (and lines leave them out).
func pdfUnmapped(visible []pdf.Text) int {
	n := 0
	for i := range visible {
		if s := visible[i].S; s == "\uFFFD" || s == "\x00" {
			n++
		}
	}
	return n
}

// pdfPictures lists the images of page n that may show text of their own: large enough to hold
// lines of it, and not under text that covers a twentieth of them. An image under text is the scan
// beneath its OCR text, or a background, whose text is read; a few words on a picture (a label, or
// a word put there to have it passed over) are not that. A scan is listed to be compared with its
// text layer.
func pdfPictures(c *pdf.Content, visible []pdf.Text, n int) []picture {
	var out []picture
	for _, im := range c.Images {
		b := im.Box
		if b.Max.X-b.Min.X < 72 || b.Max.Y-b.Min.Y < 24 {
			continue
		}
		covered := 0.0
		for i := range visible {
			g := &visible[i]
			x, y := g.X+g.W/2, g.Y+0.3*g.FontSize
			if x >= b.Min.X && x <= b.Max.X && y >= b.Min.Y && y <= b.Max.Y {
				covered += math.Abs(g.W * g.FontSize)
			}
		}
		id, gen := im.XObject.ID()
		key := fmt.Sprintf("pdf %d %d", id, gen)
		if covered > (b.Max.X-b.Min.X)*(b.Max.Y-b.Min.Y)/20 {
			// Under text: a background, whose text is read; or a scan, whose text layer is
			// compared with it (pdf_layer.go).
			if glyphs := pdfLayerGlyphs(c, visible, &im); glyphs != nil {
				decode, ok := pdfImage(im.XObject)
				place := im.Place
				layer := func() (int, layerVerdict) { return 0, layerUnknown }
				if ok {
					layer = func() (int, layerVerdict) { return pictureMatchesLayer(decode, place, glyphs) }
				}
				out = append(out, picture{page: n, key: fmt.Sprintf("%s layer %d", key, n), layer: layer})
			}
			continue
		}
		decode, ok := pdfPicture(im.XObject)
		if !ok {
			continue
		}
		out = append(out, picture{page: n, key: key,
			look: func() (int, bool) { return pictureShowsText(decode) }})
	}
	return out
}

// pdfTitle is the document title from the Info dictionary, unless it is empty or merely
// a file name ("Microsoft Word - 论文.docx").
func pdfTitle(r *pdf.Reader) (title string) {
	defer func() {
		if recover() != nil {
			title = ""
		}
	}()
	t := strings.TrimSpace(strings.ReplaceAll(r.Trailer().Key("Info").Key("Title").Text(), "\x00", ""))
	low := strings.ToLower(t)
	for _, ext := range []string{".doc", ".docx", ".pdf", ".wps", ".tex", ".dvi", ".odt"} {
		if strings.HasSuffix(low, ext) {
			return ""
		}
	}
	if strings.HasPrefix(low, "microsoft word") || strings.HasPrefix(low, "untitled") || strings.ContainsRune(t, '\uFFFD') {
		return ""
	}
	return t
}
