/*
 * Tests of common/escape.c: each medium's rules on one hostile text, and
 * the terminal widths and cuts the table is laid out with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"
#include "tests/harness.h"

static const char evil[] = "\x1b]0;pwned\x07\x1b[2J\n::error::owned\n"
	"##[error]x <script>&'\" =1+2 @user #12 \xc2\x9b\t|";

static void test_escape__terminal_obeys_nothing(void)
{
	char *s = escape_str(ESCAPE_TERM, evil);

	CHECK(s && !strchr(s, 0x1b) && !strchr(s, 0x07) && !strchr(s, '\t'));
	CHECK(strstr(s, "\\x1b]0;pwned\\x07") != NULL);
	CHECK(strstr(s, "\\u009b") != NULL);	/* C1 CSI shown */
	/* a newline is a new line, not \x0a */
	CHECK(strstr(s, "\n::error::owned\n") != NULL);
	free(s);
	s = escape_str(ESCAPE_TERM_LINE, evil);
	CHECK(s && !strchr(s, '\n') && strstr(s, "\\x0a::error::owned"));
	free(s);
}

static void test_escape__actions_lines_are_never_commands(void)
{
	char *s = escape_str(ESCAPE_ACTIONS, evil);
	const char *p;

	CHECK(s && !strchr(s, 0x1b));
	for (p = s; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		while (*p == ' ')
			p++;
		CHECK(strncmp(p, "::", 2) != 0);
	}
	CHECK(!strstr(s, "##["));
	CHECK(strstr(s, ": :error::owned") != NULL);
	free(s);
}

static void test_escape__markdown_and_html(void)
{
	char *md = escape_str(ESCAPE_MD, evil), *html = escape_str(ESCAPE_HTML, evil);

	CHECK(md && !strchr(md, '\n') && !strchr(md, 0x1b));
	CHECK(!strstr(md, "<script") && !strstr(md, "@user") && !strstr(md, "#12"));
	CHECK(strstr(md, "\\|") != NULL);
	CHECK(html && !strstr(html, "<script") && !strchr(html, 0x1b));
	CHECK(strstr(html, "&lt;script&gt;&amp;&#39;&quot;") != NULL);
	free(md);
	free(html);
}

/* GitHub turns a bare scheme:// or www. into a live link: never in a name */
static void test_escape__markdown_links_nothing_bare(void)
{
	char *md = escape_str(ESCAPE_MD, "see https://evil.example/x, "
			      "WWW.evil.example and ftp://h; a:b w.x www");

	CHECK(md && !strstr(md, "://") && !strstr(md, "WWW."));
	CHECK(strstr(md, "https:&#8203;//evil.example/x") != NULL);
	CHECK(strstr(md, "WWW&#8203;.evil.example") != NULL);
	/* what links nothing is left as it was */
	CHECK(strstr(md, " a:b w.x www") != NULL);
	free(md);
}

static void test_escape__csv_cells_are_never_formulas(void)
{
	static const char *const in[] = { "=1+2", "+cmd", "-cmd", "@SUM(A1)",
					  "\tx", "\rx", "plain", "-1.5", "+3e-4",
					  "a,b", "say \"hi\"", "-inf", "-0x10" };
	static const char *const want[] = { "\"'=1+2\"", "\"'+cmd\"",
		"\"'-cmd\"", "\"'@SUM(A1)\"", "\"'\tx\"", "\"'\rx\"", "plain",
		"-1.5", "+3e-4", "\"a,b\"", "\"say \"\"hi\"\"\"", "\"'-inf\"",
		"\"'-0x10\"" };
	size_t i;

	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char *s = escape_str(ESCAPE_CSV, in[i]);

		CHECK_STR(s, want[i]);
		free(s);
	}
}

static void test_escape__widths_and_cuts(void)
{
	char *s;

	CHECK(escape_term_width("abc") == 3);
	CHECK(escape_term_width("\xc3\xa9t\xc3\xa9") == 3);	/* été */
	CHECK(escape_term_width("a\x1b") == 5);	/* a\x1b */
	s = escape_term_cut("\xc3\xa9t\xc3\xa9-long-name", 6);
	CHECK_STR(s, "\xc3\xa9t\xc3\xa9...");
	free(s);
	s = escape_term_cut("short", 10);
	CHECK_STR(s, "short");
	free(s);
}

static const struct harness_test tests[] = {
	TEST(test_escape__terminal_obeys_nothing),
	TEST(test_escape__actions_lines_are_never_commands),
	TEST(test_escape__markdown_and_html),
	TEST(test_escape__markdown_links_nothing_bare),
	TEST(test_escape__csv_cells_are_never_formulas),
	TEST(test_escape__widths_and_cuts),
};

HARNESS_MAIN(tests)
