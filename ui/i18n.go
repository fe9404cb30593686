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
		"check.emptyLib":          "比对库是空的，检测不会找到任何来源。请先在“比对库”中添加参考文献。",

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

		"sec.front":            "前置部分",
		"sec.abstract":         "摘要",
		"sec.body":             "正文",
		"sec.references":       "参考文献",
		"sec.acknowledgements": "致谢",
		"sec.appendix":         "附录",

		"excl.references": "参考文献：不计入，与知网“去除参考文献”口径一致",
		"excl.headings":   "标题：过短、格式化，不计入",
		"excl.title page": "封面：题目、作者、导师等信息",
		"excl.template":   "模板文字（多篇文献共有或来自模板文献）：显示但不计入",
		"excl.chars":      "%d 字",

		"warn.invisible":   "发现 %d 个不可见字符（零宽字符等）：这是规避查重的常见手法",
		"warn.lookalike":   "发现 %d 个形近字母（拉丁词中混入西里尔或希腊字母）：这是规避查重的常见手法",
		"warn.spaced":      "发现 %d 处汉字之间的空格：这是规避查重的常见手法",
		"warn.traditional": "发现 %d 个繁体字，已按简体比对",
		"warn.hidden":      "发现 %d 个隐藏字符（白色、极小字号、隐藏格式等，读者看不见），已剔除、不参与比对：这是规避查重的手法",
		"warn.pages":       "（第 %s 页）",
		"warn.paragraphs":  "（第 %s 段）",
		"list.sep":         "、",

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
		"err.allHidden":   "所有文字都是隐藏的（读者看不见）",
		"err.empty":       "没有可检测的段落",
		"err.unsupported": "不是 PDF、DOCX 或文本文件",
		"err.corrupt":     "文件已损坏",
		"err.tooLarge":    "文件太大",
		"err.timeout":     "读取时间过长，已停止",
		"err.locked":      "比对库正被另一个 ThesisCheck 程序使用，请关闭它后重试",
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
		"check.emptyLib":          "The library is empty, so the check cannot find any source. Add references under Library first.",

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

		"sec.front":            "Front matter",
		"sec.abstract":         "Abstract",
		"sec.body":             "Body",
		"sec.references":       "References",
		"sec.acknowledgements": "Acknowledgements",
		"sec.appendix":         "Appendix",

		"excl.references": "References: not counted, as in CNKI's figure without references",
		"excl.headings":   "Headings: too short and formulaic to count",
		"excl.title page": "Title page: title, author and supervisor lines",
		"excl.template":   "Template text (held by many library documents or a template): shown, not counted",
		"excl.chars":      "%d characters",

		"warn.invisible":   "%d invisible characters (zero-width or format characters): a common way to dodge checkers",
		"warn.lookalike":   "%d look-alike letters (Cyrillic or Greek inside Latin words): a common way to dodge checkers",
		"warn.spaced":      "%d spaces between Chinese characters: a common way to dodge checkers",
		"warn.traditional": "%d traditional Chinese characters, compared as simplified",
		"warn.hidden":      "%d characters of hidden text (white, tiny, hidden formatting…: a reader cannot see them) were left out of the check: a way to dodge checkers",
		"warn.pages":       " (pages %s)",
		"warn.paragraphs":  " (paragraphs %s)",
		"list.sep":         ", ",

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
		"err.allHidden":   "all of its text is hidden",
		"err.empty":       "no paragraphs to check",
		"err.unsupported": "not a PDF, DOCX or text file",
		"err.corrupt":     "the file is damaged",
		"err.tooLarge":    "the file is too large",
		"err.timeout":     "reading took too long and was stopped",
		"err.locked":      "the library is in use by another ThesisCheck process; close it and try again",
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
