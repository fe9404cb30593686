package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"thesischeck/keys"
	"thesischeck/report"
)

func init() { commands["verify"] = runVerify }

// runVerify prints the verdict on each report. A report that is changed, unsigned, not a report or
// not about --document is ErrFailed; otherwise one signed by a key not trusted is ErrUntrusted.
func runVerify(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	document := fs.String("document", "", "the thesis the reports must be about")
	paths, err := parseInterleaved(fs, args)
	switch {
	case err != nil:
		return usageError(stderr, "verify", err.Error())
	case len(paths) == 0:
		return usageError(stderr, "verify", "no reports to verify")
	}
	trust, err := keys.OpenUser()
	if err != nil {
		return err
	}
	failed, untrusted := false, false
	for _, path := range paths {
		res, err := report.Verify(path, report.VerifyOptions{Trust: trust, Document: *document})
		if err != nil {
			fmt.Fprintf(stderr, "thesischeck: %v\n", err)
			failed = true
			continue
		}
		fmt.Fprintf(stdout, "%s: %s\n", path, res)
		switch res.Verdict {
		case report.Invalid:
			failed = true
		case report.Untrusted:
			untrusted = true
		}
	}
	switch {
	case failed:
		return ErrFailed
	case untrusted:
		return ErrUntrusted
	}
	return nil
}
