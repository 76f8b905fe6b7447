/* libgelulab's entry points (include/gelulab.h, generated from this table and the kernel
 * contracts by lib/gen_header.c; dispatched by lib/gelulab.c). X(API, ALGO, WHAT): the public
 * function gl_gelu_API runs the kernel ALGO (impls/algos.list, grads.list, tab16.h), whose
 * contract (GL_CONTRACT_ALGO) gives the bounds its comment states; WHAT says what it guarantees,
 * in a line. One table per ABI: forward binary32, backward binary32, 16-bit (bfloat16, binary16).
 */
#ifndef GELULAB_LIB_API_H
#define GELULAB_LIB_API_H

#define GL_LIB_FORWARD(X)                                                                          \
    X(cr, cr, "exact GELU, correctly rounded for every input")                                     \
    X(accurate, accurate, "exact GELU, within 1 ULP")                                              \
    X(fast, fast, "exact GELU, fast: a few ULPs")                                                  \
    X(tanh, tanhfast,                                                                              \
      "the tanh form 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), within 1 ULP")               \
    X(sigmoid, sigmoidfast, "the sigmoid form x sigma(1.702 x), within 1 ULP")

#define GL_LIB_BACKWARD(X)                                                                         \
    X(grad, grad_accurate, "dx = dy GELU'(x), exact GELU's derivative within 1 ULP")               \
    X(grad_fast, grad_fast, "dx = dy GELU'(x), exact GELU's derivative, fast")                     \
    X(tanh_grad, grad_tanh, "dx = dy f'(x), the tanh form's derivative within 1 ULP")              \
    X(tanh_grad_fast, grad_tanhfast, "dx = dy f'(x), the tanh form's derivative, fast")

#define GL_LIB_16(X)                                                                               \
    X(cr_bf16, cr_bf16, "exact GELU of bfloat16 numbers, correctly rounded to bfloat16")           \
    X(cr_f16, cr_f16, "exact GELU of binary16 numbers, correctly rounded to binary16")             \
    X(tanh_bf16, tanhcr_bf16, "the tanh form of bfloat16 numbers, correctly rounded to bfloat16")  \
    X(tanh_f16, tanhcr_f16, "the tanh form of binary16 numbers, correctly rounded to binary16")

#endif
