package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// The WordprocessingML namespaces: transitional (what Word, WPS and LibreOffice write) and strict.
const (
	nsW       = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	nsWStrict = "http://purl.oclc.org/ooxml/wordprocessingml/main"
	nsMC      = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	nsXML     = "http://www.w3.org/XML/1998/namespace"
	nsMath    = "http://schemas.openxmlformats.org/officeDocument/2006/math" // OMML equations
	relPrefix = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
)

// readDOCX reads the body of a Word document: the paragraphs of the main part in reading order
// (table cells one paragraph each, text boxes once), headings from the styles, and footnotes and
// endnotes attached to the paragraph that refers to them. Comments, deleted text, field codes, the
// table of contents and headers and footers are not body text and are left out, but for header
// and footer paragraphs longer than any running header (docxMargins).
func readDOCX(ctx context.Context, data []byte) (*Document, error) {
	return readDOCXDepth(ctx, data, 0, newChunkBudget())
}

// readDOCXDepth is readDOCX of a document depth parts deep inside another, the parts it imports
// costing budget (docx_chunks.go).
func readDOCXDepth(ctx context.Context, data []byte, depth int, budget *chunkBudget) (*Document, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: not a valid ZIP archive (%v)", ErrCorrupt, err)
	}
	pkg := newDocxPackage(zr)
	mainName := pkg.mainPart()
	if mainName == "" {
		return nil, fmt.Errorf("%w: a ZIP archive without word/document.xml", ErrUnsupported)
	}
	body, err := pkg.mainXML(data, mainName)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	rels := pkg.rels(mainName)
	styles := parseStyles(pkg.readOptional(pkg.target(rels, "styles", mainName, "word/styles.xml")))
	numberingXML := pkg.readOptional(pkg.target(rels, "numbering", mainName, "word/numbering.xml"))
	fonts := docxFonts(pkg, rels, mainName)
	stores := newDocxStores(pkg)
	theme := parseTheme(pkg.readOptional(pkg.target(rels, "theme", mainName, "word/theme/theme1.xml")),
		pkg.readOptional(pkg.target(rels, "settings", mainName, "word/settings.xml")))
	notes := map[string]string{}
	var warnings []Warning
	noteHidden := map[string][]Hidden{}
	page := pageOf(body)
	// walker makes a walker of this document's parts (notes, the body, headers and footers), with
	// what they share.
	plainPictures, opaquePictures := map[string]plainPictureOf{}, map[string]bool{}
	walker := func(num *numbering) *docxWalker {
		w := newDocxWalker(ctx, styles, num)
		w.fonts, w.theme, w.stores, w.plainPictures, w.opaquePictures = fonts, theme, stores, plainPictures, opaquePictures
		return w
	}
	for _, kind := range []string{"footnotes", "endnotes"} {
		name := pkg.target(rels, kind, mainName, "word/"+kind+".xml")
		raw := pkg.readOptional(name)
		if err := pkg.err; err != nil {
			return nil, err
		}
		if raw == nil && pkg.parts[strings.ToLower(name)] != nil {
			warnings = append(warnings, Warning{Kind: WarnUnreadableNotes, Count: 1,
				Message: fmt.Sprintf("%s is damaged: its %s were left out", name, kind)})
		}
		if len(raw) == 0 {
			continue
		}
		w := walker(nil)
		if err := w.walk(raw); err != nil {
			return nil, fmt.Errorf("%w: word/%s.xml: %v", ErrCorrupt, kind, err)
		}
		for id, text := range w.noteTexts {
			notes[kind[:1]+id] = text
		}
		for id, hs := range w.noteHidden {
			noteHidden[kind[:1]+id] = hs
		}
	}
	if pkg.err != nil {
		return nil, pkg.err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	var w *docxWalker
	var onPage map[int]docxColor
	for pass := 0; pass < 2; pass++ {
		w = walker(parseNumbering(numberingXML)) // lists count afresh each walk
		w.notes, w.noteHidden = notes, noteHidden
		w.place(page)
		w.pictureData = func(id string) []byte { return pkg.readOptional(relByID(rels, id, mainName)) }
		w.onPage = onPage
		if err = w.walk(body); err != nil {
			break
		}
		// A drawing behind the text that is its page's background changes what shows there:
		// read the document again with it.
		if onPage = w.pageBackdrops(); onPage == nil || pass > 0 {
			break
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, ErrTooLarge) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, mainName, err)
	}
	w.coverPages()
	if w.noteRepeats > 0 {
		warnings = append(warnings, Warning{Kind: WarnRepeatedNotes, Count: w.noteRepeats,
			Message: fmt.Sprintf("%d more references to notes already read: each note is kept once, with the first paragraph that refers to it", w.noteRepeats)})
	}
	paras, unplaced, chunkWarnings, chunkPictures, err := readChunks(ctx, pkg, rels, mainName, w, depth, budget)
	if err != nil {
		return nil, err
	}
	warnings = append(warnings, chunkWarnings...)
	doc := &Document{Paragraphs: paras, Warnings: warnings,
		pictures: append(docxPictures(pkg, rels, mainName, w.pictureIDs), chunkPictures...)}
	doc.unplacedHidden = unplaced
	if depth == 0 {
		doc.margins, err = docxMargins(ctx, pkg, rels, mainName, func() *docxWalker {
			w := walker(nil)
			w.place(page)
			return w
		})
		if err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// minMarginText is the length from which a paragraph of a header or footer, or a run of short ones,
// is read: a running header (the school, the thesis's title, the chapter) is shorter.
const minMarginText = 100

// docxMargins reads the paragraphs of the headers and footers the document uses that are longer
// than any running header. Word grows a header to hold what it is given, so copied paragraphs put
// in one show on the page, and were not read (headers and footers are left out as furniture).
func docxMargins(ctx context.Context, pkg *docxPackage, rels []rel, mainName string, walker func() *docxWalker) ([]Paragraph, error) {
	var out []Paragraph
	seen := map[string]bool{}
	for _, r := range rels {
		if r.typ != relPrefix+"header" && r.typ != relPrefix+"footer" || r.mode == "External" {
			continue
		}
		name := resolvePart(mainName, r.target)
		if seen[strings.ToLower(name)] {
			continue
		}
		seen[strings.ToLower(name)] = true
		raw := pkg.readOptional(name)
		if len(raw) == 0 {
			continue
		}
		w := walker()
		w.notes = map[string]string{} // paragraphs, not a note's parts
		if err := w.walk(raw); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue // a damaged header leaves the body as it is
		}
		// Short paragraphs in a row that hold as much together are read too: a copy cut into lines
		// of a header, each a paragraph, grows it as one long paragraph does.
		var run []Paragraph
		n := 0 // the run's characters
		flush := func() {
			if n >= minMarginText {
				out = append(out, run...)
			}
			run, n = run[:0], 0
		}
		for _, p := range w.paras {
			if k := utf8.RuneCountInString(p.Text); k < minMarginText {
				run = append(run, p)
				n += k
				continue
			}
			flush()
			out = append(out, p)
		}
		flush()
	}
	return out, pkg.err
}

// docxPictures lists the picture parts the body shows, each once; they are read only when a check
// looks at them (TextPictures).
func docxPictures(pkg *docxPackage, rels []rel, mainName string, ids []string) []picture {
	var out []picture
	for _, id := range ids {
		name := relByID(rels, id, mainName)
		if name == "" || pkg.parts[strings.ToLower(name)] == nil {
			continue
		}
		out = append(out, picture{key: name, look: func() (int, bool) {
			raw, err := pkg.read(name)
			if err != nil {
				return 0, false
			}
			return docxLook(raw)
		}})
	}
	return out
}

// --- styles -------------------------------------------------------------------------------------

// --- numbering ----------------------------------------------------------------------------------

// --- the document walk --------------------------------------------------------------------------
