# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# rdma-addrinfo: top-level build.  See README.md.

KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	$(lastword $(sort $(wildcard /lib/modules/*/build))))
BUILD := $(CURDIR)/build
KSFT_DIR := $(BUILD)/kselftest
LINUX_TOOLS := $(BUILD)/linux-tools
LINUX_SOURCE_TAR := /usr/src/linux-source-6.1.tar.xz

# Files taken from the kernel source package at build time (never copied
# into the repository).
KSFT_HEADERS := $(KSFT_DIR)/kselftest_harness.h $(KSFT_DIR)/kselftest.h
CHECKPATCH := $(LINUX_TOOLS)/scripts/checkpatch.pl

.PHONY: all module user selftests deps style sparse check check-full check-host \
	check-vm check-debug fuzz coverage demo bench clean abi-check help module-install \
	dkms-install deb dkms-sources

# The one version of everything (module sources, packages, library): the
# latest debian/changelog entry.
VERSION := $(shell awk -F'[()]' 'NR == 1 { sub(/-[^-]*$$/, "", $$2); print $$2 }' \
	$(CURDIR)/debian/changelog)
DKMS_SRC := /usr/src/rdma-addrinfo-$(VERSION)
# Warnings are errors in the project's own module builds (and CI); the
# shipped Kbuild leaves them warnings, so a user's newer compiler cannot
# fail a DKMS build.
RAI_KCFLAGS := -Werror $(KCFLAGS)

all: module user selftests

help:
	@echo "make            build the module (KDIR=$(KDIR)), library, tool, tests"
	@echo "make deps       install the Debian packages everything needs"
	@echo "make demo       boot a VM with Soft-RoCE and show the module at work"
	@echo "make check      host unit tests + VM selftest suite (CI's matrix)"
	@echo "make check-full the same with every program in every mode (a release)"
	@echo "make check-debug the suite + fuzzer on a KASAN/kmemleak/lockdep kernel"
	@echo "make fuzz [SECONDS=N] the ABI fuzzer on the debug kernel (default 900)"
	@echo "make coverage   line coverage of kernel/ over the suite + a fuzz run"
	@echo "make style      checkpatch --strict over kernel/ and uapi/; unique"
	@echo "                function names (scripts/dup-names); no include loop in"
	@echo "                kernel/ (scripts/include-circles)"
	@echo "make sparse     build the module with sparse (C=2)"
	@echo "make module-install / dkms-install   install the module"
	@echo "make deb        Debian packages in build/deb (DKMS module, library, tools)"

deps:
	@$(CURDIR)/scripts/deps

module:
	@test -d "$(KDIR)" || { echo "no kernel build directory (KDIR); run 'make deps'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) KCFLAGS="$(RAI_KCFLAGS)" modules

$(KSFT_HEADERS) &:
	@test -f $(LINUX_SOURCE_TAR) || { echo "$(LINUX_SOURCE_TAR) missing; run 'make deps'" >&2; exit 1; }
	mkdir -p $(KSFT_DIR)
	tar -xJf $(LINUX_SOURCE_TAR) -C $(KSFT_DIR) --strip-components=4 \
		linux-source-6.1/tools/testing/selftests/kselftest_harness.h \
		linux-source-6.1/tools/testing/selftests/kselftest.h
	touch $(KSFT_HEADERS)

$(CHECKPATCH):
	@test -f $(LINUX_SOURCE_TAR) || { echo "$(LINUX_SOURCE_TAR) missing; run 'make deps'" >&2; exit 1; }
	mkdir -p $(LINUX_TOOLS)
	tar -xJf $(LINUX_SOURCE_TAR) -C $(LINUX_TOOLS) --strip-components=1 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
	touch $@

user: $(KSFT_HEADERS)
	@if [ -f user/Makefile ]; then $(MAKE) -C user KSFT_DIR=$(KSFT_DIR); fi

selftests: $(KSFT_HEADERS) test-kmod
	$(MAKE) -C selftests KSFT_DIR=$(KSFT_DIR) BUILD=$(BUILD)/selftests
	$(MAKE) -C selftests/world/sa BUILD=$(BUILD)/selftests/world/sa

# Test modules the VM selftests load (selftests/kmod), for KDIR like the
# module; never installed.
.PHONY: test-kmod
test-kmod:
	@test -d "$(KDIR)" || { echo "no kernel build directory (KDIR); run 'make deps'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR)/selftests/kmod modules

abi-check:
	$(MAKE) -C selftests abi-check BUILD=$(BUILD)/selftests

style: $(CHECKPATCH)
	@files=$$(git ls-files 'kernel/*.[ch]' 'uapi/*.h'); \
	$(CHECKPATCH) --strict --no-tree --quiet --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG \
		-f $$files && echo "style: clean"
	@scripts/dup-names
	@scripts/include-circles
	@scripts/call-circles
	@scripts/kshim-check $(KDIR)

sparse:
	@test -x "$$(command -v sparse)" || { echo "sparse missing; run 'make deps'" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 CF="-D__CHECK_ENDIAN__" \
		KCFLAGS="$(RAI_KCFLAGS)" modules 2>&1 | \
		tee $(BUILD)/sparse.log; \
	! grep -E 'warning|error' $(BUILD)/sparse.log

check: all
	@mkdir -p $(BUILD)
	@selftests/check $(BUILD)

# Every program in every mode: each library program also under valgrind,
# each preloaded twin, each ioctl program also as i386, the debug lane with
# the whole suite (make check runs the subset that finds something new).
check-full: all
	@mkdir -p $(BUILD)
	@RAI_CHECK_FULL=1 RAI_CHECK_DEBUG=1 selftests/check $(BUILD)

check-host: all
	@selftests/check --host-only $(BUILD)

check-vm: all
	@selftests/check --vm-only $(BUILD)

# The debug lane: the whole suite and the fuzzer on a KASAN, kmemleak,
# lockdep and UBSAN build of Debian's 6.1 kernel (scripts/debug-kernel;
# ~15 min to build the first time, cached in /var/cache/rdma-addrinfo).
check-debug: all
	@selftests/check-debug $(FUZZ_SECONDS)

# The fuzzer alone on the debug kernel: make fuzz SECONDS=3600 for a soak.
SECONDS ?= 900
fuzz: all
	@selftests/check-debug --fuzz-only $(SECONDS)

# Line coverage of kernel/ (gcov of the module on the debug kernel) over the
# VM suite and a fuzz run of FUZZ_SECONDS (default 60), per file.
coverage: all
	@scripts/coverage $(FUZZ_SECONDS)

demo: all
	selftests/world/run -- selftests/world/demo

# Cost of a resolution through the module against librdmacm and glibc,
# measured in the VM in one run (ratios, not absolute times, matter).
# BASE=COMMIT: the per-call rows only, beside COMMIT's in the same boot
# (scripts/bench-base), each row's new/base ratio; run it before landing a
# change to the request path.
bench: all
ifeq ($(BASE),)
	$(MAKE) -C selftests bench BUILD=$(BUILD)/selftests
	selftests/world/run -- selftests/bench/run $(BUILD)/selftests/bench/addrinfo_bench $(BENCH_ARGS)
else
	scripts/bench-base $(BASE) $(BENCH_ROUNDS)
endif

module-install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $$(modinfo -F vermagic rdma_addrinfo.ko | cut -d' ' -f1)

# The module's sources as DKMS builds them (also rdma-addrinfo-dkms's).
DKMS_FILES := Kbuild $(wildcard kernel/*.[ch] uapi/rdma/*.h)
dkms-sources:
	install -d $(DESTDIR)$(DKMS_SRC)
	for f in $(DKMS_FILES); do install -D -m 0644 $$f $(DESTDIR)$(DKMS_SRC)/$$f; done

# Install the sources for DKMS, which rebuilds the module for every kernel
# installed later (the Debian packages do this too: make deb).
dkms-install:
	rm -rf $(DKMS_SRC)
	$(MAKE) dkms-sources DESTDIR=
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf > $(DKMS_SRC)/dkms.conf
	install -D -m 0644 debian/rdma-addrinfo-dkms.udev \
		/etc/udev/rules.d/60-rdma-addrinfo.rules
	dkms add rdma-addrinfo/$(VERSION)
	dkms build rdma-addrinfo/$(VERSION)
	dkms install rdma-addrinfo/$(VERSION)

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	@if [ -f user/Makefile ]; then $(MAKE) -C user clean; fi
	rm -rf $(BUILD)

# Debian packages from this tree (dpkg-buildpackage, debhelper, dh-dkms),
# written to build/deb rather than the checkout's parent directory, then
# checked with lintian.
DEB_DIR := $(BUILD)/deb
deb:
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)
	RAI_DEB_DIR=$(DEB_DIR) dpkg-buildpackage -b -us -uc -tc \
		--buildinfo-option=-u$(DEB_DIR) --changes-option=-u$(DEB_DIR) \
		--buildinfo-file=$(DEB_DIR)/rdma-addrinfo_$(VERSION)_$$(dpkg --print-architecture).buildinfo \
		--changes-file=$(DEB_DIR)/rdma-addrinfo_$(VERSION)_$$(dpkg --print-architecture).changes
	lintian --fail-on error $(DEB_DIR)/*.changes
	@ls $(DEB_DIR)/*.deb

# Build the module for every kernel of the compatibility matrix (Debian
# 6.1, 6.12, 7.3) and say which were built.
.PHONY: compat-check
compat-check:
	@scripts/compat-check
