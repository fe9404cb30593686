package prepare

import (
	"fmt"
	"slices"

	"thesischeck/extract"
	"thesischeck/internal/english"
)

// minGarbledChars is the fewest characters of garbled paragraphs that warn: a scrambled font hides
// copied paragraphs, hundreds of characters, while a quoted poem or a short list of names that reads
// as few words is a paragraph of sixty.
const minGarbledChars = 200

// Garbled is a paragraph that reads as almost no words (similarity.Wordiness.Garbled): its index in
// the document, its characters and its page (0 when the format has none).
type Garbled struct{ Index, Chars, Page int }

// GarbledWarning warns of the garbled paragraphs of a document (in order) when they hold
// minGarbledChars characters or more, for a check's report and a comparison's documents alike.
// Their text was compared as read, which matches nothing if a reader sees other characters.
func GarbledWarning(gs []Garbled) []extract.Warning {
	chars := 0
	var pages, paras []int
	for _, g := range gs {
		chars += g.Chars
		paras = append(paras, g.Index)
		if g.Page > 0 {
			pages = append(pages, g.Page)
		}
	}
	if chars < minGarbledChars {
		return nil
	}
	slices.Sort(pages)
	pages = slices.Compact(pages)
	return []extract.Warning{{Kind: extract.WarnGarbled, Count: chars, Pages: pages, Paragraphs: paras,
		Message: fmt.Sprintf("%s (%s%s) read as almost no words: if the file shows ordinary text there, its fonts draw other characters than it holds (a way to defeat checkers) and what a reader sees was not checked; classical Chinese or a list of names can read so too",
			english.Count(len(gs), "paragraph", "paragraphs"), english.Count(chars, "character", "characters"), extract.Where(pages, paras))}}
}
