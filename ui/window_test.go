package ui

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"thesischeck/check"
	"thesischeck/library"
	"thesischeck/report"
)

// The window test runs the test binary again with these variables set; TestMain then opens the real
// app (OpenGL under Xvfb), checks the thesis, saves screenshots and quits.
const (
	shotEnv  = "THESISCHECK_UI_SHOTS" // folder for the screenshots
	libEnv   = "THESISCHECK_UI_LIBRARY"
	fileEnv  = "THESISCHECK_UI_FILE"
	themeEnv = "THESISCHECK_UI_THEME"
	// keepEnv names a folder to copy the screenshots to, for a person to look at.
	keepEnv = "THESISCHECK_KEEP_SHOTS"
)

// shots are the screens the window test photographs, in order.
var shots = []string{"report", "detail", "library", "check", "compare"}

// windowMain is the child process: the real app, photographed through its own canvas.
func windowMain(dir string) int {
	a := app.NewWithID(appID)
	a.Preferences().SetString("theme", os.Getenv(themeEnv))
	err := run(a, os.Getenv(libEnv), os.Getenv(fileEnv), func(g *gui) {
		go photograph(g, dir)
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func photograph(g *gui, dir string) {
	steps := map[string]func(){
		"report": func() {},
		"detail": func() {
			for i, p := range g.report.r.Paragraphs {
				if len(p.Matches) > 0 && p.Matches[0].Source == 0 {
					g.report.openDetail(i)
					return
				}
			}
		},
		"library": func() {
			closeOverlays(g.win)
			g.tabs.SelectIndex(tabLibrary)
		},
		"check": func() { g.tabs.SelectIndex(tabCheck) },
		"compare": func() {
			g.tabs.SelectIndex(tabCompare)
			dir := filepath.Dir(os.Getenv(fileEnv))
			g.compare.run([]string{os.Getenv(fileEnv), filepath.Join(dir, "library")})
		},
	}
	for _, name := range shots {
		fyne.DoAndWait(steps[name])
		for busy := true; busy; time.Sleep(100 * time.Millisecond) {
			fyne.DoAndWait(func() { busy = g.task != nil })
		}
		time.Sleep(700 * time.Millisecond) // a few frames, so the screen is painted
		var size fyne.Size
		fyne.DoAndWait(func() { size = g.win.Canvas().Size().Max(fyne.NewSize(1, 1)) })
		// Fyne's Canvas().Capture() reads back a blank frame under Xvfb, so the X server is asked; the
		// window sits at the top left of the screen (Xvfb has no window manager).
		crop := fmt.Sprintf("%dx%d+0+0", int(size.Width), int(size.Height))
		out, err := exec.Command("import", "-window", "root", "-crop", crop, filepath.Join(dir, name+".png")).CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "import: %v: %s\n", err, out)
		}
	}
	fyne.Do(g.app.Quit)
}

func closeOverlays(w fyne.Window) {
	for o := w.Canvas().Overlays().Top(); o != nil; o = w.Canvas().Overlays().Top() {
		w.Canvas().Overlays().Remove(o)
	}
}

// TestRealWindow opens the app for real (make test runs it under xvfb-run), checks the thesis, and
// checks that the screenshots show a painted report: many colours, and the first source's colour
// where its copied text is underlined.
func TestRealWindow(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("no X display: run the GUI tests under xvfb-run (make test does)")
	}
	if _, err := exec.LookPath("import"); err != nil {
		t.Fatal("the screenshots need ImageMagick's import (make deps installs it)")
	}
	libDir := testLibrary(t)
	// Chinese in the light theme, English in the dark one.
	for code, look := range map[string]string{langZH: "light", langEN: "dark"} {
		t.Run(code, func(t *testing.T) {
			dir := t.TempDir()
			home := t.TempDir()
			thesis, err := filepath.Abs("testdata/thesis.txt")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
			locale := map[string]string{langZH: "zh_CN.UTF-8", langEN: "en_US.UTF-8"}[code]
			cmd.Env = append(os.Environ(), shotEnv+"="+dir, libEnv+"="+libDir, fileEnv+"="+thesis, themeEnv+"="+look,
				"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"),
				"LANG="+locale, "LC_ALL="+locale, "LANGUAGE="+locale)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("app: %v\n%s", err, out)
			}
			if strings.Contains(string(out), "Error in Fyne call thread") {
				t.Errorf("widgets changed off the UI goroutine:\n%s", out)
			}

			rep, err := reportOf(libDir, thesis)
			if err != nil {
				t.Fatal(err)
			}
			first := sourceColor(rep.Sources[0].Color)
			for _, name := range shots {
				img := loadPNG(t, filepath.Join(dir, name+".png"))
				colours, share, hits := colourStats(img, first)
				t.Logf("%s/%s: %v, %d colours, commonest %.0f%%, %d pixels in source colour", code, name, img.Bounds().Size(), colours, share*100, hits)
				if img.Bounds().Dx() < 1000 || img.Bounds().Dy() < 700 {
					t.Errorf("%s: window %v, want the size asked for", name, img.Bounds().Size())
				}
				// Text alone gives hundreds of antialiasing shades; the report also fills much of the window.
				report := name == "report" || name == "detail"
				if colours < 200 || (report && share > 0.9) {
					t.Errorf("%s looks blank: %d colours, the commonest covers %.0f%%", name, colours, share*100)
				}
				if report && hits < 100 {
					t.Errorf("%s: only %d pixels in the first source's colour %v", name, hits, first)
				}
				if keep := os.Getenv(keepEnv); keep != "" {
					data, _ := os.ReadFile(filepath.Join(dir, name+".png"))
					if err := os.WriteFile(filepath.Join(keep, code+"-"+name+".png"), data, 0o644); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
}

// reportOf checks thesis against the library as the app did, for the colours to look for.
func reportOf(libDir, thesis string) (*report.Report, error) {
	lib, err := library.Open(libDir, &library.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer lib.Close()
	return check.File(context.Background(), lib, thesis, nil, nil)
}

func loadPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// colourStats counts distinct colours, the share of the commonest one, and pixels within a small
// distance of c.
func colourStats(img image.Image, c color.NRGBA) (distinct int, commonest float64, near int) {
	counts := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			px := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 0xff}
			counts[px]++
			if absDiff(px.R, c.R) <= 8 && absDiff(px.G, c.G) <= 8 && absDiff(px.B, c.B) <= 8 {
				near++
			}
		}
	}
	top := 0
	for _, n := range counts {
		top = max(top, n)
	}
	return len(counts), float64(top) / float64(b.Dx()*b.Dy()), near
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
