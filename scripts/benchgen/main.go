// Command benchgen writes the synthetic libraries and submissions scripts/bench.sh measures (prose
// from internal/synth), and probes a library: how long it takes to open and to check against.
//
//	benchgen -out DIR -n 10000 [-paras 30] [-docx 0]           library files (TXT, or DOCX every k-th)
//	benchgen -submission FILE -paras 40 [-copy 0.3] [-from 1000] a submission copying from documents < from
//	benchgen -probe LIBRARY -check A.txt,B.txt                  time Open and check.File in one process
//	benchgen -import LIBRARY FOLDER                             time an import as the app makes it
//
// For bench.sh, the library writer prints the bytes of text it wrote; the probe prints
// "segmenter_load_s" (jieba's dictionary), "open_s", "check_s FILE FIRST BEST" (the first check, then
// the best of three more, of twenty when one takes under 0.5 s) and "maxrss_kib" lines; the import
// prints "import_s".
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"thesischeck/check"
	"thesischeck/internal/hugepages"
	"thesischeck/internal/synth"
	"thesischeck/library"
	"thesischeck/similarity"
)

func main() {
	hugepages.Enable() // as thesischeck does, so that the probe loads jieba as the app does
	out := flag.String("out", "", "folder for the library files")
	n := flag.Int("n", 1000, "documents")
	paras := flag.Int("paras", 30, "paragraphs per document (or in the submission)")
	docxEvery := flag.Int("docx", 0, "write every k-th document as DOCX (0: all TXT; 1: all DOCX)")
	sub := flag.String("submission", "", "write a submission to this file instead of a library")
	copyShare := flag.Float64("copy", 0.3, "share of submission paragraphs copied from library documents")
	from := flag.Int("from", 1000, "the submission copies from documents 0..from-1")
	corpus := flag.String("corpus", "", "folder(s) of real text, separated by ':'; default: the devset library, else extract/testdata/txt")
	probeLib := flag.String("probe", "", "library to open and check against")
	checks := flag.String("check", "", "submissions to check in the probe, separated by ','")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the probe (open and checks) to this file")
	importLib := flag.String("import", "", "import the folder given as argument into this new library, jieba's dictionary loaded first, as the app imports")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchgen:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *importLib != "" {
		if err := importAsApp(*importLib, flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "benchgen:", err)
			os.Exit(1)
		}
		return
	}
	if *probeLib != "" {
		if err := probe(*probeLib, strings.Split(*checks, ",")); err != nil {
			pprof.StopCPUProfile()
			fmt.Fprintln(os.Stderr, "benchgen:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*out, *n, *paras, *docxEvery, *sub, *copyShare, *from, *corpus); err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
}

func run(out string, n, paras, docxEvery int, sub string, copyShare float64, from int, corpusDirs string) error {
	c, err := synth.Load(corpusDirs)
	if err != nil {
		return err
	}
	if sub != "" {
		ps := c.Submission(paras, copyShare, from)
		if strings.HasSuffix(sub, ".docx") {
			return synth.WriteDOCX(sub, ps)
		}
		return synth.WriteTXT(sub, ps)
	}
	if out == "" {
		return fmt.Errorf("-out or -submission is required")
	}
	text, err := c.WriteLibrary(out, n, paras, docxEvery)
	if err != nil {
		return err
	}
	fmt.Println("text_bytes", text)
	return nil
}

// importAsApp times an import as the app makes one: the dictionary is loaded when the app starts,
// so the import's time is opening the library, adding the files and closing it.
func importAsApp(dir string, paths []string) error {
	if _, err := similarity.Default(); err != nil {
		return err
	}
	defer library.LimitHeap()()
	t := time.Now()
	lib, err := library.Open(dir, nil)
	if err != nil {
		return err
	}
	res, err := lib.AddFiles(context.Background(), paths, library.AddOptions{}, nil)
	if err = errors.Join(err, lib.Close()); err != nil {
		return err
	}
	if len(res.Failed) > 0 {
		return fmt.Errorf("%d files failed, the first %s: %w", len(res.Failed), res.Failed[0].Path, res.Failed[0].Err)
	}
	fmt.Printf("import_s %.3f\n", time.Since(t).Seconds())
	return nil
}

// probe opens a library read-only and checks each file against it: the figures a user of the app
// waits for, without the process start and the segmenter's one-off load, which it does first.
func probe(dir string, files []string) error {
	start := time.Now()
	if _, err := similarity.Default(); err != nil {
		return err
	}
	fmt.Printf("segmenter_load_s %.3f\n", time.Since(start).Seconds())
	start = time.Now()
	lib, err := library.Open(dir, &library.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer lib.Close()
	fmt.Printf("open_s %.3f\n", time.Since(start).Seconds())
	for _, f := range files {
		if f == "" {
			continue
		}
		var first time.Duration
		best := time.Duration(math.MaxInt64)
		// Short checks are timed more often: their best of three moved by half between runs.
		for i, n := 0, 4; i < n; i++ {
			start := time.Now()
			if _, err := check.File(context.Background(), lib, f, nil, nil); err != nil {
				return err
			}
			d := time.Since(start)
			if i == 0 {
				first = d
			} else {
				if i == 1 && d < 500*time.Millisecond {
					n = 21
				}
				best = min(best, d)
			}
		}
		fmt.Printf("check_s %s %.3f %.3f\n", filepath.Base(f), first.Seconds(), best.Seconds())
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		fmt.Println("maxrss_kib", ru.Maxrss)
	}
	// Resident memory now, split into the process's own (anonymous) pages and mapped file pages
	// (the index segments and library.db, which the kernel can drop at will).
	if st, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(st), "\n") {
			if strings.HasPrefix(line, "RssAnon:") || strings.HasPrefix(line, "RssFile:") {
				fmt.Println(strings.Join(strings.Fields(line), " "))
			}
		}
	}
	return nil
}
