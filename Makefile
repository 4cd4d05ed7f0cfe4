# bmgen: one entry point.  See README.md.
#   make            module + userspace
#   make user       the programs alone: no kernel headers, no unit-test library
#   make check      deps, unit tests (ASan/UBSan), fuzzers, lab tests in QEMU; "N passed, N failed"
#   make demo       the main job: an RFC 2544 benchmark in the virtual lab
#   make bench      benchmarks; results into Documentation/benchmarks.md
#   make deps       install the Debian packages the build, lab and tests need
#   make fuzz       every libFuzzer harness for FUZZ_SECONDS (tests/fuzz)

KVER ?= $(shell tools/kver)
KDIR ?= /lib/modules/$(KVER)/build
O ?= build
SAN_O ?= build-san
VG_O ?= build-vg
FUZZ_O ?= build-fuzz

CC ?= cc
# The programs' libraries (libnl-route-3.0: router DUTs' addresses and
# neighbours, backends/router.c) and, apart, the unit tests' (check).
# pkg-config asked for several at once prints nothing when one is
# missing, so each is asked alone: a host without check still builds
# the programs, and a missing library is named with its Debian package.
PKGS := libmnl json-c libsystemd libnl-route-3.0
DEB_libmnl := libmnl-dev
DEB_json-c := libjson-c-dev
DEB_libsystemd := libsystemd-dev
DEB_libnl-route-3.0 := libnl-route-3-dev
pkg_flags = $(strip $(foreach p,$(2),$(shell pkg-config $(1) $(p) 2>/dev/null)))
pkg_missing = $(strip $(foreach p,$(1),$(if $(shell pkg-config --exists $(p) && echo y),,$(p))))
PKG_CFLAGS := $(call pkg_flags,--cflags,$(PKGS))
PKG_LIBS := $(call pkg_flags,--libs,$(PKGS))
PKG_MISSING := $(call pkg_missing,$(PKGS))
CHECK_CFLAGS := $(call pkg_flags,--cflags,check)
CHECK_LIBS := $(call pkg_flags,--libs,check)
CHECK_MISSING := $(call pkg_missing,check)
# a target that needs a missing library stops first, naming its package
PKG_GATE := $(if $(PKG_MISSING),no-libs)
CHECK_GATE := $(if $(CHECK_MISSING),no-check)
# bmctl --param @FILE.yaml: profiles in YAML too, with Debian's libyaml
# (tools/install-deps) rather than a parser of our own; JSON always.
ifeq ($(shell pkg-config --exists yaml-0.1 && echo y),y)
BMCTL_YAML_CFLAGS := -DBM_HAVE_YAML $(shell pkg-config --cflags yaml-0.1)
BMCTL_YAML_LIBS := $(shell pkg-config --libs yaml-0.1)
endif
BM_VERSION := $(shell cat VERSION)
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS ?= -O2 -g
# libbm, one folder per layer (HACKING.md): a file sees the headers of its
# own folder and of the layers its folder may include, and no others, so
# that an include across the rule fails the build.
LIB_LAYERS := core backends searches rfc2544 rfc8239 rfc7640 procedures protocol daemon
LAYER_core :=
LAYER_backends := core
LAYER_searches := core
LAYER_rfc2544 := core searches
LAYER_rfc8239 := core searches
LAYER_rfc7640 := core searches
LAYER_procedures := core searches rfc2544 rfc8239 rfc7640
LAYER_protocol := core
LAYER_daemon := core backends searches rfc2544 rfc8239 rfc7640 procedures protocol
LIB_INC := $(LIB_LAYERS:%=-Iuser/lib/%)
layer_inc = $(foreach l,$(1) $(LAYER_$(1)),-Iuser/lib/$(l))
# -pthread: libbm runs threads (bmd's workers, the TCP engine's pump)
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) -D_GNU_SOURCE -DBM_VERSION=\"$(BM_VERSION)\" \
	-Iinclude/uapi $(INC) -pthread $(PKG_CFLAGS)
# Programs and tests above libbm: bmd sees the daemon's headers, bmctl the
# protocol's only (port facts come from bmd, so that a bmd on another host
# shows its own), the lab's raw instruments of libbm the backends', the
# unit tests everything.
INC = $(LIB_INC)
$(foreach l,$(LIB_LAYERS),$(eval $$(O)/user/lib/$(l)/%.o $$(SAN_O)/user/lib/$(l)/%.o $$(VG_O)/user/lib/$(l)/%.o $$(FUZZ_O)/user/lib/$(l)/%.o: INC = $$(call layer_inc,$(l))))
$(O)/user/bmd/%.o: INC = $(call layer_inc,daemon)
$(O)/user/bmctl/%.o $(SAN_O)/user/bmctl/%.o $(VG_O)/user/bmctl/%.o $(FUZZ_O)/user/bmctl/%.o: \
	INC = -Iuser/bmctl $(call layer_inc,protocol) $(BMCTL_YAML_CFLAGS) \
	      -DBM_PROFILE_DIR='"$(PREFIX)/share/bmgen/profiles"'
# tests/tools: the lab's raw netlink harnesses see the uapi header and
# nothing of libbm; its raw instruments of libbm (trial, traffic, tcp),
# named here, the backends'
LAB_TOOLS_LIBBM := bmgen_trial bmgen_traffic bmgen_tcp
$(O)/tests/tools/%.o: INC =
$(LAB_TOOLS_LIBBM:%=$(O)/tests/tools/%.o): INC = $(call layer_inc,backends)
$(SAN_O)/tests/unit/%.o $(VG_O)/tests/unit/%.o: INC = $(LIB_INC) -Itests/unit/common $(CHECK_CFLAGS)
# bmctl's own unit tests (tests/unit/bmctl) see bmctl's files too
$(SAN_O)/tests/unit/bmctl/%.o $(VG_O)/tests/unit/bmctl/%.o: \
	INC = $(LIB_INC) -Itests/unit/common -Iuser/bmctl $(BMCTL_YAML_CFLAGS) $(CHECK_CFLAGS)
# the fuzzers see everything too, and bmctl's profile reader
$(FUZZ_O)/tests/fuzz/%.o: INC = $(LIB_INC) -Iuser/bmctl -Itests/fuzz $(BMCTL_YAML_CFLAGS)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

LIB_SRC := $(wildcard $(LIB_LAYERS:%=user/lib/%/*.c))
BMD_SRC := $(wildcard user/bmd/*.c)
BMCTL_SRC := $(wildcard user/bmctl/*.c)
TEST_SRC := $(wildcard tests/unit/*/test_*.c)
TEST_HELPERS := $(filter-out $(TEST_SRC),$(wildcard tests/unit/*/*.c))
HDRS := $(wildcard include/uapi/linux/*.h user/lib/*/*.h user/bmd/*.h user/bmctl/*.h tests/unit/*/*.h \
	tests/fuzz/*.h)

.PHONY: all user module clean check check-quick check-debug unit unit-valgrind fuzz fuzz-check lab lab-rate deps \
	demo bench install help no-libs no-check
all: user module

user: $(PKG_GATE) $(O)/bmd $(O)/bmctl $(O)/bmgen-trial $(O)/bmgen-traffic $(O)/bmgen-tcp $(O)/bmgen-nlcheck $(O)/bmgen-nlfuzz \
	$(O)/bmgen-peer $(O)/holb-emu $(O)/xdp-attach $(O)/xdp-tg-probe.so

Q := $(if $(V),,@)

no-libs:
	@echo "bmgen: pkg-config finds no $(PKG_MISSING): apt-get install" \
		"$(strip $(if $(shell command -v pkg-config),,pkg-config) \
		$(foreach p,$(PKG_MISSING),$(DEB_$(p))))" "(or make deps)" >&2; exit 1
no-check:
	@echo "bmgen: the unit tests need the check library: apt-get install check" \
		"(or make deps)" >&2; exit 1

# --- userspace ---------------------------------------------------------------
$(O)/%.o: %.c $(HDRS) VERSION
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/libbm.a: $(LIB_SRC:%.c=$(O)/%.o)
	rm -f $@ && ar rcs $@ $^

$(O)/bmd: $(BMD_SRC:%.c=$(O)/%.o) $(O)/libbm.a
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# bmctl carries the result schema it checks results against (schema.S)
$(O)/user/bmctl/schema_blob.o $(SAN_O)/user/bmctl/schema_blob.o $(VG_O)/user/bmctl/schema_blob.o: \
		user/bmctl/schema.S Documentation/result.schema.json
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  AS      $<")
	$(Q)$(CC) -c -o $@ $<

$(O)/bmctl: $(BMCTL_SRC:%.c=$(O)/%.o) $(O)/user/bmctl/schema_blob.o $(O)/libbm.a
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) $(BMCTL_YAML_LIBS) -lm

# the lab's and make bench's raw instruments (tests/tools); bmgen-trial and
# bmgen-traffic are the host's too (make install, install.mk):
# one raw pair trial on bmgen.ko
$(O)/bmgen-trial: $(O)/tests/tools/bmgen_trial.o $(O)/libbm.a
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# one raw N-port trial (mesh, many-to-one, ...), module or --sim
$(O)/bmgen-traffic: $(O)/tests/tools/bmgen_traffic.o $(O)/libbm.a
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# one raw session of the kernel TCP engine (VRFs via libnl-route)
$(O)/bmgen-tcp: $(O)/tests/tools/bmgen_tcp.o $(O)/libbm.a
	$(CC) $(CFLAGS) -pthread -o $@ $^ $(PKG_LIBS) -lm

# lab dataplane/netlink-reject: raw generic netlink rejections and
# privileges (libmnl only)
$(O)/bmgen-nlcheck: $(O)/tests/tools/bmgen_nlcheck.o
	$(CC) $(CFLAGS) -o $@ $^ $(shell pkg-config --libs libmnl 2>/dev/null)

# lab dataplane/rx-only: another host's sender, a raw socket (uapi only)
$(O)/bmgen-peer: $(O)/tests/tools/bmgen_peer.o
	$(CC) $(CFLAGS) -o $@ $^

# lab dataplane/netlink-fuzz: the netlink sequence fuzzer (libmnl, threads)
$(O)/bmgen-nlfuzz: $(O)/tests/tools/bmgen_nlfuzz.o
	$(CC) $(CFLAGS) -pthread -o $@ $^ $(shell pkg-config --libs libmnl 2>/dev/null)

# DUT-HOLB-EMU, the lab's switch that has head-of-line blocking
# (tests/fixtures: test DUTs, nothing of the project included)
$(O)/holb-emu: $(O)/tests/fixtures/holb_emu.o
	$(CC) $(CFLAGS) -o $@ $^

# the XDP path's lab and bench: an XDP_PASS/XDP_DROP program on a device,
# two instructions through bpf(2), no BPF compiler or libbpf in the guest
$(O)/xdp-attach: $(O)/tests/fixtures/xdp_attach.o
	$(CC) $(CFLAGS) -o $@ $^

# the bench's xdp-trafficgen row: Debian 12's 1.3.1 probes with a packet
# 6.1 refuses; this LD_PRELOAD library pads it (tests/fixtures/xdp_tg_probe.c)
$(O)/xdp-tg-probe.so: tests/fixtures/xdp_tg_probe.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -shared -fPIC -o $@ $< -ldl

$(O)/mlr_bench: $(O)/user/bench/mlr_bench.o $(O)/tests/unit/searches/mlr_devices.o $(O)/libbm.a
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(O)/mlr9971_bench: $(O)/user/bench/mlr9971_bench.o $(O)/tests/unit/searches/mlr_devices.o \
		$(O)/tests/unit/searches/csit_vectors.o $(O)/libbm.a
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

$(O)/b2b_bench: $(O)/user/bench/b2b_bench.o $(O)/libbm.a
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS) -lm

# Unit tests always run under AddressSanitizer and UBSan.
$(SAN_O)/%.o: %.c $(HDRS) VERSION
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC-SAN  $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(SAN_FLAGS) -c -o $@ $<

$(SAN_O)/libbm.a: $(LIB_SRC:%.c=$(SAN_O)/%.o)
	rm -f $@ && ar rcs $@ $^

# libbm.a last: the bmctl objects a test links (below) call into it
$(SAN_O)/tests/unit/%: $(SAN_O)/tests/unit/%.o $(TEST_HELPERS:%.c=$(SAN_O)/%.o) $(SAN_O)/libbm.a
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $(filter-out %.a,$^) $(filter %.a,$^) $(CHECK_LIBS) $(UNIT_LIBS) $(PKG_LIBS) -lm

# bmctl is no library: its tests link the file they test
$(SAN_O)/tests/unit/bmctl/test_profile: $(SAN_O)/user/bmctl/profile.o
$(VG_O)/tests/unit/bmctl/test_profile: $(VG_O)/user/bmctl/profile.o
$(SAN_O)/tests/unit/bmctl/test_goal: $(addprefix $(SAN_O)/user/bmctl/,goal.o profile.o)
$(VG_O)/tests/unit/bmctl/test_goal: $(addprefix $(VG_O)/user/bmctl/,goal.o profile.o)
$(SAN_O)/tests/unit/bmctl/test_compliance: $(SAN_O)/user/bmctl/compliance.o
$(VG_O)/tests/unit/bmctl/test_compliance: $(VG_O)/user/bmctl/compliance.o
$(SAN_O)/tests/unit/bmctl/test_html: $(addprefix $(SAN_O)/user/bmctl/,html.o chart.o page.o family_charts.o front.o rtable.o print.o \
	compliance.o schema.o schema_blob.o)
$(VG_O)/tests/unit/bmctl/test_html: $(addprefix $(VG_O)/user/bmctl/,html.o chart.o page.o family_charts.o front.o rtable.o print.o \
	compliance.o schema.o schema_blob.o)
$(SAN_O)/tests/unit/bmctl/test_front: $(addprefix $(SAN_O)/user/bmctl/,front.o compliance.o \
	schema.o schema_blob.o)
$(VG_O)/tests/unit/bmctl/test_front: $(addprefix $(VG_O)/user/bmctl/,front.o compliance.o \
	schema.o schema_blob.o)
$(SAN_O)/tests/unit/bmctl/test_summary: $(addprefix $(SAN_O)/user/bmctl/,summary.o front.o \
	compliance.o schema.o schema_blob.o)
$(VG_O)/tests/unit/bmctl/test_summary: $(addprefix $(VG_O)/user/bmctl/,summary.o front.o \
	compliance.o schema.o schema_blob.o)
$(SAN_O)/tests/unit/bmctl/test_compare: $(addprefix $(SAN_O)/user/bmctl/,compare.o compare_out.o chart.o page.o family_charts.o \
	html.o front.o rtable.o print.o compliance.o schema.o schema_blob.o)
$(VG_O)/tests/unit/bmctl/test_compare: $(addprefix $(VG_O)/user/bmctl/,compare.o compare_out.o chart.o page.o family_charts.o \
	html.o front.o rtable.o print.o compliance.o schema.o schema_blob.o)
$(SAN_O)/tests/unit/bmctl/% $(VG_O)/tests/unit/bmctl/%: UNIT_LIBS = $(BMCTL_YAML_LIBS)

# test_bmd makes json-c's deep copy fail on demand (a secret must stay
# hidden when memory runs out)
$(SAN_O)/tests/unit/daemon/test_bmd $(VG_O)/tests/unit/daemon/test_bmd: \
	UNIT_LIBS = -Wl,--wrap=json_object_deep_copy

UNIT_BINS := $(TEST_SRC:%.c=$(SAN_O)/%)

# The same tests without sanitizers, for Valgrind (make unit-valgrind):
# memcheck sees reads of heap bytes nobody wrote, which ASan cannot see
# inside an allocation, and the two cannot share one binary.
$(VG_O)/%.o: %.c $(HDRS) VERSION
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC-VG   $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(VG_O)/libbm.a: $(LIB_SRC:%.c=$(VG_O)/%.o)
	rm -f $@ && ar rcs $@ $^

$(VG_O)/tests/unit/%: $(VG_O)/tests/unit/%.o $(TEST_HELPERS:%.c=$(VG_O)/%.o) $(VG_O)/libbm.a
	$(CC) $(CFLAGS) -o $@ $(filter-out %.a,$^) $(filter %.a,$^) $(CHECK_LIBS) $(UNIT_LIBS) $(PKG_LIBS) -lm

VG_BINS := $(TEST_SRC:%.c=$(VG_O)/%)

# libFuzzer harnesses (tests/fuzz/fuzz_*.c, HACKING.md "Fuzzing"): clang
# (gcc has no libFuzzer) with ASan and UBSan over a clang build of libbm
# that carries the fuzzer's coverage instrumentation.  In this build the
# simulator refuses a frame-level trial of more than BM_SIM_MAX_FRAMES
# frames, so that a mutated trial duration costs a refusal, not minutes.
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_DEFS := -DBM_SIM_MAX_FRAMES=100000ULL
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_O)/%)

$(FUZZ_O)/%.o: %.c $(HDRS) VERSION
	@mkdir -p $(dir $@)
	$(if $(Q),@echo "  CC-FUZZ $<")
	$(Q)$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(FUZZ_DEFS) -c -o $@ $<

$(FUZZ_O)/libbm.a: $(LIB_SRC:%.c=$(FUZZ_O)/%.o)
	rm -f $@ && ar rcs $@ $^

$(FUZZ_O)/fuzz_%: $(FUZZ_O)/tests/fuzz/fuzz_%.o $(FUZZ_O)/tests/fuzz/util.o $(FUZZ_O)/libbm.a
	$(FUZZ_CC) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS) $(PKG_LIBS) -lm

.SECONDARY: $(FUZZ_SRC:%.c=$(FUZZ_O)/%.o) $(FUZZ_O)/tests/fuzz/util.o

# bmctl's profile reader is bmctl's, not libbm's
$(FUZZ_O)/fuzz_profile: $(FUZZ_O)/user/bmctl/profile.o
$(FUZZ_O)/fuzz_profile: FUZZ_LIBS = $(BMCTL_YAML_LIBS)

# --- kernel module -----------------------------------------------------------
# kbuild warnings fail the build too (the module builds without warnings)
module:
	@mkdir -p $(O)
	@$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod W=1 modules 2>&1 | tee $(O)/kbuild.log; \
	test $${PIPESTATUS[0]} -eq 0 && ! grep -q 'warning:' $(O)/kbuild.log
SHELL := /bin/bash

# --- tests -------------------------------------------------------------------
deps:
	@tools/install-deps

unit: $(CHECK_GATE) $(UNIT_BINS)
	@tools/run-unit $(UNIT_BINS)

# Every unit test binary once under Valgrind memcheck (slow: minutes)
unit-valgrind: $(CHECK_GATE) $(VG_BINS)
	@tools/run-unit --valgrind $(VG_BINS)

lab: all
	@tools/lab-run --name lab
	@tools/lab-run --hw --name lab-hw
	@tools/lab-run --pair --name lab-pair

# Each fuzzer for FUZZ_RUNS inputs, its seeds first (tools/run-fuzz):
# make check runs this too, so that the harnesses stay honest.
FUZZ_RUNS ?= 20000
fuzz-check: $(FUZZ_BINS)
	@tools/run-fuzz --runs $(FUZZ_RUNS) $(FUZZ_BINS)

# Each fuzzer for FUZZ_SECONDS; the corpus it grows stays in
# $(FUZZ_O)/corpus/, and goes into tests/fuzz/corpus/ with FUZZ_KEEP=1.
FUZZ_SECONDS ?= 60
fuzz: $(FUZZ_BINS)
	@tools/run-fuzz --seconds $(FUZZ_SECONDS) $(if $(FUZZ_KEEP),--keep) $(FUZZ_BINS)

# make check builds on every core: CI calls it with no -j (55 s of its 30
# minutes go to a serial build of the same)
NPROC := $(shell nproc 2>/dev/null || echo 1)

check: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all $(UNIT_BINS) $(FUZZ_BINS)
	@FUZZ_BINS="$(FUZZ_BINS)" FUZZ_RUNS=$(FUZZ_RUNS) tools/check-all $(UNIT_BINS)

# For iteration: the unit tests and the data-plane lab tests
# (tests/lab/dataplane/), one boot of about 2 min; the procedure tests
# only run in make check.
check-quick: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all $(UNIT_BINS)
	@LAB_TESTS="$(wildcard tests/lab/dataplane/*.sh)" tools/check-all $(UNIT_BINS)

# The data-plane lab tests and the fault test on a KASAN + lockdep +
# kmemleak guest kernel, built once from Debian's linux-source-6.1 and
# cached in ~/.cache/bmgen (tools/check-debug)
check-debug: deps
	@$(MAKE) --no-print-directory all
	@tools/check-debug

# The lab tests' pass rate, idle and under host stress (Documentation/lab.md):
# make lab-rate [N=20] [TESTS="dataplane/netem tests/lab/rfc2544/*.sh ..."]
N ?= 20
lab-rate: all
	@tools/lab-rate --repeat $(N) $(TESTS)

demo: deps
	@$(MAKE) --no-print-directory all
	@tools/demo

bench: deps
	@$(MAKE) --no-print-directory all $(O)/mlr_bench $(O)/mlr9971_bench \
		$(O)/b2b_bench
	@tools/bench

include install.mk

clean:
	rm -rf $(O) $(SAN_O) $(VG_O) $(FUZZ_O)
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/kmod clean >/dev/null 2>&1
