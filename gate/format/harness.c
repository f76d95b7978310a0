/*
 * What the readers' harness hooks share: a growing string, a name list as
 * an anchored POSIX extended regex, the hook of a harness that reads
 * GATE_FILTER alone, and the release of what a hook filled.
 */
#include "gate/format/format.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/banned.h"

void fmt_buf_add(struct fmt_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = 2 * (b->len + n + 1);
		b->buf = xrealloc(b->buf, b->cap);
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

void fmt_buf_str(struct fmt_buf *b, const char *s)
{
	fmt_buf_add(b, s, strlen(s));
}

void fmt_ere_escape(struct fmt_buf *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strchr("\\.[]()*+?{}|^$", s[i]))
			fmt_buf_add(b, "\\", 1);
		fmt_buf_add(b, &s[i], 1);
	}
}

char *fmt_anchored(const char *const *names, size_t n)
{
	struct fmt_buf b = FMT_BUF_INIT;
	size_t i;

	fmt_buf_str(&b, "^(");
	for (i = 0; i < n; i++) {
		if (i)
			fmt_buf_str(&b, "|");
		fmt_ere_escape(&b, names[i], strlen(names[i]));
	}
	fmt_buf_str(&b, ")$");
	return b.buf;
}

void fmt_select_gate_filter(struct fmt_cmd_edit *e, char *const *argv,
			    const char *shell, const char *const *names,
			    size_t n)
{
	(void)argv;
	(void)shell;
	e->filter = fmt_anchored(names, n);
}

void fmt_list_gate_list(struct fmt_cmd_edit *e, char *const *argv,
			const char *shell)
{
	(void)e;
	(void)argv;
	(void)shell;
}

void fmt_names_bench_list(const char *out, size_t len,
			  void (*add)(void *ctx, const char *name, size_t len),
			  void *ctx)
{
	const char *p = out, *end = out + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n;

		if (!eol)
			eol = end;
		n = (size_t)(eol - p);
		if (n && p[n - 1] == '\r')
			n--;
		if (n > 7 && !memcmp(p + n - 7, ": bench", 7))
			add(ctx, p, n - 7);
		p = eol + 1;
	}
}

int fmt_argv_has_prefix(char *const *argv, const char *prefix)
{
	size_t i, k = strlen(prefix);

	for (i = 0; argv && argv[i]; i++)
		if (!strncmp(argv[i], prefix, k))
			return 1;
	return 0;
}

void fmt_cmd_edit_arg(struct fmt_cmd_edit *e, char *arg)
{
	e->args = xrealloc(e->args, (e->nargs + 1) * sizeof(*e->args));
	e->args[e->nargs++] = arg;
}

void fmt_cmd_edit_release(struct fmt_cmd_edit *e)
{
	size_t i;

	for (i = 0; i < e->nargs; i++)
		free(e->args[i]);
	free(e->args);
	free(e->filter);
	free(e->env_value);
	memset(e, 0, sizeof(*e));
}
