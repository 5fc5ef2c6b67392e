#!/usr/bin/env bash
# make install-check: installs into a scratch prefix that already holds someone else's files,
# checks the installed binary needs no toolchain library and renders the demo with the
# toolchain's folder hidden, then uninstalls and checks the prefix is exactly as it was.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
# Someone else's files in folders install also uses: they must survive uninstall.
mkdir -p "$prefix/bin" "$prefix/share/man/man1"
echo 'echo other' > "$prefix/bin/other-tool"
echo '.TH OTHER 1' > "$prefix/share/man/man1/other.1"
listing() { (cd "$prefix" && find . -printf '%y %m %p\n' | sort) }
before=$(listing)

make -s -C "$here" install PREFIX="$prefix" >/dev/null
binary=$prefix/bin/slicevid
for file in bin/slicevid share/man/man1/slicevid.1 share/bash-completion/completions/slicevid \
            share/zsh/site-functions/_slicevid share/fish/vendor_completions.d/slicevid.fish \
            share/slicevid/presets/spring.json; do
  [ -f "$prefix/$file" ] || { echo "install-check: $file was not installed" >&2; exit 1; }
done

swift=$(readlink -f "$(command -v swift)")
toolchain=${swift%/usr/bin/*}    # /opt/swift here
echo "install-check: ldd $binary"
if ldd "$binary" | grep -F -e "$toolchain" -e 'not found'; then
  echo "install-check: the installed binary needs the toolchain ($toolchain)" >&2; exit 1
fi

# The installed presets are the ones found (not the built-in copies).
# (The list is read whole first: grep -q would stop reading it, and pipefail would count that.)
presets=$("$binary" presets)
grep -qF "($prefix/share/slicevid/presets/spring.json)" <<<"$presets" \
  || { echo "install-check: slicevid presets does not list the installed presets" >&2; exit 1; }

render() { "$binary" make --preset spring -o "$scratch/demo.mp4" --quiet && "$binary" probe "$scratch/demo.mp4"; }
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
  echo "install-check: rendering the demo with $toolchain hidden (unshare -m, empty tmpfs over it)"
  export -f render; export binary scratch toolchain
  unshare -m bash -c 'mount -t tmpfs none "$toolchain" && [ -z "$(ls -A "$toolchain")" ] && render'
else
  echo "install-check: not root, so the toolchain stays visible; rendering the demo as installed"
  render
fi

make -s -C "$here" uninstall PREFIX="$prefix" >/dev/null
after=$(listing)
if [ "$before" != "$after" ]; then
  echo "install-check: uninstall left the prefix changed:" >&2
  diff <(echo "$before") <(echo "$after") >&2 || true
  exit 1
fi
echo "install-check: passed (installed, rendered without the toolchain, uninstalled to the same prefix)"
