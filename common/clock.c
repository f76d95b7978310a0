/*
 * The monotonic clock in seconds (clock.h).
 */
#include "common/clock.h"

#include <time.h>

#include "common/banned.h"

double clock_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
