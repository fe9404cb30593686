package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"thesischeck/compare"
	"thesischeck/keys"
	"thesischeck/library"
	"thesischeck/report"
)

func init() { commands["compare"] = runCompare }

// runCompare compares a class's submissions with each other. Files that cannot be read are named on
// stderr and make the command end with ErrFailed once the others are compared and written.
func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	jsonOut := fs.String("json", "", "write the JSON result to this file ('-' for standard output)")
	pdfOut := fs.String("pdf", "", "write the PDF pair list to this file")
	htmlOut := fs.String("html", "", "write the HTML pair list to this file")
	threshold := fs.String("threshold", "", "flag pairs sharing at least this share of the smaller document (0.15 or 15%)")
	libDir := fs.String("library", "", "leave out the text of this library's template documents")
	refs := fs.Bool("include-references", false, "also compare references, headings and front matter (title pages, declarations)")
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		return usageError(stderr)
	}
	opts := &compare.Options{IncludeReferences: *refs}
	if *threshold != "" {
		t, err := parseShare(*threshold)
		if err != nil {
			return fmt.Errorf("compare: --threshold %q: %w", *threshold, err)
		}
		opts.Threshold = t
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
	res, err := compare.Run(ctx, fs.Args(), opts, func(stage string, done, total int) {
		bar.update(stage, done, total, "")
	})
	bar.done()
	if err != nil {
		return err
	}
	if *jsonOut != "" || *pdfOut != "" || *htmlOut != "" {
		s, err := keys.LoadOrCreateUser()
		if err != nil {
			return err
		}
		if err := report.SignComparison(res, s); err != nil {
			return err
		}
		if *pdfOut != "" {
			if err := report.SaveComparisonPDF(*pdfOut, res, s); err != nil {
				return err
			}
		}
	}
	if *jsonOut == "-" {
		if err := res.WriteJSON(stdout); err != nil {
			return err
		}
	} else if *jsonOut != "" {
		if err := res.SaveJSON(*jsonOut); err != nil {
			return err
		}
	}
	if *htmlOut != "" {
		if err := report.SaveComparisonHTML(*htmlOut, res); err != nil {
			return err
		}
	}
	summary := stdout
	if *jsonOut == "-" {
		summary = stderr // keep standard output valid JSON
	}
	printComparison(res, summary)
	failed := res.Failed()
	for _, i := range failed {
		d := res.Documents[i]
		fmt.Fprintf(stderr, "thesischeck: %s\n", errorLine(d.Path, fmt.Errorf("%s", d.Error)))
	}
	if len(failed) > 0 {
		return ErrFailed
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
	read := len(r.Documents) - len(r.Failed())
	flagged := r.Flagged()
	fmt.Fprintf(w, "compared %d documents (%d pairs): %d pairs share text, %d flagged at %.0f%% or more\n",
		read, read*(read-1)/2, len(r.Pairs), len(flagged), r.Threshold*100)
	for i, p := range flagged {
		if i == 20 {
			fmt.Fprintf(w, "  … %d more flagged pairs\n", len(flagged)-20)
			break
		}
		fmt.Fprintf(w, "  %5.1f%%  %s  %s  (%d characters)\n", p.Similarity*100,
			filepath.Base(r.Documents[p.A].Path), filepath.Base(r.Documents[p.B].Path), p.SharedChars)
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
}
