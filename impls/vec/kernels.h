/* The generic vector kernels, included once per ISA after the ISA header (isa_*.h): the lane
 * model (lanes.h), the shared building blocks (blocks.h) and every algorithm of
 * impls/algos.list (algo/NAME.h, through the generated gl_algo_headers.h), each defining its kernel
 * gl_k_NAME_ISA. */
#include "lanes.h"
#include "blocks.h"
#include "gl_algo_headers.h"
