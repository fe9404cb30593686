// Package redistest starts a redis-server of a test's own, on a free port of the loopback with its
// data in the test's temporary folder, and stops it when the test ends: tests of the library on
// Redis run against the real server, never a stand-in.
package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is a running redis-server.
type Server struct {
	Addr string // host:port
	cmd  *exec.Cmd
	once sync.Once
}

// URL is the address of database db on the server, as --library takes it.
func (s *Server) URL(db int) string { return fmt.Sprintf("redis://%s/%d", s.Addr, db) }

// Start starts a server for t and stops it in t's cleanup. Without redis-server the test fails: the
// Makefile's deps step installs it, and a test that skipped would pass without testing anything.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server not found: run 'make deps' (Debian package redis-server)")
	}
	dir := t.TempDir()
	for range 5 { // a port found free may be taken before the server binds it
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--dir", dir,
			"--save", "", "--appendonly", "no", "--databases", "64", "--logfile", "")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = cmd.Stdout
		if err := cmd.Start(); err != nil {
			t.Fatalf("redis-server: %v", err)
		}
		s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), cmd: cmd}
		ready := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(stdout)
			var log []string
			for sc.Scan() {
				log = append(log, sc.Text())
				if strings.Contains(sc.Text(), "Ready to accept connections") {
					ready <- ""
					for sc.Scan() {
					}
					return
				}
			}
			ready <- strings.Join(log, "\n")
		}()
		select {
		case log := <-ready:
			if log == "" {
				t.Cleanup(s.Stop)
				return s
			}
			cmd.Wait()
			if strings.Contains(log, "Address already in use") {
				continue
			}
			t.Fatalf("redis-server did not start:\n%s", log)
		case <-time.After(10 * time.Second):
			s.Stop()
			t.Fatal("redis-server did not start within 10 s")
		}
	}
	t.Fatal("redis-server: no free port after 5 tries")
	return nil
}

// Stop stops the server, as a server that goes down; the test's cleanup does it at the latest.
func (s *Server) Stop() { s.once.Do(s.stop) }

func (s *Server) stop() {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
