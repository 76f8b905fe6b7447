/* Loading a --lib kernel in the library worker (include/gelulab/runner.h, gl_lib_kernel_load),
 * with errors that say which: the file is not there, a library it needs is missing (the
 * loader's own words), or the symbol is not in it (with the library's exported functions that
 * look like kernels, read from its dynamic symbol table). */
#include <ctype.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gelulab/runner.h"

/* edit distance between a and b (both under 128 characters; longer ones count as far) */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 127 || lb > 127) return 1000;
    int d[128][128];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), u = d[i - 1][j] + 1,
                l = d[i][j - 1] + 1;
            d[i][j] = c < u ? (c < l ? c : l) : (u < l ? u : l);
        }
    return d[la][lb];
}

/* how much a function name looks like an activation kernel: lower is closer */
static int kernel_rank(const char *name, const char *want)
{
    char low[128];
    size_t i = 0;
    for (; name[i] && i < sizeof low - 1; i++) low[i] = (char)tolower((unsigned char)name[i]);
    low[i] = 0;
    static const char *const words[] = {"gelu", "silu", "swish", "erf", "tanh", "act", "sigm"};
    int word = 0;
    for (size_t w = 0; w < sizeof words / sizeof *words && !word; w++)
        word = strstr(low, words[w]) != NULL;
    return (word ? 0 : 1000) + distance(name, want);
}

struct ranked {
    const char *name;
    int rank;
};

static int by_rank(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    return x->rank != y->rank ? x->rank - y->rank : strcmp(x->name, y->name);
}

/* The defined global functions of the ELF file at path (its .dynsym), those that look most like
 * kernels first, as "a, b, c (N exported functions)" into out; 0, or -1 when it cannot be read */
static int exported_functions(const char *path, const char *want, char *out, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || (size_t)st.st_size < sizeof(Elf64_Ehdr)) {
        if (fd >= 0) close(fd);
        return -1;
    }
    size_t size = (size_t)st.st_size;
    const unsigned char *f = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (f == MAP_FAILED) return -1;
    const Elf64_Ehdr *eh = (const void *)f;
    int rc = -1;
    /* every offset and size checked without overflow: off <= size and len <= size - off */
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > size || eh->e_shoff % 8 ||
        eh->e_shnum > (size - eh->e_shoff) / sizeof(Elf64_Shdr))
        goto done;
    const Elf64_Shdr *sh = (const void *)(f + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr *str = &sh[sh[i].sh_link];
        if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset ||
            sh[i].sh_offset % 8 || str->sh_offset > size || str->sh_size > size - str->sh_offset)
            goto done;
        const Elf64_Sym *sym = (const void *)(f + sh[i].sh_offset);
        size_t nsym = sh[i].sh_size / sizeof *sym, nf = 0;
        struct ranked *r = malloc((nsym + 1) * sizeof *r);
        if (!r) goto done;
        for (size_t j = 0; j < nsym; j++) {
            int bind = ELF64_ST_BIND(sym[j].st_info);
            if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || sym[j].st_shndx == SHN_UNDEF ||
                (bind != STB_GLOBAL && bind != STB_WEAK) || sym[j].st_name >= str->sh_size)
                continue;
            const char *name = (const char *)(f + str->sh_offset + sym[j].st_name);
            if (!memchr(name, 0, str->sh_size - sym[j].st_name) || name[0] == '_') continue;
            r[nf].name = name, r[nf].rank = kernel_rank(name, want), nf++;
        }
        qsort(r, nf, sizeof *r, by_rank);
        size_t used = 0;
        out[0] = 0;
        for (size_t j = 0; j < nf && j < 8 && used < len; j++)
            used += (size_t)snprintf(out + used, len - used, "%s%s", j ? ", " : "", r[j].name);
        if (used < len)
            snprintf(out + used, len - used, nf ? " (%zu exported function%s)" : "none", nf,
                     nf == 1 ? "" : "s");
        free(r);
        rc = 0;
        break;
    }
done:
    munmap((void *)f, size);
    return rc;
}

int gl_lib_kernel_load(struct gl_lib_kernel *k, const char *path, const char *symbol, int backward,
                       enum gl_kernel_abi abi)
{
    k->fwd = NULL, k->bwd = NULL, k->u16 = NULL, k->f64 = NULL, k->abi = abi;
    if (strchr(path, '/') && access(path, F_OK) != 0) {
        gl_worker_say("file not found: %s", path);
        return -1;
    }
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *e = dlerror();
        char dep[300] = "";
        const char *colon = e ? strstr(e, ": cannot open shared object file") : NULL;
        if (colon) snprintf(dep, sizeof dep, "%.*s", (int)(colon - e), e);
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        if (*dep && strcmp(dep, path) && strcmp(dep, base))
            gl_worker_say("%s is there, but a library it needs is missing: %s", path, e);
        else if (*dep)
            gl_worker_say("file not found: %s (not in the current directory, nor where the "
                          "loader looks: %s)",
                          path, e);
        else
            gl_worker_say("cannot load %s: %s", path, e ? e : "unknown error");
        return -1;
    }
    void *sym = dlsym(h, symbol);
    if (!sym) {
        struct link_map *lm = NULL;
        char have[700] = "";
        if (dlinfo(h, RTLD_DI_LINKMAP, &lm) != 0 || !lm ||
            exported_functions(lm->l_name, symbol, have, sizeof have) != 0)
            snprintf(have, sizeof have, "(its symbol table could not be read)");
        gl_worker_say("symbol not found: no '%s' in %s; its exported functions that look most "
                      "like kernels: %s",
                      symbol, path, have);
        return -1;
    }
    if (backward)
        *(void **)&k->bwd = sym;
    else if (gl_kernel_abi_is16(abi))
        *(void **)&k->u16 = sym;
    else
        *(void **)&k->fwd = sym;
    return 0;
}
