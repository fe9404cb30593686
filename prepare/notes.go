package prepare

import "thesischeck/extract"

// WithNotes returns doc with its footnotes and endnotes as paragraphs of their own after its last
// paragraph (section Notes, on the page and in the chapter of the paragraph that refers to them),
// so that a check and a comparison read them as they read body text; doc itself if it has none.
// Text put in a note is on the page a reader reads: a thesis whose copied paragraphs were moved
// into footnotes read 0 % when notes were left out (CNKI and Turnitin check them too). They go last
// so that the paragraphs keep their numbers, which extraction's warnings use.
func WithNotes(doc *extract.Document) *extract.Document {
	n := 0
	for _, p := range doc.Paragraphs {
		n += len(p.Notes)
	}
	if n == 0 {
		return doc
	}
	out := *doc
	out.Paragraphs = make([]extract.Paragraph, 0, len(doc.Paragraphs)+n)
	notes := make([]extract.Paragraph, 0, n)
	for _, p := range doc.Paragraphs {
		for _, note := range p.Notes {
			notes = append(notes, extract.Paragraph{Text: note, Section: extract.Notes, Chapter: p.Chapter, Page: p.Page,
				FrontMatter: p.FrontMatter})
		}
		p.Notes = nil
		out.Paragraphs = append(out.Paragraphs, p)
	}
	out.Paragraphs = append(out.Paragraphs, notes...)
	return &out
}
