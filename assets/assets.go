// Package assets holds the files the program carries inside its binary: jieba's dictionaries, an
// English word list, the bundled CJK font, the application icon, and a small sample library with
// sample theses to try.
package assets

import "embed"

// Jieba holds the five dictionary files gojieba needs (see similarity.Segmenter for how they reach
// gojieba, which only reads real files).
//
//go:embed jieba/jieba.dict.utf8 jieba/hmm_model.utf8 jieba/user.dict.utf8 jieba/idf.utf8 jieba/stop_words.utf8
var Jieba embed.FS

// EnglishWords is SCOWL's American and British English word lists as Debian's wamerican and
// wbritish have them (english/VERSION, english/COPYRIGHT), lower case, letters only, one word a
// line, gzipped: 74,989 words, made by scripts/english-words.sh. similarity.Wordiness asks it which
// words of a text are English.
//
//go:embed english/words.txt.gz
var EnglishWords []byte

// Sample is a small reference library (sample/library: Chinese and English articles written for
// ThesisCheck) and two submissions that copy from it, verbatim, edited and in part (sample/*.txt),
// so that `thesischeck --demo` shows a real report on a machine without a library of its own.
//
//go:embed sample
var Sample embed.FS
