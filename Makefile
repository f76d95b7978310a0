# gate — a performance-regression gate for pull requests.
#   make            build build/gate
#   make deps       install what is missing (ci/install-deps: the network,
#                   only for what is missing)
#   make check      install what is missing, build, run every test (once
#                   ci/install-deps has run, no network: nothing is missing)
#   make check-deps say what is missing, install nothing
#   make demo       install missing dependencies, build, run gate on an example
#   make bench      measure gate itself (runner overhead, statistics speed,
#                   and bench-scale's figures)
#   make bench-scale  gate run outside measuring with 20,000 tags, gate
#                   compare on 100,000 cases (TAGS=, CASES=)
#   make bench-stats  the simulation table of gate's error rates and power
#   make bench-trend  gate trend on identical code under a drifting machine
#                   (60 real-binary histories a cell)
#   make bench-tail   gate run on a sleep with a seeded slow tail (RUNS=10)
#   make bench-bisect  gate bisect's rules simulated: wrong commit, missed
#                   and unconfirmed regression rates at +0..+10%
#   make bench-bias measure the bias between the arms on identical code
#   make bench-verdicts  gate's verdicts on a real program slowed by known
#                   amounts, quiet and with one core busy (RUNS=20 per cell)
#   make bench-cycles  wall, instructions and cycles ratios of 11 changes
#                   (cache, branch and compute; 3 in real projects'
#                   vendored code), PAIRS=30 wall pairs each
#   make bench-counted  per-case instructions against per-case wall time on
#                   a real pytest and a real Google Benchmark suite
#                   (COUNTED_PAIRS=10 wall pairs)
#   make check-unit the unit tests only (no CLI tests: those need Linux)
#   make check-os-stub  gate built on the OS layer's stub (OS=stub, as on a
#                   system without Linux's facilities): unit tests and the
#                   CLI tests that do not need Linux (build/os-stub/)
#   make install    PREFIX=/usr/local DESTDIR= BINDIR= MANDIR=: the binary,
#                   lib/gate/ (libgate-alloc.so; libgate-probe.so, its
#                   header and pytest plugin), man pages, bash and zsh
#                   completions; make uninstall removes them
#   make deb        a Debian package, build/gate_VERSION_ARCH.deb (lintian-clean)
#   make asan       make check under AddressSanitizer + UBSan (build/asan/)
#   make memcheck   make check under valgrind memcheck (build/memcheck/)
#   make fuzz       libFuzzer targets, FUZZ_SECONDS (60) each (build/fuzz/)
# DEVELOPER=1 adds stricter warnings and -Werror (WERROR=1: -Werror alone);
# SANITIZE=address,undefined instruments.
# OS=linux|stub picks the OS layer (gate/os/): linux on Linux, else stub.

.SUFFIXES:

PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
INSTALL ?= install
# keep in step with debian/changelog (make deb checks)
VERSION = 0.2.0
UNAME_S := $(shell uname -s)
# the OS layer (gate/os/os.h): Linux's facilities, or the stub that says
# they are not available here; `make OS=stub` forces the stub on Linux (an
# OS from the environment, as Windows sets, is not ours: ignored)
ifneq ($(origin OS),command line)
OS := $(if $(filter Linux,$(UNAME_S)),linux,stub)
endif
ifeq ($(filter linux stub,$(OS)),)
$(error OS=$(OS): give OS=linux or OS=stub)
endif

PKGS = libgit2 libcjson gsl
NPROC := $(shell nproc 2>/dev/null || echo 1)
BUILD ?= build
# objects go under obj/ so that build/gate can be the binary
OBJ = $(BUILD)/obj

# -Werror only when asked (DEVELOPER=1, or WERROR=1 alone; CI sets both):
# a plain make must build with the next compiler, whose new warnings are
# not errors in the user's build
WARN = -Wall -Wextra -Wpedantic
ifeq ($(DEVELOPER),1)
WERROR = 1
WARN += -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wwrite-strings \
	-Wvla -Wformat=2
endif
ifeq ($(WERROR),1)
WARN += -Werror
endif
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	$(WARN) -I. -DGATE_VERSION='"$(VERSION)"' $(CPPFLAGS) $(CFLAGS)
# macOS: _POSIX_C_SOURCE hides what its headers give beyond POSIX (glibc's
# _DEFAULT_SOURCE brings that back on Linux); _DARWIN_C_SOURCE does there
ifeq ($(UNAME_S),Darwin)
ALL_CFLAGS += -D_DARWIN_C_SOURCE
endif
ALL_LDFLAGS = $(LDFLAGS)
ifneq ($(SANITIZE),)
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif

# Targets that install dependencies first do not need pkg-config yet.
NODEPS_GOALS = check check-deps demo deps clean asan memcheck fuzz uninstall deb
ifneq ($(filter-out $(NODEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
ifneq ($(shell $(PKG_CONFIG) --exists $(PKGS) 2>/dev/null && echo ok),ok)
$(error pkg-config cannot find $(PKGS): run ci/install-deps (or install libgit2-dev libcjson-dev libgsl-dev pkg-config))
endif
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS)) -lm
endif

COMMON_OBJ = common/clock.o common/error.o common/escape.o common/seed.o common/file.o common/sha256.o \
	common/tree.o common/number.o common/replace.o common/jsonpos.o \
	common/jsonpos-find.o
STATS_OBJ = stats/summary.o stats/bootstrap.o stats/tests.o stats/unpaired.o \
	stats/changepoint.o \
	stats/rank.o stats/ratio.o stats/trend.o
GIT_OBJ = git/repo.o git/snapshot.o git/checkout.o git/lock.o git/scan.o \
	git/notes.o git/trailers.o git/diff.o

# gate/ by stage, each depending only on the ones before it (checked by
# tests/cli/layout.sh): os/ (the OS layer), format/ (foreign result
# formats), config/ (gate.json, options), exec/ (processes and the
# machine), measure/ (pairs and samples), workspace/ (the arms' checkouts
# and builds), decide/ (plan, verdicts, suites' cases, looks, advice),
# report/ (printers, the report reader, history), cmd/ (one file per
# subcommand), then gate.c and main.c
OS_OBJ = gate/os/$(OS).o
# every file of gate/format/: one a format (a row of FORMAT_ROWS), so a
# new format is a file here and needs no line in this Makefile
FORMAT_OBJ = $(patsubst %.c,%.o,$(sort $(wildcard gate/format/*.c)))
CONFIG_OBJ = gate/config/config.o gate/config/config-keys.o \
	gate/config/config-rules.o gate/config/config-read.o \
	gate/config/config-table.o \
	gate/config/metrics.o gate/config/options.o
EXEC_OBJ = gate/exec/runner.o gate/exec/runner-spawn.o gate/exec/signals.o gate/exec/counter.o \
	gate/exec/alloc.o gate/exec/sysinfo.o gate/exec/layout.o gate/exec/box.o \
	gate/exec/sampler.o gate/exec/self.o \
	gate/exec/notice.o gate/exec/probe.o
MEASURE_OBJ = gate/measure/measure.o gate/measure/measure-sample.o \
	gate/measure/measure-suite.o gate/measure/suite-filter.o \
	gate/measure/measure-counted.o
WORKSPACE_OBJ = gate/workspace/workspace.o gate/workspace/workspace-build.o \
	gate/workspace/workspace-cache.o gate/workspace/workspace-manifest.o \
	gate/workspace/workspace-artifacts.o gate/workspace/workspace-box.o
DECIDE_OBJ = gate/decide/plan.o gate/decide/plan-shard.o gate/decide/arms.o \
	gate/decide/model.o gate/decide/adaptive.o gate/decide/advice.o \
	gate/decide/calibration.o gate/decide/verdict.o \
	gate/decide/verdict-bounds.o gate/decide/verdict-suite.o \
	gate/decide/verdict-explain.o gate/decide/suite.o \
	gate/decide/suite-shard.o gate/decide/relative.o
REPORT_OBJ = gate/report/view.o gate/report/view-row.o gate/report/view-protocol.o gate/report/term.o gate/report/json.o gate/report/md.o \
	gate/report/html.o gate/report/conditions.o gate/report/publish.o \
	gate/report/progress.o gate/report/load.o gate/report/load-run.o \
	gate/report/load-format.o \
	gate/report/history.o gate/report/load-fields.o
CMD_OBJ = gate/cmd/run.o gate/cmd/run-measure.o gate/cmd/run-options.o gate/cmd/compare.o gate/cmd/complete.o gate/cmd/calibrate.o gate/cmd/calibrate-write.o \
	gate/cmd/doctor.o gate/cmd/init.o gate/cmd/init-make.o gate/cmd/init-go.o gate/cmd/init-cargo.o gate/cmd/init-js.o gate/cmd/init-jvm.o gate/cmd/init-py.o gate/cmd/init-gbench.o gate/cmd/init-prog.o gate/cmd/record.o \
	gate/cmd/trend.o gate/cmd/trend-report.o gate/cmd/bisect.o gate/cmd/export.o \
	gate/cmd/merge.o gate/cmd/merge-policy.o
GATE_OBJ = gate/gate.o
CI_OBJ = ci/github.o
LIB_OBJ = $(addprefix $(OBJ)/,$(COMMON_OBJ) $(STATS_OBJ) $(GIT_OBJ) \
	$(CI_OBJ) $(OS_OBJ) $(FORMAT_OBJ) $(CONFIG_OBJ) $(EXEC_OBJ) \
	$(MEASURE_OBJ) $(WORKSPACE_OBJ) $(DECIDE_OBJ) $(REPORT_OBJ) \
	$(CMD_OBJ) $(GATE_OBJ))

# a format's reader test is picked up as it is written
FORMAT_UNITS = $(patsubst tests/%.c,%,$(sort $(wildcard \
	tests/gate/format/test-*.c)))
# unit tests mirror the source layout: tests/DIR/test-MODULE.c tests
# DIR/MODULE.c and builds to $(BUILD)/tests/DIR/test-MODULE
UNIT_MIRROR = common/test-sha256 common/test-file common/test-tree \
	common/test-number common/test-error common/test-escape common/test-replace \
	stats/test-summary stats/test-tests stats/test-bootstrap \
	stats/test-rank stats/test-unpaired \
	git/test-repo git/test-snapshot git/test-checkout git/test-lock \
	git/test-trailers \
	gate/config/test-config common/test-jsonpos gate/decide/test-suite gate/measure/test-measure \
	gate/decide/test-adaptive gate/decide/test-verdict gate/decide/test-calibration gate/decide/test-advice \
	gate/decide/test-plan gate/decide/test-model gate/workspace/test-workspace-artifacts \
	gate/os/test-os stats/test-changepoint stats/test-ratio \
	stats/test-trend \
	gate/exec/test-runner gate/exec/test-counter gate/exec/test-layout \
	gate/exec/test-probe gate/exec/test-box \
	$(FORMAT_UNITS) \
	gate/report/test-view gate/report/test-load \
	gate/report/test-load-compare gate/report/test-load-fields \
	bench/test-sim
# fuzz targets (tests/fuzz/fuzz-NAME.c); make check replays their corpora
FUZZ_TARGETS = config jsonpos format cli
FUZZ_SECONDS ?= 60
UNIT_BIN = $(addprefix $(BUILD)/tests/,$(UNIT_MIRROR)) \
	$(addprefix $(BUILD)/replay-,$(FUZZ_TARGETS))
BENCH_BIN = $(BUILD)/bench-stats $(BUILD)/bench-sim

# The allocation-counting preload library needs glibc (Linux); elsewhere
# (and with OS=stub) gate builds without it and the allocation metrics say
# they are missing.
ifeq ($(OS),linux)
ALLOC_LIB = $(BUILD)/libgate-alloc.so
endif
# The probe that brackets a counted suite's cases for callgrind
# (lib/gate-probe.c, doc/counted.md) needs valgrind's headers
# (valgrind/callgrind.h: Debian's valgrind package); without them gate
# builds without it and a suite's per-case counts say what is missing.
# The pytest plugin that calls it is copied beside it.
CALLGRIND_H := $(shell printf '\043include <valgrind/callgrind.h>\n' | \
	$(CC) $(CPPFLAGS) -E -x c - >/dev/null 2>&1 && echo yes)
ifeq ($(CALLGRIND_H),yes)
PROBE_LIB = $(BUILD)/libgate-probe.so $(BUILD)/gate_probe_pytest.py
endif

COMPLETIONS = $(BUILD)/completion/gate.bash $(BUILD)/completion/_gate

all: $(BUILD)/gate $(ALLOC_LIB) $(PROBE_LIB) $(COMPLETIONS)

# The completions' commands, options and option values are gate's own
# (gate --completion SHELL prints them from the option rows), put in place
# of @GENERATED@: a new option or command needs no edit here
$(BUILD)/completion/%: completion/%.in $(BUILD)/gate
	@mkdir -p $(dir $@)
	case $* in _gate) sh=zsh ;; *) sh=bash ;; esac; \
	$(BUILD)/gate --completion $$sh >$@.gen && \
	sed -e '/^@GENERATED@$$/{r $@.gen' -e 'd;}' completion/$*.in >$@.tmp && \
	rm -f $@.gen && mv $@.tmp $@

# (every target that builds gate builds its sampler)
$(BUILD)/gate: $(OBJ)/gate/main.o $(BUILD)/libgate.a | $(BUILD)/gate-sampler
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

# what times a sample in an arm's sandbox: the archive's few objects it
# needs, none of gate's libraries (gate/exec/sampler-main.c)
$(BUILD)/gate-sampler: $(OBJ)/gate/exec/sampler-main.o $(BUILD)/libgate.a
	$(CC) -o $@ $^ $(ALL_LDFLAGS) -lm

$(BUILD)/libgate.a: $(LIB_OBJ) $(OBJ)/os-$(OS).stamp
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

# which OS layer libgate.a holds: switching OS in one BUILD rebuilds it
$(OBJ)/os-$(OS).stamp:
	@mkdir -p $(dir $@)
	@rm -f $(OBJ)/os-*.stamp
	@touch $@

# The preload library goes into benchmarks, not gate: never sanitized, and
# built without gate's libraries. Needs glibc (it forwards to __libc_malloc).
$(BUILD)/libgate-alloc.so: lib/gate-alloc.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CPPFLAGS) -O2 -g -fPIC -shared $(LDFLAGS) \
		-o $@ lib/gate-alloc.c

# as the allocation library: built for the benchmark's processes, never
# sanitized, with no library of gate's
$(BUILD)/libgate-probe.so: lib/gate-probe.c lib/gate-probe.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -I. $(CPPFLAGS) -O2 -g -fPIC -shared \
		$(LDFLAGS) -o $@ lib/gate-probe.c

$(BUILD)/gate_probe_pytest.py: lib/gate_probe_pytest.py
	@mkdir -p $(dir $@)
	cp lib/gate_probe_pytest.py $@

# The compile command, kept in a file that changes only when it does: a
# new VERSION, CFLAGS or SANITIZE rebuilds every object, as a changed
# source rebuilds its own (else a build kept printing the old version).
COMPILE = $(CC) $(ALL_CFLAGS) $(PKG_CFLAGS)
$(OBJ)/flags: FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' "$(subst ",\",$(COMPILE))" >$@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi
.PHONY: FORCE
FORCE:

$(OBJ)/%.o: %.c $(OBJ)/flags
	@mkdir -p $(dir $@)
	$(COMPILE) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: $(OBJ)/tests/%.o $(OBJ)/tests/harness.o $(BUILD)/libgate.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

# the tests of git/ share their fixture repositories (tests/git/fixture.c)
GIT_TESTS = $(addprefix $(BUILD)/tests/,$(filter git/%,$(UNIT_MIRROR)))
$(GIT_TESTS): $(BUILD)/tests/git/%: $(OBJ)/tests/git/%.o \
		$(OBJ)/tests/git/fixture.o $(OBJ)/tests/harness.o \
		$(BUILD)/libgate.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

# the tests of stats/ share copies and seeded generators
# (tests/stats/fixture.c)
STATS_TESTS = $(addprefix $(BUILD)/tests/,$(filter stats/%,$(UNIT_MIRROR)))
$(STATS_TESTS): $(BUILD)/tests/stats/%: $(OBJ)/tests/stats/%.o \
		$(OBJ)/tests/stats/fixture.o $(OBJ)/tests/harness.o \
		$(BUILD)/libgate.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

# and the tests of gate/format/ theirs (tests/gate/format/fixture.c)
FORMAT_TESTS = $(addprefix $(BUILD)/tests/,$(filter gate/format/%,$(UNIT_MIRROR)))
$(FORMAT_TESTS): $(BUILD)/tests/gate/format/%: \
		$(OBJ)/tests/gate/format/%.o $(OBJ)/tests/gate/format/fixture.o \
		$(OBJ)/tests/harness.o $(BUILD)/libgate.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

# the simulation drives libgate's own decision code
$(BUILD)/tests/bench/test-sim: $(OBJ)/tests/bench/test-sim.o \
		$(OBJ)/tests/harness.o $(OBJ)/bench/sim.o $(BUILD)/libgate.a
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/bench-sim: $(OBJ)/bench/bench-sim.o $(OBJ)/bench/sim.o \
		$(BUILD)/libgate.a
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/bench-manifest: $(OBJ)/bench/bench-manifest.o $(BUILD)/libgate.a
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

$(OBJ)/tests/fuzz/replay-%.o: tests/fuzz/replay.c $(OBJ)/flags
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DFUZZ_NAME='"$*"' -MMD -MP -c -o $@ $<

$(BUILD)/replay-%: $(OBJ)/tests/fuzz/fuzz-%.o $(OBJ)/tests/fuzz/replay-%.o \
		$(BUILD)/libgate.a
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/fuzz-%: $(OBJ)/tests/fuzz/fuzz-%.o $(BUILD)/libgate.a
	$(CC) -fsanitize=fuzzer -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/bench-%: $(OBJ)/bench/bench-%.o $(BUILD)/libgate.a
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

# make deps installs only what is missing (apt-get, npm: the network), so
# the README's make check sets a fresh machine up and, once it has, reaches
# no network; make check-deps only says what is missing
deps:
	@ci/install-deps

check-deps:
	@ci/install-deps --offline

check: deps
	@$(MAKE) --no-print-directory test

# The tests without the dependency step (CI runs check): unit binaries and
# CLI tests from one queue, TEST_JOBS (the CPUs plus one) at a time
# (tests/run-all). The
# Monte-Carlo tests run a quarter of their trials; make bench-tests, their
# full size.
# What they need is built first, as many at a time as there are CPUs
# unless make was given -j (a build is ~70 s of CPU; CI makes five).
test:
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) \
		test-bins
	@BUILD=$(BUILD) MEMCHECK=$(MEMCHECK) GATE_OS_STUB=$(GATE_OS_STUB) \
		CLI_SAMPLE=$(CLI_SAMPLE) tests/run-all $(UNIT_BIN)

test-bins: $(BUILD)/gate $(ALLOC_LIB) $(PROBE_LIB) $(COMPLETIONS) $(UNIT_BIN)

# the Monte-Carlo unit tests at their full size (GATE_TEST_FULL=1)
MONTE_CARLO_BIN = $(BUILD)/tests/bench/test-sim \
	$(BUILD)/tests/stats/test-changepoint
bench-tests: $(MONTE_CARLO_BIN)
	@BUILD=$(BUILD) UNIT_ONLY=1 GATE_TEST_FULL=1 tests/run-all \
		$(MONTE_CARLO_BIN)

# The unit tests and fuzz-corpus replays alone: what runs without Linux,
# valgrind or a browser (the macOS CI job; the Debian package's build).
check-unit:
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) \
		$(UNIT_BIN)
	@BUILD=$(BUILD) UNIT_ONLY=1 tests/run-all $(UNIT_BIN)

# gate on the OS layer's stub, as where Linux's facilities are absent:
# the unit tests, the replays and the CLI tests that need none of them
# (GATE_OS_STUB=1: the others say they are skipped, see tests/cli/lib.sh)
check-os-stub:
	@$(MAKE) --no-print-directory BUILD=build/os-stub OS=stub \
		GATE_OS_STUB=1 test

asan: deps
	@$(MAKE) --no-print-directory BUILD=build/asan \
		SANITIZE=address,undefined CFLAGS='-O1 -g' test

# make check under valgrind memcheck (the unit tests, and gate in the CLI
# tests tests/memcheck-sample names: one or more for each command and each
# path through gate's C, see its header; not the benchmarks gate spawns):
# no errors, no definite leaks. MEMCHECK_SAMPLE= runs every CLI test.
MEMCHECK_SAMPLE = tests/memcheck-sample
memcheck: deps
	@$(MAKE) --no-print-directory BUILD=build/memcheck CFLAGS='-O1 -g' \
		MEMCHECK=1 CLI_SAMPLE=$(MEMCHECK_SAMPLE) test

# libFuzzer (clang) on every target for FUZZ_SECONDS each, from the seed
# corpus in tests/fuzz/corpus/; crashes are left in build/fuzz/
fuzz:
	@ci/install-deps --fuzz
	@$(MAKE) --no-print-directory BUILD=build/fuzz CC=clang \
		SANITIZE=address,undefined \
		CFLAGS='-O1 -g -fsanitize=fuzzer-no-link' fuzz-run

fuzz-run: $(addprefix $(BUILD)/fuzz-,$(FUZZ_TARGETS))
	@tests/fuzz/run $(BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# all: gate and what it loads at run time (libgate-alloc.so for allocs)
demo: deps
	@$(MAKE) --no-print-directory all
	@examples/demo $(BUILD)/gate

bench: $(BUILD)/gate $(ALLOC_LIB) $(BENCH_BIN) bench-tests
	@bench/run $(BUILD)
	@bench/scale $(BUILD)

# what grows with the repository or the input: gate run outside measuring
# with 10 and 20,000 tags (TAGS=), gate compare on 1,000 and 100,000 cases
# (CASES=)
bench-scale: $(BUILD)/gate
	@bench/scale $(BUILD)

# the full simulation table: false-fail, noisy and fail rates per cell
bench-stats: $(BUILD)/bench-sim
	@$(BUILD)/bench-sim

# gate trend's creep test on the real binary: 60 histories of identical
# code on a machine whose level walks 2% per record (issue 38 item 3)
bench-trend: $(BUILD)/gate
	@bench/trend-drift $(BUILD)/gate

# gate run on a sleep whose head is 2x in a seeded 10% of its runs, and on
# identical code (issue 38 item 1): RUNS runs a cell, --budget BUDGET s
bench-tail: $(BUILD)/gate
	@bench/tail $(BUILD)/gate $(or $(RUNS),10) $(or $(BUDGET),60)

# gate bisect's rules on simulated searches (bench-sim's part 5 alone),
# SEARCHES a cell
SEARCHES ?= 2000
bench-bisect: $(BUILD)/bench-sim
	@$(BUILD)/bench-sim b $(SEARCHES)

# the sealed arms' costs: Landlock on vs off per sample (/bin/true and a
# real compile), manifests of a tree of 3,000 files, an arm of 20,000 tags
bench-seal: $(BUILD)/gate $(BUILD)/bench-manifest
	@bench/seal $(BUILD)

# two byte-identical builds measured A/A: the bias between the arms
bench-bias: $(BUILD)/gate
	@ci/install-deps --bench
	@bench/bias $(BUILD)

# gate run on a real program whose slowdown is set exactly (0 to 4x the
# floor), quiet and with one core busy: verdict counts against the targets
bench-verdicts: $(BUILD)/gate
	@ci/install-deps --bench
	@bench/verdicts $(BUILD)

# "cycles" against wall time: 8 changes to small C programs (bench/cycles/),
# each with its wall ratio on PAIRS pairs and its instructions and cycles
# ratios (valgrind); the table in doc/cycles.md
PAIRS ?= 30
bench-cycles: $(BUILD)/gate
	@bench/cycles/run $(BUILD)/gate $(PAIRS)

# per-case counts beside per-case wall time on two real suites (numpy's
# own tests under pytest, a Google Benchmark suite over cJSON, zlib and
# GSL), for changes of known size; the table in doc/counted.md
bench-counted: $(BUILD)/gate
	@bench/counted/run $(BUILD)/gate $(or $(COUNTED_PAIRS),10)

# gate finds libgate-alloc.so at ../lib/gate/ from its own binary, so its
# directory follows BINDIR (PREFIX/bin: PREFIX/lib/gate).
ALLOCDIR = $(patsubst %/,%,$(dir $(patsubst %/,%,$(BINDIR))))/lib/gate
ifeq ($(origin LIBDIR),command line)
$(error LIBDIR is not used: gate finds libgate-alloc.so in ../lib/gate/ from its binary, so it goes to $(ALLOCDIR), after BINDIR)
endif
MAN1 = man/gate.1 man/gate-run.1 man/gate-calibrate.1 man/gate-doctor.1 \
	man/gate-compare.1 man/gate-init.1 man/gate-record.1 man/gate-trend.1 \
	man/gate-bisect.1 man/gate-export.1 man/gate-merge.1
MAN5 = man/gate.json.5
MAN7 = man/gate.7
# the probe, its header for a harness of one's own, the pytest plugin
PROBE_FILES = libgate-probe.so gate-probe.h gate_probe_pytest.py
INSTALL_DIRS = $(BINDIR) $(MANDIR)/man1 $(MANDIR)/man5 $(MANDIR)/man7 $(BASHCOMPDIR) \
	$(ZSHCOMPDIR) $(ALLOCDIR)
INSTALLED = $(BINDIR)/gate $(addprefix $(MANDIR)/man1/,$(notdir $(MAN1))) \
	$(addprefix $(MANDIR)/man5/,$(notdir $(MAN5))) \
	$(addprefix $(MANDIR)/man7/,$(notdir $(MAN7))) $(BASHCOMPDIR)/gate \
	$(ZSHCOMPDIR)/_gate $(ALLOCDIR)/gate-sampler $(ALLOCDIR)/libgate-alloc.so \
	$(addprefix $(ALLOCDIR)/,$(PROBE_FILES))
# The directories install creates (not those that were there), for
# uninstall to remove and no others. The record is installed with gate
# (as pip's RECORD is), not kept in the build directory, so that make
# uninstall still finds it after make clean or from another checkout; its
# paths are without DESTDIR ("/" is DESTDIR itself, when install made it).
# INSTALL_RECORD= (empty) keeps none: a package's staging tree, whose
# directories the package manager owns.
INSTALL_RECORD = $(DATADIR)/gate/install-dirs
RECORD_DIRS = $(INSTALL_DIRS) $(if $(INSTALL_RECORD),$(patsubst %/,%,$(dir $(INSTALL_RECORD))))

install: $(BUILD)/gate $(ALLOC_LIB) $(PROBE_LIB) $(COMPLETIONS)
	@made=$$(for d in $(RECORD_DIRS); do \
		while [ ! -d "$(DESTDIR)$$d" ]; do \
			echo "$$d"; [ "$$d" != / ] || break; \
			d=$$(dirname "$$d"); \
		done; \
	done); \
	$(INSTALL) -d $(addprefix $(DESTDIR),$(RECORD_DIRS)) && \
	if [ -n "$(INSTALL_RECORD)" ]; then \
		r="$(DESTDIR)$(INSTALL_RECORD)"; \
		{ [ ! -f "$$r" ] || cat "$$r"; \
		  [ -z "$$made" ] || printf '%s\n' "$$made"; } | \
			LC_ALL=C sort -u >"$$r.new" && \
		mv "$$r.new" "$$r" && chmod 644 "$$r"; \
	fi
	$(INSTALL) -m 755 $(BUILD)/gate $(DESTDIR)$(BINDIR)/gate
	$(INSTALL) -m 755 $(BUILD)/gate-sampler $(DESTDIR)$(ALLOCDIR)/gate-sampler
	$(if $(ALLOC_LIB),$(INSTALL) -m 644 $(ALLOC_LIB) \
		$(DESTDIR)$(ALLOCDIR)/libgate-alloc.so)
	$(if $(PROBE_LIB),$(INSTALL) -m 644 $(BUILD)/libgate-probe.so \
		lib/gate-probe.h $(BUILD)/gate_probe_pytest.py \
		$(DESTDIR)$(ALLOCDIR))
	$(INSTALL) -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5
	$(INSTALL) -m 644 $(MAN7) $(DESTDIR)$(MANDIR)/man7
	$(INSTALL) -m 644 $(BUILD)/completion/gate.bash \
		$(DESTDIR)$(BASHCOMPDIR)/gate
	$(INSTALL) -m 644 $(BUILD)/completion/_gate $(DESTDIR)$(ZSHCOMPDIR)/_gate

# The files, then gate's own directories, then the directories install
# recorded as created, deepest first, where empty. Without a record (an
# install by an older gate, or with INSTALL_RECORD=) it says what it
# cannot know instead of removing directories that were there before.
uninstall:
	@r="$(DESTDIR)$(INSTALL_RECORD)"; made=; \
	if [ -n "$(INSTALL_RECORD)" ] && [ -f "$$r" ]; then \
		made=$$(LC_ALL=C sort -ru "$$r"); \
	elif [ -n "$(INSTALL_RECORD)" ]; then \
		echo "make uninstall: no record of the directories make" \
		     "install created ($$r): those left empty stay"; \
	fi; \
	echo rm -f $(addprefix $(DESTDIR),$(INSTALLED) $(INSTALL_RECORD)); \
	rm -f $(addprefix $(DESTDIR),$(INSTALLED) $(INSTALL_RECORD)) || exit 1; \
	$(if $(INSTALL_RECORD),rmdir "$(DESTDIR)$(dir $(INSTALL_RECORD))" 2>/dev/null;) \
	rmdir $(DESTDIR)$(ALLOCDIR) 2>/dev/null; \
	printf '%s\n' "$$made" | while IFS= read -r d; do \
		[ -z "$$d" ] || rmdir "$(DESTDIR)$$d" 2>/dev/null || :; \
	done

# A Debian package, built from a copy of this tree in build/deb/ (so that
# dpkg-buildpackage's clean and its output stay out of the source tree),
# checked by lintian (errors fail), copied to build/.
DEB_SRC = build/deb/gate-$(VERSION)
deb:
	@ci/install-deps --deb
	@v=$$(dpkg-parsechangelog -S Version); [ "$$v" = "$(VERSION)" ] || \
		{ echo "make deb: debian/changelog says $$v, the Makefile" \
		"$(VERSION): add a changelog entry (dch -v $(VERSION))" >&2; \
		exit 1; }
	rm -rf build/deb
	mkdir -p $(DEB_SRC)
	tar -cf - --exclude=./build --exclude=./.git \
		--exclude=./tools/node_modules --exclude=./tests/artifacts . | \
		tar -xf - -C $(DEB_SRC)
	cd $(DEB_SRC) && dpkg-buildpackage -us -uc -b -Jauto
	lintian --fail-on error build/deb/gate_$(VERSION)_*.changes
	cp build/deb/gate_$(VERSION)_*.deb build/

clean:
	rm -rf build

.PHONY: all deps check-deps check test test-bins check-unit check-os-stub bench-tests asan memcheck fuzz fuzz-run demo \
	bench bench-scale bench-stats bench-bisect bench-trend bench-tail bench-seal bench-bias bench-verdicts bench-cycles bench-counted install uninstall deb clean

# keep test and bench objects make would delete as intermediates
.SECONDARY:

-include $(LIB_OBJ:.o=.d) $(OBJ)/gate/main.d \
	$(wildcard $(OBJ)/tests/*.d $(OBJ)/tests/*/*.d $(OBJ)/tests/*/*/*.d \
	$(OBJ)/tests/*/*/*/*.d $(OBJ)/bench/*.d)
