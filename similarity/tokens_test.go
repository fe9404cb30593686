package similarity

import (
	"hash/fnv"
	"testing"
)

// Libraries store word hashes, so the hand-written hash must stay FNV-1a exactly.
func TestHashWordIsFNV1a(t *testing.T) {
	for _, w := range []string{"", "a", "the", "软件包", "管理器", "Ünïcödé", "𠮷野家", "2024"} {
		h := fnv.New32a()
		h.Write([]byte(w))
		if got, want := hashWord([]byte(w)), h.Sum32(); got != want {
			t.Errorf("%q: hashWord %08x, FNV-1a %08x", w, got, want)
		}
	}
}
