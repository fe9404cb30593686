package extract

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Structure fills in each paragraph's section, heading flag and chapter, and the document's title
// when it has none. It reads headings the reader flagged (DOCX styles) and recognises the usual
// heading lines of Chinese and English theses in plain text ("第一章 绪论", "1.2 系统设计",
// "Chapter 3 Methods", "摘要", "References", …).
//
// Everything before the abstract, or before the first chapter when there is no abstract, is front
// matter. A document without such a landmark — most library files — is all body: front matter is
// never guessed from position alone. Structure may be called again on its own output.
//
// A reader that knows outline levels marks a chapter-level heading by setting its Chapter to its own
// text; other reader headings are then taken as sections inside a chapter.
//
// Front matter that a thesis repeats (see markFrontMatter) is marked FrontMatter, and a document
// that has it is a Thesis.
func Structure(doc *Document) {
	ps := doc.Paragraphs
	if len(ps) == 0 {
		return
	}
	levels := false
	for _, p := range ps {
		if p.Heading && p.Chapter != "" && p.Chapter == p.Text {
			levels = true
			break
		}
	}
	info := make([]paraInfo, len(ps))
	for i := range ps {
		info[i] = classify(ps[i], levels)
	}
	markLists(info)

	res := walkSections(ps, info, Front)
	if !res.frontProven(ps, info) {
		res = walkSections(ps, info, Body)
	}
	for i := range ps {
		ps[i].Section = res.sections[i]
		ps[i].Heading = ps[i].Heading || res.heading[i]
		ps[i].Chapter = ""
		if ps[i].Section == Body {
			ps[i].Chapter = res.chapters[i]
		}
	}
	doc.Thesis = markFrontMatter(ps, info)
	if doc.Title == "" {
		doc.Title = guessTitle(ps)
	}
}

// markFrontMatter marks the front matter a check leaves out by default, by its place: in a thesis
// (a front part with a cover naming the degree or the supervisor, or a declaration), everything in
// front matter but what the author wrote under a preface, foreword or dedication heading; in any
// other document only the title lines, so that the first paragraph of an article, which may have
// been copied, is still checked. It reports whether the document is a thesis.
func markFrontMatter(ps []Paragraph, info []paraInfo) bool {
	thesis := false
	for i, p := range ps {
		if p.Section == Front && thesisSign(p, info[i]) {
			thesis = true
			break
		}
	}
	authored := false
	for i := range ps {
		p := &ps[i]
		if p.Section != Front {
			p.FrontMatter, authored = false, false
			continue
		}
		if info[i].kind == kFront {
			authored = authoredFront[info[i].key]
		}
		p.FrontMatter = titlePageLine(p.Text) || thesis && !authored
	}
	return thesis
}

var (
	// reCoverSign: lines only a thesis's cover has (degree, supervisor, student number, the
	// submission formula).
	reCoverSign = regexp.MustCompile(`(?i)(硕士|博士|学士|本科|毕业|学位)\s*(学位)?\s*(论文|设计)\s*$|^(指导教师|导\s*师|学位申请人|申\s*请\s*人|学\s*号|培养单位|答辩日期|学位类别|学科专业)\s*[:：]|\b(supervisor|advisor|student\s+(id|no\.?|number))\s*[:：]|^(a\s+)?(thesis|dissertation)\s+(submitted|presented)|in\s+(partial\s+)?fulfil+ment\s+of`)
	// reDeclareProse: a declaration or an authorisation about the thesis itself, not a copyright
	// line an article may have as well.
	reDeclareProse = regexp.MustCompile(`(?i)(声明|授权|版权|原创性|独创性).*(论文|学位)|(论文|学位).*(声明|授权|版权|原创性|独创性)|(declar|hereby|originality|certify|permission|authori[sz]|copyright).*\b(thesis|dissertation|degree)\b|\b(thesis|dissertation)\b.*(declar|hereby|originality|certify|permission|authori[sz]|copyright)`)
)

// IsThesis reports whether paragraphs that Structure has read (their sections set) open with a
// thesis's front matter, as Document.Thesis says of a document read now: for documents kept from
// before it was recorded.
func IsThesis(ps []Paragraph) bool {
	for _, p := range ps {
		if p.Section == Front && thesisSign(p, classify(p, false)) {
			return true
		}
	}
	return false
}

// authoredFront are the front-matter headings under which the author writes prose of their own.
var authoredFront = map[string]bool{"preface": true, "foreword": true, "dedication": true, "序": true}

// thesisSign reports a front-matter paragraph that only a thesis has: a declaration heading, a
// cover line naming the degree or the supervisor, or a declaration about the thesis.
func thesisSign(p Paragraph, in paraInfo) bool {
	t := strings.TrimSpace(p.Text)
	switch {
	case in.kind == kFront:
		return !authoredFront[in.key]
	case in.runes <= 120 && reCoverSign.MatchString(t):
		return true
	case in.runes >= 40 && in.runes <= 2000 && reDeclareProse.MatchString(t):
		return true
	}
	return false
}

// kind is what a paragraph announces.
type kind int

const (
	kText          kind = iota
	kSection            // a heading inside a chapter (1.2 …), or one we know nothing more of
	kChapter            // a chapter heading: the body goes on under it
	kAbstract           // 摘要 / Abstract heading
	kAbstractStart      // a paragraph that begins "摘要：…" / "Abstract: …"
	kKeywords           // 关键词：… / Keywords: …
	kContents           // 目录 / Contents / List of Figures: entries follow
	kFront              // declarations, preface, dedication
	kReferences         // 参考文献 / References, and lists of the author's publications
	kAcknowledgements
	kAppendix // 附录 / Appendix, and the author's CV
	kTOCLine  // "第一章 绪论 ……… 1": an entry of a table of contents
)

type paraInfo struct {
	kind    kind
	num     int  // chapter number, 0 when none
	weak    bool // a bare number ("2 Related Work") that needs the right sequence to count
	heading bool // heading-shaped: short, no sentence end
	prose   bool // a running-text paragraph
	runes   int
	key     string // of a heading: its text without spaces, numbering or a trailing colon, lower case
}

var (
	reChapterCN = regexp.MustCompile(`^第\s*([0-9０-９一二三四五六七八九十百零〇两]+)\s*[章篇部]`)
	reChapterEN = regexp.MustCompile(`(?i)^(chapter|part)\s+([0-9]+|[ivxlc]+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b[.:]?`)
	reSection   = regexp.MustCompile(`^([0-9]{1,2})([.．][0-9]{1,2})+[.．]?(\s*|\s+\S.*)$`)
	reTopNumber = regexp.MustCompile(`^([0-9]{1,2}|[IVX]{1,5})(?:[.．、]\s*|\s+)(\S.*)$`)
	reCNOrdinal = regexp.MustCompile(`^[一二三四五六七八九十]+[、．.]\s*(\S.*)$`)
	reAppendix  = regexp.MustCompile(`(?i)^(附\s*录|appendix|appendices)`)
	reTOCLine   = regexp.MustCompile(`(\.{3,}|…{1,}|·{3,}|_{3,}|-{4,}|(\s\.){3,}|\t)\s*([0-9]{1,4}|[ivxlcIVXLC]{1,7})\s*$`)
	reTrailPage = regexp.MustCompile(`\S\s+([0-9]{1,4}|[ivxlcIVXLC]{1,7})$`)
	reNumPrefix = regexp.MustCompile(`(?i)^(第\s*[0-9０-９一二三四五六七八九十百零〇两]+\s*[章篇部节]|chapter\s+[0-9ivxlc]+[.:]?|part\s+[0-9ivxlc]+[.:]?|[0-9]{1,2}([.．][0-9]{1,2})*[.．、]?|[ivx]{1,5}[.．]|[一二三四五六七八九十]+[、．.])\s*`)
	reAbsStart  = regexp.MustCompile(`^(\[|【|〔)?\s*(摘\s*要|内容摘要|内容提要)\s*(\]|】|〕)?\s*[:：\s]|^(?i:abstract|summary)\s*[:：—–.]|^ABSTRACT\s`)
	reKeywords  = regexp.MustCompile(`^(\[|【)?\s*(关\s*键\s*[词字]|主题词)\s*(\]|】)?\s*[:：\s]|^(?i:key\s*-?words?|index\s+terms)\s*[:：—–]`)
	reCoverLine = regexp.MustCompile(`(?i)(大学|学院|研究院|研究所|university|college|institute)\s*$|(硕士|博士|学士|本科|毕业|学位|专业)\s*(学位)?\s*(论文|设计)\s*$|^(分类号|密\s*级|udc|学\s*号|编\s*号|学校代码|单位代码|作\s*者|姓\s*名|导\s*师|指导教师|专\s*业|学\s*院|author|by\s|supervisor|advisor|student|date|日\s*期)|thesis|dissertation`)
)

var keywordKinds = map[string]kind{}

func init() {
	add := func(k kind, words ...string) {
		for _, w := range words {
			keywordKinds[w] = k
		}
	}
	add(kAbstract, "摘要", "中文摘要", "内容摘要", "内容提要", "提要", "论文摘要", "摘要与关键词", "英文摘要", "abstract", "summary", "executivesummary")
	add(kContents, "目录", "目次", "目錄", "contents", "tableofcontents", "插图目录", "插图索引", "插图清单", "图目录", "表目录", "图表目录", "表格目录", "附表清单", "图表索引", "listoffigures", "listoftables", "listoffiguresandtables", "listofabbreviations", "listofsymbols", "abbreviations", "nomenclature", "符号说明", "符号表", "主要符号表", "主要符号对照表", "符号对照表", "缩略语", "缩略词表", "缩略语表", "术语表")
	add(kFront, "声明", "独创性声明", "原创性声明", "学位论文独创性声明", "学位论文原创性声明", "版权使用授权书", "学位论文版权使用授权书", "使用授权书", "学位论文使用授权书", "授权书", "作者声明", "declaration", "statementoforiginality", "copyright", "copyrightstatement", "preface", "foreword", "dedication", "序")
	add(kReferences, "参考文献", "主要参考文献", "参考资料", "参考书目", "引用文献", "文献", "references", "reference", "bibliography", "workscited", "literaturecited", "referencelist", "listofreferences", "citedliterature")
	add(kAcknowledgements, "致谢", "谢辞", "致谢辞", "鸣谢", "后记", "acknowledgements", "acknowledgments", "acknowledgement", "acknowledgment")
	// Headings that start or continue the body without a number.
	add(kChapter, "引言", "绪论", "前言", "导论", "绪言", "引论", "introduction", "结论", "结语", "结束语", "总结", "总结与展望", "结论与展望", "总结和展望", "结论和展望", "结论与建议", "讨论", "conclusion", "conclusions", "conclusionsandfuturework", "conclusionandfuturework", "discussion", "summaryandconclusions")
}

// bodyStarters are the unnumbered chapters a body may begin with.
var bodyStarters = map[string]bool{"引言": true, "绪论": true, "前言": true, "导论": true, "绪言": true, "引论": true, "introduction": true}

const (
	// maxDeclarationRunes is more running text than a declaration or an authorisation holds without
	// a word of declaring (theirs are a few hundred characters, each sentence saying 声明 or 授权).
	maxDeclarationRunes = 1500
	sentenceEnd         = "。．.！!？?；;，,、"
	maxHeadingCJK       = 40
	maxHeadingLat       = 100
	maxKeyRunes         = 1000
)

func classify(p Paragraph, levels bool) paraInfo {
	t := strings.TrimSpace(p.Text)
	in := paraInfo{runes: utf8.RuneCountInString(t)}
	in.heading = headingShaped(t, in.runes) || p.Heading
	in.prose = !in.heading && (in.runes > 60 || (in.runes > 20 && endsSentence(t)))
	readerChapter := levels && p.Heading && p.Chapter == p.Text

	switch {
	case in.runes < 120 && mayTOCLine(t) && reTOCLine.MatchString(t): // unanchored: cheap tests first
		in.kind, in.heading, in.prose = kTOCLine, false, false
		return in
	case !in.heading && in.runes > 8 && mayStart(t, "[【〔", "摘内", "abstract summary") && reAbsStart.MatchString(head(t, 200)):
		in.kind = kAbstractStart
		return in
	case in.runes < 400 && mayStart(t, "[【", "关主", "key index") && reKeywords.MatchString(t):
		in.kind, in.heading = kKeywords, false
		return in
	}
	if !in.heading {
		return in
	}
	// Only headings have a key: making one for every paragraph took 3 % of an import's CPU.
	if in.runes <= maxKeyRunes {
		in.key = headingKey(t) // only short texts can be a keyword heading; a 50 MB line costs seconds
	}
	if k, ok := keywordKinds[in.key]; ok {
		in.kind = k
		if k == kChapter {
			in.num = headingNumber(t)
		}
		return in
	}
	switch {
	case reAppendix.MatchString(strings.TrimSpace(trimNumPrefix(t))) || reAppendix.MatchString(t):
		in.kind = kAppendix
		return in
	case strings.Contains(in.key, "期间") && (strings.Contains(in.key, "发表") || strings.Contains(in.key, "成果")) ||
		strings.Contains(in.key, "publication"):
		if strings.Contains(in.key, "简历") || strings.Contains(in.key, "简介") {
			in.kind = kAppendix
		} else {
			in.kind = kReferences
		}
		return in
	case in.key == "作者简介" || in.key == "作者简历" || in.key == "个人简历" || in.key == "vita" ||
		in.key == "curriculumvitae" || in.key == "biography" || in.key == "abouttheauthor":
		in.kind = kAppendix
		return in
	}
	if m := reChapterCN.FindStringSubmatch(t); m != nil {
		in.kind, in.num = kChapter, parseNumber(m[1])
		return in
	}
	if m := reChapterEN.FindStringSubmatch(t); m != nil {
		in.kind, in.num = kChapter, parseNumber(m[2])
		return in
	}
	if reSection.MatchString(t) {
		in.kind = kSection
		return in
	}
	if readerChapter {
		in.kind, in.num = kChapter, headingNumber(t)
		return in
	}
	if m := reTopNumber.FindStringSubmatch(t); m != nil && titleLike(m[2]) {
		in.kind, in.num, in.weak = kChapter, parseNumber(m[1]), !p.Heading
		return in
	}
	if p.Heading || reCNOrdinal.MatchString(t) {
		in.kind = kSection
		return in
	}
	// A short line that is none of the above ("Methods", "系统架构") is not taken for a heading: in
	// plain text it is as likely a caption, a list item or a formula.
	in.heading = false
	return in
}

// head is the first n bytes of t at most: enough for the patterns anchored at the start, which Go's
// regexp would otherwise run over the whole of a very long paragraph.
func head(t string, n int) string {
	if len(t) > n {
		return t[:n]
	}
	return t
}

// The regular expressions cost more than the rest of Structure together; these tests pass every
// text a pattern can match (they follow the patterns' first characters and ends) and turn most
// running text away without running it.

// mayTOCLine: reTOCLine needs a leader (dots, an ellipsis, middle dots, underscores, dashes or a
// tab) and a page number at the very end.
func mayTOCLine(t string) bool {
	t = strings.TrimRight(t, " \t\n\f\r")
	if t == "" {
		return false
	}
	c := t[len(t)-1]
	return (c >= '0' && c <= '9' || strings.IndexByte("ivxlcIVXLC", c) >= 0) && strings.ContainsAny(t, ".…·_-\t")
}

// mayStart: reAbsStart and reKeywords match either a Chinese word after an optional opening bracket
// and spaces (its first character one of cjk), or an English word at the start, one of latin (words
// separated by spaces) in any case the (?i) flag allows. Testing the first letter only let every
// English paragraph beginning with a, s, k or i through to the patterns: 7.5 s of the 440 s of CPU
// importing 100,000 generated documents.
func mayStart(t, brackets, cjk, latin string) bool {
	for rest := latin; rest != ""; {
		var w string
		w, rest, _ = strings.Cut(rest, " ")
		if foldPrefix(t, w) {
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(t)
	rest := t
	if strings.ContainsRune(brackets, r) {
		rest = t[utf8.RuneLen(r):]
	}
	rest = strings.TrimLeft(rest, " \t\n\f\r") // regexp's \s
	r, _ = utf8.DecodeRuneInString(rest)
	return strings.ContainsRune(cjk, r)
}

// foldPrefix reports whether t begins with word under simple case folding, as (?i) matches it.
func foldPrefix(t, word string) bool {
	for _, l := range word {
		r, n := utf8.DecodeRuneInString(t)
		if n == 0 || !folds(r, l) {
			return false
		}
		t = t[n:]
	}
	return true
}

// foldsToAny reports whether r is one of the ASCII letters of latin up to Unicode simple case
// folding, as regexp's (?i) sees it (so ſ for s and K for k count).
func foldsToAny(r rune, latin string) bool {
	for _, l := range latin {
		if folds(r, l) {
			return true
		}
	}
	return false
}

// folds reports whether r is l up to Unicode simple case folding.
func folds(r, l rune) bool {
	f := l
	for {
		if f == r {
			return true
		}
		if f = unicode.SimpleFold(f); f == l {
			return false
		}
	}
}

// trimNumPrefix removes a heading's numbering ("第三章", "1.2", "Chapter 3", "IV.", "二、").
func trimNumPrefix(t string) string {
	r, _ := utf8.DecodeRuneInString(t)
	if r == '第' || r >= '0' && r <= '9' || strings.ContainsRune("一二三四五六七八九十", r) || foldsToAny(r, "cpivx") {
		return reNumPrefix.ReplaceAllString(t, "")
	}
	return t
}

// markLists un-marks bare-number "headings" that stand next to each other: that is a numbered list
// or a table of contents, not chapters.
func markLists(info []paraInfo) {
	weak := func(i int) bool { return i >= 0 && i < len(info) && info[i].kind == kChapter && info[i].weak }
	var drop []int
	for i := range info {
		if weak(i) && (weak(i-1) || weak(i+1)) {
			drop = append(drop, i)
		}
	}
	for _, i := range drop {
		info[i].kind, info[i].heading = kText, false
	}
}

// headingKey normalises a heading for keyword lookup: "第七章　参 考 文 献：" → "参考文献".
func headingKey(t string) string {
	t = strings.TrimSpace(trimNumPrefix(strings.TrimSpace(t)))
	var b strings.Builder
	for _, r := range t {
		if unicode.IsSpace(r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.TrimRight(b.String(), ":：.．")
}

// headingShaped: a short single line that does not end a sentence and has letters in it. n is its
// number of runes, which classify has counted already.
func headingShaped(t string, n int) bool {
	// Too long for a heading in either script (maxHeadingCJK is shorter still), or more than a line.
	if t == "" || n > maxHeadingLat || strings.ContainsAny(t, "\n") {
		return false
	}
	cjk, letters := 0, 0
	for _, r := range t {
		if isCJK(r) {
			cjk++
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	if letters == 0 {
		return false
	}
	if cjk*2 >= n {
		if n > maxHeadingCJK {
			return false
		}
	} else if n > maxHeadingLat || len(strings.Fields(t)) > 15 {
		return false
	}
	if strings.HasPrefix(t, "[") || strings.HasPrefix(t, "［") || strings.HasPrefix(t, "〔") {
		return false // a reference entry "[3] …"
	}
	last, _ := utf8.DecodeLastRuneInString(t)
	if strings.ContainsRune(sentenceEnd, last) {
		// "摘要：" is still a heading; "他说：" is not.
		_, ok := keywordKinds[headingKey(t)]
		return ok && last != '。'
	}
	if last == ':' || last == '：' {
		_, ok := keywordKinds[headingKey(t)]
		return ok
	}
	return true
}

func endsSentence(t string) bool {
	t = strings.TrimRight(t, " ”’\"')）]】")
	last, _ := utf8.DecodeLastRuneInString(t)
	return strings.ContainsRune("。．.！!？?；;", last)
}

// titleLike accepts the text after a bare chapter number: a short title starting with a capital
// letter or a Han character, not a number or a sentence.
func titleLike(s string) bool {
	s = strings.TrimSpace(s)
	r, _ := utf8.DecodeRuneInString(s)
	if !(unicode.IsUpper(r) || unicode.Is(unicode.Han, r)) {
		return false
	}
	if unicode.Is(unicode.Han, r) {
		return utf8.RuneCountInString(s) <= 25
	}
	return len(strings.Fields(s)) <= 10
}

// headingNumber returns the chapter number a heading begins with, 0 when it has none.
func headingNumber(t string) int {
	if m := reChapterCN.FindStringSubmatch(t); m != nil {
		return parseNumber(m[1])
	}
	if m := reChapterEN.FindStringSubmatch(t); m != nil {
		return parseNumber(m[2])
	}
	if m := reTopNumber.FindStringSubmatch(t); m != nil {
		return parseNumber(m[1])
	}
	return 0
}

// parseNumber reads 3, ３, 三, 十二, III or "three".
func parseNumber(s string) int {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	var digits strings.Builder
	for _, r := range s {
		if r >= '０' && r <= '９' {
			digits.WriteRune(r - '０' + '0')
		}
	}
	if n, err := strconv.Atoi(digits.String()); err == nil && digits.Len() > 0 {
		return n
	}
	words := map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
	if n, ok := words[strings.ToLower(s)]; ok {
		return n
	}
	if n := romanValue(strings.ToUpper(s)); n > 0 {
		return n
	}
	return chineseValue(s)
}

func romanValue(s string) int {
	vals := map[rune]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100}
	total, prev := 0, 0
	rs := []rune(s)
	for i := len(rs) - 1; i >= 0; i-- {
		v, ok := vals[rs[i]]
		if !ok {
			return 0
		}
		if v < prev {
			total -= v
		} else {
			total += v
			prev = v
		}
	}
	return total
}

func chineseValue(s string) int {
	digit := map[rune]int{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	total, cur := 0, 0
	for _, r := range s {
		switch r {
		case '十':
			if cur == 0 {
				cur = 1
			}
			total += cur * 10
			cur = 0
		case '百':
			if cur == 0 {
				cur = 1
			}
			total += cur * 100
			cur = 0
		default:
			d, ok := digit[r]
			if !ok {
				return 0
			}
			cur = d
		}
	}
	return total + cur
}

// guessTitle takes the title from the cover page: the first short front-matter line that is not a
// cover label (school, degree, student number) or the start of a declaration.
func guessTitle(ps []Paragraph) string {
	for i, p := range ps {
		if p.Section != Front || i >= 8 {
			return ""
		}
		t := strings.TrimSpace(p.Text)
		n := utf8.RuneCountInString(t)
		if declareMarks.in(t) {
			return ""
		}
		if reCoverLine.MatchString(t) && n < 40 || n < 2 {
			continue
		}
		if n < 60 {
			return t
		}
		return ""
	}
	return ""
}
