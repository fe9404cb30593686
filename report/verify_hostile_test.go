package report

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// zlibBomb returns a zlib stream of n MiB of zeros, made by repeating one compressed MiB, so that
// a gigabyte bomb takes milliseconds to make and a few megabytes to hold.
func zlibBomb(n int) []byte {
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	zw.Write(make([]byte, 1<<20))
	zw.Flush() // ends the block on a byte boundary: what follows the header can be repeated
	head := bytes.Clone(buf.Bytes()[:2])
	seg := bytes.Clone(buf.Bytes()[2:])
	var out bytes.Buffer
	out.Write(head)
	for i := 0; i < n; i++ {
		out.Write(seg)
	}
	return out.Bytes() // no end: a reader stops long before it would look for one
}

// appendUpdate appends objects to a PDF as an incremental update.
func appendUpdate(data []byte, objs ...string) []byte {
	var b bytes.Buffer
	b.Write(data)
	for i, o := range objs {
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", 9000+i, o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d >>\n%%%%EOF\n", 9000+len(objs))
	return b.Bytes()
}

func stream(dict string, data []byte) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

// bounded runs verify and checks that it ends within limit and allocates at most maxAlloc bytes.
func bounded(t *testing.T, limit time.Duration, maxAlloc uint64, verify func()) {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	verify()
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%.2f s, %d MB allocated", took.Seconds(), alloc>>20)
	if took > limit {
		t.Errorf("took %v, limit %v", took, limit)
	}
	if alloc > maxAlloc {
		t.Errorf("allocated %d MB, limit %d MB", alloc>>20, maxAlloc>>20)
	}
}

// TestVerifyHostile: files built to make verify read, inflate or hang without end are refused (or
// judged) quickly, in bounded memory, with a clear message.
func TestVerifyHostile(t *testing.T) {
	me := newInstallation(t)
	signed := reportPDF(t, sampleReport(t), me.signer)
	bomb := zlibBomb(4096) // 4 GiB inflated, 4 MB in the file
	minimal := []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n")

	t.Run("attachment of 4 GiB", func(t *testing.T) {
		path := writeTemp(t, "bomb.pdf", appendUpdate(minimal, stream("/Type /EmbeddedFile /Filter /FlateDecode", bomb)))
		bounded(t, 5*time.Second, 400<<20, func() {
			_, err := Verify(path, VerifyOptions{Trust: me.trust(t)})
			if !errors.Is(err, ErrEmbeddedTooLarge) || !strings.Contains(err.Error(), "bomb.pdf") {
				t.Errorf("got %v, want ErrEmbeddedTooLarge naming the file", err)
			}
		})
	})
	t.Run("attachment of 4 GiB appended to a signed report", func(t *testing.T) {
		path := writeTemp(t, "signed-bomb.pdf", appendUpdate(signed, stream("/Type /EmbeddedFile /Filter /FlateDecode", bomb)))
		bounded(t, 5*time.Second, 400<<20, func() {
			res := me.verifyAs(t, path)
			wantVerdict(t, res, Invalid, "MODIFIED")
		})
	})
	t.Run("first page of 4 GiB appended to a signed report", func(t *testing.T) {
		page, dict, _ := firstPageContent(t, signed)
		data := appendUpdate(signed, stream("/Filter /FlateDecode", bomb))
		data = append(data, fmt.Sprintf("%d 0 obj\n%s\nendobj\n", page, contRe.ReplaceAll(dict, []byte("/Contents 9000 0 R")))...)
		path := writeTemp(t, "page-bomb.pdf", data)
		bounded(t, 5*time.Second, 100<<20, func() {
			wantVerdict(t, me.verifyAs(t, path), Invalid, "MODIFIED")
		})
	})
	t.Run("page of 4 GiB, no report", func(t *testing.T) {
		path := writeTemp(t, "page.pdf", appendUpdate(minimal, "<< /Type /Page /Contents 9001 0 R >>", stream("/Filter /FlateDecode", bomb)))
		bounded(t, 5*time.Second, 100<<20, func() {
			if _, err := Verify(path, VerifyOptions{}); !errors.Is(err, ErrNoReport) {
				t.Errorf("got %v, want ErrNoReport", err)
			}
		})
	})
	t.Run("file of 300 MB", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "huge.pdf")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("%PDF-1.4\n")
		f.Truncate(300 << 20) // sparse: nothing to write, all to read
		f.Close()
		bounded(t, time.Second, 10<<20, func() {
			_, err := Verify(path, VerifyOptions{})
			if !errors.Is(err, ErrNoReport) || !strings.Contains(err.Error(), "larger than any ThesisCheck report") {
				t.Errorf("got %v", err)
			}
		})
	})
	t.Run("named pipe", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "pipe.json")
		if err := syscall.Mkfifo(path, 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := Verify(path, VerifyOptions{})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("got %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("verify waits on a named pipe")
		}
		thesis := writeTemp(t, "r.json", reportJSON(t, sampleReport(t), me.signer))
		go func() {
			_, err := Verify(thesis, VerifyOptions{Document: path})
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("--document a pipe: got %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("verify --document waits on a named pipe")
		}
	})
	// A JSON report of two million empty paragraphs, signed so that its canonical form is made:
	// decoded whole, each costs a Paragraph (about 200 bytes) for its three.
	t.Run("JSON of two million paragraphs", func(t *testing.T) {
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"report_number": "TC-1", "certificate": %q, "signature": "AAAA", "paragraphs": [{}`, base64.StdEncoding.EncodeToString(me.signer.Cert.Raw))
		b.Write(bytes.Repeat([]byte(`,{}`), 2_000_000))
		b.WriteString("]}")
		path := writeTemp(t, "many.json", b.Bytes())
		bounded(t, 10*time.Second, 600<<20, func() {
			wantVerdict(t, me.verifyAs(t, path), Invalid, "MODIFIED")
		})
	})
	t.Run("JSON nested ten thousand deep", func(t *testing.T) {
		data := []byte(`{"report_number": "TC-1", "certificate": "` + base64.StdEncoding.EncodeToString(me.signer.Cert.Raw) + `", "signature": "AAAA", "x": ` +
			strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + "}")
		path := writeTemp(t, "deep.json", data)
		bounded(t, 5*time.Second, 100<<20, func() {
			res := me.verifyAs(t, path)
			wantVerdict(t, res, Invalid, "MODIFIED")
			if !strings.Contains(res.String(), "nested more than") {
				t.Errorf("got %s", res)
			}
		})
	})
}
