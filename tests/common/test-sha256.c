/* common/: the SHA-256 gate records of artifacts (tests/ref/sha256.py). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sha256.h"
#include "tests/harness.h"

static void digest(const void *data, size_t len, size_t chunk, char hex[65])
{
	struct sha256 s;
	const unsigned char *p = data;

	sha256_init(&s);
	while (len) {
		size_t n = len < chunk ? len : chunk;

		sha256_update(&s, p, n);
		p += n;
		len -= n;
	}
	sha256_final_hex(&s, hex);
}

/* hashlib's digests, whole and fed in odd chunks (padding at 55/56/64). */
static void test_sha256__matches_reference_values(void)
{
	static const struct { const char *fill; size_t n; const char *want; }
	cases[] = {
		{ "", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "x", 55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072" },
		{ "x", 56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e" },
		{ "x", 64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c" },
		{ "a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
	};
	unsigned char bytes[768];
	char hex[65], *buf;
	size_t i, chunk;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		buf = malloc(cases[i].n + 1);
		memset(buf, cases[i].fill[0], cases[i].n);
		for (chunk = 1; chunk <= 4096; chunk *= 7) {
			digest(buf, cases[i].n, cases[i].n > 1000 && chunk < 7 ?
			       4096 : chunk, hex);
			CHECK_STR(hex, cases[i].want);
		}
		free(buf);
	}
	digest("abc", 3, 3, hex);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	for (i = 0; i < sizeof(bytes); i++)
		bytes[i] = (unsigned char)i;
	digest(bytes, sizeof(bytes), 100, hex);
	CHECK_STR(hex, "f3a25aa93aa2fbba28d79260535bbd6a5eb0fc1c24a8b0f04e12b484c1dfe363");
}

/* A file's digest is its content's; a missing file is -1. */
static void test_sha256__file(void)
{
	char path[] = "/tmp/gate-sha256-XXXXXX", hex[65];
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	CHECK(write(fd, "abc", 3) == 3);
	close(fd);
	CHECK(sha256_file(path, hex) == 0);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	unlink(path);
	CHECK(sha256_file(path, hex) < 0);
}

static const struct harness_test tests[] = {
	TEST(test_sha256__matches_reference_values),
	TEST(test_sha256__file),
};

HARNESS_MAIN(tests)
