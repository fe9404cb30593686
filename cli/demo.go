package cli

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"thesischeck/assets"
	"thesischeck/library"
)

// demoThesis is the sample the demo checks when it opens (assets/sample holds an English essay too).
const demoThesis = "示例论文-城市慢行交通.txt"

// demoDir is where the sample library and the sample theses are unpacked, under the user's cache
// folder: they can be made again at any time, so they are not the user's data.
func demoDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	return filepath.Join(cache, "thesischeck", "demo"), nil
}

// demo unpacks the sample library that ships inside the binary (assets.Sample) and builds it, once;
// it returns the library's folder and the Chinese sample thesis to check. A demo library that no
// longer opens (damaged, or made by another version of the analyser) is built again.
func demo(ctx context.Context, stderr io.Writer) (libDir, thesis string, err error) {
	root, err := demoDir()
	if err != nil {
		return "", "", err
	}
	samples := filepath.Join(root, "samples")
	libDir = filepath.Join(root, "library")
	var docs []string
	err = fs.WalkDir(assets.Sample, "sample", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := assets.Sample.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(samples, filepath.FromSlash(p[len("sample/"):]))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			return err
		}
		if path.Base(path.Dir(p)) == "library" {
			docs = append(docs, out)
		}
		return nil
	})
	if err != nil {
		return "", "", fmt.Errorf("demo: unpack the samples into %s: %w", samples, err)
	}
	thesis = filepath.Join(samples, demoThesis)
	if n, err := demoDocuments(libDir); err == nil && n == len(docs) {
		return libDir, thesis, nil
	}
	if err := os.RemoveAll(libDir); err != nil {
		return "", "", fmt.Errorf("demo: %w", err)
	}
	fmt.Fprintf(stderr, "thesischeck: building the sample library in %s\n", libDir)
	lib, err := library.Open(libDir, nil)
	if err != nil {
		return "", "", fmt.Errorf("demo: %w", err)
	}
	res, err := lib.AddFiles(ctx, docs, library.AddOptions{}, nil)
	if cerr := lib.Close(); err == nil {
		err = cerr
	}
	if err == nil && len(res.Failed) > 0 {
		err = fmt.Errorf("%s: %w", res.Failed[0].Path, res.Failed[0].Err)
	}
	if err != nil {
		return "", "", fmt.Errorf("demo: build the sample library: %w", err)
	}
	return libDir, thesis, nil
}

// demoDocuments is how many documents the demo library holds, or an error when it does not open.
func demoDocuments(dir string) (int, error) {
	if _, err := os.Stat(filepath.Join(dir, "library.db")); err != nil {
		return 0, err
	}
	lib, err := library.Open(dir, &library.Options{ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer lib.Close()
	docs, err := lib.List()
	return len(docs), err
}
