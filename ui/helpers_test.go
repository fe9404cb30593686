package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"thesischeck/internal/tempconfig"
	"thesischeck/library"
)

func TestMain(m *testing.M) {
	// The window test runs this binary again to open a real window on the main thread.
	if dir := os.Getenv(shotEnv); dir != "" {
		os.Exit(windowMain(dir))
	}
	// TestRunWithoutDisplay runs it again to open the app as main.go does.
	if dir := os.Getenv(runEnv); dir != "" {
		if err := Run(dir, ""); err != nil {
			fmt.Fprintln(os.Stderr, "thesischeck:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(tempconfig.Run(m))
}

// testLibrary builds a library in a temporary folder from testdata/library.
func testLibrary(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "library")
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := lib.AddFiles(context.Background(), []string{"testdata/library"}, library.AddOptions{}, nil)
	if err != nil || len(res.Added) != 2 || len(res.Failed) != 0 {
		t.Fatalf("building the test library: %+v, %v", res, err)
	}
	if err := lib.Close(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newTestGUI opens the app on libDir with the test driver, in language code, and waits for the
// library to open.
func newTestGUI(t *testing.T, libDir, code string) *gui {
	t.Helper()
	a := test.NewTempApp(t)
	a.Preferences().SetString("language", code)
	g := newGUI(a, libDir)
	t.Cleanup(func() {
		if err := g.close(); err != nil {
			t.Error(err)
		}
	})
	// The test driver runs fyne.Do on the calling goroutine: the opening goroutine refreshes the
	// screens itself, so nothing may touch them until it is done (a resize meanwhile crashed Fyne's
	// list layout once in three runs).
	<-g.lh.shown
	if g.lh.err != nil {
		t.Fatal(g.lh.err)
	}
	g.win.Resize(fyne.NewSize(1360, 880))
	return g
}
