/* The generic vector kernels (vec/kernels.h) compiled for scalar. */
#include <stddef.h>
#include "vec/isa_scalar.h"
#include "vec/kernels.h"
#include "vec_decls.h"
