package ui

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
)

// closer is a chosen file as the file dialogs give it.
type closer struct {
	uri    fyne.URI
	closed bool
}

func (c *closer) URI() fyne.URI { return c.uri }
func (c *closer) Close() error  { c.closed = true; return nil }

// A file chosen in a dialog is closed and its path used; a cancel does nothing; an error shows in a
// dialog and nothing is used.
func TestChosenFile(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langEN)
	var used []string
	use := func(path string) { used = append(used, path) }

	f := &closer{uri: storage.NewFileURI("/tmp/thesis.docx")}
	g.chosen(f, nil, use)
	if !f.closed || len(used) != 1 || used[0] != "/tmp/thesis.docx" {
		t.Fatalf("chosen file: closed %v, used %v", f.closed, used)
	}
	var none fyne.URIReadCloser // what a cancelled dialog passes
	g.chosen(none, nil, use)
	if len(used) != 1 {
		t.Fatalf("a cancel used %v", used[1:])
	}
	g.chosen(none, errors.New("permission denied"), use)
	if len(used) != 1 {
		t.Fatalf("an error used %v", used[1:])
	}
	top := g.win.Canvas().Overlays().Top()
	// As said: Fyne's own error dialog capitalised it (and the file names in others).
	if top == nil || !strings.Contains(strings.Join(screenTexts(top), "\n"), "permission denied") {
		t.Error("no dialog tells the error")
	}
}
