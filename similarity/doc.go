// Package similarity is the text analyser and the measures built on it: what turns a paragraph into
// words and fingerprints, and what compares two of them.
//
//	text → Normalize (punctuation folded, invisible characters dropped, look-alike letters and
//	       traditional characters mapped, spaced-out Chinese joined; Dodges counts what it undid)
//	     → Segmenter (jieba for Chinese, letters and digits for Latin script)
//	     → Tokens (FNV-1a hashes with rune offsets into the original text, IDF weights)
//	tokens → SimHash (64 bits; Hamming distance, Blocks for the index)
//	       → Grams (word bigrams; Winnow keeps the sample the library indexes: any run of w+1
//	         words two texts share still holds one)
//	       → Shingles → MinHash (a Signature; its bands find similar documents, CandidateProbability)
//	two token lists → Align / AlignGrams (the copied runs, RuneSpans to show them)
//
// Segmenter.Prepare and PrepareWeighted do the whole first line and the fingerprints for one
// paragraph. A Segmenter is safe for concurrent use and loaded once (Default: jieba's dictionary,
// about 0.7 s); everything else is a pure function of its arguments, so checks and imports call it
// from all cores.
//
// AnalyserVersion names this analyser: the library stamps it on the fingerprints it keeps, since
// fingerprints made by another version find nothing of what a check makes now.
package similarity
