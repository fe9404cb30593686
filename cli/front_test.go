package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// check leaves a thesis's front matter out and says so in the report; --include-front-matter
// checks it.
func TestCheckFrontMatterFlag(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	dir := t.TempDir()
	decl := "学位论文原创性声明：本人郑重声明，所呈交的学位论文是本人在导师指导下独立进行研究工作所取得的成果。除文中已经注明引用的内容外，本论文不含任何其他个人或集体已经发表或撰写过的作品成果。"
	body := strings.Repeat("湿地被称为城市的肾脏，它能够截留地表径流中的泥沙和污染物，缓解暴雨带来的洪涝压力，并在干旱季节向河道补充水源。", 2)
	thesis := strings.Join([]string{"某某大学硕士学位论文", "指导教师：王强教授", decl, "摘要", body, "第一章 绪论", body + "本文由此展开。", body + "下面分三节讨论。"}, "\n\n")
	src, sub := filepath.Join(dir, "src.txt"), filepath.Join(dir, "thesis.txt")
	if err := os.WriteFile(src, []byte("另一篇论文\n\n"+decl+"\n\n"+body+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sub, []byte(thesis+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(dir, "lib")
	var out, errs bytes.Buffer
	if err := Run([]string{"library", "add", "--library", lib, src}, nil, &out, &errs); err != nil {
		t.Fatalf("library add: %v %s", err, errs.String())
	}
	type report struct {
		Settings struct {
			IncludeFrontMatter bool `json:"include_front_matter"`
		} `json:"settings"`
		Excluded []struct {
			Section string `json:"section"`
			Chars   int    `json:"chars"`
		} `json:"excluded"`
	}
	for _, include := range []bool{false, true} {
		args := []string{"check", "--library", lib, "--json", filepath.Join(dir, "r.json")}
		if include {
			args = append(args, "--include-front-matter")
		}
		out.Reset()
		errs.Reset()
		if err := Run(append(args, sub), nil, &out, &errs); err != nil {
			t.Fatalf("%q: %v %s", args, err, errs.String())
		}
		data, err := os.ReadFile(filepath.Join(dir, "r.json"))
		if err != nil {
			t.Fatal(err)
		}
		var r report
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		front := 0
		for _, e := range r.Excluded {
			if e.Section == "front matter" {
				front = e.Chars
			}
		}
		if r.Settings.IncludeFrontMatter != include || (front >= len([]rune(decl))) == include {
			t.Errorf("--include-front-matter %v: settings %+v, front matter left out %d chars", include, r.Settings, front)
		}
	}
}
