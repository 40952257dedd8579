#!/bin/sh
# What a coverage dump costs on a phone: TIME-second runs on `roam sim serve --pace phone` (the
# default driver), without coverage, with --coverage jacoco-tcp, and with --coverage jacoco-file
# (the app's receiver writes files/coverage.ec in its private folder; Roam reads it with run-as)
# dumping after every step and after every 3rd and 5th. Prints events a minute, seconds a step,
# milliseconds a dump and the dumps that failed, writes its section of docs/benchmarks.md
# (between the coverage-dumps markers) and prints it.
#
#   bench/coverage_dumps.sh [TIME [APP]]     (default 120 apps/diary.json)
set -eu
cd "$(dirname "$0")/.."
TIME=${1:-120}
APP=${2:-apps/diary.json}
ROAM=$PWD/build/roam
OUT=$(mktemp -d)
trap 'kill $SERVE 2>/dev/null || true; rm -rf "$OUT"' EXIT
SERVE=
PACKAGE=$(python3 -c "import json,sys; print(json.load(open('$APP'))['package'])")
PORT=$((5200 + $$ % 500))
FILE=/data/data/$PACKAGE/files/coverage.ec
TRIGGER="am broadcast -n $PACKAGE/.CoverageReceiver"

for run in none tcp file:1 file:3 file:5; do
  name=$(echo "$run" | tr : _)
  "$ROAM" sim serve --app "$APP" --port "$PORT" --pace phone -q &
  SERVE=$!
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    up=$(python3 -c "import socket; s=socket.socket(); print(s.connect_ex(('127.0.0.1', $PORT)))")
    [ "$up" = 0 ] && break
    sleep 0.2
  done
  set -- --serial emulator-5554 --adb-port "$PORT" --package "$PACKAGE" --seed 1 \
    --events 0 --time "$TIME" --out "$OUT/$name" --force -q
  case $run in
    tcp) set -- "$@" --coverage jacoco-tcp ;;
    file:*) set -- "$@" --coverage "jacoco-file:$FILE" --coverage-trigger "$TRIGGER" \
      --coverage-every "${run#file:}" ;;
  esac
  "$ROAM" explore "$@" >/dev/null 2>&1
  kill -INT "$SERVE"; wait "$SERVE" || true; SERVE=
done

python3 - "$OUT" "$TIME" "$APP" <<'PY' > "$OUT/section.md"
import json, sys
out, time, app = sys.argv[1], sys.argv[2], sys.argv[3]
load = lambda name: json.load(open(f"{out}/{name}/summary.json"))
base = load("none")
step0 = base["wall_seconds"] / base["events"]
print(f"### What a coverage dump costs on a phone ({app}, seed 1)\n")
print(f"`bench/coverage_dumps.sh {time}`: a {time} s budget on `roam sim serve --pace phone` "
      "(the default driver; docs/android.md has the pacing table) without coverage, with "
      "`--coverage jacoco-tcp` and with `--coverage jacoco-file` (the app's receiver, reached by "
      "`am broadcast -n`, writes `files/coverage.ec` in its private folder, which Roam reads and "
      "removes with one `run-as`) every step, every 3rd and every 5th.\n")
print("| coverage | every | events a minute | s a step | ms a dump | dumps (failed) | units |")
print("|---|---|---|---|---|---|---|")
for name, label in (("none", "none"), ("tcp", "jacoco-tcp"), ("file_1", "jacoco-file"),
                    ("file_3", "jacoco-file"), ("file_5", "jacoco-file")):
    s = load(name)
    step = s["wall_seconds"] / s["events"]
    link = s.get("coverage_link") or {}
    every = int(name.split("_")[1]) if "_" in name else 1
    cost = "" if name == "none" else f"{1000 * (step - step0) * every:.0f}"
    dumps = "" if name == "none" else f"{link.get('dumps', 0)} ({link.get('failed', 0)})"
    print(f"| {label} | {'' if name == 'none' else every} | {60 / step:.1f} | {step:.2f} | {cost} "
          f"| {dumps} | {s.get('units_covered') or ''} |")
PY
cat "$OUT/section.md"
python3 bench/doc_section.py coverage-dumps bench/coverage_dumps.sh "$OUT/section.md"
