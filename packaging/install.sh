#!/usr/bin/env bash
# make install / make uninstall: puts slicevid's files under $DESTDIR$PREFIX, and takes away
# exactly those again. Folders that install had to create are recorded beside the presets, so
# uninstall removes them too (when empty) and leaves the prefix as it found it.
#   packaging/install.sh install|uninstall      (environment: PREFIX, DESTDIR, ZSHDIR, BINARY, GENERATED)
set -euo pipefail
action=${1:?usage: install.sh install|uninstall}
here=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
BINARY=${BINARY:-$here/.build/release/slicevid}
GENERATED=${GENERATED:-$here/.build/share}
ZSHDIR=${ZSHDIR:-$PREFIX/share/zsh/site-functions}
root=$DESTDIR$PREFIX
record=$DESTDIR$PREFIX/share/slicevid/installed-folders

# Each file: source, destination (under $DESTDIR), mode.
files=(
  "$BINARY|$PREFIX/bin/slicevid|755"
  "$GENERATED/slicevid.1|$PREFIX/share/man/man1/slicevid.1|644"
  "$GENERATED/slicevid.bash|$PREFIX/share/bash-completion/completions/slicevid|644"
  "$GENERATED/_slicevid|$ZSHDIR/_slicevid|644"
  "$GENERATED/slicevid.fish|$PREFIX/share/fish/vendor_completions.d/slicevid.fish|644"
)
for preset in "$here"/presets/*.json; do
  files+=("$preset|$PREFIX/share/slicevid/presets/$(basename "$preset")|644")
done

case $action in
install)
  # The folders that do not exist yet, deepest last, each with the parents it needs.
  created=()
  for entry in "${files[@]}"; do
    IFS='|' read -r _ target _ <<<"$entry"
    folder=$(dirname "$DESTDIR$target")
    missing=()
    while [ ! -d "$folder" ]; do missing=("$folder" "${missing[@]}"); folder=$(dirname "$folder"); done
    for folder in "${missing[@]}"; do mkdir "$folder"; created+=("${folder#"$DESTDIR"}"); done
  done
  for entry in "${files[@]}"; do
    IFS='|' read -r source target mode <<<"$entry"
    [ -f "$source" ] || { echo "install.sh: $source is missing; run 'make build' first" >&2; exit 1; }
    install -m "$mode" "$source" "$DESTDIR$target"
  done
  strip "$DESTDIR$PREFIX/bin/slicevid"
  # Merge with an earlier install's record, so installing twice forgets nothing.
  { [ -f "$record" ] && cat "$record"; printf '%s\n' "${created[@]}"; } | sed '/^$/d' | sort -u > "$record.new"
  mv "$record.new" "$record"
  echo "install.sh: installed slicevid under $root"
  ;;
uninstall)
  for entry in "${files[@]}"; do
    IFS='|' read -r _ target _ <<<"$entry"
    rm -f "$DESTDIR$target"
  done
  if [ -f "$record" ]; then
    folders=$(sort -r "$record")
    rm -f "$record"
    # Deepest first; a folder that now holds someone else's files stays.
    while IFS= read -r folder; do
      [ -n "$folder" ] && rmdir "$DESTDIR$folder" 2>/dev/null || true
    done <<<"$folders"
  fi
  echo "install.sh: removed slicevid from $root"
  ;;
*)
  echo "install.sh: unknown action '$action'; use install or uninstall" >&2
  exit 64
  ;;
esac
