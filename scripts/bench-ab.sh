#!/usr/bin/env bash
# Two builds of evidence against each other (not a test): the benchmark an optimisation, or a
# change to the release profile, is judged by (PERFORMANCE.md, "The rule for optimisations").
#
#   scripts/bench-ab.sh OLD_BINARY NEW_BINARY          median of 11 runs of each case
#   REPEAT=21 scripts/bench-ab.sh OLD NEW              more runs where the machine is noisy
#
# For example, the binary of the last commit against the working tree's:
#   git worktree add /tmp/old HEAD && (cd /tmp/old && cargo build --release)
#   cargo build --release && scripts/bench-ab.sh /tmp/old/target/release/evidence target/release/evidence
#
# The runs of the two binaries alternate, so a drift in the machine's speed falls on both.
# Cases: 1,000 pages per language (ja+en) built and checked without the parse cache; 100 runs
# x 1,000 cases built cold (every file parsed) and warm (from the parse cache, each binary
# with its own copy of the site, as each keeps only its own entries); this repository's
# investigation site, built without the cache. Each line gives both medians and NEW / OLD.
set -euo pipefail
[ $# -eq 2 ] || { sed -n '2,10p' "$0" >&2; exit 2; }
OLD=$(realpath "$1")
NEW=$(realpath "$2")
cd "$(dirname "$0")/.."
REPEAT=${REPEAT:-11}
WORK=${BENCH_DIR:-/dev/shm/evidence-ab}
[ -d "$(dirname "$WORK")" ] && [ -w "$(dirname "$WORK")" ] || WORK=/tmp/evidence-ab
rm -rf "$WORK" && mkdir -p "$WORK"
cargo build --release -q --example synth
SYNTH=$PWD/target/release/examples/synth

python3 scripts/gen_peer_corpus.py 1000 "$WORK/peers" >/dev/null
"$SYNTH" "$WORK/peers/hugo/content/docs" "$WORK/pages" >/dev/null
printf 'views: [ja, en]\n' >> "$WORK/pages/evidence.yaml"
mkdir -p "$WORK/empty"
"$SYNTH" "$WORK/empty" "$WORK/runs" --runs 100 --cases 1000 >/dev/null
mkdir -p "$WORK/investigation"
cp -r evidence.yaml content data templates locales static "$WORK/investigation/"
for side in old new; do cp -r "$WORK/runs" "$WORK/runs-$side"; done

# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# microseconds that "$@" takes; a failing run stops the comparison
micros() {
  local s; s=$(date +%s%N)
  "$@" >/dev/null 2>"$WORK/err.txt" || { cat "$WORK/err.txt" >&2; echo "failed: $*" >&2; exit 1; }
  echo $(( ($(date +%s%N) - s) / 1000 ))
}

# compare NAME ARGS...: ARGS run by each binary in turn; `{side}` in them becomes old or new
compare() {
  local name=$1; shift
  local old=() new=()
  for _ in $(seq "$REPEAT"); do
    old+=("$(micros "$OLD" "${@//\{side\}/old}")")
    new+=("$(micros "$NEW" "${@//\{side\}/new}")")
  done
  local a b; a=$(printf '%s\n' "${old[@]}" | median); b=$(printf '%s\n' "${new[@]}" | median)
  printf '%-36s old %9.1f ms   new %9.1f ms   new/old %.3f\n' "$name" \
    "$(echo "$a / 1000" | bc -l)" "$(echo "$b / 1000" | bc -l)" "$(echo "$b / $a" | bc -l)"
}

compare "1,000 pages ja+en, build" build --no-cache --root "$WORK/pages" --out "$WORK/out-{side}"
compare "1,000 pages ja+en, check" check --no-cache --root "$WORK/pages"
compare "100 runs x 1,000 cases, cold" build --no-cache --root "$WORK/runs" --out "$WORK/out-{side}"
"$OLD" build --root "$WORK/runs-old" --out "$WORK/out-old" >/dev/null 2>&1
"$NEW" build --root "$WORK/runs-new" --out "$WORK/out-new" >/dev/null 2>&1
compare "100 runs x 1,000 cases, warm" build --root "$WORK/runs-{side}" --out "$WORK/out-{side}"
compare "this investigation, build" build --no-cache --root "$WORK/investigation" --out "$WORK/out-{side}"
rm -rf "$WORK"
