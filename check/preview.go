package check

import (
	"unicode/utf8"

	"thesischeck/extract"
	"thesischeck/similarity"
)

// Part is one part of a document (the title page, the abstract, a chapter, the references) as a
// check with given options reads it: how much of it is checked, and why the rest is not.
type Part struct {
	Name       string // the chapter's heading in the body, else the section ("front", "abstract", …)
	Section    string
	Paragraphs int
	Chars      int
	Checked    int    // characters checked
	LeftOut    string // why the rest is not: "front matter", "references" or "headings"; "" if all is checked
	Notes      int    // footnotes and endnotes of the part's paragraphs
	Hidden     int    // characters of text a reader cannot see, left out (see extract.Hidden)
}

// Preview lists the parts of doc in order, as a check with opts would read them: what a student sees
// before trusting a figure (a chapter read as references shows here). It reads nothing else.
func Preview(doc *extract.Document, opts *Options) []Part {
	o := opts.withDefaults()
	var parts []Part
	idx := map[string]int{}
	for _, p := range doc.Paragraphs {
		name := sectionName(p)
		k, ok := idx[name]
		if !ok {
			k = len(parts)
			idx[name] = k
			parts = append(parts, Part{Name: name, Section: string(p.Section)})
		}
		part := &parts[k]
		n := similarity.CountChars([]rune(p.Text)).Total()
		part.Paragraphs++
		part.Chars += n
		part.Notes += len(p.Notes)
		for _, h := range p.Hidden {
			part.Hidden += utf8.RuneCountInString(h.Text)
		}
		if o.checks(p) {
			part.Checked += n
			continue
		}
		// The reason of the first text left out names the part's: a chapter leaves out headings, the
		// references their list.
		if why := exclusionOf(p).section; part.LeftOut == "" || part.LeftOut == "headings" {
			part.LeftOut = why
		}
	}
	return parts
}
