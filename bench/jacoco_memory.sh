#!/bin/sh
# Peak memory of `roam coverage` on JaCoCo data of tiny classes (issue 60, row 5): an exec file
# of 13-byte class blocks (no name, one probe hit), shown (--json), merged with itself, and
# dumped from a fake agent that answers with the same blocks. Prints /usr/bin/time's maximum
# resident set size beside the input's size.
#
#   bench/jacoco_memory.sh [MB] [ROAM]     # default 64 MB, build/roam
set -eu
MB=${1:-64}
ROAM=${2:-build/roam}
DIR=$(mktemp -d)
trap 'kill $AGENT 2>/dev/null || true; rm -rf "$DIR"' EXIT
python3 - "$DIR" "$MB" <<'PY'
import struct, sys
d, mb = sys.argv[1], int(sys.argv[2])
n = mb * 1024 * 1024 // 13
blocks = b"".join(b"\x11" + struct.pack(">Q", i + 1) + b"\x00\x00\x01\x01" for i in range(n))
open(d + "/tiny.exec", "wb").write(b"\x01\xc0\xc0\x10\x07" + blocks)
open(d + "/answer", "wb").write(blocks + b"\x20")
PY
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 - "$DIR/answer" "$PORT" <<'PY' &
import socket, sys
answer = open(sys.argv[1], "rb").read()
srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", int(sys.argv[2]))); srv.listen(1)
while True:
    c, _ = srv.accept()
    c.sendall(b"\x01\xc0\xc0\x10\x07")          # the agent's header, as it accepts
    while len(c.recv(8)) > 0:                     # each dump command
        c.sendall(answer)
PY
AGENT=$!
sleep 1
size=$(stat -c %s "$DIR/tiny.exec")
peak() { /usr/bin/time -f '%M %e' "$@" 2>&1 >/dev/null | tail -1; }
for step in "show --json $DIR/tiny.exec" "merge $DIR/tiny.exec $DIR/tiny.exec --out $DIR/m.exec" \
            "dump --address 127.0.0.1:$PORT --out $DIR/d.exec --timeout-ms 600000"; do
  set -- $(peak $ROAM coverage $step)
  echo "coverage ${step%% *}: input $((size / 1048576)) MB, peak RSS $(($1 / 1024)) MB ($(echo "$1 * 1024 / $size" | bc -l | cut -c1-4)x), $2 s"
done
