// SPDX-License-Identifier: GPL-2.0
/*
 * What every self-contained HTML page of bmctl shares (report, compare,
 * and the charts in them): escaping and the page's start with its style.
 */
#include <stdio.h>

#include "page.h"

void html_esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

void html_head(FILE *f, const char *title, const char *css)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<title>", f);
	html_esc(f, title);
	/* prose stays narrow; a wide result table may run past it */
	fputs("</title><style>body{font:14px sans-serif;margin:2em}p,ul{"
	      "max-width:60em}table{border-collapse:collapse;margin:.5em 0;"
	      "display:block;max-width:100%;overflow-x:auto}td,th{border:"
	      "1px solid #ccc;padding:2px 8px;text-align:left}th{background:"
	      "#f4f4f4}figure{margin:1em 0}.dry{background:#fff3cd;border:1px "
	      "solid #e0b000;padding:.4em .8em;font-weight:bold;max-width:"
	      "60em}.headline li{font-size:15px}", f);
	fputs(css, f);
	fputs("</style></head><body>\n", f);
}
