package hugepages

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestMain makes the test binary, started by helper, the process under test: it calls Enable and
// prints the tunables it ends up with and its arguments.
func TestMain(m *testing.M) {
	if os.Getenv("HUGEPAGES_HELPER") == "1" {
		Enable()
		os.Stdout.WriteString(os.Getenv("GLIBC_TUNABLES") + "|" + strings.Join(os.Args[1:], " ") + "\n")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func helper(t *testing.T, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "first", "second argument")
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GLIBC_TUNABLES=") })
	cmd.Env = append(cmd.Env, "HUGEPAGES_HELPER=1")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// Enable starts the process again with the tunable set and the same arguments when the kernel has
// huge pages, and leaves a process alone whose GLIBC_TUNABLES is set (the user's, or its own after
// the exec).
func TestEnable(t *testing.T) {
	want := ""
	if thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err == nil && !strings.Contains(string(thp), "[never]") {
		want = tunable
	}
	const args = "first second argument"
	if got := helper(t); got != want+"|"+args {
		t.Errorf("without tunables: %q, want %q", got, want+"|"+args)
	}
	if got := helper(t, "GLIBC_TUNABLES=glibc.malloc.check=0"); got != "glibc.malloc.check=0|"+args {
		t.Errorf("with the user's tunables: %q", got)
	}
}
