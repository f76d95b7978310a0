/*
 * Benchmark output formats: how a benchmark's stdout (gate run) or a result
 * file (gate compare) becomes (case, unit, values) rows. One reader per
 * format, a file each in gate/format/ behind struct format_reader; this
 * interface is all the commands see. Adding a format: write
 * gate/format/NAME.c defining format_NAME_reader, add it to enum format,
 * to readers[] (and detect_order[]) in format.c and to the Makefile.
 */
#ifndef GATE_FORMAT_H
#define GATE_FORMAT_H

#include <stddef.h>

enum format {
	FORMAT_TIME,		/* the whole process is the sample */
	FORMAT_GBENCH,		/* Google Benchmark --benchmark_format=json */
	FORMAT_GOTEST,		/* go test -bench text */
	FORMAT_LINES,		/* "name value unit" lines (README.md) */
	FORMAT_HYPERFINE,	/* hyperfine --export-json */
	FORMAT_PYTEST,		/* pytest-benchmark --benchmark-json */
	FORMAT_GATE,		/* gate's own JSON report (compare only) */
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
#define FMT_TABLE_INIT { NULL, 0, 0, NULL, 0, 0, 0, 0 }
/*
 * How many processes case c's values came from: 0 when not known (each
 * value may be its own), else at least 1.
 */
size_t fmt_case_processes(const struct fmt_case *c);

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
/* The names format_lookup accepts, for messages: "time, gbench, ...". */
const char *format_names(void);
/*
 * Guess the format of a result file: gate report, gbench, hyperfine or
 * pytest-benchmark JSON by their top-level keys, else gotest when a line
 * looks like a go benchmark result, else lines.
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

/* One foreign format: its name, how to recognise it, how to read it. */
struct format_reader {
	const char *name;	/* as written in gate.json and --format */
	/*
	 * 1 when text (len bytes) looks like this format; root is the parsed
	 * JSON object when text starts with '{' and parses, else NULL.
	 */
	int (*detect)(const char *text, size_t len, const struct cJSON *root);
	/* Add text's cases to t; 0, or -1 after error(). */
	int (*parse)(struct fmt_table *t, const char *text, size_t len,
		     const char *origin, const struct fmt_opts *o);
};

extern const struct format_reader format_gbench_reader;
extern const struct format_reader format_gotest_reader;
extern const struct format_reader format_lines_reader;
extern const struct format_reader format_hyperfine_reader;
extern const struct format_reader format_pytest_reader;
/* gate's own report: recognised here, read through fmt_opts.gate_report */
extern const struct format_reader format_gate_reader;
/*
 * For the JSON readers: parse text with cJSON; a syntax error names
 * origin:line:column. Returns the root or NULL after error(); the caller
 * cJSON_Deletes it.
 */
struct gate_err;
/* format_json with the message in *err, not printed, when err is set. */
struct cJSON *format_json_to(const char *text, size_t len, const char *origin,
			     const char *what, struct gate_err *err);
struct cJSON *format_json(const char *text, size_t len, const char *origin,
			  const char *what);
/*
 * format_json_to, then the root's list under key: NULL (root freed) after
 * an error "no \"key\" list: not <what>'s <option> output".
 */
const struct cJSON *format_json_list_to(struct cJSON **root, const char *text,
					size_t len, const char *origin,
					const char *what, const char *key,
					const char *option,
					struct gate_err *err);
/* Add every number of array a as a value of (name, "s"); what names a. */
int fmt_table_add_numbers(struct fmt_table *t, const char *name,
			  const struct cJSON *a, const char *origin,
			  const char *what, struct gate_err *err);

#endif
