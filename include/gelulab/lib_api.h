/* libgelulab's entry points (include/gelulab.h, generated from this table and the kernel
 * contracts by lib/gen_header.c; dispatched by lib/gelulab.c). X(ALGO, WHAT): the public
 * function gl_ALGO runs the kernel ALGO (impls/algos.list, grads.list, tab16.h; its name in the
 * registry and the reports is ALGO with '-' for '_'), whose contract (GL_CONTRACT_ALGO) gives the
 * bounds its comment states; WHAT says what it guarantees, in a line. One table per ABI: forward
 * binary32, backward binary32, 16-bit (bfloat16, binary16). */
#ifndef GELULAB_LIB_API_H
#define GELULAB_LIB_API_H

#define GL_LIB_FORWARD(X)                                                                          \
    X(gelu_cr, "exact GELU, correctly rounded for every input")                                    \
    X(gelu_accurate, "exact GELU, within 1 ULP")                                                   \
    X(gelu_fast, "exact GELU, fast: a few ULPs")                                                   \
    X(gelu_tanh_accurate,                                                                          \
      "the tanh form (x/2)(1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))), within 1 ULP")                 \
    X(gelu_sigmoid_accurate, "the sigmoid form x sigma(1.702 x), within 1 ULP")

#define GL_LIB_BACKWARD(X)                                                                         \
    X(gelu_grad_accurate, "dx = dy GELU'(x), exact GELU's derivative within 1 ULP")                \
    X(gelu_grad_fast, "dx = dy GELU'(x), exact GELU's derivative, fast")                           \
    X(gelu_tanh_grad_accurate, "dx = dy f'(x), the tanh form's derivative within 1 ULP")           \
    X(gelu_tanh_grad_fast, "dx = dy f'(x), the tanh form's derivative, fast")

#define GL_LIB_16(X)                                                                               \
    X(gelu_cr_bf16, "exact GELU of bfloat16 numbers, correctly rounded to bfloat16")               \
    X(gelu_cr_f16, "exact GELU of binary16 numbers, correctly rounded to binary16")                \
    X(gelu_tanh_cr_bf16, "the tanh form of bfloat16 numbers, correctly rounded to bfloat16")       \
    X(gelu_tanh_cr_f16, "the tanh form of binary16 numbers, correctly rounded to binary16")

/* The parameters of each table's functions (the kernel ABIs of gelulab/kernel.h), for the
 * definitions (lib/gelulab.c) and the header (lib/gen_header.c, as text) */
#define GL_LIB_PARAMS_FWD const float *x, float *y, size_t n
#define GL_LIB_PARAMS_BWD const float *x, const float *dy, float *dx, size_t n
#define GL_LIB_PARAMS_U16 const uint16_t *x, uint16_t *y, size_t n

/* The names of libgelulab 0.1 that 0.2 renamed (docs/design.md, "Names"): X(OLD, ALGO, ABI), the
 * function gl_OLD is gl_ALGO under its old name (an alias of the same code), declared deprecated;
 * removed in 0.3. ABI: FWD, BWD or U16 (GL_LIB_PARAMS_ABI), as the tables above. */
#define GL_LIB_RENAMED(X)                                                                          \
    X(gelu_tanh, gelu_tanh_accurate, FWD)                                                          \
    X(gelu_sigmoid, gelu_sigmoid_accurate, FWD)                                                    \
    X(gelu_grad, gelu_grad_accurate, BWD)                                                          \
    X(gelu_tanh_grad, gelu_tanh_grad_accurate, BWD)                                                \
    X(gelu_tanh_bf16, gelu_tanh_cr_bf16, U16)                                                      \
    X(gelu_tanh_f16, gelu_tanh_cr_f16, U16)

#endif
