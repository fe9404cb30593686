package extract

import "context"

// Trace holds hooks that a caller sets on the context of a read (WithTrace), as net/http/httptrace
// does for a request: they say how the reading uses the machine, so that the caller can fit work of
// its own around it. A hook runs on the reading's goroutine and must not block.
type Trace struct {
	// OneCore is called once, when what is left of the reading runs on one core: as a PDF's layout
	// begins, its pages read on every core; as a DOCX or a text file begins to be parsed, on one.
	// A file that fails before, or is not one of these formats, never calls it.
	OneCore func()
}

type traceKey struct{}

// WithTrace returns ctx with t's hooks, which Bytes, File and FileContext call.
func WithTrace(ctx context.Context, t *Trace) context.Context {
	return context.WithValue(ctx, traceKey{}, t)
}

// oneCore calls the OneCore hook of ctx's Trace, if it has one.
func oneCore(ctx context.Context) {
	if t, _ := ctx.Value(traceKey{}).(*Trace); t != nil && t.OneCore != nil {
		t.OneCore()
	}
}
