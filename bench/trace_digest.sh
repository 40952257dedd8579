#!/bin/bash
# A refactoring's check that behaviour did not change: runs a fixed set of campaigns (explore with
# four strategies, time travel, a fleet in lockstep, fuzz, vision answered from a recorded
# llm.jsonl, bench) and prints the sha256 of every trace file they write, one line a file.
# Run it before and after a change and compare the two outputs: they must be identical.
#
#   bench/trace_digest.sh [ROAM] > before.txt   ... change, build ...   bench/trace_digest.sh > after.txt
#
# The vision run answers from bench/trace_digest_llm.jsonl, a log recorded once from a stand-in
# for a model (a local test double of the chat API, below), so no model is needed. To record it
# again (after a change to what vision asks): RECORD=1 bench/trace_digest.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
ROAM=${1:-build/roam}
OUT=${OUT:-build/trace_digest}
rm -rf "$OUT"
mkdir -p "$OUT"

run() {  # NAME ARGS...: one run into $OUT/NAME
  local name=$1
  shift
  "$ROAM" "$@" --out "$OUT/$name" -q >/dev/null 2>"$OUT/$name.stderr" || {
    local rc=$?
    # 1 is "found bugs" (docs: exit codes), anything else a failure.
    [ $rc -eq 1 ] || { echo "$name failed ($rc):" >&2; cat "$OUT/$name.stderr" >&2; exit 2; }
  }
}

run random explore --app apps/diary.json --strategy random --events 3000 --seed 1
run fastbot explore --app apps/bench/news.json --strategy fastbot --events 3000 --seed 2
run dqn explore --app apps/diary.json --strategy dqn --events 300 --seed 3
run planner explore --app apps/bench/settings.json --strategy oracle --events 1000 --seed 4
run timetravel explore --app apps/diary.json --strategy timetravel:fastbot --events 2000 --seed 5
run fleet explore --app apps/diary.json --strategy fastbot --devices 2 --lockstep --events 2000 \
  --seed 6
run harness explore --app apps/diary.json --strategy fastbot --input-pct-awkward 50 --events 1000 --seed 7
run fuzz fuzz --app apps/diary.json --events 3000 --seed 8
run bench bench --apps apps/diary.json --strategies random,fastbot --events 1000 --seeds 2 \
  --jobs 1

LLM=bench/trace_digest_llm.jsonl
if [ "${RECORD:-0}" = 1 ]; then
  PORT=$((20000 + RANDOM % 20000))
  python3 bench/chat_double.py "$PORT" &
  DOUBLE=$!
  trap 'kill $DOUBLE 2>/dev/null' EXIT
  sleep 1
  run vision-record vision --app apps/diary.json --events 40 --seed 9 \
    --llm-url "http://127.0.0.1:$PORT/v1" --llm-model stand-in
  cp "$OUT/vision-record/llm.jsonl" "$LLM"
fi
run vision vision --app apps/diary.json --events 40 --seed 9 --llm "replay:$LLM"

cd "$OUT"
find . -name 'trace*.jsonl' | LC_ALL=C sort | xargs sha256sum
