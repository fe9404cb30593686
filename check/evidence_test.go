package check

import (
	"strings"
	"testing"

	"thesischeck/report"
)

// A short phrase that another document only words alike — instructions two manuals give the same
// way — does not flag a paragraph; a sentence copied with a word or two swapped, short or long,
// still does.
func TestNearStockPhrasing(t *testing.T) {
	manual := []string{
		"按住 Ctrl 键并单击鼠标，可以选择多个不相邻的单元格区域。选中区域后，状态栏会显示所选单元格的数目和数值的总和。",
		"在页脚插入页码字段时，请打开插入菜单并选择字段下的页码命令。页码的格式可以在页面样式的对话框中设置。",
		"命令和置于其后的圆括号内的手册页章节数（可选），由打字机字体进行标记，就像 bash(1)。我们鼓励您这样通过输入以下命令来获得信息。",
		"授权文件的位置通过环境变量确定，X 显示通过另一个环境变量确定。由于这些环境变量通常会被自动设置，不需要另行指定。例如，下面的 \"gitk\"。",
		"湿地被称为城市的肾脏，它能够截留地表径流中的泥沙和污染物，缓解暴雨带来的洪涝压力，并在干旱季节向河道补充水源。",
	}
	lib := libraryOf(t, "办公软件使用手册\n\n"+strings.Join(manual, "\n\n")+"\n")
	tests := []struct {
		text   string
		copied bool
	}{
		// 20 letters at 0.72 of the source's bigrams, and 23 at 0.53: alike, not copied.
		{"选中文本后，按住 Ctrl 键再单击鼠标左键，即可选择多个不连续的区域。本节的实验都在同一台计算机上完成。", false},
		{"要在页眉中插入页码字段，请单击插入菜单，然后选择字段中的页码。本章的实验数据来自学校图书馆。", false},
		// A copied sentence with two words swapped (20 letters at 0.79), and a longer one reworded
		// more (0.69, 27 letters).
		{"如果系统严重损坏了，应该先把数据备份到安全的地方。我们鼓励您这样借助键入以下命令来获得信息。", true},
		{"使用前请先阅读说明。由于此类环境变量通常被自动设定，不必须另行指定。比如，下面的 \"gitk\"。", true},
		// A loose phrase beside a sentence copied from the same source paragraph.
		{"选中文本后，按住 Ctrl 键再单击鼠标左键，即可选择多个不连续的区域。选中区域以后，状态栏就会显示所选单元格数目和数值总和。", true},
	}
	var paras []string
	for _, tt := range tests {
		paras = append(paras, tt.text)
	}
	r := checkText(t, lib, nil, paras...)
	for _, tt := range tests {
		p := findPara(t, r, tt.text)
		if got := p.Status == report.StatusCopied; got != tt.copied {
			t.Errorf("%q: status %q, want copied %v (matches %+v)", tt.text, p.Status, tt.copied, p.Matches)
		}
	}
}
