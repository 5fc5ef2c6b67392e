#!/usr/bin/env bash
# make image: builds the Containerfile as slicevid:VERSION with podman, else docker, whichever
# can actually build here; says so plainly when neither can.
#   packaging/make-image.sh VERSION        (IMAGE_FLAGS: more flags for the engine's build)
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
echo "make image: $engine build ${IMAGE_FLAGS:+$IMAGE_FLAGS }-t slicevid:$version"
# shellcheck disable=SC2086  # IMAGE_FLAGS is a list of flags
if ! "$engine" build ${IMAGE_FLAGS:-} -f "$here/Containerfile" -t "slicevid:$version" "$here"; then
  echo "make image: $engine build failed. Where crun cannot start containers (setrlimit, cgroups in hybrid mode)," >&2
  echo "make image: try IMAGE_FLAGS='--runtime runc --ulimit nofile=1024:20000 --ulimit nproc=1024:1024' (apt-get install runc)." >&2
  exit 1
fi
echo "make image: built slicevid:$version; try: $engine run --rm -v \"\$PWD:/work\" slicevid:$version make --preset preview"
