package report

// The HTML report: one self-contained file (inline CSS and script, system fonts, no network), with
// the same content as the PDF. Clicking a flagged paragraph opens it side by side with the source
// paragraphs it matched; printing lays those comparisons out under each paragraph instead.
//
// Every piece of report text goes through html.EscapeString; colours are re-formatted from parsed
// values, never copied from the report, so a hostile report cannot inject markup or script.

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"io"
	"strings"

	"thesischeck/extract"
	"thesischeck/keys"
)

// WriteHTML writes r as a self-contained HTML page signed by s (htmlsign.go); unsigned when s is nil.
func (r *Report) WriteHTML(w io.Writer, s *keys.Signer) error {
	return writeHTML(w, s, func(h *htmlWriter) {
		h.r = r
		h.page()
	})
}

// SaveHTML writes the HTML report signed by s to path.
func (r *Report) SaveHTML(path string, s *keys.Signer) error {
	return saveFile(path, func(w io.Writer) error { return r.WriteHTML(w, s) })
}

// writeHTML writes the page that page writes, signed by s.
func writeHTML(w io.Writer, s *keys.Signer, page func(h *htmlWriter)) error {
	var buf bytes.Buffer
	bw := bufio.NewWriter(&buf)
	h := &htmlWriter{w: bw}
	page(h)
	if h.err == nil {
		h.err = bw.Flush()
	}
	if h.err != nil {
		return fmt.Errorf("report: writing HTML: %w", h.err)
	}
	signed, err := signHTML(buf.Bytes(), s)
	if err != nil {
		return err
	}
	if _, err := w.Write(signed); err != nil {
		return fmt.Errorf("report: writing HTML: %w", err)
	}
	return nil
}

type htmlWriter struct {
	r   *Report
	w   *bufio.Writer
	err error
}

// raw writes markup the caller built; every report string in it must have been escaped.
func (h *htmlWriter) raw(s string) {
	if h.err == nil {
		_, h.err = h.w.WriteString(s)
	}
}

func (h *htmlWriter) rawf(format string, args ...any) { h.raw(fmt.Sprintf(format, args...)) }

// text writes report text, escaped.
func (h *htmlWriter) text(s string) { h.raw(html.EscapeString(s)) }

func esc(s string) string { return html.EscapeString(s) }

func (h *htmlWriter) page() {
	r := h.r
	h.raw("<!DOCTYPE html>\n<html lang=\"zh-CN\">\n<head>\n<meta charset=\"utf-8\">\n")
	h.writeHead(r.htmlHead())
	h.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	h.raw("<meta name=\"generator\" content=\"ThesisCheck\">\n")
	h.rawf("<title>ThesisCheck 论文查重报告 — %s</title>\n", esc(r.documentName()))
	h.raw("<style>\n" + htmlCSS)
	// Printed pages carry the running header and page numbers the PDF has.
	h.rawf("@media print{@page{@top-left{content:%s;font-size:8pt;color:#6b7280}@top-right{content:%s;font-size:8pt;color:#6b7280}@bottom-left{content:\"ThesisCheck 论文查重报告\";font-size:7pt;color:#a0a6b0}@bottom-right{content:counter(page) \" / \" counter(pages);font-size:8pt;color:#6b7280}}}\n",
		cssString(r.documentName()), cssString("报告编号 "+r.Number))
	for i := range r.Sources {
		c := r.sourceColor(i)
		h.rawf(".s%d{--c:%s;--t:%s;--q:%s}\n", i, c.hex(), c.tint(colHighlight).hex(), c.tint(colQuoteTint).hex())
	}
	h.raw("</style>\n</head>\n<body>\n")
	h.cover()
	h.fullText()
	h.raw(`<div id="panel" class="panel" hidden role="dialog" aria-modal="true" aria-label="对照 Side by side">` +
		`<div class="panel-box"><button type="button" class="close" aria-label="关闭 Close">×</button><div class="panel-body"></div></div></div>` + "\n")
	h.raw("<script>\n" + htmlJS + "</script>\n</body>\n</html>\n")
}

func (h *htmlWriter) cover() {
	r := h.r
	h.raw("<header class=\"cover\">\n<h1>ThesisCheck 论文查重报告 <span>/ Similarity Report</span></h1>\n<dl class=\"meta\">\n")
	for _, m := range r.identity() {
		h.rawf("<dt>%s</dt><dd>%s</dd>\n", esc(m[0]), esc(m[1]))
	}
	h.raw("</dl>\n<section class=\"figures\">\n")
	for i, f := range r.figures() {
		cls := "fig"
		style := ""
		if f.Main {
			cls = "fig main"
			style = fmt.Sprintf(` style="--lv:%s;--lvt:%s"`, levelColor(f.Level).hex(), levelColor(f.Level).tint(0.08).hex())
		}
		h.rawf("<div class=\"%s\"%s><b>%s</b><span>%s</span><small>%s</small></div>\n", cls, style, esc(f.Value), esc(f.Label), esc(f.LabelEN))
		if i == 2 {
			h.raw("<div class=\"row\"></div>\n")
		}
	}
	h.raw("</section>\n")
	if text, c := r.verdictText(); text != "" {
		h.rawf("<p class=\"verdict\" style=\"color:%s;font-weight:bold\">%s</p>\n", c.hex(), esc(text))
	}
	if len(r.Warnings) > 0 {
		h.raw("<section class=\"warn\">\n<h3>注意 Warnings</h3>\n<ul>\n")
		for _, wn := range r.Warnings {
			label, why := warningText(wn)
			h.rawf("<li><b>%s</b><br>%s</li>\n", esc(label), esc(why))
		}
		h.raw("</ul>\n</section>\n")
	}

	if len(r.Sections) > 0 {
		h.raw("<section class=\"sections\">\n<h2>分段检测结果 Similarity by section</h2>\n<table>\n")
		for _, s := range r.Sections {
			name := sectionLabel(s)
			if !s.Checked {
				h.rawf("<tr class=\"unchecked\"><th>%s</th><td class=\"bar\">未检测 not checked</td><td></td><td class=\"n\">%s 字</td></tr>\n", esc(name), thousands(s.Chars))
				continue
			}
			c := levelColor(s.Similarity)
			h.rawf("<tr><th>%s</th><td class=\"bar\"><div class=\"track\"><div style=\"width:%.1f%%;background:%s\"></div></div></td><td class=\"p\" style=\"color:%s\">%s</td><td class=\"n\">%s / %s 字</td></tr>\n",
				esc(name), max(0, min(1, s.Similarity))*100, c.hex(), c.hex(), esc(pct(s.Similarity)), thousands(s.CopiedChars), thousands(s.Chars))
		}
		h.raw("</table>\n</section>\n")
	}

	h.raw("<section class=\"sources\">\n<h2>相似文献 Sources</h2>\n")
	if len(r.Sources) == 0 {
		h.raw("<p>未发现相似文献。No similar sources were found in the library.</p>\n")
	} else {
		h.raw("<table>\n<thead><tr><th></th><th>#</th><th>来源 Source</th><th class=\"n\">占比 Share</th><th class=\"n\">复制字数 Chars</th><th class=\"n\">Jaccard</th></tr></thead>\n<tbody>\n")
		for i, s := range r.Sources {
			h.rawf("<tr class=\"src s%d\" data-src=\"%d\" tabindex=\"0\" title=\"只看此来源 Show only this source\"><td><i class=\"sw\"></i></td><td>%d</td><td><b>%s</b><br><small>%s</small></td><td class=\"n share\">%s</td><td class=\"n\">%s</td><td class=\"n\">%.2f</td></tr>\n",
				i, i, i+1, esc(r.sourceName(i)), esc(fileName(s.Path)), esc(pct(s.Similarity)), thousands(s.CopiedChars), s.Jaccard)
		}
		h.raw("</tbody>\n</table>\n")
	}
	if text := r.excludedSourcesText(); text != "" {
		h.rawf("<p class=\"left-out\">%s</p>\n", esc(text))
	}
	h.raw("</section>\n")

	if len(r.Excluded) > 0 {
		h.raw("<section class=\"notes\">\n<h2>未计入检测 Not counted</h2>\n<table>\n")
		for _, e := range r.Excluded {
			label, why := exclusionText(e)
			h.rawf("<tr><th>%s</th><td class=\"n\">%s 字</td><td>%s</td></tr>\n", esc(label), thousands(e.Chars), esc(why))
		}
		h.raw("</table>\n</section>\n")
	}
	h.raw("</header>\n")
}

// cssString quotes s as a CSS string that can end neither the string nor the style element early.
func cssString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\%x ", c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func settingsText(s Settings) string {
	refs := "参考文献不计入 (references excluded)"
	if s.IncludeReferences {
		refs = "含参考文献 (references included)"
	}
	if s.IncludeFrontMatter {
		refs += " · 含前置部分 (front matter included)"
	}
	return fmt.Sprintf("最小连续复制 %d 字 (min. run) · SimHash ≤ %d · %s", s.MinRunChars, s.MaxHamming, refs)
}

func (h *htmlWriter) legend() {
	h.raw("<p class=\"legend\">")
	for i := 0; i < min(3, len(h.r.Sources)); i++ {
		h.rawf("<mark class=\"s%d\">&nbsp;&nbsp;</mark>", i)
	}
	h.raw(" 复制（来源颜色）copied, in the source's colour <span class=\"q\">引用 quoted</span> <span class=\"tpl\">模板 boilerplate</span> <span class=\"excl\">未检测 not checked</span>" +
		" <span class=\"hint\">点击标色段落查看对照 · click a flagged paragraph to compare it with its sources</span></p>\n")
}

func (h *htmlWriter) fullText() {
	r := h.r
	h.raw("<main class=\"fulltext\">\n<h2>全文对照 Full text</h2>\n")
	h.legend()
	for i := range r.Paragraphs {
		if notesStart(r.Paragraphs, i) {
			h.rawf("<h3 class=\"part\">%s</h3>\n", esc(sectionLabels[string(extract.Notes)]))
		}
		h.paragraph(&r.Paragraphs[i])
	}
	h.raw("</main>\n")
}

func (h *htmlWriter) paragraph(p *Paragraph) {
	r := h.r
	kind := paragraphKind(p)
	cm := copyMatches(p)
	flagged := kind == kindFlagged || (kind == kindQuoted && len(cm) > 0)
	text := []rune(p.Text)
	cls := []string{"para"}
	switch {
	case p.Heading:
		cls = append(cls, "heading")
	case kind == kindTemplate:
		cls = append(cls, "tpl")
	case kind == kindExcluded:
		cls = append(cls, "excl")
	}
	if flagged {
		cls = append(cls, "flagged", fmt.Sprintf("s%d", p.Matches[cm[0]].Source))
	}
	id := fmt.Sprintf("p%d", p.Index)
	h.rawf("<div class=\"%s\" id=\"%s\"", strings.Join(cls, " "), id)
	if flagged {
		h.rawf(" data-cmp=\"cmp-%s\" tabindex=\"0\" role=\"button\" title=\"查看对照 Compare with sources\"", id)
	}
	h.rawf("><span class=\"num\">%d", p.Index+1)
	switch {
	case flagged:
		h.rawf("<em>%s</em>", esc(pct(p.Similarity)))
	case kind == kindTemplate:
		h.raw("<em>模板</em>")
	case kind == kindExcluded && !p.Heading:
		h.raw("<em>未检</em>")
	}
	h.raw("</span><p>")
	var mk []mark
	if kind != kindExcluded && !p.Heading {
		mk = marks(len(text), p.Matches, p.Quotes)
	}
	h.marked(text, mk)
	h.raw("</p>")
	for _, n := range p.Notes {
		h.rawf("<p class=\"note\">注 %s</p>", esc(n))
	}
	if flagged {
		h.raw("<ul class=\"hits\">")
		for _, mi := range cm {
			m := &p.Matches[mi]
			h.rawf("<li class=\"s%d\"><i class=\"sw\"></i>来源 [%d] %s · 第 %d 段 · Hamming %d · Jaccard %.2f · 复制 %s 字</li>",
				m.Source, m.Source+1, esc(r.sourceName(m.Source)), m.SourceParagraph+1, m.Hamming, m.Jaccard, thousands(m.CopiedChars))
		}
		h.raw("</ul>")
	}
	h.raw("</div>\n")
	if flagged {
		h.compare(p, id, cm)
	}
}

// compare writes the side-by-side view of a flagged paragraph: hidden on screen until clicked, laid
// out under the paragraph in print.
func (h *htmlWriter) compare(p *Paragraph, id string, cm []int) {
	r := h.r
	text := []rune(p.Text)
	h.rawf("<div class=\"cmp\" id=\"cmp-%s\" hidden>\n", id)
	for _, mi := range cm {
		m := &p.Matches[mi]
		src := []rune(m.SourceText)
		h.rawf("<div class=\"pair s%d\">\n<div class=\"stats\"><i class=\"sw\"></i><b>来源 [%d] %s</b> · 段落指纹相差 <b>%d</b>/64 位 fingerprints differ in %d of 64 bits (汉明距离 Hamming) · 用词重合 shared wording <b>%.2f</b> (Jaccard) · 复制 %s 字 copied chars</div>\n",
			m.Source, m.Source+1, esc(r.sourceName(m.Source)), m.Hamming, m.Hamming, m.Jaccard, thousands(m.CopiedChars))
		h.rawf("<div class=\"side\"><h4>送检段落 Submission ¶%d</h4><p>", p.Index+1)
		h.marked(text, marks(len(text), []Match{{Source: m.Source, Spans: m.Spans}}, p.Quotes))
		h.rawf("</p></div>\n<div class=\"side\"><h4>来源段落 Source ¶%d <small>%s</small></h4><p>", m.SourceParagraph+1, esc(fileName(m.SourcePath)))
		h.marked(src, spanMarks(len(src), m.SourceSpans, m.Source))
		h.raw("</p></div>\n</div>\n")
	}
	h.raw("</div>\n")
}

// marked writes text with its marks as <mark> (copied), .q (quoted) and .tpl (boilerplate) runs.
func (h *htmlWriter) marked(text []rune, mk []mark) {
	if mk == nil {
		h.text(string(text))
		return
	}
	for i := 0; i < len(text); {
		m := mk[i]
		j := i
		for j < len(text) && mk[j] == m {
			j++
		}
		s := esc(string(text[i:j]))
		var cls []string
		if m.quoted {
			cls = append(cls, "q")
		}
		if m.template {
			cls = append(cls, "tpl")
		}
		switch {
		case m.src >= 0 && !m.template:
			cls = append(cls, fmt.Sprintf("s%d", m.src))
			h.rawf("<mark class=\"%s\">%s</mark>", strings.Join(cls, " "), s)
		case len(cls) > 0:
			h.rawf("<span class=\"%s\">%s</span>", strings.Join(cls, " "), s)
		default:
			h.raw(s)
		}
		i = j
	}
}

const htmlCSS = `:root{--ink:#212121;--muted:#6b7280;--faint:#a0a6b0;--rule:#d5dae1;--panel:#f4f6f9;--accent:#17459c;--quote:#1b7a4e;--tpl:#808080;--excl:#a8a8a8}
*{box-sizing:border-box}
body{margin:0 auto;max-width:60rem;padding:1.5rem 2rem 4rem;color:var(--ink);background:#fff;font:16px/1.75 "PingFang SC","Hiragino Sans GB","Microsoft YaHei","Noto Sans CJK SC","Noto Sans SC","Source Han Sans SC","WenQuanYi Micro Hei",system-ui,-apple-system,"Segoe UI",sans-serif}
h1{color:var(--accent);font-size:1.6rem;margin:0 0 .6rem;padding-bottom:.4rem;border-bottom:3px solid var(--accent)}
h1 span{font-weight:normal}
h2{color:var(--accent);font-size:1.15rem;border-bottom:1px solid var(--rule);margin:1.6rem 0 .6rem;padding-bottom:.2rem}
.meta{display:grid;grid-template-columns:11rem 1fr;gap:.1rem 1rem;margin:0 0 1rem;font-size:.9rem}
.meta dt{color:var(--muted)}.meta dd{margin:0;overflow-wrap:anywhere}
.figures{display:flex;flex-wrap:wrap;gap:.8rem}
.figures .row{flex-basis:100%;height:0}
.fig{flex:1 1 8rem;background:var(--panel);padding:.5rem .8rem;display:flex;flex-direction:column;line-height:1.3}
.fig b{font-size:1.3rem}.fig span{font-size:.8rem}.fig small{color:var(--muted);font-size:.72rem}
.fig.main{flex:1 1 12rem;background:var(--lvt);border-top:4px solid var(--lv)}
.fig.main b{color:var(--lv);font-size:2.2rem}.fig.main span{font-weight:bold}
.legend{font-size:.82rem;color:var(--muted);margin:1rem 0}
.legend mark{padding:0 .1rem;margin-right:1px}
.legend .hint{display:block}
table{border-collapse:collapse;width:100%;font-size:.9rem}
td,th{padding:.3rem .4rem;text-align:left;vertical-align:top}
.sections th{font-weight:normal;width:12rem}
.sections .track{background:#e8ebef;height:.8rem;margin-top:.45rem}.sections .track div{height:100%}
.sections .p{font-weight:bold;width:5rem}.n{text-align:right;white-space:nowrap;color:var(--muted)}
.unchecked th,.unchecked td{color:var(--excl)}
.sources thead th{color:var(--muted);font-weight:normal;font-size:.8rem;border-bottom:1px solid var(--rule)}
.sources tbody tr{border-bottom:1px solid var(--rule);cursor:pointer}
.sources tbody tr:hover{background:var(--panel)}
.sources small{color:var(--muted);word-break:break-all}.sources .share{color:var(--c);font-weight:bold}
.sw{display:inline-block;width:.9rem;height:.9rem;background:var(--c);vertical-align:-.1rem;margin-right:.3rem}
.notes th{font-weight:normal;width:12rem;white-space:nowrap}.notes td:last-child{color:var(--muted);font-size:.85rem}
.warn{margin:1rem 0 0;padding:.4rem .9rem .5rem;background:#fcf0f0;border-left:4px solid #c62828;font-size:.88rem}
.warn h3{margin:0;color:#c62828;font-size:1rem}.warn ul{margin:.2rem 0 0;padding:0;list-style:none}.warn li{margin:.2rem 0;line-height:1.5}
.para{position:relative;margin:0 0 .9rem;padding-left:.9rem;border-left:3px solid transparent}
.para p{margin:0}
.para .num{position:absolute;left:-3.6rem;width:2.9rem;text-align:right;font-size:.72rem;color:var(--faint);line-height:1.3;padding-top:.35rem}
.para .num em{display:block;font-style:normal;font-weight:bold;color:#c62828}
.para.flagged{border-left-color:var(--c);cursor:pointer}
.para.flagged:hover,.para.flagged:focus{background:#fafbfc;outline:none}
.para.heading p{font-weight:bold;font-size:1.15rem;margin-top:1rem}
.para.tpl,.para .tpl{color:var(--tpl)}.para.tpl .num em{color:var(--tpl);font-weight:normal}
.para.excl:not(.heading){color:var(--excl);font-size:.92rem}.para.excl .num em{color:var(--excl);font-weight:normal}
mark{background:var(--t);color:inherit;padding:.1rem 0}
mark.q{background:var(--q)}
.q{color:var(--quote);text-decoration:underline;text-decoration-color:var(--quote);text-underline-offset:.2rem}
.note{font-size:.8rem;color:var(--muted)}
.hits{list-style:none;margin:.3rem 0 0;padding:0;font-size:.78rem;color:var(--muted)}
.hits .sw{width:.7rem;height:.7rem}
body.focus mark:not(.on){background:none}
body.focus .para.flagged:not(.on){border-left-color:transparent}
tr.src.on{background:var(--panel);outline:2px solid var(--c)}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:.6rem 1.2rem;margin:0 0 1.2rem;padding:.6rem .8rem;background:var(--panel);border-left:4px solid var(--c)}
.pair .stats{grid-column:1/3;font-size:.85rem;color:var(--muted)}.pair .stats b{color:var(--ink)}
.pair h4{margin:0 0 .3rem;font-size:.8rem;color:var(--muted)}.pair h4 small{font-weight:normal;word-break:break-all}
.pair .side p{margin:0;font-size:.95rem;background:#fff;padding:.5rem .6rem}
.panel{position:fixed;inset:0;background:rgba(20,30,50,.45);display:flex;align-items:center;justify-content:center;z-index:10}
.panel[hidden]{display:none}
.panel-box{position:relative;background:#fff;width:min(96vw,78rem);max-height:90vh;overflow:auto;padding:2.2rem 1.5rem 1rem;box-shadow:0 10px 40px rgba(0,0,0,.3)}
.panel .close{position:absolute;top:.3rem;right:.6rem;border:0;background:none;font-size:1.8rem;line-height:1;cursor:pointer;color:var(--muted)}
@media (max-width:50rem){.pair{grid-template-columns:1fr}.pair .stats{grid-column:1}.para .num{position:static;display:block;width:auto;text-align:left}}
@media print{
@page{size:A4;margin:16mm 14mm 16mm 12mm}
body{max-width:none;padding:0 0 0 3rem;font-size:10.5pt}
.meta{grid-template-columns:9.5rem 1fr;font-size:9pt}
h2,h3{break-after:avoid}.sections tr,.sources tr,.notes tr{break-inside:avoid}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
.panel,.hint,.hits{display:none!important}
.cmp[hidden]{display:block!important}
.pair{break-inside:avoid;font-size:9pt;grid-template-columns:1fr 1fr}.pair .stats{grid-column:1/3}
.para .num{position:absolute;left:-2.9rem;width:2.4rem;text-align:right;display:block}
.para{break-inside:avoid-page}
.fulltext{break-before:page}
.para.flagged{cursor:auto}
}
`

const htmlJS = `(function(){
var panel=document.getElementById("panel"),body=panel.querySelector(".panel-body"),last=null;
function open(p){var c=document.getElementById(p.getAttribute("data-cmp"));if(!c)return;
body.innerHTML=c.innerHTML;panel.hidden=false;last=p;panel.querySelector(".close").focus();}
function close(){panel.hidden=true;body.innerHTML="";if(last)last.focus();}
document.addEventListener("click",function(e){
var p=e.target.closest(".para.flagged");if(p&&!e.target.closest("a")){open(p);return;}
if(e.target===panel||e.target.closest(".close")){close();return;}
var s=e.target.closest("tr.src");if(s)focusSource(s);});
document.addEventListener("keydown",function(e){
if(e.key==="Escape"&&!panel.hidden){close();return;}
if(e.key==="Enter"||e.key===" "){var p=e.target.closest&&e.target.closest(".para.flagged");if(p){e.preventDefault();open(p);return;}
var s=e.target.closest&&e.target.closest("tr.src");if(s){e.preventDefault();focusSource(s);}}});
function focusSource(row){var cls="s"+row.getAttribute("data-src"),on=!row.classList.contains("on");
document.querySelectorAll(".on").forEach(function(x){x.classList.remove("on")});
document.body.classList.toggle("focus",on);
if(on){row.classList.add("on");document.querySelectorAll("mark."+cls+",.para.flagged."+cls).forEach(function(x){x.classList.add("on")});}}
})();
`
