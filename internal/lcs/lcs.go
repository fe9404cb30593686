// Package lcs finds a longest common subsequence of two sequences, for the marks that show which
// words (the compare pair view) or characters (the check's side-by-side view) a copier kept.
package lcs

// Pairs returns the index pairs (i, j) of a longest common subsequence of two sequences of lengths n
// and m, in order, where same(i, j) says whether the first's i-th element equals the second's j-th.
// Walking both from the start, it pairs two equal elements as soon as it meets them. Its table
// holds (n+1)×(m+1) 4-byte cells: callers bound n×m.
func Pairs(n, m int, same func(i, j int) bool) [][2]int {
	// t[i*w+j] is the length of the longest common subsequence of the suffixes from i and j.
	w := m + 1
	t := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if same(i, j) {
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			} else {
				t[i*w+j] = max(t[(i+1)*w+j], t[i*w+j+1])
			}
		}
	}
	var pairs [][2]int
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case same(i, j):
			pairs = append(pairs, [2]int{i, j})
			i, j = i+1, j+1
		case t[(i+1)*w+j] >= t[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return pairs
}
