// Package rules holds schools' rules for a check: which figure counts (总文字复制比, or 去除引用 without
// quoted passages), which parts of a thesis are left out, and the limits between pass, revise and
// fail. A school hands its rules out as a profile file (TOML or JSON); three are built in. A figure
// below the pass limit passes only when nothing in the report stands against it (Doubts): else the
// verdict is review, a person's to give.
//
// A profile file, in TOML:
//
//	name = "Example University, master's thesis"
//	figure = "excluding_quotes"        # or "similarity" (the default)
//	leave_out = ["references", "front_matter"]
//	pass_below = 20                    # per cent: below it the thesis passes
//	fail_from = 40                     # per cent: at or above it the thesis fails; between, revise
//
// The same keys make a JSON profile. The package does not check anything itself: Options says how
// to run the check, Judge reads the verdict off its report.
package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"thesischeck/check"
	"thesischeck/extract"
	"thesischeck/report"
	"thesischeck/similarity"
)

// The figures a profile can name, as in the report's JSON.
const (
	FigureSimilarity      = "similarity"       // 总文字复制比
	FigureExcludingQuotes = "excluding_quotes" // 去除引用
	PartReferences        = "references"       // the reference list and headings
	PartFrontMatter       = "front_matter"     // title page, declarations, signatures
	maxProfileFile        = 64 << 10           // far more than any profile needs
	partsKnown            = PartReferences + ", " + PartFrontMatter
)

// Verdicts.
const (
	Pass   = "pass"
	Revise = "revise"
	Fail   = "fail"
	// Review: the figure is below the pass limit, but the report warns of text the check could not
	// read or of tricks played to dodge it (Doubts).
	Review = "review"
)

// Doubts are the warnings that stand against a pass: text the check could not read (in pictures,
// garbled or private-use fonts, outlines, pages it could not parse, or most of the text left out),
// so that the figure may be too low, and the tricks played to get past a checker, which the check
// saw through but a person should see before a thesis passes, as Turnitin's integrity flags hold a
// submission for review. A thesis 0.0 % by its figure, its copied paragraphs written in a
// private-use font, passed with a warning only in the report's list.
var Doubts = []extract.WarningKind{
	extract.WarnGarbled, extract.WarnSwapped, extract.WarnNotText, extract.WarnUnmapped, extract.WarnOutlined, extract.WarnTextPictures,
	extract.WarnPicturesUnseen, extract.WarnLayer, extract.WarnUnreadablePages, extract.WarnTruncatedPages, extract.WarnUnreadableParts,
	extract.WarnUnreadableNotes, extract.WarnLeftOut, extract.WarnForeign,
	extract.WarnHidden, extract.WarnSmallPrint, extract.WarnInvisible, extract.WarnLookalike, extract.WarnSpaced, extract.WarnInterleaved, extract.WarnSpacedLetters, extract.WarnNarrowSpaces,
	extract.WarnSplitWords, extract.WarnReversed, extract.WarnFragmented, extract.WarnFiled, extract.WarnUncited, extract.WarnRepeated, extract.WarnBoilerplate,
}

// doubts reports whether a warning of kind stands against a pass by the profile's figure: the
// Doubts, and for the figure excluding quotes cited quotations that are much of the text
// (extract.WarnQuoted), all of which it leaves out. A thesis of twelve copied paragraphs in
// quotation marks, each citing the one entry of its reference list, read 87.6 % and 0.0 % excluding
// quotes, and passed.
func (p Profile) doubts(kind extract.WarningKind) bool {
	return slices.Contains(Doubts, kind) || kind == extract.WarnQuoted && p.Figure == FigureExcludingQuotes
}

// ErrBadProfile means a profile file could not be read as one; the error wrapping it says why.
var ErrBadProfile = errors.New("rules: not a valid profile")

// Profile is one school's rules.
type Profile struct {
	Name      string   `toml:"name" json:"name"`
	Figure    string   `toml:"figure" json:"figure"`         // FigureSimilarity (when empty) or FigureExcludingQuotes
	LeaveOut  []string `toml:"leave_out" json:"leave_out"`   // PartReferences, PartFrontMatter
	PassBelow float64  `toml:"pass_below" json:"pass_below"` // per cent
	FailFrom  float64  `toml:"fail_from" json:"fail_from"`   // per cent
}

// Builtin are the profiles every copy of ThesisCheck knows by name: limits common for Chinese
// bachelor's, master's and doctoral theses, on the figure with quotes counted, references and front
// matter left out.
var Builtin = []Profile{
	{Name: "bachelor", Figure: FigureSimilarity, LeaveOut: []string{PartReferences, PartFrontMatter}, PassBelow: 30, FailFrom: 50},
	{Name: "master", Figure: FigureSimilarity, LeaveOut: []string{PartReferences, PartFrontMatter}, PassBelow: 20, FailFrom: 40},
	{Name: "phd", Figure: FigureSimilarity, LeaveOut: []string{PartReferences, PartFrontMatter}, PassBelow: 10, FailFrom: 20},
}

// Load returns the built-in profile called nameOrFile (bachelor, master, phd), or else reads the
// profile file of that name: JSON when it ends in .json, TOML otherwise. A profile without a name is
// named after its file.
func Load(nameOrFile string) (Profile, error) {
	for _, p := range Builtin {
		if strings.EqualFold(p.Name, nameOrFile) {
			return p, nil
		}
	}
	f, err := os.Open(nameOrFile)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) && !strings.ContainsAny(nameOrFile, `/\.`) {
			return Profile{}, fmt.Errorf("rules: no profile %q: the built-in ones are bachelor, master and phd, or give a profile file", nameOrFile)
		}
		return Profile{}, fmt.Errorf("rules: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxProfileFile+1))
	if err != nil {
		return Profile{}, fmt.Errorf("rules: %w", err)
	}
	if len(data) > maxProfileFile {
		return Profile{}, fmt.Errorf("rules %s: %w: larger than %d KB", nameOrFile, ErrBadProfile, maxProfileFile>>10)
	}
	p, err := Parse(data, strings.EqualFold(filepath.Ext(nameOrFile), ".json"))
	if err != nil {
		return Profile{}, fmt.Errorf("rules %s: %w", nameOrFile, err)
	}
	if p.Name == "" {
		p.Name = strings.TrimSuffix(filepath.Base(nameOrFile), filepath.Ext(nameOrFile))
	}
	return p, nil
}

// Parse reads a profile from data, JSON or TOML, and checks it; unknown keys are an error (a typo
// would otherwise change a school's rules silently).
func Parse(data []byte, isJSON bool) (Profile, error) {
	var p Profile
	if isJSON {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&p); err != nil {
			return Profile{}, fmt.Errorf("%w: %v", ErrBadProfile, err)
		}
	} else {
		md, err := toml.Decode(string(data), &p)
		if err != nil {
			return Profile{}, fmt.Errorf("%w: %v", ErrBadProfile, err)
		}
		if extra := md.Undecoded(); len(extra) > 0 {
			return Profile{}, fmt.Errorf("%w: unknown key %q (the keys are name, figure, leave_out, pass_below, fail_from)", ErrBadProfile, extra[0].String())
		}
	}
	return p, p.validate()
}

func (p *Profile) validate() error {
	if p.Figure == "" {
		p.Figure = FigureSimilarity
	}
	if p.Figure != FigureSimilarity && p.Figure != FigureExcludingQuotes {
		return fmt.Errorf("%w: figure %q: it is %q (总文字复制比) or %q (去除引用)", ErrBadProfile, p.Figure, FigureSimilarity, FigureExcludingQuotes)
	}
	for _, part := range p.LeaveOut {
		if part != PartReferences && part != PartFrontMatter {
			return fmt.Errorf("%w: leave_out %q: the parts that can be left out are %s", ErrBadProfile, part, partsKnown)
		}
	}
	if !(p.PassBelow > 0 && p.PassBelow <= p.FailFrom && p.FailFrom <= 100) {
		return fmt.Errorf("%w: limits pass_below %g and fail_from %g: want 0 < pass_below ≤ fail_from ≤ 100 (per cent)", ErrBadProfile, p.PassBelow, p.FailFrom)
	}
	return nil
}

// Options are the check options the profile asks for; the thresholds are left at their defaults.
func (p Profile) Options() check.Options {
	return check.Options{
		IncludeReferences:  !slices.Contains(p.LeaveOut, PartReferences),
		IncludeFrontMatter: !slices.Contains(p.LeaveOut, PartFrontMatter),
	}
}

// Judged returns a copy of r carrying the profile's verdict; r itself, which may be a check's
// own report kept for recomputing, is left as it was.
func (p Profile) Judged(r *report.Report) *report.Report {
	c := *r
	c.Verdict = p.Judge(&c)
	return &c
}

// Judge is the profile's verdict on r. A report checked with other parts than the profile leaves
// out is judged all the same, and the verdict says so in Mismatch.
func (p Profile) Judge(r *report.Report) *report.SchoolVerdict {
	v := &report.SchoolVerdict{Profile: p.Name, Figure: p.Figure, PassBelow: p.PassBelow, FailFrom: p.FailFrom}
	v.Value = r.Similarity
	if p.Figure == FigureExcludingQuotes {
		v.Value = r.SimilarityExcludingQuotes
	}
	// The report's figures are rounded to 4 digits: compare in per cent at that precision.
	pct := v.Value * 100
	switch {
	case pct < p.PassBelow:
		v.Outcome = Pass
	case pct < p.FailFrom:
		v.Outcome = Revise
	default:
		v.Outcome = Fail
	}
	o := p.Options()
	var why []string
	if o.IncludeReferences != r.Settings.IncludeReferences || o.IncludeFrontMatter != r.Settings.IncludeFrontMatter {
		why = append(why, "the report was checked with other parts left out than the profile asks for")
	}
	// A longer shortest match lowers every figure; the rules count copies from the default (the
	// report's "filtered" warning gives the figures at it).
	if def := similarity.DefaultAlign.MinChars; r.Settings.MinRunChars > def {
		why = append(why, fmt.Sprintf("its figures count only copies of %d characters or more, the rules copies of %d", r.Settings.MinRunChars, def))
	}
	v.Mismatch = strings.Join(why, "; ")
	for _, w := range r.Warnings {
		if p.doubts(w.Kind) && !slices.Contains(v.Doubts, w.Kind) {
			v.Doubts = append(v.Doubts, w.Kind)
		}
	}
	if v.Outcome == Pass && len(v.Doubts) > 0 {
		v.Outcome = Review
	}
	return v
}
