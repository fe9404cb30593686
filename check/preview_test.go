package check

import (
	"testing"

	"thesischeck/extract"
)

// TestPreview: the parts of a thesis with front matter, abstract, chapters and references, in
// order, each with what a check reads of it.
func TestPreview(t *testing.T) {
	doc := &extract.Document{}
	for _, text := range []string{
		"基于指纹的复制检测方法研究", "硕士学位论文", "指导教师：王强教授",
		"独创性声明", "本人郑重声明：所呈交的学位论文是本人在导师指导下进行的研究工作及取得的研究成果。",
		"摘要", "本文研究论文复制检测，提出一种结合指纹与对齐的方法，在多个数据集上验证了效果。",
		"第一章 绪论", "学位论文数量快速增长，人工审查已经难以满足需要，自动化的复制检测系统应运而生，本章介绍研究背景。",
		"第二章 方法", "本章给出方法：先把段落切成词，再计算指纹，最后对候选段落做序列对齐，找出复制的片段。",
		"参考文献", "[1] 张三. 一种方法[J]. 计算机学报, 2020, 43(5): 1-15.",
	} {
		doc.Paragraphs = append(doc.Paragraphs, extract.Paragraph{Text: text})
	}
	extract.Structure(doc)
	parts := Preview(doc, nil)
	want := []struct {
		name    string
		checked bool
		leftOut string
	}{
		{"front", false, "front matter"}, {"abstract", true, "headings"}, {"第一章 绪论", true, "headings"},
		{"第二章 方法", true, "headings"}, {"references", false, "references"},
	}
	if len(parts) != len(want) {
		t.Fatalf("parts %+v, want %d", parts, len(want))
	}
	for i, w := range want {
		p := parts[i]
		if p.Name != w.name || (p.Checked > 0) != w.checked || p.LeftOut != w.leftOut || p.Checked > p.Chars {
			t.Errorf("part %d: %+v, want %s checked %v, left out %q", i, p, w.name, w.checked, w.leftOut)
		}
	}
	// With the front matter asked for, the title page is checked.
	if p := Preview(doc, &Options{IncludeFrontMatter: true})[0]; p.Checked == 0 {
		t.Errorf("front matter included, still not checked: %+v", p)
	}
}
