# gate — a performance-regression gate for pull requests.
#   make            build build/gate
#   make check      install missing dependencies, build, run every test
#   make demo       install missing dependencies, build, run gate on an example
#   make bench      measure gate itself (runner overhead, statistics speed)
#   make install    PREFIX=/usr/local DESTDIR=
#   make asan       make check under AddressSanitizer + UBSan (build/asan/)
# DEVELOPER=1 adds stricter warnings; SANITIZE=address,undefined instruments.

.SUFFIXES:

PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
VERSION = 0.1.0

PKGS = libgit2 libcjson gsl
BUILD ?= build
# objects go under obj/ so that build/gate can be the binary
OBJ = $(BUILD)/obj

WARN = -Wall -Wextra -Werror
ifeq ($(DEVELOPER),1)
WARN += -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wwrite-strings \
	-Wvla -Wformat=2
endif
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	$(WARN) -I. -DGATE_VERSION='"$(VERSION)"' $(CFLAGS)
ALL_LDFLAGS = $(LDFLAGS)
ifneq ($(SANITIZE),)
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif

# Targets that install dependencies first do not need pkg-config yet.
NODEPS_GOALS = check demo deps clean asan
ifneq ($(filter-out $(NODEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
ifneq ($(shell $(PKG_CONFIG) --exists $(PKGS) 2>/dev/null && echo ok),ok)
$(error pkg-config cannot find $(PKGS): run ci/install-deps (or install libgit2-dev libcjson-dev libgsl-dev pkg-config))
endif
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS)) -lm
endif

COMMON_OBJ = common/error.o
STATS_OBJ = stats/summary.o stats/bootstrap.o stats/tests.o
GIT_OBJ = git/repo.o git/snapshot.o git/checkout.o git/lock.o git/scan.o

GATE_OBJ = gate/gate.o gate/cmd-run.o gate/config.o gate/jsonpos.o \
	gate/runner.o gate/measure.o gate/verdict.o gate/report-term.o \
	gate/report-json.o gate/sysinfo.o gate/signals.o \
	gate/preflight.o
LIB_OBJ = $(addprefix $(OBJ)/,$(COMMON_OBJ) $(STATS_OBJ) $(GIT_OBJ) \
	$(GATE_OBJ))

UNIT_TESTS = stats config git runner verdict
UNIT_BIN = $(addprefix $(BUILD)/test-,$(UNIT_TESTS))
BENCH_BIN = $(BUILD)/bench-stats

all: $(BUILD)/gate

$(BUILD)/gate: $(OBJ)/gate/main.o $(BUILD)/libgate.a
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/libgate.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/test-%: $(OBJ)/tests/test-%.o $(OBJ)/tests/harness.o \
		$(BUILD)/libgate.a
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

$(BUILD)/bench-%: $(OBJ)/bench/bench-%.o $(BUILD)/libgate.a
	$(CC) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)

deps:
	@ci/install-deps

check: deps
	@$(MAKE) --no-print-directory test

# The tests without the dependency step (CI runs check).
test: $(BUILD)/gate $(UNIT_BIN)
	@BUILD=$(BUILD) tests/run-all $(UNIT_BIN)

asan: deps
	@$(MAKE) --no-print-directory BUILD=build/asan \
		SANITIZE=address,undefined CFLAGS='-O1 -g' test

demo: deps
	@$(MAKE) --no-print-directory $(BUILD)/gate
	@examples/demo $(BUILD)/gate

bench: $(BUILD)/gate $(BENCH_BIN)
	@bench/run $(BUILD)

install: $(BUILD)/gate
	mkdir -p $(DESTDIR)$(BINDIR)
	cp $(BUILD)/gate $(DESTDIR)$(BINDIR)/gate
	chmod 755 $(DESTDIR)$(BINDIR)/gate

clean:
	rm -rf build

.PHONY: all deps check test asan demo bench install clean

-include $(LIB_OBJ:.o=.d) $(OBJ)/gate/main.d \
	$(wildcard $(OBJ)/tests/*.d $(OBJ)/bench/*.d)
