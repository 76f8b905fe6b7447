/* The machine (include/gelulab/machine.h). */
#include <stdio.h>
#include <string.h>
#include "gelulab/machine.h"

void gl_machine_cpu(struct gl_machine_cpu *cpu)
{
    char *model = cpu->model, *flags = cpu->flags, *id = cpu->id;
    size_t ml = sizeof cpu->model, fl = sizeof cpu->flags, il = sizeof cpu->id;
    static const char *const keys[4] = {"vendor_id", "cpu family", "model", "stepping"};
    char part[4][64] = {"", "", "", ""};
    snprintf(model, ml, "unknown"), snprintf(flags, fl, "unknown"), snprintf(id, il, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    while (f && fgets(line, sizeof line, f)) {
        char *c = strchr(line, ':');
        if (!c || c[1] != ' ') continue;
        c[strcspn(c, "\n")] = '\0';
        size_t kl = strcspn(line, "\t:");
        if (!strncmp(line, "model name", 10) && !strcmp(model, "unknown"))
            snprintf(model, ml, "%s", c + 2);
        if ((kl == 5 && !strncmp(line, "flags", 5)) || (kl == 8 && !strncmp(line, "Features", 8)))
            if (!strcmp(flags, "unknown")) snprintf(flags, fl, "%s", c + 2); /* x86, AArch64 */
        for (int i = 0; i < 4; i++)
            if (kl == strlen(keys[i]) && !strncmp(line, keys[i], kl) && !part[i][0])
                snprintf(part[i], sizeof part[i], "%s", c + 2);
    }
    if (f) fclose(f);
    if (part[0][0] && part[1][0] && part[2][0])
        snprintf(id, il, "%s family %s model %s%s%s", part[0], part[1], part[2],
                 part[3][0] ? " stepping " : "", part[3]);
}
