/*
 * GitHub Actions workflow commands and environment files, written to the
 * formats the runner documents: '%', CR and LF escaped in messages, and
 * also ':' and ',' in properties; outputs as name=value or a heredoc.
 */
#include "ci/github.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/error.h"
#include "common/seed.h"
#include "common/banned.h"

int ci_github_active(void)
{
	const char *v = getenv("GITHUB_ACTIONS");

	return v && !strcmp(v, "true");
}

static int append_file(const char *var, const char *path, const char *text)
{
	FILE *f = fopen(path, "a");
	int ret = 0;

	if (!f)
		return error("cannot append to $%s (\"%s\"):", var, path);
	if (fputs(text, f) == EOF)
		ret = error("cannot write to $%s (\"%s\"):", var, path);
	if (fclose(f) != 0 && ret == 0)
		ret = error("cannot write to $%s (\"%s\"):", var, path);
	return ret;
}

int ci_github_append(const char *var, const char *text)
{
	const char *path = getenv(var);

	if (!path || !*path)
		return 1;
	return append_file(var, path, text);
}

int ci_github_output(const char *name, const char *value)
{
	const char *path = getenv("GITHUB_OUTPUT");
	char delim[64];
	char *line;
	unsigned long salt;
	int ret;

	if (!path || !*path)
		return 1;
	if (!strchr(value, '\n') && !strchr(value, '\r')) {
		line = xasprintf("%s=%s\n", name, value);
	} else {
		/* a delimiter that cannot occur in the value ends it safely */
		salt = (unsigned long)time(NULL) ^ (unsigned long)getpid();
		do {
			snprintf(delim, sizeof(delim), "gate_EOF_%lx", salt);
			salt = salt * 2654435761UL + 1;
		} while (strstr(value, delim));
		line = xasprintf("%s<<%s\n%s%s%s\n", name, delim, value,
				 value[strlen(value) - 1] == '\n' ? "" : "\n",
				 delim);
	}
	ret = append_file("GITHUB_OUTPUT", path, line);
	free(line);
	return ret;
}

/* Print s with the runner's escapes; props also escapes ':' and ','. */
static void put_escaped(FILE *out, const char *s, int props)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': fputs("%25", out); break;
		case '\r': fputs("%0D", out); break;
		case '\n': fputs("%0A", out); break;
		case ':':
			fputs(props ? "%3A" : ":", out);
			break;
		case ',':
			fputs(props ? "%2C" : ",", out);
			break;
		default:
			/* other controls shown, not obeyed (%1B stays %1B) */
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				fprintf(out, "%%%02X", (unsigned char)*s);
			else
				fputc(*s, out);
		}
	}
}

void ci_github_annotate(FILE *out, const char *level, const char *title,
			const char *file, const char *msg)
{
	const char *sep = " ";

	fprintf(out, "::%s", level);
	if (file) {
		fputs(sep, out);
		fputs("file=", out);
		put_escaped(out, file, 1);
		sep = ",";
	}
	if (title) {
		fputs(sep, out);
		fputs("title=", out);
		put_escaped(out, title, 1);
	}
	fputs("::", out);
	put_escaped(out, msg, 0);
	fputc('\n', out);
	fflush(out);
}

void ci_github_group(FILE *out, const char *title)
{
	fputs("::group::", out);
	put_escaped(out, title, 0);
	fputc('\n', out);
	fflush(out);
}

void ci_github_endgroup(FILE *out)
{
	fputs("::endgroup::\n", out);
	fflush(out);
}

void ci_github_stop_commands(FILE *out, char *token)
{
	snprintf(token, 40, "gate-%08lx%08lx", seed_fresh() & 0xffffffffUL,
		 seed_fresh() & 0xffffffffUL);
	fflush(stderr);
	fprintf(out, "::stop-commands::%s\n", token);
	fflush(out);
}

void ci_github_resume_commands(FILE *out, const char *token)
{
	fflush(stderr);
	fprintf(out, "::%s::\n", token);
	fflush(out);
}
