/* The generic vector kernels (vec/kernels.h) compiled for avx512. */
#include <stddef.h>
#include "vec/isa_avx512.h"
#include "vec/kernels.h"
#include "vec_decls.h"
