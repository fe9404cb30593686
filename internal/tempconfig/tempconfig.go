// Package tempconfig gives a test binary a configuration folder of its own, so that no test signs
// with the user's real key or trusts the user's keys (writing a report makes a signing key there).
package tempconfig

import (
	"fmt"
	"os"
	"testing"
)

// Run runs the tests with XDG_CONFIG_HOME set to a new temporary folder, removes it, and returns
// the exit code for os.Exit.
func Run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "thesischeck-config")
	if err != nil {
		fmt.Fprintln(os.Stderr, "tempconfig:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Setenv("XDG_CONFIG_HOME", dir); err != nil {
		fmt.Fprintln(os.Stderr, "tempconfig:", err)
		return 1
	}
	return m.Run()
}
