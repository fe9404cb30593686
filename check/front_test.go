package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"thesischeck/report"
)

// A thesis's front matter — cover lines, the declaration its school puts in every thesis — is left
// out by its place, listed with the reason, and checked when asked for; the body is checked as ever.
func TestFrontMatterLeftOut(t *testing.T) {
	lib := newLibrary(t)
	decl := libPara(t, "zh-wetland.txt", "学位论文原创性声明")
	copied := libPara(t, "zh-tea.txt", "明代中期以后")
	cover := "指导教师：王强教授"
	paras := []string{cover, decl.text, "摘要", originals[0], "第一章 绪论", copied.text, originals[1]}

	r := checkText(t, lib, nil, paras...)
	for _, text := range []string{cover, decl.text} {
		if p := findPara(t, r, text); p.Status != report.StatusExcluded || len(p.Matches)+len(p.TemplateMatches) != 0 {
			t.Errorf("front matter %q: status %q, %d matches", text, p.Status, len(p.Matches)+len(p.TemplateMatches))
		}
	}
	if !slices.ContainsFunc(r.Excluded, func(e report.Exclusion) bool {
		return e.Section == "front matter" && e.Chars >= len([]rune(decl.text)) && e.Reason != ""
	}) {
		t.Errorf("the report does not list the front matter as left out: %+v", r.Excluded)
	}
	if p := findPara(t, r, copied.text); p.Status != report.StatusCopied || matchFrom(p, copied) == nil {
		t.Errorf("copied body paragraph: status %q", p.Status)
	}
	if r.Settings.IncludeFrontMatter {
		t.Errorf("settings say front matter was included: %+v", r.Settings)
	}

	r = checkText(t, lib, &Options{IncludeFrontMatter: true}, paras...)
	if p := findPara(t, r, decl.text); p.Status != report.StatusTemplate || len(p.TemplateMatches) == 0 {
		t.Errorf("with IncludeFrontMatter the declaration is checked (and is boilerplate): status %q", p.Status)
	}
	if p := findPara(t, r, cover); p.Status == report.StatusExcluded {
		t.Errorf("with IncludeFrontMatter the cover line is still left out")
	}
	if slices.ContainsFunc(r.Excluded, func(e report.Exclusion) bool { return e.Section == "front matter" }) || !r.Settings.IncludeFrontMatter {
		t.Errorf("with IncludeFrontMatter: exclusions %+v, settings %+v", r.Excluded, r.Settings)
	}
}

// An article has no thesis front matter: a copied paragraph before its first heading is checked.
func TestArticleFirstParagraphChecked(t *testing.T) {
	lib := newLibrary(t)
	copied := libPara(t, "en-tides.txt", "Tidal flats look empty")
	own := "We counted the birds on four mornings of each month from a hide on the sea wall, and noted the height of the tide at every count, so that the numbers of each season could be compared at the same water level."
	r := checkText(t, lib, nil, "Mudflats and the Birds That Feed There", "J. Smith, K. Brown",
		copied.text, "1 Introduction", originals[0], own, "2 Methods", originals[1], own+" "+own)
	// It stands in front matter (the title lines before "1 Introduction"), which is not a thesis's.
	if p := findPara(t, r, copied.text); p.Section != "front" || p.Status != report.StatusCopied || matchFrom(p, copied) == nil {
		t.Errorf("an article's copied first paragraph: section %q status %q", p.Section, p.Status)
	}
}

// The frequency rule counts among theses: a declaration that 3 theses share is boilerplate in a
// library where articles outnumber them (3 of 15 documents is less than a quarter), when front
// matter is checked and when a submission's declaration stands where it is not recognised as such.
func TestBoilerplateAmongTheses(t *testing.T) {
	decl := libPara(t, "zh-wetland.txt", "学位论文原创性声明").text
	body := libPara(t, "zh-tea.txt", "明代中期以后").text
	var docs []string
	for i := 0; i < 15; i++ {
		text := fmt.Sprintf("文献%d\n\n%s\n", i, sentences(originals[i%2])[i%3])
		if i < 3 {
			text = fmt.Sprintf("某某大学硕士学位论文（%d）\n\n指导教师：王强\n\n%s\n\n摘要\n\n%s\n\n第一章 绪论\n\n%s\n\n%s\n", i, decl, originals[0], body, originals[1])
		}
		docs = append(docs, text)
	}
	lib := libraryOf(t, docs...)
	if n, known := lib.Theses(); n != 3 || !known {
		t.Fatalf("Theses() = %d, %v", n, known)
	}
	thesis := []string{"某某大学硕士学位论文", "指导教师：李明", decl, "摘要", originals[1], "第一章 绪论", originals[0]}
	r := checkText(t, lib, &Options{IncludeFrontMatter: true}, thesis...)
	if p := findPara(t, r, decl); p.Status != report.StatusTemplate {
		t.Errorf("front matter checked: declaration status %q, want template", p.Status)
	}
	r = checkText(t, lib, nil, decl, originals[1]) // no structure: the declaration is body text
	if p := findPara(t, r, decl); p.Status != report.StatusTemplate {
		t.Errorf("unrecognised declaration: status %q, want template", p.Status)
	}
	if !slices.ContainsFunc(r.Excluded, func(e report.Exclusion) bool {
		return e.Section == "template" && strings.Contains(e.Reason, "3 of the library's 3 theses")
	}) {
		t.Errorf("the template exclusion does not count among theses: %+v", r.Excluded)
	}
}
