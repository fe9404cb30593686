package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func TestCompareSubmissions(t *testing.T) {
	g := newTestGUI(t, testLibrary(t), langZH)
	s := g.compare
	g.tabs.SelectIndex(tabCompare)
	s.run([]string{"testdata/thesis.txt", "testdata/library", "testdata/bad/damaged.docx"})
	g.wait()
	res := s.res
	if res == nil {
		t.Fatalf("no result; status %q", s.status.Text)
	}
	if len(res.Documents) != 4 || len(res.Failed()) != 1 {
		t.Fatalf("%d documents, %d failed; want 4 and the damaged one", len(res.Documents), len(res.Failed()))
	}
	if want := g.t.T("cmp.docs", 4, len(res.Flagged())); s.status.Text != want {
		t.Errorf("status %q, want %q", s.status.Text, want)
	}
	texts := strings.Join(screenTexts(s.content), "\n")
	if !strings.Contains(texts, "damaged.docx") || !strings.Contains(texts, g.t.T("cmp.failed")) {
		t.Errorf("the unreadable file is not listed:\n%s", texts)
	}

	// The thesis copies source-a: that pair is flagged, and the two sit side by side in the matrix.
	pos := map[string]int{}
	for k, i := range s.order {
		pos[filepath.Base(res.Documents[i].Path)] = k
	}
	var found bool
	for _, p := range s.flagged {
		names := filepath.Base(res.Documents[p.A].Path) + " " + filepath.Base(res.Documents[p.B].Path)
		found = found || (strings.Contains(names, "thesis.txt") && strings.Contains(names, "source-a.txt"))
	}
	if !found {
		t.Fatalf("thesis ↔ source-a not flagged: %+v", s.flagged)
	}
	if d := pos["thesis.txt"] - pos["source-a.txt"]; d != 1 && d != -1 {
		t.Errorf("matrix order %v keeps the copying pair apart", s.order)
	}
	m := res.Matrix()
	for i := range s.order {
		for j := range s.order {
			if s.matrix.values[i][j] != m[s.order[i]][s.order[j]] {
				t.Fatalf("heatmap cell %d,%d = %v, want %v", i, j, s.matrix.values[i][j], m[s.order[i]][s.order[j]])
			}
		}
	}

	// Tapping the pair's cell opens it side by side, each passage marked alike on both sides.
	c := s.matrix.cell(s.matrix.Size())
	i, j := pos["thesis.txt"], pos["source-a.txt"]
	s.matrix.Tapped(&fyne.PointEvent{Position: fyne.NewPos(float32(j)*c+c/2, float32(i)*c+c/2)})
	top := g.win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("tapping the cell opened nothing")
	}
	var sides [][]string // marked passages of each markedText, in order
	for _, o := range test.LaidOutObjects(top) {
		if mt, ok := o.(*markedText); ok && len(mt.marks) > 0 {
			var got []string
			for _, mk := range mt.marks {
				got = append(got, string(mt.text[mk.start:mk.end]))
			}
			sides = append(sides, got)
		}
	}
	if len(sides) < 2 {
		t.Fatalf("side-by-side shows %d marked paragraphs", len(sides))
	}
	left, right := strings.Join(sides[0], ""), strings.Join(sides[len(sides)-1], "")
	if !strings.Contains(left, "卷积神经网络") && !strings.Contains(right, "卷积神经网络") {
		t.Errorf("the copied paragraph is not marked: %q / %q", left, right)
	}
}
