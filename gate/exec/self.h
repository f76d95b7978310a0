/*
 * gate's own files that are not gate: the allocation library, the probe
 * and its plugin, the sampler. A build tree keeps them beside the gate
 * binary; make install puts them in ../lib/gate/ from it.
 */
#ifndef GATE_EXEC_SELF_H
#define GATE_EXEC_SELF_H

/*
 * The resolved path of file (malloc'd), the first of cand[0] (beside
 * gate's binary) and cand[1] (../lib/gate/ from it) that access() allows
 * with mode, or NULL. cand[] gets both paths (malloc'd: free them), or
 * NULLs when gate cannot name its own binary (/proc/self/exe).
 */
char *self_file_find(const char *file, int mode, char *cand[2]);

#endif
