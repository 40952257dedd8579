#!/bin/sh
# Several devices in one run (`roam explore --devices N`, run/explore/fleet.h).
#
# Throughput: fastbot on apps/bench/settings.json for TIME seconds on 1, 2 and 4 simulated
# devices (a time budget, so start-up and the final report do not dilute the figure), and on
# 2 devices learning separate models; events per second over SEEDS seeds and the ratio to one
# device.
#
# Learning together: on the generated apps of bench/generated.sh (`roam sim generate --seed
# 1..APPS --activities 40 --bugs 6`), EVENTS events in all per run: one device; two devices
# sharing one model (EVENTS/2 each); two devices with a model each (--no-shared-model); and two
# devices sharing one model with EVENTS each (about the wall time of one device's run). Activity
# coverage (the union over the devices) and wall time, the mean over SEEDS seeds per app.
#
#   bench/fleet.sh                      (from the project folder; about 5 minutes)
#   ROAM=build/roam TIME=10 APPS=6 EVENTS=20000 SEEDS=3 OUT=out/fleet bench/fleet.sh
set -eu
ROAM=${ROAM:-build/roam}
TIME=${TIME:-10}
APPS=${APPS:-6}
EVENTS=${EVENTS:-20000}
SEEDS=${SEEDS:-3}
OUT=${OUT:-out/fleet}

# The figures of the first line `roam explore` prints: "E events in Ws (...): S states, A
# activities ..." -> "E W A".
figures() {
  head -1 | sed -n 's/^\([0-9]*\) events in \([0-9.]*\)s .*, \([0-9]*\) activities.*/\1 \2 \3/p'
}
explore() {  # app devices seed out [flags]
  app=$1 devices=$2 seed=$3 out=$4
  shift 4
  "$ROAM" explore --app "$app" --strategy fastbot --devices "$devices" --seed "$seed" \
    --out "$out" --force -q "$@" | figures
}

mkdir -p "$OUT/apps"
echo "#### throughput: fastbot, apps/bench/settings.json, $TIME s per run, mean of $SEEDS seeds"
echo "devices          events    events/s  x one device"
one=
for run in 1 2 2:separate 4; do
  devices=${run%%:*}
  flags=
  [ "$run" = "2:separate" ] && flags=--no-shared-model
  events=0 wall=0
  for s in $(seq 1 "$SEEDS"); do
    # shellcheck disable=SC2086
    set -- $(explore apps/bench/settings.json "$devices" "$s" "$OUT/throughput-$devices" \
      --time "$TIME" --events 0 $flags)
    events=$((events + $1))
    wall=$(echo "$wall $2" | awk '{print $1 + $2}')
  done
  rate=$(echo "$events $wall" | awk '{printf "%.0f", $1 / $2}')
  [ -z "$one" ] && one=$rate
  echo "$run $((events / SEEDS)) $rate $one" |
    awk '{printf "%-12s %10s %11s %13.2f\n", $1, $2, $3, $3 / $4}'
done

i=1
while [ "$i" -le "$APPS" ]; do
  # Without the activities only an intent reaches (--outside-ratio, --intent-bugs): the apps
  # these figures were measured on.
  "$ROAM" sim generate --outside-ratio 0 --intent-bugs 0 --seed "$i" --activities 40 --bugs 6 --out "$OUT/apps/gen$i.json" >/dev/null
  i=$((i + 1))
done
echo
echo "#### learning together: $EVENTS events in all per run, mean of $SEEDS seeds"
echo "app     one:act  wall  shared(2):act  wall  separate(2):act  wall  shared(2x):act  wall"
: >"$OUT/together.txt"
for app in "$OUT"/apps/gen*.json; do
  name=$(basename "$app" .json)
  for s in $(seq 1 "$SEEDS"); do
    a=$(explore "$app" 1 "$s" "$OUT/runs/$name-one-s$s" --events "$EVENTS")
    b=$(explore "$app" 2 "$s" "$OUT/runs/$name-shared-s$s" --events "$EVENTS")
    c=$(explore "$app" 2 "$s" "$OUT/runs/$name-separate-s$s" --events "$EVENTS" --no-shared-model)
    d=$(explore "$app" 2 "$s" "$OUT/runs/$name-double-s$s" --events $((2 * EVENTS)))
    echo "$name $a $b $c $d" >>"$OUT/together.txt"
  done
done
# together.txt: app, then (events wall activities) for one, shared, separate, shared with 2x.
awk -v seeds="$SEEDS" '
  { app[$1] = 1; for (k = 0; k < 4; k++) { act[$1, k] += $(4 + 3 * k); wall[$1, k] += $(3 + 3 * k);
    tact[k] += $(4 + 3 * k); twall[k] += $(3 + 3 * k) } n++ }
  END {
    f = "%-7s %7.1f %5.1f %14.1f %5.1f %16.1f %5.1f %15.1f %5.1f\n"
    for (a in app) printf f, a, act[a, 0] / seeds, wall[a, 0] / seeds, act[a, 1] / seeds,
      wall[a, 1] / seeds, act[a, 2] / seeds, wall[a, 2] / seeds, act[a, 3] / seeds,
      wall[a, 3] / seeds | "sort"
    close("sort")
    printf f, "mean", tact[0] / n, twall[0] / n, tact[1] / n, twall[1] / n, tact[2] / n,
      twall[2] / n, tact[3] / n, twall[3] / n
  }' "$OUT/together.txt"
