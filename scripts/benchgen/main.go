// Command benchgen writes the synthetic libraries and submissions scripts/bench.sh measures (prose
// from internal/synth), and probes a library: how long it takes to open and to check against.
//
//	benchgen -out DIR -n 10000 [-paras 30] [-docx 0]           library files (TXT, or DOCX every k-th)
//	benchgen -archive DIR -n 10000 [-docx 0]                   unrelated documents, a quarter of them
//	                                                            other schools' theses (scripts/archive.sh)
//	benchgen -submission FILE -paras 40 [-copy 0.3] [-from 1000] a submission copying from documents < from
//	benchgen -probe LIBRARY -check A.txt,B.txt                  time Open and check.File in one process
//	benchgen -import LIBRARY FOLDER                             time an import as the app makes it
//	benchgen -time OUT COMMAND [ARG...]                         time a command and sample its memory
//	benchgen -class DIR -n 1000 [-pages 20] [-lang zh] [-docx 0] a class of submissions for compare
//
// For bench.sh, the library writer prints the bytes of text it wrote; the probe prints
// "segmenter_load_s" (jieba's dictionary), "open_s", "check_s FILE FIRST BEST" (the first check, then
// the best of three more, of twenty when one takes under 0.5 s) and "maxrss_kib" lines; the import
// prints "import_s"; -time writes "seconds maxrss_kib anon_kib" to OUT and the command's output to
// OUT.log.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
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
	out := flag.String("out", "", "folder for the library files")
	archive := flag.String("archive", "", "folder for unrelated archive documents (synth.WriteArchive)")
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
	timeOut := flag.String("time", "", "run the command given as arguments, write its time and peak memory to this file")
	class := flag.String("class", "", "write a class of -n submissions of -pages pages to this folder")
	pages := flag.Int("pages", 20, "pages of each class submission")
	lang := flag.String("lang", "zh", "language of the class: zh or en")
	calib := flag.Bool("calibrate", false, "time a fixed workload on one core (this machine's speed at the minute) and exit")
	flag.Parse()
	if *calib {
		calibrate()
		return
	}
	if *timeOut != "" {
		if err := timeCommand(*timeOut, flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "benchgen:", err)
			os.Exit(1)
		}
		return
	}
	// As thesischeck does, so that the probe loads jieba as the app does; not for a command timed,
	// which should start as a user starts it, without the variable this sets.
	hugepages.Enable()
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
	if *archive != "" {
		c, err := synth.Load(*corpus)
		if err == nil {
			var theses int
			theses, err = c.WriteArchive(*archive, *n, *docxEvery)
			fmt.Println("theses", theses)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchgen:", err)
			os.Exit(1)
		}
		return
	}
	if *class != "" {
		if err := writeClass(*class, *corpus, synth.ClassSpec{Docs: *n, Pages: *pages, Lang: *lang,
			Copying: *n / 20, CopyShare: 0.4, DocxEvery: *docxEvery}); err != nil {
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
		switch filepath.Ext(sub) {
		case ".docx":
			return synth.WriteDOCX(sub, ps)
		case ".pdf":
			pages, err := synth.WritePDF(sub, "学位论文 Thesis", ps)
			fmt.Println("pages", pages)
			return err
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

// writeClass writes a class for compare: a twentieth of the submissions in copying pairs (2k+1
// takes 40 % of its paragraphs from 2k). It prints the characters and paragraphs written.
func writeClass(dir, corpusDirs string, spec synth.ClassSpec) error {
	c, err := synth.Load(corpusDirs)
	if err != nil {
		return err
	}
	st, err := c.WriteClass(dir, spec)
	if err != nil {
		return err
	}
	fmt.Println("chars", st.Chars)
	fmt.Println("paragraphs", st.Paragraphs)
	fmt.Println("copying_pairs", spec.Copying)
	return nil
}

// timeCommand runs a command, writes "seconds maxrss_kib anon_kib" to out and the command's output to
// out.log. maxrss counts every resident page, mapped files (the index, library.db) included;
// anon_kib, sampled five times a second, is the process's own memory alone (heap, jieba), which
// the kernel cannot drop. The sampling is done here, not in bench.sh: a shell loop forking awk and
// sleep for it took 0.15-0.2 s of CPU from a 2.4 s import on this 2-core machine.
func timeCommand(out string, args []string) error {
	if len(args) == 0 {
		return errors.New("-time: no command")
	}
	log, err := os.Create(out + ".log")
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = log, log
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	anon := 0
	for {
		select {
		case err := <-done:
			secs := time.Since(start).Seconds()
			if err != nil {
				return fmt.Errorf("%s: %w (output in %s.log)", strings.Join(args, " "), err, out)
			}
			ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			if ru == nil {
				return errors.New("-time: no resource usage on this system")
			}
			return os.WriteFile(out, fmt.Appendf(nil, "%.2f %d %d\n", secs, ru.Maxrss, anon), 0o644)
		case <-tick.C:
			anon = max(anon, rssAnon(status))
		}
	}
}

// rssAnon reads the RssAnon line of a /proc/PID/status file, in KiB (0 when it cannot).
func rssAnon(status string) int {
	st, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(st), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "RssAnon:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
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
			restore := check.CollectLess() // as the app checks
			_, err := check.File(context.Background(), lib, f, nil, nil)
			restore()
			if err != nil {
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
