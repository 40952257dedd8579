#!/bin/sh
# Fastbot2's reusable model: does a model learned in one run make the next run's first EVENTS
# events cover more activities, on the same app and on a changed version of it?
#
# For each seed: a training run (TRAIN events, seed 100+s) saves its model with --model; then
# four runs of EVENTS events with seed s: the app fresh, the app loading a copy of the trained
# model, version 2 fresh and version 2 loading a copy of the same model (trained on version 1).
# Activities covered are counted from each run's trace.jsonl ("activity" of every act line).
# Prints one line per seed and the medians.
#
#   bench/reuse.sh                      # settings and bench/apps-v2/settings.json, 5 seeds
#   ROAM=build/roam APP=... V2=... TRAIN=2000 EVENTS=500 SEEDS=5 OUT=out/reuse bench/reuse.sh
set -eu
ROAM=${ROAM:-build/roam}
APP=${APP:-apps/bench/settings.json}
V2=${V2:-bench/apps-v2/settings.json}
STRATEGY=${STRATEGY:-fastbot}
TRAIN=${TRAIN:-2000}
EVENTS=${EVENTS:-500}
SEEDS=${SEEDS:-5}
OUT=${OUT:-out/reuse}

activities() {  # distinct activities of the act lines of a trace
  grep '"op":"act"' "$1/trace.jsonl" | grep -o '"activity":"[^"]*"' | sort -u | wc -l
}
explore() {  # app seed events out [--model dir]
  app=$1 seed=$2 events=$3 out=$4
  shift 4
  "$ROAM" explore --app "$app" --strategy "$STRATEGY" --events "$events" --seed "$seed" \
    --out "$out" --force -q "$@" >/dev/null
}
median() { sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

mkdir -p "$OUT"
: >"$OUT/results.txt"
echo "seed  same:fresh same:reused  v2:fresh v2:reused   ($STRATEGY, first $EVENTS events, model trained $TRAIN events on $APP)"
for s in $(seq 1 "$SEEDS"); do
  rm -rf "$OUT/model-s$s" "$OUT/same-model-s$s" "$OUT/v2-model-s$s"
  explore "$APP" $((100 + s)) "$TRAIN" "$OUT/train-s$s" --model "$OUT/model-s$s"
  cp -r "$OUT/model-s$s" "$OUT/same-model-s$s"
  cp -r "$OUT/model-s$s" "$OUT/v2-model-s$s"
  explore "$APP" "$s" "$EVENTS" "$OUT/same-fresh-s$s"
  explore "$APP" "$s" "$EVENTS" "$OUT/same-reused-s$s" --model "$OUT/same-model-s$s"
  explore "$V2" "$s" "$EVENTS" "$OUT/v2-fresh-s$s"
  explore "$V2" "$s" "$EVENTS" "$OUT/v2-reused-s$s" --model "$OUT/v2-model-s$s"
  line="$(activities "$OUT/same-fresh-s$s") $(activities "$OUT/same-reused-s$s") $(activities "$OUT/v2-fresh-s$s") $(activities "$OUT/v2-reused-s$s")"
  echo "$line" >>"$OUT/results.txt"
  echo "$s $line" | awk '{printf "%-5s %10s %12s %9s %10s\n", $1, $2, $3, $4, $5}'
done
printf "median %9s %12s %9s %10s\n" \
  "$(cut -d' ' -f1 "$OUT/results.txt" | median)" "$(cut -d' ' -f2 "$OUT/results.txt" | median)" \
  "$(cut -d' ' -f3 "$OUT/results.txt" | median)" "$(cut -d' ' -f4 "$OUT/results.txt" | median)"
