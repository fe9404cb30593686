package cli

import (
	"context"
	"fmt"
	"io"

	"thesischeck/report"
)

func init() { commands["verify"] = runVerify }

// runVerify prints the verdict on each report; a report that fails verification is ErrFailed.
func runVerify(_ context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageError(stderr)
	}
	failed := false
	for _, path := range args {
		res, err := report.Verify(path)
		if err != nil {
			fmt.Fprintf(stderr, "thesischeck: %v\n", err)
			failed = true
			continue
		}
		fmt.Fprintf(stdout, "%s: %s\n", path, res)
		if !res.Valid {
			failed = true
		}
	}
	if failed {
		return ErrFailed
	}
	return nil
}
