//go:build ignore

// Writes a PDF of a page picture (PNG) with a text layer of other text than it shows, as the
// tests of scanned pages need: go run fake.go PICTURE.png OUT.pdf zh|en invisible|covered.
// invisible: the text in render mode 3 over the picture, as OCR text is written; covered: the text
// drawn first, visible, and the picture over it.
package main

import (
	"os"

	"codeberg.org/go-pdf/fpdf"
)

// Text of ThesisCheck's own, in neither page: what a student would put under pictures of copied pages.
var texts = map[string]string{
	"zh": "本研究以县域中小学的课后服务为对象，采用问卷与访谈相结合的方法，考察服务内容、师资安排与家长满意度之间的关系。" +
		"调查覆盖六个乡镇的十八所学校，回收有效问卷一千二百余份。结果显示，服务时段的弹性安排比课程数量更能影响家长评价，" +
		"而教师的额外工作负担是学校持续开展服务的主要障碍。文章据此提出按需分层、引入社区资源和完善补贴机制三项建议，" +
		"并讨论了样本地域集中所带来的局限以及今后研究可以拓展的方向。",
	"en": "This study follows the after-school programmes of county primary and middle schools through surveys and interviews, " +
		"looking at what the programmes offer, who teaches them and how parents judge them. Eighteen schools in six townships took part " +
		"and more than twelve hundred questionnaires came back complete. Flexible hours mattered more to parents than the number of " +
		"courses, while the extra hours asked of teachers were the main reason schools struggled to keep the programmes going. " +
		"The paper closes with three proposals and with the limits of a sample drawn from one region.",
}

func main() {
	picture, out, lang, how := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	pdf := fpdf.New("P", "pt", "A4", "")
	pdf.AddUTF8Font("noto", "", "../../../assets/fonts/NotoSansSC-Regular.ttf")
	pdf.SetMargins(72, 72, 72)
	pdf.SetAutoPageBreak(false, 0)
	pdf.AddPage()
	opts := fpdf.ImageOptions{ImageType: "PNG"}
	if how == "invisible" {
		pdf.ImageOptions(picture, 0, 0, 595, 842, false, opts, 0, "")
		pdf.SetTextRenderingMode(3)
	}
	pdf.SetFont("noto", "", 12)
	pdf.SetXY(72, 72)
	for range 3 {
		pdf.MultiCell(0, 20, texts[lang], "", "L", false)
	}
	pdf.SetTextRenderingMode(0)
	if how == "covered" {
		pdf.ImageOptions(picture, 0, 0, 595, 842, false, opts, 0, "")
	}
	if err := pdf.OutputFileAndClose(out); err != nil {
		panic(err)
	}
}
