/* gate's own files beside its binary or in ../lib/gate/ (self.h). */
#include "gate/exec/self.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "gate/os/os.h"
#include "common/banned.h"

char *self_file_find(const char *file, int mode, char *cand[2])
{
	char self[4096], *path = NULL;
	int i;

	cand[0] = cand[1] = NULL;
	if (os_self_exe(self, sizeof(self)) < 0)
		return NULL;
	*strrchr(self, '/') = '\0';
	cand[0] = xasprintf("%s/%s", self, file);
	cand[1] = xasprintf("%s/../lib/gate/%s", self, file);
	/* resolved: "bin/../lib" would not resolve in an arm's sandbox,
	   which shows the file alone */
	for (i = 0; i < 2 && !path; i++)
		if (access(cand[i], mode) == 0)
			path = realpath(cand[i], NULL);
	return path;
}
