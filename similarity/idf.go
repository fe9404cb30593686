package similarity

import "math"

// LearnedIDF is the smoothed inverse document frequency of a word in a collection of n paragraphs,
// df of which hold it: rare words weigh more in a SimHash than words every paragraph has.
func LearnedIDF(n, df int) float32 {
	return float32(math.Log(float64(n+1)/float64(df+1)) + 1)
}

// Reweight sets the weight of every word of toks (not stop words or numbers) to weight(its hash)
// and returns the SimHash of the reweighted words.
func Reweight(toks []Token, weight func(hash uint32) float32) uint64 {
	for i := range toks {
		if !toks[i].Stop {
			toks[i].Weight = weight(toks[i].Hash)
		}
	}
	return SimHash(toks)
}
