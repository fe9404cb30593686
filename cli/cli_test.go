package cli

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"thesischeck/internal/hostile"
	"thesischeck/internal/tempconfig"
	"thesischeck/report"
)

// The bad-input tests run the commands in a child process (this test binary, re-executed), so that
// each command's peak memory can be measured on its own and a panic or a hang cannot take the test
// runner with it.
const (
	helperEnv  = "THESISCHECK_CLI_HELPER" // the commands to run, as JSON
	resultMark = "cli-helper-result "
	badDir     = "../extract/testdata/bad"
)

// cmdResult is what the child reports for one command. Shown is what a user sees on the terminal's
// error stream: what Run wrote, plus the line main prints for an error Run returns.
type cmdResult struct {
	Args    []string
	Err     string
	Failed  bool // errors.Is(err, ErrFailed)
	Usage   bool // errors.Is(err, ErrUsage)
	Exit    int  // the exit status main gives err
	Stdout  string
	Shown   string
	Seconds float64
	PeakMB  float64
}

// TestHelperProcess is the child: it runs the commands in $THESISCHECK_CLI_HELPER one after the
// other and prints a result line for each. Run directly it does nothing.
func TestHelperProcess(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		return
	}
	var cmds [][]string
	if err := json.Unmarshal([]byte(spec), &cmds); err != nil {
		fmt.Println("bad helper spec:", err)
		os.Exit(3)
	}
	for _, args := range cmds {
		debug.FreeOSMemory()
		// Writing 5 to clear_refs resets the peak resident size (VmHWM) to the current size.
		if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
			fmt.Println("cannot reset peak memory:", err)
			os.Exit(3)
		}
		var stdout, stderr bytes.Buffer
		errw := &stderr
		if args[0] == "library" && args[1] == "add" {
			errw = &stdout // one stream, to see the order of summary and failures
		}
		start := time.Now()
		err := Run(args, func(string, string) error { return errors.New("no GUI in tests") }, &stdout, errw)
		r := cmdResult{Args: args, Stdout: stdout.String(), Shown: errw.String(), Seconds: time.Since(start).Seconds(), PeakMB: peakMB()}
		if err != nil {
			r.Err = err.Error()
			r.Failed, r.Usage = errors.Is(err, ErrFailed), errors.Is(err, ErrUsage)
			// As main maps errors to exit statuses and prints them.
			switch {
			case r.Usage || errors.Is(err, ErrUntrusted):
				r.Exit = 2
			case r.Failed:
				r.Exit = 1
			default:
				r.Exit = 1
				r.Shown += "thesischeck: " + err.Error() + "\n"
			}
		}
		line, _ := json.Marshal(r)
		fmt.Printf("%s%s\n", resultMark, line)
	}
	os.Exit(0)
}

func peakMB() float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024
		}
	}
	return -1
}

// runChild runs cmds in a child process and returns their results.
func runChild(t *testing.T, cmds [][]string) []cmdResult {
	t.Helper()
	// The signing key and default library must not land in the real home.
	return runChildIn(t, t.TempDir(), cmds)
}

// runChildIn is runChild with home as the home, configuration and data directory.
func runChildIn(t *testing.T, home string, cmds [][]string) []cmdResult {
	t.Helper()
	spec, _ := json.Marshal(cmds)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.timeout=20m")
	cmd.Env = append(os.Environ(), helperEnv+"="+string(spec), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var res []cmdResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), resultMark); ok {
			var r cmdResult
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			res = append(res, r)
		}
	}
	if err != nil || len(res) != len(cmds) {
		t.Fatalf("child process: %v, %d of %d results\nstdout:\n%s\nstderr:\n%s", err, len(res), len(cmds), tail(out), tail(stderr.Bytes()))
	}
	return res
}

func tail(b []byte) string {
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// words is a made-up vocabulary for generated prose: random words in random order make text whose
// word bigrams are all but unique, as real prose is.
func words(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		for j, l := 0, 2+r.Intn(8); j < l; j++ {
			b.WriteByte(byte('a' + r.Intn(26)))
		}
		if r.Intn(12) == 0 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// deflateBomb returns a raw deflate stream of n MiB of the byte c, built by repeating one
// compressed MiB, so that making a gigabyte bomb takes milliseconds.
func deflateBomb(n int, c byte) (data []byte, crc uint32, size uint64) {
	mib := bytes.Repeat([]byte{c}, 1<<20)
	var buf bytes.Buffer
	fw, _ := flate.NewWriter(&buf, flate.BestCompression)
	fw.Write(mib)
	fw.Flush() // ends the block on a byte boundary: the segment can be repeated
	seg := bytes.Clone(buf.Bytes())
	buf.Reset()
	fw.Close()
	end := buf.Bytes()
	h := crc32.NewIEEE()
	var out bytes.Buffer
	for i := 0; i < n; i++ {
		out.Write(seg)
		h.Write(mib)
	}
	out.Write(end)
	return out.Bytes(), h.Sum32(), uint64(n) << 20
}

// zipBomb writes a DOCX whose word/document.xml inflates to n MiB. With lie, the ZIP directory
// claims 4 KiB, as a crafted bomb does to get past a size check.
func zipBomb(t *testing.T, path string, n int, lie bool) {
	t.Helper()
	data, crc, size := deflateBomb(n, ' ')
	if lie {
		size = 4096
	}
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "word/document.xml", Method: zip.Deflate, CRC32: crc,
		CompressedSize64: uint64(len(data)), UncompressedSize64: size})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	zw.Close()
	if err := os.WriteFile(path, zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// paragraphBomb writes a DOCX of 60 MB of empty-looking one-letter paragraphs: under the part size
// limit, but millions of paragraphs.
func paragraphBomb(t *testing.T, path string) {
	t.Helper()
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create("word/document.xml")
	fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	para := bytes.Repeat([]byte("<w:p><w:r><w:t>a</w:t></w:r></w:p>"), 30000)
	for n := 0; n < 60<<20; n += len(para) {
		w.Write(para)
	}
	fmt.Fprint(w, `</w:body></w:document>`)
	zw.Close()
	if err := os.WriteFile(path, zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

type badCase struct {
	name string
	make func(t *testing.T, path string) // nil: copied from testdata/bad
	want string                          // the reason the one error line gives; "" when the file is read
}

func badCases() []badCase {
	r := rand.New(rand.NewSource(6))
	longText := words(r, 350_000) // about 2 MB on one line: read, in pieces
	return []badCase{
		{name: "truncated.pdf", want: "file is damaged: the end of the file is missing"},
		{name: "corrupt.pdf", want: "file is damaged"},
		{name: "random.pdf", want: "not a PDF, DOCX or text file"},
		{name: "empty.txt", want: "the file is empty"},
		{name: "encrypted.pdf", want: "password protected"},
		{name: "scanned.pdf", want: "no text layer — scanned?"},
		{name: "binary.txt", want: "not a PDF, DOCX or text file"},
		{name: "blank.txt", want: "no paragraphs"},
		{name: "noparas.docx", want: "no paragraphs"},
		{name: "pdf-named.docx"}, // a PDF under a Word name: read as the PDF it is
		// 120,000 glyphs of 1-pt type a page from a form drawn 2,000 times: capped (131,072 a
		// page), read, and too small to see.
		{name: "glyphs.pdf", want: "all of its text is hidden: 393216 characters (1 pt"},
		{name: "bomb.docx", want: "file is too large: word/document.xml expands to 2048 MB", make: func(t *testing.T, p string) { zipBomb(t, p, 2048, false) }},
		{name: "bomb-lie.docx", want: "file is damaged", make: func(t *testing.T, p string) { zipBomb(t, p, 2048, true) }},
		{name: "paragraphs.docx", want: "more than 100000 paragraphs", make: paragraphBomb},
		{name: "longline.txt", want: "more than 4 MB of text", make: func(t *testing.T, p string) {
			line := bytes.Repeat([]byte("a word in a line that never ends "), 50<<20/33)
			if err := os.WriteFile(p, line, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "longline-2mb.txt", make: func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte(longText), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		// Issue 17's hostile small files: each read, or refused with one line, in bounded time and memory.
		{name: "footnotes.docx", make: writeFile(hostile.FootnoteBomb(300, 20_000))}, // read once, warned
		{name: "saves.pdf", want: "graphics states nested more than 1024 deep", make: writeFile(hostile.DeepSaves(1_000_000))},
		{name: "forms.pdf", want: "forms nested more than 16 deep", make: writeFile(hostile.NestedForms(100))},
		{name: "inflates.pdf", want: "a page's content runs past 64 MB", make: writeFile(hostile.StreamBomb(4096))},
		{name: "docx-named.txt", make: func(t *testing.T, p string) { // a DOCX under a text name: read as the DOCX it is
			data, err := os.ReadFile("../extract/testdata/docx/pandoc-zh.docx")
			if err != nil {
				t.Fatal(err)
			}
			writeFile(data)(t, p)
		}},
		{name: "pipe.txt", want: "not a regular file (a named pipe)", make: func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	}
}

func writeFile(data []byte) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		t.Helper()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// nameWarnings are the files read although their name names another format: check and library
// add warn about each.
var nameWarnings = map[string]string{
	"pdf-named.docx": "named .docx but its content is a PDF",
	"docx-named.txt": "named .txt but its content is a Word document",
}

// errorLines are the lines a user reads as errors.
func errorLines(shown string) []string {
	var out []string
	for _, l := range strings.Split(shown, "\n") {
		if strings.HasPrefix(l, "thesischeck: ") {
			out = append(out, l)
		}
	}
	return out
}

// TestBadFiles runs check and library add on each bad file: each gives exactly one line naming the
// file and the reason, a failure, no panic, within a minute and under 1 GiB; the files that can be
// read are read. Then a folder of all of them together with good files is imported.
func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	files := filepath.Join(dir, "files")
	if err := os.Mkdir(files, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := badCases()
	for _, c := range cases {
		p := filepath.Join(files, c.name)
		if c.make != nil {
			c.make(t, p)
			continue
		}
		data, err := os.ReadFile(filepath.Join(badDir, c.name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Good files for the library the checks run against and for the mixed folder.
	r := rand.New(rand.NewSource(1))
	var good []string
	for i := 0; i < 4; i++ {
		p := filepath.Join(files, fmt.Sprintf("good-%d.txt", i))
		text := fmt.Sprintf("Good document %d\n\n%s\n\n%s\n", i, words(r, 120), words(r, 150))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		good = append(good, p)
	}
	data, err := os.ReadFile(filepath.Join(badDir, "good.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	goodPDF := filepath.Join(files, "good.pdf")
	if err := os.WriteFile(goodPDF, data, 0o644); err != nil {
		t.Fatal(err)
	}
	good = append(good, goodPDF)

	checkLib, mixLib := filepath.Join(dir, "check-lib"), filepath.Join(dir, "mix-lib")
	cmds := [][]string{append([]string{"library", "add", "--library", checkLib}, good...)}
	for _, c := range cases {
		cmds = append(cmds, []string{"check", "--library", checkLib, filepath.Join(files, c.name)})
	}
	for _, c := range cases {
		cmds = append(cmds, []string{"library", "add", "--library", filepath.Join(dir, "lib-"+c.name), filepath.Join(files, c.name)})
	}
	cmds = append(cmds, []string{"library", "add", "--library", mixLib, files}, []string{"library", "list", "--library", mixLib, "--json"})

	res := runChild(t, cmds)
	if res[0].Err != "" {
		t.Fatalf("adding the good files: %s\n%s", res[0].Err, res[0].Stdout)
	}
	t.Logf("%-40s %-18s %8s %8s  %s", "file", "command", "seconds", "peak MB", "message")
	for i, c := range cases {
		path := filepath.Join(files, c.name)
		for _, r := range []cmdResult{res[1+i], res[1+len(cases)+i]} {
			command := strings.Join(r.Args[:min(2, len(r.Args))], " ")
			if r.Args[0] == "check" {
				command = "check"
			}
			lines := errorLines(r.Shown)
			msg := strings.Join(lines, " | ")
			t.Logf("%-40s %-18s %8.2f %8.0f  %s", c.name, command, r.Seconds, r.PeakMB, msg)
			if r.PeakMB <= 0 || r.PeakMB >= 1024 {
				t.Errorf("%s %s: peak memory %.0f MB, want under 1 GiB", command, c.name, r.PeakMB)
			}
			if r.Seconds > 60 {
				t.Errorf("%s %s: took %.0f s", command, c.name, r.Seconds)
			}
			if strings.Contains(r.Shown, "goroutine ") || strings.Contains(r.Shown, "panic") {
				t.Errorf("%s %s: a Go trace reached the user:\n%s", command, c.name, r.Shown)
			}
			if c.want == "" {
				if r.Err != "" || len(lines) != 0 {
					t.Errorf("%s %s: %q, want it read", command, c.name, r.Err)
				}
				if w, ok := nameWarnings[c.name]; ok && !(strings.Contains(r.Stdout, "warning: ") && strings.Contains(r.Stdout, w)) {
					t.Errorf("%s %s: no warning %q in\n%s", command, c.name, w, r.Stdout)
				}
				continue
			}
			if r.Err == "" || r.Usage {
				t.Errorf("%s %s: err = %q, want a failure", command, c.name, r.Err)
			}
			if command != "check" && !r.Failed {
				t.Errorf("%s %s: err = %q, want ErrFailed", command, c.name, r.Err)
			}
			if len(lines) != 1 || !strings.Contains(lines[0], path) || !strings.Contains(lines[0], c.want) {
				t.Errorf("%s %s: error lines %q, want one naming %s and saying %q", command, c.name, lines, path, c.want)
			}
		}
	}

	// The mixed folder: every readable file in, every bad one listed with its reason after the summary.
	mix, list := res[len(res)-2], res[len(res)-1]
	t.Logf("%-40s %-18s %8.2f %8.0f", "folder of all files", "library add", mix.Seconds, mix.PeakMB)
	if !mix.Failed {
		t.Errorf("library add of the mixed folder: err = %q, want ErrFailed", mix.Err)
	}
	if mix.PeakMB <= 0 || mix.PeakMB >= 1024 {
		t.Errorf("library add of the mixed folder: peak memory %.0f MB", mix.PeakMB)
	}
	readable := len(good)
	for _, c := range cases {
		if c.want == "" {
			readable++
		}
	}
	summary := strings.Index(mix.Stdout, fmt.Sprintf("added %d documents", readable))
	if summary < 0 {
		t.Errorf("mixed folder: no %q in\n%s", fmt.Sprintf("added %d documents", readable), mix.Stdout)
	}
	for _, c := range cases {
		if c.want == "" {
			continue
		}
		path := filepath.Join(files, c.name) + ": "
		i := strings.Index(mix.Stdout, path)
		end := i + strings.IndexByte(mix.Stdout[max(i, 0):], '\n')
		if i < 0 || i < summary || !strings.Contains(mix.Stdout[i:end], c.want) {
			t.Errorf("mixed folder: %s is not listed after the summary with %q:\n%s", c.name, c.want, mix.Stdout)
		}
	}
	for name, w := range nameWarnings {
		if line := "warning: " + filepath.Join(files, name) + ": "; !strings.Contains(mix.Stdout, line) || !strings.Contains(mix.Stdout, w) {
			t.Errorf("mixed folder: no line %q…%q in\n%s", line, w, mix.Stdout)
		}
	}
	var docs []struct{ Path string }
	if err := json.Unmarshal([]byte(list.Stdout), &docs); err != nil {
		t.Fatalf("library list --json: %v\n%s", err, list.Stdout)
	}
	if len(docs) != readable {
		t.Errorf("the mixed library holds %d documents, want %d", len(docs), readable)
	}
}

// TestCheckUsage: wrong arguments are ErrUsage, told in one first line naming the command and what
// was wrong, then how that command (only it) is typed; never a trace or forty lines with no reason.
func TestCheckUsage(t *testing.T) {
	for _, c := range []struct {
		args   []string
		reason string // the first line
		usage  string // what every usage line shown starts with; "" for the whole usage
	}{
		{[]string{"check"}, "thesischeck check: no file given", "thesischeck check"},
		{[]string{"check", "a", "b"}, "thesischeck check: one file at a time, got 2: a, b", "thesischeck check"},
		{[]string{"check", "--format", "json", "a.pdf"}, "thesischeck check: flag provided but not defined: -format", "thesischeck check"},
		{[]string{"check", "a.pdf", "--json"}, "thesischeck check: flag needs an argument: -json", "thesischeck check"},
		{[]string{"extract", "a", "--", "--json"}, "thesischeck extract: one file at a time, got 2: a, --json", "thesischeck extract"},
		{[]string{"library", "add"}, "thesischeck library add: no files or folders to add", "thesischeck library add"},
		{[]string{"library"}, "thesischeck library: which?", "thesischeck library"},
		{[]string{"library", "list", "x"}, "thesischeck library list: takes no arguments, got 1: x", "thesischeck library list"},
		{[]string{"library", "sort"}, `thesischeck library: unknown command "sort"`, "thesischeck library"},
		{[]string{"compare", "--threshold", "15%"}, "thesischeck compare: no submissions", "thesischeck compare"},
		{[]string{"verify"}, "thesischeck verify: no reports to verify", "thesischeck verify"},
		{[]string{"keys", "trust"}, "thesischeck keys trust: takes one argument, got none", "thesischeck keys trust"},
		{[]string{"open", "--demo", "x.pdf"}, "thesischeck open: --demo opens the sample library", "thesischeck open"},
		{[]string{"frobnicate"}, `thesischeck: unknown command "frobnicate"`, ""},
	} {
		var stdout, stderr bytes.Buffer
		err := Run(c.args, nil, &stdout, &stderr)
		first, rest, _ := strings.Cut(stderr.String(), "\n")
		if !errors.Is(err, ErrUsage) || !strings.HasPrefix(first, c.reason) {
			t.Errorf("%q: err = %v, stderr %q", c.args, err, stderr.String())
		}
		shown := 0
		for _, line := range strings.Split(rest, "\n") {
			if strings.HasPrefix(line, "  thesischeck ") {
				shown++
				if !strings.HasPrefix(line, "  "+c.usage) {
					t.Errorf("%q: the usage shows %q, not only %q", c.args, line, c.usage)
				}
			}
		}
		if whole := strings.Count(usage, "\n  thesischeck "); shown == 0 || (c.usage == "") != (shown == whole) {
			t.Errorf("%q: %d of the usage's %d commands shown", c.args, shown, whole)
		}
	}
}

// TestFlagsAfterPaths: flags typed after the files are read as flags, as people type them, and
// give what they give before the files.
func TestFlagsAfterPaths(t *testing.T) {
	dir := t.TempDir()
	lib, before, after := filepath.Join(dir, "lib"), filepath.Join(dir, "before.json"), filepath.Join(dir, "after.json")
	for _, args := range [][]string{
		{"library", "add", "../ui/testdata/library", "--library", lib},
		{"check", "--library", lib, "--json", before, "../ui/testdata/thesis.txt"},
		{"check", "../ui/testdata/thesis.txt", "--json", after, "--library", lib},
	} {
		var stdout, stderr bytes.Buffer
		if err := Run(args, nil, &stdout, &stderr); err != nil {
			t.Fatalf("%q: %v\n%s", args, err, stderr.String())
		}
	}
	var a, b report.Report
	for _, r := range []struct {
		path string
		into *report.Report
	}{{before, &a}, {after, &b}} {
		data, err := os.ReadFile(r.path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, r.into); err != nil {
			t.Fatal(err)
		}
	}
	if a.Similarity == 0 || a.Similarity != b.Similarity || len(a.Sources) != len(b.Sources) {
		t.Errorf("flags after the file: similarity %.3f with %d sources, before it %.3f with %d", b.Similarity, len(b.Sources), a.Similarity, len(a.Sources))
	}
}

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" { // a child: runChildIn gave it its own home
		os.Exit(m.Run())
	}
	os.Exit(tempconfig.Run(m))
}

// TestExtractShowsHidden: extract --json shows the text it left out as hidden, where it stood and
// why, and the warning that counts it.
func TestExtractShowsHidden(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hidden.docx")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, err := zw.Create("word/document.xml")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(w, `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p>`+
		`<w:r><w:t xml:space="preserve">复制的段落 </w:t></w:r><w:r><w:rPr><w:color w:val="FFFFFF"/><w:sz w:val="2"/></w:rPr><w:t>无关词语</w:t></w:r>`+
		`<w:r><w:t>夹在词语之间。</w:t></w:r></w:p></w:body></w:document>`)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var stdout, stderr bytes.Buffer
	if err := Run([]string{"extract", "--json", path}, nil, &stdout, &stderr); err != nil {
		t.Fatalf("extract: %v\n%s", err, stderr.String())
	}
	var doc struct {
		Paragraphs []struct {
			Text   string
			Hidden []struct {
				Text    string
				Reasons []string
				Size    float64
				Offset  int
			}
		}
		Warnings []struct {
			Kind  string
			Count int
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if len(doc.Paragraphs) != 1 || doc.Paragraphs[0].Text != "复制的段落 夹在词语之间。" || len(doc.Paragraphs[0].Hidden) != 1 {
		t.Fatalf("extract --json:\n%s", stdout.String())
	}
	h := doc.Paragraphs[0].Hidden[0]
	if h.Text != "无关词语" || strings.Join(h.Reasons, ",") != "white,tiny" || h.Size != 1 || h.Offset != 6 {
		t.Errorf("hidden %+v", h)
	}
	if len(doc.Warnings) != 1 || doc.Warnings[0].Kind != "hidden" || doc.Warnings[0].Count != 4 {
		t.Errorf("warnings %+v", doc.Warnings)
	}
}

// TestLibraryFlagOpensApp: "thesischeck --library DIR" with no command opens the app on DIR, as
// "open --library DIR" does; a file after it is checked, and an unknown flag is still a usage error.
func TestLibraryFlagOpensApp(t *testing.T) {
	for _, c := range []struct {
		args      []string
		dir, file string
	}{
		{[]string{"--library", "/x/lib"}, "/x/lib", ""},
		{[]string{"-library=/x/lib"}, "/x/lib", ""},
		{[]string{"--library", "/x/lib", "thesis.docx"}, "/x/lib", "thesis.docx"},
	} {
		var gotDir, gotFile string
		called := false
		gui := func(dir, file string) error { called, gotDir, gotFile = true, dir, file; return nil }
		var stdout, stderr bytes.Buffer
		if err := Run(c.args, gui, &stdout, &stderr); err != nil || !called || gotDir != c.dir || gotFile != c.file {
			t.Errorf("%q: err %v, app opened %v on %q with %q", c.args, err, called, gotDir, gotFile)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := Run([]string{"--frobnicate"}, func(string, string) error { return nil }, &stdout, &stderr); !errors.Is(err, ErrUsage) {
		t.Errorf("--frobnicate: err = %v, want a usage error", err)
	}
}

// TestCommandsOffTheAppsGoroutine: the app opens on the goroutine Run is called on, which fyne's
// driver has locked to the process's first thread as windows need; every other command runs on one
// of its own, which the scheduler may move between threads.
func TestCommandsOffTheAppsGoroutine(t *testing.T) {
	caller := goroutineID(t)
	var ran uint64
	commands["probe"] = func(context.Context, []string, io.Writer, io.Writer) error {
		ran = goroutineID(t)
		return nil
	}
	defer delete(commands, "probe")
	var stdout, stderr bytes.Buffer
	if err := Run([]string{"probe"}, nil, &stdout, &stderr); err != nil || ran == 0 || ran == caller {
		t.Errorf("a command: err %v, ran on goroutine %d, Run called on %d", err, ran, caller)
	}
	for _, args := range [][]string{nil, {"open"}, {"--library", t.TempDir()}} {
		var opened uint64
		gui := func(string, string) error { opened = goroutineID(t); return nil }
		if err := Run(args, gui, &stdout, &stderr); err != nil || opened != caller {
			t.Errorf("%q: err %v, the app opened on goroutine %d, Run called on %d", args, err, opened, caller)
		}
	}
}

// goroutineID is the number runtime.Stack gives the calling goroutine.
func goroutineID(t *testing.T) uint64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := strings.Fields(string(buf))
	if len(f) < 2 || f[0] != "goroutine" {
		t.Fatalf("runtime.Stack: %q", buf)
	}
	id, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestCounted(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 paragraphs"}, {1, "1 paragraph"}, {2, "2 paragraphs"}, {11, "11 paragraphs"}} {
		if got := counted(c.n, "paragraph"); got != c.want {
			t.Errorf("counted(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// A folder named with --library that holds no library lists nothing, and says so: a mistyped
// folder is not taken for an empty library in silence. Nothing is made there.
func TestListNoLibrary(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "typo")
	for _, asJSON := range []bool{false, true} {
		args := []string{"library", "list", "--library", dir}
		if asJSON {
			args = append(args, "--json")
		}
		out, stderr, err := run(t, args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if asJSON && strings.TrimSpace(out) != "[]" || !asJSON && strings.Count(out, "\n") != 1 {
			t.Errorf("%q: listed\n%s", args, out)
		}
		if want := "thesischeck: no library in " + dir + " yet"; !strings.HasPrefix(stderr, want) {
			t.Errorf("%q: stderr %q, want it to begin %q", args, stderr, want)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("listing made %s: %v", dir, err)
	}
}

// A negative --min-run is refused before anything is read: it is no run length, and the check
// would have used the default while the user asked for something else.
func TestCheckNegativeMinRun(t *testing.T) {
	_, _, err := run(t, "check", "--min-run", "-5", "--library", t.TempDir(), "no-such-file.txt")
	if err == nil || !strings.Contains(err.Error(), "--min-run -5: must be 0") {
		t.Errorf("err = %v", err)
	}
}

// The commands that may load jieba's whole dictionary are started again with huge pages; a check,
// which loads only its document's words, and the commands that load none are not.
func TestWholeDictionary(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, true},
		{[]string{"--library", "lib"}, true},
		{[]string{"open", "thesis.pdf"}, true},
		{[]string{"library", "add", "docs"}, true},
		{[]string{"library", "repair"}, true},
		{[]string{"compare", "a.pdf", "b.pdf"}, true},
		{[]string{"check", "thesis.pdf"}, false},
		{[]string{"extract", "thesis.pdf"}, false},
		{[]string{"verify", "report.pdf"}, false},
		{[]string{"keys", "list"}, false},
		{[]string{"library", "list"}, false},
		{[]string{"library", "check"}, false},
		{[]string{"library"}, false},
		{[]string{"help"}, false},
	} {
		if got := WholeDictionary(c.args); got != c.want {
			t.Errorf("WholeDictionary(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
