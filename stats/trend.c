/*
 * A linear trend in a series (gate trend's creep test): the least-squares
 * slope of y against its index 0..n-1, its standard error from the
 * residuals, and Student's t on n - 2 degrees of freedom, as
 * scipy.stats.linregress (tests/ref/trend-ref.py). gate trend takes y as
 * the log of head's median in each record, so the slope is the creep per
 * record and slope * (n - 1) the creep over the range. stats_steps tests
 * the mean of the records' paired log-ratios instead, as
 * scipy.stats.ttest_1samp: gate trend's creep test since head's level
 * drifts with the machine (issue 38 item 3).
 */
#include "stats.h"

#include <math.h>

#include <gsl/gsl_cdf.h>

#include "common/error.h"
#include "common/banned.h"

int stats_trend(struct stats_trend *out, const double *y, size_t n)
{
	double xm = (double)(n - 1) / 2, ym = 0, sxx = 0, sxy = 0, sse = 0;
	size_t i;

	if (n < 3)
		return error("a trend needs at least 3 values, got %zu", n);
	for (i = 0; i < n; i++) {
		if (!isfinite(y[i]))
			return error("a trend of a value that is not finite");
		ym += y[i];
	}
	ym /= (double)n;
	for (i = 0; i < n; i++) {
		double dx = (double)i - xm;

		sxx += dx * dx;
		sxy += dx * (y[i] - ym);
	}
	out->slope = sxy / sxx;
	out->intercept = ym - out->slope * xm;
	for (i = 0; i < n; i++) {
		double r = y[i] - out->intercept - out->slope * (double)i;

		sse += r * r;
	}
	out->df = (double)(n - 2);
	out->se = sqrt(sse / out->df / sxx);
	out->n = n;
	out->span = (double)(n - 1);
	if (out->se > 0) {
		double t = out->slope / out->se;

		out->p_up = gsl_cdf_tdist_Q(t, out->df);
	} else {
		out->p_up = out->slope > 0 ? 0 : out->slope < 0 ? 1 : 0.5;
	}
	return 0;
}

int stats_steps(struct stats_trend *out, const double *d, size_t n)
{
	double m = 0, ss = 0;
	size_t i;

	if (n < 3)
		return error("a test of steps needs at least 3 values, got %zu",
			     n);
	for (i = 0; i < n; i++) {
		if (!isfinite(d[i]))
			return error("a step that is not finite");
		m += d[i];
	}
	m /= (double)n;
	for (i = 0; i < n; i++)
		ss += (d[i] - m) * (d[i] - m);
	out->slope = m;
	out->intercept = 0;
	out->df = (double)(n - 1);
	out->se = sqrt(ss / out->df / (double)n);
	out->n = n;
	out->span = (double)n;
	if (out->se > 0)
		out->p_up = gsl_cdf_tdist_Q(m / out->se, out->df);
	else
		out->p_up = m > 0 ? 0 : m < 0 ? 1 : 0.5;
	return 0;
}

int stats_trend_creep(const struct stats_trend *t, double alpha,
		      double floor)
{
	return t->n >= 3 && t->p_up <= alpha &&
	       exp(t->slope * t->span) > 1 + floor;
}
