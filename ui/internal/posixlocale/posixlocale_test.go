package posixlocale_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	_ "fyne.io/fyne/v2/lang" // reads the locale in its init

	_ "thesischeck/ui/internal/posixlocale"
)

// The test binary runs itself under LANG=C.UTF-8: Fyne's init must not complain, which it does when it
// initialises before this package.
func TestBeforeFyne(t *testing.T) {
	if os.Getenv("POSIXLOCALE_CHILD") != "" {
		if got := os.Getenv("LANGUAGE"); got != "en" {
			t.Fatalf("LANGUAGE = %q in a C.UTF-8 process, want en", got)
		}
		return
	}
	for _, lang := range []string{"C.UTF-8", "POSIX", "C"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBeforeFyne$", "-test.v")
		for _, kv := range os.Environ() {
			switch strings.SplitN(kv, "=", 2)[0] {
			case "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG":
				continue
			}
			cmd.Env = append(cmd.Env, kv)
		}
		cmd.Env = append(cmd.Env, "LANG="+lang, "POSIXLOCALE_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("LANG=%s: %v\n%s", lang, err, out)
		}
		if strings.Contains(string(out), "Fyne error") {
			t.Errorf("LANG=%s: Fyne logged an error at start:\n%s", lang, out)
		}
	}
}
