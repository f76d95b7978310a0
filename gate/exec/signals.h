/*
 * Signal plumbing: SIGINT/SIGTERM/SIGHUP set a flag instead of killing
 * gate, so every phase can stop its children, clean up and exit 128+sig;
 * SIGCHLD and those signals wake the runner's poll() through a self-pipe.
 */
#ifndef GATE_SIGNALS_H
#define GATE_SIGNALS_H

/* Install the handlers and create the self-pipe; call once from main. */
int signals_init(void);
/* The signal that asked gate to stop, or 0. */
int signals_pending(void);
/* Read end of the self-pipe: readable after any handled signal. */
int signals_fd(void);
/* Empty the self-pipe (call after poll() says it is readable). */
void signals_drain(void);
/* Exit code for an interruption by sig: 128 + sig. */
int signals_exit_code(int sig);
/*
 * Tests only: when $GATE_TEST_STALL names phase, say "gate: test stall:
 * PHASE" on stderr and wait (up to 30 s) for a stop signal, so a test can
 * interrupt a phase too short to hit from outside. Otherwise a no-op.
 */
void signals_test_stall(const char *phase);

#endif
