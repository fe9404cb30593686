package report

// What the comparison's PDF and HTML share: how documents are named, the fragments of a pair
// grouped by the paragraphs they join, the class in one line.

import (
	"fmt"
	"strings"

	"thesischeck/compare"
)

// maxPairDetails bounds the pairs whose fragments are printed, most similar first; the JSON and the
// app have them all.
const maxPairDetails = 60

// docName is how a submission is named to readers: the student's name from the info file with the
// file's name below the compared folder, an earlier year's marked as such.
func docName(c *compare.Result, i int) string {
	name := c.Label(i)
	if i >= 0 && i < len(c.Documents) && c.Documents[i].Old {
		name += " (往年 earlier)"
	}
	return name
}

// fragmentGroup is the fragments of a pair that join one paragraph of A to one paragraph of B, their
// spans on each side.
type fragmentGroup struct {
	APara, BPara int
	A, B         [][2]int
}

// fragmentGroups groups a pair's fragments (in A's order) by the paragraphs they join, in order.
func fragmentGroups(p compare.Pair) []fragmentGroup {
	var out []fragmentGroup
	for _, f := range p.Fragments {
		if n := len(out); n > 0 && out[n-1].APara == f.APara && out[n-1].BPara == f.BPara {
			out[n-1].A = append(out[n-1].A, f.ASpan)
			out[n-1].B = append(out[n-1].B, f.BSpan)
			continue
		}
		out = append(out, fragmentGroup{APara: f.APara, BPara: f.BPara, A: [][2]int{f.ASpan}, B: [][2]int{f.BSpan}})
	}
	return out
}

// documentsLine counts the class: new, earlier, unreadable and skipped documents.
func documentsLine(c *compare.Result) string {
	n, o := c.Compared()
	s := fmt.Sprintf("%d 篇已比对 compared", n)
	if o > 0 {
		s += fmt.Sprintf(" · %d 篇往年 earlier", o)
	}
	s += fmt.Sprintf(" · %d 篇无法读取 unreadable", len(c.Failed()))
	if k := len(c.Skipped()); k > 0 {
		s += fmt.Sprintf(" · %d 篇跳过 skipped", k)
	}
	if k := len(c.Warned()); k > 0 {
		s += fmt.Sprintf(" · %d 篇有警告 with warnings", k)
	}
	return s
}

// warningsText is a document's warnings, each with its label, for the reports' list of them.
func warningsText(d *compare.Document) string {
	parts := make([]string, len(d.Warnings))
	for i, w := range d.Warnings {
		label := string(w.Kind)
		if l, ok := warningLabels[w.Kind]; ok {
			label = l[0]
		}
		parts[i] = label + ": " + w.Message
	}
	return strings.Join(parts, "; ")
}

// clusterLine names the documents of cluster k.
func clusterLine(c *compare.Result, k int) string {
	var names []string
	for _, d := range c.Clusters[k] {
		names = append(names, docName(c, d))
	}
	return fmt.Sprintf("群组 %d Group %d · %d 篇 documents: %s", k+1, k+1, len(names), strings.Join(names, ", "))
}

// sharesText is a pair's two shares, A's in B and B's in A.
func sharesText(p compare.Pair) string { return pct(p.AShare) + " / " + pct(p.BShare) }

// infoDocs are the documents whose info the reports list: those in flagged pairs, in order.
func infoDocs(c *compare.Result) []int {
	if len(c.InfoColumns) == 0 {
		return nil
	}
	in := make([]bool, len(c.Documents))
	for _, p := range c.Pairs {
		if p.Flagged {
			in[p.A], in[p.B] = true, true
		}
	}
	var out []int
	for i, ok := range in {
		if ok {
			out = append(out, i)
		}
	}
	return out
}
