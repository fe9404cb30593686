package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"thesischeck/compare"
	"thesischeck/internal/english"
	"thesischeck/keys"
	"thesischeck/library"
	"thesischeck/report"
)

func init() { commands["compare"] = runCompare }

// paths is a repeatable flag.
type paths []string

func (p *paths) String() string     { return strings.Join(*p, ",") }
func (p *paths) Set(v string) error { *p = append(*p, v); return nil }

// runCompare compares a class's submissions with each other and with earlier years'. Files that
// cannot be read are named on stderr and make the command end with ErrFailed once the others are
// compared and written; files skipped as ThesisCheck's own reports are named too.
func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	jsonOut := fs.String("json", "", "write the JSON result to this file ('-' for standard output)")
	pdfOut := fs.String("pdf", "", "write the PDF pair list to this file")
	htmlOut := fs.String("html", "", "write the HTML pair list to this file")
	csvOut := fs.String("csv", "", "write one row per pair to this CSV file")
	infoFile := fs.String("info", "", "CSV file naming each submission's student (a file column, then any others)")
	threshold := fs.String("threshold", "", "flag pairs sharing at least this share of the smaller document (0.15 or 15%)")
	libDir := fs.String("library", "", "leave out the text of this library's template documents")
	refs := fs.Bool("include-references", false, "also compare references, headings and front matter (title pages, declarations)")
	var old paths
	fs.Var(&old, "old", "earlier years' submissions (a folder, file or library; repeatable): compared with the new ones only")
	submissions, err := parseInterleaved(fs, args)
	switch {
	case err != nil:
		return usageError(stderr, "compare", err.Error())
	case len(submissions) == 0:
		return usageError(stderr, "compare", "no submissions to compare: give their files or folders")
	}
	if *jsonOut == "-" && *csvOut == "-" {
		return fmt.Errorf("compare: --json - and --csv - would both write to standard output: give one of them a file")
	}
	roots := append(slices.Clone(submissions), old...)
	for _, out := range []struct{ flag, path string }{{"json", *jsonOut}, {"pdf", *pdfOut}, {"html", *htmlOut}, {"csv", *csvOut}} {
		if out.path == "" || out.path == "-" {
			continue
		}
		if dir := compare.FolderHolding(out.path, roots); dir != "" {
			return fmt.Errorf("compare: --%s %s is inside %s, which is being compared: the next comparison would read it as a submission; save it beside the folder instead", out.flag, out.path, dir)
		}
	}
	opts := &compare.Options{IncludeReferences: *refs, Old: old}
	if *threshold != "" {
		t, err := parseShare(*threshold)
		if err != nil {
			return fmt.Errorf("compare: --threshold %q: %w", *threshold, err)
		}
		opts.Threshold = t
	}
	var info *compare.Info
	if *infoFile != "" {
		var err error
		if info, err = compare.ReadInfo(*infoFile); err != nil {
			return err
		}
	}
	if *libDir != "" {
		lib, err := library.Open(*libDir, &library.Options{ReadOnly: true})
		if err != nil {
			return err
		}
		defer lib.Close()
		opts.Library = lib
	}
	bar := newBar(stderr)
	res, err := compare.Run(ctx, submissions, opts, func(stage compare.Stage, done, total int) {
		bar.update(string(stage), done, total, "")
	})
	bar.done()
	if err != nil {
		return err
	}
	if info != nil {
		unmatched, err := res.SetInfo(info)
		if err != nil {
			return err
		}
		for _, row := range unmatched {
			fmt.Fprintf(stderr, "thesischeck: info file %s: line %d: %s is not among the submissions\n", info.Path, row.Line, row.File)
		}
	}
	// No pair compared: no outputs whose "0 flagged" would pass for a clean class, only why.
	nothing := res.NothingCompared()
	if nothing == nil {
		if err := writeComparison(res, *jsonOut, *pdfOut, *htmlOut, *csvOut, stdout); err != nil {
			return err
		}
		summary := stdout
		if *jsonOut == "-" || *csvOut == "-" {
			summary = stderr // keep standard output valid JSON or CSV
		}
		printComparison(res, summary)
	}
	for _, i := range res.Skipped() {
		d := res.Documents[i]
		fmt.Fprintf(stderr, "thesischeck: %s: not compared: %s\n", d.Path, d.Skipped)
	}
	failed := res.Failed()
	for _, i := range failed {
		d := res.Documents[i]
		fmt.Fprintf(stderr, "thesischeck: %s\n", errorLine(d.Path, fmt.Errorf("%s", d.Error)))
	}
	if nothing != nil {
		return fmt.Errorf("compare: %w", nothing)
	}
	if len(failed) > 0 {
		return ErrFailed
	}
	return nil
}

// writeComparison signs res and writes the outputs asked for ("-" is standard output, for JSON or
// CSV).
func writeComparison(res *compare.Result, jsonOut, pdfOut, htmlOut, csvOut string, stdout io.Writer) error {
	var s *keys.Signer
	if jsonOut != "" || pdfOut != "" || htmlOut != "" {
		var err error
		if s, err = keys.LoadOrCreateUser(); err != nil {
			return err
		}
		if err := report.SignComparison(res, s); err != nil {
			return err
		}
		if pdfOut != "" {
			if err := report.SaveComparisonPDF(pdfOut, res, s); err != nil {
				return err
			}
		}
	}
	switch jsonOut {
	case "":
	case "-":
		if err := res.WriteJSON(stdout); err != nil {
			return err
		}
	default:
		if err := res.SaveJSON(jsonOut); err != nil {
			return err
		}
	}
	if htmlOut != "" {
		if err := report.SaveComparisonHTML(htmlOut, res, s); err != nil {
			return err
		}
	}
	switch csvOut {
	case "":
	case "-":
		return res.WriteCSV(stdout)
	default:
		return res.SaveCSV(csvOut)
	}
	return nil
}

// parseShare reads a share written as a fraction (0.15) or a percentage (15%).
func parseShare(s string) (float64, error) {
	pct := strings.HasSuffix(s, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		return 0, fmt.Errorf("not a number")
	}
	if pct {
		v /= 100
	}
	if v <= 0 || v > 1 {
		return 0, fmt.Errorf("must be above 0 and at most 1 (100%%)")
	}
	return v, nil
}

func printComparison(r *compare.Result, w io.Writer) {
	read, old := r.Compared()
	flagged := r.Flagged()
	docs := english.Count(read, "document", "documents")
	if old > 0 {
		docs += " and " + english.Count(old, "earlier one", "earlier ones")
	}
	shares := "share"
	if len(r.Pairs) == 1 {
		shares = "shares"
	}
	fmt.Fprintf(w, "compared %s (%s): %s %s text, %d flagged at %.0f%% or more\n",
		docs, english.Count(r.PairsCompared(), "pair", "pairs"), english.Count(len(r.Pairs), "pair", "pairs"), shares, len(flagged), r.Threshold*100)
	for i, p := range flagged {
		if i == 20 {
			fmt.Fprintf(w, "  … %d more flagged pairs\n", len(flagged)-20)
			break
		}
		fmt.Fprintf(w, "  %5.1f%%  %s  %s  (%d characters)\n", p.Similarity*100, r.Label(p.A), r.Label(p.B), p.SharedChars)
	}
	if len(r.Clusters) > 0 {
		fmt.Fprintf(w, "%s of documents joined by flagged pairs:\n", english.Count(len(r.Clusters), "cluster", "clusters"))
		for k, c := range r.Clusters {
			if k == 10 {
				fmt.Fprintf(w, "  … %d more\n", len(r.Clusters)-10)
				break
			}
			var names []string
			for _, d := range c {
				names = append(names, r.Label(d))
			}
			fmt.Fprintf(w, "  %d. %s\n", k+1, strings.Join(names, ", "))
		}
	}
	if len(r.Common) > 0 {
		fmt.Fprintf(w, "left out as shared by %d or more documents or a template: %d passages\n", r.CommonDocuments, len(r.Common))
		for i, c := range r.Common {
			if i == 5 {
				fmt.Fprintf(w, "  … %d more\n", len(r.Common)-5)
				break
			}
			text := []rune(strings.ReplaceAll(c.Text, "\n", " "))
			if len(text) > 60 {
				text = append(text[:59], '…')
			}
			fmt.Fprintf(w, "  %d documents: %s\n", c.Documents, string(text))
		}
	}
	for _, i := range r.Warned() {
		for _, wn := range r.Documents[i].Warnings {
			fmt.Fprintf(w, "warning: %s: %s\n", r.Label(i), wn.Message)
		}
	}
}
