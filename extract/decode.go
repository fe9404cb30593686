package extract

// Plain text carries no declaration of its encoding, and every legacy encoding decodes nearly any
// bytes to something. decodeText therefore reads a file every way it could be meant — UTF-8,
// GB18030, Big5, Windows-1252 — and keeps the reading with the fewest characters that stand for no
// text. GB18030 and Big5 are judged by their share of Han characters outside everyday Chinese
// (GB2312 and Big5's frequent characters): UTF-8 or Big5 read as GB18030 come out as valid but rare
// characters, real GBK text as common ones, and the other way round. A reading that is still
// mostly not text is refused rather than scored.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	utf16 "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"thesischeck/internal/english"
)

// ErrEncoding is returned for text whose every reading is mostly not text.
var ErrEncoding = fmt.Errorf("%w: not text in UTF-8, UTF-16, GB18030, Big5 or Windows-1252", ErrUnsupported)

// maxBadShare is the share of characters that may stand for no text before a reading is refused
// (one in a hundred): a damaged file has a few bad bytes, binary data or another encoding has many.
const maxBadShare = 0.01

// maxRareShare is the share of its non-ASCII characters a GB18030 reading may have outside everyday
// Chinese. Measured on the devset's Chinese texts: in GB18030 0–0.4 %, converted to traditional
// characters at most 2.5 %; their UTF-8 read as GB18030 56–59 %.
const maxRareShare = 0.10

// minRefused is how many characters that are not text a reading may always have: a short note
// with a stray byte or a rare name is still read (and warned about).
const minRefused = 8

// maxOffsets is how many byte offsets a warning lists.
const maxOffsets = 10

// reading is one way of decoding a file.
type reading struct {
	enc      string
	text     string
	replaced []int // byte offsets of bytes invalid in enc, each now U+FFFD (the first maxOffsets)
	nReplace int   // how many there were
	notText  int   // private-use, unassigned and control characters
	rare     int   // GB18030: Han characters outside everyday Chinese (see common)
	nonASCII int
	chars    int // characters other than white space
}

// cost counts the characters of r that are unlikely to be what the writer meant.
func (r *reading) cost() int { return r.nReplace + r.notText + r.rare }

// DecodeText reads a small text file's bytes as TXT files are read: UTF-8, UTF-16 or GB18030 (what
// Excel on a Chinese Windows writes a CSV file in), with warnings for what could not be read.
func DecodeText(data []byte) (string, []Warning, error) { return decodeText(data) }

// decodeText returns data as UTF-8, whatever of our encodings it was written in, with warnings
// for what could not be read as text. It refuses data that no encoding reads as text.
func decodeText(data []byte) (string, []Warning, error) {
	r := chooseReading(data)
	if r.chars == 0 {
		return cleanText(r.text), nil, nil
	}
	if bad := r.nReplace + r.notText; bad > minRefused && float64(bad) > maxBadShare*float64(r.chars) {
		return "", nil, fmt.Errorf("%w: read as %s, %d of %d characters are not text", ErrEncoding, r.enc, bad, r.chars)
	}
	if r.rare > minRefused && float64(r.rare) > maxRareShare*float64(r.nonASCII) {
		return "", nil, fmt.Errorf("%w: read as %s, %d of %d characters are rare ones (an unknown encoding?)", ErrEncoding, r.enc, r.rare, r.nonASCII)
	}
	return cleanText(r.text), r.warnings(), nil
}

func (r *reading) warnings() []Warning {
	var ws []Warning
	if r.nReplace > 0 {
		at := make([]string, len(r.replaced))
		for i, o := range r.replaced {
			at[i] = strconv.Itoa(o)
		}
		where := ""
		if len(at) > 0 {
			where = " (at byte " + strings.Join(at, ", ")
			if r.nReplace > len(at) {
				where += ", …"
			}
			where += ")"
		}
		verb := "were"
		if r.nReplace == 1 {
			verb = "was"
		}
		ws = append(ws, Warning{Kind: WarnReplaced, Count: r.nReplace,
			Message: fmt.Sprintf("%s not valid in %s%s %s replaced by �", english.Count(r.nReplace, "byte", "bytes"), r.enc, where, verb)})
	}
	if r.notText > 0 {
		ws = append(ws, Warning{Kind: WarnNotText, Count: r.notText,
			Message: english.Count(r.notText, "character", "characters") + " with no meaning as text (private use, unassigned or control characters)"})
	}
	return ws
}

// chooseReading decodes data the way it was most likely written.
func chooseReading(data []byte) *reading {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return readUTF8(data[3:], 3)
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return readUTF16(data)
	}
	u := readUTF8(data, 0)
	if u.nReplace == 0 || u.multibyte() >= 2*u.nReplace {
		// Mostly-valid UTF-8 is UTF-8: no legacy text holds twice as many valid UTF-8 sequences
		// as bytes that are not (the devset's GBK texts: one for every four).
		return u
	}
	best := u
	for _, r := range []*reading{readGB18030(data), readBig5(data), readWindows1252(data)} {
		if r.cost() < best.cost() {
			best = r
		}
	}
	return best
}

// multibyte counts the valid multi-byte sequences of a UTF-8 reading.
func (r *reading) multibyte() int { return r.nonASCII - r.nReplace }

func readUTF8(data []byte, base int) *reading {
	r := &reading{enc: "UTF-8"}
	if utf8.Valid(data) {
		r.text = string(data)
	} else {
		var b strings.Builder
		b.Grow(len(data) + 16)
		for i := 0; i < len(data); {
			c, n := utf8.DecodeRune(data[i:])
			if c == utf8.RuneError && n <= 1 {
				if len(r.replaced) < maxOffsets {
					r.replaced = append(r.replaced, base+i)
				}
				r.nReplace++
				b.WriteRune(utf8.RuneError)
				i++
				continue
			}
			b.Write(data[i : i+n])
			i += n
		}
		r.text = b.String()
	}
	r.count(false)
	r.notText -= r.nReplace // counted as replaced
	return r
}

func readUTF16(data []byte) *reading {
	r := &reading{enc: "UTF-16"}
	before := bytes.Count(data, []byte{0xFD, 0xFF}) + bytes.Count(data, []byte{0xFF, 0xFD})
	out, _, err := transform.Bytes(utf16.UTF16(utf16.BigEndian, utf16.ExpectBOM).NewDecoder(), data)
	if err != nil {
		out = []byte(strings.Repeat("\uFFFD", len(data)/2))
	}
	r.text = string(out)
	r.count(false)
	// Unpaired surrogates and an odd last byte decode to U+FFFD; the decoder does not say where.
	r.nReplace = max(0, strings.Count(r.text, "\uFFFD")-before)
	r.notText -= r.nReplace
	return r
}

func readGB18030(data []byte) *reading {
	return readChinese(data, "GB18030", simplifiedchinese.GB18030.NewDecoder())
}

// readBig5 reads traditional Chinese as Taiwan's and Hong Kong's Windows write it; its rare
// characters are counted as GB18030's are (everyday Chinese takes in Big5's frequent characters), so
// that the two readings of Chinese bytes compare.
func readBig5(data []byte) *reading {
	return readChinese(data, "Big5", traditionalchinese.Big5.NewDecoder())
}

func readChinese(data []byte, enc string, dec *encoding.Decoder) *reading {
	out, _, err := transform.Bytes(dec, data)
	r := &reading{enc: enc, text: string(out)}
	if err != nil {
		r.text = strings.ToValidUTF8(string(data), "\uFFFD")
	}
	r.count(true)
	r.nReplace = strings.Count(r.text, "\uFFFD")
	r.notText -= r.nReplace
	return r
}

// readWindows1252 counts as not text the bytes that Windows-1252 leaves undefined and the letters
// that stand where a Western text would not have them: away from any ASCII letter, or letters no
// English, French or German word uses (ÿ, þ, ð, ý — what a stray 0xFF or a GBK byte pair turns into).
func readWindows1252(data []byte) *reading {
	out, _, _ := transform.Bytes(charmap.Windows1252.NewDecoder(), data)
	r := &reading{enc: "Windows-1252", text: string(out)}
	r.count(false)
	rs := []rune(r.text)
	for i, c := range rs {
		if c < 0x80 || !unicode.IsLetter(c) {
			continue
		}
		nearLetter := (i > 0 && isASCIILetter(rs[i-1])) || (i+1 < len(rs) && isASCIILetter(rs[i+1]))
		if !nearLetter || strings.ContainsRune("ÿþÞðÐýÝ", c) {
			r.rare++
		}
	}
	return r
}

func isASCIILetter(r rune) bool { return r < 0x80 && unicode.IsLetter(r) }

// count fills in the character counts of r.text; gb counts characters outside GB2312 as rare.
func (r *reading) count(gb bool) {
	for _, c := range r.text {
		if c < 0x80 {
			if c > ' ' && c != 0x7F {
				r.chars++
			} else if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0 {
				r.notText++ // NUL is padding, dropped by cleanText
			}
			continue
		}
		r.nonASCII++
		if c >= 0x4E00 && c <= 0x9FFF { // the common Han characters: most of a Chinese text, and quick
			r.chars++
			if gb && !common(c) {
				r.rare++
			}
			continue
		}
		if unicode.IsSpace(c) {
			continue
		}
		r.chars++
		if notText(c) {
			r.notText++
		} else if gb && unicode.Is(unicode.Han, c) && !common(c) {
			r.rare++
		}
	}
}

// notText: U+FFFD, private use, unassigned and C1 control characters. Format characters (zero-width
// spaces and the like) are text a writer may have typed; normalisation sees through them and warns.
func notText(c rune) bool {
	if c == utf8.RuneError || unicode.Is(unicode.Co, c) || unicode.Is(unicode.Cc, c) {
		return true
	}
	return !unicode.In(c, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs, unicode.Cf)
}

var (
	commonOnce sync.Once
	commonSet  []uint64 // bit per BMP code point
)

// common reports whether c is one of the characters of everyday Chinese: GB2312 (6,763 simplified
// Han characters and the symbols of Chinese text) or Big5's 5,401 frequent characters (traditional
// Chinese). Text in another encoding read as GB18030 is more than half other characters; Chinese
// text, simplified or traditional, less than 3 % (measured on the devset).
func common(c rune) bool {
	commonOnce.Do(func() {
		commonSet = make([]uint64, 0x10000/64)
		add := func(dec *encoding.Decoder, hi, lo [2]int) {
			pair := make([]byte, 2)
			for h := hi[0]; h <= hi[1]; h++ {
				for l := lo[0]; l <= lo[1]; l++ {
					pair[0], pair[1] = byte(h), byte(l)
					out, err := dec.Bytes(pair)
					if err != nil {
						continue
					}
					if c, _ := utf8.DecodeRune(out); c != utf8.RuneError && c < 0x10000 && !unicode.Is(unicode.Co, c) {
						commonSet[c/64] |= 1 << (c % 64)
					}
				}
			}
		}
		add(simplifiedchinese.GBK.NewDecoder(), [2]int{0xA1, 0xF7}, [2]int{0xA1, 0xFE})
		big5 := traditionalchinese.Big5.NewDecoder()
		add(big5, [2]int{0xA4, 0xC5}, [2]int{0x40, 0xFE})
		add(big5, [2]int{0xC6, 0xC6}, [2]int{0x40, 0x7E})
	})
	return c < 0x10000 && commonSet[c/64]&(1<<(c%64)) != 0
}
