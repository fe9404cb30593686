package prepare

import (
	"reflect"
	"testing"

	"thesischeck/extract"
)

func TestWithNotes(t *testing.T) {
	plain := &extract.Document{Paragraphs: []extract.Paragraph{{Text: "no notes"}}}
	if WithNotes(plain) != plain {
		t.Error("a document without notes was copied")
	}
	doc := &extract.Document{Title: "t", Paragraphs: []extract.Paragraph{
		{Text: "one", Section: extract.Body, Chapter: "1", Page: 3, Notes: []string{"note a", "note b"}},
		{Text: "two", Section: extract.Body, Chapter: "2", Page: 5},
		{Text: "three", Section: extract.Front, FrontMatter: true, Page: 1, Notes: []string{"note c"}},
	}}
	got := WithNotes(doc)
	want := []extract.Paragraph{
		{Text: "one", Section: extract.Body, Chapter: "1", Page: 3},
		{Text: "two", Section: extract.Body, Chapter: "2", Page: 5},
		{Text: "three", Section: extract.Front, FrontMatter: true, Page: 1},
		{Text: "note a", Section: extract.Notes, Chapter: "1", Page: 3},
		{Text: "note b", Section: extract.Notes, Chapter: "1", Page: 3},
		{Text: "note c", Section: extract.Notes, FrontMatter: true, Page: 1},
	}
	if !reflect.DeepEqual(got.Paragraphs, want) || got.Title != "t" {
		t.Errorf("paragraphs %+v", got.Paragraphs)
	}
	if len(doc.Paragraphs[0].Notes) != 2 || len(doc.Paragraphs) != 3 {
		t.Error("the document given was changed")
	}
}
