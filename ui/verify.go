package ui

// Verifying reports in the app, as `thesischeck verify` does: a report file dropped on the window,
// or chosen with the report screen's button, is checked in the background, and the verdict shown in
// plain words: valid, signed by a key not trusted, or not to be relied on.

import (
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"thesischeck/keys"
	"thesischeck/report"
)

// verdictView is the verdict last shown, for tests.
type verdictView struct {
	path  string
	res   report.VerifyResult
	err   error
	title string
	lines []string
}

// chooseReport asks for a report file and verifies it.
func (g *gui) chooseReport() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) { g.chosen(r, err, g.verifyReport) }, g.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".pdf", ".json", ".html", ".htm"}))
	d.Resize(fileDialogSize)
	d.Show()
}

// verifyReport verifies the report at path in the background and shows the verdict.
func (g *gui) verifyReport(path string) {
	g.pending.Add(1)
	go func() {
		defer g.pending.Done()
		var res report.VerifyResult
		trust, err := keys.OpenUser()
		if err == nil {
			res, err = report.Verify(path, report.VerifyOptions{Trust: trust})
		}
		fyne.DoAndWait(func() { g.showVerdict(path, res, err) })
	}()
}

// showVerdict shows what verifying path found.
func (g *gui) showVerdict(path string, res report.VerifyResult, err error) {
	t := g.t
	v := &verdictView{path: path, res: res, err: err}
	g.lastVerdict = v
	head := widget.NewLabel("")
	head.TextStyle.Bold = true
	icon := widget.NewIcon(theme.ErrorIcon())
	switch {
	case err != nil:
		v.title = t.T("ver.invalid")
		v.lines = []string{t.T("ver.unreadable"), t.errorText(err)}
		head.Importance = widget.DangerImportance
	case res.Verdict == report.Trusted:
		v.title = t.T("ver.valid")
		v.lines = []string{t.T("ver.validBody", signerName(t, res.Signer))}
		head.Importance = widget.SuccessImportance
		icon.SetResource(theme.ConfirmIcon())
	case res.Verdict == report.Untrusted:
		v.title = t.T("ver.untrusted")
		trustCmd := fmt.Sprintf("thesischeck keys trust %s --name %s", t.T("ver.file"), t.T("ver.name"))
		v.lines = []string{t.T("ver.untrustedBody", signerName(t, res.Signer), res.Signer.Fingerprint), t.T("ver.howTrust", "thesischeck keys", trustCmd)}
		head.Importance = widget.WarningImportance
		icon.SetResource(theme.WarningIcon())
	default:
		v.title = t.T("ver.invalid")
		v.lines = []string{t.T(invalidReason(res))}
		for _, p := range res.Problems {
			v.lines = append(v.lines, "• "+p)
		}
		head.Importance = widget.DangerImportance
	}
	if err == nil && res.Summary != nil {
		key := "ver.claims"
		if res.Verdict == report.Trusted {
			key = "ver.says"
		}
		v.lines = append(v.lines, t.T(key, summaryText(t, res.Summary)))
	}
	if e := res.Embedded; err == nil && e != nil && e.Intact && e.Signer != nil {
		v.lines = append(v.lines, t.T("ver.embedded", signerName(t, e.Signer)))
	}
	head.SetText(v.title)
	box := container.NewVBox(container.NewBorder(nil, nil, icon, nil, head), widget.NewLabel(filepath.Base(path)))
	for _, l := range v.lines {
		box.Add(wrapLabel(l, 560))
	}
	d := dialog.NewCustom(t.T("ver.dialog"), t.T("common.close"), box, g.win)
	d.Resize(fyne.NewSize(640, 360))
	d.Show()
}

// invalidReason is the message key for why a report failed.
func invalidReason(res report.VerifyResult) string {
	switch {
	case !res.Signed:
		return "ver.notSigned"
	case !res.Intact:
		return "ver.modified"
	case res.Document != "" && !res.DocumentMatches:
		return "ver.wrongDocument"
	}
	return "ver.problem"
}

// signerName names a signer for people: "your own key", the name it is trusted under, or what its
// certificate says.
func signerName(t tr, s *report.SignerInfo) string {
	switch {
	case s == nil:
		return "?"
	case s.Own:
		return t.T("ver.ownKey", s.Fingerprint)
	case s.Trusted:
		return fmt.Sprintf("%s (%s)", s.Name, s.Fingerprint)
	case s.Subject != "":
		return s.Subject
	}
	return s.Algorithm + " " + s.Fingerprint
}

// summaryText is what a report says about itself, in a line.
func summaryText(t tr, s *report.Summary) string {
	if s.Kind == report.KindComparison {
		return t.T("ver.comparison", s.Number, s.Documents, s.Flagged)
	}
	name := filepath.Base(s.Document.Path)
	if strings.TrimSpace(s.Document.Title) != "" {
		name = s.Document.Title
	}
	return t.T("ver.report", s.Number, name, percent(s.Similarity), percent(s.SimilarityExcludingQuotes), percent(s.MaxSingleSource))
}
