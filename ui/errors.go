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
	{extract.ErrUnmapped, "err.unmapped"},
	{extract.ErrOutlined, "err.outlined"},
	{extract.ErrEmpty, "err.empty"},
	{extract.ErrUnsupported, "err.unsupported"},
	{extract.ErrOldOffice, "err.oldOffice"},
	{extract.ErrCorrupt, "err.corrupt"},
	{extract.ErrTooLarge, "err.tooLarge"},
	{extract.ErrTimeout, "err.timeout"},
	{extract.ErrNotRegular, "err.notRegular"},
	{library.ErrLocked, "err.locked"},
	{report.ErrNoReport, "err.noReport"},
	{report.ErrEmbeddedTooLarge, "err.bigReport"},
}

// advice says what to do about a file refused for err, when there is something to do; path is the
// file's name (a WPS file is told by its extension: it is refused as damaged or not a document).
func (t tr) advice(path string, err error) string {
	switch {
	case errors.Is(err, extract.ErrEncrypted):
		return t.T("err.encryptedAdvice")
	case errors.Is(err, extract.ErrNoText):
		return t.T("err.noTextAdvice")
	case errors.Is(err, extract.ErrUnmapped):
		return t.T("err.unmappedAdvice")
	case errors.Is(err, extract.ErrOutlined):
		return t.T("err.outlinedAdvice")
	case strings.EqualFold(filepath.Ext(path), ".wps") || strings.EqualFold(filepath.Ext(path), ".et"):
		return t.T("err.wpsAdvice")
	}
	return ""
}

// withAdvice is errorText followed by what to do about it, if anything.
func (t tr) withAdvice(err error) string {
	msg := t.errorText(err)
	if a := t.advice(errorSubject(err.Error()), err); a != "" {
		msg += "\n" + a
	}
	return msg
}

// coreVerbs open the core's errors about a file ("extract PATH: reason").
var coreVerbs = []string{"extract ", "library ", "verify "}

// errorSubject is the file an error from the core names ("extract PATH: reason"), or "".
func errorSubject(msg string) string {
	for _, verb := range coreVerbs {
		if rest, ok := strings.CutPrefix(msg, verb); ok {
			if i := strings.Index(rest, ": "); i > 0 {
				return rest[:i]
			}
		}
	}
	return ""
}

// knownError is an error of the core whose reason the app knows (knownErrors): the translation's
// key, the file the core named before the reason ("extract PATH: reason"; "" when it named none),
// the reason and what follows it as the core said them, and the details after the reason ("not a
// valid ZIP").
type knownError struct {
	key, subject, rest, detail string
}

// known finds err's reason among knownErrors.
func known(err error) (knownError, bool) {
	msg := err.Error()
	for _, k := range knownErrors {
		if !errors.Is(err, k.err) {
			continue
		}
		e := knownError{key: k.key}
		if i := strings.Index(msg, ": "+k.err.Error()); i > 0 {
			e.subject, e.rest = msg[:i], msg[i+len(": "):]
			for _, verb := range coreVerbs {
				e.subject = strings.TrimPrefix(e.subject, verb)
			}
			if detail, ok := strings.CutPrefix(e.rest[len(k.err.Error()):], ": "); ok {
				e.detail = detail
			}
		}
		return e, true
	}
	return knownError{}, false
}

// knownReason is a known error's reason in Chinese, the details after it as the core said them.
func (t tr) knownReason(e knownError) string {
	text := t.T(e.key)
	if e.detail != "" {
		text += t.T("err.detail", e.detail)
	}
	return text
}

// errorText is err as the user reads it. The core speaks English, with details after the reason
// ("extract PATH: file is damaged: not a valid ZIP"), shown as they are in the English UI; the
// Chinese UI shows a known reason translated after the file's name, and other errors as they are.
func (t tr) errorText(err error) string {
	if t.lang != langZH {
		return err.Error()
	}
	e, ok := known(err)
	switch {
	case !ok:
		return err.Error()
	case e.subject == "":
		return t.T(e.key)
	}
	return t.T("err.file", filepath.Base(e.subject), t.knownReason(e))
}

// errorReason is errorText without the file the error is about, for a list that names the file
// already ("damaged.docx — 文件已损坏…", not "damaged.docx — damaged.docx：文件已损坏…"). An error
// that names no file, or that the app does not know, is said as errorText says it.
func (t tr) errorReason(err error) string {
	e, ok := known(err)
	switch {
	case !ok || e.subject == "":
		return t.errorText(err)
	case t.lang != langZH:
		return e.rest
	}
	return t.knownReason(e)
}
