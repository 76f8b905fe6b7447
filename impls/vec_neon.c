/* The generic vector kernels (vec/kernels.h) compiled for neon: libgelulab's AArch64 builds
 * (lib/gelulab.c; tests/test_lib_neon.sh cross-compiles them and runs them under qemu). The
 * NEON evaluator (neon/neon_eval.c) compiles the same kernels into itself. */
#include <stddef.h>
#include "vec/isa_neon.h"
#include "vec/kernels.h"
#include "vec_decls.h"
