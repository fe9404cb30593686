package library

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"strings"
	"testing"
)

// checkedBlocks is data of n random bytes and its table of block checksums.
func checkedBlocks(n, block int) (data, table []byte) {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	data = make([]byte, n)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	for lo := 0; lo < n; lo += block {
		table = binary.LittleEndian.AppendUint32(table, crc32.Checksum(data[lo:min(lo+block, n)], crcTable))
	}
	return data, table
}

// all checks every block, the last one after the stretches before it were given back, and gives
// back the whole of data, a stretch at a time.
func TestBlockCheckAll(t *testing.T) {
	for _, tc := range []struct {
		n, block int
		flip     int // a byte to damage, or -1
	}{
		{9<<20 + 3000, segBlock, -1},
		{9<<20 + 3000, segBlock, 9<<20 + 2999},
		{9<<20 + 3000, segPageBlock, 5 << 20},
		{1000, segBlock, -1},
		{8 << 20, segPageBlock, 0},
	} {
		data, table := checkedBlocks(tc.n, tc.block)
		if tc.flip >= 0 {
			data[tc.flip] ^= 0x40
		}
		var given [][2]int
		err := newBlockCheck(data, table, tc.block).all(func(b []byte) {
			lo := len(data) - cap(b)
			given = append(given, [2]int{lo, lo + len(b)})
		})
		if tc.flip < 0 && err != nil {
			t.Errorf("%d bytes of %d-byte blocks: %v", tc.n, tc.block, err)
		}
		if tc.flip >= 0 {
			b := tc.flip / tc.block
			if !errors.Is(err, errChecksum) || !strings.Contains(err.Error(), fmt.Sprintf("block %d ", b)) {
				t.Errorf("%d bytes, byte %d damaged: %v, want block %d's checksum", tc.n, tc.flip, err, b)
			}
		}
		at := 0
		for _, s := range given {
			if s[0] != at || s[1]-s[0] > 4<<20 || s[1] <= s[0] {
				t.Fatalf("%d bytes: given back %v after %d", tc.n, given, at)
			}
			at = s[1]
		}
		if at != len(data) {
			t.Errorf("%d bytes: given back up to %d", tc.n, at)
		}
	}
	if err := (*blockCheck)(nil).all(nil); err != nil {
		t.Errorf("no table: %v", err)
	}
}
