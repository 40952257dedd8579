#!/bin/sh
# The drivers on a served phone (issue 42's figures): for each --driver, a run of EVENTS events
# at the simulator's own speed (device process starts an event, what Roam adds a step, units
# against the simulator's for the same seed) and a TIME-second run on `roam sim serve --pace
# phone` (events a minute on a phone's clock). Writes its section of docs/benchmarks.md
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

serve() {  # serve NAME [FLAGS]: roam sim serve in the background
  name=$1; shift
  "$ROAM" sim serve --app "$APP" --port "$PORT" --out "$OUT/serve_$name" -q "$@" &
  SERVE=$!
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    adb_ok=$(python3 -c "import socket; s=socket.socket(); print(s.connect_ex(('127.0.0.1', $PORT)))")
    [ "$adb_ok" = 0 ] && return 0
    sleep 0.2
  done
}
unserve() { kill -INT "$SERVE"; wait "$SERVE" || true; SERVE=; }
explore() {  # explore NAME DRIVER BUDGET...
  name=$1 driver=$2; shift 2
  "$ROAM" explore --serial emulator-5554 --adb-port "$PORT" --package "$PACKAGE" --driver "$driver" \
    --seed 1 --out "$OUT/run_$name" --force -q "$@" >/dev/null 2>&1
}

"$ROAM" explore --app "$APP" --events "$EVENTS" --seed 1 --out "$OUT/run_sim" --force -q >/dev/null 2>&1
for d in uia2 uiautomator; do
  serve "$d"
  explore "$d" "$d" --events "$EVENTS"
  unserve
  serve "pace_$d" --pace phone
  explore "pace_$d" "$d" --events 0 --time "$TIME"
  unserve
done

python3 - "$OUT" "$EVENTS" "$TIME" "$APP" <<'PY' > "$OUT/section.md"
import json, sys
out, events, time, app = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
load = lambda p: json.load(open(f"{out}/{p}/summary.json"))
sim = load("run_sim")
print(f"### The drivers on a served phone ({app}, seed 1)\n")
print(f"`bench/android_drivers.sh {events} {time}`: {events} events at the simulator's speed, then a "
      f"{time} s budget on `roam sim serve --pace phone` (docs/android.md has the pacing table).\n")
print("| driver | device process starts an event | ms a step over adb | units (simulator: "
      f"{sim['units_covered']}) | events in {time} s of a phone | a minute | process starts an event (paced) |")
print("|---|---|---|---|---|---|---|")
rows = {}
for d in ("uia2", "uiautomator"):
    run, served = load(f"run_{d}"), load(f"serve_{d}")
    paced, paced_served = load(f"run_pace_{d}"), load(f"serve_pace_{d}")
    per_min = paced["events"] / paced["wall_seconds"] * 60
    rows[d] = per_min
    print(f"| {d} | {served['process_starts_per_event']:.3f} | {1000 * run['wall_seconds'] / run['events']:.2f} "
          f"| {served.get('units_covered')} | {paced['events']} | {per_min:.1f} "
          f"| {paced_served['process_starts_per_event']:.3f} |")
print(f"\nuia2 makes {rows['uia2'] / rows['uiautomator']:.2f}x the events of uiautomator in a phone's time.")
PY
cat "$OUT/section.md"
python3 - "$OUT/section.md" <<'PY'
import sys, os
path = "docs/benchmarks.md"
begin, end = "<!-- android-drivers: begin (bench/android_drivers.sh writes this) -->", "<!-- android-drivers: end -->"
section = open(sys.argv[1]).read().rstrip() + "\n"
text = open(path).read() if os.path.exists(path) else "# Benchmarks\n\nMeasured figures, each section written by the script it names.\n"
if begin in text:
    head, rest = text.split(begin, 1)
    text = head + begin + "\n" + section + end + rest.split(end, 1)[1]
else:
    text = text.rstrip() + "\n\n" + begin + "\n" + section + end + "\n"
open(path, "w").write(text)
PY
