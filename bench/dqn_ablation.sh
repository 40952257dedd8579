#!/bin/sh
# DinoDroid's ablations (--dqn-features): a network trained and tested with one feature
# switched off (FCR, its execution count; FCD, its children's histograms; TXC, its words)
# against one with all three. Each is trained as the shipped model was (bench/dinodroid.sh: roam
# train over `roam sim generate --seed 1001..1010`, 5,000 events, two passes; the full model is
# the shipped one, data/dqn/model.bin, unless TRAIN_ALL=1) and benched on apps none was trained
# on: the headline suite's generated apps (seeds 101..112), EVENTS events, SEEDS seeds. Prints
# each variant's overall line and its units against the full network's.
#
#   bench/dqn_ablation.sh                 (from the project folder; about 25 minutes)
#   ROAM=build/roam SEEDS=5 EVENTS=2000 OUT=out/dqn-ablation bench/dqn_ablation.sh
set -eu
ROAM=${ROAM:-build/roam}
SEEDS=${SEEDS:-5}
EVENTS=${EVENTS:-2000}
OUT=${OUT:-out/dqn-ablation}
TRAIN_ALL=${TRAIN_ALL:-0}

mkdir -p "$OUT/train" "$OUT/test"
for i in $(seq 1001 1010); do
  # Without the activities only an intent reaches (--outside-ratio, --intent-bugs): the apps
  # these figures were measured on.
  "$ROAM" sim generate --outside-ratio 0 --intent-bugs 0 --seed "$i" --activities 40 --bugs 6 --out "$OUT/train/train$i.json" >/dev/null
done
for i in $(seq 101 112); do
  "$ROAM" sim generate --outside-ratio 0 --intent-bugs 0 --seed "$i" --activities 40 --bugs 6 --out "$OUT/test/gen$i.json" >/dev/null
done

train() {  # name features
  rm -f "$OUT/$1.bin"
  "$ROAM" train --apps "$OUT/train" --events 5000 --passes 2 --seed 1 --init-seed 1 \
    --dqn-features "$2" --model "$OUT/$1.bin" --out "$OUT/train-runs/$1" -q >/dev/null
}
if [ "$TRAIN_ALL" = 1 ]; then train all fcr,fcd,txc; else cp data/dqn/model.bin "$OUT/all.bin"; fi
# Two at a time: training uses one core.
train no-fcr fcd,txc &
train no-fcd fcr,txc &
wait
train no-txc fcr,fcd

for variant in all:fcr,fcd,txc no-fcr:fcd,txc no-fcd:fcr,txc no-txc:fcr,fcd; do
  name=${variant%%:*}
  "$ROAM" bench --apps "$OUT/test" --strategies dqn --dqn-model "$OUT/$name.bin" \
    --dqn-features "${variant#*:}" --seeds "$SEEDS" --events "$EVENTS" --jobs 2 -q \
    --out "$OUT/runs/$name" --json "$OUT/$name.json" >"$OUT/$name.txt"
done
echo "#### dqn with features left out, $EVENTS events, $SEEDS seeds, generated seeds 101..112"
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
def load(name):
    runs = json.load(open(f"{out}/{name}.json"))["runs"]
    by = {}
    for r in runs:
        by.setdefault(r["app"], []).append(r)
    return by
mean = lambda xs: sum(xs) / len(xs)
full = load("all")
print(f"{'network':10} {'units':>8} {'activities':>10} {'x all (units)':>14} {'crashes+ANRs':>13}")
for name in ["all", "no-fcr", "no-fcd", "no-txc"]:
    by = load(name)
    units = mean([mean([r["units_covered"] for r in rs]) for rs in by.values()])
    acts = mean([mean([r["activities_covered"] for r in rs]) for rs in by.values()])
    ratio = mean([mean([r["units_covered"] for r in by[a]]) /
                  mean([r["units_covered"] for r in full[a]]) for a in by])
    bugs = sum(r["crashes"] + r["anrs"] for rs in by.values() for r in rs)
    print(f"{name:10} {units:8.1f} {acts:10.1f} {ratio:14.3f} {bugs:13d}")
PY
