package report

import (
	"strings"
	"testing"

	"thesischeck/extract"
)

// TestWarningLabels: every kind of warning (extract.WarningKinds: the changes extraction makes to a
// text and the dodges the check sees through) is named in both languages in the PDF and HTML
// reports, with the count and the file's own message.
func TestWarningLabels(t *testing.T) {
	for _, kind := range extract.WarningKinds {
		label, why := warningText(Warning{Kind: kind, Count: 3, Message: "the message"})
		if label == string(kind) || !strings.Contains(label, "× 3") || !strings.HasSuffix(why, " · the message") {
			t.Errorf("%s: label %q, explanation %q", kind, label, why)
		}
	}
}
