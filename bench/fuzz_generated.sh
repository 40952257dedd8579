#!/bin/sh
# Functional fuzzing on apps it was not tuned on: twelve generated apps (`roam sim generate
# --seed 301..312 --activities 40 --bugs 6`, seeds no test or other benchmark uses) and the
# shipped suite apps/bench, fuzz and fastbot at EVENTS events, SEEDS seeds. Prints for each
# group the table of `roam bench` with its functional section: per kind of planted functional
# bug the oracle it is for, planted, found and recall; the recall over the gui_effect bugs; the
# reports' precision; and fuzz's activities against fastbot's at the same events.
#
#   bench/fuzz_generated.sh                 (from the project folder; about 2 minutes)
#   ROAM=build/roam EVENTS=30000 SEEDS=3 OUT=out/fuzz-generated bench/fuzz_generated.sh
#   FIRST_SEED=4 bench/fuzz_generated.sh    (seeds 4..6: another sample, to see the chance in it)
set -eu
ROAM=${ROAM:-build/roam}
EVENTS=${EVENTS:-30000}
SEEDS=${SEEDS:-3}
FIRST_SEED=${FIRST_SEED:-1}
OUT=${OUT:-out/fuzz-generated}

mkdir -p "$OUT/apps"
for s in $(seq 301 312); do
  # Without the activities only an intent reaches (--outside-ratio, --intent-bugs): the apps
  # these figures were measured on.
  "$ROAM" sim generate --outside-ratio 0 --intent-bugs 0 --seed "$s" --activities 40 --bugs 6 --out "$OUT/apps/gen$s.json" >/dev/null
done
for group in generated:$OUT/apps bench:apps/bench; do
  name=${group%%:*}
  apps=${group#*:}
  table="$OUT/$name.txt"
  "$ROAM" bench --apps "$apps" --strategies fuzz,fastbot --seeds "$SEEDS" \
    --first-seed "$FIRST_SEED" --events "$EVENTS" --jobs 2 -q --out "$OUT/runs/$name" \
    --json "$OUT/$name.json" >"$table"
  echo "#### $name: fuzz and fastbot, $EVENTS events, $SEEDS seeds from $FIRST_SEED" \
    "(full table: $table)"
  sed -n '/^== functional bugs/,/^activities fuzz/p' "$table"
  echo
done
