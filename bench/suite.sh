#!/bin/sh
# The whole comparison in one command: every strategy on the shipped suite (apps/bench), on
# twelve generated apps from fixed seeds (101..112, `roam sim generate`'s default shape), and on
# the recorded real apps imported into IMPORTED (when that folder holds specs), at 2,000 events
# (about half an hour on a phone at the speed of `uiautomator dump`) and at 10,000, 5 seeds.
# Prints the overall table of each; the full tables and run folders stay under OUT.
#
#   bench/suite.sh                      (from the project folder)
#   ROAM=build/roam SEEDS=5 EVENTS="2000 10000" OUT=out/suite IMPORTED=out/imported \
#     STRATEGIES=random,fastbot,oracle bench/suite.sh
set -eu
ROAM=${ROAM:-build/roam}
SEEDS=${SEEDS:-5}
EVENTS=${EVENTS:-2000 10000}
OUT=${OUT:-out/suite}
IMPORTED=${IMPORTED:-}
STRATEGIES=${STRATEGIES:-random,fastbot:pm,fastbot:rl,fastbot,timetravel:random,timetravel:fastbot,oracle}

mkdir -p "$OUT/generated"
for seed in 101 102 103 104 105 106 107 108 109 110 111 112; do
  "$ROAM" sim generate --seed "$seed" --activities 40 --bugs 6 \
    --out "$OUT/generated/gen$seed.json" >/dev/null
done

groups="bench:apps/bench generated:$OUT/generated"
if [ -n "$IMPORTED" ] && ls "$IMPORTED"/*.json >/dev/null 2>&1; then
  groups="$groups imported:$IMPORTED"
else
  echo "(no imported real apps: set IMPORTED to a folder of specs from \`roam sim import\`)"
fi

for events in $EVENTS; do
  for group in $groups; do
    name=${group%%:*}
    apps=${group#*:}
    table="$OUT/$name-$events.txt"
    "$ROAM" bench --apps "$apps" --strategies "$STRATEGIES" --seeds "$SEEDS" --events "$events" \
      --jobs 2 -q --out "$OUT/runs/$name-$events" --json "$OUT/$name-$events.json" >"$table"
    echo
    echo "#### $name, $events events, $SEEDS seeds (full table: $table)"
    sed -n '/^== overall/,$p' "$table"
  done
done
