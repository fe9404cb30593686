package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"thesischeck/internal/redistest"
	"thesischeck/library"
)

// On a library on a Redis server, the library screen says which server and what it holds, and its
// connection test asks the server again; the check runs against it as against a folder.
func TestLibraryOnRedis(t *testing.T) {
	srv := redistest.Start(t)
	url := srv.URL(3)
	lib, err := library.Open(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := lib.AddFiles(context.Background(), []string{"testdata/library"}, library.AddOptions{}, nil); err != nil || len(res.Added) != 2 {
		t.Fatalf("import into Redis: %+v, %v", res, err)
	}
	lib.Close()

	g := newTestGUI(t, url, langEN)
	s := g.library
	s.homeRead = make(chan error, 4)
	s.refresh()
	if err := <-s.homeRead; err != nil {
		t.Fatal(err)
	}
	if len(s.docs) != 2 {
		t.Errorf("the library screen lists %d documents, want 2", len(s.docs))
	}
	home := s.home.Text
	for _, want := range []string{"Redis server", srv.Addr, "Redis 7", " MB", " ms"} {
		if !strings.Contains(home, want) {
			t.Errorf("home line %q lacks %q", home, want)
		}
	}
	if !s.testBtn.Visible() || s.testBtn.Disabled() {
		t.Fatal("no connection test offered for a library on a server")
	}
	test.Tap(s.testBtn)
	if err := <-s.homeRead; err != nil {
		t.Fatal(err)
	}
	if g.win.Canvas().Overlays().Top() == nil {
		t.Error("the connection test said nothing")
	}
	texts := strings.Join(screenTexts(g.win.Canvas().Overlays().Top()), "\n")
	if !strings.Contains(texts, "The connection works") {
		t.Errorf("the connection test said %q", texts)
	}
	g.win.Canvas().Overlays().Top().Hide()

	srv.Stop() // the server goes down: the test says so, in a dialog and on the screen
	test.Tap(s.testBtn)
	if err := <-s.homeRead; err == nil {
		t.Fatal("the connection test of a stopped server found no error")
	}
	texts = strings.Join(screenTexts(g.win.Canvas().Overlays().Top()), "\n")
	if !strings.Contains(texts, srv.Addr) || !strings.HasPrefix(s.home.Text, "Cannot tell where the library is stored") {
		t.Errorf("after the server stopped: dialog %q, home line %q", texts, s.home.Text)
	}
}
