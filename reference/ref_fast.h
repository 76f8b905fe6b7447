/* Internal to reference/: the libm accuracy the fast path assumes (ulps), for the self-check. */
#ifndef GL_REFERENCE_REF_FAST_H
#define GL_REFERENCE_REF_FAST_H
#define GL_LIBM_ERFC_ULP 8.0
#define GL_LIBM_EXP_ULP  2.0
#endif
