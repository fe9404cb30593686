package check

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"thesischeck/library"
)

// TestLibraryDone: the hook is called once, after the check's last call to the library. The
// library is closed in it, as the command line closes it, and the check still makes the report it
// makes with the library open (a call after the hook would fail on the closed library).
func TestLibraryDone(t *testing.T) {
	open := newLibrary(t)
	want := checkResult(t, open, filepath.Join(libDir, "zh-wetland.txt"))
	open.Close() // the library is opened again for the check that closes it
	lib, err := library.Open(open.Dir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	ctx := WithTrace(context.Background(), &Trace{LibraryDone: func() {
		calls++
		lib.Close()
	}})
	got, err := Check(ctx, lib, want.doc, want.sha, nil, nil)
	if err != nil || calls != 1 {
		t.Fatalf("Check: %v, LibraryDone called %d times", err, calls)
	}
	a, b := *want.Report, *got.Report
	a.Number, b.Number, a.Created = "", "", b.Created
	if !reflect.DeepEqual(a, b) {
		t.Error("the report differs when the library is closed once the check is done with it")
	}
	if got.Report.Library.Documents != 6 || got.Report.Similarity < 0.5 {
		t.Errorf("%d library documents, similarity %.3f: want the six, and the document found in it",
			got.Report.Library.Documents, got.Report.Similarity)
	}
}
