/* gelulab — the mathematical definitions an implementation can claim (docs/design.md,
 * "Definitions"). Every kernel names one of these; the reference computes each of them correctly
 * rounded. */
#ifndef GELULAB_DEFN_H
#define GELULAB_DEFN_H

#ifdef __cplusplus
extern "C" {
#endif

enum gl_defn {
    GL_DEFN_EXACT,        /* x*Phi(x) = (x/2)*erfc(-x/sqrt(2))                      */
    GL_DEFN_TANH,         /* (x/2)*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x^3)))        */
    GL_DEFN_SIGMOID,      /* x*sigma(1.702*x)  ("QuickGELU")                        */
    GL_DEFN_SILU,         /* x*sigma(x)        (SiLU / Swish)                       */
    GL_DEFN_EXACT_GRAD,   /* Phi(x) + x*phi(x) (derivative of exact GELU)           */
    GL_DEFN_TANH_GRAD,    /* derivative of the tanh form: sigma(s) (1 + x s' sigma(-s)),
                           * s = 2 sqrt(2/pi) (x + 0.044715 x^3)                   */
    GL_DEFN_SIGMOID_GRAD, /* sigma(a x) (1 + a x sigma(-a x)), a = 1.702          */
    GL_DEFN_SILU_GRAD,    /* sigma(x) (1 + x sigma(-x))                           */
    GL_DEFN_ERF,          /* erf(x)            building block                       */
    GL_DEFN_ERFC,         /* erfc(x)           building block                       */
    GL_DEFN_PHI,          /* Phi(x) = erfc(-x/sqrt(2))/2, standard normal CDF       */
    GL_DEFN_TANHF,        /* tanh(x)           building block                       */
    GL_DEFN_COUNT
};

/* Short name as used on the command line ("exact", "tanh", ...). */
const char *gl_defn_name(enum gl_defn d);
/* The formula, in one line of plain text. */
const char *gl_defn_formula(enum gl_defn d);
/* Parse a short name; returns 0 and sets *d, or -1 when the name is unknown. */
int gl_defn_parse(const char *name, enum gl_defn *d);
/* 1 for the derivatives (exact_grad .. silu_grad) */
int gl_defn_is_grad(enum gl_defn d);
/* The derivative of a GELU definition (exact -> exact_grad, ...); a derivative is its own. */
enum gl_defn gl_defn_grad_of(enum gl_defn d);
/* What a kernel of definition d is measured against besides its own: exact GELU, or its
 * derivative for a derivative */
enum gl_defn gl_defn_exact_of(enum gl_defn d);
/* The zero of a derivative (the minimum of its GELU: x0 = -0.7517915246935645 for exact_grad),
 * to binary64; NaN for the other definitions. */
double gl_defn_root(enum gl_defn d);

#ifdef __cplusplus
}
#endif
#endif
