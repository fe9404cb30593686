package ui

import (
	"errors"
	"path/filepath"
	"strings"

	"thesischeck/extract"
	"thesischeck/library"
	"thesischeck/report"
)

// knownErrors are the reasons the core names with sentinel errors; the UI says them in the user's
// language, so that a Chinese dialog does not show an English reason.
var knownErrors = []struct {
	err error
	key string
}{
	{extract.ErrEncrypted, "err.encrypted"},
	{extract.ErrNoText, "err.noText"},
	{extract.ErrAllHidden, "err.allHidden"},
	{extract.ErrEmpty, "err.empty"},
	{extract.ErrUnsupported, "err.unsupported"},
	{extract.ErrCorrupt, "err.corrupt"},
	{extract.ErrTooLarge, "err.tooLarge"},
	{extract.ErrTimeout, "err.timeout"},
	{extract.ErrNotRegular, "err.notRegular"},
	{library.ErrLocked, "err.locked"},
	{report.ErrNoReport, "err.noReport"},
	{report.ErrEmbeddedTooLarge, "err.bigReport"},
}

// errorText is err as the user reads it. The core speaks English, with details after the reason
// ("extract PATH: file is damaged: not a valid ZIP"), shown as they are in the English UI; the
// Chinese UI shows a known reason translated after the file's name, and other errors as they are.
func (t tr) errorText(err error) string {
	msg := err.Error()
	if t.lang != langZH {
		return msg
	}
	for _, k := range knownErrors {
		if !errors.Is(err, k.err) {
			continue
		}
		text := t.T(k.key)
		if i := strings.Index(msg, ": "+k.err.Error()); i > 0 {
			subject := msg[:i]
			for _, verb := range []string{"extract ", "library ", "verify "} {
				subject = strings.TrimPrefix(subject, verb)
			}
			return t.T("err.file", filepath.Base(subject), text)
		}
		return text
	}
	return msg
}
