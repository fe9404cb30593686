// Package posixlocale keeps Fyne from logging "Error parsing user locale C" on machines whose locale
// is C.UTF-8 (Debian's default in containers and CI). Fyne's lang package reads the locale in its
// init and cannot parse "C.UTF-8"; it does accept LANGUAGE, which gettext ignores under the C locale
// anyway. So, when the locale is C or POSIX in any encoding and LANGUAGE is unset, this package sets
// LANGUAGE=en.
//
// It must run before Fyne's init. Go initialises packages in import-path order among those whose
// imports are ready (the spec's rule since Go 1.21), and this package imports only syscall: it becomes
// ready long before fyne.io/fyne/v2/lang, which waits for packages such as "time" and "unicode/utf8"
// that sort after "thesischeck/...". TestBeforeFyne checks it.
package posixlocale

import "syscall"

func init() {
	if v, ok := syscall.Getenv("LANGUAGE"); ok && v != "" {
		return
	}
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v, _ := syscall.Getenv(name)
		if v == "" {
			continue
		}
		if isPOSIX(v) {
			syscall.Setenv("LANGUAGE", "en")
		}
		return
	}
}

func isPOSIX(v string) bool {
	for _, p := range []string{"C", "POSIX"} {
		if v == p || len(v) > len(p) && v[:len(p)+1] == p+"." {
			return true
		}
	}
	return false
}
