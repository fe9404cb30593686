package assets

import _ "embed"

// Icon is the application icon, 512×512 PNG, drawn by icon/make_icon.go.
//
//go:embed icon.png
var Icon []byte
