package assets

import _ "embed"

// FontRegular and FontBold are Noto Sans SC (SIL Open Font Licence 1.1, see fonts/OFL.txt) as static
// TrueType files. TrueType outlines matter: the Go PDF writers embed only glyf-based fonts, and the GUI
// needs one font that covers Latin and CJK alike. Each weight is about 10.5 MB of the binary.
var (
	//go:embed fonts/NotoSansSC-Regular.ttf
	FontRegular []byte
	//go:embed fonts/NotoSansSC-Bold.ttf
	FontBold []byte
)
