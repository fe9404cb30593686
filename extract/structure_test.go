package extract

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// A spec line is "CODE text". CODE is the expected section — F front, A abstract, B body,
// R references, K acknowledgements, X appendix — followed by "c" for a chapter heading, "h" for any
// other heading, nothing for running text. Body paragraphs are expected to carry the text of the
// last "c" line as their chapter.
type specLine struct {
	section Section
	heading bool
	chapter bool
	text    string
}

func parseSpec(t *testing.T, spec string) []specLine {
	t.Helper()
	codes := map[byte]Section{'F': Front, 'A': Abstract, 'B': Body, 'R': References, 'K': Acknowledgements, 'X': Appendix}
	var out []specLine
	for _, line := range strings.Split(strings.TrimSpace(spec), "\n") {
		line = strings.TrimSpace(line)
		code, text, ok := strings.Cut(line, " ")
		if !ok || codes[code[0]] == "" {
			t.Fatalf("bad spec line %q", line)
		}
		out = append(out, specLine{
			section: codes[code[0]],
			heading: strings.ContainsAny(code[1:], "ch"),
			chapter: strings.Contains(code[1:], "c"),
			text:    strings.TrimSpace(text),
		})
	}
	return out
}

func docFromSpec(lines []specLine) *Document {
	doc := &Document{}
	for _, l := range lines {
		doc.Paragraphs = append(doc.Paragraphs, Paragraph{Text: l.text})
	}
	return doc
}

func checkSpec(t *testing.T, doc *Document, lines []specLine) {
	t.Helper()
	chapter := ""
	for i, l := range lines {
		p := doc.Paragraphs[i]
		if l.chapter {
			chapter = l.text
		}
		want := ""
		if l.section == Body {
			want = chapter
		}
		if p.Section != l.section || p.Heading != l.heading || p.Chapter != want {
			t.Errorf("paragraph %d %q: got section %s heading %v chapter %q; want %s heading %v chapter %q",
				i, l.text, p.Section, p.Heading, p.Chapter, l.section, l.heading, want)
		}
	}
}

func TestStructure(t *testing.T) {
	tests := []struct {
		name  string
		spec  string
		title string
	}{
		{
			name:  "Chinese thesis with cover, declarations, two abstracts, TOC with leaders and back matter",
			title: "基于指纹与对齐的学位论文复制检测方法研究",
			spec: `
F 学校代码：10487
F 分类号：TP391　　密级：公开
F 华中某某大学硕士学位论文
F 基于指纹与对齐的学位论文复制检测方法研究
F 学位申请人：李明
F 指导教师：王强教授
Fh 独创性声明
F 本人郑重声明：所呈交的学位论文是本人在导师指导下进行的研究工作及取得的研究成果。据我所知，除文中已经注明引用的内容外，本论文不包含其他个人已经发表或撰写过的研究成果。
Fh 学位论文版权使用授权书
F 本学位论文作者完全了解学校有关保留、使用学位论文的规定，即：学校有权保留并向国家有关部门或机构送交论文的复印件和电子版，允许论文被查阅和借阅。
Ah 摘　要
A 随着学术不端问题日益受到关注，论文复制检测成为研究生培养的重要环节。本文提出一种结合局部敏感哈希与序列对齐的检测方法，在保证召回率的同时显著降低了检测时间。
A 关键词：复制检测；局部敏感哈希；序列对齐
Ah ABSTRACT
A With growing attention to academic misconduct, detecting copied text in theses has become an essential step of graduate education. This thesis proposes a method that combines locality-sensitive hashing with alignment.
A Key words: plagiarism detection; locality-sensitive hashing; alignment
Fh 目　录
F 第一章 绪论……………………………………………………1
F 1.1 研究背景…………………………………………………1
F 1.2 国内外研究现状……………………………………………3
F 第二章 相关技术………………………………………………8
F 参考文献…………………………………………………………45
F 致谢………………………………………………………………50
Bc 第一章 绪论
Bh 1.1 研究背景
B 近年来，随着高等教育规模的扩大，学位论文数量快速增长，人工审查已经难以满足需要，自动化的复制检测系统应运而生。
Bh 1.2 国内外研究现状
B 国外的研究起步较早，早期的系统主要基于字符串匹配，随后出现了基于指纹的方法。文献[3]认为，指纹方法在大规模语料上具有明显的速度优势。
Bc 第二章 相关技术
B 本章介绍 SimHash 与 MinHash 两类指纹，以及用于定位复制片段的序列对齐算法。
Bh 2.1 SimHash
B SimHash 将文档映射为固定长度的二进制指纹，相似文档的指纹汉明距离较小。
Rh 参考文献
R [1] 王芳, 李明. 文本复制检测综述[J]. 计算机学报, 2019, 42(3): 1-20.
R [2] Broder A Z. On the resemblance and containment of documents[C]. Compression and Complexity of Sequences, 1997: 21-29.
Kh 致　谢
K 衷心感谢导师王强教授的悉心指导，感谢实验室同学在学习和生活上给予的帮助。
Xh 附录A 主要程序代码
X 本附录给出检测流程的主要程序代码。
Rh 攻读硕士学位期间发表的学术论文
R [1] 李明, 王强. 一种快速的论文复制检测方法[J]. 计算机应用, 2023, 43(5): 100-106.
`,
		},
		{
			name:  "English thesis with acknowledgements before the abstract and a TOC with dot leaders",
			title: "Locating Copied Passages in Graduate Theses",
			spec: `
F Locating Copied Passages in Graduate Theses
F A thesis submitted in partial fulfilment of the requirements for the degree of Master of Science
F Jane Doe
Fh Declaration
F I hereby declare that this thesis is my own work and that all sources I have used or quoted have been indicated and acknowledged by means of complete references.
Kh Acknowledgements
K I would like to thank my supervisor for her patience and guidance throughout this project, and my family for their support.
Ah Abstract
A Plagiarism detection systems compare a submission with a large library of earlier work. This thesis shows how fingerprints and alignment can be combined to locate copied passages quickly and precisely.
Fh Table of Contents
F 1 Introduction .......... 1
F 1.1 Motivation .......... 2
F 2 Related Work .......... 5
F References .......... 30
Fh List of Figures
F Figure 1.1 System overview .......... 3
Bc 1 Introduction
B Copying text without attribution is a persistent problem in higher education, and detecting it by hand does not scale to thousands of theses.
Bh 1.1 Motivation
B Existing tools are slow on large libraries and report whole documents rather than the copied passages themselves.
Bc 2 Related Work
B Early systems compared documents sentence by sentence. Later systems used fingerprints such as shingles, winnowing and SimHash.
Bc 3 Conclusion
B We have shown that combining fingerprints with alignment locates copied passages precisely.
Rh References
R [1] A. Z. Broder. On the resemblance and containment of documents. In Compression and Complexity of Sequences, 1997.
R Charikar, M. S. (2002). Similarity estimation techniques from rounding algorithms. In Proceedings of STOC, pp. 380-388.
Xh Appendix A Questionnaire
X The questionnaire given to the participants is reproduced here.
`,
		},
		{
			name: "plain document without headings is all body",
			spec: `
B Debian 是一个自由的操作系统，由来自世界各地的志愿者共同开发和维护。它使用 Linux 内核以及大量来自 GNU 项目的工具。
B 软件包管理是 Debian 系统的核心，apt 工具可以自动处理依赖关系，让安装和升级都变得简单。
B 如果你在安装 Debian 的过程中安装了图形环境，那么你在启动系统后将使用图形登录界面。
`,
		},
		{
			name: "a numbered list is not a run of chapters",
			spec: `
B To build the program from source, follow these steps in order, as the build depends on each of them.
B 1. Install the compiler
B 2. Fetch the sources
B 3. Run the build script
B The program is then found in the bin directory of the source tree, ready to be installed.
`,
		},
		{
			name: "a reference list alone does not make front matter",
			spec: `
B Fingerprinting methods select a subset of the hashes of a document's n-grams to represent it compactly.
B Winnowing guarantees that any match of at least a given length is detected, while keeping few hashes.
Rh References
R [1] S. Schleimer, D. Wilkerson, A. Aiken. Winnowing: local algorithms for document fingerprinting. SIGMOD 2003.
`,
		},
		{
			name:  "table of contents without page numbers, as a PDF reader gives it",
			title: "分布式存储系统的一致性研究",
			spec: `
F 分布式存储系统的一致性研究
Ah 摘要
A 本文研究分布式存储系统中的一致性问题，提出一种低延迟的复制协议，并在真实集群上验证了其性能。
A 关键词：分布式存储；一致性；复制协议
Fh 目录
F 第一章 绪论
F 1.1 研究背景
F 第二章 复制协议
F 参考文献
Bc 第一章 绪论
Bh 1.1 研究背景
B 分布式存储系统需要在多个副本之间保持数据一致，而网络分区与节点故障使这一问题变得困难。
Bc 第二章 复制协议
B 本章提出的复制协议将写操作的确认延迟降低到一次往返时间。
Rh 参考文献
R [1] Lamport L. The part-time parliament[J]. ACM Transactions on Computer Systems, 1998, 16(2): 133-169.
`,
		},
		{
			name:  "an abstract that starts inside its paragraph, then unnumbered introduction",
			title: "面向中文文本的相似度计算",
			spec: `
F 面向中文文本的相似度计算
F 作者：张三
A 摘要：本文提出了一种面向中文文本的相似度计算方法，利用分词结果构造加权指纹，在公开数据集上取得了较好的效果。
A 关键词：相似度；分词；指纹
Bc 引言
B 文本相似度计算是信息检索与自然语言处理中的基础问题，广泛用于去重、聚类和复制检测。
Bc 2 方法
B 我们首先对文本进行分词，然后为每个词计算权重，最后构造加权的 SimHash 指纹。
Bc 结论
B 实验表明，加权指纹在改写文本上的召回率明显高于不加权的指纹。
`,
		},
		{
			name:  "running text after the keywords is body even without a chapter heading",
			title: "一种新的检测方法",
			spec: `
F 一种新的检测方法
Ah 摘要
A 本文提出一种新的检测方法，能够在大规模语料上快速定位复制片段，并给出可解释的报告。
A 关键词：检测；语料
B 学术论文的复制检测已经有二十多年的历史，早期的方法大多基于字符串匹配，速度较慢，难以处理大规模语料。
B 后来出现了基于指纹的方法，它们先为文档计算紧凑的指纹，再用指纹快速找出候选文档，大大提高了检测速度。
`,
		},
		{
			name: "the reference list ends where running text without citations resumes",
			spec: `
Bc Chapter 1 Introduction
B Copy detection has a long history, and many systems have been proposed over the years for different kinds of documents.
Rh References
R [1] A. Z. Broder. On the resemblance and containment of documents. 1997.
B This paragraph is ordinary running text that goes on for a while without citing anything, so it cannot be part of a reference list, and the list must have ended before it.
B Neither is this one, which continues the discussion of the chapter in the same way, at length and without a single reference to any published work.
`,
		},
		{
			name:  "a bare number out of sequence is not a chapter",
			title: "Copy Detection for Theses",
			spec: `
F Copy Detection for Theses
Ah Abstract
A We describe a copy detection system for theses, built from fingerprints, candidate search and alignment of copied passages.
Bc 1 Introduction
B Copy detection matters because theses are published and their integrity is the basis of the degree.
B 3 Results
B The results above show that the approach works on real theses of several universities and in two languages.
Bc 2 Method
B The method has three stages, each described in a section of this chapter.
`,
		},
		{
			name: "a late introduction heading does not turn a long document into front matter",
			spec: `
B The history of the printing press begins long before Gutenberg, with block printing in East Asia, and reaches into the modern age of digital type.
B Movable type made of ceramic was invented in China in the eleventh century, and metal type appeared in Korea two centuries later.
B In Europe, the press spread quickly after 1450, and within fifty years printing shops were found in most large cities of the continent.
B The consequences for learning, religion and politics were profound, and historians still debate how far the press caused the changes of the period.
Bc Introduction
B This chapter introduces the sources used in the rest of the book and explains how they were chosen.
`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines := parseSpec(t, tc.spec)
			doc := docFromSpec(lines)
			Structure(doc)
			checkSpec(t, doc, lines)
			if doc.Title != tc.title {
				t.Errorf("title %q, want %q", doc.Title, tc.title)
			}
			// Structure must be stable when run again on its own output.
			again := *doc
			again.Paragraphs = append([]Paragraph(nil), doc.Paragraphs...)
			Structure(&again)
			if !reflect.DeepEqual(again.Paragraphs, doc.Paragraphs) {
				t.Errorf("a second Structure changed the result")
			}
		})
	}
}

func TestStructureReaderHeadings(t *testing.T) {
	// As the DOCX reader gives them: a heading flag from the style, and Chapter set to the text of
	// chapter-level (outline level 0) headings.
	doc := &Document{Paragraphs: []Paragraph{
		{Text: "论文题目", Heading: true},
		{Text: "摘要", Heading: true, Chapter: "摘要"},
		{Text: "本文研究了一个问题，并提出了解决方法。"},
		{Text: "系统设计", Heading: true, Chapter: "系统设计"},
		{Text: "总体架构", Heading: true},
		{Text: "系统由三个模块组成。"},
		{Text: "实验", Heading: true, Chapter: "实验"},
		{Text: "我们在两个数据集上进行了实验。"},
	}}
	Structure(doc)
	want := []struct {
		sec     Section
		chapter string
	}{
		{Front, ""}, {Abstract, ""}, {Abstract, ""}, {Body, "系统设计"}, {Body, "系统设计"}, {Body, "系统设计"}, {Body, "实验"}, {Body, "实验"},
	}
	for i, w := range want {
		p := doc.Paragraphs[i]
		if p.Section != w.sec || p.Chapter != w.chapter {
			t.Errorf("%d %q: got %s %q, want %s %q", i, p.Text, p.Section, p.Chapter, w.sec, w.chapter)
		}
	}
	for _, i := range []int{0, 1, 3, 4, 6} {
		if !doc.Paragraphs[i].Heading {
			t.Errorf("%d %q lost its heading flag", i, doc.Paragraphs[i].Text)
		}
	}
	if doc.Title != "论文题目" {
		t.Errorf("title %q", doc.Title)
	}
}

func TestStructureKeepsTitle(t *testing.T) {
	doc := &Document{Title: "given", Paragraphs: []Paragraph{{Text: "A Title"}, {Text: "Abstract"}, {Text: "Some abstract text that is long enough to be running text in a document."}}}
	Structure(doc)
	if doc.Title != "given" {
		t.Errorf("title overwritten: %q", doc.Title)
	}
	Structure(&Document{}) // no paragraphs: nothing to do, no panic
}

func TestHeadingRecognition(t *testing.T) {
	tests := []struct {
		text string
		kind kind
		num  int
	}{
		{"第一章 绪论", kChapter, 1},
		{"第十二章　总结与展望", kChapter, 12},
		{"第3章 系统设计", kChapter, 3},
		{"Chapter 3 Methods", kChapter, 3},
		{"CHAPTER IV RESULTS", kChapter, 4},
		{"2. Related Work", kChapter, 2},
		{"1 Introduction", kChapter, 0}, // a keyword chapter: its number is read separately
		{"1.2 系统设计", kSection, 0},
		{"2.3.1 Data sets", kSection, 0},
		{"摘要", kAbstract, 0},
		{"摘 要", kAbstract, 0},
		{"ABSTRACT", kAbstract, 0},
		{"Abstract:", kAbstract, 0},
		{"参考文献", kReferences, 0},
		{"参 考 文 献", kReferences, 0},
		{"References", kReferences, 0},
		{"Bibliography", kReferences, 0},
		{"Works Cited", kReferences, 0},
		{"致谢", kAcknowledgements, 0},
		{"Acknowledgements", kAcknowledgements, 0},
		{"附录 A", kAppendix, 0},
		{"附录一 调查问卷", kAppendix, 0},
		{"Appendix A", kAppendix, 0},
		{"Appendix B: Proofs", kAppendix, 0},
		{"目录", kContents, 0},
		{"Table of Contents", kContents, 0},
		{"第一章 绪论 ........ 1", kTOCLine, 0},
		{"摘要：本文研究了文本相似度的计算方法。", kAbstractStart, 0},
		{"Abstract: This thesis studies the detection of copied text.", kAbstractStart, 0},
		{"关键词：相似度；指纹", kKeywords, 0},
		{"Keywords: similarity, fingerprints", kKeywords, 0},
		// Not headings.
		{"这是一个普通的句子。", kText, 0},
		{"[1] 王芳. 文本复制检测综述[J]. 计算机学报, 2019.", kText, 0},
		{"系统架构", kText, 0},
		{"3.5 GHz processors are common.", kText, 0},
		{"Summary of the results shows a clear gain", kText, 0},
	}
	for _, tc := range tests {
		in := classify(Paragraph{Text: tc.text}, false)
		num := in.num
		if tc.text == "1 Introduction" {
			num = 0
		}
		if in.kind != tc.kind || num != tc.num {
			t.Errorf("%q: kind %d num %d, want kind %d num %d", tc.text, in.kind, in.num, tc.kind, tc.num)
		}
	}
}

func TestParseNumber(t *testing.T) {
	for s, want := range map[string]int{"3": 3, "１２": 12, "三": 3, "十": 10, "十二": 12, "二十一": 21, "一百零五": 105, "IV": 4, "xii": 12, "three": 3, "x?": 0} {
		if got := parseNumber(s); got != want {
			t.Errorf("parseNumber(%q) = %d, want %d", s, got, want)
		}
	}
}

func ExampleStructure() {
	doc := &Document{Paragraphs: []Paragraph{
		{Text: "论文复制检测方法研究"},
		{Text: "摘要"},
		{Text: "本文提出了一种论文复制检测方法。"},
		{Text: "第一章 绪论"},
		{Text: "复制检测是学术规范的重要保障。"},
		{Text: "参考文献"},
		{Text: "[1] 王芳. 文本复制检测综述[J]. 计算机学报, 2019."},
	}}
	Structure(doc)
	fmt.Println(doc.Title)
	for _, p := range doc.Paragraphs {
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%-10s %-5v %s", p.Section, p.Heading, p.Chapter)))
	}
	// Output:
	// 论文复制检测方法研究
	// front      false
	// abstract   true
	// abstract   false
	// body       true  第一章 绪论
	// body       false 第一章 绪论
	// references true
	// references false
}

// The cheap tests in front of the regular expressions must pass everything the patterns match, and
// should turn running text away.
func TestStructurePrefilters(t *testing.T) {
	tests := []struct {
		text              string
		toc, abs, kw, num bool // what the patterns match
	}{
		{"第一章 绪论 ……… 1", true, false, false, true},
		{"1.2 系统设计......12", true, false, false, true},
		{"Introduction\t3", true, false, false, false},
		{"Related Work . . . . xii", true, false, false, false},
		{"Methods ____ 7", true, false, false, false},
		{"摘要：本文研究了软件包管理。", false, true, false, false},
		{"【 摘 要 】 本文研究了……", false, true, false, false},
		{"〔内容提要〕：本文", false, true, false, false},
		{"Abstract: This thesis studies package managers.", false, true, false, false},
		{"ſummary: a long s folds onto s under (?i).", false, true, false, false},
		{"ABSTRACT This thesis", false, true, false, false},
		{"关键词：软件包；依赖", false, false, true, false},
		{"[ 关 键 字 ]：软件包", false, false, true, false},
		{"主题词：软件", false, false, true, false},
		{"Keywords: packages; dependencies", false, false, true, false},
		{"\u212Aey words— packages", false, false, true, false},
		{"Index terms: packages", false, false, true, false},
		{"Chapter 3 Methods", false, false, false, true},
		{"PART II. Results", false, false, false, true},
		{"IV. Discussion", false, false, false, true},
		{"三、研究方法", false, false, false, true},
		{"第 3 节 结果", false, false, false, true},
		{"本文研究了软件包管理器的依赖求解问题，并给出了一种新的方法。", false, false, false, false},
		{"Package managers resolve dependencies between versions of software.", false, false, false, false},
		{"Since the first package managers, dependencies have been resolved by hand.", false, false, false, false},
		{"As noted above, solvers differ.", false, false, false, false},
		{"Keeping versions apart is the hard part.", false, false, false, false},
		{"In most distributions a package names its dependencies.", false, false, false, false},
		{"ſUMMARY—a long s and capitals", false, true, false, false},
		{"INDEX TERMS: packages", false, false, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := reTOCLine.MatchString(tt.text); got != tt.toc {
				t.Fatalf("reTOCLine %v, want %v", got, tt.toc)
			}
			if got := reAbsStart.MatchString(tt.text); got != tt.abs {
				t.Fatalf("reAbsStart %v, want %v", got, tt.abs)
			}
			if got := reKeywords.MatchString(tt.text); got != tt.kw {
				t.Fatalf("reKeywords %v, want %v", got, tt.kw)
			}
			if got := reNumPrefix.MatchString(tt.text); got != tt.num {
				t.Fatalf("reNumPrefix %v, want %v", got, tt.num)
			}
			toc, abs := mayTOCLine(tt.text), mayStart(tt.text, "[【〔", "摘内", "abstract summary")
			kw, num := mayStart(tt.text, "[【", "关主", "key index"), trimNumPrefix(tt.text) != tt.text
			if tt.toc && !toc || tt.abs && !abs || tt.kw && !kw || tt.num && !num {
				t.Errorf("a prefilter turns away a match: TOC %v, abstract %v, key words %v, number %v", toc, abs, kw, num)
			}
			if !tt.toc && !tt.abs && !tt.kw && !tt.num && (toc || abs || kw || num) {
				t.Errorf("running text passes a prefilter: TOC %v, abstract %v, key words %v, number %v", toc, abs, kw, num)
			}
			if got := trimNumPrefix(tt.text); got != reNumPrefix.ReplaceAllString(tt.text, "") {
				t.Errorf("trimNumPrefix %q, regexp %q", got, reNumPrefix.ReplaceAllString(tt.text, ""))
			}
		})
	}
}

// The English words of the patterns in every case (?i) folds onto them, long s and Kelvin sign
// included, pass the prefilters whenever the patterns match.
func TestStructurePrefilterCases(t *testing.T) {
	variants := func(word string) []string {
		out := []string{""}
		for _, l := range word {
			forms := []rune{l, unicode.ToUpper(l)}
			for f := unicode.SimpleFold(l); f != l; f = unicode.SimpleFold(f) {
				if f != unicode.ToUpper(l) {
					forms = append(forms, f)
				}
			}
			var next []string
			for _, o := range out {
				for _, f := range forms {
					next = append(next, o+string(f))
				}
			}
			out = next
		}
		return out
	}
	matched := 0
	for _, w := range []string{"abstract", "summary", "key words", "keywords", "key-word", "index terms"} {
		for _, v := range variants(w) {
			for _, tail := range []string{": text", " — text", "：文本", " text"} {
				text := v + tail
				if reAbsStart.MatchString(text) {
					matched++
					if !mayStart(text, "[【〔", "摘内", "abstract summary") {
						t.Fatalf("%q matches reAbsStart, its prefilter turns it away", text)
					}
				}
				if reKeywords.MatchString(text) {
					matched++
					if !mayStart(text, "[【", "关主", "key index") {
						t.Fatalf("%q matches reKeywords, its prefilter turns it away", text)
					}
				}
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d variants matched the patterns", matched)
	}
}

// A front-matter spec line is "* text" for a paragraph Structure must mark FrontMatter (left out of
// a check by default), "- text" for one it must not; "~" is where the body of a thesis's length
// goes (at the end when there is none).
func TestFrontMatter(t *testing.T) {
	tests := []struct {
		name   string
		thesis bool
		spec   string
	}{
		{
			name: "Chinese thesis: cover, declarations with headings, signature lines, TOC", thesis: true,
			spec: `
* 学校代码：10487
* 华中某某大学硕士学位论文
* 基于指纹与对齐的学位论文复制检测方法研究
* 指导教师：王强教授
* 独创性声明
* 本人郑重声明：所呈交的学位论文是本人在导师指导下进行的研究工作及取得的研究成果。据我所知，除文中已经注明引用的内容外，本论文不包含其他个人已经发表或撰写过的研究成果。
* 作者签名：　　　　日期：　　年　　月　　日
* 学位论文版权使用授权书
* 本学位论文作者完全了解学校有关保留、使用学位论文的规定，即：学校有权保留并向国家有关部门或机构送交论文的复印件和电子版，允许论文被查阅和借阅。
- 摘　要
- 随着学术不端问题日益受到关注，论文复制检测成为研究生培养的重要环节。本文提出一种结合局部敏感哈希与序列对齐的检测方法。
- 关键词：复制检测；局部敏感哈希
* 目　录
* 第一章 绪论……………………………………………………1
- 第一章 绪论
- 近年来，随着高等教育规模的扩大，学位论文数量快速增长，人工审查已经难以满足需要，自动化的复制检测系统应运而生。`,
		},
		{
			name: "declarations inline, without headings, before the abstract", thesis: true,
			spec: `
* 面向开源文档的检索方法
* 学位论文独创性声明：本人郑重声明，所呈交的学位论文是本人在导师指导下独立开展研究工作所取得的成果。除文中已经注明引用的内容以外，本论文不含任何其他个人或集体已经发表或撰写过的作品。
* 学位论文使用授权书：本学位论文作者完全了解学校有关保留、使用学位论文的规定，同意学校保留并向有关部门送交论文的复印件和电子版，允许论文被查阅和借阅。
- 摘要
- 本文研究开源文档的检索方法，提出了一种基于倒排索引与语义向量相结合的检索模型，实验表明其效果优于传统方法。
- 第一章 绪论
- 开源软件的文档数量巨大，用户往往难以找到所需的信息，因此需要高效的检索方法来帮助用户快速定位相关内容。`,
		},
		{
			name: "English thesis: the preface is the author's own and is checked", thesis: true,
			spec: `
* Fast Detection of Copied Text
* A thesis submitted in partial fulfilment of the requirements for the degree of Master of Science
* Supervisor: Prof. K. Brown
* Statement of Originality
* I hereby declare that this thesis is my own work and that it contains no material previously published or written by another person except where due acknowledgement has been made in the text.
* Permission to use: the author grants the University the right to keep, copy and lend this thesis, in print and in electronic form, for purposes of research and teaching.
* Preface
- This work grew out of a summer spent reading student reports, when it became clear to me how much of what we call writing is in fact rearranging, and how little the tools of the day could tell the two apart.
- Abstract
- We present a method that finds copied passages in theses with fingerprints and alignment, and show that it is accurate on a new collection.
- Chapter 1 Introduction
- Plagiarism detection systems compare a submitted document with a large collection of sources and report the passages they share.`,
		},
		{
			name: "declarations at the end, after the acknowledgements", thesis: true,
			spec: `
- 第一章 绪论
- 开源软件的文档数量巨大，用户往往难以找到所需的信息，因此需要高效的检索方法来帮助用户快速定位相关内容。
- 致谢
- 衷心感谢导师王强教授的悉心指导，感谢实验室同学在学习和生活上给予的帮助。
~
* 原创性声明
* 本人郑重声明：所呈交的学位论文，是本人在导师的指导下，独立进行研究工作所取得的成果。除文中已经注明引用的内容外，本论文不含任何其他个人或集体已经发表或撰写过的作品成果。`,
		},
		{
			name: "article: a first paragraph before the first heading is checked",
			spec: `
* Detecting Plagiarism in Master's Theses with Fingerprints
* J. Smith, K. Brown
* Department of Computer Science, Example University
- © 2021 Elsevier Ltd. All rights reserved.
- Copying from the web has become the most common form of academic misconduct, and universities now check every thesis before it is accepted. This paper describes how such checks work and where they fail.
- 1 Introduction
- Plagiarism detection systems compare a submitted document with a large collection of sources and report the passages they share. We describe the stages of such a system in turn.
- 2 Related Work
- Early systems compared documents word by word; later ones used fingerprints of overlapping word sequences, which scale to collections of millions of documents.`,
		},
		{
			name: "article without structure: nothing is front matter",
			spec: `
- 开源软件的文档数量巨大，用户往往难以找到所需的信息，因此需要高效的检索方法来帮助用户快速定位相关内容。
- 本文研究开源文档的检索方法，提出了一种基于倒排索引与语义向量相结合的检索模型，实验表明其效果优于传统方法。`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := &Document{}
			var want []bool
			body := func() { // front matter is a small part of a document
				for i := 0; i < 8; i++ {
					doc.Paragraphs = append(doc.Paragraphs, Paragraph{Text: strings.Repeat("The body goes on with its argument, one sentence after another. ", 4)})
					want = append(want, false)
				}
			}
			spec := strings.TrimSpace(tt.spec)
			if !strings.Contains(spec, "~") {
				spec += "\n~"
			}
			for _, line := range strings.Split(spec, "\n") {
				mark, text, _ := strings.Cut(strings.TrimSpace(line), " ")
				if mark == "~" {
					body()
					continue
				}
				doc.Paragraphs = append(doc.Paragraphs, Paragraph{Text: text})
				want = append(want, mark == "*")
			}
			for pass := 0; pass < 2; pass++ { // Structure may be called again on its own output
				Structure(doc)
				if doc.Thesis != tt.thesis {
					t.Errorf("pass %d: Thesis = %v, want %v", pass, doc.Thesis, tt.thesis)
				}
				for i, p := range doc.Paragraphs {
					if p.FrontMatter != want[i] {
						t.Errorf("pass %d: paragraph %d %q (section %s): FrontMatter = %v, want %v", pass, i, p.Text, p.Section, p.FrontMatter, want[i])
					}
					if p.Counted() && want[i] {
						t.Errorf("pass %d: paragraph %d %q is front matter but counted", pass, i, p.Text)
					}
				}
			}
		})
	}
}

// TestMergedThesesBodyNotFront: two theses merged into one file (a PDF of a thesis with another
// appended) keep their bodies: the second's declaration does not make the rest front matter, nor
// does its chapter numbering starting again at 1.
func TestMergedThesesBodyNotFront(t *testing.T) {
	thesis := func(title string, n int) []string {
		ps := []string{
			title, "硕士学位论文", "指导教师：王强教授",
			"独创性声明",
			"本人郑重声明：所呈交的学位论文是本人在导师指导下进行的研究工作及取得的研究成果。除文中已经注明引用的内容外，本论文不包含其他个人已经发表或撰写过的研究成果。",
			"摘要",
			"本文研究" + title + "的若干问题，提出了一种新的方法，并在多个数据集上验证了它的效果。",
			"关键词：方法；实验",
			"1 研究背景", // a bare number counts only in sequence
		}
		for i := range n {
			ps = append(ps, fmt.Sprintf("这是%s正文的第%d段，讨论研究背景、已有工作的不足以及本文的思路。为了说明问题，我们给出了一个较长的例子：在第%d组实验中，样本被分成训练集和测试集，两者互不重叠，模型在训练集上学习参数，在测试集上报告结果，并与三种基线方法逐项比较，结果显示差距稳定而明显。", title, i+1, i+1))
			if i == n/2 {
				ps = append(ps, "2 研究方法")
			}
		}
		return append(ps, "参考文献", "[1] 张三. 一种方法[J]. 计算机学报, 2020, 43(5): 1-15.")
	}
	first, second := thesis("城市湿地保护研究", 30), thesis("茶文化传播研究", 30)
	var doc Document
	for _, text := range append(first, second...) {
		doc.Paragraphs = append(doc.Paragraphs, Paragraph{Text: text})
	}
	Structure(&doc)
	front, body := 0, 0
	for i, p := range doc.Paragraphs {
		if strings.Contains(p.Text, "正文的第") {
			body++
			if p.FrontMatter || p.Section != Body {
				front++
				if front <= 3 {
					t.Errorf("paragraph %d is %s, front matter %v: %.20s…", i, p.Section, p.FrontMatter, p.Text)
				}
			}
		}
	}
	if front > 0 || body != 60 {
		t.Errorf("%d of %d body paragraphs filed as front matter", front, body)
	}
	for _, p := range doc.Paragraphs {
		if strings.HasPrefix(p.Text, "本人郑重声明") && !p.FrontMatter {
			t.Error("a declaration is not front matter")
		}
	}
}
