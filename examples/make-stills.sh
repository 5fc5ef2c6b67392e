#!/usr/bin/env bash
# Makes the sample campaigns' stills with slicevid itself (frames of its built-in demo cards),
# so the repository carries no image files. Run it once, then:
#   slicevid batch examples/campaign.json --report examples/report.json
#   slicevid batch examples/matrix.json          # 3 aspect ratios x 2 products: 6 jobs from one
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
slicevid=${SLICEVID:-$(command -v slicevid || echo "$here/../.build/release/slicevid")}
slicevid=$(realpath -m "$slicevid")
cd "$here"
if [ ! -x "$slicevid" ]; then
  echo "make-stills.sh: no slicevid binary at $slicevid; run 'make build' first, or set SLICEVID" >&2
  exit 1
fi
mkdir -p stills
frames=$(mktemp -d)
trap 'rm -rf "$frames"' EXIT
# Five frames of the demo transition, a quarter second apart: source card, strips, destination card.
"$slicevid" make --preset spring --size 1280x720 --fps 4 --hold 0 --duration 1 -o "$frames/%d.png" --quiet
cp "$frames/0.png" stills/sunset.png
cp "$frames/2.png" stills/strips.png
cp "$frames/4.png" stills/ocean.png
# Two "products" for matrix.json: the sunset and ocean cards, and two moments of the
# horizontal preset's bands.
"$slicevid" make --preset horizontal --size 1280x720 --fps 4 --hold 0 --duration 1 -o "$frames/h%d.png" --quiet
cp stills/sunset.png stills/coffee-before.png
cp stills/ocean.png stills/coffee-after.png
cp "$frames/h1.png" stills/astro-before.png
cp "$frames/h3.png" stills/astro-after.png
echo "make-stills.sh: wrote examples/stills/{sunset,strips,ocean,coffee-before,coffee-after,astro-before,astro-after}.png"
