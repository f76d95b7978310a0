/*
 * The git layer's long loops (an arm's tags, a tree of many files) look
 * at a pending SIGINT or SIGTERM through this hook, set by the layer above
 * (gate/exec/signals.c's signals_pending), so git/ need not depend on it.
 */
#ifndef GIT_INTERRUPT_H
#define GIT_INTERRUPT_H

/* pending returns non-zero when a signal asks to stop; NULL: never. */
void repo_set_interrupt(int (*pending)(void));
/* 1 when the hook says stop. */
int repo_interrupted(void);

#endif
