#!/usr/bin/env bash
# make deb: slicevid_VERSION_ARCH.deb from the release build, with dpkg-deb. Depends is what
# dpkg-shlibdeps finds the binary's libraries need (Debian's FFmpeg, libc, libstdc++, …).
#   packaging/make-deb.sh VERSION ARCH OUTPUT.deb
set -euo pipefail
version=${1:?version} arch=${2:?architecture} output=${3:?output .deb}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$here/.build/deb
stage=$work/root
rm -rf "$work"
mkdir -p "$stage"

# The same files make install puts under /usr; dpkg keeps its own record of them.
PREFIX=/usr DESTDIR=$stage ZSHDIR=/usr/share/zsh/vendor-completions "$here/packaging/install.sh" install >/dev/null
rm "$stage/usr/share/slicevid/installed-folders"
gzip -9n "$stage/usr/share/man/man1/slicevid.1"
# The maintainer: Debian's DEBFULLNAME/DEBEMAIL when set, else the git identity building it.
name=${DEBFULLNAME:-$(git -C "$here" config user.name 2>/dev/null || echo "slicevid developers")}
email=${DEBEMAIL:-$(git -C "$here" config user.email 2>/dev/null || echo "slicevid@localhost")}
maintainer="$name <$email>"
doc=$stage/usr/share/doc/slicevid
mkdir -p "$doc"
install -m 644 "$here/packaging/copyright" "$doc/copyright"
# Dates are the last commit's (the changelog's, and dpkg-deb clamps file times to
# SOURCE_DATE_EPOCH), so a rebuild of the same commit is the same package.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)}
date=$(date -R -u -d "@$SOURCE_DATE_EPOCH")
# A native package (no Debian revision), so its changelog is changelog.gz.
printf 'slicevid (%s) stable; urgency=medium\n\n  * Release %s; see README.md.\n\n -- %s  %s\n' \
  "$version" "$version" "$maintainer" "$date" | gzip -9n > "$doc/changelog.gz"

# dpkg-shlibdeps wants a source tree with debian/control; a minimal one beside the stage does.
mkdir -p "$work/debian"
printf 'Source: slicevid\n\nPackage: slicevid\nArchitecture: any\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O -e"$stage/usr/bin/slicevid" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "make-deb.sh: dpkg-shlibdeps found no dependencies for the binary" >&2; exit 1; }
# libheif is opened with dlopen on the first HEIC/AVIF (so other runs skip its start-up), which
# dpkg-shlibdeps cannot see: name its runtime package here (1.15 is Debian 12's, the API used).
depends="$depends, libheif1 (>= 1.15)"
# libavfilter is opened the same way, on the first run with a song: its package, by the major
# version slicevid was compiled against (libavfilter8 on Debian 12).
avfilter_major=$(sed -n 's/^#define LIBAVFILTER_VERSION_MAJOR *\([0-9]*\).*/\1/p' "$(pkg-config --variable=includedir libavfilter)/libavfilter/version_major.h")
[ -n "$avfilter_major" ] || { echo "make-deb.sh: cannot read libavfilter's major version from its headers" >&2; exit 1; }
depends="$depends, libavfilter$avfilter_major"
# Text layers open Pango, PangoCairo, Cairo, fontconfig and GObject the same way, on the first
# layer with text (1.50 and 1.16 are Debian 12's Pango and Cairo, the API used), and fall back
# on a fixed set of font files from these two packages (Sources/SliceMedia/Text/DefaultFonts.swift).
depends="$depends, libpango-1.0-0 (>= 1.50), libpangocairo-1.0-0 (>= 1.50), libpangoft2-1.0-0 (>= 1.50)"
depends="$depends, libcairo2 (>= 1.16), libfontconfig1 (>= 2.13), libglib2.0-0"
depends="$depends, fonts-noto-core, fonts-ipaexfont-gothic"

mkdir -p "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: slicevid
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Section: video
Priority: optional
Description: slice-transition videos from still images
 slicevid cuts stills into strips that fly off alternately up and down while
 the next still's strips spring into place (the iOS MJAnimationVertical
 transition), and encodes MP4, WebM, ProRes, FFV1, GIF, PNG posters and
 sequences with FFmpeg's libraries. Batch manifests re-render only what
 changed, lock against overlapping runs and shard over machines.
CONTROL
find "$stage" -type d -exec chmod 755 {} +
dpkg-deb --root-owner-group -Zxz --build "$stage" "$here/$output" >/dev/null
echo "make-deb.sh: wrote $output ($(du -k "$here/$output" | cut -f1) KB); Depends: $depends"
