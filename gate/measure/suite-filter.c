/*
 * A suite's cases through the harness's own filter: the command that runs
 * only some cases (gbench --benchmark_filter, go -bench with an anchored
 * pattern, pytest -k through PYTEST_ADDOPTS, the lines protocol's and a
 * hyperfine wrapper's GATE_FILTER), for the adaptive rounds and the
 * shards (gate/measure/suite-filter.h).
 */
#include "gate/measure/suite-filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "gate/format/format.h"
#include "common/banned.h"

int suite_can_filter(const struct bench_cfg *cfg)
{
	return cfg->format == FORMAT_GBENCH || cfg->format == FORMAT_GOTEST ||
	       cfg->format == FORMAT_LINES || cfg->format == FORMAT_PYTEST ||
	       cfg->format == FORMAT_HYPERFINE;
}

struct strbuf_lite {
	char *buf;
	size_t len, cap;
};

static void sb_add(struct strbuf_lite *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = 2 * (b->len + n + 1);
		b->buf = xrealloc(b->buf, b->cap);
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

static void sb_str(struct strbuf_lite *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

/* s (n bytes) with every ERE special character escaped, onto b. */
static void ere_escape(struct strbuf_lite *b, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strchr("\\.[]()*+?{}|^$", s[i]))
			sb_add(b, "\\", 1);
		sb_add(b, &s[i], 1);
	}
}

/* The length of s's "-N" suffix (a GOMAXPROCS count), 0 when none. */
static size_t procs_suffix(const char *s, size_t len)
{
	size_t k = len;

	while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
		k--;
	return k > 1 && k < len && s[k - 1] == '-' ? len - k + 1 : 0;
}

/*
 * A go case's top-level benchmark: "BenchmarkX/sub-8" -> "BenchmarkX"
 * (the -GOMAXPROCS suffix dropped when there is no sub-benchmark).
 */
size_t suite_go_top(const char *name)
{
	size_t n = strcspn(name, "/");

	return name[n] == '/' ? n : n - procs_suffix(name, n);
}

/* Whether go cases a and b share their top-level benchmark (of a: len). */
static int same_top(const char *a, const char *b, size_t len)
{
	return suite_go_top(b) == len && !strncmp(a, b, len);
}

/* "^(a|b)$": names, escaped. */
static char *anchored(const char *const *names, size_t n)
{
	struct strbuf_lite b = { NULL, 0, 0 };
	size_t i;

	sb_str(&b, "^(");
	for (i = 0; i < n; i++) {
		if (i)
			sb_str(&b, "|");
		ere_escape(&b, names[i], strlen(names[i]));
	}
	sb_str(&b, ")$");
	return b.buf;
}

/* A sub-benchmark's last element (len bytes) as go's -bench takes it:
   itself, or without a "-N" suffix the reader kept (several counts). */
static void go_last(struct strbuf_lite *b, const char *s, size_t len)
{
	size_t cut = procs_suffix(s, len);

	ere_escape(b, s, len);
	if (cut) {
		sb_str(b, "|");
		ere_escape(b, s, len - cut);
	}
}

/* Whether a go case's name past its top-level part (rest) has one
   element: "BenchmarkX/48B" yes, "BenchmarkX/a/b" no. */
static int one_level(const char *rest)
{
	return *rest == '/' && !strchr(rest + 1, '/');
}

char *suite_go_pattern(const char *const *names, size_t n)
{
	struct strbuf_lite b = { NULL, 0, 0 };
	size_t i, j, alts = 0;

	for (i = 0; i < n && !strchr(names[i], '/'); i++)
		;
	if (i == n) {	/* top-level names only: the pattern any go takes */
		sb_str(&b, "^(");
		for (i = 0; i < n; i++) {
			size_t len = suite_go_top(names[i]);
			int dup = 0;

			for (j = 0; j < i; j++)
				dup |= same_top(names[i], names[j], len);
			if (dup)
				continue;
			if (b.len > 2)
				sb_str(&b, "|");
			ere_escape(&b, names[i], len);
		}
		sb_str(&b, ")$");
		return b.buf;
	}
	/* each top-level name once: whole, its sub-benchmarks, or paths */
	for (i = 0; i < n; i++) {
		size_t len = suite_go_top(names[i]);
		int dup = 0, whole = 0, flat = 1, subs = 0;

		for (j = 0; j < i; j++)
			dup |= same_top(names[i], names[j], len);
		if (dup)
			continue;
		for (j = i; j < n; j++) {
			if (!same_top(names[i], names[j], len))
				continue;
			whole |= names[j][len] != '/';
			flat &= one_level(names[j] + len);
		}
		if (whole || flat) {
			sb_str(&b, alts++ ? "|^" : "^");
			ere_escape(&b, names[i], len);
			sb_str(&b, "$");
		}
		if (whole)
			continue;
		if (flat)
			sb_str(&b, "/^(");
		for (j = i; j < n; j++) {
			const char *s = names[j] + len, *e;

			if (!same_top(names[i], names[j], len))
				continue;
			if (flat) {
				if (subs++)
					sb_str(&b, "|");
				go_last(&b, s + 1, strlen(s + 1));
				continue;
			}
			/* a path of its own: ^Top$/^a$/^(b|b without -N)$ */
			sb_str(&b, alts++ ? "|^" : "^");
			ere_escape(&b, names[j], len);
			sb_str(&b, "$");
			for (s++; (e = strchr(s, '/')); s = e + 1) {
				sb_str(&b, "/^");
				ere_escape(&b, s, (size_t)(e - s));
				sb_str(&b, "$");
			}
			sb_str(&b, "/^(");
			go_last(&b, s, strlen(s));
			sb_str(&b, ")$");
		}
		if (flat)
			sb_str(&b, ")$");
	}
	return b.buf;
}

/* A character pytest's -k takes in a name (7.x: word characters and
   :+-.[]\\/). */
static int k_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_:+-.[]\\/", c);
}

/*
 * Component s (n bytes) as a -k name onto b: whole when pytest takes it,
 * else cut before its parameters or the first character it does not take
 * ("test_f[a b]" -> "test_f": -k matches by substring, so a prefix
 * selects more, never fewer). 0 when nothing is left.
 */
static int k_word(struct strbuf_lite *b, const char *s, size_t n)
{
	static const char *const reserved[] = { "and", "or", "not" };
	size_t i, cut = 0, k;

	while (cut < n && k_char(s[cut]))
		cut++;
	if (cut < n)	/* not whole: up to the parameters at most */
		for (i = 0; i < cut; i++)
			if (s[i] == '[') {
				cut = i;
				break;
			}
	for (k = 0; k < 3; k++)
		if (cut == strlen(reserved[k]) && !strncmp(s, reserved[k], cut))
			cut = 0;
	sb_add(b, s, cut);
	return cut > 0;
}

/*
 * pytest's -k expression selecting the node ids names[0..n) ("dir/t.py::
 * TestA::test_f[1]" -> "(t.py and TestA and test_f[1])"), or NULL when
 * one cannot be written (every case runs: more, never fewer). -k matches
 * by substring, so it may select more, which a round ignores.
 */
static char *pytest_k(const char *const *names, size_t n)
{
	struct strbuf_lite b = { NULL, 0, 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		const char *s = names[i], *sep, *slash;
		int words = 0, first = 1;

		sb_str(&b, i ? " or (" : "(");
		for (;; s = sep + 2, first = 0) {
			size_t len, mark = b.len;

			sep = strstr(s, "::");
			len = sep ? (size_t)(sep - s) : strlen(s);
			/* the module by its file name: the node -k matches */
			while (first && (slash = memchr(s, '/', len))) {
				len -= (size_t)(slash + 1 - s);
				s = slash + 1;
			}
			if (words)
				sb_str(&b, " and ");
			if (k_word(&b, s, len)) {
				words++;
			} else {
				b.len = mark;
				b.buf[b.len] = '\0';
			}
			if (!sep)
				break;
		}
		if (!words) {
			free(b.buf);
			return NULL;
		}
		sb_str(&b, ")");
	}
	return b.buf;
}

/* s in single quotes for sh. */
static void sh_quote(struct strbuf_lite *b, const char *s)
{
	sb_str(b, "'");
	for (; *s; s++)
		if (*s == '\'')
			sb_str(b, "'\\''");
		else
			sb_add(b, s, 1);
	sb_str(b, "'");
}

/*
 * The filter for names into out; outer: a filter already in the
 * environment wins (a round of more pairs inside a shard's cases).
 */
static void filter_cmd(struct bench_cfg *out, const struct bench_cfg *cfg,
		       const char *const *names, size_t n, int outer)
{
	char *re = cfg->format == FORMAT_GOTEST ? suite_go_pattern(names, n) :
		   anchored(names, n), *flag = NULL;
	struct strbuf_lite sh = { NULL, 0, 0 };
	size_t i, argc = 0;
	int test_binary = 0;

	*out = *cfg;
	out->run.argv = NULL;
	out->run.shell = NULL;
	for (i = 0; cfg->run.argv && cfg->run.argv[i]; i++) {
		argc++;
		test_binary |= !strncmp(cfg->run.argv[i], "-test.", 6);
	}
	if (cfg->format == FORMAT_GBENCH)
		flag = xasprintf("--benchmark_filter=%s", re);
	else if (cfg->format == FORMAT_GOTEST)
		flag = xasprintf("%s=%s", test_binary ? "-test.bench" :
				 "-bench", re);
	if (flag && cfg->run.argv) {
		/* the harness's flag last: a later flag wins */
		out->run.argv = xcalloc(argc + 2, sizeof(char *));
		for (i = 0; i < argc; i++)
			out->run.argv[i] = xstrdup(cfg->run.argv[i]);
		out->run.argv[argc] = flag;
		free(re);
		return;
	}
	/* a shell, or the lines protocol: GATE_FILTER in the environment */
	sb_str(&sh, outer ? "GATE_FILTER=${GATE_FILTER-" : "GATE_FILTER=");
	sh_quote(&sh, re);
	sb_str(&sh, outer ? "}; export GATE_FILTER; " :
	       "; export GATE_FILTER; ");
	if (cfg->format == FORMAT_PYTEST) {
		/*
		 * pytest reads -k from PYTEST_ADDOPTS however it is started
		 * (a wrapper printing its --benchmark-json file too); put
		 * before the command line, so the suite's own -k wins
		 */
		char *k = pytest_k(names, n);

		if (k) {
			char *opt = xasprintf("-k '%s' ", k);

			sb_str(&sh, "PYTEST_ADDOPTS=");
			sh_quote(&sh, opt);
			sb_str(&sh, "\"${PYTEST_ADDOPTS-}\"; export "
			       "PYTEST_ADDOPTS; ");
			free(opt);
			free(k);
		}
	}
	if (cfg->run.shell) {
		sb_str(&sh, cfg->run.shell);
	} else {
		sb_str(&sh, "exec");
		for (i = 0; i < argc; i++) {
			sb_str(&sh, " ");
			sh_quote(&sh, cfg->run.argv[i]);
		}
	}
	if (flag) {
		sb_str(&sh, " ");
		sh_quote(&sh, flag);
	}
	out->run.shell = sh.buf;
	free(flag);
	free(re);
}

void suite_filter_cmd(struct bench_cfg *out, const struct bench_cfg *cfg,
		      const char *const *names, size_t n)
{
	filter_cmd(out, cfg, names, n, 0);
}

void suite_shard_cmd(struct bench_cfg *out, const struct bench_cfg *cfg,
		     const char *const *names, size_t n)
{
	filter_cmd(out, cfg, names, n, 1);
}

void suite_filter_release(struct bench_cfg *out)
{
	size_t i;

	for (i = 0; out->run.argv && out->run.argv[i]; i++)
		free(out->run.argv[i]);
	free(out->run.argv);
	free(out->run.shell);
	out->run.argv = NULL;
	out->run.shell = NULL;
}
