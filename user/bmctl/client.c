// SPDX-License-Identifier: GPL-2.0
/* bmctl: talking to bmd, with bmctl's error reporting. */
#include <stdio.h>

#include "bmctl.h"

int connect_bmd(struct bm_client *c)
{
	struct bm_error err = { "" };

	if (bmctl_client_open(c, opts.host, &err))
		return failure("%s", err.msg);
	return 0;
}

int call_bmd(struct bm_client *c, json_object *req, json_object **resp)
{
	struct bm_error err = { "" };

	json_object *u = NULL;
	bool usage;
	int ret;

	ret = bm_client_call(c, req, resp, &err);
	json_object_put(req);
	if (ret) {
		/* bmd found the request wrong: a usage error, as if bmctl
		 * had (Documentation/protocol.md, "usage") */
		usage = *resp && json_object_object_get_ex(*resp, "usage", &u) &&
			json_object_get_boolean(u);
		json_object_put(*resp);
		*resp = NULL;
		return usage ? usage_error("%s", err.msg) :
			       failure("%s", err.msg);
	}
	return 0;
}

int ask_bmd(json_object *req, json_object **resp)
{
	struct bm_client c;
	int ret;

	*resp = NULL;
	ret = connect_bmd(&c);
	if (ret) {
		json_object_put(req);
		return ret;
	}
	ret = call_bmd(&c, req, resp);
	bm_client_close(&c);
	return ret;
}

json_object *request_new(const char *cmd)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "cmd", json_object_new_string(cmd));
	return o;
}
