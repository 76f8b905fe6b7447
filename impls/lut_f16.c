/* fp16 lookup-table GELU, as ggml computes GELU for f32 tensors (ggml_vec_gelu_f32 with
 * GGML_GELU_FP16): x <= -10 gives +0 (sic: ggml's 0.0f, a positive zero), x >= 10 gives x,
 * otherwise x is rounded to binary16 and looked up in a 65 536-entry table of the tanh
 * definition (here correctly rounded to binary16: gelu-tanh-cr-f16's table, impls/tab16.c).
 * Its error is dominated by the two binary16 roundings (of x and of the result): about 2^-11
 * relative, i.e. ~4 000 binary32 ULPs. */
#include <stdint.h>
#include <string.h>
#include "libm_kernels.h"
#include "tab16.h"

static float f16_bits_to_f32(uint16_t h)
{
    _Float16 v;
    memcpy(&v, &h, sizeof v);
    return (float)v;
}

/* x86-64: cloned for x86-64-v3 (F16C: hardware conversions, round to nearest even like the software
 * ones: the same bits, several times faster). */
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void gl_k_gelu_tanh_lut_f16_f32(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float v = x[i];
        if (v <= -10.0f) {
            y[i] = 0.0f;
        } else if (v >= 10.0f) {
            y[i] = v;
        } else {
            _Float16 h = (_Float16)v;
            uint16_t bits;
            memcpy(&bits, &h, sizeof bits);
            y[i] = f16_bits_to_f32(gl_tab16_tanh_f16[bits]);
        }
    }
}
