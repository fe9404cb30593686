package extract

// WarningKind is the machine-readable kind of a report's warning; its string is the JSON name
// (`warnings[].kind`) that scripts and the app's translations key on.
type WarningKind string

// Every kind of warning a report can carry, in one place. Extraction raises the first group; the
// check raises the dodges it saw through, which it can only count after normalising the text.
const (
	// WarnReplaced: bytes that were not valid in the file's encoding became U+FFFD.
	WarnReplaced WarningKind = "replaced"
	// WarnNotText: characters with no meaning as text (private use, unassigned, control) were read.
	WarnNotText WarningKind = "not_text"
	// WarnNameMismatch: the file's extension names another format than its content.
	WarnNameMismatch WarningKind = "name_mismatch"
	// WarnUnreadablePages: PDF pages left out, or read only up to damage in their content.
	WarnUnreadablePages WarningKind = "unreadable_pages"
	// WarnTruncatedPages: PDF pages that draw more glyphs than a page holds; the rest were left out.
	WarnTruncatedPages WarningKind = "truncated_pages"
	// WarnUnmapped: PDF characters drawn in a font that does not say which characters they are (a
	// composite font without a ToUnicode map): seen by a reader, missing from the text.
	WarnUnmapped WarningKind = "unmapped"
	// WarnOutlined: PDF pages that draw lines of text as outlines (filled shapes, "converted to
	// curves"): seen by a reader, no characters to read.
	WarnOutlined WarningKind = "outlined"
	// WarnRepeatedNotes: references to a DOCX footnote or endnote already kept (a note referred to
	// 20,000 times would otherwise be read 20,000 times).
	WarnRepeatedNotes WarningKind = "repeated_notes"
	// WarnUnreadableNotes: a damaged DOCX footnotes or endnotes part, left out.
	WarnUnreadableNotes WarningKind = "unreadable_notes"
	// WarnUnreadableParts: parts a DOCX imports (w:altChunk) or embeds (a Word document object)
	// that Word shows and that could not be read (RTF, an old .doc, damage).
	WarnUnreadableParts WarningKind = "unreadable_parts"
	// WarnReversed: text stored back to front and shown in reading order by Unicode direction
	// overrides (U+202E), put back in the order a reader sees.
	WarnReversed WarningKind = "reversed"
	// WarnHidden: text a reader cannot see (white, tiny, vanished, off the page), left out.
	WarnHidden WarningKind = "hidden"
	// WarnSmallPrint: PDF small print on lines of its own (4 pt or less), so much of it that read
	// it would lower the figures, left out: a chart's marks and labels, or padding.
	WarnSmallPrint WarningKind = "small_print"
	// WarnTextPictures: pictures that show lines of text, which is not read (a screenshot of
	// paragraphs); only a check looks (Document.TextPictures).
	WarnTextPictures WarningKind = "text_pictures"
	// WarnPicturesUnseen: pictures past what a check decodes, not looked at for text.
	WarnPicturesUnseen WarningKind = "pictures_unseen"
	// WarnScanned: scanned PDF pages whose text layer (OCR text) matches their pictures; only a
	// check compares them (Document.TextPictures).
	WarnScanned WarningKind = "scanned"
	// WarnLayer: scanned PDF pages whose text layer, which is what the check reads, does not match
	// their pictures, which are what a reader sees, or could not be compared with them.
	WarnLayer WarningKind = "ocr_layer"
	// WarnGarbled: paragraphs that read as almost no words of their language, as text read through
	// fonts that draw other characters than the file holds does (similarity.Wordiness); only a
	// check and a comparison, which segment the text, can tell.
	WarnGarbled WarningKind = "garbled"
	// WarnSwapped: characters of copied text that stand for others of their sources wherever the
	// sources have them, as text read through a font made to draw a few characters as others does
	// (prepare.SwapTally); only a check and a comparison, which align texts, can tell.
	WarnSwapped WarningKind = "swapped"

	// WarnLeftOut: most of the text was left out of the check (references, headings, front matter).
	WarnLeftOut WarningKind = "left_out"
	// WarnFiltered: the figures leave out what the check found in sources excluded by hand, or in
	// copies shorter than a shortest match longer than the default; the warning gives the figures
	// without those filters.
	WarnFiltered WarningKind = "filtered"
	// WarnUncited: copied text in quotation marks whose citations point at nothing the document
	// cites (extract.Citations), counted as copied rather than quoted.
	WarnUncited WarningKind = "uncited"
	// WarnFiled: paragraphs left out as headings, reference entries or front matter that copy the
	// running text of library documents, checked and counted.
	WarnFiled WarningKind = "filed"
	// WarnSameFile: a source is the very file checked (the same SHA-256): the thesis itself in the
	// library, or another's file handed in as it is.
	WarnSameFile WarningKind = "same_file"
	// WarnFragmented: copied text in paragraphs too short to check one by one (table cells, short
	// lines), found by reading them together.
	WarnFragmented WarningKind = "fragmented"
	// WarnForeign: the library shares hardly a word pair with the document (another language or
	// field): its figures say little.
	WarnForeign WarningKind = "foreign"
	// WarnRepeated: paragraphs that repeat earlier ones word for word are a large share of the text,
	// padding it out.
	WarnRepeated WarningKind = "repeated"
	// WarnBoilerplate: running text not counted as boilerplate (passages many library theses
	// share) is a large share of the text: a passage several students copied reads the same way.
	WarnBoilerplate WarningKind = "boilerplate"
	// WarnQuoted: cited quotations found in sources are a large share of the text, all of it left
	// out of the figure excluding quotes.
	WarnQuoted WarningKind = "quoted"

	// WarnInvisible: zero-width or format characters inside the text.
	WarnInvisible WarningKind = "invisible"
	// WarnLookalike: Cyrillic or Greek letters inside Latin words.
	WarnLookalike WarningKind = "lookalike"
	// WarnSpaced: spaces between Chinese characters.
	WarnSpaced WarningKind = "spaced"
	// WarnInterleaved: characters put between Chinese characters inside words (本·研·究, 本研，究以).
	WarnInterleaved WarningKind = "interleaved"
	// WarnSpacedLetters: Latin words spaced out letter by letter.
	WarnSpacedLetters WarningKind = "spaced_letters"
	// WarnMarks: marks (accents, dots, lines) on letters or Chinese characters, read without them.
	WarnMarks WarningKind = "marks"
	// WarnNarrowSpaces: hair, thin and other narrow spaces inside words, read without them.
	WarnNarrowSpaces WarningKind = "narrow_spaces"
	// WarnSplitWords: marks put inside English words (plagi'arism), read without them.
	WarnSplitWords WarningKind = "split_words"
	// WarnRadicals: CJK radicals drawn as whole characters (⻓ for 长), read as those characters.
	WarnRadicals WarningKind = "radicals"
	// WarnTraditional: traditional characters, compared as simplified.
	WarnTraditional WarningKind = "traditional"
)

// WarningKinds lists every kind above, for the readers that must name each one (the reports'
// labels, the app's translations) and their tests.
var WarningKinds = []WarningKind{
	WarnReplaced, WarnNotText, WarnNameMismatch, WarnUnreadablePages, WarnTruncatedPages, WarnUnmapped, WarnOutlined,
	WarnRepeatedNotes, WarnUnreadableNotes, WarnUnreadableParts, WarnReversed, WarnHidden, WarnSmallPrint, WarnTextPictures, WarnPicturesUnseen, WarnScanned, WarnLayer, WarnGarbled, WarnSwapped, WarnLeftOut, WarnFiltered, WarnUncited, WarnQuoted, WarnFiled, WarnSameFile, WarnFragmented, WarnForeign, WarnRepeated, WarnBoilerplate,
	WarnInvisible, WarnLookalike, WarnSpaced, WarnInterleaved, WarnSpacedLetters, WarnMarks, WarnNarrowSpaces, WarnSplitWords, WarnRadicals, WarnTraditional,
}
