/*
 * Replays a fuzz target's seed corpus and regression inputs without
 * libFuzzer, so `make check` (and asan, memcheck) runs every input that
 * once mattered: tests/fuzz/corpus/NAME/ and tests/fuzz/regress/NAME/.
 * Prints "N passed, 0 failed"; a bad input crashes or aborts the run.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	uint8_t *buf;

	if (!f)
		return -1;
	buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf)
		return -1;
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(void)
{
	static const char *const dirs[] = { "tests/fuzz/corpus/" FUZZ_NAME,
					    "tests/fuzz/regress/" FUZZ_NAME };
	size_t d, passed = 0, failed = 0;

	for (d = 0; d < 2; d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;

		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			char path[4096];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[d],
				 de->d_name);
			if (replay_file(path) < 0) {
				fprintf(stderr, "cannot read %s\n", path);
				failed++;
			} else {
				passed++;
			}
		}
		closedir(dir);
	}
	if (passed == 0)
		failed++;	/* the corpus went missing */
	printf("%zu passed, %zu failed\n", passed, failed);
	return failed != 0;
}
