package extract

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The words that mark a declaration or a reference entry are looked for in every paragraph of every
// document imported, and again in the paragraphs a check matched; those of a sentence that quotes,
// before every quotation. As regexps, (?i)a|b|c… tried at each position, telling running prose
// (RunningProse) took 237 ms for the 1,800 paragraphs of a 300-page thesis, a tenth of its check's
// time on one core, and the quoting sentences 2 % of the check's CPU (perf); markSet finds the same
// words in one pass over the bytes: 10 ms for the running prose (BenchmarkMarks compares all three
// sets with their regexps). TestMarksAsRegexps holds them to the regexps they replace.

// markSet matches any of its marks, letters in either case (and in the forms beyond ASCII that
// (?i) folds k and s to), as the regexp (?i)m1|m2|… does.
type markSet struct {
	marks []mark
	first [256][]int // marks by their first byte, lower case
}

// A mark is a word in lower case; bounded at a side, it is \b there. typeMark stands for
// \[[JMDCNRSPZAGEBKOL](/OL)?\], the document type of a Chinese reference entry.
type mark struct {
	word          string
	before, after bool
}

const typeMark = "[type]"

// newMarkSet makes a markSet of words; `\b` at either end of one bounds it there.
func newMarkSet(words ...string) *markSet {
	s := &markSet{}
	for _, w := range words {
		m := mark{}
		w, m.before = strings.CutPrefix(w, `\b`)
		w, m.after = strings.CutSuffix(w, `\b`)
		m.word = strings.ToLower(w)
		s.marks = append(s.marks, m)
		k := len(s.marks) - 1
		s.first[m.word[0]] = append(s.first[m.word[0]], k)
		if f := foldBeyondASCII(m.word[0]); f != "" {
			s.first[f[0]] = append(s.first[f[0]], k)
		}
	}
	return s
}

// foldBeyondASCII is the character beyond ASCII that (?i) matches for an ASCII letter, if any: the
// Kelvin sign for k, the long s for s (unicode.SimpleFold).
func foldBeyondASCII(c byte) string {
	switch c {
	case 'k':
		return "\u212a"
	case 's':
		return "\u017f"
	}
	return ""
}

// in reports whether text holds one of s's marks.
func (s *markSet) in(text string) bool {
	for i := 0; i < len(text); i++ {
		for _, k := range s.first[lowerASCII(text[i])] {
			if s.marks[k].at(text, i) {
				return true
			}
		}
	}
	return false
}

// at reports whether m stands in text at byte i.
func (m mark) at(text string, i int) bool {
	if m.word == typeMark {
		return documentType(text[i:])
	}
	j := i
	for k := 0; k < len(m.word); k++ {
		c := m.word[k]
		if j < len(text) && lowerASCII(text[j]) == c {
			j++
		} else if f := foldBeyondASCII(c); f != "" && strings.HasPrefix(text[j:], f) {
			j += len(f)
		} else {
			return false
		}
	}
	return (!m.before || boundary(text, i)) && (!m.after || boundary(text, j))
}

// boundary reports whether \b holds at byte i of text: a word character (ASCII letters, digits
// and '_', as in Go's regexps) on one side of it and none on the other.
func boundary(text string, i int) bool {
	return (i > 0 && wordByte(text[i-1])) != (i < len(text) && wordByte(text[i]))
}

// documentType reports whether text starts with a document type: [J], [M], [EB/OL] … in either case
// (and with the Kelvin sign or the long s that (?i) folds to K and S).
func documentType(text string) bool {
	if len(text) < 3 || text[0] != '[' {
		return false
	}
	r, n := utf8.DecodeRuneInString(text[1:])
	if !foldsInto(r, "JMDCNRSPZAGEBKOL") {
		return false
	}
	rest := text[1+n:]
	if len(rest) >= 4 && equalFoldASCII(rest[:3], "/ol") && rest[3] == ']' {
		return true
	}
	return rest != "" && rest[0] == ']'
}

// foldsInto reports whether r or a rune it folds to (unicode.SimpleFold) is in set.
func foldsInto(r rune, set string) bool {
	for f := r; ; {
		if strings.ContainsRune(set, f) {
			return true
		}
		if f = unicode.SimpleFold(f); f == r {
			return false
		}
	}
}

func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// equalFoldASCII reports whether s equals lower, a word in lower case, but for the case of ASCII
// letters.
func equalFoldASCII(s, lower string) bool {
	for i := 0; i < len(lower); i++ {
		if lowerASCII(s[i]) != lower[i] {
			return false
		}
	}
	return true
}

func wordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= lowerASCII(b) && lowerASCII(b) <= 'z'
}

var (
	// declareMarks: the words of a declaration or of what a thesis's front matter promises.
	declareMarks = newMarkSet("声明", "授权", "版权", "原创性", "独创性", "保密", "诚信", "郑重", "declar", "hereby", "copyright", "originality", "certify", "plagiar")
	// entryMarks are the marks of a reference entry that running text seldom has: a document type,
	// et al., doi as a word, pages, a volume, In:, a publisher or a journal.
	entryMarks   = newMarkSet(typeMark, "et al.", `\bdoi\b`, "pp.", "vol.", `\bIn:`, "出版社", "学报", "期刊")
	reLabelStart = regexp.MustCompile(entryLabel)
)
