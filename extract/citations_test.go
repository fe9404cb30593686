package extract

import (
	"reflect"
	"testing"
)

// TestCitations: a quotation's citation counts when it points at an entry of the reference list or
// a note, and not when it points at nothing.
func TestCitations(t *testing.T) {
	refs := []Paragraph{
		{Text: "参考文献", Section: References, Heading: true},
		{Text: "[1] 王芳，李明. 复制检测方法综述[J]. 计算机学报, 2019, 42(3): 1-20.", Section: References},
		{Text: "[2] Smith J, Chen M. Fingerprinting text at scale[J]. Computing Surveys, 2017, 9(2): 10-30.", Section: References},
		{Text: "[3] 陈红. 学术规范[M]. 北京: 商务印书馆, 2015.", Section: References},
	}
	// Entries run together in one paragraph, as a PDF's lines may come out, and a list numbered by
	// Word (no labels in the text).
	runTogether := []Paragraph{{Text: "References", Section: References, Heading: true},
		{Text: "[1] A. Larsen. Tides. 2001. [2] B. Okafor. Birds. 2003. [3] C. Rossi. Mud. 2005. [4] D. Novak. Reeds. 2007.", Section: References}}
	autoNumbered := []Paragraph{{Text: "References", Section: References, Heading: true},
		{Text: "Larsen A. Tides. 2001.", Section: References}, {Text: "Okafor B. Birds. 2003.", Section: References}}
	notes := []Paragraph{{Text: "Body text.", Section: Body, Notes: []string{"王芳：《复制检测》，2019年。", "Ibid."}}}
	tests := []struct {
		name  string
		paras []Paragraph
		text  string
		cited bool
	}{
		{"numbered entry", refs, `研究指出，“复制检测需要兼顾速度与精度，二者往往难以同时满足。”[2]`, true},
		{"list and range inside the list", refs, `“复制检测需要兼顾速度与精度，二者往往难以同时满足。”[1,3]，另见“指纹方法对局部改写的鲁棒性有限，需要结合对齐。”[1-3]`, true},
		{"citing phrase", refs, `文献[3]认为，“学术规范是学术共同体的基本约定，违反它损害整个共同体。”`, true},
		{"Chinese author and year", refs, `“复制检测需要兼顾速度与精度，二者往往难以同时满足。”（王芳，2019）`, true},
		{"Chinese author and others", refs, `“复制检测需要兼顾速度与精度，二者往往难以同时满足。”（王芳等，2019）`, true},
		{"English author, others, page", refs, `As noted, "fingerprinting alone cannot locate the copied spans inside a paragraph" (Smith et al., 2017, p. 3).`, true},
		{"author before the year", refs, `Smith (2017) argues that "alignment is what turns candidate documents into evidence of copying".`, true},
		{"labels of entries run together", runTogether, `As shown, "the mud holds thousands of small worms in every square metre" [4].`, true},
		{"Word's numbering", autoNumbered, `As shown, "the mud holds thousands of small worms in every square metre" [2].`, true},
		{"a note", notes, `“复制检测需要兼顾速度与精度，二者往往难以同时满足。”^2`, true},
		{"a note's author and year", notes, `“复制检测需要兼顾速度与精度，二者往往难以同时满足。”（王芳，2019）`, true},

		{"number past the list", refs, `研究指出，“复制检测需要兼顾速度与精度，二者往往难以同时满足。”[4]`, false},
		{"range past the list", refs, `“复制检测需要兼顾速度与精度，二者往往难以同时满足。”[2-5]`, false},
		{"one of a list past it", refs, `“复制检测需要兼顾速度与精度，二者往往难以同时满足。”[1,9]`, false},
		{"citing phrase past the list", refs, `文献[12]认为，“学术规范是学术共同体的基本约定，违反它损害整个共同体。”`, false},
		{"author not in the list", refs, `“复制检测需要兼顾速度与精度，二者往往难以同时满足。”（赵刚，2019）`, false},
		{"author of another year", refs, `As noted, "fingerprinting alone cannot locate the copied spans inside a paragraph" (Smith, 2021).`, false},
		{"no reference list", nil, `研究指出，“复制检测需要兼顾速度与精度，二者往往难以同时满足。”[1]`, false},
		{"no notes", refs[:1], `“复制检测需要兼顾速度与精度，二者往往难以同时满足。”^1`, false},
		{"past Word's numbering", autoNumbered, `As shown, "the mud holds thousands of small worms in every square metre" [3].`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := DocumentCitations(tc.paras)
			cited, uncited, marks := c.Spans(tc.text)
			all := QuotedSpans(tc.text)
			if len(all) == 0 {
				t.Fatalf("no quotation in %q", tc.text)
			}
			if tc.cited && (!reflect.DeepEqual(cited, all) || uncited != nil || marks != nil) {
				t.Errorf("cited %v, uncited %v (%q): want every quotation %v cited", cited, uncited, marks, all)
			}
			if !tc.cited && (cited != nil || !reflect.DeepEqual(uncited, all) || len(marks) != len(all)) {
				t.Errorf("cited %v, uncited %v (%q): want every quotation %v uncited, with its mark", cited, uncited, marks, all)
			}
		})
	}
}

// A quotation inside a cited one is cited with it; a nested one whose citation points at nothing
// does not make the outer one uncited.
func TestCitationsNested(t *testing.T) {
	c := DocumentCitations([]Paragraph{{Text: "[1] 王芳. 复制检测[J]. 2019.", Section: References}})
	text := `“研究者曾说“这种方法不能定位复制的片段”[7]，因此需要对齐的方法来补充。”[1]`
	cited, uncited, _ := c.Spans(text)
	if len(cited) != 1 || cited[0] != [2]int{0, len([]rune(`“研究者曾说“这种方法不能定位复制的片段”[7]，因此需要对齐的方法来补充。”`))} || uncited != nil {
		t.Errorf("cited %v, uncited %v: want the outer quotation cited, nothing uncited", cited, uncited)
	}
}

// TestRunningText: a library paragraph is running text when it stands in a counted section, is no
// heading, and reads neither as a reference entry nor as a declaration.
func TestRunningText(t *testing.T) {
	prose := "芦苇、香蒲和菖蒲是北方城市湿地中最常见的挺水植物。它们的茎秆中空，可以把空气输送到根部，使根际土壤保持一定的含氧量。"
	tests := []struct {
		section string
		heading bool
		text    string
		want    bool
	}{
		{"body", false, prose, true},
		{"abstract", false, prose, true},
		{"notes", false, prose, true},
		{"body", false, "In 2019 the survey counted the birds of the estuary twice, in spring and in autumn, and found fewer waders than before.", true},
		{"body", true, "第二章 湿地植物", false},
		{"references", false, prose, false},
		{"front", false, prose, false},
		{"body", false, "[3] 王芳. 湿地植物与水质[J]. 生态学报, 2019, 39(2): 1-10.", false},
		{"body", false, "Smith J, Chen M. Fingerprinting text at scale. Computing Surveys, 2017, 9(2), pp. 10-30.", false},
		{"body", false, "本人郑重声明：所呈交的学位论文是本人在导师指导下独立进行研究工作所取得的成果。", false},
	}
	for _, tc := range tests {
		if got := RunningText(tc.section, tc.heading, tc.text); got != tc.want {
			t.Errorf("RunningText(%q, %v, %q) = %v, want %v", tc.section, tc.heading, tc.text, got, tc.want)
		}
	}
}

// TestReferenceEntry: an entry reads as one by more than its label.
func TestReferenceEntry(t *testing.T) {
	prose := "芦苇、香蒲和菖蒲是北方城市湿地中最常见的挺水植物。它们的茎秆中空，可以把空气输送到根部，使根际土壤保持一定的含氧量。"
	for text, want := range map[string]bool{
		"[3] 王芳. 湿地植物与水质[J]. 生态学报, 2019, 39(2): 1-10.":                                              true,
		"Smith J, Chen M, et al. Fingerprinting text at scale. Computing Surveys, 2017, pp. 10-30.": true,
		"[21] " + prose: false,
		"21. " + prose:  false,
		prose:           false,
	} {
		if got := ReferenceEntry(text); got != want {
			t.Errorf("ReferenceEntry(%q) = %v, want %v", text, got, want)
		}
	}
}
