#!/usr/bin/env bash
# make deb-check: installs the .deb into a fresh Debian 12 root as a user's machine would get it
# (debootstrap --variant=minbase, then apt-get install ./slicevid_….deb, apt resolving Depends),
# renders the 1080p demo there and checks it with ffprobe; removes the root however it ends.
# Needs root and Debian's mirror. Downloads are cached in .build/deb-check-cache.
#   packaging/deb-check.sh slicevid_VERSION_ARCH.deb        (MIRROR=… to use another mirror)
set -euo pipefail
deb=$(realpath "${1:?usage: deb-check.sh PACKAGE.deb}")
here=$(cd "$(dirname "$0")/.." && pwd)
mirror=${MIRROR:-http://deb.debian.org/debian}
if [ "$(id -u)" != 0 ]; then
  echo "deb-check: needs root (debootstrap, chroot); run: sudo make deb-check" >&2
  exit 77
fi
cache=$here/.build/deb-check-cache
mkdir -p "$cache/debootstrap" "$cache/apt"
root=$(mktemp -d /tmp/slicevid-deb-check.XXXXXX)
chmod 755 "$root"    # it becomes /, which apt's _apt user must be able to enter
cleanup() {
  for mount in "$root/var/cache/apt/archives" "$root/proc"; do
    mountpoint -q "$mount" && umount "$mount"
  done
  # Only once nothing is mounted inside is the root removed, and never across filesystems.
  if findmnt -rno TARGET | grep -q "^$root/"; then
    echo "deb-check: something is still mounted under $root; left in place" >&2
  else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT

echo "deb-check: debootstrap bookworm (minbase) into $root from $mirror"
debootstrap --variant=minbase --cache-dir="$cache/debootstrap" bookworm "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 \
  || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind "$cache/apt" "$root/var/cache/apt/archives"
mkdir -p "$root/var/cache/apt/archives/partial"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

echo "deb-check: apt-get install ./$(basename "$deb")"
in_root apt-get update -qq
in_root apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" >"$cache/apt-install.log" 2>&1 \
  || { tail -20 "$cache/apt-install.log" >&2; exit 1; }
in_root dpkg -s slicevid | grep -E '^(Version|Depends):'

echo "deb-check: the installed files"
for file in /usr/bin/slicevid /usr/share/man/man1/slicevid.1.gz /usr/share/bash-completion/completions/slicevid \
            /usr/share/zsh/vendor-completions/_slicevid /usr/share/fish/vendor_completions.d/slicevid.fish \
            /usr/share/slicevid/presets/spring.json /usr/share/doc/slicevid/copyright; do
  [ -f "$root$file" ] || { echo "deb-check: $file is not installed" >&2; exit 1; }
done
in_root slicevid --version
# The presets come from /usr/share/slicevid/presets, where the package put them.
in_root slicevid presets | grep -F '(/usr/share/slicevid/presets/spring.json)'

echo "deb-check: rendering the 1080p demo in the fresh root"
in_root sh -c 'cd /tmp && slicevid make --preset spring -o demo.mp4 --quiet'
probe=$(ffprobe -v error -count_frames -select_streams v:0 \
  -show_entries stream=codec_name,width,height,pix_fmt,nb_read_frames -of default=noprint_wrappers=1 "$root/tmp/demo.mp4")
echo "$probe"
for expected in codec_name=h264 width=1920 height=1080 pix_fmt=yuv420p nb_read_frames=61; do
  grep -qx "$expected" <<<"$probe" || { echo "deb-check: ffprobe: expected $expected" >&2; exit 1; }
done
echo "deb-check: passed: $(basename "$deb") installs into a fresh Debian 12 root and renders the demo"
