# slicevid — build, demo, test, bench, install.
# Every entry point installs FFmpeg's -dev packages first when pkg-config cannot find them,
# so `make demo` and `make test` work on a fresh Debian 12 machine.

SWIFT   ?= swift
PREFIX  ?= /usr/local
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
FFMPEG_DEV := pkg-config libavcodec-dev libavformat-dev libswscale-dev libavutil-dev zlib1g-dev
RELEASE := .build/release/slicevid

.PHONY: all deps build debug demo test bench install clean

all: build

deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || \
	    ! pkg-config --exists libavcodec libavformat libswscale libavutil zlib; then \
	  echo "make: installing FFmpeg development packages ($(FFMPEG_DEV))"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $(FFMPEG_DEV) >/dev/null; \
	fi

build: deps
	$(SWIFT) build -c release --product slicevid

debug: deps
	$(SWIFT) build

# The demo: built-in cards, the seed's spring preset, no input files.
demo: build
	@mkdir -p out
	$(RELEASE) make --preset spring -o out/demo.mp4 --force
	@echo "demo written to out/demo.mp4"

# Performance goals, measured side by side with ffmpeg (the peer; slicevid never runs it).
bench: build
	@command -v ffmpeg >/dev/null 2>&1 || { echo "make: installing the ffmpeg CLI (benchmark peer only)"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends ffmpeg >/dev/null; }
	python3 bench/bench.py $(BENCH_ARGS)

# The whole suite. The debug build comes first so the CLI tests find .build/debug/slicevid.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/slicevid/presets
	install -m 755 $(RELEASE) $(DESTDIR)$(PREFIX)/bin/slicevid
	@if ls presets/*.json >/dev/null 2>&1; then install -m 644 presets/*.json $(DESTDIR)$(PREFIX)/share/slicevid/presets/; fi

clean:
	rm -rf .build out
