/* The generic vector kernels (vec/kernels.h) compiled for avx2. */
#include <stddef.h>
#include "vec/isa_avx2.h"
#include "vec/kernels.h"
#include "vec_decls.h"
