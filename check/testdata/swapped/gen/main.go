// Command gen writes the PDF make.sh turns into swapped.pdf: the Chinese paragraphs of
// ../library (as TestSwappedCharacters takes them) with their six commonest characters each
// written as the next of them (synth.SwapCommon), and prints each such pair (the character shown,
// the character held) for make.sh to draw the held one with the glyph of the one shown.
package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"thesischeck/internal/synth"
)

func main() {
	var paras []string
	for _, f := range []string{"zh-wetland.txt", "zh-library.txt", "zh-tea.txt"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "library", f))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, p := range strings.Split(string(data), "\n\n") {
			if p = strings.TrimSpace(p); len([]rune(p)) >= 60 && !strings.Contains(p, "声明") {
				paras = append(paras, p)
			}
		}
	}
	text, held := synth.SwapCommon(strings.Join(paras, "\n\n"), 6)
	for shown, h := range held {
		fmt.Printf("%d %d\n", shown, h)
	}
	paras = strings.Split(text, "\n\n")
	title := strings.Map(func(r rune) rune { return cmp.Or(held[r], r) }, "城市湿地")
	if _, err := synth.WritePDF(os.Args[1], title, paras); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
