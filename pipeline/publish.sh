#!/usr/bin/env bash
# make publish: copy a full (exhaustive) report into docs/report/<cpu>/, one folder per CPU model
# and ISA class, so that a full run on another CPU adds to the published reports instead of
# replacing them; then rewrite the index docs/report/README.md from every folder's meta.tsv.
#   usage: pipeline/publish.sh REPORT_DIR DOCS_REPORT_DIR
#   <cpu>: the CPU model from the report's facts.json, lower case, non-alphanumerics as '-', with
#          '-avx512' when the CPU has AVX-512F (the report then holds the AVX-512 builds)
set -euo pipefail
R=${1:?usage: publish.sh REPORT_DIR DOCS_REPORT_DIR} P=${2:?usage: publish.sh REPORT_DIR DOCS_REPORT_DIR}
[ -f "$R/REPORT.md" ] || { echo "make publish: no $R/REPORT.md: run make report first" >&2; exit 2; }
grep -q '^binary32 sweep: \*\*exhaustive\*\*' "$R/REPORT.md" ||
    { echo "make publish: $R holds a QUICK=1 report; publish only a full one (make report)" >&2; exit 2; }
# cpu, isa, date, commit, mode from the facts the report was made from
meta=$(python3 - "$R/data/facts.json" <<'EOF'
import json, re, sys
m = json.load(open(sys.argv[1]))["machine"]
flags = m.get("cpu_flags", "").split()
isa = "AVX-512" if "avx512f" in flags else "AVX2" if "avx2" in flags else "NEON" if "asimd" in flags else "baseline"
slug = re.sub(r"[^a-z0-9]+", "-", m.get("cpu", "unknown").lower()).strip("-")
slug += "-avx512" if isa == "AVX-512" else ""
# the model name and, where /proc/cpuinfo gave them, its family and model (a virtual CPU's
# name is often the vendor's alone: "AMD EPYC")
fam = re.search(r"family (\d+) model (\d+)", m.get("cpu_id", ""))
cpu = m.get("cpu", "unknown") + (f" (family {fam[1]} model {fam[2]})" if fam else "")
print("\t".join([slug, cpu, isa, m.get("date", "?"), m.get("commit", "?"),
                 str(m.get("cores", "?"))]))
EOF
)
IFS=$'\t' read -r slug cpu isa date commit cores <<<"$meta"
D=$P/$slug
rm -rf "$D" && mkdir -p "$D"
cp "$R/REPORT.md" "$R"/*.png "$R"/*.svg "$D/"
printf 'cpu\tisa\tcores\tdate\tcommit\n%s\t%s\t%s\t%s\t%s\n' "$cpu" "$isa" "$cores" "$date" "$commit" >"$D/meta.tsv"
{
    echo "# Published reports"
    echo
    echo "One full \`make report\` (exhaustive binary32 sweep) per CPU model and ISA class, each"
    echo "published with \`make publish\` from the machine it ran on. Figures differ between them"
    echo "where the kernels run different code (AVX2 or AVX-512 builds, libraries that pick their"
    echo "code at run time) and in every timing. A report names the kernels as the gelulab commit"
    echo "that made it did: gelulab 0.2 (commit 9fe2724) renamed them (\`tanhfast\` is"
    echo "\`gelu-tanh-accurate\`, ...: the table in [docs/design.md](../design.md#names))."
    echo
    echo "| report | CPU | ISA | cores | date | gelulab commit |"
    echo "|---|---|---|---|---|---|"
    for m in "$P"/*/meta.tsv; do
        d=$(basename "$(dirname "$m")")
        tail -n +2 "$m" | while IFS=$'\t' read -r c i n t h; do
            echo "| [$d]($d/REPORT.md) | $c | $i | $n | $t | $h |"
        done
    done
} >"$P/README.md"
echo "make publish: $D refreshed, $P/README.md indexes $(ls "$P"/*/meta.tsv | wc -l) reports; review and commit them"
