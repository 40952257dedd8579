#!/bin/sh
# The drivers on a served phone: for each --driver, a run of EVENTS events at the simulator's
# own speed (device process starts an event, what Roam adds a step, units against the
# simulator's for the same seed), and TIME-second runs on `roam sim serve --pace phone` (events a
# minute on a phone's clock) of each driver, uia2 with and without settling, on APP and on APP
# with every screen sliding in for 500 ms (what settling costs a step, and the actions taken on
# a screen mid-transition, as sim serve counts them). Writes its section of docs/benchmarks.md
# (between the android-drivers markers) and prints it.
#
#   bench/android_drivers.sh [EVENTS [TIME [APP]]]     (default 2000 120 apps/diary.json)
set -eu
cd "$(dirname "$0")/.."
EVENTS=${1:-2000}
TIME=${2:-120}
APP=${3:-apps/diary.json}
ROAM=$PWD/build/roam
OUT=$(mktemp -d)
trap 'kill $SERVE 2>/dev/null || true; rm -rf "$OUT"' EXIT
SERVE=
PACKAGE=$(python3 -c "import json,sys; print(json.load(open('$APP'))['package'])")
PORT=$((5200 + $$ % 500))

serve() {  # serve NAME APP [FLAGS]: roam sim serve in the background
  serve_name=$1 serve_app=$2; shift 2
  "$ROAM" sim serve --app "$serve_app" --port "$PORT" --out "$OUT/serve_$serve_name" -q "$@" &
  SERVE=$!
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    adb_ok=$(python3 -c "import socket; s=socket.socket(); print(s.connect_ex(('127.0.0.1', $PORT)))")
    [ "$adb_ok" = 0 ] && return 0
    sleep 0.2
  done
}
unserve() { kill -INT "$SERVE"; wait "$SERVE" || true; SERVE=; }
explore() {  # explore NAME DRIVER FLAGS...
  run_name=$1 run_driver=$2; shift 2
  "$ROAM" explore --serial emulator-5554 --adb-port "$PORT" --package "$PACKAGE" \
    --driver "$run_driver" --seed 1 --out "$OUT/run_$run_name" --force -q "$@" >/dev/null 2>&1
}

# The same app with every screen sliding in for 500 ms when it comes to the front (settle_ms).
SETTLED_APP=$OUT/settling.json
python3 - "$APP" "$SETTLED_APP" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for screen in doc["screens"]:
    screen["settle_ms"] = 500
json.dump(doc, open(sys.argv[2], "w"))
PY

"$ROAM" explore --app "$APP" --events "$EVENTS" --seed 1 --out "$OUT/run_sim" --force -q >/dev/null 2>&1
for d in uia2 uiautomator; do
  serve "$d" "$APP"
  explore "$d" "$d" --events "$EVENTS"
  unserve
done
# A phone's pace: each driver, and uia2 with and without settling, on both apps.
for app in plain settling; do
  a=$APP; [ "$app" = settling ] && a=$SETTLED_APP
  for run in uia2:none uia2:compare uia2:idle uiautomator:compare; do
    d=${run%%:*} settle=${run#*:}
    name="pace_${app}_${d}_${settle}"
    serve "$name" "$a" --pace phone
    explore "$name" "$d" --settle "$settle" --events 0 --time "$TIME"
    unserve
  done
done

python3 - "$OUT" "$EVENTS" "$TIME" "$APP" <<'PY' > "$OUT/section.md"
import json, sys
out, events, time, app = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
load = lambda p: json.load(open(f"{out}/{p}/summary.json"))
sim = load("run_sim")
print(f"### The drivers on a served phone ({app}, seed 1)\n")
print(f"`bench/android_drivers.sh {events} {time}`: {events} events at the simulator's speed, then a "
      f"{time} s budget on `roam sim serve --pace phone` (docs/android.md has the pacing table) for each "
      f"driver, uia2 with `--settle none`, `compare` and `idle` (the default), on the app as it is and on "
      f"the app with every screen sliding in for 500 ms when it comes to the front (`settle_ms` 500).\n")
print("| driver | device process starts an event | ms a step over adb | units (simulator: "
      f"{sim['units_covered']}) |")
print("|---|---|---|---|")
for d in ("uia2", "uiautomator"):
    run, served = load(f"run_{d}"), load(f"serve_{d}")
    print(f"| {d} | {served['process_starts_per_event']:.3f} | {1000 * run['wall_seconds'] / run['events']:.2f} "
          f"| {served.get('units_covered')} |")
print()
print(f"| app | driver | settle | events in {time} s of a phone | a minute | s a step | actions on a screen mid-transition | page sources mid-transition |")
print("|---|---|---|---|---|---|---|---|")
per_min = {}
for a in ("plain", "settling"):
    for d, settle in (("uia2", "none"), ("uia2", "compare"), ("uia2", "idle"), ("uiautomator", "compare")):
        name = f"pace_{a}_{d}_{settle}"
        run, served = load(f"run_{name}"), load(f"serve_{name}")
        m = run["events"] / run["wall_seconds"] * 60
        per_min[(a, d, settle)] = m
        s = served.get("settling", {})
        label = "as it is" if a == "plain" else "500 ms"
        shown = settle if d == "uia2" else "(the dump waits)"
        print(f"| {label} | {d} | {shown} | {run['events']} | {m:.1f} | {60 / m:.2f} "
              f"| {s.get('acted_on_unsettled', 0)} | {s.get('unsettled_reads', 0)} |")
print()
for a, label in (("plain", "as it is"), ("settling", "with 500 ms transitions")):
    none, compare, idle, dump = (per_min[(a, "uia2", "none")], per_min[(a, "uia2", "compare")],
                                 per_min[(a, "uia2", "idle")], per_min[(a, "uiautomator", "compare")])
    print(f"- {label}: settling costs uia2 {1000 * (60 / compare - 60 / none):.0f} ms a step by comparing "
          f"reads, {1000 * (60 / idle - 60 / none):.0f} ms by the server's wait for idle; uia2 makes "
          f"{compare / dump:.2f}x the events of uiautomator settled by comparing, {idle / dump:.2f}x by "
          f"idle, {none / dump:.2f}x unsettled.")
PY
cat "$OUT/section.md"
python3 bench/doc_section.py android-drivers bench/android_drivers.sh "$OUT/section.md"
