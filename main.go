// Command thesischeck is ThesisCheck (论文查重), a local plagiarism checker: a desktop app, and a
// command line for scripts. See README.md.
package main

import (
	"errors"
	"fmt"
	"os"

	"thesischeck/cli"
	"thesischeck/internal/hugepages"
	"thesischeck/ui"
)

func main() {
	if cli.WholeDictionary(os.Args[1:]) {
		hugepages.Enable()
	}
	err := cli.Run(os.Args[1:], openGUI, os.Stdout, os.Stderr)
	switch {
	case err == nil:
	case errors.Is(err, cli.ErrUsage), errors.Is(err, cli.ErrUntrusted):
		os.Exit(2)
	case errors.Is(err, cli.ErrFailed):
		os.Exit(1)
	default:
		fmt.Fprintf(os.Stderr, "thesischeck: %v\n", err)
		os.Exit(1)
	}
}

func openGUI(libraryDir, file string) error { return ui.Run(libraryDir, file) }
