"""Writes a benchmark script's section into docs/benchmarks.md, between its markers.

    python3 bench/doc_section.py NAME SCRIPT SECTION_FILE

The section goes between "<!-- NAME: begin (SCRIPT writes this) -->" and "<!-- NAME: end -->",
replacing what was there; a page without them gets them at its end.
"""
import os
import sys

name, script, section_file = sys.argv[1:4]
path = "docs/benchmarks.md"
begin, end = f"<!-- {name}: begin ({script} writes this) -->", f"<!-- {name}: end -->"
section = open(section_file).read().rstrip() + "\n"
text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
if begin in text:
    head, rest = text.split(begin, 1)
    text = head + begin + "\n" + section + end + rest.split(end, 1)[1]
else:
    text = text.rstrip() + "\n\n" + begin + "\n" + section + end + "\n"
open(path, "w").write(text)
