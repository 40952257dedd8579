#!/usr/bin/env bash
# Peak resident memory of a long exploration: the trace streams to disk, so a 1,000,000-step
# run must stay under 200 MB. Usage: bench/memory.sh [EVENTS] [APP]
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
app=${2:-apps/diary.json}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
build/roam explore -q --app "$app" --events "$events" --seed 1 --out "$out/run" > "$out/stdout" &
pid=$!
peak=0
while kill -0 "$pid" 2>/dev/null; do
  kb=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
  [ -n "$kb" ] && [ "$kb" -gt "$peak" ] && peak=$kb
  sleep 0.2
done
wait "$pid"
end=$(date +%s.%N)
awk -v e="$events" -v a="$app" -v p="$peak" -v s="$start" -v t="$end" \
    -v tr="$(du -h "$out/run/trace.jsonl" | cut -f1)" \
    'BEGIN { printf "events %s  app %s  peak RSS %.1f MB  wall %.1f s  trace %s\n", e, a, p / 1024, t - s, tr }'
