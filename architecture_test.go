package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// corePackages are the packages that hold no user interface: none may depend on Fyne or on ui.
var corePackages = []string{"check", "compare", "extract", "keys", "library", "prepare", "report", "similarity"}

// TestArchitecture keeps docs/architecture.md and the layering it describes true: the page names
// every package of the module, every package has a package comment, library knows no file format
// (it does not import extract), and no core package depends on Fyne or ui, directly or through
// another package of ours.
func TestArchitecture(t *testing.T) {
	page, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	imports, documented := modulePackages(t)
	if len(imports) < 10 {
		t.Fatalf("found %d packages; is the test run from the module root?", len(imports))
	}
	for pkg := range imports {
		if !strings.Contains(string(page), "`"+pkg+"`") {
			t.Errorf("docs/architecture.md does not name package %s (as `%s`)", pkg, pkg)
		}
		if !documented[pkg] {
			t.Errorf("package %s has no package comment", pkg)
		}
	}
	for _, imp := range imports["thesischeck/library"] {
		if imp == "thesischeck/extract" {
			t.Error("library imports extract: it should store prepared documents (package prepare), not read files")
		}
	}
	for _, core := range corePackages {
		seen := map[string]bool{}
		var visit func(pkg string, path []string)
		visit = func(pkg string, path []string) {
			if seen[pkg] {
				return
			}
			seen[pkg] = true
			for _, imp := range imports[pkg] {
				via := append(path[:len(path):len(path)], imp)
				if strings.HasPrefix(imp, "fyne.io/") || imp == "thesischeck/ui" || strings.HasPrefix(imp, "thesischeck/ui/") {
					t.Errorf("core package %s depends on %s: %s", core, imp, strings.Join(via, " → "))
					continue
				}
				if strings.HasPrefix(imp, "thesischeck/") || imp == "thesischeck" {
					visit(imp, via)
				}
			}
		}
		visit("thesischeck/"+core, []string{"thesischeck/" + core})
	}
}

// modulePackages maps every package of the module (outside third_party and testdata) to the
// imports of its non-test files, and says which packages have a package comment.
func modulePackages(t *testing.T) (imports map[string][]string, documented map[string]bool) {
	t.Helper()
	out := map[string][]string{}
	documented = map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(name, ".") || name == "third_party" || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		for _, c := range f.Comments {
			if c.Pos() < f.Package && strings.HasPrefix(c.List[0].Text, "//go:build ignore") {
				return nil // a generator run by hand, no package of the module
			}
		}
		pkg := "thesischeck"
		if dir := filepath.ToSlash(filepath.Dir(path)); dir != "." {
			pkg += "/" + dir
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		if f.Doc != nil && strings.TrimSpace(f.Doc.Text()) != "" {
			documented[pkg] = true
		}
		for _, is := range f.Imports {
			imp, err := strconv.Unquote(is.Path.Value)
			if err != nil {
				return err
			}
			out[pkg] = append(out[pkg], imp)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, documented
}
