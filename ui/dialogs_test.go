package ui

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
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

// An error dialog is wide enough to read: its message wraps at its set width, not at its longest
// word (it was a column a dozen characters wide, a path broken every fifteen), and the button sits
// below the whole message.
func TestErrorDialogWidth(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langEN)
	g.win.Resize(fyne.NewSize(1024, 700))
	msg := "extract /home/student/thesis/final-version/论文终稿.docx: file is damaged: not a valid ZIP archive (zip: not a valid zip file); " +
		"open it in Word or WPS and save it again as DOCX, then check the new file"
	g.showErrorText(msg)
	top := g.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog")
	}
	d := g.app.Driver()
	var label *widget.Label
	var ok *widget.Button
	for _, o := range test.LaidOutObjects(top) {
		switch w := o.(type) {
		case *widget.Label:
			if w.Text == msg {
				label = w
			}
		case *widget.Button:
			ok = w
		}
	}
	if label == nil || ok == nil {
		t.Fatalf("the dialog has no message label (%v) or button (%v)", label != nil, ok != nil)
	}
	lineHeight := widget.NewLabel("x").MinSize().Height
	if w, h := label.Size().Width, label.Size().Height; w < 500 || h < 1.5*lineHeight || h > 4*lineHeight {
		t.Errorf("message %v × %v (a line %v high): want 500 or more wide, two or three lines", w, h, lineHeight)
	}
	if bottom, button := d.AbsolutePositionForObject(label).Y+label.Size().Height, d.AbsolutePositionForObject(ok).Y; button < bottom {
		t.Errorf("the button (y %v) covers the message (down to %v)", button, bottom)
	}
}
