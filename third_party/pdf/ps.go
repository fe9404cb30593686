// Copyright 2014 The Go Authors.  All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package pdf

import (
	"errors"
	"io"
	"runtime"
	"strings"
)

// A Stack represents a stack of values.
type Stack struct {
	stack []Value
}

func (stk *Stack) Len() int {
	return len(stk.stack)
}

func (stk *Stack) Push(v Value) {
	stk.stack = append(stk.stack, v)
}

func (stk *Stack) Pop() Value {
	n := len(stk.stack)
	if n == 0 {
		return Value{}
	}
	v := stk.stack[n-1]
	stk.stack[n-1] = Value{}
	stk.stack = stk.stack[:n-1]
	return v
}

func newDict() Value {
	return Value{nil, objptr{}, make(dict)}
}

// Interpret interprets the content in a stream as a basic PostScript program,
// pushing values onto a stack and then calling the do function to execute
// operators. The do function may push or pop values from the stack as needed
// to implement op.
//
// Interpret handles the operators "dict", "currentdict", "begin", "end", "def", and "pop" itself.
//
// Interpret is not a full-blown PostScript interpreter. Its job is to handle the
// very limited PostScript found in certain supporting file formats embedded
// in PDF files, such as cmap files that describe the mapping from font code
// points to Unicode code points.
//
// A stream can also be represented by an array of streams that has to be handled as a single stream
// In the case of a simple stream read only once, otherwise get the length of the stream to handle it properly
//
// There is no support for executable blocks, among other limitations.
func Interpret(strm Value, do func(stk *Stack, op string)) {
	interpret(strm, nil, do)
}

// interpret is Interpret charging the bytes it reads to w, when w is not nil, and noting there
// whether a stream was damaged. PATCH.
func interpret(strm Value, w *work, do func(stk *Stack, op string)) {
	var stk Stack
	var dicts []dict
	var rd io.Reader
	var damaged *bool
	if w != nil {
		damaged = &w.damaged
	}
	if strm.Kind() == Array {
		readers := make([]io.Reader, 0, strm.Len())
		for i := 0; i < strm.Len(); i++ {
			// PATCH: a broken part ends that part, not the whole page.
			readers = append(readers, eofOnError{safeReader(strm.Index(i)), damaged})
		}
		rd = io.MultiReader(readers...)
	} else {
		rd = eofOnError{safeReader(strm), damaged}
	}
	if w != nil {
		rd = chargedReader{rd, w}
	}

	b := newBuffer(rd, 0)
	b.allowEOF = true
	b.allowObjptr = false
	b.allowStream = false

Reading:
	for {
		tok, ok := readTokenRecover(b)
		if !ok {
			continue
		}
		if tok == io.EOF {
			break
		}
		if tok == keyword("ID") {
			// PATCH: the binary data of an inline image is not PostScript; skip to EI.
			skipInlineImage(b)
			stk.stack = stk.stack[:0]
			continue
		}
		if kw, ok := tok.(keyword); ok {
			switch kw {
			case "null", "[", "]", "<<", ">>":
				break
			default:
				for i := len(dicts) - 1; i >= 0; i-- {
					if v, ok := dicts[i][name(kw)]; ok {
						stk.Push(Value{nil, objptr{}, v})
						continue Reading
					}
				}
				do(&stk, string(kw))
				continue
			case "dict":
				stk.Pop()
				stk.Push(Value{nil, objptr{}, make(dict)})
				continue
			case "currentdict":
				if len(dicts) == 0 {
					panic("no current dictionary")
				}
				stk.Push(Value{nil, objptr{}, dicts[len(dicts)-1]})
				continue
			case "begin":
				d := stk.Pop()
				if d.Kind() != Dict {
					panic("cannot begin non-dict")
				}
				dicts = append(dicts, d.data.(dict))
				continue
			case "end":
				if len(dicts) <= 0 {
					panic("mismatched begin/end")
				}
				dicts = dicts[:len(dicts)-1]
				continue
			case "def":
				val := stk.Pop()
				if len(dicts) <= 0 {
					// A "def" with no dict opened by "begin" is invalid
					// PostScript, but producers emit it in practice inside a
					// malformed CMap dictionary LITERAL (e.g.
					// "<</Registry (x) def/Ordering (y) def>>", where "def"
					// should not appear between "<<" and ">>" at all). This
					// package is a limited PostScript subset for embedded
					// CMap/function data, not a strict validator (see the
					// doc comment above), so discard the operand and keep
					// going rather than take the whole Interpret call down
					// over one producer's malformed dict.
					continue
				}
				key, ok := stk.Pop().data.(name)
				if !ok {
					// panic(fmt.Sprintf("def of non-name: %+v", stk.Pop().data))
					// Skip the value if it has key without value
					continue
				}
				dicts[len(dicts)-1][key] = val.data
				continue
			case "pop":
				stk.Pop()
				continue
			}
		}
		b.unreadToken(tok)
		obj, ok := readObjectRecover(b)
		if !ok {
			continue
		}
		stk.Push(Value{nil, objptr{}, obj})
		if stk.Len() > maxOperands { // PATCH: numbers without an operator filled memory
			panic(limitError("more than %d operands without an operator", maxOperands))
		}
	}
}

// isLimit reports a panic that must not be taken for a malformed token: a bound was reached.
func isLimit(r any) bool {
	err, ok := r.(error)
	return ok && errors.Is(err, ErrLimit)
}

// readObjectRecover reads one object, recovering a panic from malformed
// input rather than letting it escape Interpret.
//
// Interpret parses an embedded PostScript-SUBSET stream (a CMap, a function)
// that is not always a well-formed PDF object graph — for example, a
// producer's CMap embedding "def" tokens inside what should be a plain
// dictionary literal, which readObject (correctly, for a real PDF object)
// treats as a hard parse error. Letting that escape takes the WHOLE calling
// operation down — e.g. reading a font's /ToUnicode CMap — over one
// unparseable operand, even when the caller (readCmap) only needs the
// recognized cmap operators and the rest of the stream is fine. ok=false
// means the operand is discarded; the Reading loop continues from wherever
// the underlying buffer's position landed.
func readObjectRecover(b *buffer) (obj object, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			// Parse errors are raised with panic(fmt.Errorf(...)) and mean
			// "discard this operand and keep going". Anything else (nil
			// deref, index out of range, ...) is a genuine bug and must not
			// be silently swallowed as malformed input.
			if _, isRuntime := r.(runtime.Error); isRuntime || isLimit(r) {
				panic(r)
			}
			obj, ok = nil, false
		}
	}()
	return b.readObject(), true
}

// eofOnError turns a read error (a truncated or corrupt compressed stream) into the end of
// the stream, so the text before the damage is kept, and notes it in damaged when that is not
// nil. A stream past its size limit is not damage: that error goes on. PATCH.
type eofOnError struct {
	r       io.Reader
	damaged *bool
}

func (e eofOnError) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && !errors.Is(err, ErrLimit) {
		if e.damaged != nil {
			*e.damaged = true
		}
		if n > 0 {
			return n, nil
		}
		return 0, io.EOF
	}
	return n, err
}

// safeReader opens a stream, giving an empty reader when its filters cannot be set up.
func safeReader(v Value) (rd io.Reader) {
	defer func() {
		if r := recover(); r != nil {
			rd = strings.NewReader("")
		}
	}()
	return v.Reader()
}

// readTokenRecover reads a token; ok is false when the bytes were not a token (a stray
// delimiter, a broken hex string), which are skipped. PATCH.
func readTokenRecover(b *buffer) (tok token, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isRuntime := r.(runtime.Error); isRuntime || isLimit(r) {
				panic(r)
			}
			tok, ok = nil, false
		}
	}()
	return b.readToken(), true
}

// skipInlineImage skips the data of an inline image up to and including the EI operator
// (EI preceded by white space and followed by white space, a delimiter or the end).
func skipInlineImage(b *buffer) {
	b.readByte() // the single white-space byte after ID
	var prev2, prev1 byte = ' ', ' '
	for !b.eof {
		c := b.readByte()
		if b.eof {
			return
		}
		if c == 'I' && prev1 == 'E' && isSpace(prev2) {
			n := b.readByte()
			if b.eof || isSpace(n) || isDelim(n) {
				b.unreadByte()
				return
			}
			b.unreadByte()
		}
		prev2, prev1 = prev1, c
	}
}
