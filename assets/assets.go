// Package assets holds the files the program carries inside its binary: jieba's dictionaries, the
// bundled CJK font and the application icon.
package assets

import "embed"

// Jieba holds the five dictionary files gojieba needs (see similarity.Segmenter for how they reach
// gojieba, which only reads real files).
//
//go:embed jieba/jieba.dict.utf8 jieba/hmm_model.utf8 jieba/user.dict.utf8 jieba/idf.utf8 jieba/stop_words.utf8
var Jieba embed.FS
