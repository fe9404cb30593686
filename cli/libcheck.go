package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"thesischeck/library"
)

// ErrDamagedLibrary means `library check` found damage, or `library repair` could not keep every
// document; what is damaged has been printed.
var ErrDamagedLibrary = fmt.Errorf("damage found: %w", library.ErrDamaged)

func libraryDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return library.DefaultDir()
}

// checkLibrary runs `library check`: it prints what is damaged and fails when anything is.
func checkLibrary(dir string, asJSON bool, stdout, stderr io.Writer) error {
	return integrity(dir, asJSON, stdout, stderr, library.Check, func(r *library.CheckReport, w io.Writer) {
		fmt.Fprint(w, r.Summary())
		if r.Damaged() {
			fmt.Fprintln(w, "'thesischeck library repair' rebuilds what can be rebuilt and names the documents to add again.")
		}
	}, func(r *library.CheckReport) error {
		if r.Damaged() {
			return ErrDamagedLibrary
		}
		return nil
	})
}

// repairLibrary runs `library repair`: it fails when documents had to be left out.
func repairLibrary(dir string, asJSON bool, stdout, stderr io.Writer) error {
	return integrity(dir, asJSON, stdout, stderr, library.Repair, printRepair, func(r *library.RepairReport) error {
		if len(r.Lost) > 0 {
			return fmt.Errorf("%d documents could not be kept and must be added again: %w", len(r.Lost), library.ErrDamaged)
		}
		return nil
	})
}

// integrity runs library check or repair (run) on dir, or the default library, with a progress bar,
// prints what it found as JSON or in words, and returns fail's verdict on it.
func integrity[R any](dir string, asJSON bool, stdout, stderr io.Writer, run func(string, func(int, int)) (R, error),
	words func(R, io.Writer), fail func(R) error) error {
	dir, err := libraryDir(dir)
	if err != nil {
		return err
	}
	bar := newBar(stderr)
	r, err := run(dir, func(done, total int) { bar.update("check", done, total, "") })
	bar.done()
	if err != nil {
		return err
	}
	if asJSON {
		if err := writeJSON(stdout, r); err != nil {
			return err
		}
	} else {
		words(r, stdout)
	}
	return fail(r)
}

func printRepair(r *library.RepairReport, w io.Writer) {
	switch {
	case len(r.Problems) == 0 && !r.Repaired:
		fmt.Fprintf(w, "library %s: no damage found, nothing to repair (%d documents)\n", r.Dir, r.Documents)
		return
	case len(r.Problems) == 0:
		fmt.Fprintf(w, "library %s: no damage found\n", r.Dir)
	default:
		fmt.Fprint(w, (&library.CheckReport{Dir: r.Dir, Problems: r.Problems}).Summary())
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if r.Repaired {
		fmt.Fprintf(w, "repaired: the library holds %d documents\n", r.Documents)
	}
	if r.Backup != "" {
		fmt.Fprintf(w, "the files it replaced are kept in %s\n", r.Backup)
	}
	if len(r.Lost) > 0 {
		fmt.Fprintf(w, "%d documents could not be kept; add them again:\n", len(r.Lost))
		for _, d := range r.Lost {
			name := d.Path
			if name == "" {
				name = d.Title
			}
			if name == "" {
				name = "(its name is lost too)"
			}
			fmt.Fprintf(w, "  document %d: %s\n", d.ID, name)
		}
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
