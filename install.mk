# make install / uninstall, included by the Makefile.
# The configuration /etc/bmgen/bmd.conf is a conffile: installed only where
# there is none, removed only as installed.  bmd's user and group come from
# sysusers.d/bmgen.conf: `make install` runs systemd-sysusers on the live
# system (no DESTDIR); a package runs it in its postinst (dh_installsysusers).
# DESTDIR stages, PREFIX places the programs and the manual (default /usr);
# the programs are bmd, bmctl and the two raw instruments over libbm that
# bmd(8), bmctl(8) and README.md send an engineer to (bmgen-trial,
# bmgen-traffic: root's, as the module's requests are CAP_NET_ADMIN's);
# the lab's harnesses of tests/tools stay in build/;
# the systemd units go where Debian keeps them (/lib/systemd/system), the
# module under /lib/modules/KVER/updates (depmod run on the staging root),
# and its source with dkms.conf under PREFIX/src/bmgen-VERSION for
# `dkms install bmgen/VERSION` (every installed kernel, AUTOINSTALL).
PREFIX ?= /usr
SBINDIR := $(PREFIX)/sbin
MANDIR := $(PREFIX)/share/man/man8
COMPDIR := $(PREFIX)/share/bash-completion/completions
PROFILEDIR := $(PREFIX)/share/bmgen/profiles
UNITDIR := /lib/systemd/system
SYSUSERSDIR := $(PREFIX)/lib/sysusers.d
CONFDIR := /etc/bmgen
SRCDIR := $(PREFIX)/src/bmgen-$(BM_VERSION)
MODDIR := /lib/modules/$(KVER)/updates

MAN_PAGES := $(O)/man/bmctl.8.gz $(O)/man/bmd.8.gz

# man pages: real roff from the Markdown sources (Debian's lowdown)
$(O)/man/%.8.gz: Documentation/%.8.md tools/mkman VERSION
	@mkdir -p $(dir $@)
	tools/mkman $< $(BM_VERSION) | gzip -9n > $@

man: $(MAN_PAGES)

install: all man install-dkms
	install -D -m 755 $(O)/bmd $(DESTDIR)$(SBINDIR)/bmd
	install -D -m 755 $(O)/bmctl $(DESTDIR)$(SBINDIR)/bmctl
	install -D -m 755 $(O)/bmgen-trial $(DESTDIR)$(SBINDIR)/bmgen-trial
	install -D -m 755 $(O)/bmgen-traffic $(DESTDIR)$(SBINDIR)/bmgen-traffic
	install -D -m 644 tools/bmd.service $(DESTDIR)$(UNITDIR)/bmd.service
	install -D -m 644 tools/bmd.socket $(DESTDIR)$(UNITDIR)/bmd.socket
	install -D -m 644 $(O)/man/bmctl.8.gz $(DESTDIR)$(MANDIR)/bmctl.8.gz
	install -D -m 644 $(O)/man/bmd.8.gz $(DESTDIR)$(MANDIR)/bmd.8.gz
	install -D -m 644 tools/bmctl.bash-completion $(DESTDIR)$(COMPDIR)/bmctl
	install -d $(DESTDIR)$(PROFILEDIR)
	install -m 644 profiles/*.json $(DESTDIR)$(PROFILEDIR)/
	install -D -m 644 kmod/bmgen.ko $(DESTDIR)$(MODDIR)/bmgen.ko
	depmod $(if $(DESTDIR),-b $(DESTDIR)) $(KVER)
	install -D -m 644 tools/bmgen.sysusers $(DESTDIR)$(SYSUSERSDIR)/bmgen.conf
	@# a conffile: the example only where there is no file yet
	@if [ -e $(DESTDIR)$(CONFDIR)/bmd.conf ]; then \
		echo "install: keeping $(DESTDIR)$(CONFDIR)/bmd.conf (the example: tools/bmd.conf)"; \
	else \
		install -D -m 644 tools/bmd.conf $(DESTDIR)$(CONFDIR)/bmd.conf; \
	fi
	@# bmd's user and group: on the live system only; a staging root
	@# (DESTDIR) gets them when its packages are installed
	$(if $(DESTDIR),,-systemd-sysusers $(SYSUSERSDIR)/bmgen.conf)

# the module's source for DKMS: kmod/, the uapi header it includes
install-dkms:
	install -d $(DESTDIR)$(SRCDIR)/kmod $(DESTDIR)$(SRCDIR)/include/uapi/linux
	install -m 644 kmod/Kbuild kmod/*.c kmod/*.h $(DESTDIR)$(SRCDIR)/kmod/
	install -m 644 include/uapi/linux/bmgen.h \
		$(DESTDIR)$(SRCDIR)/include/uapi/linux/bmgen.h
	install -m 644 VERSION $(DESTDIR)$(SRCDIR)/VERSION
	sed 's/@VERSION@/$(BM_VERSION)/g' dkms.conf.in > $(DESTDIR)$(SRCDIR)/dkms.conf

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/bmd $(DESTDIR)$(SBINDIR)/bmctl \
		$(DESTDIR)$(SBINDIR)/bmgen-trial $(DESTDIR)$(SBINDIR)/bmgen-traffic \
		$(DESTDIR)$(UNITDIR)/bmd.service $(DESTDIR)$(UNITDIR)/bmd.socket \
		$(DESTDIR)$(MANDIR)/bmctl.8.gz $(DESTDIR)$(MANDIR)/bmd.8.gz \
		$(DESTDIR)$(COMPDIR)/bmctl $(DESTDIR)$(MODDIR)/bmgen.ko \
		$(DESTDIR)$(SYSUSERSDIR)/bmgen.conf
	rm -rf $(DESTDIR)$(PROFILEDIR)
	@# the configuration goes only as it was installed; the user stays
	@# (Debian never removes a system user: files may still be its)
	@if cmp -s tools/bmd.conf $(DESTDIR)$(CONFDIR)/bmd.conf; then \
		rm -f $(DESTDIR)$(CONFDIR)/bmd.conf; \
	elif [ -e $(DESTDIR)$(CONFDIR)/bmd.conf ]; then \
		echo "uninstall: keeping $(DESTDIR)$(CONFDIR)/bmd.conf (changed)"; \
	fi
	rm -rf $(DESTDIR)$(SRCDIR)
	-depmod $(if $(DESTDIR),-b $(DESTDIR)) $(KVER)
	$(if $(DESTDIR),rm -f $(DESTDIR)/lib/modules/$(KVER)/modules.*)
	$(if $(DESTDIR),find $(DESTDIR) -mindepth 1 -depth -type d -empty -delete)

.PHONY: man install-dkms uninstall
