#!/bin/sh
# Rebuilds zh.pdf and en.pdf from their LibreOffice sources. Made with LibreOffice 7.4
# (Debian 12: libreoffice-writer-nogui, fonts-noto-cjk, fonts-liberation2).
set -e
cd "$(dirname "$0")"
HOME="${TMPDIR:-/tmp}/thesischeck-soffice" soffice --headless --convert-to pdf zh.fodt en.fodt
# outlined.pdf: ../../../check/testdata/scrambled/wetland.pdf with its text converted to outlines,
# as Ghostscript 10 does it (-dNoOutputFonts).
gs -q -o outlined.pdf -sDEVICE=pdfwrite -dNoOutputFonts ../../../check/testdata/scrambled/wetland.pdf
