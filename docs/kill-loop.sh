#!/usr/bin/env bash
# Kills cold crawls with SIGKILL at a random moment early in their run, then opens each database again.
# Counts the databases that will not open (an H2 fault seen once in CI, see the README's "Crash safety").
#   docs/kill-loop.sh [RUNS]        RUNS defaults to 100, at most 1000; about 2 s a run.
# Everything stays on 127.0.0.1; damaged databases are kept under the work folder it prints.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-100}"
if ! [[ "$runs" =~ ^[0-9]+$ ]] || [ "$runs" -lt 1 ] || [ "$runs" -gt 1000 ]; then
  echo "kill-loop: RUNS must be a number from 1 to 1000" >&2; exit 2
fi
"$root/loomcrawl" --version > /dev/null # builds first if needed, so that no run's time goes to it
work="$(mktemp -d)"
port="${KILL_LOOP_PORT:-18190}"
"$root/loomcrawl" mock-sites --scenario=demo --hosts=30 --pages-per-host=10 --latency=250 --port="$port" \
  --seeds-file="$work/seeds.txt" > "$work/farm.log" 2>&1 &
farm=$!
trap 'kill "$farm" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do [ -s "$work/seeds.txt" ] && break; sleep 0.1; done
[ -s "$work/seeds.txt" ] || { echo "kill-loop: the farm did not start (see $work/farm.log)" >&2; exit 1; }

bad=0
for i in $(seq 1 "$runs"); do
  db="$work/run-$i"
  mkdir -p "$db"
  "$root/loomcrawl" crawl --seeds-file="$work/seeds.txt" --max-depth=3 --per-host=2 --quiet \
    --db="jdbc:h2:$db/c" > "$db/crawl.log" 2>&1 &
  crawl=$!
  ms=$((400 + RANDOM % 1200))
  sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
  kill -9 "$crawl" 2>/dev/null || true
  wait "$crawl" 2>/dev/null || true
  if out="$("$root/loomcrawl" jobs --db="jdbc:h2:$db/c" 2>&1)"; then
    rm -rf "$db"
  else
    bad=$((bad + 1))
    echo "run $i, killed at ${ms} ms: $out"
  fi
done
if [ "$bad" -eq 0 ]; then
  rm -rf "$work"
  echo "databases that would not open: 0 of $runs"
else
  echo "databases that would not open: $bad of $runs (kept under $work)"
fi
