package library_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"thesischeck/check"
	"thesischeck/library"
)

// The child processes of the crash and lock tests are this test binary, re-executed with
// $THESISCHECK_LIBRARY_HELPER naming what to do.
const libHelperEnv = "THESISCHECK_LIBRARY_HELPER"

// TestHelperLibrary is the child: "import DIR FOLDER" adds FOLDER to the library in DIR, printing
// "opened" and then "done N" after each file; "hold DIR" and "hold-readonly DIR" open the library
// and hold it until standard input closes. Run directly it does nothing.
func TestHelperLibrary(t *testing.T) {
	args := strings.Fields(os.Getenv(libHelperEnv))
	if len(args) == 0 {
		return
	}
	code := 0
	switch args[0] {
	case "import":
		lib, err := library.Open(args[1], &library.Options{Timeout: 500 * time.Millisecond})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		fmt.Println("opened")
		res, err := lib.AddFiles(context.Background(), []string{args[2]}, library.AddOptions{}, func(p library.AddProgress) {
			fmt.Printf("done %d\n", p.Done)
		})
		if err == nil {
			err = lib.Close()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 5
		}
		fmt.Printf("added %d duplicates %d failed %d\n", len(res.Added), len(res.Duplicates), len(res.Failed))
	case "hold", "hold-readonly":
		lib, err := library.Open(args[1], &library.Options{ReadOnly: args[0] == "hold-readonly"})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		fmt.Println("opened")
		io.Copy(io.Discard, os.Stdin) // until the parent closes our standard input
		lib.Close()
	}
	os.Exit(code)
}

func helperCmd(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperLibrary$", "-test.timeout=10m")
	cmd.Env = append(os.Environ(), libHelperEnv+"="+strings.Join(args, " "))
	return cmd
}

// crashWords is a made-up vocabulary: random words make prose whose word bigrams are all but unique.
func crashWords(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		for j, l := 0, 2+r.Intn(8); j < l; j++ {
			b.WriteByte(byte('a' + r.Intn(26)))
		}
		if r.Intn(14) == 0 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// crashCorpus writes n distinct documents, a copy of some of them under other names (the same
// content must go in once), and a few bad files. It returns the folder and the good files.
func crashCorpus(t *testing.T, n int) (string, []string) {
	dir := filepath.Join(t.TempDir(), "docs")
	r := rand.New(rand.NewSource(42))
	var good []string
	for i := 0; i < n; i++ {
		var paras []string
		for p := 0; p < 6; p++ {
			paras = append(paras, crashWords(r, 80+r.Intn(60)))
		}
		path := filepath.Join(dir, fmt.Sprintf("part%d", i%4), fmt.Sprintf("doc%03d.txt", i))
		write(t, path, fmt.Sprintf("Document %d\n\n%s\n", i, strings.Join(paras, "\n\n")))
		good = append(good, path)
	}
	for i := 0; i < n; i += 10 {
		data, err := os.ReadFile(good[i])
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, "copies", fmt.Sprintf("copy-of-%03d.txt", i)), string(data))
	}
	write(t, filepath.Join(dir, "bad", "empty.txt"), "")
	write(t, filepath.Join(dir, "bad", "truncated.pdf"), "%PDF-1.7\n1 0 obj <<")
	return dir, good
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// killAt starts an import and kills it with SIGKILL once the import reports `after` files done, or
// with after -1 once it has run for delay, or with after -2 delay after it opened the library. It
// returns how many files the import had reported.
func killAt(t *testing.T, lib, docs string, after int, delay time.Duration) int {
	t.Helper()
	cmd := helperCmd(t, "import", lib, docs)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	done := 0
	var timer <-chan time.Time
	if after == -1 {
		timer = time.After(delay)
	}
wait:
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				break wait // finished before the kill: the import was too short to interrupt here
			}
			if l == "opened" && after == -2 {
				timer = time.After(delay)
			}
			if n, ok := strings.CutPrefix(l, "done "); ok {
				done, _ = strconv.Atoi(n)
				if after >= 0 && done >= after {
					break wait
				}
			}
		case <-timer:
			break wait
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	for range lines {
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Logf("import was not killed (it ended first: %v, %s)", err, stderr.String())
	}
	return done
}

// verifyLibrary opens the library as a user would after a crash: it opens, lists documents that
// are all good files with no content twice (copies under other names included), and a check of a
// listed document finds it.
func verifyLibrary(t *testing.T, dir string, good []string) int {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "library.db")); os.IsNotExist(err) {
		return 0 // killed before the library was created
	}
	lib, err := library.Open(dir, &library.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("open after kill: %v", err)
	}
	defer lib.Close()
	docs, err := lib.List()
	if err != nil {
		t.Fatalf("list after kill: %v", err)
	}
	seen := map[string]string{} // content → the path it was listed under
	for _, d := range docs {
		data, err := os.ReadFile(d.Path)
		if err != nil || !strings.HasPrefix(string(data), "Document ") {
			t.Errorf("listed %q (id %d): not one of the good files", d.Path, d.ID)
			continue
		}
		if other, dup := seen[string(data)]; dup {
			t.Errorf("the same content is in the library twice: %s and %s", other, d.Path)
		}
		seen[string(data)] = d.Path
		if ps, err := lib.Paragraphs(d.ID); err != nil || len(ps) == 0 || len(ps) != d.Paragraphs || !strings.Contains(string(data), ps[len(ps)-1].Text) {
			t.Errorf("%s after kill: %d of %d paragraphs read back (%v)", d.Path, len(ps), d.Paragraphs, err)
		}
	}
	if n, _ := lib.Stats(); n != len(docs) {
		t.Errorf("Stats says %d documents, List %d", n, len(docs))
	}
	if len(docs) > 0 {
		d := docs[len(docs)-1] // the last one written: the likeliest to be half there
		r, err := check.File(context.Background(), lib, d.Path, nil, nil)
		if err != nil {
			t.Fatalf("check %s after kill: %v", d.Path, err)
		}
		if len(r.Sources) == 0 || r.Sources[0].Path != d.Path || r.Similarity < 0.99 {
			t.Errorf("check %s after kill: similarity %.2f, sources %v; want itself at 100%%", d.Path, r.Similarity, r.Sources)
		}
	}
	return len(docs)
}

// TestImportSurvivesSIGKILL kills an import at several moments — while the library is created,
// right after it opened, and after different numbers of files — and checks after each kill that the
// library opens, lists, reads every document's paragraphs back and checks. The same import run again to the end then holds every good file
// exactly once, and a check finds the right source.
func TestImportSurvivesSIGKILL(t *testing.T) {
	docs, good := crashCorpus(t, 240)
	lib := filepath.Join(t.TempDir(), "library")
	moments := []struct {
		after int
		delay time.Duration
	}{
		{-1, 30 * time.Millisecond}, // creating the database file
		{0, 0},                      // opened, nothing done yet
		{5, 0},
		{-2, 400 * time.Millisecond},
		{40, 0},
		{90, 0},
		{-2, 1200 * time.Millisecond},
		{150, 0},
		{-2, 50 * time.Millisecond},
		{200, 0},
	}
	prev := 0
	for i, m := range moments {
		done := killAt(t, lib, docs, m.after, m.delay)
		n := verifyLibrary(t, lib, good)
		t.Logf("kill %d (after %d files / %v): the import had reported %d files; the library holds %d documents", i+1, m.after, m.delay, done, n)
		if n < prev {
			t.Errorf("kill %d: the library lost documents: %d before, %d after", i+1, prev, n)
		}
		prev = n
	}

	out, err := helperCmd(t, "import", lib, docs).CombinedOutput()
	if err != nil {
		t.Fatalf("import to completion: %v\n%s", err, tail(out))
	}
	if n := verifyLibrary(t, lib, good); n != len(good) {
		t.Errorf("after the full import the library holds %d documents, want %d distinct good files", n, len(good))
	}
	t.Logf("after the full import: %s", strings.TrimSpace(lastLine(out)))

	// A new text that copies one paragraph of a document finds that document as its source.
	l, err := library.Open(lib, &library.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	src := good[123]
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	paras := strings.Split(string(data), "\n\n")
	r := rand.New(rand.NewSource(7))
	probe := filepath.Join(t.TempDir(), "probe.txt")
	write(t, probe, "Probe\n\n"+crashWords(r, 100)+"\n\n"+paras[3]+"\n\n"+crashWords(r, 100)+"\n")
	rep, err := check.File(context.Background(), l, probe, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(src)
	if len(rep.Sources) == 0 || rep.Sources[0].Path != abs {
		t.Errorf("the probe's sources are %v, want %s first", rep.Sources, abs)
	}
}

func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	return s[strings.LastIndexByte(s, '\n')+1:]
}

func tail(b []byte) string {
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}
