#!/usr/bin/env bash
# Draws the app icon offline with ImageMagick (Debian's imagemagick package): build/icon.png,
# 1024 px (electron-builder makes macOS's .icns from it), build/icons/<N>x<N>.png, 16 to 512 px,
# for Linux (scripts/linux-icons.mjs, with Node alone) (electron-builder takes a single PNG as one icon of its own size, and a 1024 px icon is
# in no size the icon theme lists: the folder of sizes goes to hicolor/<N>x<N>/apps), and
# build/icon.ico for Windows (16 to 256 px). Run again after changing the drawing; the results are committed.
set -euo pipefail
cd "$(dirname "$0")/.."
convert=$(command -v convert-im6.q16 || command -v convert)
"$convert" -size 1024x1024 xc:none \
  -fill '#1f4e79' -draw 'roundrectangle 64,64 960,960 180,180' \
  -fill '#ffffff' -draw 'roundrectangle 232,250 792,420 40,40' \
  -fill '#ffffff' -draw 'roundrectangle 232,470 792,640 40,40' \
  -fill '#ffffff' -draw 'roundrectangle 232,690 792,860 40,40' \
  -fill '#2e8b57' -draw 'circle 330,335 330,375' -draw 'circle 330,555 330,595' -draw 'circle 330,775 330,815' \
  build/icon.png
"$convert" build/icon.png -define icon:auto-resize=256,128,64,48,32,16 build/icon.ico
node scripts/linux-icons.mjs
