package redistest

import (
	"net"
	"testing"
)

func TestStartStop(t *testing.T) {
	var addr string
	t.Run("server", func(t *testing.T) {
		s := Start(t)
		addr = s.Addr
		c, err := net.Dial("tcp", s.Addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte("PING\r\n"))
		buf := make([]byte, 16)
		n, _ := c.Read(buf)
		if string(buf[:n]) != "+PONG\r\n" {
			t.Fatalf("PING answered %q", buf[:n])
		}
		c.Close()
	})
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Fatalf("the server at %s still answers after its test ended", addr)
	}
}
