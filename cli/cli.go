// Package cli is ThesisCheck's command line: it parses arguments, calls the same functions the
// desktop app calls, and prints results. Run returns an error; main decides the exit code.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"thesischeck/check"
	"thesischeck/extract"
	"thesischeck/keys"
	"thesischeck/library"
	"thesischeck/report"
	"thesischeck/rules"
	"thesischeck/similarity"
)

// GUI opens the desktop app; file, when not empty, is checked and its report shown. main sets it, so
// that this package does not depend on Fyne.
type GUI func(libraryDir, file string) error

// ErrUsage is returned for wrong arguments; the usage has been printed.
var ErrUsage = errors.New("usage")

// ErrFailed means some inputs failed; each has had its own error line.
var ErrFailed = errors.New("some files failed")

// ErrUntrusted means verify found reports unchanged since they were signed, but by keys not trusted
// (and none that failed); each has had its line.
var ErrUntrusted = errors.New("signed by a key not trusted")

const usage = `ThesisCheck (论文查重): a local plagiarism checker.

  thesischeck [--library DIR]                                  open the desktop app
  thesischeck open [--library DIR] FILE                        open the app, check FILE, show the report
  thesischeck open --demo                                      try it: the app on a sample library, a sample thesis checked
  thesischeck library add [--library DIR] [--template] PATH... add files, or folders recursively
  thesischeck library list [--library DIR] [--json]
  thesischeck library remove [--library DIR] ID...
  thesischeck library compact [--library DIR]                  drop removed documents from the index
  thesischeck library check [--library DIR] [--json]           find damage: exit 1 when there is any
  thesischeck library repair [--library DIR] [--json]          rebuild what damage left, name what is lost
  thesischeck check [--library DIR] [--json OUT] [--pdf OUT] [--html OUT] [--include-references]
                    [--include-front-matter] [--min-run N] [--exclude-source ID]... [--profile NAME|FILE] FILE
                                                               profiles: bachelor, master, phd, or a school's file
  thesischeck compare [--threshold 15%] [--library DIR] [--old DIR]... [--info FILE.csv]
                      [--json OUT] [--pdf OUT] [--html OUT] [--csv OUT] PATH...
                                                               compare a class's submissions pair by pair
  thesischeck extract [--json] FILE
  thesischeck verify [--document THESIS] REPORT...           check reports' signatures (exit 0 valid,
                                                               2 signed by a key not trusted, 1 changed)
  thesischeck keys                                             your signing key's fingerprint and certificate
  thesischeck keys trust FILE [--name NAME]                    trust the reports signed with another key
  thesischeck keys list
  thesischeck keys remove FINGERPRINT|NAME

The library defaults to ~/.local/share/thesischeck/library. --library takes a folder, or a department's
library on a Redis server: redis://[user:password@]host:port/db (rediss:// for TLS).
`

// Run runs the command line with args (without the program name).
func Run(args []string, gui GUI, stdout, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if len(args) == 0 {
		return gui("", "")
	}
	cmd, rest := args[0], args[1:]
	// "thesischeck --library DIR" (or -library=DIR) with no command opens the app on that library, as
	// "open --library DIR" does: a student types the flag the usage shows, not a subcommand.
	if strings.HasPrefix(cmd, "-") && cmd != "-h" && cmd != "--help" {
		cmd, rest = "open", args
	}
	if cmd == "open" {
		return runOpen(ctx, rest, gui, stderr)
	}
	// fyne's desktop driver and its tray lock the main goroutine to the process's first thread as
	// they are initialised, as the app's windows need. A command opens none and runs on a goroutine
	// of its own: on the locked one, each time it waited and woke (for the library opening, for a
	// parallel loop's workers, for their progress) a core was handed to its thread and back, and
	// the other core stood idle meanwhile.
	errc := make(chan error, 1)
	go func() { errc <- runCommand(ctx, cmd, rest, stdout, stderr) }()
	return <-errc
}

// runOpen opens the app ("open", or a flag with no command).
func runOpen(ctx context.Context, args []string, gui GUI, stderr io.Writer) error {
	fs, dir := newFlags("open", stderr)
	sample := fs.Bool("demo", false, "open on the sample library inside ThesisCheck and check its sample thesis")
	files, err := parseInterleaved(fs, args)
	switch {
	case err != nil:
		return usageError(stderr, "open", err.Error())
	case len(files) > 1:
		return usageError(stderr, "open", tooMany("file", files))
	case *sample && (*dir != "" || len(files) > 0):
		return usageError(stderr, "open", "--demo opens the sample library on its sample thesis: no --library or file with it")
	}
	if *sample {
		libDir, thesis, err := demo(ctx, stderr)
		if err != nil {
			return err
		}
		return gui(libDir, thesis)
	}
	file := ""
	if len(files) == 1 {
		file = files[0]
	}
	return gui(*dir, file)
}

// runCommand runs every command but open.
func runCommand(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer) error {
	switch cmd {
	case "library":
		if len(args) == 0 {
			return usageError(stderr, "library", "which? add, list, remove, compact, check or repair")
		}
		return runLibrary(ctx, args[0], args[1:], stdout, stderr)
	case "check":
		return runCheck(ctx, args, stdout, stderr)
	case "extract":
		return runExtract(args, stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	if extra, ok := commands[cmd]; ok {
		return extra(ctx, args, stdout, stderr)
	}
	return usageError(stderr, "", fmt.Sprintf("unknown command %q", cmd))
}

// WholeDictionary reports whether running args may load jieba's whole dictionary: the app, an
// import, a repair, a class comparison. main gives those glibc's huge pages (internal/hugepages),
// which start the process a second time (8 ms, perf stat): a check reads only its document's words
// (similarity.ForTexts) and the other commands none, and would pay it for nothing.
func WholeDictionary(args []string) bool {
	if len(args) == 0 {
		return true
	}
	switch args[0] {
	case "check", "extract", "verify", "keys", "-h", "--help", "help":
		return false
	case "library":
		return len(args) > 1 && (args[1] == "add" || args[1] == "repair")
	}
	return true
}

// commands holds subcommands defined in other files of this package (compare, verify, keys).
var commands = map[string]func(ctx context.Context, args []string, stdout, stderr io.Writer) error{}

// usageError says in one line what was wrong with the arguments of cmd ("check", "library add"),
// then shows how cmd is typed: the reason first, where the eye lands, not under forty lines of
// usage. With no cmd, or one the usage does not know, the whole usage follows.
func usageError(stderr io.Writer, cmd, reason string) error {
	name := strings.TrimSpace("thesischeck " + cmd)
	fmt.Fprintf(stderr, "%s: %s\n", name, reason)
	if lines := usageOf(cmd); lines != "" {
		fmt.Fprintf(stderr, "usage:\n%s('thesischeck --help' shows every command)\n", lines)
	} else {
		fmt.Fprint(stderr, usage)
	}
	return ErrUsage
}

// usageOf returns the usage's lines for cmd, with the lines that continue them.
func usageOf(cmd string) string {
	if cmd == "" {
		return ""
	}
	var b strings.Builder
	in := false
	for _, line := range strings.SplitAfter(usage, "\n") {
		switch rest, ok := strings.CutPrefix(line, "  thesischeck "+cmd); {
		case ok && (rest == "\n" || strings.HasPrefix(rest, " ")):
			in = true
		case strings.HasPrefix(line, "    ") && strings.TrimSpace(line) != "":
			// a continuation: flags that did not fit, or the description's second line
		default:
			in = false
		}
		if in {
			b.WriteString(line)
		}
	}
	return b.String()
}

// tooMany says that a command given more operands than it takes got them, naming them: a path with
// a space not quoted is the usual cause.
func tooMany(what string, args []string) string {
	return fmt.Sprintf("one %s at a time, %s (a path with spaces needs quotes)", what, got(args))
}

// got names the arguments a command was given: "got 2: a, b".
func got(args []string) string {
	if len(args) == 0 {
		return "got none"
	}
	return fmt.Sprintf("got %d: %s", len(args), strings.Join(args, ", "))
}

// oneFile is the error of a command that takes one file, given files after parsing: err itself if
// parsing failed.
func oneFile(err error, files []string) error {
	switch {
	case err != nil:
		return err
	case len(files) == 0:
		return errors.New("no file given")
	case len(files) > 1:
		return errors.New(tooMany("file", files))
	}
	return nil
}

// parseInterleaved parses flags wherever they stand among the operands, as people type them
// ("check thesis.pdf --pdf report.pdf"), and returns the operands; after "--" all are operands.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(operands, rest...), nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

func newFlags(name string, stderr io.Writer) (*flag.FlagSet, *string) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("library", "", "library folder or redis:// URL")
	return fs, dir
}

func openLibrary(dir string, readOnly bool) (*library.Library, error) {
	if dir == "" {
		var err error
		if dir, err = library.DefaultDir(); err != nil {
			return nil, err
		}
	}
	return library.Open(dir, &library.Options{ReadOnly: readOnly})
}

// neverMade reports whether a read-only open failed because no library was ever made there. A
// library missing a file of its own (its paragraph store, an index segment) fails with the
// file's fs.ErrNotExist too, but is damaged: it was said to hold no documents, and list said no
// library was there yet.
func neverMade(err error) bool {
	return errors.Is(err, os.ErrNotExist) && !errors.Is(err, library.ErrDamaged)
}

func runLibrary(ctx context.Context, sub string, args []string, stdout, stderr io.Writer) error {
	fs, dir := newFlags("library "+sub, stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	template := fs.Bool("template", false, "the files are templates, never counted as copying")
	operands, err := parseInterleaved(fs, args)
	if err != nil {
		return usageError(stderr, "library "+sub, err.Error())
	}
	if len(operands) > 0 && (sub == "list" || sub == "check" || sub == "repair" || sub == "compact") {
		return usageError(stderr, "library "+sub, "takes no arguments, "+got(operands))
	}
	switch sub {
	case "add":
		if len(operands) == 0 {
			return usageError(stderr, "library add", "no files or folders to add")
		}
		return addFiles(ctx, *dir, operands, *template, stdout, stderr)
	case "list":
		lib, err := openLibrary(*dir, true)
		if err != nil {
			if neverMade(err) {
				// Never made: as empty as a library gets. A folder named that holds no library may
				// be a mistyped one, so it is said.
				if *dir != "" {
					fmt.Fprintf(stderr, "thesischeck: no library in %s yet: 'thesischeck library add --library %s FILE...' makes one\n", *dir, *dir)
				}
				return listDocs(nil, *asJSON, stdout)
			}
			return err
		}
		defer lib.Close()
		docs, err := lib.List()
		// The documents are listed, damaged ones too (with why), before the error.
		if lerr := listDocs(docs, *asJSON, stdout); lerr != nil {
			return lerr
		}
		return err
	case "check":
		return checkLibrary(*dir, *asJSON, stdout, stderr)
	case "repair":
		return repairLibrary(*dir, *asJSON, stdout, stderr)
	case "remove":
		if len(operands) == 0 {
			return usageError(stderr, "library remove", "no document IDs to remove ('thesischeck library list' shows them)")
		}
		var ids []uint64
		for _, a := range operands {
			id, err := strconv.ParseUint(a, 10, 64)
			if err != nil {
				return fmt.Errorf("remove: %q is not a document id (see 'thesischeck library list')", a)
			}
			ids = append(ids, id)
		}
		lib, err := openLibrary(*dir, false)
		if err != nil {
			return err
		}
		defer lib.Close()
		if err := lib.Remove(ids...); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "removed %s\n", counted(len(ids), "document"))
		return nil
	case "compact":
		lib, err := openLibrary(*dir, false)
		if err != nil {
			return err
		}
		defer lib.Close()
		n, err := lib.Compact()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "compacted: %d removed documents' index entries dropped\n", n)
		return nil
	}
	return usageError(stderr, "library", fmt.Sprintf("unknown command %q: add, list, remove, compact, check or repair", sub))
}

// addFiles imports files and folders into the library, printing what was added, what was read with
// changes to its text, and what failed.
func addFiles(ctx context.Context, dir string, paths []string, template bool, stdout, stderr io.Writer) error {
	defer library.LimitHeap()()
	lib, err := openLibrary(dir, false)
	if err != nil {
		return err
	}
	defer lib.Close()
	bar := newBar(stderr)
	res, err := lib.AddFiles(ctx, paths, library.AddOptions{Template: template}, func(p library.AddProgress) {
		bar.update("import", p.Done, p.Total, p.Current)
	})
	bar.done()
	fmt.Fprintf(stdout, "added %s", counted(len(res.Added), "document"))
	if len(res.Duplicates) > 0 {
		fmt.Fprintf(stdout, ", %d already in the library", len(res.Duplicates))
	}
	docs, paras := lib.Stats()
	fmt.Fprintf(stdout, "; the library holds %s, %s\n", counted(docs, "document"), counted(paras, "paragraph"))
	for _, w := range res.Warned {
		fmt.Fprintf(stdout, "warning: %s\n", warningLine(w.Path, w.Warnings))
	}
	for _, f := range res.Failed {
		fmt.Fprintf(stderr, "thesischeck: %s\n", errorLine(f.Path, f.Err))
	}
	if err != nil {
		return err
	}
	if len(res.Failed) > 0 {
		return ErrFailed
	}
	return nil
}

func listDocs(docs []library.DocInfo, asJSON bool, stdout io.Writer) error {
	if asJSON {
		if docs == nil {
			docs = []library.DocInfo{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		enc.SetEscapeHTML(false)
		return enc.Encode(docs)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTITLE\tPARAGRAPHS\tCHARS\tADDED\tPATH")
	for _, d := range docs {
		title := d.Title
		if d.Template {
			title += " (template)"
		}
		if d.Damaged != "" {
			title = "DAMAGED: " + d.Damaged
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%s\t%s\n", d.ID, title, d.Paragraphs, d.Chars, d.Added.Local().Format("2006-01-02 15:04"), d.Path)
	}
	return tw.Flush()
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, dir := newFlags("check", stderr)
	jsonOut := fs.String("json", "", "write the JSON report to this file ('-' for standard output)")
	pdfOut := fs.String("pdf", "", "write the PDF report to this file")
	htmlOut := fs.String("html", "", "write the HTML report to this file")
	refs := fs.Bool("include-references", false, "also check references and headings")
	front := fs.Bool("include-front-matter", false, "also check the front matter: title page, declarations, authorisations, signature and date lines")
	minRun := fs.Int("min-run", 0, "shortest copied run in characters (default 13)")
	profileArg := fs.String("profile", "", "judge the figures by a school's rules: bachelor, master, phd, or a profile file (TOML or JSON)")
	var excluded []uint64
	fs.Func("exclude-source", "leave this library document (ID, as 'library list' shows) out of the figures; repeatable", func(v string) error {
		id, err := strconv.ParseUint(v, 10, 64)
		excluded = append(excluded, id)
		return err
	})
	files, err := parseInterleaved(fs, args)
	if err = oneFile(err, files); err != nil {
		return usageError(stderr, "check", err.Error())
	}
	if *minRun < 0 {
		return fmt.Errorf("check: --min-run %d: must be 0 (the default, 13 characters) or more", *minRun)
	}
	// The check aligns at the default shortest match, or at a shorter one asked for; a longer one
	// filters what it found, so that the report can say what that filter left out
	// (check.Result.Recompute), as the app's does.
	opts := check.Options{IncludeReferences: *refs, IncludeFrontMatter: *front, MinRunChars: min(*minRun, similarity.DefaultAlign.MinChars)}
	var profile *rules.Profile
	if *profileArg != "" {
		p, err := rules.Load(*profileArg)
		if err != nil {
			return err
		}
		profile = &p
		po := p.Options() // the parts the school counts, and any the switches add
		opts.IncludeReferences = opts.IncludeReferences || po.IncludeReferences
		opts.IncludeFrontMatter = opts.IncludeFrontMatter || po.IncludeFrontMatter
	}
	bar := newBar(stderr)
	progress := func(s check.Stage, done, total int) { bar.update(string(s), done, total, "") }
	// The library opens while the file is read (0.03 s of a 313-page thesis's check against 100,000
	// documents); a bad file is told first all the same. What the check's first queries would make
	// (Library.Warm: the lists of frequent grams, 26 ms on one core) is made once the reading leaves
	// a core idle (extract.Trace: a PDF's layout joins its pages on one core for 20-30 ms), not
	// later beside the work of the check on both: the thesis's check took 1.3 % less time (wall
	// ratio 0.987, quartiles 0.984-0.999, 20 alternated pairs).
	type opened struct {
		lib *library.Library
		err error
	}
	libc := make(chan opened, 1)
	idle := make(chan struct{})
	var idleOnce sync.Once
	leaveIdle := func() { idleOnce.Do(func() { close(idle) }) }
	go func() {
		lib, err := openLibrary(*dir, true)
		libc <- opened{lib, err}
		if err == nil {
			<-idle
			lib.Warm() // does nothing once the library is closed
			// Then, on the same core, what the check makes first while the reading's end (a PDF's
			// paragraphs classified, notes found) still runs on one: the library's word weights and
			// Normalize's tables (perf: 5-6 ms of the 11 that core stood idle). An error is told
			// by the check's own call.
			lib.Weights()
			similarity.Preload()
		}
	}()
	defer check.CollectLess()()
	doc, sha, err := check.Read(extract.WithTrace(ctx, &extract.Trace{OneCore: leaveIdle}), files[0], progress)
	leaveIdle() // read, or failed, without a core left idle
	if err != nil {
		bar.done()
		go func() { // not waited for: a library server that does not answer must not hold the error back
			if o := <-libc; o.err == nil {
				o.lib.Close()
			}
		}()
		return err
	}
	o := <-libc
	lib, err := o.lib, o.err
	if neverMade(err) && *dir != "" { // as empty as a library gets
		err = check.EmptyLibrary(*dir, 0, 0)
	}
	if err != nil {
		bar.done()
		return err
	}
	// The library is closed (its index unmapped: 10-15 ms on one core) while the report is built,
	// once the check is done with it.
	closed := make(chan struct{})
	closeLibrary := sync.OnceFunc(func() {
		go func() {
			lib.Close()
			close(closed)
		}()
	})
	defer func() {
		closeLibrary()
		<-closed
	}()
	for _, id := range excluded {
		if _, _, err := lib.Doc(id); err != nil {
			bar.done()
			return fmt.Errorf("--exclude-source %d: %w", id, err)
		}
	}
	res, err := check.Check(check.WithTrace(ctx, &check.Trace{LibraryDone: closeLibrary}), lib, doc, sha, &opts, progress)
	bar.done()
	if err != nil {
		return err
	}
	r := res.Recompute(excluded, *minRun)
	if profile != nil {
		r = profile.Judged(r)
	}
	if err := writeReport(r, *jsonOut, *pdfOut, *htmlOut, stdout); err != nil {
		return err
	}
	printSummary(r, stdout)
	return nil
}

// writeReport signs r with the user's key (so `verify` can tell later changes) and writes the
// reports asked for.
func writeReport(r *report.Report, jsonOut, pdfOut, htmlOut string, stdout io.Writer) error {
	if jsonOut == "" && pdfOut == "" && htmlOut == "" {
		return nil
	}
	s, err := keys.LoadOrCreateUser()
	if err != nil {
		return err
	}
	if err := r.Sign(s); err != nil {
		return err
	}
	if jsonOut == "-" {
		if err := r.WriteJSON(stdout); err != nil {
			return err
		}
	} else if jsonOut != "" {
		if err := r.SaveJSON(jsonOut); err != nil {
			return err
		}
	}
	if pdfOut != "" {
		if err := r.SavePDF(pdfOut, s); err != nil {
			return err
		}
	}
	if htmlOut != "" {
		if err := r.SaveHTML(htmlOut, s); err != nil {
			return err
		}
	}
	return nil
}

// counted is "1 paragraph", "2 paragraphs".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func printSummary(r *report.Report, w io.Writer) {
	fmt.Fprintf(w, "%s  %s\n", r.Number, r.Document.Path)
	fmt.Fprintf(w, "similarity %.1f%%  excluding quotes %.1f%%  largest single source %.1f%%  copied %d of %d characters, %s flagged\n",
		r.Similarity*100, r.SimilarityExcludingQuotes*100, r.MaxSingleSource*100, r.CopiedChars, r.TotalChars, counted(r.FlaggedParas, "paragraph"))
	for i, s := range r.Sources {
		if i == 10 {
			fmt.Fprintf(w, "  … %d more sources\n", len(r.Sources)-10)
			break
		}
		fmt.Fprintf(w, "  %5.1f%%  %s\n", s.Similarity*100, s.Path)
	}
	if v := r.Verdict; v != nil {
		fmt.Fprintf(w, "verdict: %s by the rules %q (%s %.1f%%: pass below %g%%, fail from %g%%)\n", v.Outcome, v.Profile, v.Figure, v.Value*100, v.PassBelow, v.FailFrom)
		if v.Mismatch != "" {
			fmt.Fprintf(w, "warning: %s\n", v.Mismatch)
		}
		if v.Outcome == rules.Review {
			fmt.Fprintf(w, "review: below the pass limit, but the warnings below (%s) stand against a pass: a person should look first\n", joinKinds(v.Doubts))
		}
	}
	for _, x := range r.ExcludedSources {
		fmt.Fprintf(w, "left out on request: document %d %s\n", x.ID, x.Title)
	}
	for _, wn := range r.Warnings {
		fmt.Fprintf(w, "warning: %s\n", wn.Message)
	}
}

func runExtract(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print paragraphs with their section and notes as JSON")
	files, err := parseInterleaved(fs, args)
	if err = oneFile(err, files); err != nil {
		return usageError(stderr, "extract", err.Error())
	}
	doc, err := extract.File(files[0])
	if err != nil {
		return err
	}
	if err := doc.TextPictures(context.Background()); err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		enc.SetEscapeHTML(false)
		return enc.Encode(doc)
	}
	for i, p := range doc.Paragraphs {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintln(stdout, p.Text)
	}
	for _, w := range doc.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w.Message)
	}
	return nil
}

// warningLine is the one line a user sees for a file read with changes to its text.
func warningLine(path string, ws []extract.Warning) string {
	msgs := make([]string, len(ws))
	for i, w := range ws {
		msgs[i] = w.Message
	}
	return path + ": " + strings.Join(msgs, "; ")
}

// errorLine is the one line a user sees for a file that failed.
func errorLine(path string, err error) string {
	msg := err.Error()
	if !strings.Contains(msg, path) {
		return path + ": " + msg
	}
	return msg
}

// bar draws progress on stderr: a bar redrawn in place on a terminal, a line per stage otherwise.
type bar struct {
	w     io.Writer
	tty   bool
	last  time.Time
	stage string
}

func newBar(w io.Writer) *bar {
	b := &bar{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			b.tty = true
		}
	}
	return b
}

func (b *bar) update(stage string, done, total int, current string) {
	if !b.tty {
		if stage != b.stage {
			fmt.Fprintf(b.w, "%s…\n", stage)
			b.stage = stage
		}
		return
	}
	if time.Since(b.last) < 50*time.Millisecond && done < total {
		return
	}
	b.last = time.Now()
	const width = 30
	fill := 0
	if total > 0 {
		fill = done * width / total
	}
	if len([]rune(current)) > 40 {
		current = "…" + string([]rune(current)[len([]rune(current))-39:])
	}
	fmt.Fprintf(b.w, "\r\033[K%-11s [%s%s] %d/%d %s", stage, strings.Repeat("█", fill), strings.Repeat("·", width-fill), done, total, current)
}

func (b *bar) done() {
	if b.tty {
		fmt.Fprint(b.w, "\r\033[K")
	}
}

// joinKinds lists warning kinds as the JSON names them.
func joinKinds(ks []extract.WarningKind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}
