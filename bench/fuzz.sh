#!/bin/sh
# Runs the libFuzzer targets (tests/fuzzers, built by setup.sh into build/fuzz) under ASan and
# UBSan: first over their seed corpus, then for SECONDS each. Prints executions per second.
#
#   bench/fuzz.sh                      # every target, 60 s each
#   bench/fuzz.sh --seconds 300 dump   # one target, longer
#   bench/fuzz.sh --ctest dump         # as CTest runs it: ROAM_FUZZ_SECONDS (default 20) s
#
# Seeds come from apps/ (specs, and the dumps, logcat and harness files they give), from
# ../shared/real when present (real dumps and logcat files, read in place), and from a few
# requests written here. A crash leaves its input in build/fuzz/crashes/<target>/ and exits 1.
# Exit 77 when the fuzz build is absent (CTest reports the test as skipped).
set -eu
cd "$(dirname "$0")/.."
SECONDS_EACH=60
if [ "${1:-}" = "--seconds" ]; then SECONDS_EACH=$2; shift 2; fi
if [ "${1:-}" = "--ctest" ]; then SECONDS_EACH=${ROAM_FUZZ_SECONDS:-20}; shift; fi
TARGETS=${*:-"dump logcat spec model harness adb shell llm_answer dqn_model run_files import jacoco_exec jacoco_tcp uia2"}
FUZZ=build/fuzz
REAL=../shared/real

[ -x "$FUZZ/dump_fuzzer" ] || { echo "no fuzz build in $FUZZ (setup.sh makes it)"; exit 77; }

seeds() {  # seeds TARGET: fills $FUZZ/seeds/TARGET once
  dir=$FUZZ/seeds/$1
  [ -d "$dir" ] && return 0
  mkdir -p "$dir"
  case $1 in
    dump)
      for a in apps/*.json apps/bench/*.json; do
        build/roam sim show "$a" > "$dir/$(basename "$a" .json).xml" 2>/dev/null || true
      done
      if [ -d "$REAL/dumps" ]; then find "$REAL/dumps" -name '*.xml' -size -64k | head -40 |
        while read -r f; do cp "$f" "$dir/real_$(echo "$f" | cksum | cut -d' ' -f1).xml"; done; fi ;;
    logcat)
      printf 'x11-24 10:00:00.000  123  123 E AndroidRuntime: FATAL EXCEPTION: main\n11-24 10:00:00.000  123  123 E AndroidRuntime: Process: org.app, PID: 123\n11-24 10:00:00.000  123  123 E AndroidRuntime: java.lang.NullPointerException: boom\n11-24 10:00:00.000  123  123 E AndroidRuntime: \tat org.app.Main.onClick(Main.java:12)\n' > "$dir/crash.txt"
      printf 'x11-24 10:00:00.000  1  1 E ActivityManager: ANR in org.app (org.app/.Main)\n11-24 10:00:00.000  1  1 E ActivityManager: Reason: Input dispatching timed out\n' > "$dir/anr.txt"
      if [ -d "$REAL/logcat" ]; then find "$REAL/logcat" -type f -size -64k | head -40 |
        while read -r f; do { printf 'x'; cat "$f"; } > "$dir/real_$(echo "$f" | cksum | cut -d' ' -f1).txt"; done; fi ;;
    spec)
      for a in apps/*.json apps/bench/*.json tests/apps/*.json; do cp "$a" "$dir/"; done ;;
    model)
      out=$FUZZ/seeds/.model-run
      build/roam explore --app apps/diary.json --strategy fastbot --model "$out/model" \
        --events 300 --seed 1 --out "$out/run" --force -q >/dev/null
      cp "$out/model/model.bin" "$dir/diary.bin" ;;
    harness)
      cp apps/bench/config/*.json "$dir/"
      printf 'alice@example.com\nhunter2\n\n12345\n' > "$dir/strings.txt" ;;
    adb)
      req() { printf '%04x%s' "$(printf '%s' "$1" | wc -c)" "$1"; }
      req host:version > "$dir/version"
      req host:devices-l > "$dir/devices"
      { req host:transport:emulator-5554; req 'shell:uiautomator dump /dev/tty'; } > "$dir/dump"
      { req host:transport-any; req 'shell,v2,raw:input tap 10 10; echo $?'; } > "$dir/shell_v2"
      { req host:transport:emulator-5554; req sync:; printf 'STAT\015\000\000\000/sdcard/a.xmlQUIT\000\000\000\000'; } > "$dir/sync"
      { req host:tport:serial:emulator-5556; req 'shell:'; printf 'echo hi\nexit\n'; } > "$dir/interactive" ;;
    shell)
      for c in 'input tap 10 10' "input text 'it'\\''s'" 'am start -n org.roam.crashy/.MainActivity' \
               'logcat -d -v threadtime' 'echo $(echo $(echo hi)) && ls /sdcard || true' \
               'uiautomator dump /dev/tty; dumpsys window' 'pm clear org.roam.crashy' \
               'input tap 10888888888888888881 0' 'input swipe 0 0 nan 1e300' "ls ''"; do
        printf '%s' "$c" > "$dir/$(printf '%s' "$c" | cksum | cut -d' ' -f1)"
      done ;;
    jacoco_exec)
      # The first byte of each seed says where the fuzzer splits it. An exec file as JaCoCo's
      # agent writes it, two appended (append=true), two TCP answers, a dump command.
      h='\001\300\300\020\007'
      s='\020\000\002vm\000\000\001\242\036\363\354\365\000\000\001\242\036\363\355\323'
      c='\021\234\076\152\055\034\373\366\010\000\005Hello\007\174'
      printf "x$h$s$c" > "$dir/file"
      printf "\007$h$s$c$h$s$c" > "$dir/appended"
      printf "\040$h$s$c\040$s$c\040" > "$dir/tcp_answers"
      printf "\003$h\100\001\000" > "$dir/dump_command" ;;
    jacoco_tcp)
      # The first byte seeds the sizes of the pieces. The agent's header, then two answers (each
      # ends in command ok 0x20), then one sent unasked.
      h='\001\300\300\020\007'
      s='\020\000\002vm\000\000\001\242\036\363\354\365\000\000\001\242\036\363\355\323'
      c='\021\234\076\152\055\034\373\366\010\000\005Hello\007\174'
      printf "\040$h$s$c\040$s$c\040$h$s$c\040" > "$dir/answers"
      printf "\007$h\040" > "$dir/empty_answer" ;;
    uia2)
      # Raw HTTP as Roam's uia2 driver and Appium send it; {SID} becomes the open session's id.
      post() { printf 'POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s' "$1" "$(printf '%s' "$2" | wc -c)" "$2"; }
      get() { printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n' "$1"; }
      { get /status; post /session '{"capabilities":{"alwaysMatch":{"platformName":"Android","appium:automationName":"UiAutomator2"}}}'; } > "$dir/session"
      post /session '{"capabilities":{}}' > "$dir/empty_caps"
      { get '/session/{SID}/source'; get '/session/{SID}/window/current/size'; } > "$dir/source"
      post '/session/{SID}/appium/gestures/click' '{"offset":{"x":540,"y":900}}' > "$dir/click"
      post '/session/{SID}/actions' '{"actions":[{"type":"pointer","id":"finger1","parameters":{"pointerType":"touch"},"actions":[{"type":"pointerMove","duration":0,"x":500,"y":1500},{"type":"pointerDown","button":0},{"type":"pointerMove","duration":300,"x":500,"y":500},{"type":"pointerUp","button":0}]}]}' > "$dir/swipe"
      post '/session/{SID}/actions' '{"actions":[{"actions":[{}]}]}' > "$dir/empty_item"
      { post '/session/{SID}/keys' '{"text":"hello"}'; post '/session/{SID}/orientation' '{"orientation":"LANDSCAPE"}'; post '/session/{SID}/appium/settings' '{"settings":{"waitForIdleTimeout":0}}'; } > "$dir/keys"
      printf 'DELETE /session/{SID} HTTP/1.1\r\n\r\n' > "$dir/delete" ;;
    llm_answer)
      printf '{"choices":[{"message":{"content":"Sure: {\\"action\\": \\"click\\", \\"widget\\": 3, \\"function\\": \\"open\\"}"}}],"usage":{"prompt_tokens":9}}' > "$dir/explorer"
      printf '{"function": "add a note", "description": "d", "done": true, "keep": [1, 2]}' > "$dir/monitor"
      printf '```json\n{"expected": "a", "actual": "b", "bug": true, "kind": "data_loss", "report": "r", "feedback": ""}\n```' > "$dir/detector"
      printf '{"error": {"message": "overloaded"}}' > "$dir/error" ;;
    dqn_model)
      cp data/dqn/model.bin "$dir/model.bin" ;;
    run_files)
      out=$FUZZ/seeds/.run-files
      build/roam explore --app tests/apps/crashy.json --events 2000 --seed 1 --out "$out" --force -q >/dev/null || true
      if [ -f "$out/bugs/B1/bug.json" ]; then
        { cat "$out/summary.json"; printf '\000'; cat "$out/bugs/B1/bug.json"; } > "$dir/crashy"
      fi
      printf '{"crashes":[1],"anrs":["x"],"functional":[{}]}\000{"id": "B1"}' > "$dir/shapes" ;;
    import)
      printf 'var utg = {"app_package": "org.app", "nodes": [{"id": "s1", "state_str": "s1", "activity": "org.app/.Main"}], "edges": []};\000{"event": {"event_type": "touch"}, "start_state": "s1", "stop_state": "s1"}\000{"state_str": "s1", "foreground_activity": "org.app/.Main", "views": []}' > "$dir/small"
      if [ -d "$REAL/models/kea" ]; then find "$REAL/models/kea" -name utg.js -size -256k | head -4 |
        while read -r f; do
          d=$(dirname "$f")
          e=$(ls "$d"/events/*.json 2>/dev/null | head -1); s=$(ls "$d"/states/*.json 2>/dev/null | head -1)
          # if, not &&: under set -e a false && at the group's end would end the script.
          { cat "$f"; printf '\000'; if [ -n "$e" ]; then cat "$e"; fi
            printf '\000'; if [ -n "$s" ]; then cat "$s"; fi; } > "$dir/real_$(echo "$f" | cksum | cut -d' ' -f1)"
        done; fi ;;
  esac
}

# Leaks that are a library's own process-lifetime caches, not Roam's (see the file).
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$PWD/tests/fuzzers/lsan.supp:print_suppressions=0"

status=0
for t in $TARGETS; do
  seeds "$t"
  mkdir -p "$FUZZ/corpus/$t" "$FUZZ/crashes/$t"
  log=$FUZZ/$t.log
  if "$FUZZ/${t}_fuzzer" -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2048 \
       -print_final_stats=1 -artifact_prefix="$FUZZ/crashes/$t/" \
       "$FUZZ/corpus/$t" "$FUZZ/seeds/$t" > "$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "$t: ok, $runs runs in ${SECONDS_EACH}s ($((runs / SECONDS_EACH))/s), corpus $(ls "$FUZZ/corpus/$t" | wc -l) inputs"
  else
    echo "$t: FAILED (input in $FUZZ/crashes/$t/); the end of $log:"
    tail -40 "$log"
    status=1
  fi
done
exit $status
