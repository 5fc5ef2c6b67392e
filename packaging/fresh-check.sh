#!/usr/bin/env bash
# make fresh-check: the README's two commands, `make demo` then `make test`, in a fresh Debian 12
# root, as a new contributor's machine runs them: debootstrap --variant=minbase (Debian's required
# packages), then only make and the Swift toolchain's prerequisites (FRESH_MACHINE, from the
# Makefile), the host's toolchain mounted read-only, and a fresh `git clone` of this repository's
# HEAD (uncommitted changes are not in it). Everything else the commands need, they must install.
# The host's CA certificates, apt proxy settings and pip configuration are copied in, as any
# machine behind a proxy has them. Needs root and Debian's mirror; removes the root however it
# ends. Downloads are cached in .build/fresh-check-cache.
#   FRESH_MACHINE='make …' packaging/fresh-check.sh     (MIRROR=…, SECURITY_MIRROR=… for other mirrors)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
mirror=${MIRROR:-http://deb.debian.org/debian}
security=${SECURITY_MIRROR:-http://deb.debian.org/debian-security}
base=${FRESH_MACHINE:?FRESH_MACHINE (the packages a fresh machine starts with) is not set; run: sudo make fresh-check}
if [ "$(id -u)" != 0 ]; then
  echo "fresh-check: needs root (debootstrap, chroot, mounts); run: sudo make fresh-check" >&2
  exit 77
fi
# The toolchain is the folder holding usr/bin/swift (/opt/swift here); it is mounted at the same
# path inside, so a toolchain installed over /usr itself cannot be used.
swift=$(readlink -f "$(command -v "${SWIFT:-swift}")") || { echo "fresh-check: no swift on PATH" >&2; exit 1; }
toolchain=${swift%/usr/bin/*}
case $toolchain in
  /usr|/usr/*|/|"$swift") echo "fresh-check: the Swift toolchain ($swift) must sit in a folder of its own (like /opt/swift/usr/bin/swift)" >&2; exit 1 ;;
esac

cache=$here/.build/fresh-check-cache
mkdir -p "$cache/debootstrap" "$cache/apt"
root=$(mktemp -d /tmp/slicevid-fresh-check.XXXXXX)
chmod 755 "$root"    # it becomes /, which apt's _apt user must be able to enter
cleanup() {
  # Processes the check started that are still running in the root (a test's leftover child)
  # would keep its mounts busy: each is found by its root folder and ended by its pid.
  for link in /proc/[0-9]*/root; do
    if [ "$(readlink "$link" 2>/dev/null)" = "$root" ]; then
      pid=${link#/proc/}; kill -KILL "${pid%/root}" 2>/dev/null || true
    fi
  done
  # The deepest mounts first; only once nothing is mounted inside is the root removed, and
  # never across filesystems (the toolchain and the download cache are mounted there).
  findmnt -rno TARGET | grep "^$root/" | sort -r | while read -r mount; do umount "$mount" || umount -l "$mount"; done
  if findmnt -rno TARGET | grep -q "^$root/"; then
    echo "fresh-check: something is still mounted under $root; left in place" >&2
  else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT
started=$(date +%s)
elapsed() { local seconds=$(( $(date +%s) - $1 )); printf '%dm%02ds' $((seconds / 60)) $((seconds % 60)); }

echo "fresh-check: debootstrap bookworm (minbase) into $root from $mirror"
debootstrap --variant=minbase --cache-dir="$cache/debootstrap" bookworm "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 \
  || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
# A Debian 12 machine's sources: the release, its updates and the security archive.
cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
EOF

# What a machine behind this host's proxy has: name servers, the CA certificates (the bundle and
# the local ones, which survive ca-certificates rebuilding the bundle), apt's proxy settings and
# pip's configuration; PIP_* and *_proxy variables are passed to the commands below.
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/etc/ssl/certs" "$root/usr/local/share/ca-certificates" "$root/root/.config/pip"
cp -rL /etc/ssl/certs/. "$root/etc/ssl/certs/"
if [ -d /usr/local/share/ca-certificates ]; then
  cp -rL /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
fi
for conf in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
  if [ -f "$conf" ] && grep -qi 'proxy' "$conf"; then cp "$conf" "$root$conf"; fi
done
for conf in /etc/pip.conf /etc/xdg/pip/pip.conf; do
  if [ -f "$conf" ]; then mkdir -p "$root$(dirname "$conf")" && cp "$conf" "$root$conf"; fi
done
for conf in "$HOME/.config/pip/pip.conf" "$HOME/.pip/pip.conf"; do
  if [ -f "$conf" ]; then cp "$conf" "$root/root/.config/pip/pip.conf"; fi
done
passed=()
while IFS='=' read -r name _; do
  case $name in PIP_*|http_proxy|https_proxy|no_proxy|HTTP_PROXY|HTTPS_PROXY|NO_PROXY|SSL_CERT_FILE|SSL_CERT_DIR|REQUESTS_CA_BUNDLE)
    passed+=("$name=${!name}") ;;
  esac
done < <(env)

# The kernel's views the suite reads (/proc for process states and signal masks, /sys), a /dev
# of its own as a container has (the usual nodes, a private devpts for `script`, a tmpfs
# /dev/shm), the toolchain read-only at its own path, and the download cache.
mount -t proc proc "$root/proc"
mount -t sysfs -o ro sysfs "$root/sys"
mount -t tmpfs -o mode=755,nosuid tmpfs "$root/dev"
for node in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
  IFS=: read -r name major minor <<<"$node"
  mknod -m 666 "$root/dev/$name" c "$major" "$minor"
done
ln -s /proc/self/fd "$root/dev/fd"
for n in 0:stdin 1:stdout 2:stderr; do ln -s "/proc/self/fd/${n%%:*}" "$root/dev/${n#*:}"; done
mkdir -m 755 "$root/dev/pts" && mkdir -m 1777 "$root/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$root/dev/pts"
ln -s pts/ptmx "$root/dev/ptmx"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/dev/shm"
mkdir -p "$root$toolchain"
mount --bind "$toolchain" "$root$toolchain" && mount -o remount,ro,bind "$root$toolchain"
# pip's local find-links folders (a wheel cache) come along read-only, so the copied
# configuration means there what it means here.
links=${PIP_FIND_LINKS:-}
for conf in /etc/pip.conf /etc/xdg/pip/pip.conf "$HOME/.config/pip/pip.conf" "$HOME/.pip/pip.conf"; do
  if [ -f "$conf" ]; then links+=" $(sed -n 's/^[[:space:]]*find-links[[:space:]]*=[[:space:]]*//p' "$conf")"; fi
done
for folder in $links; do
  folder=${folder#file://}
  if [ "${folder#/}" != "$folder" ] && [ -d "$folder" ] && ! mountpoint -q "$root$folder"; then
    mkdir -p "$root$folder"
    mount --bind "$folder" "$root$folder" && mount -o remount,ro,bind "$root$folder"
  fi
done
mount --bind "$cache/apt" "$root/var/cache/apt/archives"
mkdir -p "$root/var/cache/apt/archives/partial"
in_root() {
  chroot "$root" env -i PATH="$toolchain/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    HOME=/root USER=root LOGNAME=root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive "${passed[@]}" "$@"
}

echo "fresh-check: installing what the machine starts with: $base"
in_root apt-get update -qq
# shellcheck disable=SC2086  # the list is words
in_root apt-get install -y -qq --no-install-recommends $base >"$cache/base-install.log" 2>&1 \
  || { tail -20 "$cache/base-install.log" >&2; exit 1; }
in_root dpkg-query -W -f '${Package}\n' | sort >"$cache/packages-before"
in_root swift --version 2>&1 | head -1

git clone --quiet --no-hardlinks "$here" "$root/root/slicevid"
echo "fresh-check: cloned $(git -C "$root/root/slicevid" log -1 --format='%h %s' | cut -c1-100)"
setup=$(elapsed "$started")

# The README's two commands, each logged in the cache folder; a failure prints the log's end.
run() {
  local began; began=$(date +%s)
  echo "fresh-check: make $1 (log: $cache/$1.log)"
  if ! in_root sh -c "cd /root/slicevid && make $1" >"$cache/$1.log" 2>&1; then
    tail -60 "$cache/$1.log" >&2
    echo "fresh-check: make $1 failed after $(elapsed "$began") in a fresh Debian 12 root (set-up $setup${times[*]:+, ${times[*]}})" >&2
    exit 1
  fi
  times+=("make $1 $(elapsed "$began")")
}
times=()
run demo
[ -s "$root/root/slicevid/out/demo.mp4" ] || { echo "fresh-check: make demo wrote no out/demo.mp4" >&2; exit 1; }
run test
grep -aE 'Test run with|Executed [0-9]+ tests' "$cache/test.log" | tail -4 || true

in_root dpkg-query -W -f '${Package}\n' | sort >"$cache/packages-after"
echo "fresh-check: make demo and make test installed $(comm -13 "$cache/packages-before" "$cache/packages-after" | wc -l) packages"
echo "fresh-check: passed in $(elapsed "$started") (set-up $setup, ${times[0]}, ${times[1]})"
