#!/usr/bin/env bash
# Runs the cargo-fuzz targets one after another, each for the given number of seconds,
# and fails if any of them crashed.
#
#   scripts/fuzz.sh 600                    # every target, ten minutes each
#   scripts/fuzz.sh 600 page yaml_subset   # only these
#
# The committed seeds in fuzz/corpus/<target>/ are read, never written: new inputs go to a
# scratch folder, $FUZZ_SCRATCH (default: a fresh folder under /tmp), as do the logs and
# any crash input. Needs a nightly toolchain and `cargo install cargo-fuzz`.
set -euo pipefail

usage() {
    echo "usage: scripts/fuzz.sh SECONDS [TARGET...]   (targets: ${ALL[*]})" >&2
    exit 2
}

ALL=(fatbin gguf maps page yaml_subset)

[[ $# -ge 1 && $1 =~ ^[1-9][0-9]*$ ]] || usage
seconds=$1
shift
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${ALL[@]}")
for t in "${targets[@]}"; do
    [[ " ${ALL[*]} " == *" $t "* ]] || { echo "unknown target: $t" >&2; usage; }
done

# The longest input worth trying: the seeds' sizes with room to grow.
max_len() {
    case $1 in
        fatbin) echo 65536 ;;
        gguf | page) echo 16384 ;;
        *) echo 8192 ;;
    esac
}

fuzz_dir=$(cd "$(dirname "$0")/../fuzz" && pwd)
scratch=${FUZZ_SCRATCH:-$(mktemp -d /tmp/evidence-fuzz.XXXXXX)}
mkdir -p "$scratch"
cd "$fuzz_dir"

# One build for every target, so that the timed runs do not include it.
for t in "${targets[@]}"; do
    nice cargo +nightly fuzz build "$t"
done

failed=()
summary=()
for t in "${targets[@]}"; do
    corpus=$scratch/corpus/$t
    artifacts=$scratch/artifacts/$t/
    log=$scratch/$t.log
    mkdir -p "$corpus" "$artifacts"
    echo "== $t: ${seconds}s, new inputs in $corpus, log in $log"
    status=0
    # The page target writes the page it checks under TMPDIR; keep that in the scratch too.
    TMPDIR=$scratch nice cargo +nightly fuzz run "$t" "$corpus" "corpus/$t" -- \
        -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=60 \
        -artifact_prefix="$artifacts" >"$log" 2>&1 || status=$?
    # libFuzzer ends a clean run with "Done N runs in S second(s)"; a crash has no such line.
    done_line=$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -n 1 || true)
    crashes=$(find "$artifacts" -type f | wc -l)
    if [[ -n $done_line && $status -eq 0 && $crashes -eq 0 ]]; then
        runs=$(awk '{print $2}' <<<"$done_line")
        secs=$(awk '{print $5}' <<<"$done_line")
        summary+=("$t: $runs runs in $secs s, 0 crashes")
    else
        last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | awk '{print $1}' || true)
        summary+=("$t: FAILED (exit $status) after ${last:-#?} runs, $crashes crash input(s) in $artifacts")
        failed+=("$t")
        tail -n 40 "$log" >&2
    fi
    echo "${summary[-1]}"
done

echo "== summary (scratch: $scratch)"
printf '%s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "crashed: ${failed[*]}" >&2
    exit 1
fi
