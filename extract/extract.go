// Package extract turns a thesis file (PDF, DOCX or TXT) into its paragraphs, each with the part of
// the thesis it belongs to (front matter, abstract, body, references, …), its page and its notes.
//
// It is the only package that knows file formats. Everything after it works on Document values.
// Third-party parsers are called behind a recover and a time limit: a broken file is an error
// naming the file, never a panic or a hang.
package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"thesischeck/internal/english"
)

// Section is the part of a thesis a paragraph belongs to.
type Section string

// The sections, in the order they usually appear.
const (
	Front            Section = "front"      // title page, declarations, table of contents
	Abstract         Section = "abstract"   // 摘要 / Abstract
	Body             Section = "body"       // chapters
	References       Section = "references" // 参考文献 / References / Bibliography
	Acknowledgements Section = "acknowledgements"
	Appendix         Section = "appendix"
	// Notes: footnotes and endnotes. Extraction keeps them with the paragraph that refers to them
	// (Paragraph.Notes); a check reads each as a paragraph of this section.
	Notes Section = "notes"
)

// Paragraph is one block of running text.
type Paragraph struct {
	Text    string   `json:"text"`
	Section Section  `json:"section"`
	Heading bool     `json:"heading,omitempty"` // the paragraph is itself a heading
	Chapter string   `json:"chapter,omitempty"` // the heading of the chapter it stands in
	Page    int      `json:"page,omitempty"`    // 1-based page where it starts; 0 when the format has no pages
	Notes   []string `json:"notes,omitempty"`   // footnotes and endnotes referenced from this paragraph
	// FrontMatter marks the title page, declarations, authorisations, signature and date lines and
	// table of contents: text every thesis of a school repeats, recognised by its place (Structure).
	FrontMatter bool `json:"front_matter,omitempty"`
	// Hidden is the text in this paragraph (or standing apart next to it) that a reader cannot
	// see, left out of Text; see hidden.go.
	Hidden []Hidden `json:"hidden,omitempty"`
	// reordered: direction overrides had stored some of its text back to front (readInOrder).
	reordered bool
}

// Counted reports whether a paragraph counts towards similarity by default: references, headings and
// front matter do not (as in CNKI's figure without references), and reports say so.
func (p Paragraph) Counted() bool {
	return !p.Heading && p.Section != References && !p.FrontMatter
}

// titlePageLine reports front matter that is a line of the title page (title, author, supervisor,
// date) rather than prose such as a declaration: short, or not ending as a sentence ends.
func titlePageLine(text string) bool {
	rs := []rune(strings.TrimSpace(text))
	if len(rs) < 40 {
		return true
	}
	if len(rs) >= 160 {
		return false
	}
	return !strings.ContainsRune(".!?。！？…", rs[len(rs)-1])
}

// Document is an extracted file.
type Document struct {
	Path   string `json:"path"`
	Format string `json:"format"` // "pdf", "docx" or "txt"
	Title  string `json:"title"`
	// Thesis: the document opens with a thesis's front matter (a cover page naming the degree or the
	// supervisor, or a declaration of originality), as Structure recognised it.
	Thesis     bool        `json:"thesis,omitempty"`
	Paragraphs []Paragraph `json:"paragraphs"`
	// Warnings tell of text that extraction replaced, dropped or could not read as the file meant
	// it. A check's figures are about the text read, so a report carries these along.
	Warnings []Warning `json:"warnings,omitempty"`
	// unplacedHidden is hidden text that no paragraph could take, there being none.
	unplacedHidden []Hidden
	// margins are paragraphs of a DOCX's headers and footers long enough to be no running header
	// (docxMargins): added after the body has its structure, as body text, wherever the body's
	// front matter and references are.
	margins []Paragraph
	// pictures may show text the check cannot read; TextPictures looks at them.
	pictures []picture
	// unmapped counts a PDF's visible glyphs whose font gives no character for them.
	unmapped int
	// outlined counts a PDF's pages that draw lines of text as outlines.
	outlined int
}

// Warning is one kind of change extraction made to a document's text.
type Warning struct {
	Kind    WarningKind `json:"kind"`    // machine-readable; one of the Warn… constants
	Count   int         `json:"count"`   // how many characters, bytes or items, as Message says
	Message string      `json:"message"` // one line for people
	// Pages (1-based) and Paragraphs (indices into Document.Paragraphs) say where, when known.
	Pages      []int `json:"pages,omitempty"`
	Paragraphs []int `json:"paragraphs,omitempty"`
}

// Errors that describe why a file cannot be read. They are wrapped with the file's path.
var (
	ErrEncrypted   = errors.New("password protected")
	ErrNoText      = errors.New("no text layer — scanned?")
	ErrEmpty       = errors.New("no paragraphs")
	ErrAllHidden   = errors.New("all of its text is hidden")
	ErrUnmapped    = errors.New("its fonts do not say which characters they draw (no Unicode map)")
	ErrOutlined    = errors.New("its text is drawn as outlines (converted to curves), not characters")
	ErrUnsupported = errors.New("not a PDF, DOCX or text file")
	ErrOldOffice   = errors.New("a Word 97-2003 document (.doc) or another Office file of before 2007: save it as DOCX (in Word or WPS: Save As), then check that")
	ErrCorrupt     = errors.New("file is damaged")
	ErrTooLarge    = errors.New("file is too large")
	ErrTimeout     = errors.New("reading took too long")
)

// Limits that keep hostile files from costing memory or time.
const (
	MaxFileSize  = 200 << 20 // bytes read from disk
	MaxTextBytes = 64 << 20  // bytes one part of a file (a DOCX part, a decoded text file) may expand to
	// MaxDocText bounds the text of one document: four long theses. A check costs memory in
	// proportion to it: about 800 MB at 8 MB of text, too close to the 1 GB a laptop can spare.
	MaxDocText = 4 << 20
	// MaxParagraphs bounds the paragraphs of one document; a thesis has a few thousand.
	MaxParagraphs = 100_000
	Timeout       = 60 * time.Second
)

// maxParagraphRunes is the longest paragraph kept whole. Alignment costs up to the square of a
// paragraph's length, so a text without line breaks is cut into pieces of this size.
const maxParagraphRunes = 4000

// File reads the document at path. The format is taken from the content, not the extension, so a
// PDF named .docx is still read as a PDF.
func File(path string) (*Document, error) {
	return FileContext(context.Background(), path)
}

// FileContext is File with a context that can cancel a long extraction.
func FileContext(ctx context.Context, path string) (*Document, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Bytes(ctx, path, data)
}

// ReadFile reads a file that is to be extracted, refusing folders, empty files and files over
// MaxFileSize before reading them. Errors name the file.
func ReadFile(path string) ([]byte, error) {
	data, err := readLimited(path)
	if err != nil {
		return nil, fmt.Errorf("extract %s: %w", path, err)
	}
	return data, nil
}

func readLimited(path string) ([]byte, error) {
	// A named pipe blocks the open itself until something writes to it: look before opening.
	if st, err := os.Stat(path); err == nil && !st.IsDir() && !st.Mode().IsRegular() {
		return nil, NotRegular(st.Mode())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, errors.New("is a folder")
	}
	if !st.Mode().IsRegular() {
		return nil, NotRegular(st.Mode())
	}
	if st.Size() > MaxFileSize {
		return nil, fmt.Errorf("%w (%d MB, limit %d MB)", ErrTooLarge, st.Size()>>20, MaxFileSize>>20)
	}
	// The size is checked again on the bytes read: a device or a growing file has no honest size.
	// Reading into a buffer of that size takes two reads where io.ReadAll's growing one took a dozen
	// (an import of 10,000 files spent 1.6 s of CPU in them).
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxFileSize+1)); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%w (limit %d MB)", ErrTooLarge, MaxFileSize>>20)
	}
	return data, nil
}

// ErrNotRegular is returned for a named pipe, a device or a socket: reading one may never end.
var ErrNotRegular = errors.New("not a regular file")

// NotRegular is ErrNotRegular saying what the file is instead.
func NotRegular(mode os.FileMode) error {
	what := "a special file"
	switch {
	case mode&os.ModeNamedPipe != 0:
		what = "a named pipe"
	case mode&os.ModeSocket != 0:
		what = "a socket"
	case mode&os.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("%w (%s)", ErrNotRegular, what)
}

// Bytes reads a document held in memory; name is used for messages and to warn when its extension
// names another format than the content.
func Bytes(ctx context.Context, name string, data []byte) (*Document, error) {
	doc, err := parse(ctx, name, data)
	if err != nil {
		return nil, fmt.Errorf("extract %s: %w", name, err)
	}
	return doc, nil
}

func parse(ctx context.Context, name string, data []byte) (*Document, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: the file is empty", ErrEmpty)
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%w (%d MB, limit %d MB)", ErrTooLarge, len(data)>>20, MaxFileSize>>20)
	}
	format := Sniff(data, name)
	if format == "" {
		if bytes.HasPrefix(data, oleSignature) {
			if bytes.Contains(data, encryptedPackage) {
				return nil, ErrEncrypted // a DOCX saved with a password to open
			}
			return nil, ErrOldOffice
		}
		return nil, ErrUnsupported
	}
	doc, err := parseGuarded(ctx, format, data)
	if err != nil {
		return nil, oneLine{err}
	}
	if len(doc.Paragraphs) == 0 {
		if format == "pdf" {
			// A scan with a page number in such a font is still a scan.
			if doc.unmapped >= pdfUnmappedPage && len(doc.unplacedHidden) == 0 {
				return nil, fmt.Errorf("%w: %s", ErrUnmapped, english.Count(doc.unmapped, "character", "characters"))
			}
			if doc.outlined > 0 && len(doc.unplacedHidden) == 0 {
				return nil, fmt.Errorf("%w, on %s", ErrOutlined, english.Count(doc.outlined, "page", "pages"))
			}
			return nil, allHiddenError(doc, ErrNoText)
		}
		return nil, allHiddenError(doc, ErrEmpty)
	}
	doc.Path, doc.Format = name, format
	if w, ok := nameMismatch(name, format); ok {
		doc.Warnings = append(doc.Warnings, w)
	}
	markReplaced(doc)
	if format != "txt" { // a TXT's decoding counts them
		if w, ok := privateUseWarning(doc); ok {
			doc.Warnings = append(doc.Warnings, w)
		}
	}
	doc.Warnings = append(doc.Warnings, hiddenWarning(doc)...)
	if doc.Title == "" {
		doc.Title = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	return doc, nil
}

// finish bounds a parsed document's size and gives it its structure.
func finish(doc *Document) (*Document, error) {
	if err := checkSize(doc.Paragraphs); err != nil {
		return nil, err
	}
	moved := readInOrder(doc)
	doc.Paragraphs = splitLong(doc.Paragraphs)
	if moved > 0 {
		doc.Warnings = append(doc.Warnings, reversedWarning(doc, moved))
	}
	Structure(doc)
	for _, p := range splitLong(doc.margins) {
		p.Section, p.Heading, p.Chapter, p.FrontMatter = Body, false, marginsChapter, false
		doc.Paragraphs = append(doc.Paragraphs, p)
	}
	return doc, nil
}

// marginsChapter is what reports name as the chapter of paragraphs read from headers and footers.
const marginsChapter = "页眉页脚 Headers and footers"

// oleSignature opens a compound file: Word 97-2003 (.doc), old WPS and Excel files. Their text
// is not read; the user is told how to make a DOCX of it.
var oleSignature = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// encryptedPackage is the name, in UTF-16LE as a compound file's directory holds it, of the stream
// that holds an encrypted Office Open XML document (MS-OFFCRYPTO 2.3.4.4): Word and WPS save a DOCX
// with a password to open as a compound file, which would otherwise be taken for an old .doc.
var encryptedPackage = []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e\x00")

// formatExts are the extensions each format is saved under.
var formatExts = map[string][]string{
	"pdf":  {".pdf"},
	"docx": {".docx", ".docm", ".dotx", ".dotm"},
	"txt":  {".txt", ".text"},
}

// documentExts are extensions that name a document format; text under any other extension (.md,
// .tex, none) is not a disagreement.
var documentExts = []string{".pdf", ".docx", ".docm", ".dotx", ".dotm", ".doc", ".dot", ".wps", ".rtf",
	".odt", ".txt", ".text", ".htm", ".html", ".xps", ".caj", ".epub"}

// nameMismatch warns when the file's extension names another format than its content: a PDF named
// .docx is read as the PDF it is, and the reader of the report should know that the file they see
// is not what was checked as they would open it.
func nameMismatch(name, format string) (Warning, bool) {
	ext := strings.ToLower(filepath.Ext(name))
	if ext == "" || slices.Contains(formatExts[format], ext) || (format == "txt" && !slices.Contains(documentExts, ext)) {
		return Warning{}, false
	}
	return Warning{Kind: WarnNameMismatch, Count: 1,
		Message: fmt.Sprintf("the file is named %s but its content is %s: it was read as %s", ext, formatNames[format], formatNames[format])}, true
}

var formatNames = map[string]string{"pdf": "a PDF", "docx": "a Word document (DOCX)", "txt": "plain text"}

// markReplaced says in which paragraphs the replaced characters stand, now that they are final.
func markReplaced(doc *Document) {
	for i := range doc.Warnings {
		if w := &doc.Warnings[i]; w.Kind == WarnReplaced {
			w.Paragraphs = nil
			for j, p := range doc.Paragraphs {
				if strings.ContainsRune(p.Text, utf8.RuneError) {
					w.Paragraphs = append(w.Paragraphs, j)
				}
			}
		}
	}
}

// privateUseWarning counts the characters of the private use areas (and unassigned ones) in the
// paragraphs made mostly of them. Such a character means what the font that draws it says: a DOCX
// whose copied paragraphs were written in private-use characters, with an embedded font that draws
// each as the Chinese character it replaced, shows the copy and read 0.0 % with no warning. A
// symbol font's bullet or a ligature here and there (fewer than 10 in a paragraph, or under a
// tenth of it) is typography.
func privateUseWarning(doc *Document) (Warning, bool) {
	w := Warning{Kind: WarnNotText}
	for i, p := range doc.Paragraphs {
		n, all := 0, 0
		for _, r := range p.Text {
			all++
			if privateOrUnassigned(r) {
				n++
			}
		}
		if n >= 10 && n*10 >= all {
			w.Count += n
			w.Paragraphs = append(w.Paragraphs, i)
		}
	}
	if w.Count == 0 {
		return w, false
	}
	w.Message = fmt.Sprintf("%s of private use or unassigned code points in %s: a font draws them as it likes, no checker can read them (copied text written so, with a font that shows it, matches nothing)",
		english.Count(w.Count, "character", "characters"), english.Count(len(w.Paragraphs), "paragraph", "paragraphs"))
	return w, true
}

// privateOrUnassigned reports a private-use or unassigned code point. Asking Unicode's tables of
// every rune took 11 % of the CPU of an import of 10,000 generated documents: the blocks that
// most text is made of, all assigned and none private, are answered first.
func privateOrUnassigned(r rune) bool {
	if r < 0x370 || r >= 0x4E00 && r <= 0x9FFF || r >= 0x3000 && r <= 0x303F || r >= 0xFF01 && r <= 0xFF5E {
		return false
	}
	return unicode.Is(unicode.Co, r) || !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C)
}

// oneLine shows an error on one short line of printable text: parsers quote the broken bytes of a
// damaged file in their messages, line breaks and control characters included.
type oneLine struct{ err error }

func (e oneLine) Unwrap() error { return e.err }

func (e oneLine) Error() string {
	var b strings.Builder
	n := 0
	for _, r := range e.err.Error() {
		if n == 200 {
			b.WriteString("…")
			break
		}
		switch {
		case r == utf8.RuneError || unicode.IsControl(r):
			r = ' '
		case !unicode.IsPrint(r):
			r = '?'
		}
		b.WriteRune(r)
		n++
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func checkSize(ps []Paragraph) error {
	if len(ps) > MaxParagraphs {
		return fmt.Errorf("%w: more than %d paragraphs", ErrTooLarge, MaxParagraphs)
	}
	n := 0
	for _, p := range ps {
		n += len(p.Text)
		for _, note := range p.Notes {
			n += len(note)
		}
		for _, h := range p.Hidden {
			n += len(h.Text)
		}
	}
	if n > MaxDocText {
		return fmt.Errorf("%w: more than %d MB of text", ErrTooLarge, MaxDocText>>20)
	}
	return nil
}

// splitLong cuts paragraphs longer than maxParagraphRunes into pieces, at a sentence end or a space
// where there is one in the second half of the piece. The first piece keeps the notes.
func splitLong(ps []Paragraph) []Paragraph {
	long := false
	for _, p := range ps {
		if len(p.Text) > maxParagraphRunes { // bytes ≥ runes: a quick filter
			long = true
			break
		}
	}
	if !long {
		return ps
	}
	out := make([]Paragraph, 0, len(ps))
	for _, p := range ps {
		for {
			cut := cutPoint(p.Text, maxParagraphRunes)
			if cut >= len(p.Text) {
				break
			}
			piece := p
			piece.Text = strings.TrimSpace(p.Text[:cut])
			piece.Hidden, p.Hidden = splitHidden(p.Hidden, p.Text[:cut], p.Text[cut:])
			out = append(out, piece)
			p.Text = strings.TrimSpace(p.Text[cut:])
			p.Notes, p.Heading = nil, false
		}
		if p.Text != "" {
			out = append(out, p)
		}
	}
	return out
}

// splitHidden divides a paragraph's hidden pieces between the two parts its text is cut into,
// head and tail (before they are trimmed), with offsets into the trimmed parts.
func splitHidden(hs []Hidden, head, tail string) (first, rest []Hidden) {
	trimmed := func(s string) (lead, n int) {
		t := strings.TrimLeftFunc(s, unicode.IsSpace)
		return utf8.RuneCountInString(s) - utf8.RuneCountInString(t), utf8.RuneCountInString(strings.TrimRightFunc(t, unicode.IsSpace))
	}
	n := utf8.RuneCountInString(head)
	headLead, headN := trimmed(head)
	tailLead, tailN := trimmed(tail)
	for _, h := range hs {
		if h.Offset < n || h.Offset == n && h.Apart {
			h.Offset = min(max(h.Offset-headLead, 0), headN)
			first = append(first, h)
			continue
		}
		h.Offset = min(max(h.Offset-n-tailLead, 0), tailN)
		rest = append(rest, h)
	}
	return first, rest
}

// cutPoint is the byte offset at which to cut s so that the first part has at most n runes: after
// the last sentence end, else before the last space, in the second half; else at n runes. It is
// len(s) when s has at most n runes.
func cutPoint(s string, n int) int {
	sentence, space, runes := 0, 0, 0
	for i, r := range s {
		if runes == n {
			switch {
			case sentence > 0:
				return sentence
			case space > 0:
				return space
			}
			return i
		}
		runes++
		switch {
		case runes <= n/2:
		case strings.ContainsRune("。．.！!？?；;", r):
			sentence = i + utf8.RuneLen(r)
		case unicode.IsSpace(r):
			space = i
		}
	}
	return len(s)
}

// Sniff names the format of data by its content: "pdf", "docx", "txt", or "" when it is none of
// them. The extension of name only breaks ties (a ZIP that is not a DOCX is not text either).
func Sniff(data []byte, name string) string {
	head := data
	if len(head) > 1024 {
		head = head[:1024]
	}
	switch {
	case bytes.Contains(head, []byte("%PDF-")):
		return "pdf"
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return "docx"
	case looksLikeText(data):
		return "txt"
	}
	return ""
}

// parseGuarded runs a parser, and the steps after it, with a recover and a time limit, so that a
// parser bug on a hostile file becomes an error. A parser that hangs is abandoned (its goroutine
// is left to finish; the bounds on every format make sure it does).
func parseGuarded(ctx context.Context, format string, data []byte) (*Document, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	type result struct {
		doc *Document
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- result{nil, fmt.Errorf("%w: %v", ErrCorrupt, r)}
			}
		}()
		var doc *Document
		var err error
		switch format {
		case "pdf":
			doc, err = readPDF(ctx, data)
		case "docx":
			oneCore(ctx)
			doc, err = readDOCX(ctx, data)
		default:
			oneCore(ctx)
			doc, err = readTXT(data)
		}
		if err == nil {
			doc, err = finish(doc)
		}
		ch <- result{doc, err}
	}()
	select {
	case r := <-ch:
		return r.doc, r.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, ErrTimeout
		}
		return nil, ctx.Err()
	}
}
