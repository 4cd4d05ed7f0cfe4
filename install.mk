# make install / uninstall (issue 15 item 1), included by the Makefile.
# DESTDIR stages, PREFIX places the programs and the manual (default /usr);
# the systemd units go where Debian keeps them (/lib/systemd/system), the
# module under /lib/modules/KVER/updates (depmod run on the staging root),
# and its source with dkms.conf under PREFIX/src/bmgen-VERSION for
# `dkms install bmgen/VERSION` (every installed kernel, AUTOINSTALL).
PREFIX ?= /usr
SBINDIR := $(PREFIX)/sbin
MANDIR := $(PREFIX)/share/man/man8
COMPDIR := $(PREFIX)/share/bash-completion/completions
UNITDIR := /lib/systemd/system
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
	install -D -m 644 tools/bmd.service $(DESTDIR)$(UNITDIR)/bmd.service
	install -D -m 644 tools/bmd.socket $(DESTDIR)$(UNITDIR)/bmd.socket
	install -D -m 644 $(O)/man/bmctl.8.gz $(DESTDIR)$(MANDIR)/bmctl.8.gz
	install -D -m 644 $(O)/man/bmd.8.gz $(DESTDIR)$(MANDIR)/bmd.8.gz
	install -D -m 644 tools/bmctl.bash-completion $(DESTDIR)$(COMPDIR)/bmctl
	install -D -m 644 kmod/bmgen.ko $(DESTDIR)$(MODDIR)/bmgen.ko
	depmod $(if $(DESTDIR),-b $(DESTDIR)) $(KVER)

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
		$(DESTDIR)$(UNITDIR)/bmd.service $(DESTDIR)$(UNITDIR)/bmd.socket \
		$(DESTDIR)$(MANDIR)/bmctl.8.gz $(DESTDIR)$(MANDIR)/bmd.8.gz \
		$(DESTDIR)$(COMPDIR)/bmctl $(DESTDIR)$(MODDIR)/bmgen.ko
	rm -rf $(DESTDIR)$(SRCDIR)
	-depmod $(if $(DESTDIR),-b $(DESTDIR)) $(KVER)
	$(if $(DESTDIR),rm -f $(DESTDIR)/lib/modules/$(KVER)/modules.*)
	$(if $(DESTDIR),find $(DESTDIR) -mindepth 1 -depth -type d -empty -delete)

.PHONY: man install-dkms uninstall
