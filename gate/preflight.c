/*
 * Preflight of "build" and "run": a command must run the arm's own files,
 * not a file outside the checkout that base and head would share (see
 * preflight.h for the rule and why shell strings are only warned about).
 */
#include "gate/preflight.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/banned.h"

/* Is path at or below dir? Both canonical; dir without a trailing '/'. */
static int within(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return !strncmp(dir, path, n) && (path[n] == '\0' || path[n] == '/');
}

int preflight_command(const struct command *cmd, const char *what,
		      const char *dir, const char *workdir)
{
	char real_dir[PATH_MAX], real_prog[PATH_MAX], real_wt[PATH_MAX];
	const char *prog;
	char *path;
	int ret = 0;

	if (!realpath(workdir, real_wt))
		real_wt[0] = '\0';
	if (cmd->shell) {
		if (strstr(cmd->shell, "../") ||
		    (real_wt[0] && strstr(cmd->shell, real_wt)))
			warning("%s (\"%s\") may reach outside the checkout "
				"it runs in: base and head would then share "
				"those files", what, cmd->shell);
		return 0;
	}
	prog = cmd->argv ? cmd->argv[0] : NULL;
	if (!prog || !strchr(prog, '/'))
		return 0;	/* found on PATH: a tool, not the code */
	path = prog[0] == '/' ? xstrdup(prog) : xasprintf("%s/%s", dir, prog);
	if (!realpath(dir, real_dir) || !realpath(path, real_prog))
		goto cleanup;	/* not there (yet): the runner will say */
	if (within(real_dir, real_prog))
		goto cleanup;
	if (prog[0] != '/' || (real_wt[0] && within(real_wt, real_prog)))
		ret = error("%s runs \"%s\", which resolves to \"%s\", outside "
			    "the checkout it runs in (%s): base and head would "
			    "run the same file, so the comparison would "
			    "measure nothing of the change; point it at a file "
			    "in the repository, relative to its top",
			    what, prog, real_prog, dir);
cleanup:
	free(path);
	return ret;
}
