package report

import (
	"strings"
	"testing"
)

// TestExtractionWarningLabels: the kinds of change extraction makes to a text (extract.Warn…) are
// named in both languages in the PDF and HTML reports, with the count and the file's own message.
func TestExtractionWarningLabels(t *testing.T) {
	for _, kind := range []string{"replaced", "not_text", "name_mismatch", "unreadable_pages", "truncated_pages", "repeated_notes", "unreadable_notes"} {
		label, why := warningText(Warning{Kind: kind, Count: 3, Message: "the message"})
		if label == kind || !strings.Contains(label, "× 3") || !strings.HasSuffix(why, " · the message") {
			t.Errorf("%s: label %q, explanation %q", kind, label, why)
		}
	}
}
