package ui

import (
	"fmt"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
)

// Language codes of the two string tables.
const (
	langZH = "zh"
	langEN = "en"
)

// msgs holds every string the app shows, in both languages. A screen takes all its strings from one
// table, so no screen mixes languages; TestStringTables checks the tables have the same keys.
var msgs = map[string]map[string]string{
	langZH: {
		"app.title":      "ThesisCheck 论文查重",
		"tab.library":    "比对库",
		"tab.check":      "检测",
		"tab.report":     "报告",
		"tab.compare":    "互查",
		"tab.settings":   "设置",
		"common.cancel":  "取消",
		"common.close":   "关闭",
		"common.error":   "出错了",
		"common.save":    "保存",
		"common.opening": "正在打开比对库……",
		"common.libfail": "无法打开比对库：%s",
		"common.busy":    "另一项任务正在进行，请等它结束或取消。",

		"lib.search":       "按名称搜索……",
		"lib.addFiles":     "添加文件",
		"lib.addFolder":    "添加文件夹",
		"lib.remove":       "移除所选",
		"lib.col.title":    "题名",
		"lib.col.file":     "文件",
		"lib.col.paras":    "段落",
		"lib.col.chars":    "字数",
		"lib.col.added":    "加入日期",
		"lib.totals":       "共 %d 篇文献，%d 个段落，%d 字",
		"lib.shown":        "（显示 %d 篇）",
		"lib.empty":        "比对库还是空的。添加论文、期刊文章等参考文献（PDF、DOCX、TXT），或把文件、文件夹拖到窗口里。",
		"lib.importing":    "正在导入 %d / %d",
		"lib.current":      "当前文件：%s",
		"lib.imported":     "已导入 %d 篇",
		"lib.dups":         "，%d 篇已在库中",
		"lib.failedN":      "，%d 个文件未能导入",
		"lib.cancelled":    "导入已取消（已导入 %d 篇）",
		"lib.failedTitle":  "以下文件未能导入",
		"lib.failedIntro":  "其余文件已正常导入。未能导入的文件及原因：",
		"lib.confirmTitle": "移除文献",
		"lib.confirm":      "从比对库中移除所选的 %d 篇文献？",
		"lib.template":     "（模板）",
		"lib.removeNone":   "请先在列表中选择要移除的文献。",

		"lib.checkLib":      "检查比对库",
		"lib.repairLib":     "修复比对库",
		"lib.damaged":       "比对库已损坏，检测结果不可信：%s",
		"lib.damagedHint":   "请在“比对库”页检查并修复比对库。",
		"lib.checking":      "正在读取并核对比对库的每一部分……",
		"lib.closedFor":     "比对库已关闭，正在检查或修复",
		"lib.noDamage":      "比对库完好。",
		"lib.checkClean":    "检查完毕：没有发现损坏（%d 篇文献）。",
		"lib.checkFound":    "检查发现 %d 处损坏：",
		"lib.checkAdvice":   "点击“修复比对库”可重建能重建的部分，并列出需要重新添加的文献。",
		"lib.repairNothing": "没有发现损坏，无需修复（%d 篇文献）。",
		"lib.repaired":      "修复完成：比对库现有 %d 篇文献。",
		"lib.backup":        "被替换的文件保存在 %s",
		"lib.lost":          "以下 %d 篇文献无法保留，请重新添加：",

		"check.drop":              "把论文拖到这里，或",
		"check.choose":            "选择论文……",
		"check.formats":           "支持 PDF、DOCX、TXT。全部在本机完成，不上传任何内容。",
		"check.file":              "论文：%s",
		"check.lib":               "比对库：%d 篇文献，%d 个段落",
		"check.stage.extract":     "提取文本",
		"check.stage.fingerprint": "分词与指纹",
		"check.stage.search":      "检索候选来源",
		"check.stage.align":       "逐段比对",
		"check.running":           "正在检测……",
		"check.cancelled":         "检测已取消。",
		"check.failed":            "检测失败",
		"check.emptyLib":          "比对库是空的，无法检测：对着空库检测只会得出 0%%。请先在“比对库”中添加参考文献。",
		"check.templatesOnly":     "比对库里只有模板文献，它们从不计入复制比，无法检测。请先在“比对库”中添加参考文献。",

		"rep.none":            "还没有报告。在“检测”中选择一篇论文。",
		"rep.number":          "报告编号 %s",
		"rep.overall":         "总文字复制比",
		"rep.exclQuotes":      "去除引用复制比",
		"rep.maxSingle":       "单篇最大文字复制比",
		"rep.copied":          "复制字数 / 总字数",
		"rep.flagged":         "标红段落",
		"rep.sections":        "各部分复制比",
		"rep.sources":         "相似来源",
		"rep.noSources":       "没有找到相似来源。",
		"rep.share":           "占全文 %s",
		"rep.jaccard":         "杰卡德相似度 %s",
		"rep.hamming":         "汉明距离 %d",
		"rep.copiedChars":     "%d 字",
		"rep.text":            "全文对照",
		"rep.filter.hide":     "隐藏引用和参考文献",
		"rep.filter.min":      "最短匹配：%d 字",
		"rep.filter.all":      "全部来源",
		"rep.filter.shown":    "显示 %d / %d 段",
		"rep.export.pdf":      "导出 PDF",
		"rep.export.html":     "导出 HTML",
		"rep.export.json":     "导出 JSON",
		"rep.exported":        "报告已保存：%s",
		"rep.excluded":        "未计入检测的部分",
		"rep.warnings":        "注意",
		"rep.status.quoted":   "引用",
		"rep.status.template": "模板",
		"rep.status.excluded": "未检测",
		"rep.page":            "第 %d 页",
		"rep.libSize":         "比对库 %d 篇文献",
		"rep.settings":        "汉明距离 ≤ %d，最短复制 %d 字",
		"rep.clickHint":       "点击标色段落查看与来源的逐句对照。",
		"rep.templateFrom":    "模板文字，不计入复制比",

		"ver.button":        "验证报告……",
		"ver.dialog":        "验证报告",
		"ver.valid":         "报告有效",
		"ver.validBody":     "这份报告自签名以来没有任何改动，签名者是%s。",
		"ver.untrusted":     "签名者不在你信任的密钥之列",
		"ver.untrustedBody": "这份报告自签名以来没有改动，但签名所用的密钥不是你信任的：%s，密钥指纹 %s。任何人都能生成密钥，所以它证明不了报告出自谁手。",
		"ver.howTrust":      "若这是同事的密钥：请同事在其电脑上运行 %s，把显示的证书文件交给你，并当面或电话核对指纹；然后运行 %s。",
		"ver.file":          "证书文件",
		"ver.name":          "姓名",
		"ver.invalid":       "报告无效，不可采信",
		"ver.unreadable":    "无法验证这个文件：",
		"ver.notSigned":     "文件没有签名：它由旧版 ThesisCheck 生成，或被其他程序另存过；页面内容可能已被改动。",
		"ver.modified":      "文件在签名之后被改动过。",
		"ver.wrongDocument": "报告检测的不是这份文件。",
		"ver.problem":       "报告与其签名不一致。",
		"ver.ownKey":        "你自己的密钥（%s）",
		"ver.says":          "报告内容：%s",
		"ver.claims":        "文件自称：%s",
		"ver.embedded":      "PDF 内附的 JSON 报告自签名以来未被改动，签名者是%s：其中的数字是签名时的数字，但页面本身不受任何签名保护。",
		"ver.report":        "报告 %s，检测文献《%s》：总文字复制比 %s，去除引用 %s，单篇最大 %s",
		"ver.comparison":    "互查报告 %s，%d 篇文献，%d 对疑似抄袭",

		"sec.front":            "前置部分",
		"sec.abstract":         "摘要",
		"sec.body":             "正文",
		"sec.references":       "参考文献",
		"sec.acknowledgements": "致谢",
		"sec.appendix":         "附录",

		"excl.references":   "参考文献：不计入，与知网“去除参考文献”口径一致",
		"excl.headings":     "标题：过短、格式化，不计入",
		"excl.front matter": "前置部分：封面、独创性声明、授权书、签名与日期，同校论文皆同，默认不检测",
		"excl.template":     "模板文字（多篇文献共有或来自模板文献）：显示但不计入",
		"excl.chars":        "%d 字",

		"warn.invisible":   "发现 %d 个不可见字符（零宽字符等）：这是规避查重的常见手法",
		"warn.lookalike":   "发现 %d 个形近字母（拉丁词中混入西里尔或希腊字母）：这是规避查重的常见手法",
		"warn.spaced":      "发现 %d 处汉字之间的空格：这是规避查重的常见手法",
		"warn.traditional": "发现 %d 个繁体字，已按简体比对",

		"warn.replaced":         "有 %d 个字节不符合文件的编码，已替换为 � 后比对",
		"warn.not_text":         "有 %d 个字符不代表任何文字（私用区、未分配或控制字符）",
		"warn.name_mismatch":    "文件扩展名与内容不符，已按实际内容读取",
		"warn.unreadable_pages": "有 %d 页内容损坏，其文字未能全部参与比对",
		"warn.truncated_pages":  "有 %d 页绘制的字符超过上限，超出部分未参与比对",
		"warn.repeated_notes":   "注释被重复引用 %d 次，每条注释只保留一次",
		"warn.unreadable_notes": "脚注或尾注部分已损坏，未参与比对",

		"det.title":    "段落对照",
		"det.thesis":   "本文第 %d 段",
		"det.source":   "来源：%s，第 %d 段",
		"det.match":    "匹配 %d / %d",
		"det.copied":   "复制 %d 字，段落相似度 %s",
		"det.noMatch":  "这一段没有匹配的来源。",
		"det.template": "模板来源",

		"set.library":     "比对库文件夹",
		"set.browse":      "浏览……",
		"set.hamming":     "近似段落的汉明距离上限",
		"set.hammingHelp": "两段文字 SimHash 指纹相差不超过这么多位，视为近似段落（默认 3）。",
		"set.minRun":      "最短复制片段（字）",
		"set.minRunHelp":  "连续相同至少这么多字才算复制（默认 13，与知网一致）。",
		"set.language":    "界面语言",
		"set.theme":       "外观",
		"set.system":      "跟随系统",
		"set.light":       "浅色",
		"set.dark":        "深色",
		"set.applied":     "设置已生效。",
		"set.reopen":      "比对库已切换到 %s",

		"cmp.intro":     "把一个装有全部提交文件的文件夹拖到这里，或",
		"cmp.choose":    "选择文件夹……",
		"cmp.running":   "正在互查 %d / %d",
		"cmp.docs":      "%d 份文件，%d 对相似",
		"cmp.matrix":    "相似度矩阵",
		"cmp.pairs":     "相似的文件对",
		"cmp.noPairs":   "没有发现相似的文件对。",
		"cmp.pair":      "%s ↔ %s",
		"cmp.pairFig":   "相似度 %s，共同片段 %d 处，%d 字",
		"cmp.failed":    "以下文件未能读取",
		"cmp.export":    "导出 %s",
		"cmp.cancelled": "互查已取消。",

		"err.file":        "%s：%s",
		"err.encrypted":   "文件有密码保护，无法读取",
		"err.noText":      "没有文字层（是扫描件吗？）",
		"err.empty":       "没有可检测的段落",
		"err.unsupported": "不是 PDF、DOCX 或文本文件",
		"err.corrupt":     "文件已损坏",
		"err.tooLarge":    "文件太大",
		"err.timeout":     "读取时间过长，已停止",
		"err.notRegular":  "不是普通文件（命名管道、设备或套接字），不能读取",
		"err.locked":      "比对库正被另一个 ThesisCheck 程序使用，请关闭它后重试",
		"err.noReport":    "不是 ThesisCheck 报告",
		"err.bigReport":   "内嵌文件解压后过大，任何 ThesisCheck 报告都不会这样，已拒绝",
	},
	langEN: {
		"app.title":      "ThesisCheck",
		"tab.library":    "Library",
		"tab.check":      "Check",
		"tab.report":     "Report",
		"tab.compare":    "Compare",
		"tab.settings":   "Settings",
		"common.cancel":  "Cancel",
		"common.close":   "Close",
		"common.error":   "Something went wrong",
		"common.save":    "Save",
		"common.opening": "Opening the library…",
		"common.libfail": "Cannot open the library: %s",
		"common.busy":    "Another task is running; wait for it to finish or cancel it.",

		"lib.search":       "Search by name…",
		"lib.addFiles":     "Add files",
		"lib.addFolder":    "Add folder",
		"lib.remove":       "Remove selected",
		"lib.col.title":    "Title",
		"lib.col.file":     "File",
		"lib.col.paras":    "Paragraphs",
		"lib.col.chars":    "Characters",
		"lib.col.added":    "Added",
		"lib.totals":       "%d documents, %d paragraphs, %d characters",
		"lib.shown":        " (%d shown)",
		"lib.empty":        "The library is empty. Add theses, papers and other references (PDF, DOCX, TXT), or drop files and folders onto the window.",
		"lib.importing":    "Importing %d of %d",
		"lib.current":      "Current file: %s",
		"lib.imported":     "Imported %d documents",
		"lib.dups":         ", %d already in the library",
		"lib.failedN":      ", %d files could not be imported",
		"lib.cancelled":    "Import cancelled (%d documents imported)",
		"lib.failedTitle":  "Some files could not be imported",
		"lib.failedIntro":  "The other files went in. These could not be imported:",
		"lib.confirmTitle": "Remove documents",
		"lib.confirm":      "Remove the %d selected documents from the library?",
		"lib.template":     " (template)",
		"lib.removeNone":   "Select the documents to remove in the list first.",

		"lib.checkLib":      "Check library",
		"lib.repairLib":     "Repair library",
		"lib.damaged":       "The library is damaged; checks against it cannot be trusted: %s",
		"lib.damagedHint":   "Check and repair the library on the Library screen.",
		"lib.checking":      "Reading and checking every part of the library…",
		"lib.closedFor":     "the library is closed while it is checked or repaired",
		"lib.noDamage":      "The library is intact.",
		"lib.checkClean":    "Check finished: no damage found (%d documents).",
		"lib.checkFound":    "The check found %d problems:",
		"lib.checkAdvice":   "Repair library rebuilds what can be rebuilt and lists the documents to add again.",
		"lib.repairNothing": "No damage found; nothing to repair (%d documents).",
		"lib.repaired":      "Repaired: the library holds %d documents.",
		"lib.backup":        "The files it replaced are kept in %s",
		"lib.lost":          "These %d documents could not be kept; add them again:",

		"check.drop":              "Drop a thesis here, or",
		"check.choose":            "Choose a thesis…",
		"check.formats":           "PDF, DOCX or TXT. Everything runs on this computer; nothing is uploaded.",
		"check.file":              "Thesis: %s",
		"check.lib":               "Library: %d documents, %d paragraphs",
		"check.stage.extract":     "Extract text",
		"check.stage.fingerprint": "Segment and fingerprint",
		"check.stage.search":      "Search for sources",
		"check.stage.align":       "Align paragraphs",
		"check.running":           "Checking…",
		"check.cancelled":         "Check cancelled.",
		"check.failed":            "The check failed",
		"check.emptyLib":          "The library is empty, so there is nothing to check against (a check would only say 0 %%). Add references under Library first.",
		"check.templatesOnly":     "The library holds only template documents, which are never counted, so there is nothing to check against. Add references under Library first.",

		"rep.none":            "No report yet. Choose a thesis under Check.",
		"rep.number":          "Report %s",
		"rep.overall":         "Overall similarity",
		"rep.exclQuotes":      "Excluding quotes",
		"rep.maxSingle":       "Largest single source",
		"rep.copied":          "Copied / total characters",
		"rep.flagged":         "Paragraphs flagged",
		"rep.sections":        "Similarity by part",
		"rep.sources":         "Sources",
		"rep.noSources":       "No similar sources found.",
		"rep.share":           "%s of the text",
		"rep.jaccard":         "Jaccard %s",
		"rep.hamming":         "Hamming distance %d",
		"rep.copiedChars":     "%d characters",
		"rep.text":            "Full text",
		"rep.filter.hide":     "Hide quotes and references",
		"rep.filter.min":      "Shortest match: %d characters",
		"rep.filter.all":      "All sources",
		"rep.filter.shown":    "%d of %d paragraphs shown",
		"rep.export.pdf":      "Export PDF",
		"rep.export.html":     "Export HTML",
		"rep.export.json":     "Export JSON",
		"rep.exported":        "Report saved: %s",
		"rep.excluded":        "Not counted",
		"rep.warnings":        "Warning",
		"rep.status.quoted":   "quoted",
		"rep.status.template": "template",
		"rep.status.excluded": "not checked",
		"rep.page":            "page %d",
		"rep.libSize":         "Library of %d documents",
		"rep.settings":        "Hamming distance ≤ %d, shortest copy %d characters",
		"rep.clickHint":       "Click a highlighted paragraph to compare it with its source.",
		"rep.templateFrom":    "Template text, not counted",

		"ver.button":        "Verify a report…",
		"ver.dialog":        "Verify a report",
		"ver.valid":         "Valid report",
		"ver.validBody":     "This report is unchanged since it was signed by %s.",
		"ver.untrusted":     "Signed by a key you do not trust",
		"ver.untrustedBody": "This report is unchanged since it was signed, but the key that signed it is not one you trust: %s, fingerprint %s. Anyone can make a key, so it does not tell who made the report.",
		"ver.howTrust":      "If it is a colleague's key: ask them to run %s on their computer and give you the certificate file it names, compare the fingerprint in person or by phone, then run %s.",
		"ver.file":          "FILE",
		"ver.name":          "NAME",
		"ver.invalid":       "Not a valid report: do not rely on it",
		"ver.unreadable":    "This file cannot be verified:",
		"ver.notSigned":     "The file is not signed: an older ThesisCheck made it, or another program re-saved it; its pages may have been changed.",
		"ver.modified":      "The file was changed after it was signed.",
		"ver.wrongDocument": "The report is not about this file.",
		"ver.problem":       "The report does not match its signature.",
		"ver.ownKey":        "your own key (%s)",
		"ver.says":          "It says: %s",
		"ver.claims":        "It claims: %s",
		"ver.embedded":      "The JSON report inside the PDF is unchanged since it was signed by %s: its figures are those signed, but the pages themselves are not covered by any signature.",
		"ver.report":        "report %s on %s: overall similarity %s, excluding quotes %s, largest single source %s",
		"ver.comparison":    "class comparison %s of %d documents, %d pairs flagged",

		"sec.front":            "Front matter",
		"sec.abstract":         "Abstract",
		"sec.body":             "Body",
		"sec.references":       "References",
		"sec.acknowledgements": "Acknowledgements",
		"sec.appendix":         "Appendix",

		"excl.references":   "References: not counted, as in CNKI's figure without references",
		"excl.headings":     "Headings: too short and formulaic to count",
		"excl.front matter": "Front matter: title page, declarations, authorisations, signature and date lines, the same in every thesis of a school; not checked by default",
		"excl.template":     "Template text (held by many library documents or a template): shown, not counted",
		"excl.chars":        "%d characters",

		"warn.invisible":   "%d invisible characters (zero-width or format characters): a common way to dodge checkers",
		"warn.lookalike":   "%d look-alike letters (Cyrillic or Greek inside Latin words): a common way to dodge checkers",
		"warn.spaced":      "%d spaces between Chinese characters: a common way to dodge checkers",
		"warn.traditional": "%d traditional Chinese characters, compared as simplified",

		"warn.replaced":         "%d bytes not valid in the file's encoding were replaced by �",
		"warn.not_text":         "%d characters with no meaning as text (private use, unassigned or control characters)",
		"warn.name_mismatch":    "The file's extension does not match its content: it was read by its content",
		"warn.unreadable_pages": "%d pages could not be read in full (damaged content): their text is missing from the check",
		"warn.truncated_pages":  "%d pages draw more characters than a page holds: the rest were left out",
		"warn.repeated_notes":   "%d more references to notes already read: each note is kept once",
		"warn.unreadable_notes": "A damaged footnotes or endnotes part was left out",

		"det.title":    "Paragraph and source",
		"det.thesis":   "This thesis, paragraph %d",
		"det.source":   "Source: %s, paragraph %d",
		"det.match":    "Match %d of %d",
		"det.copied":   "%d characters copied, paragraph similarity %s",
		"det.noMatch":  "This paragraph matches no source.",
		"det.template": "Template source",

		"set.library":     "Library folder",
		"set.browse":      "Browse…",
		"set.hamming":     "Hamming distance for near-duplicate paragraphs",
		"set.hammingHelp": "Paragraphs whose SimHash fingerprints differ in at most this many bits count as near duplicates (default 3).",
		"set.minRun":      "Shortest copied run (characters)",
		"set.minRunHelp":  "A run of identical text counts as copied from this length on (default 13, as CNKI).",
		"set.language":    "Language",
		"set.theme":       "Appearance",
		"set.system":      "Follow the system",
		"set.light":       "Light",
		"set.dark":        "Dark",
		"set.applied":     "Settings applied.",
		"set.reopen":      "The library is now %s",

		"cmp.intro":     "Drop a folder holding all the submissions here, or",
		"cmp.choose":    "Choose a folder…",
		"cmp.running":   "Comparing %d of %d",
		"cmp.docs":      "%d files, %d similar pairs",
		"cmp.matrix":    "Similarity matrix",
		"cmp.pairs":     "Similar pairs",
		"cmp.noPairs":   "No similar pairs found.",
		"cmp.pair":      "%s ↔ %s",
		"cmp.pairFig":   "Similarity %s, %d shared passages, %d characters",
		"cmp.failed":    "These files could not be read",
		"cmp.export":    "Export %s",
		"cmp.cancelled": "Comparison cancelled.",

		"err.file":        "%s: %s",
		"err.encrypted":   "password protected",
		"err.noText":      "no text layer — scanned?",
		"err.empty":       "no paragraphs to check",
		"err.unsupported": "not a PDF, DOCX or text file",
		"err.corrupt":     "the file is damaged",
		"err.tooLarge":    "the file is too large",
		"err.timeout":     "reading took too long and was stopped",
		"err.notRegular":  "not a regular file (a named pipe, device or socket)",
		"err.locked":      "the library is in use by another ThesisCheck process; close it and try again",
		"err.noReport":    "not a ThesisCheck report",
		"err.bigReport":   "its embedded files inflate to more than any ThesisCheck report's: refused",
	},
}

// tr is a string table for one language.
type tr struct{ lang string }

// T returns the string for key, formatted with args when given. A missing key shows as itself, which
// the tests catch.
func (t tr) T(key string, args ...any) string {
	s, ok := msgs[t.lang][key]
	if !ok {
		s = key
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// Has reports whether the table has key, for core values (section names, warning kinds) that may be
// new to the UI.
func (t tr) Has(key string) bool {
	_, ok := msgs[t.lang][key]
	return ok
}

// systemLanguage is Chinese when the system's locale is, English otherwise.
func systemLanguage() string {
	if strings.HasPrefix(strings.ToLower(lang.SystemLocale().String()), "zh") {
		return langZH
	}
	return langEN
}

// syncFyneLanguage makes Fyne's own dialogs (file chooser, confirm buttons) speak the language the
// user chose. Fyne reads the locale from the environment whenever translations are added, so the
// language is put there and an empty translation set is added to make Fyne read it again.
func syncFyneLanguage(code string) {
	locale := "en"
	if code == langZH {
		locale = "zh_CN"
	}
	os.Setenv("LANGUAGE", locale)
	if err := lang.AddTranslationsForLocale([]byte("{}"), fyne.Locale("en")); err != nil {
		fyne.LogError("language", err)
	}
}
