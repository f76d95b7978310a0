/*
 * Reports beyond the terminal: the --markdown and --html files and, inside
 * GitHub Actions, the job summary, annotations with the figures and the
 * step outputs a later step (a PR comment, a required status) reads.
 */
#include "gate/report/view.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ci/github.h"
#include "common/error.h"
#include "common/banned.h"

void report_annotate_view(FILE *out, const struct report_view *v)
{
	const char *file = v->config_origin;
	char *title;
	size_t i;

	/* an interruption (a cancelled job, timeout-minutes) is a cause
	   too: said once, and no verdict is annotated */
	if (v->interrupted) {
		char *msg = xasprintf("gate was stopped by signal %d before a "
				      "verdict (exit %d): the job was "
				      "cancelled, ran past its "
				      "timeout-minutes, or gate was killed",
				      v->interrupted, v->exit_code);

		ci_github_annotate(out, "error", "gate: interrupted", file,
				   msg);
		free(msg);
		return;
	}
	for (i = 0; i < v->nwarnings; i++)
		ci_github_annotate(out, "warning", "gate: policy", file,
				   v->warnings[i]);
	if (v->error && !v->nbenches) {
		ci_github_annotate(out, "error", "gate: could not measure",
				   file, v->error);
		return;
	}
	for (i = 0; i < v->nbenches; i++) {	/* worst first */
		const struct view_bench *vb = &v->benches[v->order[i]];
		const struct view_row *row = &v->rows[vb->decisive];
		const char *msg = vb->why ? vb->why : row->reason;

		if (!msg)
			msg = "";
		switch (vb->verdict) {
		case VERDICT_FAIL:
			/* in the metric's own words: "+1.5% more
			   allocations", not "slower" */
			title = xasprintf("gate: %s: %s %s", vb->name,
					  row->change, row->worse);
			ci_github_annotate(out, "error", title, file, msg);
			break;
		case VERDICT_NOISY:
			title = xasprintf("gate: %s is inconclusive (%s%s%s)",
					  vb->name, row->measured ?
					  row->change : "no interval",
					  vb->nrows > 1 ? " in " : "",
					  vb->nrows > 1 ? row->metric : "");
			ci_github_annotate(out, "warning", title, file, msg);
			break;
		case VERDICT_ERROR:
			title = xasprintf("gate: %s could not be measured",
					  vb->name);
			ci_github_annotate(out, "error", title, file, msg);
			break;
		case VERDICT_ACCEPTED:
			title = xasprintf("gate: %s: %s %s, as accepted",
					  vb->name, row->change, row->worse);
			ci_github_annotate(out, "notice", title, file, msg);
			break;
		default:
			title = NULL;
			break;
		}
		free(title);
		/* a heuristic's note is a notice, never a verdict */
		if (vb->note && vb->verdict != VERDICT_NEW) {
			title = vb->note_shared ?
				xasprintf("gate: note on %zu cases of suite "
					  "\"%s\" (the verdicts stand)",
					  vb->note_shared + 1, vb->suite) :
				xasprintf("gate: note on %s (%s stands)",
					  vb->name, vb->word);
			ci_github_annotate(out, "notice", title, file,
					   vb->note);
			free(title);
		}
	}
}

static int outputs(const struct report_view *v, const char *md,
		   const struct publish_opts *p)
{
	char code[16];
	int ret = 0;

	/* the verdict's code, as action.yml describes it: --advisory keeps
	   the step green, it does not change what the verdict was (a fail
	   is 1 here, as an error is 3) */
	snprintf(code, sizeof(code), "%d", v->advisory ? v->advisory_code :
		 v->exit_code);
	if (ci_github_output("verdict", v->verdict_word) < 0 ||
	    ci_github_output("exit-code", code) < 0)
		ret = -1;
	if (md && ci_github_output("report", md) < 0)
		ret = -1;
	if (p->markdown && ci_github_output("markdown-file", p->markdown) < 0)
		ret = -1;
	if (p->html && ci_github_output("html-file", p->html) < 0)
		ret = -1;
	if (p->json && ci_github_output("json-file", p->json) < 0)
		ret = -1;
	return ret;
}

/*
 * The terminal report went to out before this (report_term): a write that
 * failed there (a full disk, a closed pipe, /dev/full) is an error too,
 * noticed here because stdio only reports it at the flush.
 */
static int check_stream(FILE *out)
{
	if (fflush(out) == 0 && !ferror(out))
		return 0;
	return error("cannot write the report to %s: %s (gate exits 3)",
		     out == stdout ? "stdout" : out == stderr ? "stderr" :
		     "its stream", strerror(errno ? errno : EIO));
}

int report_publish(FILE *out, const struct report_view *v,
		   const struct publish_opts *p)
{
	char *md = NULL;
	int ret = 0;

	errno = 0;
	if (p->markdown && report_md_file(p->markdown, v) < 0)
		ret = -1;
	if (p->html && report_html_file(p->html, v) < 0)
		ret = -1;
	if (!p->github)
		return check_stream(out) < 0 ? -1 : ret;
	md = report_md_text(v);
	/* the job summary and outputs are extras: a failure to write them
	 * is reported but does not change the verdict's exit code */
	if (md)
		ci_github_append("GITHUB_STEP_SUMMARY", md);
	report_annotate_view(out, v);
	outputs(v, md, p);
	free(md);
	return check_stream(out) < 0 ? -1 : ret;
}

static int is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

int report_check_options(const char *json, const char *markdown,
			 const char *html, const char *color)
{
	if (color && strcmp(color, "auto") && strcmp(color, "always") &&
	    strcmp(color, "never"))
		return error("--color must be auto, always or never, got "
			     "\"%s\"", color);
	if (is_stdout(json) + is_stdout(markdown) + is_stdout(html) > 1)
		return error("only one of --json, --markdown and --html can "
			     "write to stdout ('-'): give the others a file");
	return 0;
}

/* Whether a and b name the same file: by name, or by device and inode. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return 1;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int check_writable(const char *opt, const char *path)
{
	struct stat st;
	char *dir, *slash;
	int ok;

	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return error("%s \"%s\" is a directory: name a file",
				     opt, path);
		if (access(path, W_OK) != 0)
			return error("%s \"%s\" cannot be written:", opt,
				     path);
		return 0;
	}
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (!slash) {
		free(dir);
		dir = xstrdup(".");
	} else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
	     access(dir, W_OK | X_OK) == 0;
	if (!ok)
		error("%s \"%s\" cannot be written: its directory \"%s\" "
		      "%s", opt, path, dir, stat(dir, &st) != 0 ?
		      "does not exist" : "is not a writable directory");
	free(dir);
	return ok ? 0 : -1;
}

int report_check_paths(const char *json, const char *markdown,
		       const char *html, const char *config)
{
	const char *path[3] = { json, markdown, html };
	static const char *const opt[3] = { "--json", "--markdown", "--html" };
	size_t i, k;

	for (i = 0; i < 3; i++) {
		if (!path[i] || is_stdout(path[i]))
			continue;
		for (k = 0; k < i; k++)
			if (path[k] && !is_stdout(path[k]) &&
			    same_file(path[k], path[i]))
				return error("%s and %s both name \"%s\": one "
					     "report would overwrite the other; "
					     "give each its own file", opt[k],
					     opt[i], path[i]);
		if (config && same_file(path[i], config))
			return error("%s \"%s\" is the config gate reads: the "
				     "report would overwrite it; name another "
				     "file", opt[i], path[i]);
		if (check_writable(opt[i], path[i]) < 0)
			return -1;
	}
	return 0;
}

FILE *report_term_stream(const char *json, const char *markdown,
			 const char *html)
{
	if (is_stdout(json) || is_stdout(markdown) || is_stdout(html))
		return stderr;
	return stdout;
}

int report_use_color(const char *when, FILE *out)
{
	const char *no = getenv("NO_COLOR");

	if (when && !strcmp(when, "always"))
		return 1;
	if (when && !strcmp(when, "never"))
		return 0;
	return isatty(fileno(out)) && !(no && *no);
}

void report_build_log(FILE *out, const char *arm, const char *path)
{
	char buf[4096], *title, token[40];
	FILE *f = fopen(path, "r");
	size_t n;
	int last = '\n';

	if (!f)
		return;
	title = xasprintf("gate: build log of %s (%s)", arm, path);
	fflush(stderr);
	ci_github_group(out, title);
	ci_github_stop_commands(out, token);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		fwrite(buf, 1, n, out);
		last = buf[n - 1];
	}
	if (last != '\n')
		fputc('\n', out);
	ci_github_resume_commands(out, token);
	ci_github_endgroup(out);
	fclose(f);
	free(title);
}
