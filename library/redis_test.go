package library

import (
	"testing"

	"thesischeck/internal/redistest"
)

// forBackends runs test against a library in a folder and against one on a Redis server of the
// test's own; open opens the test's library (the same one at every call) with opts.
func forBackends(t *testing.T, test func(t *testing.T, open func(opts *Options) *Library)) {
	t.Run("folder", func(t *testing.T) {
		dir := t.TempDir()
		test(t, func(opts *Options) *Library { return openLib(t, dir, opts) })
	})
	t.Run("redis", func(t *testing.T) {
		url := redistest.Start(t).URL(0)
		test(t, func(opts *Options) *Library { return openLib(t, url, opts) })
	})
}
