package synth

import (
	"bufio"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"thesischeck/assets"
)

// DictWords returns jieba's 20,000 most frequent words (those it counts 50 times or more) and their
// cumulative frequencies: text drawn from them has the words and the character variety of real
// Chinese (a thesis uses 2,500–3,500 different characters, which font subsetting and matching feel).
func DictWords() ([]string, []float64, error) {
	f, err := assets.Jieba.Open("jieba/jieba.dict.utf8")
	if err != nil {
		return nil, nil, fmt.Errorf("synth: %w", err)
	}
	defer f.Close()
	type wf struct {
		w string
		f float64
	}
	var all []wf
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		if n, err := strconv.ParseFloat(fields[1], 64); err == nil && n >= 50 {
			all = append(all, wf{fields[0], n})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("synth: jieba dictionary: %w", err)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].f > all[j].f })
	all = all[:min(len(all), 20000)]
	words := make([]string, len(all))
	cum := make([]float64, len(all))
	total := 0.0
	for i, x := range all {
		words[i] = x.w
		total += x.f
		cum[i] = total
	}
	return words, cum, nil
}
