/* gelulab — the machine a result was measured on: the CPU as /proc/cpuinfo names it (the
 * report's facts, and every key of the sweep store). */
#ifndef GELULAB_MACHINE_H
#define GELULAB_MACHINE_H
#include <stddef.h>

struct gl_machine_cpu {
    char model[256];  /* "model name": "AMD EPYC"; "unknown" where absent */
    char flags[4096]; /* x86 "flags", AArch64 "Features" */
    char id[256];     /* "AuthenticAMD family 25 model 17 stepping 1": the model name alone
                       * can be as vague as "AMD EPYC"; "unknown" where not said */
};
/* The first CPU's entries of /proc/cpuinfo */
void gl_machine_cpu(struct gl_machine_cpu *c);

#endif
