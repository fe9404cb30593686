package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"thesischeck/internal/redistest"
)

// The commands take a library on a Redis server wherever they take a folder, and a check against
// it reports what a check against a folder holding the same files reports.
func TestRedisLibraryCommands(t *testing.T) {
	srv := redistest.Start(t)
	url := srv.URL(1)
	folder := filepath.Join(t.TempDir(), "lib")
	class := writeClass(t)
	os.Remove(filepath.Join(class, "bad.pdf"))
	for _, lib := range []string{url, folder} {
		out, _, err := run(t, "library", "add", "--library", lib, class)
		if err != nil || !strings.Contains(out, "added 4 documents") {
			t.Fatalf("library add --library %s: %v\n%s", lib, err, out)
		}
	}
	out, _, err := run(t, "library", "add", "--library", url, class)
	if err != nil || !strings.Contains(out, "added 0 documents, 4 already in the library") {
		t.Fatalf("adding the same files again: %v\n%s", err, out)
	}
	out, _, err = run(t, "library", "list", "--library", url, "--json")
	var docs []struct {
		ID    uint64 `json:"id"`
		Title string `json:"title"`
	}
	if err != nil || json.Unmarshal([]byte(out), &docs) != nil || len(docs) != 4 {
		t.Fatalf("library list: %v, %d documents\n%s", err, len(docs), out)
	}

	type figures struct {
		Similarity float64 `json:"similarity"`
		Sources    []struct {
			Path       string  `json:"path"`
			Similarity float64 `json:"similarity"`
		} `json:"sources"`
	}
	checkWith := func(lib string) figures {
		out := filepath.Join(t.TempDir(), "r.json")
		if _, _, err := run(t, "check", "--library", lib, "--json", out, filepath.Join(class, "alice.txt")); err != nil {
			t.Fatalf("check --library %s: %v", lib, err)
		}
		b, err := os.ReadFile(out)
		var f figures
		if err != nil || json.Unmarshal(b, &f) != nil {
			t.Fatalf("report: %v", err)
		}
		return f
	}
	onRedis, onFolder := checkWith(url), checkWith(folder)
	if onRedis.Similarity < 0.3 || math.Abs(onRedis.Similarity-onFolder.Similarity) > 0.005 {
		t.Errorf("similarity %.4f against Redis, %.4f against the folder", onRedis.Similarity, onFolder.Similarity)
	}
	names := func(f figures) (s []string) {
		for _, src := range f.Sources {
			s = append(s, filepath.Base(src.Path))
		}
		slices.Sort(s)
		return s
	}
	if !slices.Equal(names(onRedis), names(onFolder)) || len(onRedis.Sources) == 0 {
		t.Errorf("sources %v against Redis, %v against the folder", names(onRedis), names(onFolder))
	}

	if _, _, err := run(t, "library", "check", "--library", url); err == nil || !strings.Contains(err.Error(), "library folder") {
		t.Errorf("library check of a Redis library: %v", err)
	}
	out, _, err = run(t, "library", "remove", "--library", url, fmt.Sprint(docs[0].ID))
	if err != nil || !strings.Contains(out, "removed 1 document") {
		t.Fatalf("library remove: %v\n%s", err, out)
	}
	if out, _, _ = run(t, "library", "list", "--library", url, "--json"); json.Unmarshal([]byte(out), &docs) != nil || len(docs) != 3 {
		t.Errorf("after removing one: %d documents", len(docs))
	}
}

// A server that is down, or that refuses the password, is one clear error within seconds, and no
// message shows the password.
func TestRedisLibraryUnreachable(t *testing.T) {
	srv := redistest.Start(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	// A listener that accepts and never answers: a server that hangs.
	mute, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer mute.Close()
	go func() {
		for {
			c, err := mute.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	for _, c := range []struct{ name, url, want string }{
		{"down", "redis://" + closed + "/0", closed},
		{"mute", "redis://" + mute.Addr().String() + "/0", mute.Addr().String()},
		{"password", "redis://:s3cret-pass@" + srv.Addr + "/0", srv.Addr},
		{"database", "redis://" + srv.Addr + "/999", srv.Addr},
	} {
		start := time.Now()
		_, stderr, err := run(t, "library", "list", "--library", c.url)
		took := time.Since(start)
		if err == nil {
			t.Errorf("%s: library list succeeded", c.name)
			continue
		}
		if took > 15*time.Second {
			t.Errorf("%s: the error took %v", c.name, took)
		}
		msg := err.Error() + stderr
		if !strings.Contains(msg, c.want) || strings.Contains(msg, "s3cret") {
			t.Errorf("%s: error %q names no %s, or shows the password", c.name, msg, c.want)
		}
	}
}
