/*
 * Seeds: a fresh one for a run, and streams derived from it by name (a
 * djb2 hash of the name, with k spread by the golden ratio).
 */
#include "common/seed.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "common/banned.h"

unsigned long seed_derive(unsigned long seed, const char *name, size_t k)
{
	unsigned long h = 5381;

	while (*name)
		h = h * 33 + (unsigned char)*name++;
	return (seed ^ h ^ (unsigned long)k * 0x9e3779b9UL) & 0xffffffffUL;
}

unsigned long seed_fresh(void)
{
	unsigned int v = 0;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		v = (unsigned int)time(NULL) ^ (unsigned int)getpid() << 16;
	if (fd >= 0)
		close(fd);
	return v;
}
