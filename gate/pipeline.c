/*
 * The steps gate run and gate calibrate share: option parsing helpers,
 * reading gate.json from a revision, and building checkouts concurrently
 * with their logs kept for error messages.
 */
#include "gate/pipeline.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "gate/cmd.h"
#include "gate/exec/runner.h"
#include "gate/exec/signals.h"
#include "common/banned.h"

/* A whole number in [lo, hi] from an option argument. */
int pipeline_parse_count(long *out, const char *opt, const char *s, long lo,
		       long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		error("%s must be a whole number from %ld to %ld, got \"%s\"",
		      opt, lo, hi, s);
		return -1;
	}
	*out = v;
	return 0;
}

/* "90", "90s", "10m", "1.5h": a duration in seconds, positive and finite. */
int pipeline_parse_duration(double *out, const char *opt, const char *s)
{
	if (config_parse_duration(s, out) < 0) {
		error("%s must be a positive, finite duration such as 90s, "
		      "5m, 1h or 250ms, got \"%s\"", opt, s);
		return -1;
	}
	return 0;
}

unsigned long pipeline_seed(void)
{
	unsigned int v = 0;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		v = (unsigned int)time(NULL) ^ (unsigned int)getpid() << 16;
	if (fd >= 0)
		close(fd);
	return v;
}

int pipeline_mkdir(const char *path)
{
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return error("cannot create \"%s\":", path);
	return 0;
}

int pipeline_read_file(char **data, size_t *len, const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	char *buf;

	if (!f)
		return error("cannot read \"%s\":", path);
	buf = xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0)
			buf = xrealloc(buf, cap *= 2);
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return error("cannot read \"%s\":", path);
	}
	fclose(f);
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

/* The config gate runs with: --config FILE, or gate.json in head. */
int pipeline_load_config(struct config *cfg, char **origin,
			 struct repo *repo, const char *path,
			 const struct repo_rev *head)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (path) {
		*origin = xstrdup(path);
		if (pipeline_read_file(&text, &len, path) < 0)
			return -1;
	} else {
		*origin = xstrdup("gate.json");
		rc = repo_read_file(&text, &len, repo, head->tree,
				    "gate.json");
		if (rc < 0)
			return -1;
		if (rc > 0)
			return error("head (%s) has no gate.json at the top of "
				     "the repository: write one (see README.md) "
				     "or pass --config FILE", head->label);
	}
	rc = config_parse(cfg, text, len, *origin);
	free(text);
	return rc;
}

/* The last lines of a build log, for a build error message. */
static char *log_tail(const char *path)
{
	char *text = NULL, *start, *out;
	size_t len = 0;
	int lines = 0;

	if (pipeline_read_file(&text, &len, path) < 0)
		return xstrdup("");
	start = text + len;
	while (start > text && lines <= 15)
		if (*--start == '\n' && start + 1 < text + len)
			lines++;
	if (*start == '\n')
		start++;
	out = xstrdup(start);
	free(text);
	return out;
}

/* Build both arms, concurrently. Returns 0, -1, or the signal. */
int pipeline_build(const struct config *cfg, struct arm_state *arm,
		   size_t narms, int quiet)
{
	struct run_spec spec[2];
	struct proc *procs[2];
	struct run_result res[2];
	int fds[2] = { -1, -1 };
	size_t a, started = 0;
	int ret = -1;
	char why[256];

	if (!cfg->build.argv && !cfg->build.shell)
		return 0;
	for (a = 0; a < narms; a++) {
		fds[a] = open(arm[a].log, O_WRONLY | O_CREAT | O_TRUNC |
			      O_CLOEXEC, 0600);
		if (fds[a] < 0) {
			error("cannot write the build log \"%s\":",
			      arm[a].log);
			goto cleanup;
		}
		spec[a].cmd = &cfg->build;
		spec[a].cwd = arm[a].dir;
		spec[a].timeout = 0;
		spec[a].grace = 2.0;
		spec[a].log_fd = fds[a];
		spec[a].envp = NULL;
		spec[a].capture = 0;
		spec[a].count_instructions = 0;
	}
	if (!quiet)
		fprintf(stderr, "gate: building %s (log in %s%s%s)\n",
			narms == 2 ? "base and head" : "it", arm[0].log,
			narms == 2 ? " and " : "", narms == 2 ? arm[1].log : "");
	for (a = 0; a < narms; a++) {
		if (run_start(&procs[a], &spec[a]) < 0) {
			error("the build could not be started in %s: %s: check "
			      "\"build\" in gate.json", arm_name((enum arm)a),
			      strerror(errno));
			break;
		}
		started++;
	}
	if (started && run_wait(procs, res, started) < 0)
		goto cleanup;
	if (started < narms)
		goto cleanup;
	if (signals_pending()) {
		ret = signals_pending();
		goto cleanup;
	}
	ret = 0;
	for (a = 0; a < narms; a++) {
		char *tail;

		if (res[a].status == RUN_OK)
			continue;
		tail = log_tail(arm[a].log);
		error("the build of %s (%s) %s; the end of its log (%s):\n%s",
		      arm_name((enum arm)a), arm[a].rev.label,
		      run_describe(&res[a], why, sizeof(why)), arm[a].log,
		      tail);
		free(tail);
		ret = -1;
	}
cleanup:
	for (a = 0; a < narms; a++)
		if (fds[a] >= 0)
			close(fds[a]);
	return ret;
}

void pipeline_arm_release(struct arm_state *a)
{
	repo_rev_release(&a->rev);
	free(a->how);
	free(a->dir);
	free(a->index);
	free(a->log);
}

