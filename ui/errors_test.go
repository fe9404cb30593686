package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
		{langZH, fmt.Errorf("extract a.docx: %w: not a valid ZIP", extract.ErrCorrupt), "a.docx：文件已损坏（not a valid ZIP）"},
		{langZH, fmt.Errorf("library /x/lib: %w", library.ErrLocked), "lib：比对库正被另一个 ThesisCheck 程序使用，请关闭它后重试"},
		{langZH, fmt.Errorf("verify /r/x.pdf: %w: the PDF carries no embedded report", report.ErrNoReport), "x.pdf：不是 ThesisCheck 报告（the PDF carries no embedded report）"},
		{langZH, fmt.Errorf("verify /r/bomb.pdf: %w", report.ErrEmbeddedTooLarge), "bomb.pdf：内嵌文件解压后过大，任何 ThesisCheck 报告都不会这样，已拒绝"},
		{langZH, errors.New("disk full"), "disk full"},
		{langZH, fmt.Errorf("extract /x/论文.doc: %w", extract.ErrOldOffice), "论文.doc：这是 Word 97-2003 格式的文档或 2007 年以前的其他办公文件：请在 Word 或 WPS 中“另存为” DOCX 再检测"},
		{langZH, fmt.Errorf("extract /x/p.pdf: %w: 80 characters", extract.ErrUnmapped), "p.pdf：它的字体没有说明所画的是哪些字（缺少字符映射表），文字无法读取（80 characters）"},
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

// TestErrorAdvice: a refused file's message keeps its reason and says what to do, for a scan, a
// password and a WPS file, in both languages.
func TestErrorAdvice(t *testing.T) {
	tests := []struct {
		lang string
		err  error
		want []string
	}{
		{langZH, fmt.Errorf("extract /s/扫描版.pdf: %w", extract.ErrNoText), []string{"扫描版.pdf：没有文字层", "OCR"}},
		{langEN, fmt.Errorf("extract /s/scan.pdf: %w", extract.ErrNoText), []string{"extract /s/scan.pdf: no text layer", "run OCR"}},
		{langZH, fmt.Errorf("extract /s/a.pdf: %w", extract.ErrEncrypted), []string{"a.pdf：文件有密码保护", "去掉密码"}},
		{langZH, fmt.Errorf("extract /s/论文.wps: %w", extract.ErrUnsupported), []string{"论文.wps：不是 PDF、DOCX 或文本文件", "另存为” DOCX"}},
		{langEN, fmt.Errorf("extract /s/thesis.wps: %w: not a valid ZIP", extract.ErrCorrupt), []string{"not a valid ZIP", "Save As → DOCX"}},
	}
	for _, tt := range tests {
		got := (tr{lang: tt.lang}).withAdvice(tt.err)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s %v: %q lacks %q", tt.lang, tt.err, got, w)
			}
		}
	}
	if got := (tr{lang: langEN}).withAdvice(errors.New("disk full")); got != "disk full" {
		t.Errorf("advice for an error with none: %q", got)
	}
}

// TestCountWords: English counts say "1 group", "2 groups"; Chinese needs no plural.
func TestCountWords(t *testing.T) {
	en, zh := tr{lang: langEN}, tr{lang: langZH}
	for _, c := range []struct {
		got, want string
	}{
		{en.T("cmp.threshold", "15.0%", en.T("cmp.nPairs", 1), en.T("cmp.nGroups", 1)), "Threshold 15.0%: 1 similar pair, 1 group. Drag the line in the histogram to change it."},
		{en.T("cmp.nGroups", 2), "2 groups"},
		{en.T("cmp.nPairs", 0), "0 similar pairs"},
		{zh.T("cmp.nGroups", 1), "1 个群组"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// TestEnglishSingular: a count of one reads "1 document", not "1 documents"; other counts and
// "1 of 9" stay as they are.
func TestEnglishSingular(t *testing.T) {
	en := tr{lang: langEN}
	for _, c := range []struct{ got, want string }{
		{en.T("lib.totals", 1, 1, 1), "1 document, 1 paragraph, 1 character"},
		{en.T("lib.totals", 2, 11, 21), "2 documents, 11 paragraphs, 21 characters"},
		{en.T("rep.libSize", 1), "Library of 1 document"},
		{en.T("rep.filter.shown", 1, 9), "1 of 9 paragraphs shown"},
		{en.T("lib.checkFound", 1), "The check found 1 problem:"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	if zh := (tr{lang: langZH}).T("lib.totals", 1, 1, 1); strings.Contains(zh, "document") {
		t.Errorf("Chinese: %q", zh)
	}
}

// runEnv makes the test binary open the app as main.go does, on the library it names.
const runEnv = "THESISCHECK_UI_RUN"

// Where no display can be used, the app says so in one line and exits 1: it does not panic (Fyne
// panics making a window when GLFW found no display: "NotInitialized: The GLFW library is not
// initialized", after a goroutine dump).
func TestRunWithoutDisplay(t *testing.T) {
	// A display number no X server of this machine listens on.
	free := 4242
	for ; free < 4300; free++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", free)); os.IsNotExist(err) {
			break
		}
	}
	for _, c := range []struct{ display, want string }{
		{"", "(neither DISPLAY nor WAYLAND_DISPLAY is set)"},
		{fmt.Sprintf(":%d", free), fmt.Sprintf("(DISPLAY=\":%d\"; the window did not open: ", free)},
	} {
		t.Run("DISPLAY="+c.display, func(t *testing.T) {
			home := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), runEnv+"="+filepath.Join(home, "library"), "DISPLAY="+c.display, "WAYLAND_DISPLAY=",
				"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"))
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("exit: %v, want status 1; output:\n%s", err, out)
			}
			text := string(out)
			if strings.Contains(text, "goroutine ") || strings.Contains(text, "panic") {
				t.Errorf("the app panicked:\n%s", text)
			}
			line := "thesischeck: no display to open the app on " + c.want
			if !strings.Contains(text, line) || !strings.Contains(text, "use the command line (thesischeck help)\n") {
				t.Errorf("output:\n%s\nwant the line %q…", text, line)
			}
		})
	}
}
