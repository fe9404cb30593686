package check

import (
	"testing"

	"thesischeck/report"
)

// A library paragraph cut in two with the student's own sentence between the halves: both halves
// are credited to the source paragraph, the short closing half too; the same short sentence with no
// copied neighbour is not a copy.
func TestSplitParagraph(t *testing.T) {
	source := "为了恢复稳定，你应该移除相应的本地配置文件并重新启动 GUI 程序。你可能需要阅读旧的配置文件内容以便之后恢复配置信息。（别将它们删得太快了。）"
	lib := libraryOf(t, "系统维护手册\n\n"+source+"\n\n湿地被称为城市的肾脏，它能够截留地表径流中的泥沙和污染物，缓解暴雨带来的洪涝压力。\n")
	head := "为了恢复稳定，你应该移除相应的本地配置文件并重新启动 GUI 程序。你可能需要阅读旧的配置文件内容以便之后恢复配置信息。"
	tail := "当 Debian 重构它的档案库结构时，这些专用的代理工具往往需要软件包维护者重写代码，并可能在一段时间内无法使用。（别将它们删得太快了。）"
	alone := "实验结束以后应当整理好所有的记录。（别将它们删得太快了。）"
	r := checkText(t, lib, nil, head, tail, originals[0], alone)
	for _, text := range []string{head, tail} {
		p := findPara(t, r, text)
		if p.Status != report.StatusCopied || len(p.Matches) == 0 || p.Matches[0].SourceParagraph != 1 {
			t.Errorf("%q: status %q, matches %+v", text, p.Status, p.Matches)
		}
	}
	if m := findPara(t, r, tail).Matches; len(m) > 0 && (len(m[0].Spans) != 1 || string([]rune(tail)[m[0].Spans[0][0]:m[0].Spans[0][1]]) != "（别将它们删得太快了。）") {
		t.Errorf("the closing half's span: %+v", m[0].Spans)
	}
	if p := findPara(t, r, alone); p.Status == report.StatusCopied {
		t.Errorf("a short sentence with no copied neighbour: status %q", p.Status)
	}
}
