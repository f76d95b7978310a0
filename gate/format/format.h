/*
 * Benchmark output formats: how a benchmark's stdout (gate run) or a result
 * file (gate compare) becomes (case, unit, values) rows, and what gate may
 * ask of the harness that printed it (run some cases, list them). One file
 * per format in gate/format/ defines its struct format_reader (below); the
 * table FORMAT_ROWS lists them. This interface is all the commands see.
 * Adding a format: see ARCHITECTURE.md, "How to add ... A result format".
 */
#ifndef GATE_FORMAT_H
#define GATE_FORMAT_H

#include <stddef.h>

/*
 * Every format, one row each: X(ENUM, name), format_<name>_reader being
 * the row's struct format_reader (in gate/format/<name>.c). enum format,
 * format_name, format_lookup, the names in help and errors (format_names)
 * all come from here, in this order; a new format is a row at the end.
 */
#define FORMAT_ROWS(X) \
	X(TIME, time) \
	X(GBENCH, gbench) \
	X(GOTEST, gotest) \
	X(LINES, lines) \
	X(HYPERFINE, hyperfine) \
	X(PYTEST, pytest) \
	X(GATE, gate) \
	X(CRITERION, criterion) \
	X(BENCHER, bencher) \
	X(VITEST, vitest) \
	X(BENCHMARKDOTNET, benchmarkdotnet) \
	X(PYPERF, pyperf) \
	X(JMH, jmh)

enum format {
#define FORMAT_ENUM_(e, name) FORMAT_##e,
	FORMAT_ROWS(FORMAT_ENUM_)
#undef FORMAT_ENUM_
	FORMAT_COUNT
};

/* Largest stdout a suite sample may print, and a result file's size. */
#define FORMAT_MAX_BYTES (64u << 20)

/* One case in one unit, with every value the output gave, in order. */
struct fmt_case {
	char *name;		/* as the tool prints it */
	char *unit;		/* "s", "s/op", "B/op", "items/s", ... */
	int higher_better;	/* a rate: the ratio is inverted */
	double *values;
	size_t n, cap;
	size_t *proc;		/* the process each value came from, when the
				   reader knows (go test's "pkg:" sections),
				   else NULL */
};

struct fmt_table {
	struct fmt_case *cases;	/* in order of first appearance */
	size_t n, cap;
	size_t *slot;		/* hash of (name, unit): index + 1, 0 free */
	size_t nslot;		/* a power of two above 2n, or 0 */
	int track;		/* the reader knows processes: fmt_table_add
				   records proc with each value */
	size_t proc;		/* the process values come from now */
	long procs;		/* gotest: the GOMAXPROCS of the "-N" suffix
				   dropped from every name, 0: none */
};
#define FMT_TABLE_INIT { 0 }
/*
 * How many processes case c's values came from: 0 when not known (each
 * value may be its own), else at least 1.
 */
size_t fmt_case_processes(const struct fmt_case *c);
/* 1 when every case of t came from one process (repetitions inside it:
   a timing of them cannot keep the promise), else 0. */
int fmt_table_one_process(const struct fmt_table *t);

struct fmt_opts {
	int cpu_time;		/* gbench: cpu_time instead of real_time */
	int allow_zero;		/* keep 0 values: gate run reports such a
				   case as unmeasurable, the others decided */
	struct gate_err *err;	/* NULL: print errors; else the message
				   goes here, unprinted (common/error.h) */
	/* reads gate's own report (report_format_parse, which lives above
	   this stage: gate compare passes it); NULL: refused */
	int (*gate_report)(struct fmt_table *t, const char *text, size_t len,
			   const char *origin, const struct fmt_opts *o);
};

/* "time", "gbench", ... as written in gate.json and --format. */
const char *format_name(enum format f);
/* Look up a name; 0, or -1 (no message) when unknown. */
int format_lookup(enum format *f, const char *name);
/* The names gate.json's "format" takes, for messages: "time, pytest,
   ...", in FORMAT_ROWS' order (static storage). */
const char *format_names(void);
/* The names gate compare's --format takes (every format that reads
   output, gate's own report included). */
const char *format_names_compare(void);
/*
 * Guess the format of a result file: each row's detect in FORMAT_ROWS'
 * order (root: the JSON parsed when the text starts with '{' or '['), those flagged FMT_DETECT_LAST after the others (JSON by keys of
 * its own, go by its result lines, then gbench's any object, lines any
 * text); JSON that does not parse by the row whose broken_json_keys
 * occurs first in it.
 */
enum format format_detect(const char *text, size_t len);

/*
 * Parse text (len bytes) in format f into t (which must be empty). Every
 * value is checked: finite, and above zero except for counts (B/op,
 * allocs/op), which may be 0. origin names the source in messages. Returns
 * 0, or -1 after error() (t is then released). Zero cases is an error.
 */
int format_parse(struct fmt_table *t, enum format f, const char *text,
		 size_t len, const char *origin, const struct fmt_opts *o);
/* (o->err set: the message goes there, unprinted; see struct fmt_opts) */
void fmt_table_release(struct fmt_table *t);

/* Add value to case (name, unit), creating it; for the parsers. */
void fmt_table_add(struct fmt_table *t, const char *name, size_t name_len,
		   const char *unit, double value);
/* The case (name, unit), or NULL. */
struct fmt_case *fmt_table_find(const struct fmt_table *t, const char *name,
				const char *unit);
/* 1 for rates (a unit ending in "/s", or "per_second"), else 0. */
int unit_higher_better(const char *unit);
/* 1 for counts that may be zero (B/op, allocs/op), else 0. */
int unit_is_count(const char *unit);
/* 1 for a time ("s", "s/op", as the readers normalise them): 0 there is
   below the resolution of the benchmark's own timer. */
int unit_is_time(const char *unit);
/*
 * 1 when 0 is a value of unit and ratios compare (new + 1) / (old + 1):
 * any unit that is neither a time nor a rate ("faults", "B/op",
 * "cache_misses"), as gate run compares its rusage counts.
 */
int unit_may_be_zero(const char *unit);
/* A value with its unit for people: "1.23 ms", "45 B/op", "1.2M items/s". */
const char *format_value(double v, const char *unit, char *buf, size_t size);

/*
 * Keep only the cases whose name matches the POSIX extended regex re.
 * Returns 0, or -1 after error() when re does not compile.
 */
int fmt_table_filter(struct fmt_table *t, const char *re);

struct cJSON;

/*
 * What gate adds to a harness's command to run only some cases or to list
 * them (a reader's select and list hooks fill it; one function,
 * harness_cmd in gate/measure/suite-filter.c, builds the command from it
 * with one shell quoting). Everything owned; fmt_cmd_edit_release.
 */
struct fmt_cmd_edit {
	char **args;		/* appended to the command, last (a later
				   flag wins), n of them (fmt_cmd_edit_arg) */
	size_t nargs;
	char *filter;		/* the POSIX ERE the cases are selected by:
				   exported as GATE_FILTER when the command
				   runs through the shell */
	const char *env;	/* a variable of the harness's own, or NULL */
	char *env_value;	/* its value, put before any value it has
				   (pytest's own -k in PYTEST_ADDOPTS wins) */
};
#define FMT_CMD_EDIT_INIT { 0 }
/* Append arg (owned: a string the caller allocated) to e's arguments. */
void fmt_cmd_edit_arg(struct fmt_cmd_edit *e, char *arg);
void fmt_cmd_edit_release(struct fmt_cmd_edit *e);

/* Where a format's values come from: gate's statistics run over processes. */
enum fmt_values {
	FMT_VALUES_NONE,	/* time: no output read */
	FMT_VALUES_ONE_PROCESS,	/* repetitions inside the one process that
				   printed them (gbench, pytest-benchmark):
				   format_parse marks them so */
	FMT_VALUES_TRACKED,	/* the reader tells processes apart itself
				   (go's "pkg:" sections, the lines
				   protocol's "# run" lines) */
	FMT_VALUES_PER_PROCESS,	/* each value its own process (hyperfine's
				   runs, gate's pairs) */
	FMT_VALUES_UNKNOWN,	/* the output does not say */
};

/*
 * How each case of a suite is counted on its own under callgrind (the
 * "instructions" and "cycles" metrics; gate/measure/measure-counted.c
 * sets each scheme up): what marks a case's start and end.
 */
enum fmt_counted {
	FMT_COUNTED_NONE,	/* nothing can: counted_why says what to do */
	FMT_COUNTED_LOOPS,	/* Google Benchmark: a callgrind dump around
				   each case's loop, one iteration */
	FMT_COUNTED_MARKS,	/* the harness calls gate_probe_start and
				   gate_probe_stop (lib/gate-probe.h) */
	FMT_COUNTED_PYTEST,	/* gate's pytest plugin brackets each test's
				   call, once */
};

/*
 * One format: everything gate knows of it, in one row. Only name, what and
 * values are needed; a NULL hook means "cannot" (no rounds, no shards).
 */
struct format_reader {
	const char *name;	/* as written in gate.json and --format */
	const char *what;	/* for people: "Google Benchmark JSON" */
	unsigned flags;		/* FMT_* below */
	/*
	 * 1 when text (len bytes) looks like this format; root is the parsed
	 * JSON (object or array) when text starts with '{' or '[' and
	 * parses, else NULL.
	 */
	int (*detect)(const char *text, size_t len, const struct cJSON *root);
	/* keys whose presence names this format in JSON that does not
	   parse (a truncated file gets its own format's message) */
	const char *broken_json_keys[3];
	/* Add text's cases to t; 0, or -1 after error_to(o->err, ...). */
	int (*parse)(struct fmt_table *t, const char *text, size_t len,
		     const char *origin, const struct fmt_opts *o);
	enum fmt_values values;
	/* units printed beside a case's time that restate it as a rate
	   (gbench's items/s): shown, never decided apart from it */
	const char *restates[3];
	/* the times the metrics wall and cpu read ({ "real_time",
	   "cpu_time" }), or NULL: one time, as printed */
	const char *times[2];
	/*
	 * Select the cases names[0..n) (rounds of more pairs, shards) in a
	 * command that is argv (NULL-ended) or shell (the other NULL).
	 * NULL: every case has one look.
	 */
	void (*select)(struct fmt_cmd_edit *e, char *const *argv,
		       const char *shell, const char *const *names, size_t n);
	/* List the cases (gate run --shard): what the listing run adds;
	   GATE_LIST=1 is exported through the shell. NULL: cannot list. */
	void (*list)(struct fmt_cmd_edit *e, char *const *argv,
		     const char *shell);
	const char *list_how;	/* the listing, for messages */
	/* Names from a listing that does not read as results (the lines
	   protocol's names, one a line), each through add; NULL: results
	   only. */
	void (*list_names)(const char *out, size_t len,
			   void (*add)(void *ctx, const char *name,
				       size_t len), void *ctx);
	/* The part of a case's name the filter selects as a whole (go's
	   top-level benchmark): a shard deals such cases together. NULL:
	   the whole name. */
	size_t (*group)(const char *name);
	/* How a user gets values from several processes into one file,
	   for gate compare's advice ("go test -count=1 repeated"), or NULL:
	   runs' output concatenated. */
	const char *processes_how;
	/* What gate init proposes for it (gate/cmd/init-*.c), or NULL. */
	const char *init;
	/* How its cases are counted each on its own (FMT_COUNTED_NONE: not
	   at all); for NONE, the refusal after "asks for per-case counts
	   of ": the suite, why and what to do instead ("a Go suite, which
	   gate cannot give: Go's runtime ..."), or NULL: "a <name> suite",
	   nothing marks its cases, each case a benchmark of its own. */
	enum fmt_counted counted;
	const char *counted_why;
	/* The default floor of its per-case counts, or 0: the count's own
	   (METRIC_EXACT_FLOOR). An interpreter's counts move with where its
	   heap lies: one README added beside numpy's tests moved their
	   counts by up to 1.1%, every process alike. */
	double count_floor;
};
#define FMT_COMPARE_ONLY 1u	/* gate compare reads it, gate.json not */
#define FMT_NOT_A_SUITE 2u	/* time: the process is the sample */
#define FMT_DETECT_LAST 4u	/* its detect takes anything of its kind
				   (gbench any JSON object, lines any text):
				   asked after every other row */
#define FMT_NAME_PROCS 8u	/* case names end in "-N", the process's CPU
				   count (go's GOMAXPROCS): the reader drops
				   it (fmt_table.procs), the reports state it */

/* The row of format f. */
const struct format_reader *format_reader(enum format f);

#define FORMAT_DECLARE_(e, name) \
	extern const struct format_reader format_##name##_reader;
FORMAT_ROWS(FORMAT_DECLARE_)
#undef FORMAT_DECLARE_

/*
 * For the JSON readers: parse text with cJSON; a syntax error names
 * origin:line:column. Returns the root or NULL after error_to(err, ...)
 * (printed when err is NULL); the caller cJSON_Deletes it.
 */
struct gate_err;
struct cJSON *format_json_to(const char *text, size_t len, const char *origin,
			     const char *what, struct gate_err *err);
/*
 * format_json_to, then the root's list under key: NULL (root freed) after
 * an error "no \"key\" list: not <what>'s <option> output".
 */
const struct cJSON *format_json_list_to(struct cJSON **root, const char *text,
					size_t len, const char *origin,
					const char *what, const char *key,
					const char *option,
					struct gate_err *err);
/* A growing string, for the harness hooks: fmt_buf_add copies n bytes
   of s, fmt_buf_str a string; buf stays NUL-ended; free(buf). */
struct fmt_buf {
	char *buf;
	size_t len, cap;
};
#define FMT_BUF_INIT { NULL, 0, 0 }
void fmt_buf_add(struct fmt_buf *b, const char *s, size_t n);
void fmt_buf_str(struct fmt_buf *b, const char *s);
/* s (n bytes) with every POSIX ERE special character escaped, onto b. */
void fmt_ere_escape(struct fmt_buf *b, const char *s, size_t n);
/* "^(a|b)$": names[0..n), escaped (owned). */
char *fmt_anchored(const char *const *names, size_t n);
/* The select hook of a harness that reads GATE_FILTER alone (lines, a
   hyperfine wrapper): e->filter is fmt_anchored's. */
void fmt_select_gate_filter(struct fmt_cmd_edit *e, char *const *argv,
			    const char *shell, const char *const *names,
			    size_t n);
/* The list hook of a harness that lists under GATE_LIST=1 alone (or
   whose whole run's results name the cases): adds nothing. */
void fmt_list_gate_list(struct fmt_cmd_edit *e, char *const *argv,
			const char *shell);
/* list_names for libtest's and criterion's --list: "NAME: bench" lines. */
void fmt_names_bench_list(const char *out, size_t len,
			  void (*add)(void *ctx, const char *name, size_t len),
			  void *ctx);
/* 1 when the command (argv, or shell) runs a go test binary directly
   (an argument "-test.*"), so its flags are spelt -test.bench etc. */
int fmt_argv_has_prefix(char *const *argv, const char *prefix);

/* go's names (gotest.c): the length of a case's top-level benchmark name,
   the part go's -bench selects as a whole ("BenchmarkX/sub" -> 10,
   "BenchmarkX-8" -> 10); and the -bench pattern selecting exactly the
   cases names[0..n) (owned; see gotest.c). */
size_t format_go_top(const char *name);
char *format_go_pattern(const char *const *names, size_t n);

/*
 * For a harness whose runs' JSON files come one after another on stdout
 * (each run more processes): each JSON document of text, in order, to
 * each(ctx, doc, at) (at: its offset, for messages; doc freed after).
 * Returns 0, or -1 after error_to (a syntax error names origin:line:col
 * and what), or each's -1. No document at all is an error.
 */
int format_json_docs(const char *text, size_t len, const char *origin,
		     const char *what,
		     int (*each)(void *ctx, const struct cJSON *doc,
				 size_t at),
		     void *ctx, struct gate_err *err);
/* How many processes case (name, unit) of t has values from so far: the
   first process of a further run of its harness. */
size_t fmt_table_procs_of(const struct fmt_table *t, const char *name,
			  const char *unit);

/* Add every number of array a as a value of (name, "s"); what names a. */
int fmt_table_add_numbers(struct fmt_table *t, const char *name,
			  const struct cJSON *a, const char *origin,
			  const char *what, struct gate_err *err);

#endif
