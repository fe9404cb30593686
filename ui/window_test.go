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
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

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
	// classEnv, oldEnv and infoEnv make the child photograph the compare screen instead: this
	// year's class, earlier years' folder and the student list, at the sizes in sizesEnv.
	classEnv = "THESISCHECK_UI_CLASS"
	oldEnv   = "THESISCHECK_UI_OLD"
	infoEnv  = "THESISCHECK_UI_INFO"
	sizesEnv = "THESISCHECK_UI_SIZES"
	// sizeEnv is the window size of the screens' photographs, WxH.
	sizeEnv = "THESISCHECK_UI_SIZE"
)

// shots are the screens the window test photographs, in order.
var shots = []string{"report", "detail", "library", "check", "preview", "settings", "compare"}

// windowMain is the child process: the real app, photographed through its own canvas.
func windowMain(dir string) int {
	a := app.NewWithID(appID)
	a.Preferences().SetString("theme", os.Getenv(themeEnv))
	ready := func(g *gui) { go photograph(g, dir) }
	if os.Getenv(classEnv) != "" {
		ready = func(g *gui) { go photographCompare(g, dir) }
	}
	err := run(a, os.Getenv(libEnv), os.Getenv(fileEnv), ready)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func photograph(g *gui, dir string) {
	var w, h float32
	if _, err := fmt.Sscanf(os.Getenv(sizeEnv), "%fx%f", &w, &h); err == nil {
		fyne.DoAndWait(func() { g.win.Resize(fyne.NewSize(w, h)) })
	}
	// fit.txt records, per screen, the window's size and the least its content needs: the parent
	// asserts that the layout fits, at every size, in every language and theme.
	fit, err := os.Create(filepath.Join(dir, "fit.txt"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	defer fit.Close()
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
		"check":   func() { g.tabs.SelectIndex(tabCheck) },
		"preview": func() { g.previewFile(os.Getenv(fileEnv)) },
		"settings": func() {
			closeOverlays(g.win)
			g.tabs.SelectIndex(tabSettings)
		},
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
		shoot(g, filepath.Join(dir, name+".png"))
		fyne.DoAndWait(func() {
			size, min := g.win.Canvas().Size(), g.win.Content().MinSize()
			fmt.Fprintf(fit, "%s %.0f %.0f %.0f %.0f %s\n", name, size.Width, size.Height, min.Width, min.Height, truncatedHeaders(g))
		})
	}
	fyne.Do(g.app.Quit)
}

// truncatedHeaders names, joined by "|", the labels of the shown screens whose text is cut with an
// ellipsis although they are headers (bold, single line), or "-" when there are none.
func truncatedHeaders(g *gui) string {
	var cut []string
	objs := test.LaidOutObjects(g.win.Content())
	for _, o := range g.win.Canvas().Overlays().List() {
		objs = append(objs, test.LaidOutObjects(o)...)
	}
	for _, o := range objs {
		v, ok := o.(*widget.Label)
		if !ok || !v.Visible() || !v.TextStyle.Bold || v.Truncation != fyne.TextTruncateEllipsis || v.Wrapping != fyne.TextWrapOff {
			continue
		}
		need := fyne.MeasureText(v.Text, theme.TextSize(), v.TextStyle).Width + 2*theme.InnerPadding()
		if need > v.Size().Width+1 {
			cut = append(cut, strings.ReplaceAll(v.Text, " ", "_"))
		}
	}
	if len(cut) == 0 {
		return "-"
	}
	return strings.Join(cut, "|")
}

// shoot saves the window as it is painted to path.
func shoot(g *gui, path string) {
	time.Sleep(700 * time.Millisecond) // a few frames, so the screen is painted
	var size fyne.Size
	fyne.DoAndWait(func() { size = g.win.Canvas().Size().Max(fyne.NewSize(1, 1)) })
	// Fyne's Canvas().Capture() reads back a blank frame under Xvfb, so the X server is asked; the
	// window sits at the top left of the screen (Xvfb has no window manager).
	crop := fmt.Sprintf("%dx%d+0+0", int(size.Width), int(size.Height))
	out, err := exec.Command("import", "-window", "root", "-crop", crop, path).CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "import: %v: %s\n", err, out)
	}
}

// photographCompare compares the class with its earlier years and student list, then photographs
// the compare screen and its most similar pair at each size: compare-WxH.png, pair-WxH.png.
func photographCompare(g *gui, dir string) {
	wait := func() {
		for busy := true; busy; time.Sleep(100 * time.Millisecond) {
			fyne.DoAndWait(func() { busy = g.task != nil })
		}
	}
	fyne.DoAndWait(func() {
		g.tabs.SelectIndex(tabCompare)
		g.compare.loadInfo(os.Getenv(infoEnv))
		g.compare.setOld([]string{os.Getenv(oldEnv)})
		g.compare.run([]string{os.Getenv(classEnv)})
	})
	wait()
	for _, sz := range strings.Split(os.Getenv(sizesEnv), ",") {
		var w, h float32
		fmt.Sscanf(sz, "%fx%f", &w, &h)
		fyne.DoAndWait(func() {
			closeOverlays(g.win)
			g.win.Resize(fyne.NewSize(w, h))
		})
		shoot(g, filepath.Join(dir, "compare-"+sz+".png"))
		fyne.DoAndWait(func() {
			if f := g.compare.flagged; len(f) > 0 {
				g.compare.openPair(f[0])
				g.compare.pairView.show(1)
			}
		})
		shoot(g, filepath.Join(dir, "pair-"+sz+".png"))
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
	screen := xScreen(t)
	// Every screen at the smallest size the app supports and at full HD, in both languages and both
	// themes. THESISCHECK_KEEP_SHOTS keeps the photographs, named LANG-THEME-WxH-SCREEN.png.
	type look struct{ code, theme, size string }
	var looks []look
	for _, code := range []string{langZH, langEN} {
		for _, th := range []string{"light", "dark"} {
			for _, size := range []string{"1024x700", "1920x1080"} {
				var w, h float32
				fmt.Sscanf(size, "%fx%f", &w, &h)
				if w > screen.Width || h > screen.Height {
					t.Errorf("the X screen %v is smaller than %s: run under a larger Xvfb screen", screen, size)
					continue
				}
				looks = append(looks, look{code, th, size})
			}
		}
	}
	for _, l := range looks {
		code, look, size := l.code, l.theme, l.size
		t.Run(code+"-"+look+"-"+size, func(t *testing.T) {
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
			cmd.Env = append(os.Environ(), shotEnv+"="+dir, libEnv+"="+libDir, fileEnv+"="+thesis, themeEnv+"="+look, sizeEnv+"="+size,
				"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"),
				"LANG="+locale, "LC_ALL="+locale, "LANGUAGE="+locale)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("app: %v\n%s", err, out)
			}
			if strings.Contains(string(out), "Error in Fyne call thread") {
				t.Errorf("widgets changed off the UI goroutine:\n%s", out)
			}

			fits, err := os.ReadFile(filepath.Join(dir, "fit.txt"))
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(strings.TrimSpace(string(fits)), "\n") {
				var name, cut string
				var w, h, mw, mh float32
				if _, err := fmt.Sscanf(line, "%s %f %f %f %f %s", &name, &w, &h, &mw, &mh, &cut); err != nil {
					t.Fatalf("fit.txt: %q: %v", line, err)
				}
				if mw > w || mh > h {
					t.Errorf("%s: the content needs %.0f×%.0f, the window is %.0f×%.0f", name, mw, mh, w, h)
				}
				if cut != "-" {
					t.Errorf("%s: headers cut short: %s", name, cut)
				}
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
				if fmt.Sprintf("%dx%d", img.Bounds().Dx(), img.Bounds().Dy()) != size {
					t.Errorf("%s: window %v, want %s", name, img.Bounds().Size(), size)
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
					if err := os.WriteFile(filepath.Join(keep, code+"-"+look+"-"+size+"-"+name+".png"), data, 0o644); err != nil {
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

// compareShotSizes are the window sizes the compare screen is photographed at: a small laptop and a
// full-HD screen (clamped to the X screen, which make test sets to 1920×1080).
var compareShotSizes = []fyne.Size{fyne.NewSize(1024, 700), fyne.NewSize(1920, 1080)}

// TestCompareWindow opens the app for real, compares a class of sixteen with an earlier year and a
// student list, and photographs the compare screen and a pair at each size: the pictures must be
// painted, the matrix red where pairs are flagged, the pair view's current fragment blue.
func TestCompareWindow(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Fatal("no X display: run the GUI tests under xvfb-run (make test does)")
	}
	screen := xScreen(t)
	class, old, info := writeShotClass(t)
	dir, home := t.TempDir(), t.TempDir()
	var sizes []string
	for _, s := range compareShotSizes {
		w, h := min(s.Width, screen.Width), min(s.Height, screen.Height)
		if w < s.Width || h < s.Height {
			t.Logf("the X screen is %v: photographing %v at %vx%v", screen, s, w, h)
		}
		sizes = append(sizes, fmt.Sprintf("%.0fx%.0f", w, h))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), shotEnv+"="+dir, libEnv+"="+testLibrary(t), classEnv+"="+class, oldEnv+"="+old,
		infoEnv+"="+info, sizesEnv+"="+strings.Join(sizes, ","), "HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"LANG=zh_CN.UTF-8", "LC_ALL=zh_CN.UTF-8", "LANGUAGE=zh_CN.UTF-8")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("app: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "Error in Fyne call thread") {
		t.Errorf("widgets changed off the UI goroutine:\n%s", out)
	}
	for _, sz := range sizes {
		for _, name := range []string{"compare-" + sz, "pair-" + sz} {
			img := loadPNG(t, filepath.Join(dir, name+".png"))
			colours, share, red := colourStats(img, color.NRGBA{0xd3, 0x2f, 0x2f, 0xff})
			_, _, blue := colourStats(img, currentFragment)
			t.Logf("%s: %v, %d colours, commonest %.0f%%, %d red pixels, %d blue", name, img.Bounds().Size(), colours, share*100, red, blue)
			if fmt.Sprintf("%dx%d", img.Bounds().Dx(), img.Bounds().Dy()) != sz {
				t.Errorf("%s: %v, want %s", name, img.Bounds().Size(), sz)
			}
			if colours < 200 {
				t.Errorf("%s looks blank: %d colours", name, colours)
			}
			if strings.HasPrefix(name, "compare") && red < 100 {
				t.Errorf("%s: %d pixels of flagged red in the matrix", name, red)
			}
			if strings.HasPrefix(name, "pair") && blue < 50 {
				t.Errorf("%s: %d pixels of the current fragment's blue", name, blue)
			}
			if keep := os.Getenv(keepEnv); keep != "" {
				data, _ := os.ReadFile(filepath.Join(dir, name+".png"))
				if err := os.WriteFile(filepath.Join(keep, name+".png"), data, 0o644); err != nil {
					t.Error(err)
				}
			}
		}
	}
}

// xScreen is the size of the X screen, from xdpyinfo's dimensions line.
func xScreen(t *testing.T) fyne.Size {
	t.Helper()
	out, err := exec.Command("xdpyinfo").Output()
	if err != nil {
		t.Fatalf("xdpyinfo (x11-utils): %v", err)
	}
	var w, h float32
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "dimensions:" {
			fmt.Sscanf(f[1], "%fx%f", &w, &h)
		}
	}
	if w == 0 {
		t.Fatalf("xdpyinfo gave no dimensions:\n%s", out)
	}
	return fyne.NewSize(w, h)
}

// writeShotClass writes a class of sixteen for the screenshots: 2 and 3 copy from 1 (a ring), 7
// from 6, 11 a little from 10, 14 from last year's o1; a student list names them.
func writeShotClass(t *testing.T) (class, old, info string) {
	t.Helper()
	para := dictParagraphs(t, 8, 5)
	own := func() []string {
		var out []string
		for range 10 {
			out = append(out, para())
		}
		return out
	}
	docs := map[string][]string{}
	for i := 1; i <= 16; i++ {
		docs[fmt.Sprintf("s%02d.txt", i)] = own()
	}
	oldDoc := own()
	copyInto := func(dst string, src []string, n int) {
		copy(docs[dst], src[:n])
	}
	copyInto("s02.txt", docs["s01.txt"], 6)
	copyInto("s03.txt", docs["s01.txt"], 4)
	copyInto("s07.txt", docs["s06.txt"], 3)
	copyInto("s11.txt", docs["s10.txt"], 2)
	copyInto("s14.txt", oldDoc, 5)
	base := t.TempDir()
	class, old = filepath.Join(base, "class"), filepath.Join(base, "2025")
	names := []string{"张伟", "王芳", "李娜", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周杰", "吴婷", "徐明", "孙丽", "马超", "朱琳", "胡斌", "郭蕾"}
	var csv strings.Builder
	csv.WriteString("file,姓名,学号\n")
	for _, d := range []string{class, old} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= 16; i++ {
		name := fmt.Sprintf("s%02d.txt", i)
		if err := os.WriteFile(filepath.Join(class, name), []byte(strings.Join(docs[name], "\n\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&csv, "%s,%s,2025%03d\n", name, names[i-1], i)
	}
	if err := os.WriteFile(filepath.Join(old, "o1.txt"), []byte(strings.Join(oldDoc, "\n\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info = filepath.Join(base, "students.csv")
	if err := os.WriteFile(info, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return class, old, info
}
