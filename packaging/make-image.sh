#!/usr/bin/env bash
# make image: builds the Containerfile as slicevid:VERSION with podman, else docker, whichever
# can actually build here; says so plainly when neither can.
#   packaging/make-image.sh VERSION
set -euo pipefail
version=${1:?usage: make-image.sh VERSION}
here=$(cd "$(dirname "$0")/.." && pwd)
engine=""
reasons=()
for candidate in podman docker; do
  if ! command -v "$candidate" >/dev/null 2>&1; then
    reasons+=("$candidate is not installed")
  elif ! "$candidate" info >/dev/null 2>&1; then
    reasons+=("'$candidate info' fails (for docker: no daemon running or no access to it)")
  else
    engine=$candidate
    break
  fi
done
if [ -z "$engine" ]; then
  echo "make image: no container engine can build here: $(IFS=';'; echo "${reasons[*]}")." >&2
  echo "make image: install podman (apt-get install podman) or start Docker, then run make image again." >&2
  exit 69
fi
echo "make image: $engine build -t slicevid:$version"
"$engine" build -f "$here/Containerfile" -t "slicevid:$version" "$here"
echo "make image: built slicevid:$version; try: $engine run --rm -v \"\$PWD:/work\" slicevid:$version make --preset spring"
