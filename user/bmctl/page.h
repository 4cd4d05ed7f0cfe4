/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every self-contained HTML page of bmctl shares (page.c).
 */
#ifndef BMCTL_PAGE_H
#define BMCTL_PAGE_H

#include <stdio.h>

/* s escaped for HTML's text and attribute values, to f. */
void html_esc(FILE *f, const char *s);

/* A self-contained page's start to f: its title, the style every bmctl
 * page shares with css's rules after it, the body opened. */
void html_head(FILE *f, const char *title, const char *css);

#endif /* BMCTL_PAGE_H */
