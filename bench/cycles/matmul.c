/* Matrix product of 256x256 doubles in i-k-j order (base: rows streamed)
   against i-j-k (head: a column of b per result, one miss per element
   read). The same multiply-adds. */
#include <stdio.h>
#ifndef HEAD
#define HEAD 0
#endif
#define N 256
static double a[N][N], b[N][N], c[N][N];

int main(void)
{
	double sum = 0;
	int i, j, k;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			a[i][j] = (i + j) & 7;
			b[i][j] = (i ^ j) & 7;
		}
#if HEAD
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			for (k = 0; k < N; k++)
				c[i][j] += a[i][k] * b[k][j];
#else
	for (i = 0; i < N; i++)
		for (k = 0; k < N; k++)
			for (j = 0; j < N; j++)
				c[i][j] += a[i][k] * b[k][j];
#endif
	for (i = 0; i < N; i++)
		sum += c[i][(i * 7) % N];
	printf("%.0f\n", sum);
	return 0;
}
