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

#endif
