// SPDX-License-Identifier: GPL-2.0
/* Atomic result files and the CSV trial log (bm_store.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bm_store.h"

static int fail(struct bm_error *err, int e, const char *what,
		const char *path)
{
	bm_errorf(err, "%s %s: %s", what, path, strerror(e));
	return -e;
}

int bm_write_atomic_mode(const char *dir, const char *name, const char *data,
			 size_t len, mode_t mode, struct bm_error *err)
{
	char tmp[PATH_MAX], dst[PATH_MAX];
	int fd, dfd, e;

	if (snprintf(dst, sizeof(dst), "%s/%s", dir, name) >= (int)sizeof(dst) ||
	    snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) >=
	    (int)sizeof(tmp))
		return fail(err, ENAMETOOLONG, "path", dir);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return fail(err, errno, "create", tmp);
	while (len) {
		ssize_t w = write(fd, data, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			goto err_close;
		data += w;
		len -= w;
	}
	/* fsync before rename: otherwise a crash can leave the new name
	 * pointing at an empty file, which is worse than the old one. */
	if (fsync(fd))
		goto err_close;
	/* mkostemp gave 0600; the final mode is set before the name
	 * appears, so no reader ever sees a wider one. */
	if (fchmod(fd, mode))
		goto err_close;
	if (close(fd)) {
		fd = -1;
		goto err_close;
	}
	if (rename(tmp, dst)) {
		e = errno;
		unlink(tmp);
		return fail(err, e, "rename to", dst);
	}
	/* And the directory, so that the rename itself is durable. */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;

err_close:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return fail(err, e, "write", tmp);
}

int bm_write_atomic(const char *dir, const char *name, const char *data,
		    size_t len, struct bm_error *err)
{
	return bm_write_atomic_mode(dir, name, data, len, 0644, err);
}

int bm_write_json_atomic_mode(const char *dir, const char *name,
			      json_object *o, mode_t mode,
			      struct bm_error *err)
{
	const char *s;
	size_t n;
	char *buf;
	int ret;

	s = json_object_to_json_string_length(o, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE,
					      &n);
	if (!s)
		return fail(err, ENOMEM, "serialise", name);
	buf = malloc(n + 1);
	if (!buf)
		return fail(err, ENOMEM, "serialise", name);
	memcpy(buf, s, n);
	buf[n] = '\n';
	ret = bm_write_atomic_mode(dir, name, buf, n + 1, mode, err);
	free(buf);
	return ret;
}

int bm_write_json_atomic(const char *dir, const char *name, json_object *o,
			 struct bm_error *err)
{
	return bm_write_json_atomic_mode(dir, name, o, 0644, err);
}

json_object *bm_read_json(const char *path, int *code, struct bm_error *err)
{
	json_object *o;
	int e = 0;

	if (access(path, R_OK)) {
		e = errno;
		bm_errorf(err, "%s: %s", path, strerror(e));
	} else {
		o = json_object_from_file(path);
		if (o)
			return o;
		e = EBADMSG;
		bm_errorf(err, "%s: not valid JSON", path);
	}
	if (code)
		*code = e;
	return NULL;
}

int bm_mkdirs(const char *path, struct bm_error *err)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return fail(err, ENAMETOOLONG, "path", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return fail(err, errno, "mkdir", buf);
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return fail(err, errno, "mkdir", buf);
	return 0;
}

/* --- CSV ---------------------------------------------------------------- */

void bm_json_flatten(json_object *o, const char *prefix, json_object *flat)
{
	char key[256];

	json_object_object_foreach(o, k, v) {
		if (prefix)
			snprintf(key, sizeof(key), "%s.%s", prefix, k);
		else
			snprintf(key, sizeof(key), "%s", k);
		if (json_object_is_type(v, json_type_object))
			bm_json_flatten(v, key, flat);
		else
			json_object_object_add(flat, key, json_object_get(v));
	}
}

void bm_csv_field(FILE *f, const char *s, bool quoted)
{
	if (!quoted && !strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static const char *csv_value(json_object *v)
{
	if (!v)
		return "";
	if (json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

char *bm_result_csv(json_object *result)
{
	json_object *trials = NULL, *rows, *cols;
	size_t i, j, n = 0;
	char *out = NULL;
	size_t outlen;
	FILE *f;

	if (json_object_object_get_ex(result, "trials", &trials) &&
	    json_object_is_type(trials, json_type_array))
		n = json_object_array_length(trials);
	rows = json_object_new_array();
	cols = json_object_new_object();	/* ordered set of names */
	f = open_memstream(&out, &outlen);
	if (!rows || !cols || !f)
		goto out;
	for (i = 0; i < n; i++) {
		json_object *t = json_object_array_get_idx(trials, i);
		json_object *flat = json_object_new_object();

		if (json_object_is_type(t, json_type_object))
			bm_json_flatten(t, NULL, flat);
		json_object_object_foreach(flat, k, v) {
			(void)v;
			if (!json_object_object_get_ex(cols, k, NULL))
				json_object_object_add(cols, k, NULL);
		}
		json_object_array_add(rows, flat);
	}
	j = 0;
	json_object_object_foreach(cols, name, unused) {
		(void)unused;
		if (j++)
			fputc(',', f);
		bm_csv_field(f, name, false);
	}
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		json_object *flat = json_object_array_get_idx(rows, i);

		j = 0;
		json_object_object_foreach(cols, name2, unused2) {
			json_object *v = NULL;

			(void)unused2;
			json_object_object_get_ex(flat, name2, &v);
			if (j++)
				fputc(',', f);
			bm_csv_field(f, csv_value(v), false);
		}
		fputc('\n', f);
	}
out:
	if (f)
		fclose(f);
	json_object_put(rows);
	json_object_put(cols);
	return out;
}
