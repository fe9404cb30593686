package extract

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// MinQuoteRunes is the shortest quoted passage, in runes of content, that counts as a quotation.
// Shorter quoted text is a term or a name ("M-", "hostname"), not a quotation.
const MinQuoteRunes = 8

// QuotedSpans returns the rune offsets [start, end) of the cited quotations in text, quotation
// marks included: passages in “…”, "…", 「…」, 『…』, ‘…’ or «…» of at least MinQuoteRunes runes
// that carry a citation mark right after or right before them ([12], [3-5], ［1］, 〔1〕, ^1,
// (Wang, 2019), （王芳，2019）), or that a citing phrase with a citation introduces (文献[10]认为，
// “…”; According to [25], "…"). Quoted text without a citation is not a quotation. Spans are
// sorted and do not overlap; a quotation nested in a larger one is covered by it. Whether the
// marks point at anything the document cites is Citations.Spans's question.
func QuotedSpans(text string) [][2]int {
	var spans [][2]int
	for _, q := range quotations(text) {
		spans = append(spans, q.span)
	}
	return mergeQuotes(spans)
}

// quotation is a quoted passage and the citation marks that make it a quotation.
type quotation struct {
	span  [2]int
	marks []string
}

func quotations(text string) []quotation {
	rs := []rune(text)
	var qs []quotation
	for _, q := range quotePairs(rs) {
		if contentRunes(rs[q.open+q.openLen:q.close]) < MinQuoteRunes {
			continue
		}
		end := q.close + q.closeLen
		var marks []string
		for _, m := range []string{citedAfter(rs[end:]), citedBefore(rs[:q.open]), citingPhrase(rs[:q.open])} {
			if m != "" {
				marks = append(marks, m)
			}
		}
		if len(marks) > 0 {
			qs = append(qs, quotation{[2]int{q.open, end}, marks})
		}
	}
	return qs
}

// mergeQuotes sorts spans and merges those that overlap (a quotation nested in another).
func mergeQuotes(spans [][2]int) [][2]int {
	sort.Slice(spans, func(i, j int) bool {
		if spans[i][0] != spans[j][0] {
			return spans[i][0] < spans[j][0]
		}
		return spans[i][1] > spans[j][1]
	})
	out := spans[:0]
	for _, s := range spans {
		if len(out) > 0 && s[0] < out[len(out)-1][1] {
			if s[1] > out[len(out)-1][1] {
				out[len(out)-1][1] = s[1]
			}
			continue
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

type quotePair struct {
	open, openLen, close, closeLen int
}

// quote families: a closing mark only matches an opening mark of its family.
const (
	qDouble    = iota // “ ”  „
	qSingle           // ‘ ’
	qASCII            // " … ", `` … '' (the ASCII and TeX ways of writing double quotes)
	qCorner           // 「 」
	qWhite            // 『 』
	qGuillemet        // « »
)

type quoteMark struct {
	pos, n int
	family int
	open   bool
	either bool // an ASCII " whose side the neighbours do not tell
}

// quotePairs finds matching quotation marks with a stack, so that a quotation may hold a shorter
// one ("… "an inside track” with the city.").
func quotePairs(rs []rune) []quotePair {
	var marks []quoteMark
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch r {
		case '“', '„':
			marks = append(marks, quoteMark{pos: i, n: 1, family: qDouble, open: true})
		case '”':
			marks = append(marks, quoteMark{pos: i, n: 1, family: qDouble})
		case '‘':
			marks = append(marks, quoteMark{pos: i, n: 1, family: qSingle, open: true})
		case '’':
			if i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) {
				continue // an apostrophe: don’t
			}
			marks = append(marks, quoteMark{pos: i, n: 1, family: qSingle})
		case '「':
			marks = append(marks, quoteMark{pos: i, n: 1, family: qCorner, open: true})
		case '」':
			marks = append(marks, quoteMark{pos: i, n: 1, family: qCorner})
		case '『':
			marks = append(marks, quoteMark{pos: i, n: 1, family: qWhite, open: true})
		case '』':
			marks = append(marks, quoteMark{pos: i, n: 1, family: qWhite})
		case '«':
			marks = append(marks, quoteMark{pos: i, n: 1, family: qGuillemet, open: true})
		case '»':
			marks = append(marks, quoteMark{pos: i, n: 1, family: qGuillemet})
		case '`':
			if i+1 < len(rs) && rs[i+1] == '`' {
				marks = append(marks, quoteMark{pos: i, n: 2, family: qASCII, open: true})
				i++
			}
		case '\'':
			j := i
			for j < len(rs) && rs[j] == '\'' {
				j++
			}
			if j-i == 2 && i > 0 && !unicode.IsSpace(rs[i-1]) {
				marks = append(marks, quoteMark{pos: i, n: 2, family: qASCII})
			}
			i = j - 1
		case '"':
			m := quoteMark{pos: i, n: 1, family: qASCII}
			before := i == 0 || opensAfter(rs[i-1])
			after := i+1 >= len(rs) || closesBefore(rs[i+1])
			switch {
			case before && !after:
				m.open = true
			case after && !before:
			default:
				m.either = true
			}
			marks = append(marks, m)
		}
	}

	var stack []quoteMark
	var pairs []quotePair
	for _, m := range marks {
		if m.either {
			// Between two letters or two spaces: it closes an open ASCII quote, or opens one.
			m.open = true
			for k := len(stack) - 1; k >= 0; k-- {
				if stack[k].family == qASCII {
					m.open = false
					break
				}
			}
		}
		if m.open {
			stack = append(stack, m)
			continue
		}
		for k := len(stack) - 1; k >= 0; k-- {
			if stack[k].family == m.family {
				pairs = append(pairs, quotePair{open: stack[k].pos, openLen: stack[k].n, close: m.pos, closeLen: m.n})
				stack = stack[:k]
				break
			}
		}
	}
	return pairs
}

// opensAfter: a " after this rune opens a quotation.
func opensAfter(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune("([{（【［〔<，,：:；;、—–-", r)
}

// closesBefore: a " before this rune closes a quotation.
func closesBefore(r rune) bool {
	return unicode.IsSpace(r) || strings.ContainsRune(")]}）】］〕>，,。.：:；;、!?！？—–-[［〔", r)
}

func contentRunes(rs []rune) int {
	n := 0
	for _, r := range rs {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

// citingMarks are the words of a sentence that says it quotes.
var citingMarks = newMarkSet("认为", "指出", "提出", "写道", "说", "称", "表示", "所述", "所说", "所言", "强调", "描述", "定义", "阐述",
	"总结", "发现", "引用", "论述", "提到", "主张", "谈到", `\bargue`, `\bstate`, `\bwrite`, `\bwrote`, `\bnote`, "according to",
	"put it", "puts it", `\bobserve`, `\bclaim`, `\bsuggest`, `\bsay`, `\bsaid`, `\bdescribe`, `\bdefine`, "point out", "points out",
	`\bremark`, `\bassert`, `\bexplain`, `\bconclude`, `\bcontend`, `\breport`, `\bmaintain`, `\bemphasi`, `\bcalled`)

var (
	// A citation mark at the start of the text after a quotation.
	reCiteAfter = regexp.MustCompile(`^[\s\p{Zs}]*[,，.。;；:：]?[\s\p{Zs}]*(` + citePattern + `)`)
	// A citation mark at the end of the text before a quotation, then at most a colon or comma.
	reCiteBefore = regexp.MustCompile(`(` + citePattern + `)[\s\p{Zs}]*[:：,，]?[\s\p{Zs}]*$`)
	reCiteAny    = regexp.MustCompile(citePattern + `|\b\p{Lu}[\p{L}'’-]+(\s+et\s+al\.?)?\s*[(（](19|20)\d\d[a-z]?[)）]|[\p{Han}]{2,4}[(（](19|20)\d\d[a-z]?[)）]`)
)

// citePattern matches one citation mark: numeric ([12], [3-5], [1,2], ［1］, 〔1〕, ^1, ¹²) or
// author–year in parentheses ((Wang, 2019), (Wang et al., 2019, p. 3), （王芳，2019）).
const citePattern = `[\[［〔]\s*\d{1,4}(\s*[-–—~～,，、]\s*\d{1,4})*\s*[\]］〕]` +
	`|\^\s*\[?\d{1,4}\]?|[¹²³⁰⁴⁵⁶⁷⁸⁹]+` +
	`|[(（][^()（）]{0,80}?(19|20)\d\d[a-z]?[^()（）]{0,40}[)）]`

// citedAfter returns the citation mark at the start of rs, or "".
func citedAfter(rs []rune) string {
	if len(rs) > 160 {
		rs = rs[:160]
	}
	if m := reCiteAfter.FindStringSubmatch(string(rs)); m != nil {
		return m[1]
	}
	return ""
}

// citedBefore returns the citation mark at the end of rs, or "".
func citedBefore(rs []rune) string {
	if len(rs) > 160 {
		rs = rs[len(rs)-160:]
	}
	if !endsCite(rs) {
		return "" // reCiteBefore tries every place of the text to start at: 40 % of quotations
	}
	if m := reCiteBefore.FindStringSubmatch(string(rs)); m != nil {
		return m[1]
	}
	return ""
}

// endsCite reports whether rs ends as a text reCiteBefore matches must: in a character a citation
// mark ends with, then at most spaces, one colon or comma, spaces (\s and \p{Zs}, as the pattern
// has them).
func endsCite(rs []rune) bool {
	space := func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' || unicode.Is(unicode.Zs, r)
	}
	i := len(rs)
	for i > 0 && space(rs[i-1]) {
		i--
	}
	if i > 0 && strings.ContainsRune(":：,，", rs[i-1]) {
		i--
		for i > 0 && space(rs[i-1]) {
			i--
		}
	}
	return i > 0 && (rs[i-1] >= '0' && rs[i-1] <= '9' || strings.ContainsRune("]］〕)）¹²³⁰⁴⁵⁶⁷⁸⁹", rs[i-1]))
}

// citingPhrase returns the citation of the sentence before the quotation when it names a source
// and says it is quoting it (文献[10]认为，“…”; Smith (2019) argues that "…"), or "".
func citingPhrase(rs []rune) string {
	start := len(rs) - 60
	if start < 0 {
		start = 0
	}
	// Only the sentence the quotation stands in.
	for k := len(rs) - 1; k >= start; k-- {
		if strings.ContainsRune("。！？!?\n", rs[k]) || (rs[k] == '.' && k+1 < len(rs) && unicode.IsSpace(rs[k+1])) {
			start = k + 1
			break
		}
	}
	w := string(rs[start:])
	if !citingMarks.in(w) {
		return ""
	}
	return reCiteAny.FindString(w)
}
