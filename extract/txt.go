package extract

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// readTXT decodes plain text (UTF-8 with or without BOM, UTF-16 with BOM, GB18030/GBK, Windows-1252;
// see decode.go) and splits it into paragraphs at blank lines. A single line break inside a block is
// a wrapped line.
func readTXT(data []byte) (*Document, error) {
	text, warnings, err := decodeText(data)
	if err != nil {
		return nil, err
	}
	if len(text) > MaxDocText {
		return nil, fmt.Errorf("%w: more than %d MB of text", ErrTooLarge, MaxDocText>>20)
	}
	return &Document{Paragraphs: splitBlocks(text), Warnings: warnings}, nil
}

// looksLikeText reports whether data is text in one of the encodings decodeText reads, and not
// binary data that happens to decode.
func looksLikeText(data []byte) bool {
	if len(data) > 64<<10 {
		data = data[:64<<10] // a character cut in two at the end is one bad one among thousands
	}
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		return true
	}
	// Valid UTF-8 without a byte-order mark is what chooseReading reads it as, and its character
	// counts are not wanted here: decodeText makes them again (Sniff was 44 % of extraction's CPU
	// in an import's profile, reading each text file twice over).
	text := string(data)
	if bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) || !utf8.Valid(data) {
		text = chooseReading(data).text
	}
	bad, nul, total := 0, 0, 0
	for _, r := range text {
		total++
		switch {
		case r == 0:
			nul++
		case r == utf8.RuneError || (r < 0x20 && r != '\n' && r != '\r' && r != '\t' && r != '\f' && r != '\v') || (r >= 0x7F && r < 0xA0):
			bad++
		}
	}
	// Stray NUL bytes (padding, a broken export) are dropped later; many of them mean UTF-16
	// without a byte-order mark or binary data.
	if nul*10 > total {
		bad += nul
	}
	// One in a hundred may be bad, and one in a text shorter than that: a stray byte in a short
	// note is still a text, read with a warning.
	return total > 0 && bad*100 <= max(total, 100)
}

// cleanText normalises line ends and drops NUL bytes, which truncate text inside gojieba. A form
// feed (a page break, as pdftotext writes one) is dropped so that a paragraph running over a page
// stays whole; the Unicode line and paragraph separators become line ends.
func cleanText(s string) string {
	// The replacer looks at every byte (4.4 s of the 440 s of CPU importing 100,000 generated
	// documents); text with none of its patterns, nearly all, is found so by faster scans.
	if !strings.ContainsAny(s, "\r\x00\f\v") && !strings.Contains(s, "\u0085") && !strings.Contains(s, "\u2028") && !strings.Contains(s, "\u2029") {
		return s
	}
	return lineEnds.Replace(s)
}

var lineEnds = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\x00", "", "\f", "", "\v", "\n",
	"\u0085", "\n", "\u2028", "\n", "\u2029", "\n\n")

// splitBlocks splits text at blank lines, and a block of lines into paragraphs (see
// paragraphLines); the lines of a paragraph are joined (without a space between CJK characters).
func splitBlocks(text string) []Paragraph {
	var paras []Paragraph
	var block []string
	flush := func() {
		for _, lines := range paragraphLines(block) {
			if p := strings.TrimSpace(joinLines(lines)); p != "" {
				paras = append(paras, Paragraph{Text: p})
			}
		}
		block = block[:0]
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		block = append(block, line)
	}
	flush()
	return paras
}

// paragraphLines splits a block of consecutive non-blank lines into paragraphs. Many files put a
// blank line between paragraphs, but many (Chinese ones above all) write each paragraph on one long
// line, or mark a paragraph only by indenting its first line. Lines are taken as wrapped — one
// paragraph — unless: they are too long or too short to be a wrap width; a line is indented where
// others are not; or a line ends so far short of the wrap width that the next word would have fit.
func paragraphLines(block []string) [][]string {
	if len(block) <= 1 {
		return [][]string{block}
	}
	widths := make([]int, len(block))
	maxW, indented := 0, 0
	for i, l := range block {
		widths[i] = displayWidth(strings.TrimSpace(l))
		maxW = max(maxW, widths[i])
		if isIndented(l) {
			indented++
		}
	}
	if maxW > 160 || maxW < 30 {
		out := make([][]string, len(block))
		for i, l := range block {
			out[i] = []string{l}
		}
		return out
	}
	useIndent := indented > 0 && indented < len(block)
	slack := max(4, maxW/10)
	var out [][]string
	var cur []string
	for i, l := range block {
		if len(cur) > 0 && useIndent && isIndented(l) {
			out, cur = append(out, cur), nil
		}
		cur = append(cur, l)
		if i+1 < len(block) {
			next := strings.TrimSpace(block[i+1])
			word := next
			if f := strings.Fields(next); len(f) > 0 {
				word = f[0]
			}
			if r := []rune(word); len(r) > 0 && isCJK(r[0]) {
				word = string(r[0]) // a CJK line breaks between any two characters
			}
			if widths[i]+1+displayWidth(word) <= maxW-slack {
				out, cur = append(out, cur), nil
			}
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// isIndented: a line starting with a tab, two spaces or a full-width space (the Chinese paragraph
// indent).
func isIndented(l string) bool {
	return strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "\u3000")
}

// displayWidth counts CJK characters as two columns, as a monospaced editor shows them.
func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		if isCJK(r) {
			w += 2
		} else {
			w++
		}
	}
	return w
}

// joinLines joins wrapped lines: no space between CJK characters, a space between words, and an
// end-of-line hyphen after a letter removed when a lower-case word continues on the next line (kept,
// without a space, otherwise).
func joinLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		l = strings.TrimRight(l, " \t")
		if i > 0 {
			l = strings.TrimLeft(l, " \t\u3000")
			prev := b.String()
			pr, _ := utf8.DecodeLastRuneInString(prev)
			nr, _ := utf8.DecodeRuneInString(l)
			switch {
			case pr == '-' && len(prev) > 1 && unicode.IsLetter(lastButOne(prev)) && unicode.IsLower(nr):
				s := prev[:len(prev)-1]
				b.Reset()
				b.WriteString(s)
			case isCJK(pr) || isCJK(nr):
			case pr == '-' && len(prev) > 1 && unicode.IsLetter(lastButOne(prev)):
				// A hyphen that stays (Well-Known) joins without a space.
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

func lastButOne(s string) rune {
	_, n := utf8.DecodeLastRuneInString(s)
	r, _ := utf8.DecodeLastRuneInString(s[:len(s)-n])
	return r
}

// isCJK reports whether r is a Han character, kana, hangul, or CJK/full-width punctuation — the
// characters between which a line break stands for no space.
func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) ||
		unicode.Is(unicode.Hangul, r) || (r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF)
}
