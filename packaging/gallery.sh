#!/usr/bin/env bash
# make gallery: the pictures the README and docs/presets.md show, rendered by slicevid from its built-in demo cards.
#   docs/preview.gif         the seed transition (the spring preset), as a small looping GIF
#   docs/presets/NAME.jpg    a storyboard per shipped preset: 8 frames from start to end of the move
#   docs/layout-frame.png    the README's layout mid-transition: the name and price fly with the strips
#   docs/layout-card.gif     the README's animated card: the card.json block of README.md, on the demo cards
#   docs/report-page.png     the morning page (batch --report index.html) of a small feed campaign, in headless Chromium
# slicevid renders every frame; the ffmpeg CLI only picks frames and tiles them into one picture (and
# reduces the page's screenshot to a palette); Chromium only opens the page slicevid wrote.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
slicevid=${SLICEVID:-$here/.build/release/slicevid}
cd "$here"
mkdir -p docs/presets
frames=$(mktemp -d)
campaign=$(mktemp -d)
trap 'rm -rf "$frames" "$campaign"' EXIT

# The seed at 400 px wide (a few hundred KB); half a second on the destination before the GIF loops.
"$slicevid" make --preset spring --end-hold 0.5 -o docs/preview.gif:gif-width=400:gif-fps=15 --force --quiet
echo "gallery: docs/preview.gif ($(du -k docs/preview.gif | cut -f1) KB)"

tiles=8
for file in presets/*.json; do
  name=$(basename "$file" .json)
  # Rendered at the preset's own size (its strips are sized for it), without the holds.
  size=$("$slicevid" presets show "$name" | sed -n 's/.*"size": "\([0-9]*\)x\([0-9]*\)".*/\1 \2/p')
  read -r width height <<<"$size"
  rm -rf "${frames:?}"/*
  "$slicevid" make --preset "$name" --hold 0 --end-hold 0 -o "$frames/%04d.png" --quiet
  count=$(find "$frames" -name '*.png' | wc -l)
  # Frames 0 … count-1 spread evenly: the source, the move, the destination.
  pick=$(for ((i = 0; i < tiles; i++)); do printf '+eq(n\\,%d)' $(((i * (count - 1) + (tiles - 1) / 2) / (tiles - 1))); done)
  # Tiles 320 px on the long side, even sides.
  if [ "$width" -ge "$height" ]; then tw=320; th=$((320 * height / width / 2 * 2)); else th=320; tw=$((320 * width / height / 2 * 2)); fi
  ffmpeg -v error -y -i "$frames/%04d.png" \
    -vf "select='${pick#+}',scale=${tw}:${th}:flags=area,tile=4x2:padding=4:color=white" \
    -fps_mode passthrough -frames:v 1 -q:v 4 "docs/presets/$name.jpg"
  echo "gallery: docs/presets/$name.jpg ($(du -k "docs/presets/$name.jpg" | cut -f1) KB, frames of $count)"
done
# The README's layout (Text and logos) on the demo cards, 0.35 s into the move.
cat > "$frames/promo.json" <<'JSON'
{"layers": [
  {"on": "to",   "text": "{name}",  "box": [0.06, 0.60, 0.88, 0.14], "size": "auto", "color": "#FFFFFF"},
  {"on": "to",   "text": "{price}", "box": [0.06, 0.76, 0.40, 0.09], "color": "#FFFFFF", "plate": "#E30613"},
  {"on": "over", "text": "Prices incl. VAT", "box": [0.05, 0.93, 0.90, 0.04], "size": 22}
]}
JSON
"$slicevid" make --layout "$frames/promo.json" --var name="Flat White" --var price="2,49 €" --size 640x360 \
  -o docs/layout-frame.png:poster-at=1.35 --force --quiet
echo "gallery: docs/layout-frame.png ($(du -k docs/layout-frame.png | cut -f1) KB)"

# The README's animated card (Text and logos): its card.json block, taken from README.md itself so
# the picture is always that layout's, on the demo cards, as a 400 px GIF.
awk '/^<!-- test: file card.json -->$/ {found = 1; next} found && /^```json$/ {inside = 1; next} inside && /^```$/ {exit} inside' \
  README.md > "$frames/card.json"
"$slicevid" make --layout "$frames/card.json" --var name="Flat White" --var price="2,49 €" --end-hold 2 --size 640x360 \
  -o docs/layout-card.gif:gif-width=400:gif-fps=15 --force --quiet
echo "gallery: docs/layout-card.gif ($(du -k docs/layout-card.gif | cut -f1) KB)"

# The morning page of examples/feed's products in one locale (18 jobs), with a seventh product
# whose photo is damaged (3 jobs fail), run again after one price changed (3 jobs render again,
# the rest are up to date). The copy lives in a scratch folder, so the header names .../feed/morning.json;
# the stills are moved into it, so the page names them relative to itself.
cp -r examples "$campaign/"
SLICEVID="$slicevid" "$campaign/examples/make-stills.sh" >/dev/null
feed="$campaign/examples/feed" stills="$campaign/examples/feed/stills"
mv "$campaign/examples/stills" "$stills"
cp "$stills/coffee-before.png" "$stills/tea-before.png"
head -c 3000 "$stills/coffee-after.png" > "$stills/tea-after.png"
printf 'NL-107,Theeblik,Teedose,7.50,tea\n' >> "$feed/products.csv"
cat > "$feed/morning.json" <<'JSON'
{
  "defaults": { "preset": "spring", "fps": 12, "hold": 0.5, "duration": 0.75, "crf": 28, "encoder-preset": "veryfast", "layout": "promo.json" },
  "jobs": [{ "id": "{sku}-{size}", "rows": { "file": "products.csv", "key": "sku" }, "matrix": { "size": ["480x270", "270x480", "360x360"] },
             "images": ["stills/{image}-before.png", "stills/{image}-after.png"], "size": "{size}",
             "vars": { "locale": "nl-NL", "title": "{name_nl-NL}", "legal_nl-NL": "Prijzen incl. btw, zolang de voorraad strekt" },
             "outputs": ["out/{id}.mp4"] }]
}
JSON
# Exit 1 both times, and only 1: the tea tin's jobs fail, the others render.
(cd "$feed" && "$slicevid" batch morning.json --report index.html --quiet >/dev/null 2>&1) || [ $? -eq 1 ]
sed -i 's/,9.95,/,8.95,/' "$feed/products.csv"
(cd "$feed" && "$slicevid" batch morning.json --report index.html --quiet >/dev/null 2>&1) || [ $? -eq 1 ]
HOME="$campaign" timeout -k 10 240 chromium --headless --no-sandbox --single-process --no-zygote --disable-gpu --disable-crashpad-for-testing --disable-breakpad \
  --hide-scrollbars --no-first-run --user-data-dir="$campaign/profile" \
  --host-resolver-rules="MAP * ~NOTFOUND" --window-size=1100,820 --screenshot="$campaign/page.png" "file://$feed/index.html" 2>/dev/null
# 128 colours keep the file small; the page is flat colour and a few small pictures.
ffmpeg -v error -y -i "$campaign/page.png" -vf "split[a][b];[a]palettegen=max_colors=128[p];[b][p]paletteuse=dither=none" docs/report-page.png
echo "gallery: docs/report-page.png ($(du -k docs/report-page.png | cut -f1) KB)"
echo "gallery: $(du -ck docs/preview.gif docs/presets/*.jpg docs/layout-frame.png docs/report-page.png | tail -1 | cut -f1) KB in all"
