#!/bin/sh
# Makes the scanned pages of the tests of text layers (pdf_layer.go): page 3 of the devset's
# zh-thesis S001.pdf and en-thesis S000.pdf, printed to black-and-white pictures at 100 and 150 dpi;
# each OCR'd by ocrmypdf (Tesseract), its layer the text the picture shows (zh-ocr.pdf,
# en-ocr.pdf); and each picture over a layer of other text, invisible (zh-fake.pdf, en-fake.pdf)
# or covered by the picture (en-covered.pdf), by fake.go. Needs poppler-utils, ocrmypdf with
# Tesseract's chi_sim and eng (Debian: ocrmypdf, tesseract-ocr-chi-sim), and Go.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
devset=../../../../shared/devset
pdftoppm -r 100 -f 3 -l 3 -mono -png "$devset/zh-thesis/submissions/S001.pdf" "$tmp/zh"
pdftoppm -r 150 -f 3 -l 3 -mono -png "$devset/en-thesis/submissions/S000.pdf" "$tmp/en"
ocrmypdf -q -l chi_sim --image-dpi 100 "$tmp"/zh-*3.png zh-ocr.pdf
ocrmypdf -q -l eng --image-dpi 150 "$tmp"/en-*3.png en-ocr.pdf
go run fake.go "$tmp"/zh-*3.png zh-fake.pdf zh invisible
go run fake.go "$tmp"/en-*3.png en-fake.pdf en invisible
go run fake.go "$tmp"/en-*3.png en-covered.pdf en covered
