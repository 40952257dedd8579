#!/usr/bin/env python3
"""A local test double of an OpenAI-compatible chat-completions server, for recording a vision
run without a model (bench/trace_digest.sh). It answers as tests/llm/chat_server_double.h's
stand-in in bench/vision_bench.cc does: the Planner taps each listed widget in turn and goes back
every fifth step, the Monitor ends a function at four steps, the Detector finds nothing.

    python3 bench/chat_double.py PORT      (binds 127.0.0.1 only)
"""
import http.server
import json
import re
import sys

turn = 0


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        global turn
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        content = body["messages"][-1]["content"]
        prompt = content if isinstance(content, str) else content[0]["text"]
        if prompt.startswith("You are testing"):
            widgets = max([int(n) for n in re.findall(r"\n  (\d+)\. \"", prompt)] or [1])
            answer = {"action": "back" if turn % 5 == 4 else "click",
                      "widget": 1 + turn % widgets, "function": "try the next widget"}
            turn += 1
        elif prompt.startswith("You watch"):
            answer = {"function": "browse", "description": "look around",
                      "done": "\n  4. " in prompt}
        else:
            answer = {"expected": "-", "actual": "-", "bug": False, "report": "", "feedback": ""}
        reply = json.dumps({"id": "double", "object": "chat.completion", "model": "stand-in",
                            "choices": [{"index": 0, "finish_reason": "stop",
                                         "message": {"role": "assistant",
                                                     "content": json.dumps(answer)}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)


http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
