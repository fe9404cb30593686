// Package english words the counts in ThesisCheck's English messages: "1 byte", "3 bytes".
package english

import "strconv"

// Count is n followed by the noun in the number n asks for: one for 1, many for any other n.
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
