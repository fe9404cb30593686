package ui

import (
	"context"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/check"
	"thesischeck/library"
)

// previewFile reads path and shows, part by part, what a check will read and what it leaves out
// (title page, declarations, abstract, chapters, references, notes, hidden text), with a button
// that checks it: a chapter read as references shows here, before anyone trusts a figure.
func (g *gui) previewFile(path string) {
	if !g.idle() {
		return
	}
	opts := g.set.checkOptions()
	g.start(false, func(ctx context.Context, _ *library.Library, _ error) func() {
		doc, _, err := check.Read(ctx, path, nil)
		if err != nil {
			return func() { g.showError(err) }
		}
		parts := check.Preview(doc, opts)
		return func() { g.showPreview(path, parts) }
	})
}

func (g *gui) showPreview(path string, parts []check.Part) {
	t := g.t
	rows := container.New(&columnLayout{fitColumns([]float32{0, 110, 0}, []string{"", t.T("prev.chars"), ""})},
		boldLabel(t.T("prev.part")), boldLabel(t.T("prev.chars")), boldLabel(t.T("prev.what")))
	list := container.NewVBox(rows)
	for _, p := range parts {
		name := p.Name
		if t.Has("sec." + name) {
			name = t.T("sec." + name)
		}
		what := t.T("prev.checked")
		switch {
		case p.Checked == 0:
			what = t.T("prev.leftOut." + p.LeftOut)
		case p.Checked < p.Chars:
			what = t.T("prev.partly", p.Checked, t.T("prev.leftOut."+p.LeftOut))
		}
		if p.Notes > 0 {
			what += t.T("prev.notes", p.Notes)
		}
		if p.Hidden > 0 {
			what += t.T("prev.hidden", p.Hidden)
		}
		l := widget.NewLabel(name)
		l.Truncation = fyne.TextTruncateEllipsis
		chars := widget.NewLabel(t.T("excl.chars", p.Chars))
		chars.Alignment = fyne.TextAlignTrailing
		w := widget.NewLabel(what)
		w.Wrapping = fyne.TextWrapWord
		if p.Checked == 0 {
			w.Importance = widget.LowImportance
		}
		list.Add(container.New(&columnLayout{[]float32{0, 110, 0}}, l, chars, w))
	}
	hint := wrapLabel(t.T("prev.hint"), 640)
	hint.SizeName = theme.SizeNameCaptionText
	body := container.NewBorder(hint, nil, nil, nil, container.NewVScroll(list))
	d := dialog.NewCustomConfirm(t.T("prev.title", filepath.Base(path)), t.T("prev.check"), t.T("common.close"), body, func(ok bool) {
		if ok {
			g.tabs.SelectIndex(tabCheck)
			g.checkFile(path)
		}
	}, g.win)
	d.Resize(fyne.NewSize(760, 520))
	g.preview = list
	d.Show()
}
