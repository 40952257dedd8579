#!/bin/sh
# The headline benchmark: every strategy on generated apps (`roam sim generate --activities 40
# --bugs 6`, the real shape, seeds 101..112) and on every recording of a real app that `roam sim
# import` reads (those under ../shared/real/models when it is there, and IMPORTED=DIR, a folder
# of specs), 5 seeds, on a phone's clock: 30 minutes and 2 hours of a phone with each driver
# (`--clock phone --driver uia2|uiautomator --time T --events 0`). Writes its section of
# docs/benchmarks.md (between the suite markers) and docs/suite-DRIVER.svg, coverage over a
# phone's time per strategy, and prints the section. The runs and tables stay under OUT.
#
#   bench/suite.sh                                      (from the project folder)
#   SEEDS=3 BUDGETS=600 DRIVERS=uia2 GEN_SEEDS="501 502" STRATEGIES=random,fastbot DOC=- \
#     bench/suite.sh                                    (DOC=-: print the section, write no doc)
set -eu
cd "$(dirname "$0")/.."
ROAM=${ROAM:-build/roam}
D_SEEDS=5
D_BUDGETS="1800 7200"
D_DRIVERS="uia2 uiautomator"
D_GEN_SEEDS="101 102 103 104 105 106 107 108 109 110 111 112"
D_STRATEGIES=random,fastbot:pm,fastbot:rl,fastbot,dqn,timetravel:random,timetravel:fastbot,planner,fuzz
SEEDS=${SEEDS:-$D_SEEDS}
BUDGETS=${BUDGETS:-$D_BUDGETS}
DRIVERS=${DRIVERS:-$D_DRIVERS}
GEN_SEEDS=${GEN_SEEDS:-$D_GEN_SEEDS}
STRATEGIES=${STRATEGIES:-$D_STRATEGIES}
OUT=${OUT:-out/suite}
IMPORTED=${IMPORTED:-}
REAL=${REAL:-../shared/real/models}
DOC=${DOC:-docs/benchmarks.md}

rm -rf "$OUT/apps"
mkdir -p "$OUT/apps"
for seed in $GEN_SEEDS; do
  # Without the activities only an intent reaches (--outside-ratio, --intent-bugs): the apps
  # these figures were measured on.
  "$ROAM" sim generate --outside-ratio 0 --intent-bugs 0 --seed "$seed" --activities 40 --bugs 6 --out "$OUT/apps/gen$seed.json" >/dev/null
done
# Each recording as an app named after its repository (rec-REPO, rec-REPO-2, ...); one that
# cannot be imported (no state with its views) is said and left out.
if [ -d "$REAL" ]; then
  find "$REAL" -name utg.js | sort | while read -r utg; do
    repo=$(echo "$utg" | sed "s|^$REAL/[^/]*/||; s|/.*||; s|[^A-Za-z0-9_-]|_|g")
    name=rec-$repo
    k=2
    while [ -e "$OUT/apps/$name.json" ]; do name=rec-$repo-$k; k=$((k + 1)); done
    "$ROAM" sim import "$(dirname "$utg")" --out "$OUT/apps/$name.json" >"$OUT/apps/$name.log" 2>&1 ||
      echo "(not imported: $(dirname "$utg"): $(tail -1 "$OUT/apps/$name.log"))" >&2
  done
fi
if [ -n "$IMPORTED" ]; then cp "$IMPORTED"/*.json "$OUT/apps/"; fi
rm -f "$OUT"/apps/*.log

for driver in $DRIVERS; do
  for budget in $BUDGETS; do
    echo "bench: $driver, $budget s of a phone..." >&2
    "$ROAM" bench --apps "$OUT/apps" --strategies "$STRATEGIES" --seeds "$SEEDS" --events 0 \
      --time "$budget" --clock phone --driver "$driver" --jobs 2 -q \
      --out "$OUT/runs/$driver-$budget" --json "$OUT/$driver-$budget.json" >"$OUT/$driver-$budget.txt"
  done
done

# The command as run: the settings that differ from the defaults before it.
COMMAND=
differs() { [ "$2" = "$3" ] || COMMAND="$COMMAND$1=\"$2\" "; }
for v in SEEDS BUDGETS DRIVERS GEN_SEEDS STRATEGIES; do
  eval "differs $v \"\$$v\" \"\$D_$v\""
done
differs IMPORTED "$IMPORTED" ""
COMMAND="${COMMAND}bench/suite.sh"
python3 bench/suite_section.py --out "$OUT" --doc "$DOC" --command "$COMMAND" \
  --commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  --drivers "$DRIVERS" --budgets "$BUDGETS" --gen-seeds "$GEN_SEEDS"
