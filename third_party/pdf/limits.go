// PATCH: new file. Bounds on the work one file may cause, so that a small hostile PDF fails with an
// error instead of taking minutes and gigabytes. Each bound is far above what a real document needs.

package pdf

import (
	"errors"
	"fmt"
	"io"
)

// ErrLimit is what a PDF that exceeds one of the bounds below fails with (wrapped, saying which).
// Content and the other page calls panic with it, as with any malformed content; callers recover
// and tell it from damage with errors.Is.
var ErrLimit = errors.New("beyond what a real document needs")

const (
	// maxStreamBytes bounds the decoded size of one stream. A thesis page's content is a few
	// hundred KB; a stream that inflates to gigabytes is a bomb.
	maxStreamBytes = 256 << 20
	// maxPageWork bounds the content bytes read for one page, forms included, each as often as it
	// is drawn (plus drawCost for each form drawn). Content of dense path operators is read at
	// about 17-30 MB/s (60 MB in 2-3.5 s measured), so a page costs at most a few seconds.
	maxPageWork = 64 << 20
	// maxReaderWork bounds the same over all pages read through one Reader: about ten seconds. A
	// 300-page thesis has 2-11 MB (the devset's and fixtures' pages hold 7-35 KB each).
	maxReaderWork = 256 << 20
	// drawCost is charged for each form drawn, so that a form of a few bytes drawn millions of
	// times costs what its setup costs.
	drawCost = 4 << 10
	// maxSaveDepth bounds q nesting (Acrobat's own limit is 28).
	maxSaveDepth = 1024
	// maxPatternTiles bounds the cells of a pattern whose text a fill draws (PATCH): a cell set
	// once on a page has one or a few; more is a texture of repeated words.
	maxPatternTiles = 16
	// maxFormDepth bounds form XObjects drawn inside forms.
	maxFormDepth = 16
	// maxOperands bounds the operands waiting on the stack for an operator (a content operator
	// takes at most a handful; a CMap block at most a few hundred).
	maxOperands = 1 << 16
	// maxArrayLen bounds the elements of one array (a CID font's /W has at most 131,072).
	maxArrayLen = 1 << 20
	// maxImages bounds the images a page's Content lists (a page of a thesis paints a few).
	maxImages = 256
	// maxAnnots bounds the annotations drawn on a page (a page of comments has dozens).
	maxAnnots = 1024
	// maxShapes bounds the filled shapes a page's Content lists (a page of text drawn as outlines
	// fills about 3,000: a stroke or a bowl of each character's outline, 40 lines of 40).
	maxShapes = 1 << 14
	// maxReaderFonts bounds the bytes of embedded font programs one Reader reads and keeps
	// (ReadFontProgram): a thesis's fonts are subsets of 20-500 KB, a whole CJK font 10-20 MB;
	// past it, a font's glyphs are not asked about.
	maxReaderFonts = 96 << 20
	// maxObjects bounds the cross-reference table (ISO 32000's implementation limit is 8,388,607).
	maxObjects = 1 << 23
)

func limitError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrLimit}, args...)...)
}

// limitedReader ends a decoded stream with an error past maxStreamBytes.
type limitedReader struct {
	r    io.Reader
	left int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, limitError("a stream decodes to more than %d MB", maxStreamBytes>>20)
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

// work is what reading content may still cost: one per page (and its forms), one per Reader.
type work struct {
	page    int64
	reader  *int64
	damaged bool // a content stream could not be read to its end: the text after the damage is missing
}

func (w *work) charge(n int64) {
	w.page -= n
	*w.reader -= n
	if w.page < 0 {
		panic(limitError("a page's content runs past %d MB", maxPageWork>>20))
	}
	if *w.reader < 0 {
		panic(limitError("the pages' content runs past %d MB", maxReaderWork>>20))
	}
}

// chargedReader charges the bytes read to a work budget.
type chargedReader struct {
	r io.Reader
	w *work
}

func (c chargedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.w.charge(int64(n))
	return n, err
}
