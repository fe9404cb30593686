package report

// What every rendering of a report shares: the summary figures exactly as printed, source colours, and
// how a paragraph's characters are marked.

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"thesischeck/extract"
	"thesischeck/keys"
)

// figure is one summary number as shown to readers.
type figure struct {
	Label   string // Chinese label, as in CNKI reports
	LabelEN string
	Value   string
	Main    bool // one of the three headline percentages
	Level   float64
}

// pct formats a share (0–1) as a percentage with one decimal, the way CNKI prints its figures.
func pct(share float64) string { return fmt.Sprintf("%.1f%%", share*100) }

// thousands formats n with thousands separators: 123456 → "123,456".
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// paragraphCount is the number of paragraphs of the checked document.
func (r *Report) paragraphCount() int {
	if r.Document.Paragraphs > 0 {
		return r.Document.Paragraphs
	}
	return len(r.Paragraphs)
}

// identity names the checked document and the report, label and value, in the order the reports'
// first pages show them.
func (r *Report) identity() [][2]string {
	meta := [][2]string{{"检测文献 Document", r.documentName()}}
	if t := strings.TrimSpace(r.Document.Title); t != "" && t != r.documentName() {
		meta = append(meta, [2]string{"题名 Title", t})
	}
	return append(meta,
		[2]string{"SHA-256", r.Document.SHA256},
		[2]string{"检测时间 Date", r.Created.Format("2006-01-02 15:04:05 -07:00")},
		[2]string{"比对库 Library", fmt.Sprintf("%s 篇文献 documents · %s 段 paragraphs", thousands(r.Library.Documents), thousands(r.Library.Paragraphs))},
		[2]string{"报告编号 Report no.", r.Number},
		[2]string{"检测设置 Settings", settingsText(r.Settings)},
		[2]string{"签名 Signature", signatureText(r.Certificate, r.PublicKey)},
	)
}

// figures are the summary figures in the order the reports show them.
func (r *Report) figures() []figure {
	return []figure{
		{Label: "总文字复制比", LabelEN: "Overall similarity", Value: pct(r.Similarity), Main: true, Level: r.Similarity},
		{Label: "去除引用文字复制比", LabelEN: "Excluding quotes", Value: pct(r.SimilarityExcludingQuotes), Main: true, Level: r.SimilarityExcludingQuotes},
		{Label: "单篇最大文字复制比", LabelEN: "Largest single source", Value: pct(r.MaxSingleSource), Main: true, Level: r.MaxSingleSource},
		{Label: "复制字数 / 总字数", LabelEN: "Copied / total characters", Value: thousands(r.CopiedChars) + " / " + thousands(r.TotalChars)},
		{Label: "疑似段落 / 段落", LabelEN: "Flagged paragraphs", Value: thousands(r.FlaggedParas) + " / " + thousands(r.paragraphCount())},
		{Label: "引用字数", LabelEN: "Quoted characters", Value: thousands(r.QuotedChars)},
		{Label: "模板字数", LabelEN: "Boilerplate characters", Value: thousands(r.TemplateChars)},
	}
}

// levelColor grades a share the way Chinese universities read it: below 10% is fine, up to 30% needs a
// look, above that is a problem.
func levelColor(share float64) rgb {
	switch {
	case share < 0.10:
		return rgb{0x2e, 0x7d, 0x32}
	case share < 0.30:
		return rgb{0xe6, 0x6a, 0x00}
	default:
		return rgb{0xc6, 0x28, 0x28}
	}
}

type rgb struct{ R, G, B uint8 }

func (c rgb) hex() string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// tint mixes c with white: share 1 is c itself, 0 is white. Highlights are tints so black text on
// them stays readable on screen and in print.
func (c rgb) tint(share float64) rgb {
	mix := func(v uint8) uint8 { return uint8(float64(v)*share + 255*(1-share) + 0.5) }
	return rgb{mix(c.R), mix(c.G), mix(c.B)}
}

func parseHex(s string) (rgb, bool) {
	if len(s) != 7 || s[0] != '#' {
		return rgb{}, false
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return rgb{}, false
	}
	return rgb{uint8(v >> 16), uint8(v >> 8), uint8(v)}, true
}

// sourceColor is the colour of source i; a missing or malformed colour falls back to the palette so
// that a hand-edited report still renders.
func (r *Report) sourceColor(i int) rgb {
	if i >= 0 && i < len(r.Sources) {
		if c, ok := parseHex(r.Sources[i].Color); ok {
			return c
		}
	}
	c, _ := parseHex(ColorFor(max(i, 0)))
	return c
}

// sourceName is how a source is named to readers: its title, else its file name.
func (r *Report) sourceName(i int) string {
	if i < 0 || i >= len(r.Sources) {
		return fmt.Sprintf("source %d", i+1)
	}
	s := r.Sources[i]
	if strings.TrimSpace(s.Title) != "" {
		return s.Title
	}
	if s.Path != "" {
		return filepath.Base(s.Path)
	}
	return fmt.Sprintf("source %d", i+1)
}

// fileName is the name of a library file without its folder: a hand-in report names library
// documents, and never shows where they lie on the checker's machine.
func fileName(path string) string {
	if path == "" {
		return ""
	}
	return filepath.Base(path)
}

// documentName is how the checked document is named to readers.
func (r *Report) documentName() string {
	if r.Document.Path != "" {
		return filepath.Base(r.Document.Path)
	}
	if r.Document.Title != "" {
		return r.Document.Title
	}
	return "(unnamed document)"
}

// The check names report parts by key ("abstract", "front matter", "spaced"); readers see them in the
// report's two languages, Chinese first as in CNKI reports. Unknown keys are shown as they are.
var (
	sectionLabels = map[string]string{
		"front": "前置部分 Front matter", "abstract": "摘要 Abstract", "body": "正文 Body",
		"references": "参考文献 References", "acknowledgements": "致谢 Acknowledgements", "appendix": "附录 Appendix",
		"notes": "注释 Notes",
	}
	exclusionLabels = map[string][2]string{ // label, reason; the check's own reason is for unknown keys
		"headings":     {"标题 Headings", "标题文字短且格式固定 · headings: too short and formulaic to count"},
		"references":   {"参考文献 References", "参考文献列表不计入复制比 · the reference list is not counted, as in CNKI"},
		"front matter": {"前置部分 Front matter", "封面、声明、授权书、签名与日期，同校论文皆同，默认不检测 · title page, declarations, authorisations, signature and date lines: the same in every thesis of a school, not checked by default"},
		"template":     {"模板文字 Boilerplate", "多篇文献共有或来自模板的文字，以灰色显示 · text many documents share, shown in grey"},
	}
	warningLabels = map[extract.WarningKind][2]string{ // label, Chinese explanation
		extract.WarnInvisible:     {"不可见字符 Invisible characters", "文中夹有零宽或格式控制字符，这是规避检测的常见手段"},
		extract.WarnLookalike:     {"形近字母 Look-alike letters", "拉丁字母单词中夹有西里尔或希腊字母、小型大写字母，或形似字母的符号、数字与字母组合（如以 rn 代 m），这是规避检测的常见手段"},
		extract.WarnSpaced:        {"汉字间空格 Spaced characters", "汉字之间插入了空格，这是规避检测的常见手段"},
		extract.WarnSpacedLetters: {"字母间空格 Spaced letters", "英文单词的字母之间插入了空格，逐个字母读出，无法比对；这是规避检测的常见手段"},
		extract.WarnTraditional:   {"繁体字 Traditional characters", "繁体字已转为简体后比对"},
		extract.WarnLeftOut:       {"大部分文字未检测 Most text not checked", "一半以上的文字（参考文献、标题、前置部分）未参与检测，复制比只针对其余文字"},
		// Changes extraction made to the text (extract.Warn…).
		extract.WarnReplaced:        {"无法解码的字节 Undecodable bytes", "文件中有不符合其编码的字节，已替换为 � 后比对"},
		extract.WarnNotText:         {"非文字字符 Non-text characters", "文中有私用区、未分配或控制字符，它们不代表任何文字"},
		extract.WarnNameMismatch:    {"文件名与内容不符 Name and content disagree", "文件扩展名与实际格式不符，已按实际内容读取"},
		extract.WarnUnreadablePages: {"无法读取的页面 Unreadable pages", "部分页面内容损坏，其文字未能全部参与比对"},
		extract.WarnTruncatedPages:  {"超量文字的页面 Overfull pages", "页面绘制的字符超过上限，超出部分未参与比对"},
		extract.WarnUnmapped:        {"无法识别的字符 Unmapped characters", "部分文字所用的字体没有说明它们是哪些字符（缺少字符映射表），读者看得见，比对读不到"},
		extract.WarnOutlined:        {"转曲文字 Text as outlines", "有页面的文字被转成了曲线（轮廓图形），读者看得见，但它们不是字符，未参与比对；这是规避检测的手段"},
		extract.WarnRepeatedNotes:   {"重复引用的注释 Repeated notes", "同一注释被多次引用，只保留一次"},
		extract.WarnUnreadableNotes: {"损坏的注释 Unreadable notes", "脚注或尾注部分已损坏，未参与比对"},
		extract.WarnUnreadableParts: {"无法读取的插入内容 Unreadable inserted parts", "Word 显示的插入内容（导入的富文本文件、旧版 Word 嵌入文档等）无法读取，未参与比对"},
		extract.WarnReversed:        {"倒序文字 Reversed text", "有文字以倒序存储、借文字方向控制符（U+202E）正向显示，已按读者看到的顺序比对；这是规避检测的手段"},
		extract.WarnUncited:         {"引文出处不明 Citations that point at nothing", "引号内的复制文字所标的引用（如 [99]）在参考文献列表和注释中找不到，按复制计入，不作引用"},
		extract.WarnFiled:           {"归错位置的复制 Misfiled copies", "标为标题、参考文献或前置部分的段落，抄自库中文献的正文：已检测并计入"},
		extract.WarnInterleaved:     {"字间插入字符 Characters between characters", "在汉字之间插入了字符（标点、字母或数字）、拆开了词语（如 本·研·究、本研，究以高，校），已去掉后比对；这是规避检测的手段"},
		extract.WarnSplitWords:      {"词内插入符号 Marks inside words", "在英文单词中间插入了撇号、连字符、句点等符号，把一个词拆成两段，已去掉后比对；这是规避检测的手段"},
		extract.WarnNarrowSpaces:    {"词中窄空格 Narrow spaces inside words", "单词中间插入了极窄的空格（发丝空格、细空格等），读者几乎看不出，却把每个单词拆成两半；已去掉后比对，这是规避检测的手段"},
		extract.WarnRadicals:        {"部首代字 Radicals for characters", "有部首字符写成了整字的样子（如以 ⻓ 代 长），已按所像的字比对；这是规避检测的手段，讨论汉字字形的文章也会写到部首"},
		extract.WarnMarks:           {"字母上的附加符号 Marks on letters", "字母或汉字上加了附加符号（如 é、字母上的点、字下的线），已去掉后比对；加在普通词上是规避检测的手段，人名和外语词也会带有"},
		extract.WarnBoilerplate:     {"未计入的模板文字 Boilerplate not counted", "正文中有较多文字因库中多篇文献都有或模板文献中有而按模板文字未计入；几名学生从同一来源复制的段落也会如此，请查看标为模板的段落"},
		extract.WarnRepeated:        {"重复段落 Repeated paragraphs", "有段落与文中前面的段落逐字相同，按所写计入，使复制比低于只写一次时的结果"},
		extract.WarnForeign:         {"比对库不相干 The library holds little like it", "绝大多数段落与比对库中任何文献都没有一个共同的词对：库中文献与本文语种或领域不同，复制比说明不了什么"},
		extract.WarnFragmented:      {"拆碎的复制 Copies cut into pieces", "复制文字被拆进表格单元格或很短的行，每段都短得无法单独检测；连起来读时与库中文献相同，已计入"},
		extract.WarnSameFile:        {"来源即本文件 A source is this very file", "库中有一篇文献与本文件逐字节相同：若它就是本论文，请将其排除；若是他人的文件，则是整篇提交他人论文"},
		extract.WarnQuoted:          {"引用过多 Mostly quotations", "有出处的引文占全文比例很大，去除引用复制比把它们全部略去"},
		extract.WarnFiltered:        {"排除与筛选 Filters applied", "报告的数字未计入手动排除的来源，或短于所设最短匹配的复制；不作排除时的数字如下"},
		extract.WarnHidden:          {"隐藏文字 Hidden text", "文件中有读者看不见的文字（白色、极小字号、隐藏格式等），已剔除、不参与比对；这是规避检测的手段"},
		extract.WarnSmallPrint:      {"大量小字 Small print in bulk", "有大量 4 磅以下的小字单独成行，多于图表的标注，已剔除、不参与比对：读入它们会压低复制比。可能是缩小的图表，也可能是为压低复制比而填充的文字，请查看所列页面"},
		extract.WarnTextPictures:    {"图片中的文字 Text in pictures", "有图片显示成行的文字（如段落截图），图片中的文字无法比对，请查看所列页面"},
		extract.WarnPicturesUnseen:  {"未查看的图片 Pictures not looked at", "图片过多过大，超出部分未查看其中是否有文字"},
		extract.WarnScanned:         {"扫描页 Scanned pages", "所列页面是扫描图片，检测的是随扫描写入的识别文字（OCR 文字层）；它与图片显示的文字相符"},
		extract.WarnLayer:           {"扫描页文字层不符 Scans' text layer does not match", "所列页面是扫描图片，检测读的是其下或其上读者看不见的识别文字层，而该文字层与图片显示的文字不符（或无法比较）：报告的数字可能是另一段文字的，请对照所列页面"},
		extract.WarnGarbled:         {"不成词的文字 Garbled text", "有段落读出来几乎不成词：若文件中这些段落显示正常，说明其字体把字符画成了别的字（字体加密，一种规避检测的手段），读者看到的文字未被比对；文言文或人名列表也可能如此"},
		extract.WarnSwapped:         {"换字 Swapped characters", "复制的文字把来源中的几个字在各种上下文中几乎处处换成了别的字：只把几个字画成别的字的字体（字体加密，一种规避检测的手段）会如此，机械替换词语的工具也会如此；若文件在这些地方显示的是来源的字，读者看到的文字未被比对"},
	}
)

// sectionLabel is how a row of the per-section figures is named to readers.
func sectionLabel(s SectionFigure) string {
	name := s.Name
	if name == "" {
		name = s.Section
	}
	if l, ok := sectionLabels[name]; ok {
		return l
	}
	return name
}

// exclusionText is the label and the explanation of a part left out of the figures.
func exclusionText(e Exclusion) (label, why string) {
	l, ok := exclusionLabels[e.Section]
	if !ok {
		if sl, ok := sectionLabels[e.Section]; ok {
			return sl, e.Reason
		}
		return e.Section, e.Reason
	}
	return l[0], l[1]
}

// warningText is the label and the explanation of a warning.
func warningText(wn Warning) (label, why string) {
	l, ok := warningLabels[wn.Kind]
	if !ok {
		return string(wn.Kind), wn.Message
	}
	return fmt.Sprintf("%s × %s", l[0], thousands(wn.Count)), l[1] + " · " + wn.Message
}

// signatureText describes a report's signer for its first page, from its certificate field (or,
// for a report from before PDF signatures, its Ed25519 public key).
func signatureText(certificate, publicKey string) string {
	const verify = " · 验证 verify: thesischeck verify"
	if certificate != "" {
		der, err := base64.StdEncoding.DecodeString(certificate)
		if err != nil {
			return "签名无效 malformed signature"
		}
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			return "签名无效 malformed signature"
		}
		// The fingerprint first: where the line is too long for the page, the rest is cut.
		return fmt.Sprintf("密钥指纹 key %s · %s · %s%s", keys.Fingerprint(cert.PublicKey), keys.Algorithm(cert.PublicKey), cert.Subject.CommonName, verify)
	}
	if publicKey != "" {
		pub, err := base64.StdEncoding.DecodeString(publicKey)
		if err != nil || len(pub) != ed25519.PublicKeySize {
			return "签名无效 malformed signature"
		}
		return "Ed25519 · 密钥指纹 key " + keys.Fingerprint(ed25519.PublicKey(pub)) + verify
	}
	return "未签名 not signed"
}

// Paragraph kinds, which decide how a paragraph is drawn.
const (
	kindPlain    = iota
	kindFlagged  // copied text from at least one source: highlighted and followed by its sources
	kindQuoted   // copied only inside proper quotations
	kindTemplate // boilerplate
	kindExcluded // not checked
)

func paragraphKind(p *Paragraph) int {
	switch p.Status {
	case StatusExcluded:
		return kindExcluded
	case StatusTemplate:
		return kindTemplate
	case StatusQuoted:
		return kindQuoted
	}
	if len(copyMatches(p)) > 0 {
		return kindFlagged
	}
	return kindPlain
}

// copyMatches are a paragraph's matches that count as copying (not boilerplate) and have spans.
func copyMatches(p *Paragraph) []int {
	var out []int
	for i, m := range p.Matches {
		if !m.Template && len(m.Spans) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// mark is what a reader should see about one character of a paragraph.
type mark struct {
	src      int16 // index into Report.Sources of the source it was copied from, -1 for none
	quoted   bool  // inside a quotation
	template bool  // boilerplate
}

// marks gives each rune of text (n runes) its mark. Where matches overlap, the first match wins: the
// check lists matches longest first. Offsets outside the text are clipped, so a hand-edited report
// cannot make a writer fail.
func marks(n int, matches []Match, quotes [][2]int) []mark {
	out := make([]mark, n)
	for i := range out {
		out[i].src = -1
	}
	clip := func(s [2]int) (int, int) { return max(0, min(s[0], n)), max(0, min(s[1], n)) }
	for _, m := range matches {
		for _, s := range m.Spans {
			a, b := clip(s)
			for i := a; i < b; i++ {
				if m.Template {
					out[i].template = true
				} else if out[i].src < 0 && m.Source >= 0 && m.Source < 1<<15 {
					out[i].src = int16(m.Source)
				}
			}
		}
	}
	for _, q := range quotes {
		a, b := clip(q)
		for i := a; i < b; i++ {
			out[i].quoted = true
		}
	}
	return out
}

// spanMarks marks the runes of a text covered by spans as copied from src (for a source excerpt).
func spanMarks(n int, spans [][2]int, src int) []mark {
	return marks(n, []Match{{Source: src, Spans: spans}}, nil)
}

// printable replaces, rune for rune (offsets must not move), what a PDF font cannot draw: control
// characters become spaces, characters outside the Basic Multilingual Plane a white square.
func printable(rs []rune) []rune {
	out := make([]rune, len(rs))
	for i, c := range rs {
		switch {
		case c == '\n':
			out[i] = '\n'
		case c == '\t' || unicode.IsControl(c) || c == 0xfeff:
			out[i] = ' '
		case c > 0xfffe || (c >= 0xd800 && c <= 0xdfff):
			out[i] = '□'
		default:
			out[i] = c
		}
	}
	return out
}

// excerptWindow picks the part of a source paragraph worth showing: the copied spans with some
// context, so that a long source paragraph does not bury the match.
func excerptWindow(n int, spans [][2]int, context int) (int, int) {
	if len(spans) == 0 {
		return 0, min(n, 2*context)
	}
	a, b := n, 0
	for _, s := range spans {
		a = min(a, max(0, s[0]))
		b = max(b, min(n, s[1]))
	}
	if a >= b {
		return 0, min(n, 2*context)
	}
	return max(0, a-context), min(n, b+context)
}

// excludedSourcesText names the sources the figures leave out on request, or is empty.
func (r *Report) excludedSourcesText() string {
	if len(r.ExcludedSources) == 0 {
		return ""
	}
	names := make([]string, len(r.ExcludedSources))
	for i, x := range r.ExcludedSources {
		names[i] = fmt.Sprintf("《%s》(ID %d)", x.Title, x.ID)
		if x.Title == "" {
			names[i] = fmt.Sprintf("ID %d", x.ID)
		}
	}
	return "已排除的来源 Sources left out on request: " + strings.Join(names, "、") +
		"。以上各项比例均不含这些来源 Every figure above is computed without them."
}

// verdictText is the verdict of a school's rules in words, with the colour of its outcome, or empty.
func (r *Report) verdictText() (string, rgb) {
	v := r.Verdict
	if v == nil {
		return "", rgb{}
	}
	outcome, c := "不通过 fail", levelColor(1)
	switch v.Outcome {
	case "pass":
		outcome, c = "通过 pass", levelColor(0)
	case "revise":
		outcome, c = "需修改 revise", levelColor(0.2)
	case "review":
		outcome, c = "需人工复核 review", levelColor(0.2)
	}
	figure := "总文字复制比 similarity"
	if v.Figure == "excluding_quotes" {
		figure = "去除引用 excluding quotes"
	}
	text := fmt.Sprintf("结论 Verdict: %s · 规则 Rules: %s · %s %s：低于 %g%% 通过、%g%% 及以上不通过 (pass below %g%%, fail from %g%%)",
		outcome, v.Profile, figure, pct(v.Value), v.PassBelow, v.FailFrom, v.PassBelow, v.FailFrom)
	if v.Mismatch != "" {
		text += " · 注意 Note: " + v.Mismatch
	}
	if v.Outcome == "review" {
		text += " · 低于通过线，但报告的警告（见下）不宜直接通过 Below the pass limit, but the warnings below stand against a pass"
	}
	return text, c
}
