package extract

import "testing"

// TestDOCXRuby: a phonetic guide's text is read after its paragraph when it is more than the
// sounds of its base; a copy written as guides over blank bases is read, and junk in guides over
// a copy leaves the copy whole.
func TestDOCXRuby(t *testing.T) {
	ruby := func(hps, guide, base string) string {
		return `<w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="center"/><w:hps w:val="` + hps + `"/><w:hpsRaise w:val="22"/>` +
			`<w:hpsBaseText w:val="21"/><w:lid w:val="zh-CN"/></w:rubyPr><w:rt><w:r><w:t xml:space="preserve">` + guide +
			`</w:t></w:r></w:rt><w:rubyBase><w:r><w:t xml:space="preserve">` + base + `</w:t></w:r></w:rubyBase></w:ruby></w:r>`
	}
	para := func(runs string) string { return `<w:p><w:pPr><w:pStyle w:val="Body"/></w:pPr>` + runs + `</w:p>` }
	const copy1, copy2 = "深度学习是机器学习的一个分支，", "它以人工神经网络为架构。"
	tests := []struct {
		name   string
		body   string
		paras  []string
		hidden []hiddenWant
	}{
		{"pinyin over its characters left out", para(wRun("", "我们研究") + ruby("10", "hàn", "汉") + ruby("10", "zì", "字") + wRun("", "的结构。")),
			[]string{"我们研究汉字的结构。"}, nil},
		{"a copy as guides over blank bases", para(ruby("21", copy1, " ") + ruby("21", copy2, "")),
			[]string{copy1 + copy2}, nil},
		{"a copy beside plain text, its guides over blanks", para(wRun("", copy1) + ruby("21", copy2, " ")),
			[]string{copy1 + copy2}, nil},
		{"an English copy as guides over blanks", para(wRun("", "Deep learning ") + ruby("21", "is a branch of machine learning", " ")),
			[]string{"Deep learning is a branch of machine learning"}, nil},
		{"junk guides over a copy: the copy whole, the junk after it", para(ruby("10", "的一是", "深度学习是") + ruby("10", "在不了", "机器学习的一个分支，")),
			[]string{copy1 + "的一是在不了"}, nil},
		{"a guide in two lines is one", para(ruby("21", `深度学习是</w:t><w:br/><w:t>机器学习`, "")),
			[]string{"深度学习是 机器学习"}, nil},
		{"junk guides at a point: hidden", para(wRun("", "深度学习是") + ruby("2", "的一是", "") + wRun("", "机器学习的一个分支，")),
			[]string{copy1}, []hiddenWant{{text: "的一是", reasons: []string{HideTiny}, para: 0, offset: -1}}},
		{"white guides over blanks: hidden", para(wRun("", copy1) + ruby("21", `</w:t></w:r><w:r><w:rPr><w:color w:val="FFFFFF"/></w:rPr><w:t>的一是`, "")),
			[]string{copy1}, []hiddenWant{{text: "的一是", reasons: []string{HideWhite}, para: 0, offset: -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkDOCXHidden(t, tt.body, nil, tt.paras, tt.hidden)
		})
	}
}
