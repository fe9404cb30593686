package similarity

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"runtime/debug"
	"slices"
	"sync"

	"thesischeck/assets"
)

// analyserRevision counts changes to the code that turns text into tokens and fingerprints:
// normalisation, word splitting, the word hash, stop words and numbers, SimHash, grams, winnowing,
// MinHash. Bump it with any such change: a library whose fingerprints were made by another analyser
// finds nothing of what a check makes now, and that must be an error, never a quiet 0 %.
//
// 2: normalisation drops every default-ignorable character (the combining grapheme joiner,
// variation selectors, Khmer's inherent vowels: they split a word unseen) and reads the Braille
// pattern blank U+2800 as a space.
//
// 3: marks are read off Latin letters and Han characters (é, ė and e with U+0307 are e; a line
// typed under a Chinese character is dropped): English with a dot over every few letters read 0 %
// with no warning. The look-alike table folds the small capitals and Cherokee's small letters.
// Characters put between single Han characters in chains (本·研·究) are dropped (dropInterleaved).
//
// 4: Hangul fillers are spaces (drawn blank and as wide as a letter, they were dropped and the
// words beside them ran together); hair, thin and other narrow spaces between two letters are read
// off (each word of a copy split by one read 0 %); the CJK Radicals Supplement's radicals drawn as
// whole characters are read as those characters (⻓ as 长), as NFKC reads the Kangxi radicals.
//
// 5: punctuation and symbols put after every few Han characters, in chains of eight or more, are
// dropped (dropMarkChains): a comma after every three characters of a copy made jieba cut other
// words than the source's. Marks put inside English words whose pieces are no words are read off
// (dropSplitWords, by the English word list, which the checksum now covers).
//
// 6: letters, digits or kana put after every few Han characters, up to three at a place, are read
// off as those marks are, in the same chains, and a chain goes on past the text's own English words
// and brackets (chainRule.between): a letter after every three characters of a copy read 11.5 % for
// 34.8 %, two letters 11.4 %, with no warning.
//
// 7: runs of up to 32 letters or digits so put are read off too, in chains of sixteen or more
// (four letters after every three characters read 10.3 %, with no warning).
//
// 8: the small capitals B, G, H, K, L, M, N and R are folded onto their letters, with Cyrillic's в,
// к, м, н, which look like them: the look-alike table had only the others, and a copy written in
// small capitals (ᴛʜᴇ ʀᴇᴀꜱᴏɴꜱ, as a "small caps" text generator writes it) read 0.0 %. Greek ε and
// η, Cyrillic є and п, the schwas (ə, ǝ, ɘ, ɛ) and the turned a (ɐ) are folded as look-alikes of
// e, n and a, and the Latin letters drawn with a stroke, hook or bar (ø, ɇ, ł) read as their
// letters, as marks are read off: every e of a copy written as ε or ɇ read 10.4 % for 44.4 %, with
// no warning. Symbols and other
// scripts' digits drawn as letters are look-alikes too (℮ for e: 3.4 %; Devanagari's zero for o),
// and Greek's lunate sigma ϲ is c before NFKC makes it a final sigma. A capital I, |, 0 or 1 inside
// a word that reads as an English word with them as l and o is read so (heIp, c0py: every l of a
// copy as I read 39.7 %, every o as 0 29.3 %, with no warning). A narrow space between two
// English words whose letters together make none is a word space, not read off (thin spaces for
// every space made a copy one long word: 0.0 %).
//
// 9: the letter pairs drawn like one letter, rn, cl and vv, are read as m, d and w inside a word
// that reads as an English word so and is none as written (frorn, clata, vvith): every m, d and w
// of a copy so written read 28.8 % for 44.4 %, with no look-alike warning. The inverted
// exclamation mark and the signs ∣, ∨ and ∪ are read so as i, l, v and u (¡nformat¡on, ∨ery):
// every i written as ¡ read 20.7 %, every l as ∣ 37.9 %.
const analyserRevision = 9

// AnalyserVersion names the text analyser of this build: its revision, and a checksum of the tables
// it uses (jieba's dictionaries and IDF table, the stop words, the look-alike letters and radicals, the
// traditional→simplified conversion's module version), so that a changed table changes the name
// without anyone having to remember. The library stamps it on its fingerprints. Computed once
// (about 2 ms: CRC-32C of 11 MB of dictionaries).
func AnalyserVersion() string { return analyserVersion() }

var analyserVersion = sync.OnceValue(func() string {
	h := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	for _, f := range []string{"jieba.dict.utf8", "hmm_model.utf8", "user.dict.utf8", "idf.utf8", "stop_words.utf8"} {
		r, err := assets.Jieba.Open("jieba/" + f)
		if err != nil {
			panic(fmt.Sprintf("similarity: embedded dictionary %s: %v", f, err)) // built into the binary
		}
		io.Copy(h, r)
		r.Close()
	}
	h.Write(appendTable(appendTable(appendTable(nil, confusables), radicals), decorated))
	h.Write(assets.EnglishWords)
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "github.com/longbridgeapp/opencc" || d.Path == "github.com/yanyiwu/gojieba" {
				io.WriteString(h, d.Path+"@"+d.Version+"\n")
			}
		}
	}
	return fmt.Sprintf("%d-%08x", analyserRevision, h.Sum32())
})

// appendTable appends a folding table's pairs to b, in the order of their keys.
func appendTable(b []byte, table map[rune]rune) []byte {
	for _, k := range slices.Sorted(maps.Keys(table)) {
		b = binary.LittleEndian.AppendUint32(b, uint32(k))
		b = binary.LittleEndian.AppendUint32(b, uint32(table[k]))
	}
	return b
}
