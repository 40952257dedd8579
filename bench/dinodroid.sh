#!/bin/sh
# DinoDroid's transfer experiment: train the dqn strategy's network on generated apps (seeds
# 1001..TRAIN_APPS+1000, which no benchmark and no test uses), then bench random, fastbot, dqn
# and the planner on apps it never saw: the generated apps of bench/generated.sh (seeds 1..6)
# and the shipped suite (apps/bench). Prints the overall table of each.
#
# The training step is the exact command that made the shipped model (data/dqn/model.bin):
#   roam train --apps OUT/train --events 5000 --passes 2 --seed 1 --init-seed 1 --model M
# over `roam sim generate --seed 1001..1010 --activities 40 --bugs 6`, with the word vectors
# setup.sh builds (scripts/word_vectors.sh). MODEL=FILE skips training and benches that model.
#
#   bench/dinodroid.sh                      (from the project folder; about 40 minutes)
#   ROAM=build/roam SEEDS=5 EVENTS=10000 OUT=out/dinodroid MODEL= bench/dinodroid.sh
set -eu
ROAM=${ROAM:-build/roam}
SEEDS=${SEEDS:-5}
EVENTS=${EVENTS:-10000}
OUT=${OUT:-out/dinodroid}
TRAIN_APPS=${TRAIN_APPS:-10}
TRAIN_EVENTS=${TRAIN_EVENTS:-5000}
TRAIN_PASSES=${TRAIN_PASSES:-2}
MODEL=${MODEL:-}
STRATEGIES=${STRATEGIES:-random,fastbot,dqn,planner}

mkdir -p "$OUT/train" "$OUT/test"
if [ -z "$MODEL" ]; then
  MODEL="$OUT/model.bin"
  rm -f "$MODEL"
  i=1
  while [ "$i" -le "$TRAIN_APPS" ]; do
    # Without the activities only an intent reaches (--outside-ratio, --intent-bugs): the apps
    # these figures were measured on.
    "$ROAM" sim generate --outside-ratio 0 --intent-bugs 0 --seed "$((1000 + i))" --activities 40 --bugs 6 \
      --out "$OUT/train/train$((1000 + i)).json" >/dev/null
    i=$((i + 1))
  done
  "$ROAM" train --apps "$OUT/train" --events "$TRAIN_EVENTS" --passes "$TRAIN_PASSES" \
    --seed 1 --init-seed 1 --model "$MODEL" --out "$OUT/train-runs"
fi

i=1
while [ "$i" -le 6 ]; do
  "$ROAM" sim generate --outside-ratio 0 --intent-bugs 0 --seed "$i" --activities 40 --bugs 6 --out "$OUT/test/gen$i.json" >/dev/null
  i=$((i + 1))
done
for group in generated:$OUT/test bench:apps/bench; do
  name=${group%%:*}
  apps=${group#*:}
  table="$OUT/$name.txt"
  "$ROAM" bench --apps "$apps" --strategies "$STRATEGIES" --dqn-model "$MODEL" --seeds "$SEEDS" \
    --events "$EVENTS" --jobs 2 -q --out "$OUT/runs/$name" --json "$OUT/$name.json" >"$table"
  echo
  echo "#### $name, never trained on, $EVENTS events, $SEEDS seeds (full table: $table)"
  sed -n '/^== overall/,$p' "$table"
done
