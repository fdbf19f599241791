#!/usr/bin/env bash
# mcp-lint's benchmark, one command: bench/run.sh
#
# 1. Builds the corpora (cached): `cargo vendor` of ../shared/bench/corpus-manifest (the
#    pinned real-world corpus) and the generated MCP-dense corpus (every file has tool
#    handlers).
# 2. Builds mcp-lint and the baseline binary (mcp-lint-bench) with --release, and installs
#    ast-grep (`pip install ast-grep-cli`) into a virtualenv.
# 3. Measures wall time, CPU time (user + sys) and peak RSS (/usr/bin/time) of: reading every
#    file, `syn::parse_file` on every file, the four-rule ast-grep config, and mcp-lint cold
#    (empty result cache) and warm (second run), on both corpora; best of $BENCH_RUNS runs
#    after one warm-up run (the OS page cache is warm for every tool alike).
# 4. Prints a Markdown report with the ratios and the issue's targets, also written to
#    $BENCH_DIR/results.md.
#
# Environment: BENCH_DIR (default target/bench), BENCH_RUNS (3), BENCH_THREADS (nproc),
# BENCH_CRATES (400, size of the dense corpus), BENCH_NO_PREFILTER=1 to add a full-analysis
# run of the vendored corpus (slow: minutes, several GB of memory).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
# shared/ sits beside the repository (in a git worktree: beside the main checkout).
shared=${BENCH_SHARED:-$repo/../shared/bench}
if [ ! -d "$shared" ]; then
    common=$(cd "$repo" && git rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
    [ -n "$common" ] && shared=$(dirname "$(dirname "$common")")/shared/bench
fi
if [ ! -d "$shared/corpus-manifest" ]; then
    echo "bench: no ../shared/bench beside the repository; set BENCH_SHARED" >&2
    exit 2
fi
dir=${BENCH_DIR:-$repo/target/bench}
runs=${BENCH_RUNS:-3}
threads=${BENCH_THREADS:-$(nproc)}
crates=${BENCH_CRATES:-400}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
export CARGO_TERM_COLOR=never

if [ ! -x /usr/bin/time ]; then
    echo "bench: /usr/bin/time is required (Debian: apt-get install time)" >&2
    exit 2
fi

echo "== corpora" >&2
if [ ! -f "$dir/vendor/.complete" ]; then
    rm -rf "$dir/manifest" "$dir/vendor"
    cp -r "$shared/corpus-manifest" "$dir/manifest"
    chmod -R u+w "$dir/manifest"
    # Its own workspace root, wherever the copy lives.
    grep -q '^\[workspace\]' "$dir/manifest/Cargo.toml" || printf '\n[workspace]\n' >> "$dir/manifest/Cargo.toml"
    cargo vendor --quiet --locked --manifest-path "$dir/manifest/Cargo.toml" "$dir/vendor" > /dev/null
    touch "$dir/vendor/.complete"
fi

echo "== build (release)" >&2
# The parse-only baseline twice: with the system allocator (the plain `syn` figure) and with
# mimalloc, the allocator mcp-lint is built with (the same terms as mcp-lint).
(cd "$repo" && cargo build --release --quiet -p mcp-lint-bench --features mimalloc)
cp "$repo/target/release/mcp-lint-bench" "$dir/mcp-lint-bench-mimalloc"
(cd "$repo" && cargo build --release --quiet -p mcp-lint -p mcp-lint-bench)
lint="$repo/target/release/mcp-lint"
base="$repo/target/release/mcp-lint-bench"
if [ ! -f "$dir/dense/.complete-$crates" ]; then
    "$base" gen-dense "$dir/dense" --crates "$crates" --seed 1 > /dev/null
    touch "$dir/dense/.complete-$crates"
fi

echo "== ast-grep" >&2
if [ ! -x "$dir/venv/bin/ast-grep" ]; then
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install --quiet ast-grep-cli
fi
sg="$dir/venv/bin/ast-grep"

# measure NAME CMD... : best wall time of $runs runs after a warm-up, with that run's CPU
# time, and the largest peak RSS seen. Appends "NAME wall cpu rss_kb" to $dir/rows.
# A command's exit status is ignored (mcp-lint exits 1 when it finds something); a command
# that is killed or exits 2 or more stops the benchmark.
: > "$dir/rows"
measure() {
    local name=$1
    shift
    local best_wall="" best_cpu="" max_rss=0 i
    for ((i = 0; i <= runs; i++)); do
        [ -n "${BEFORE_EACH:-}" ] && eval "$BEFORE_EACH"
        local status=0
        /usr/bin/time -f "%e %U %S %M" -o "$dir/time.out" "$@" > "$dir/stdout" 2> "$dir/stderr" || status=$?
        if [ "$status" -ge 2 ]; then
            echo "bench: '$*' failed with status $status:" >&2
            tail -5 "$dir/stderr" >&2
            exit 2
        fi
        [ "$i" -eq 0 ] && continue
        read -r wall user sys rss < <(tail -1 "$dir/time.out")
        local cpu
        cpu=$(echo "$user + $sys" | bc)
        if [ -z "$best_wall" ] || (($(echo "$wall < $best_wall" | bc))); then
            best_wall=$wall
            best_cpu=$cpu
        fi
        ((rss > max_rss)) && max_rss=$rss
    done
    echo "$name $best_wall $best_cpu $max_rss" >> "$dir/rows"
    printf '  %-26s %8.2f s wall %8.2f s cpu %8.1f MB\n' "$name" "$best_wall" "$best_cpu" "$(echo "$max_rss / 1024" | bc -l)" >&2
}

cache="$dir/lint-cache"
for corpus in vendor dense; do
    echo "== $corpus" >&2
    measure "$corpus.read" "$base" read "$dir/$corpus" --threads "$threads"
    measure "$corpus.parse" "$base" parse "$dir/$corpus" --threads "$threads"
    measure "$corpus.parse-mimalloc" "$dir/mcp-lint-bench-mimalloc" parse "$dir/$corpus" --threads "$threads"
    measure "$corpus.ast-grep" "$sg" scan -c "$shared/ast-grep-baseline/sgconfig.yml" -j "$threads" \
        --no-ignore vcs --no-ignore dot --no-ignore exclude --no-ignore global "$dir/$corpus"
    BEFORE_EACH="rm -rf '$cache'" measure "$corpus.lint-cold" \
        env MCP_LINT_CACHE_DIR="$cache" "$lint" check --format concise --threads "$threads" "$dir/$corpus"
    measure "$corpus.lint-warm" \
        env MCP_LINT_CACHE_DIR="$cache" "$lint" check --format concise --threads "$threads" "$dir/$corpus"
    measure "$corpus.lint-1-thread" "$lint" check --no-cache --format concise --threads 1 "$dir/$corpus"
done
if [ "${BENCH_NO_PREFILTER:-0}" = 1 ]; then
    measure "vendor.lint-no-prefilter" "$lint" check --no-cache --no-prefilter --format concise --threads "$threads" "$dir/vendor"
fi

# ------------------------------------------------------------------ report
get() { awk -v n="$1" -v f="$2" '$1 == n { print $f }' "$dir/rows"; }
ratio() { echo "scale=3; $1 / $2" | bc -l; }
files() { find "$dir/$1" -name '*.rs' -not -path '*/.*' | wc -l; }
mbytes() { find "$dir/$1" -name '*.rs' -not -path '*/.*' -printf '%s\n' | awk '{ s += $1 } END { printf "%.0f", s / 1048576 }'; }
verdict() { if (($(echo "$1" | bc -l))); then echo "met"; else echo "**missed**"; fi; }
{
    echo "## Run of $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "- machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), $(free -g | awk '/Mem:/ { print $2 }') GB RAM, $(uname -sr)"
    echo "- load average before the run: $(cut -d' ' -f1-3 /proc/loadavg); threads per tool: $threads; best of $runs runs after a warm-up"
    echo "- mcp-lint $("$lint" --version | cut -d' ' -f2) ($(cd "$repo" && git rev-parse --short HEAD 2>/dev/null || echo unknown)), $("$sg" --version), $(rustc --version | cut -d' ' -f1-2)"
    echo "- vendored corpus: $(files vendor) files, $(mbytes vendor) MB; MCP-dense corpus: $(files dense) files, $(mbytes dense) MB ($crates crates)"
    echo
    echo "| corpus | run | wall (s) | CPU (s) | peak RSS (MB) |"
    echo "|---|---|---:|---:|---:|"
    while read -r name wall cpu rss; do
        printf '| %s | %s | %.2f | %.2f | %.0f |\n' "${name%%.*}" "${name#*.}" "$wall" "$cpu" "$(echo "$rss / 1024" | bc -l)"
    done < "$dir/rows"
    echo
    vc=$(get vendor.lint-cold 2) vp=$(get vendor.parse 2) va=$(get vendor.ast-grep 2) vw=$(get vendor.lint-warm 2)
    dc=$(get dense.lint-cold 2) dp=$(get dense.parse 2) dw=$(get dense.lint-warm 2)
    vpm=$(get vendor.parse-mimalloc 2) dpm=$(get dense.parse-mimalloc 2)
    peak=$(awk '$1 ~ /lint-(cold|warm|1-thread)$/ && $4 > m { m = $4 } END { print m / 1024 }' "$dir/rows")
    echo "| target (wall-time ratios, one run) | measured | target | |"
    echo "|---|---:|---:|---|"
    r=$(ratio "$vc" "$vp"); echo "| vendored: cold lint / parse-only | $r | ≤ 0.2 | $(verdict "$r <= 0.2") |"
    r=$(ratio "$va" "$vc"); echo "| vendored: ast-grep / cold lint | $r× | ≥ 10× | $(verdict "$r >= 10") |"
    r=$(ratio "$dc" "$dp"); echo "| MCP-dense: cold lint / parse-only | $r | ≤ 1.5 | $(verdict "$r <= 1.5") |"
    r=$(ratio "$vc" "$vpm"); echo "| vendored: cold lint / parse-only, both with mimalloc | $r | ≤ 0.2 | $(verdict "$r <= 0.2") |"
    r=$(ratio "$dc" "$dpm"); echo "| MCP-dense: cold lint / parse-only, both with mimalloc | $r | ≤ 1.5 | $(verdict "$r <= 1.5") |"
    r=$(ratio "$vw" "$vc"); echo "| vendored: warm / cold | $r | ≤ 0.2 | $(verdict "$r <= 0.2") |"
    r=$(ratio "$dw" "$dc"); echo "| MCP-dense: warm / cold | $r | ≤ 0.2 | $(verdict "$r <= 0.2") |"
    echo "| peak RSS of any mcp-lint run | $(printf '%.0f' "$peak") MB | < 200 MB | $(verdict "$peak < 200") |"
    echo
    echo "CPU-time ratios (less sensitive to other load on the machine):"
    echo "vendored cold/parse $(ratio "$(get vendor.lint-cold 3)" "$(get vendor.parse 3)"),"
    echo "MCP-dense cold/parse $(ratio "$(get dense.lint-cold 3)" "$(get dense.parse 3)"),"
    echo "MCP-dense cold/parse with mimalloc $(ratio "$(get dense.lint-cold 3)" "$(get dense.parse-mimalloc 3)"),"
    echo "MCP-dense 1-thread/parse $(ratio "$(get dense.lint-1-thread 3)" "$(get dense.parse 3)")."
} | tee "$dir/results.md"
