/* Names and formulas of the definitions (include/gelulab/defn.h). */
#include <math.h>
#include <string.h>
#include "gelulab/defn.h"

static const struct {
    const char *name, *formula;
} defns[GL_DEFN_COUNT] = {
    [GL_DEFN_EXACT] = {"exact", "x*Phi(x) = (x/2)*erfc(-x/sqrt(2))"},
    [GL_DEFN_TANH] = {"tanh", "(x/2)*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x^3)))"},
    [GL_DEFN_SIGMOID] = {"sigmoid", "x*sigma(1.702*x) = x/(1 + exp(-1.702*x))"},
    [GL_DEFN_SILU] = {"silu", "x*sigma(x) = x/(1 + exp(-x))"},
    [GL_DEFN_EXACT_GRAD] = {"exact_grad", "Phi(x) + x*phi(x), phi(x) = exp(-x^2/2)/sqrt(2*pi)"},
    [GL_DEFN_TANH_GRAD] = {"tanh_grad", "sigma(s)*(1 + x*s'*sigma(-s)), s = 2*sqrt(2/pi)*(x + "
                                        "0.044715*x^3), s' = 2*sqrt(2/pi)*(1 + 3*0.044715*x^2)"},
    [GL_DEFN_SIGMOID_GRAD] = {"sigmoid_grad", "sigma(1.702*x)*(1 + 1.702*x*sigma(-1.702*x))"},
    [GL_DEFN_SILU_GRAD] = {"silu_grad", "sigma(x)*(1 + x*sigma(-x))"},
    [GL_DEFN_ERF] = {"erf", "erf(x)"},
    [GL_DEFN_ERFC] = {"erfc", "erfc(x)"},
    [GL_DEFN_PHI] = {"phi", "Phi(x) = erfc(-x/sqrt(2))/2"},
    [GL_DEFN_TANHF] = {"tanhf", "tanh(x)"},
};

const char *gl_defn_name(enum gl_defn d)
{
    return (unsigned)d < GL_DEFN_COUNT ? defns[d].name : "?";
}

const char *gl_defn_formula(enum gl_defn d)
{
    return (unsigned)d < GL_DEFN_COUNT ? defns[d].formula : "?";
}

int gl_defn_parse(const char *name, enum gl_defn *d)
{
    for (int i = 0; i < GL_DEFN_COUNT; i++) {
        if (strcmp(name, defns[i].name) == 0) {
            *d = (enum gl_defn)i;
            return 0;
        }
    }
    return -1;
}

int gl_defn_is_grad(enum gl_defn d)
{
    return d >= GL_DEFN_EXACT_GRAD && d <= GL_DEFN_SILU_GRAD;
}

enum gl_defn gl_defn_grad_of(enum gl_defn d)
{
    return d <= GL_DEFN_SILU ? (enum gl_defn)(d + GL_DEFN_EXACT_GRAD) : d;
}

enum gl_defn gl_defn_exact_of(enum gl_defn d)
{
    return gl_defn_is_grad(d) ? GL_DEFN_EXACT_GRAD : GL_DEFN_EXACT;
}

double gl_defn_root(enum gl_defn d)
{
    /* the zeros to 25 digits (mpmath findroot at 50 digits; tests/test_known_values.c checks
     * each against the reference), rounded to binary64 */
    switch (d) {
    case GL_DEFN_EXACT_GRAD:
        return -0.751791524693564457;
    case GL_DEFN_TANH_GRAD:
        return -0.7524614220710162584879544;
    case GL_DEFN_SIGMOID_GRAD:
        return -0.7511542554412889512980956;
    case GL_DEFN_SILU_GRAD:
        return -1.278464542761073795109359;
    default:
        return NAN;
    }
}
