package similarity

import "testing"

// A short sentence copied whole is a copy; the same number of words shared inside longer sentences
// is a stock phrase.
func TestShortSentences(t *testing.T) {
	s := segmenter(t)
	src := "The hearing was adjourned until Monday. Audubon members praised the governor warmly today. Nobody else spoke."
	tests := []struct {
		name, text string
		copied     string // the run Align must find, "" for none
	}{
		{"whole sentence", "Other work was done in March. Audubon members praised the governor warmly today! It rained.",
			"Audubon members praised the governor warmly today"},
		{"phrase inside a sentence", "We heard that Audubon members praised the governor warmly today for the park.", ""},
		{"sentence cut short", "Audubon members praised the governor warmly today and then left.", ""},
	}
	b := s.Prepare(src).Tokens
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := s.Prepare(tt.text).Tokens
			al := Align(a, b, DefaultAlign)
			got := ""
			if spans := RuneSpans(a, al.A); len(spans) > 0 {
				got = string([]rune(tt.text)[spans[0][0]:spans[len(spans)-1][1]])
			}
			if got != tt.copied {
				t.Errorf("copied run = %q, want %q", got, tt.copied)
			}
		})
	}
}

func TestSentenceBits(t *testing.T) {
	s := segmenter(t)
	toks := s.Prepare("第一句话。第二句话！Third one").Tokens
	var starts, ends int
	for _, tk := range toks {
		if tk.Sentence&SentenceStart != 0 {
			starts++
		}
		if tk.Sentence&SentenceEnd != 0 {
			ends++
		}
	}
	if starts != 3 || ends != 3 {
		t.Errorf("sentence starts %d, ends %d in %d tokens; want 3 and 3", starts, ends, len(toks))
	}
	if toks[0].Sentence&SentenceStart == 0 || toks[len(toks)-1].Sentence&SentenceEnd == 0 {
		t.Error("first token must start a sentence and the last end one")
	}
}
