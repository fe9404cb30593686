package check

import "context"

// Trace holds hooks that a caller sets on the context of a check (WithTrace), as extract.Trace does
// for a read. A hook runs on the check's goroutine and must not block.
type Trace struct {
	// LibraryDone is called once, when the check has made its last call to the library and goes on
	// to build the report: a caller that opened the library for this check alone can close it
	// meanwhile. A check that fails before never calls it.
	LibraryDone func()
}

type traceKey struct{}

// WithTrace returns ctx with t's hooks, which Check calls.
func WithTrace(ctx context.Context, t *Trace) context.Context {
	return context.WithValue(ctx, traceKey{}, t)
}

// libraryDone calls the LibraryDone hook of ctx's Trace, if it has one.
func libraryDone(ctx context.Context) {
	if t, _ := ctx.Value(traceKey{}).(*Trace); t != nil && t.LibraryDone != nil {
		t.LibraryDone()
	}
}
