package report

import "unicode"

// Line breaking for mixed Chinese and Latin text. Chinese may break between any two characters,
// except that closing punctuation never starts a line and opening punctuation never ends one
// (禁则, as Chinese typesetting requires); Latin words break only at spaces, and a word longer than a
// line is cut where the line is full.

// wrap splits text into lines no wider than width. w(i) is the width of rune i. It returns [start, end)
// rune ranges; spaces at the edges of a line are left out, and '\n' forces a break.
func wrap(text []rune, width float64, w func(i int) float64) [][2]int {
	var lines [][2]int
	n := len(text)
	start := 0
	for start < n {
		for start < n && isBlank(text[start]) {
			start++
		}
		if start >= n {
			break
		}
		x := 0.0
		lastBreak := -1
		end := n
		for i := start; i < n; i++ {
			if text[i] == '\n' {
				end = i
				break
			}
			if i > start && canBreak(text[i-1], text[i]) && !endsWithHyphen(text, start, i) {
				lastBreak = i
			}
			x += w(i)
			if x > width && i > start {
				switch {
				case isBlank(text[i]) && !endsWithHyphen(text, start, i):
					end = i
				case lastBreak > start:
					end = lastBreak
				case isBlank(text[i]):
					end = i
				default:
					end = i // no break opportunity: cut the word
					if end-1 > start+1 && text[end-1] == '-' {
						end--
					}
				}
				break
			}
		}
		e := end
		for e > start && isBlank(text[e-1]) {
			e--
		}
		if e > start {
			lines = append(lines, [2]int{start, e})
		}
		start = end
		if start < n && text[start] == '\n' {
			start++
		}
	}
	return lines
}

// endsWithHyphen reports whether a line [start, i) would end in a hyphen. Text extractors such as
// pdftotext take a hyphen at the end of a line for word division and drop it ("--" in one line,
// "-" once extracted), so lines end elsewhere when they can.
func endsWithHyphen(text []rune, start, i int) bool {
	for i > start && isBlank(text[i-1]) {
		i--
	}
	return i > start && text[i-1] == '-'
}

func isBlank(r rune) bool { return r != '\n' && unicode.IsSpace(r) }

// canBreak reports whether a line may break between a and b.
func canBreak(a, b rune) bool {
	if isBlank(b) || noLineStart(b) || noLineEnd(a) {
		return false
	}
	if isBlank(a) {
		return true
	}
	return isWide(a) || isWide(b)
}

// isWide reports whether r is set as a CJK character, which lines may break around.
func isWide(r rune) bool {
	switch {
	case r >= 0x2e80 && r <= 0x9fff, // radicals, CJK punctuation, kana, ideographs
		r >= 0xac00 && r <= 0xd7af, // Hangul
		r >= 0xf900 && r <= 0xfaff, // compatibility ideographs
		r >= 0xfe30 && r <= 0xfe4f, // vertical forms
		r >= 0xff00 && r <= 0xffef, // full-width forms
		r >= 0x20000:
		return true
	}
	return false
}

func noLineStart(r rune) bool {
	switch r {
	case '，', '。', '、', '；', '：', '？', '！', '）', '」', '』', '》', '〉', '】', '〕', '］', '｝',
		'’', '”', '…', '‥', '·', '・', '％', '‰', '゜', 'ー', '々',
		',', '.', ';', ':', '?', '!', ')', ']', '}', '%':
		return true
	}
	return false
}

func noLineEnd(r rune) bool {
	switch r {
	case '（', '「', '『', '《', '〈', '【', '〔', '［', '｛', '‘', '“', '(', '[', '{':
		return true
	}
	return false
}
