#!/bin/sh
# What starting activities from outside the GUI adds (issue 64): on generated apps no work was
# tuned on (`roam sim generate --seed 401..400+APPS --activities 40 --bugs 6`), at the generator's
# default share of activities only an intent reaches (--outside-ratio 0.1) and at 0.3, random,
# fastbot and dqn explore with --intents on and off, SEEDS seeds each, at 2,000 and 10,000 events
# and an hour of a phone's clock: the activities reached, and in how many runs the planted crash
# of a missing or wrongly typed extra (gen-intent-crash-*) was found. Writes its section of
# docs/benchmarks.md.
#
#   bench/intents.sh [APPS [SEEDS]]      # default 6 apps, 3 seeds (about 25 minutes on 2 cores)
set -eu
cd "$(dirname "$0")/.."
APPS=${1:-6}
SEEDS=${2:-3}
ROAM=build/roam
OUT=${OUT:-build/bench-intents}
rm -rf "$OUT"
for ratio in 0.1 0.3; do
  mkdir -p "$OUT/apps-$ratio"
  i=401
  while [ "$i" -le $((400 + APPS)) ]; do
    "$ROAM" sim generate --seed "$i" --activities 40 --bugs 6 --outside-ratio "$ratio" \
      --out "$OUT/apps-$ratio/gen$i.json" >/dev/null
    i=$((i + 1))
  done
  for budget in "events 2000" "events 10000" "phone 3600"; do
    set -- $budget
    if [ "$1" = phone ]; then limit="--clock phone --time $2"; else limit="--events $2"; fi
    for intents in on off; do
      # shellcheck disable=SC2086
      "$ROAM" bench --apps "$OUT/apps-$ratio" --strategies random,fastbot,dqn $limit \
        --seeds "$SEEDS" --jobs 2 --intents "$intents" -q \
        --out "$OUT/runs/$ratio-$1$2-$intents" --json "$OUT/$ratio-$1$2-$intents.json" >/dev/null
    done
  done
done

python3 - "$OUT" "$APPS" "$SEEDS" <<'PY' > "$OUT/section.md"
import json, sys
out, apps, seeds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
budgets = [("events2000", "2,000 events"), ("events10000", "10,000 events"),
           ("phone3600", "an hour of a phone (uia2)")]
print("### Intents on generated apps (bench/intents.sh)\n")
print(f"`bench/intents.sh {apps} {seeds}`: apps `roam sim generate --seed 401..{400 + apps} "
      "--activities 40 --bugs 6 --outside-ratio R` (R 0.1, the generator's default, and 0.3), "
      f"{seeds} seeds, `roam bench --strategies random,fastbot,dqn --intents on|off`. Activities: "
      "the sum over the runs of the activities reached, with intents against without. Extra "
      "crashes: runs that found the planted crash of a missing or wrongly typed extra "
      "(gen-intent-crash-*), and the apps where it was found in at least 2 of the seeds.\n")
print("| outside | budget | strategy | activities on / off | ratio | extra crashes on | off | apps found in 2+ seeds |")
print("|---|---|---|---|---|---|---|---|")
for ratio in ["0.1", "0.3"]:
    for key, label in budgets:
        runs = {m: json.load(open(f"{out}/{ratio}-{key}-{m}.json"))["runs"] for m in ("on", "off")}
        for strategy in ["random", "fastbot", "dqn"]:
            act, found, per_app = {}, {}, {}
            for m in ("on", "off"):
                rs = [r for r in runs[m] if r["strategy"] == strategy]
                act[m] = sum(r["activities_covered"] for r in rs)
                hits = [r for r in rs
                        if any(b.startswith("gen-intent-crash") for b in r["planted_found"])]
                found[m] = f"{len(hits)} of {len(rs)}"
                if m == "on":
                    for r in hits:
                        per_app[r["app"]] = per_app.get(r["app"], 0) + 1
            two = sum(1 for n in per_app.values() if n >= min(2, seeds))
            print(f"| {ratio} | {label} | {strategy} | {act['on']} / {act['off']} | "
                  f"{act['on'] / max(act['off'], 1):.2f} | {found['on']} | {found['off']} | "
                  f"{two} of {apps} |")
PY
cat "$OUT/section.md"
python3 bench/doc_section.py intents bench/intents.sh "$OUT/section.md"
