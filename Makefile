# slicevid — build, demo, test, bench, install, package.
# Every entry point installs the -dev packages (FFmpeg, lcms2, libheif, OpenSSL, Pango, Cairo, fontconfig) and the default
# fonts of text layers first when pkg-config or the font files say they are missing, so `make demo` and
# `make test` work on a fresh Debian 12 machine.

SWIFT   ?= swift
PREFIX  ?= /usr/local
DESTDIR ?=
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Text layers' default fonts (Sources/SliceMedia/Text/DefaultFonts.swift): Noto for Latin, Arabic, Hebrew,
# Devanagari and Thai, IPAex Gothic for Japanese. One file of each package stands for it in `deps`.
FONT_PACKAGES := fonts-noto-core fonts-ipaexfont-gothic
FONT_FILES := /usr/share/fonts/truetype/noto/NotoSans-Regular.ttf /usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf
DEV_PACKAGES := pkg-config libavcodec-dev libavformat-dev libavfilter-dev libswresample-dev libswscale-dev libavutil-dev zlib1g-dev liblcms2-dev libheif-dev libcurl4-openssl-dev libssl-dev \
	libpango1.0-dev libcairo2-dev libfontconfig-dev $(FONT_PACKAGES)
# What a fresh machine has before the README's commands, as `make fresh-check` builds it: Debian
# 12's required packages (debootstrap's minbase), make, and the Swift toolchain's prerequisites
# (swift.org's list for Debian 12; the toolchain itself is the README's prerequisite). Everything
# else `make demo` and `make test` need they install; InstallStepsTests checks that they do.
SWIFT_PREREQUISITES := binutils-gold gcc git libc6-dev libcurl4-openssl-dev libedit-dev libicu-dev libncurses-dev \
	libpython3-dev libsqlite3-dev libstdc++-12-dev libxml2-dev pkg-config tzdata uuid-dev
FRESH_MACHINE := make $(SWIFT_PREREQUISITES)
RELEASE := .build/release/slicevid
# The man page and completion scripts, written by the release binary from its own command specs.
GENERATED := .build/share
VERSION := $(shell sed -n 's/^ *public static let version = "\(.*\)"/\1/p' Sources/Slicevid/Slicevid.swift)
ARCH    := $(shell dpkg --print-architecture 2>/dev/null || uname -m)
DEB     := slicevid_$(VERSION)_$(ARCH).deb
# Installs a Debian package's tool when its command is missing: $(call tool,COMMAND,PACKAGE).
tool = @command -v $(1) >/dev/null 2>&1 || { echo "make: installing $(2) (for $(1))"; \
	$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(2) >/dev/null; }
CC      ?= cc
BENCH_TOOLS := .build/bench/framecopy .build/bench/floor .build/bench/orders .build/bench/overlays

.PHONY: all deps build debug demo test recipe-check-tools bench fuzz install uninstall install-check deb deb-check fresh-check cluster-check image gallery clean

all: build

deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || \
	    ! pkg-config --exists libavcodec libavformat libavfilter libswresample libswscale libavutil zlib lcms2 libheif libcrypto \
	      pangocairo pangoft2 cairo fontconfig || \
	    ! ls $(FONT_FILES) >/dev/null 2>&1; then \
	  echo "make: installing FFmpeg, lcms2, libheif, OpenSSL, Pango, Cairo and fontconfig development packages and fonts ($(DEV_PACKAGES))"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(DEV_PACKAGES) >/dev/null; \
	fi

# The Swift runtime and Foundation are linked in (--static-swift-stdlib), so the binary needs
# only Debian's libraries: it runs where the toolchain is not installed.
build: deps
	$(SWIFT) build -c release --product slicevid --static-swift-stdlib
	@if ldd $(RELEASE) | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|FoundationICU|not found'; then \
	  echo "make: $(RELEASE) still needs the toolchain's libraries above" >&2; exit 1; fi
	@mkdir -p $(GENERATED)
	$(RELEASE) man > $(GENERATED)/slicevid.1
	$(RELEASE) completions bash > $(GENERATED)/slicevid.bash
	$(RELEASE) completions zsh > $(GENERATED)/_slicevid
	$(RELEASE) completions fish > $(GENERATED)/slicevid.fish

debug: deps
	$(SWIFT) build

# The demo: built-in cards, the seed's spring preset, no input files.
demo: build
	@mkdir -p out
	$(RELEASE) make --preset spring -o out/demo.mp4 --force
	@echo "demo written to out/demo.mp4"

# Performance goals, measured side by side with ffmpeg (the peer; slicevid never runs it) and
# with the machine's own limits (bench/*.c: whole-frame copy rate, start-up floor).
bench: build $(BENCH_TOOLS)
	@command -v ffmpeg >/dev/null 2>&1 || { echo "make: installing the ffmpeg CLI (benchmark peer only)"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends ffmpeg >/dev/null; }
	python3 bench/bench.py $(BENCH_ARGS)

# The fuzz harness (fuzz/): odd stills, presets, manifests and command lines against the release
# build, time-bounded and seeded. The ffmpeg CLI makes the stills and judges damage; jpegtran
# (libjpeg-turbo-progs) makes the progressive JPEG. Neither is used by slicevid itself.
SEED    ?= 1
SECONDS ?= 360
JOBS    ?= $(shell nproc)
FUZZ_TOOLS := ffmpeg libjpeg-turbo-progs
fuzz: build
	@if ! command -v ffmpeg >/dev/null 2>&1 || ! command -v jpegtran >/dev/null 2>&1; then \
	  echo "make: installing the fuzz harness's tools ($(FUZZ_TOOLS))"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(FUZZ_TOOLS) >/dev/null; \
	fi
	python3 fuzz/fuzz.py --seed $(SEED) --seconds $(SECONDS) --jobs $(JOBS) $(FUZZ_ARGS)

.build/bench/framecopy: bench/framecopy.c
	@mkdir -p $(@D)
	$(CC) -O2 -pthread -o $@ $<

# Not run by bench.py: `.build/bench/orders 1920x1080` compares memory orders (docs/performance.md).
.build/bench/orders: bench/orders.c
	@mkdir -p $(@D)
	$(CC) -O2 -o $@ $<

# SliceKit (Swift, and CWarp's warp kernel) compiled as one module with bench/overlays.swift: the
# cost of layers, measured before the command line can express them.
.build/bench/overlays: bench/overlays.swift $(shell find Sources/SliceKit -name '*.swift') .build/bench/cwarp.o
	@mkdir -p $(@D)
	$(SWIFT)c -O -wmo -parse-as-library -swift-version 6 -enable-upcoming-feature ExistentialAny \
	  -package-name slicevid -module-name OverlayBench -I Sources/CWarp/include -o $@ $^

.build/bench/cwarp.o: Sources/CWarp/warp.c Sources/CWarp/include/CWarp.h
	@mkdir -p $(@D)
	$(CC) -O2 -c -I Sources/CWarp/include -o $@ $<

.build/bench/floor: bench/floor.c | deps
	@mkdir -p $(@D)
	$(CC) -O2 -o $@ $< $$(pkg-config --cflags --libs libavformat libavcodec libswscale libavutil lcms2)

# The whole suite. The debug build comes first so the CLI tests find .build/debug/slicevid.
# The ffmpeg CLI is a peer one colour test compares against (slicevid never runs it); jq runs
# the docs' report one-liners; man shows the man page as docs/install.md does; Debian's chromium
# opens the report page headless (ReportPageBrowserTests). InstallStepsTests checks that every
# program, library, header and font the code, the tests and the docs' commands use comes with these.
# Each run is bounded by packaging/run-suite.py: one that has not ended by then fails, naming
# the tests still running and every process with its state and kernel stack, instead of
# hanging until CI gives up. The browser tests run after the rest, alone: on this project's
# VMs a Chromium reaping its processes has sat in the kernel for many minutes, unkillable,
# while the suite ran beside it (docs/development.md).
SUITE_BOUND   ?= 1500
BROWSER_BOUND ?= 600
test: deps recipe-check-tools
	$(call tool,ffmpeg,ffmpeg)
	$(call tool,pango-view,pango1.0-tools)
	$(call tool,jq,jq)
	$(call tool,man,man-db)
	$(call tool,chromium,chromium)
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) packaging/run-suite.py --bound $(SUITE_BOUND) --name 'the suite' -- --skip-build --skip ReportPageBrowserTests
	SWIFT=$(SWIFT) packaging/run-suite.py --bound $(BROWSER_BOUND) --name 'the browser tests' -- --skip-build --filter ReportPageBrowserTests

# RecipeTests checks examples/kubernetes and examples/aws-batch against Kubernetes' OpenAPI
# schemas (kubernetes-validate bundles them) and botocore's service model, offline, with
# packaging/check-recipes.py; both come from PyPI into a venv here, once per version pair.
RECIPE_CHECK    := .build/recipe-check
RECIPE_PACKAGES := kubernetes-validate==1.37.0 botocore==1.44.8
recipe-check-tools:
	@if [ "$$(cat $(RECIPE_CHECK)/installed 2>/dev/null)" != "$(RECIPE_PACKAGES)" ]; then \
	  echo "make: installing $(RECIPE_PACKAGES) into $(RECIPE_CHECK) (for the recipe checks)"; \
	  python3 -c 'import ensurepip' 2>/dev/null || { $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends python3-venv >/dev/null; }; \
	  rm -rf $(RECIPE_CHECK) && python3 -m venv $(RECIPE_CHECK) && \
	  $(RECIPE_CHECK)/bin/pip install -q --disable-pip-version-check $(RECIPE_PACKAGES) && \
	  echo "$(RECIPE_PACKAGES)" > $(RECIPE_CHECK)/installed; \
	fi

# Binary, presets, man page and bash/zsh/fish completions under $(DESTDIR)$(PREFIX);
# uninstall removes exactly those, and the folders install created.
install: build
	PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) packaging/install.sh install

uninstall:
	PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) packaging/install.sh uninstall

# Installs into a scratch prefix, renders the demo there with the toolchain's folder hidden
# (root: a mount namespace with an empty tmpfs over it), uninstalls, and checks the prefix is
# exactly as before.
install-check: build
	packaging/install-check.sh

# slicevid_VERSION_ARCH.deb, Depends computed by dpkg-shlibdeps from the binary's libraries, plus libheif1, libavfilter8
# and Pango, Cairo and fontconfig (opened at run time) and the default fonts of text layers.
deb: build
	$(call tool,dpkg-shlibdeps,dpkg-dev)
	packaging/make-deb.sh $(VERSION) $(ARCH) $(DEB)

# Installs the .deb into a fresh Debian 12 root (debootstrap, needs root and Debian's mirror),
# renders a 1080p demo there and checks it with ffprobe; removes the root afterwards.
deb-check: deb
	$(call tool,debootstrap,debootstrap)
	$(call tool,ffprobe,ffmpeg)
	packaging/deb-check.sh $(DEB)

# The README's two commands, `make demo` then `make test`, in a fresh Debian 12 root (debootstrap
# minbase plus FRESH_MACHINE, the host's toolchain mounted read-only, a fresh clone of HEAD), as a
# new contributor's machine runs them; the root is removed afterwards. Needs root and Debian's
# mirror; run it before a change to any install step stops (docs/development.md).
fresh-check:
	$(call tool,debootstrap,debootstrap)
	SWIFT=$(SWIFT) FRESH_MACHINE='$(FRESH_MACHINE)' packaging/fresh-check.sh

# Prints a variable as make sees it at its use (after the whole Makefile is read), for the tests:
# make -s print-FRESH_MACHINE.
print-%:
	@echo '$($*)'

# Runs examples/slurm/campaign.sbatch on a one-node Slurm cluster (Debian's munge, slurmctld,
# slurmd, installed when missing; configured in a temporary folder on loopback, removed after):
# 24 jobs over 4 array tasks, byte for byte the one-machine run, report merge whole; then a
# task killed mid-render and requeued, and one stopped and retried. Needs root; not in `make test`.
cluster-check: build
	packaging/cluster-check.sh $(RELEASE)

# The container image (Containerfile), with podman or docker, whichever works here;
# IMAGE_FLAGS adds flags to its build (e.g. --build-arg SWIFT_IMAGE=…).
image:
	packaging/make-image.sh $(VERSION)

# docs/: an animated preview of the seed transition and a storyboard per shipped preset,
# rendered by slicevid from its demo cards; the ffmpeg CLI only tiles the storyboards. And a
# screenshot of the morning page of a small campaign, by headless Chromium.
gallery: build
	$(call tool,ffmpeg,ffmpeg)
	$(call tool,chromium,chromium)
	packaging/gallery.sh

clean:
	rm -rf .build out fuzz-out $(DEB)
