// Package written tells the files ThesisCheck writes (reports and class comparisons) from the
// documents it reads, by their content: a folder of submissions may hold last run's export, and a
// dropped report is to be verified, not checked.
package written

import (
	"bytes"
	"io"
	"os"
	"unicode/utf16"
)

// Names of the signed JSON a PDF report or comparison carries as an embedded file.
const (
	ReportAttachment     = "thesischeck-report.json"
	ComparisonAttachment = "thesischeck-comparison.json"
)

// HTMLHead opens the JSON head of an HTML report or comparison, in its first lines: the report's
// number and figures, or the comparison's threshold, as their JSON has them.
const HTMLHead = `<script type="application/json" id="thesischeck-report">`

// MaxFile bounds the files looked at: the PDF comparison of a thousand twenty-page submissions,
// which carries their text, is about 60 MB.
const MaxFile = 256 << 20

// Kind is what a file ThesisCheck wrote is; "" for anything else.
type Kind string

// Kinds of file.
const (
	None       Kind = ""
	Report     Kind = "report"     // the report of a check
	Comparison Kind = "comparison" // a class comparison
)

// File reads the regular file at path (at most MaxFile bytes) and says what ThesisCheck wrote it as.
// Files it cannot read, and anything but a regular file, are None.
func File(path string) Kind {
	// Looked at before it is opened: opening a named pipe waits for a writer.
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() || st.Size() > MaxFile {
		return None
	}
	f, err := os.Open(path)
	if err != nil {
		return None
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if js := bytes.TrimLeft(head, " \t\r\n"); bytes.HasPrefix(js, []byte("{")) {
		return JSON(js)
	}
	if k := HTML(head); k != None {
		return k
	}
	if !bytes.HasPrefix(head, []byte("%PDF-")) {
		return None
	}
	rest, err := io.ReadAll(io.LimitReader(f, MaxFile))
	if err != nil {
		return None
	}
	return PDF(append(head, rest...))
}

// JSON says what the start of a JSON file is: a report has a report number, a comparison its
// threshold and common-text rule.
func JSON(head []byte) Kind {
	switch {
	case bytes.Contains(head, []byte(`"report_number"`)):
		return Report
	case bytes.Contains(head, []byte(`"threshold"`)) && bytes.Contains(head, []byte(`"common_documents"`)):
		return Comparison
	}
	return None
}

// HTML says what the start of an HTML page is, by the JSON head ThesisCheck writes into its reports.
func HTML(head []byte) Kind {
	page := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if !bytes.HasPrefix(page, []byte("<!DOCTYPE html")) {
		return None
	}
	if _, js, ok := bytes.Cut(page, []byte(HTMLHead)); ok {
		return JSON(js)
	}
	return None
}

// PDF says what a PDF file is by the embedded file it carries, named as fpdf writes names (UTF-16BE).
func PDF(data []byte) Kind {
	switch {
	case bytes.Contains(data, utf16BE(ReportAttachment)):
		return Report
	case bytes.Contains(data, utf16BE(ComparisonAttachment)):
		return Comparison
	}
	return None
}

func utf16BE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return b
}
