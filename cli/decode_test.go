package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTextWithBadBytes: a UTF-8 text copied from a library document, with one 0xFF byte appended
// or one invalid byte in its middle, checks as the clean copy does (issue 17: it was read as
// GB18030 gibberish and scored 0 %, or refused), exits 0 and prints a warning naming the bytes.
func TestTextWithBadBytes(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib")
	cmds := [][]string{{"library", "add", "--library", lib, "../check/testdata/library"}}
	type variant struct{ name, file string }
	var variants []variant
	for _, src := range []string{"zh-wetland.txt", "en-printing.txt"} {
		data, err := os.ReadFile(filepath.Join("../check/testdata/library", src))
		if err != nil {
			t.Fatal(err)
		}
		mid := len(data) / 2
		for mid < len(data) && data[mid]&0xC0 == 0x80 { // a character boundary
			mid++
		}
		for _, v := range []struct {
			name string
			data []byte
		}{
			{"clean", data},
			{"ff-appended", append(append([]byte{}, data...), 0xFF)},
			{"ff-in-middle", append(append(append([]byte{}, data[:mid]...), 0xFF), data[mid:]...)},
		} {
			p := filepath.Join(dir, v.name+"-"+src)
			if err := os.WriteFile(p, v.data, 0o644); err != nil {
				t.Fatal(err)
			}
			variants = append(variants, variant{v.name, p})
			cmds = append(cmds, []string{"check", "--library", lib, "--json", p + ".json", p})
		}
	}
	res := runChild(t, cmds)
	if res[0].Err != "" {
		t.Fatalf("library add: %s", res[0].Err)
	}
	var clean float64
	for i, v := range variants {
		r := res[1+i]
		if r.Err != "" {
			t.Errorf("%s: exit with %q, want 0", v.file, r.Err)
			continue
		}
		raw, err := os.ReadFile(v.file + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Similarity float64
			Warnings   []struct{ Kind, Message string }
		}
		if err := json.Unmarshal(raw, &rep); err != nil {
			t.Fatal(err)
		}
		t.Logf("%-45s similarity %.4f, warnings %v", filepath.Base(v.file), rep.Similarity, rep.Warnings)
		if v.name == "clean" {
			clean = rep.Similarity
			// The same bytes as the library's file: the only warning says so.
			if clean < 0.5 || len(rep.Warnings) != 1 || rep.Warnings[0].Kind != "same_file" {
				t.Errorf("%s: similarity %.3f, warnings %v; want a copy found whole, the same-file warning only", v.file, clean, rep.Warnings)
			}
			continue
		}
		if math.Abs(rep.Similarity-clean) > 0.01 {
			t.Errorf("%s: similarity %.4f, the clean copy %.4f", v.file, rep.Similarity, clean)
		}
		if len(rep.Warnings) != 1 || rep.Warnings[0].Kind != "replaced" {
			t.Errorf("%s: warnings %v, want one of kind replaced", v.file, rep.Warnings)
		}
		if !strings.Contains(r.Stdout, "warning: 1 byte not valid in UTF-8 (at byte ") {
			t.Errorf("%s: the warning is not printed:\n%s", v.file, r.Stdout)
		}
	}
}
