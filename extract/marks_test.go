package extract

import (
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// The regexps the mark sets replace, as they were.
var (
	oldDeclare    = regexp.MustCompile(`(?i)声明|授权|版权|原创性|独创性|保密|诚信|郑重|declar|hereby|copyright|originality|certify|plagiar`)
	oldEntryBody  = regexp.MustCompile(`(?i)\[[JMDCNRSPZAGEBKOL](/OL)?\]|et al\.|\bdoi\b|pp\.|vol\.|\bIn:|出版社|学报|期刊`)
	oldEntryMarks = regexp.MustCompile(`(?i)` + entryLabel + `|\[[JMDCNRSPZAGEBKOL](/OL)?\]|et al\.|\bdoi\b|pp\.|vol\.|\bIn:|出版社|学报|期刊`)
	oldCiting     = regexp.MustCompile(`(?i)认为|指出|提出|写道|说|称|表示|所述|所说|所言|强调|描述|定义|阐述|总结|发现|引用|论述|提到|主张|谈到|\bargue|\bstate|\bwr[io]te|\bnote|according to|puts? it|\bobserve|\bclaim|\bsuggest|\bsa(y|id)|\bdescribe|\bdefine|points? out|\bremark|\bassert|\bexplain|\bconclude|\bcontend|\breport|\bmaintain|\bemphasi|\bcalled`)
)

// markTexts are the development set's UTF-8 text files, line by line, and what the mark sets could
// get wrong: case, word boundaries, folds beyond ASCII, marks cut short, bytes that are no UTF-8.
func markTexts(t testing.TB) []string {
	texts := []string{
		"", "[", "[J", "[J]", "[j]", "[EB/OL]", "[eb/Ol]", "[J/O]", "[J/OL", "[X]", "[\u212a]", "[\u017f]", "[ſ/OL]",
		"doi", "DOI:10.1", "xdoi", "doi_", "doi2", "_doi", "édoi", "doié", "In:", "Bin:", "in:", "İn:", "ın:",
		"et al", "ET AL.", "Smith et al., 2001", "pp", "PP. 3", "vol.2", "Vol 2", "declaration", "DECLAR",
		"decla", "plagiarism", "Copyright ©", "hereby", "orıginality", "certıfy", "版权所有", "原创", "学报",
		"期刊论文", "出版", "\xff[J]", "decl\xffar", "[\xe2\x84]", "  [12] Smith", "12. Title", "［3］", "〔4〕",
		"He said", "heſaid", "xſaid", "ſaid", "SAID", "saidx", "ᏚAID", "Kelvin \u212a", "puts it", "put  it", "points out",
		"point out", "STATE", "reſtate", "wr\u0131te", "王说", "Smith (2019) argues", "\xc5", "\xc5\xbf", "\xe2\x84\xaa",
	}
	files, _ := filepath.Glob(filepath.Join(devsetDir, "*", "*", "*.txt"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if utf8.Valid(data) {
			texts = append(texts, strings.Split(string(data), "\n")...)
		}
	}
	// Random texts of the marks' pieces, so that marks stand cut, joined and in every case.
	pieces := []string{"[", "]", "/", "OL", "ol", "J", "k", "\u212a", "ſ", "S", "doi", "D", "In", ":", "i", "n", "İ",
		"et", " ", "al", ".", "pp", "vol", "de", "clar", "Here", "by", "版", "权", "学报", "_", "7", "é", "\xff", "x",
		"sa", "id", "y", "s", "wr", "o", "te", "put", "point", "it", "out", "说", "\xc5", "\xe2\x84", "K", "\u212a"}
	rnd := rand.New(rand.NewSource(1))
	for range 20000 {
		var b strings.Builder
		for n := rnd.Intn(8); n >= 0; n-- {
			b.WriteString(pieces[rnd.Intn(len(pieces))])
		}
		texts = append(texts, b.String())
	}
	return texts
}

// TestMarksAsRegexps: the mark sets find what the regexps they replace found, text by text.
func TestMarksAsRegexps(t *testing.T) {
	texts := markTexts(t)
	found := [4]int{}
	for _, text := range texts {
		for i, c := range []struct {
			got, want bool
		}{
			{declareMarks.in(text), oldDeclare.MatchString(text)},
			{entryMarks.in(text), oldEntryBody.MatchString(text)},
			{reLabelStart.MatchString(text) || entryMarks.in(text), oldEntryMarks.MatchString(text)},
			{citingMarks.in(text), oldCiting.MatchString(text)},
		} {
			if c.got != c.want {
				t.Errorf("set %d on %q: %v, the regexp %v", i, text, c.got, c.want)
			}
			if c.want {
				found[i]++
			}
		}
	}
	// The comparison means something only if both answers came up often.
	for i, n := range found {
		if n < 100 || n > len(texts)-100 {
			t.Errorf("set %d: the regexp matched %d of %d texts", i, n, len(texts))
		}
	}
}

// BenchmarkMarks: the mark sets and the regexps they replace on the same texts.
func BenchmarkMarks(b *testing.B) {
	texts := markTexts(b)
	b.Run("sets", func(b *testing.B) {
		for range b.N {
			for _, t := range texts {
				_ = declareMarks.in(t) || entryMarks.in(t) || citingMarks.in(t)
			}
		}
	})
	b.Run("regexps", func(b *testing.B) {
		for range b.N {
			for _, t := range texts {
				_ = oldDeclare.MatchString(t) || oldEntryBody.MatchString(t) || oldCiting.MatchString(t)
			}
		}
	})
}
