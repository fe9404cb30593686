package english

import "testing"

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "0 pairs"}, {1, "1 pair"}, {2, "2 pairs"}, {-1, "-1 pairs"}, {1000, "1000 pairs"}} {
		if got := Count(tt.n, "pair", "pairs"); got != tt.want {
			t.Errorf("Count(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
