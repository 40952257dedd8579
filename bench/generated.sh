#!/bin/sh
# The strategies on generated apps: `roam sim generate` with seeds 1..APPS, ACTIVITIES
# activities each (navigation trees up to 9 deep, forms with validated input, dialogs,
# self-changing widgets, planted bugs), then one `roam bench` over them. The shipped suite
# (apps/bench) is small enough that random covers nearly all of it in 10,000 events, so ratios
# to random there are capped; these larger apps leave room between random and the planner.
#
#   bench/generated.sh
#   ROAM=build/roam APPS=6 ACTIVITIES=40 BUGS=6 SEEDS=5 EVENTS=10000 OUT=out/generated \
#     STRATEGIES=random,fastbot,timetravel:random,planner bench/generated.sh
set -eu
ROAM=${ROAM:-build/roam}
APPS=${APPS:-6}
ACTIVITIES=${ACTIVITIES:-40}
BUGS=${BUGS:-6}
SEEDS=${SEEDS:-5}
EVENTS=${EVENTS:-10000}
OUT=${OUT:-out/generated}
STRATEGIES=${STRATEGIES:-random,fastbot:pm,fastbot:rl,fastbot,timetravel:random,timetravel:fastbot,planner}

mkdir -p "$OUT/apps"
i=1
while [ "$i" -le "$APPS" ]; do
  # Without the activities only an intent reaches (--outside-ratio, --intent-bugs): the apps
  # these figures were measured on.
  "$ROAM" sim generate --outside-ratio 0 --intent-bugs 0 --seed "$i" --activities "$ACTIVITIES" --bugs "$BUGS" \
    --out "$OUT/apps/gen$i.json" >/dev/null
  i=$((i + 1))
done
"$ROAM" bench --apps "$OUT/apps" --strategies "$STRATEGIES" --seeds "$SEEDS" \
  --events "$EVENTS" --jobs 2 -q --out "$OUT/bench" --json "$OUT/bench.json"
