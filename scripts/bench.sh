#!/usr/bin/env bash
# Benchmark of evidence on synthetic sites built from the peers' corpus (not a test).
#
#   scripts/bench.sh                 N = 1000 and 10000 pages per language
#   N_LIST="1000" scripts/bench.sh   one size only
#   BENCH_DIR=/dev/shm/evidence-bench scripts/bench.sh   on tmpfs, away from a noisy disk
#                                    (give scripts/bench-peers.sh the same BENCH_DIR)
#
# For each N: a clean full build (the removal of the previous output timed with it, as for
# the peers), median of 5 runs, wall time and peak RSS, for the ja+en views and for all
# three views; pages per second; and `evidence check` alone; all without the parse cache,
# as the peers have none. Each build writes once to disk ($WORK) and once to tmpfs
# (/dev/shm, where there is one) and is set against its floor, the work no build can avoid,
# measured in the same run: reading every input file (`cat` to /dev/null) plus copying the
# build's own output with `cp -r` (the removal of the copy timed with it). The ratio
# build / floor is printed, with the output's bytes (of its files) per HTML page.
# Then 100 runs x 1000 cases (100,000 probe cases): load, derive zones and render the run
# tables, with every file parsed (cold) and with the parse cache (warm). Then this
# repository's investigation site: a full build by the binary (process start and writing
# included), median of 20, cold and warm; `serve`'s rebuild after a one-line edit; a
# history of 500 commits (`history: true`); and `evidence diff` of two revisions of it.
# Results go to stdout and $WORK/results.tsv; scripts/bench-peers.sh adds the peers and
# checks the targets.
set -euo pipefail
cd "$(dirname "$0")/.."
N_LIST=${N_LIST:-"1000 10000"}
REPEAT=${REPEAT:-5}
WORK=${BENCH_DIR:-/tmp/evidence-bench}
mkdir -p "$WORK"
cargo build --release -q --bin evidence --example synth
EV=$PWD/target/release/evidence
SYNTH=$PWD/target/release/examples/synth
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time: apt-get install -y time" >&2; exit 2; }

# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# runs "$@" REPEAT times, each after removing $OUT in the same timed command;
# prints "median_seconds max_rss_mib"
measure() {
  local secs=() rss=()
  for _ in $(seq "$REPEAT"); do
    "$TIME" -f "%e %M" -o "$WORK/time.txt" bash -c 'rm -rf "$1" && shift && exec "$@"' _ "$OUT" "$@" >/dev/null
    read -r s m < "$WORK/time.txt"
    secs+=("$s"); rss+=("$m")
  done
  local ms; ms=$(printf '%s\n' "${secs[@]}" | median)
  local mr; mr=$(printf '%s\n' "${rss[@]}" | sort -n | tail -1)
  echo "$ms $((mr / 1024))"
}

# The floor of one build into $out: the median of REPEAT times (read every input file of
# $SITE) + (remove the previous copy, then `cp -r` the output). Prints "floor_s read_s cp_s".
floor() {
  local out=$1 reads=() cps=()
  for _ in $(seq "$REPEAT"); do
    "$TIME" -f "%e" -o "$WORK/time.txt" bash -c 'find "$1" -type f -print0 | xargs -0 cat >/dev/null' _ "$SITE"
    reads+=("$(cat "$WORK/time.txt")")
    "$TIME" -f "%e" -o "$WORK/time.txt" bash -c 'rm -rf "$1.copy" && cp -r "$1" "$1.copy"' _ "$out"
    cps+=("$(cat "$WORK/time.txt")")
  done
  rm -rf "$out.copy"
  local r c; r=$(printf '%s\n' "${reads[@]}" | median); c=$(printf '%s\n' "${cps[@]}" | median)
  echo "$(echo "$r + $c" | bc -l | xargs printf '%.2f') $r $c"
}

# Where outputs go: $WORK, and tmpfs (/dev/shm) too when $WORK is on a disk. Each is named
# by its file system type; the first one's figures are the ones scripts/bench-peers.sh reads.
fstype() { stat -f -c %T "$1"; }
OUT_FS=("$(fstype "$WORK"):$WORK")
if [ "$(fstype "$WORK")" != tmpfs ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  OUT_FS+=("tmpfs:/dev/shm/evidence-bench-out-$$")
fi

printf 'what\tN\tseconds\tpeak_MiB\tpages_per_s\n' | tee "$WORK/results.tsv"
: > "$WORK/floor.tsv"
for N in $N_LIST; do
  PEERS=$WORK/peers-$N
  [ -d "$PEERS/hugo" ] || python3 scripts/gen_peer_corpus.py "$N" "$PEERS" >/dev/null
  SITE=$WORK/site-$N
  rm -rf "$SITE"
  "$SYNTH" "$PEERS/hugo/content/docs" "$SITE" >/dev/null
  cp "$SITE/evidence.yaml" "$WORK/evidence-all.yaml"
  for views in "ja+en" "3 views"; do
    cp "$WORK/evidence-all.yaml" "$SITE/evidence.yaml"
    if [ "$views" = "ja+en" ]; then printf 'views: [ja, en]\n' >> "$SITE/evidence.yaml"; pages=$((2 * N)); else pages=$((3 * N)); fi
    for fs in "${OUT_FS[@]}"; do
      kind=${fs%%:*}; mkdir -p "${fs#*:}"; OUT=${fs#*:}/out-$N
      read -r s m < <(measure "$EV" build --no-cache --root "$SITE" --out "$OUT")
      what="build $views"; [ "$fs" = "${OUT_FS[0]}" ] || what="build $views, $kind"
      printf '%s\t%s\t%s\t%s\t%.0f\n' "$what" "$N" "$s" "$m" "$(echo "$pages / $s" | bc -l)" | tee -a "$WORK/results.tsv"
      read -r f r c < <(floor "$OUT")
      html=$(find "$OUT" -name '*.html' | wc -l)
      bytes=$(find "$OUT" -type f -printf '%s\n' | awk '{b += $1} END {print b}')
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$views" "$kind" "$N" "$s" "$f" "$r" "$c" \
        "$(echo "$s / $f" | bc -l | xargs printf '%.2f')" "$((bytes / html))" >> "$WORK/floor.tsv"
    done
  done
  read -r s m < <(measure "$EV" check --no-cache --root "$SITE")
  printf 'check\t%s\t%s\t%s\t-\n' "$N" "$s" "$m" | tee -a "$WORK/results.tsv"
done
for fs in "${OUT_FS[@]:1}"; do rm -rf "${fs#*:}"; done
echo
echo "the floor (read every input + cp -r of the output), in seconds:"
{ printf 'views\toutput on\tN\tbuild\tfloor\tread\tcp -r\tbuild/floor\tbytes/page\n'; cat "$WORK/floor.tsv"; } | column -t -s $'\t'
echo

RUNS_SITE=$WORK/site-runs
rm -rf "$RUNS_SITE"
mkdir -p "$WORK/empty-docs"
"$SYNTH" "$WORK/empty-docs" "$RUNS_SITE" --runs 100 --cases 1000 >/dev/null
OUT=$WORK/out-runs
# Cold: every run file parsed (--no-cache). Warm: the run files read from the parse cache
# that the first build wrote, as on every build after a run is recorded.
read -r s m < <(measure "$EV" build --no-cache --root "$RUNS_SITE" --out "$OUT")
printf 'runs 100x1000 build, cold\t0\t%s\t%s\t-\n' "$s" "$m" | tee -a "$WORK/results.tsv"
"$EV" build --root "$RUNS_SITE" --out "$OUT" >/dev/null
read -r s m < <(measure "$EV" build --root "$RUNS_SITE" --out "$OUT")
printf 'runs 100x1000 build, warm\t0\t%s\t%s\t-\n' "$s" "$m" | tee -a "$WORK/results.tsv"
read -r s m < <(measure "$EV" check --root "$RUNS_SITE")
printf 'runs 100x1000 check, warm\t0\t%s\t%s\t-\n' "$s" "$m" | tee -a "$WORK/results.tsv"
# Where the time goes (load, model, derive, check, render), cold and warm.
"$EV" build --no-cache --root "$RUNS_SITE" --out "$OUT" --timings 2>&1 >/dev/null | grep '^timings:' || true
"$EV" build --root "$RUNS_SITE" --out "$OUT" --timings 2>&1 >/dev/null | grep '^timings:' || true

# Scale (SCALE=1, minutes and a few GB of tmpfs): 1,000 runs x 1,000 cases (1,000,000 probe
# cases), cold, median of 3 (one build's time moves by a third on a shared machine), with
# where the time goes. For 100,000 pages per language, add 100000 to N_LIST
# (scripts/bench-peers.sh sets it against 10,000: linear is at most 11x).
if [ "${SCALE:-0}" = 1 ]; then
  BIG=$WORK/site-runs-1m
  [ -d "$BIG" ] || "$SYNTH" "$WORK/empty-docs" "$BIG" --runs 1000 --cases 1000 >/dev/null
  OUT=$WORK/out-runs-1m
  read -r s m < <(REPEAT=3 measure "$EV" build --no-cache --root "$BIG" --out "$OUT")
  printf 'runs 1000x1000 build, cold\t0\t%s\t%s\t-\n' "$s" "$m" | tee -a "$WORK/results.tsv"
  "$EV" build --no-cache --root "$BIG" --out "$OUT" --timings 2>&1 >/dev/null | grep '^timings:' || true
  printf 'bytes of its output: %s\n' "$(du -sb "$OUT" | cut -f1)"
  rm -rf "$OUT"
fi

# This repository's investigation site, copied away from the working tree: a full build by
# the binary, median of 20 in ms (GNU time counts only hundredths of a second).
INV=$WORK/investigation
rm -rf "$INV" && mkdir -p "$INV"
cp -r evidence.yaml content data templates locales static "$INV/"
build_ms() {
  local t=()
  for _ in $(seq 20); do
    local s; s=$(date +%s%N)
    # stderr holds check's warnings: shown only when the build fails.
    "$EV" build --root "$INV" "$@" >/dev/null 2>"$WORK/build-err.txt" || { cat "$WORK/build-err.txt" >&2; return 1; }
    t+=($(( ($(date +%s%N) - s) / 1000 )))
  done
  printf '%s\n' "${t[@]}" | median | awk '{printf "%.1f", $1 / 1000}'
}
cold=$(build_ms --no-cache)
printf 'investigation site build, cold (ms)\t0\t%s\t-\t-\n' "$cold" | tee -a "$WORK/results.tsv"
"$EV" build --root "$INV" >/dev/null 2>&1
warm=$(build_ms)
printf 'investigation site build, warm (ms)\t0\t%s\t-\t-\n' "$warm" | tee -a "$WORK/results.tsv"

# `evidence serve` after a one-line edit of content/observers.md on this repository's site:
# full rebuild against incremental rebuild, median of 20 each.
cargo run --release -q --example rebuild | tee "$WORK/rebuild.txt"
awk '/incremental rebuild/ {print "serve rebuild, one-line edit (ms)\t0\t" $4 "\t-\t-"}' "$WORK/rebuild.txt" >> "$WORK/results.tsv"

# The same on the largest synthetic site: a one-line edit of one page of N, in three views.
for N in $N_LIST; do :; done
if [ -d "$WORK/site-$N" ]; then
  TMPDIR=${BENCH_TMP:-/dev/shm} cargo run --release -q --example rebuild -- 20 "$WORK/site-$N" \
    "content/docs/$(printf 'p%05d' $((N / 2))).md" \
    | tee "$WORK/rebuild-$N.txt"
  awk -v n="$N" '/incremental rebuild/ {print "serve rebuild of " n " pages, one-line edit (ms)\t" n "\t" $4 "\t-\t-"}' \
    "$WORK/rebuild-$N.txt" >> "$WORK/results.tsv"
fi

# `history: true` over a synthetic repository of 500 commits (scripts/gen_history_repo.py):
# the build with the history read, against the same build without, median of 5; the
# difference over the commit count is what each commit costs.
HIST=$WORK/history-repo
[ -d "$HIST/.git" ] || python3 scripts/gen_history_repo.py 500 "$HIST"
OUT=$WORK/out-history
read -r with_h _ < <(measure "$EV" build --no-cache --root "$HIST" --out "$OUT")
sed -i 's/^history: true$/history: false/' "$HIST/evidence.yaml"
read -r without_h _ < <(measure "$EV" build --no-cache --root "$HIST" --out "$OUT")
sed -i 's/^history: false$/history: true/' "$HIST/evidence.yaml"
printf 'history of 500 commits, build (s)\t0\t%s\t-\t-\n' "$with_h" | tee -a "$WORK/results.tsv"
printf 'the same build without history (s)\t0\t%s\t-\t-\n' "$without_h" | tee -a "$WORK/results.tsv"
printf 'history, per commit (ms)\t0\t%s\t-\t-\n' \
  "$(echo "($with_h - $without_h) * 1000 / 500" | bc -l | xargs printf '%.2f')" | tee -a "$WORK/results.tsv"

# `evidence diff` between two revisions of this repository's investigation, ten commits
# apart (both sides read through git and loaded, then compared), median of 5 in ms.
if git rev-parse -q --verify HEAD~10 >/dev/null 2>&1; then
  t=()
  for _ in $(seq 5); do
    s=$(date +%s%N)
    "$EV" diff HEAD~10 HEAD --format json >/dev/null
    t+=($(( ($(date +%s%N) - s) / 1000 )))
  done
  ms=$(printf '%s\n' "${t[@]}" | median | awk '{printf "%.1f", $1 / 1000}')
  printf 'diff of two revisions, ten commits apart (ms)\t0\t%s\t-\t-\n' "$ms" | tee -a "$WORK/results.tsv"
fi
