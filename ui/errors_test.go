package ui

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"thesischeck/extract"
	"thesischeck/library"
	"thesischeck/report"
)

func TestErrorText(t *testing.T) {
	enc := fmt.Errorf("extract /home/s/论文.pdf: %w", extract.ErrEncrypted)
	tests := []struct {
		lang string
		err  error
		want string
	}{
		{langZH, enc, "论文.pdf：文件有密码保护，无法读取"},
		{langEN, enc, "extract /home/s/论文.pdf: password protected"},
		{langZH, fmt.Errorf("extract a.docx: %w: not a valid ZIP", extract.ErrCorrupt), "a.docx：文件已损坏"},
		{langZH, fmt.Errorf("library /x/lib: %w", library.ErrLocked), "lib：比对库正被另一个 ThesisCheck 程序使用，请关闭它后重试"},
		{langZH, fmt.Errorf("verify /r/x.pdf: %w: the PDF carries no embedded report", report.ErrNoReport), "x.pdf：不是 ThesisCheck 报告"},
		{langZH, fmt.Errorf("verify /r/bomb.pdf: %w", report.ErrEmbeddedTooLarge), "bomb.pdf：内嵌文件解压后过大，任何 ThesisCheck 报告都不会这样，已拒绝"},
		{langZH, errors.New("disk full"), "disk full"},
		{langZH, fmt.Errorf("extract /x/pipe.txt: %w", extract.NotRegular(os.ModeNamedPipe)), "pipe.txt：不是普通文件（命名管道、设备或套接字），不能读取"},
	}
	for _, tt := range tests {
		if got := (tr{lang: tt.lang}).errorText(tt.err); got != tt.want {
			t.Errorf("%s %v: %q, want %q", tt.lang, tt.err, got, tt.want)
		}
	}
}

// TestWarningsTranslated: every kind of warning a report can carry has its line in both languages
// (the core's English message is shown otherwise, in a Chinese window too).
func TestWarningsTranslated(t *testing.T) {
	for _, lang := range []string{langZH, langEN} {
		for _, k := range extract.WarningKinds {
			if !(tr{lang: lang}).Has("warn." + string(k)) {
				t.Errorf("%s: no warn.%s", lang, k)
			}
		}
	}
}
