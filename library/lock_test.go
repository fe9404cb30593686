package library_test

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"thesischeck/cli"
	"thesischeck/library"
)

// holdLibrary starts a child process that opens the library in dir (read-only or for writing) and
// holds it until the returned function is called.
func holdLibrary(t *testing.T, mode, dir string) (release func()) {
	t.Helper()
	cmd := helperCmd(t, mode, dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	if !sc.Scan() || sc.Text() != "opened" {
		cmd.Wait()
		t.Fatalf("%s %s: the child did not open the library: %s", mode, dir, stderr.String())
	}
	released := false
	release = func() {
		if !released {
			released = true
			stdin.Close()
			cmd.Wait()
		}
	}
	t.Cleanup(release)
	return release
}

// TestLockBetweenProcesses: while another process writes to a library (the app open, or an
// import), a second writer or reader waits for the timeout and then refuses with a message naming
// the folder; read-only users share the library; once the holder lets go, a waiting open goes
// through; and nothing is damaged.
func TestLockBetweenProcesses(t *testing.T) {
	docs, good := crashCorpus(t, 12)
	dir := filepath.Join(t.TempDir(), "library")
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lib.AddFiles(t.Context(), good[:6], library.AddOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	lib.Close()

	locked := func(what string, err error, waited time.Duration, min time.Duration) {
		t.Helper()
		if !errors.Is(err, library.ErrLocked) {
			t.Fatalf("%s: err = %v, want ErrLocked", what, err)
		}
		if msg := err.Error(); !strings.Contains(msg, dir) || !strings.Contains(msg, "in use") {
			t.Errorf("%s: message %q does not name the folder and say it is in use", what, msg)
		}
		if waited < min*3/4 || waited > min+10*time.Second { // bbolt polls the lock every 50 ms
			t.Errorf("%s: refused after %v, want a wait of about %v", what, waited, min)
		}
	}

	// Another process writes: a writer and a reader here both wait, then refuse.
	release := holdLibrary(t, "hold", dir)
	for _, ro := range []bool{false, true} {
		start := time.Now()
		_, err := library.Open(dir, &library.Options{ReadOnly: ro, Timeout: 300 * time.Millisecond})
		locked("open beside a writer", err, time.Since(start), 300*time.Millisecond)
	}
	// The command line waits its default 3 s, then prints the reason.
	var stdout, stderr bytes.Buffer
	start := time.Now()
	err = cli.Run([]string{"library", "add", "--library", dir, good[6]}, nil, &stdout, &stderr)
	locked("thesischeck library add", err, time.Since(start), 3*time.Second)
	start = time.Now()
	err = cli.Run([]string{"check", "--library", dir, good[0]}, nil, &stdout, &stderr)
	locked("thesischeck check", err, time.Since(start), 3*time.Second)

	// The holder lets go while a writer waits: the writer gets the library.
	go func(release func()) {
		time.Sleep(500 * time.Millisecond)
		release()
	}(release)
	start = time.Now()
	lib, err = library.Open(dir, &library.Options{Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("open after the holder let go: %v", err)
	}
	t.Logf("a waiting writer got the library after %v (the other process let go after 500ms)", time.Since(start).Round(time.Millisecond))
	lib.Close()

	// Readers share: two read-only users at once, here and in another process; an import is
	// refused while they read.
	release = holdLibrary(t, "hold-readonly", dir)
	ro, err := library.Open(dir, &library.Options{ReadOnly: true, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatalf("a second reader was refused: %v", err)
	}
	ro.Close()
	out, err := helperCmd(t, "import", dir, docs).CombinedOutput()
	if err == nil || !strings.Contains(string(out), dir) || !strings.Contains(string(out), "in use") {
		t.Errorf("an import beside a reader: %v\n%s", err, out)
	}
	release()

	// Nothing is damaged: the import now runs, and every document is there once.
	if out, err := helperCmd(t, "import", dir, docs).CombinedOutput(); err != nil {
		t.Fatalf("import after the others let go: %v\n%s", err, tail(out))
	}
	if n := verifyLibrary(t, dir, good); n != len(good) {
		t.Errorf("the library holds %d documents, want %d", n, len(good))
	}
	if _, err := os.Stat(filepath.Join(dir, "library.db")); err != nil {
		t.Error(err)
	}
}
