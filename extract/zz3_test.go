package extract

import (
	"context"
	"fmt"
	"testing"
)

func TestZZProbe(t *testing.T) {
	for _, c := range []string{
		twoParagraphs("", "1 Tr 0.01 w (junkone) Tj 0 Tr 1 w", ""),
		twoParagraphs("", "1 Tr 0.9 G 0.2 w (junktwo) Tj 0 Tr 0 G 1 w", ""),
		twoParagraphs("", "", "BT /F1 12 Tf 72 680 Td (junk three words) Tj ET /GSH gs 1 g 70 676 200 16 re f"),
		twoParagraphs("", "2 Tr 1 g 1 G (junkfour) Tj 0 Tr 0 g 0 G", ""),
		twoParagraphs("", "7 Tr (junkfive) Tj 0 Tr", ""),
		twoParagraphs("", "1 Tr 0 w (junksix) Tj 0 Tr 1 w", ""),
	} {
		doc, err := Bytes(context.Background(), "p.pdf", hiddenPDF(c))
		if err != nil {
			fmt.Println(err)
			continue
		}
		for _, p := range doc.Paragraphs {
			fmt.Printf("%q %v\n", p.Text, p.Hidden)
		}
		fmt.Println("--")
	}
}
