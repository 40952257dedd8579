#!/usr/bin/env python3
"""bench/suite.sh's section of docs/benchmarks.md, from the bench JSON files it wrote.

Per driver, a table of every strategy at each budget of a phone's time: code units as a share of
the best known (per app the most any one run covered, over both budgets and every strategy) and
as a multiple of random's, unique crashes and ANRs, functional bugs (fuzz); who wins at each
budget; and a plot, docs/suite-DRIVER.svg, of the units covered over the phone's time.
"""
import argparse
import json
import math
import os
import re
import statistics
import sys

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#17becf", "#7f7f7f", "#bcbd22"]


def load(out, driver, budget):
    with open(os.path.join(out, f"{driver}-{budget}.json")) as f:
        return json.load(f)


def geomean(values):
    values = [max(v, 1e-9) for v in values]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else 0.0


def by_app_strategy(runs):
    groups = {}
    for r in runs:
        groups.setdefault((r["app"], r["strategy"]), []).append(r)
    return groups


def figures(bench, best):
    """Per strategy: units of best, units x random, crashes, anrs, tp/fp, events, phone s."""
    groups = by_app_strategy(bench["runs"])
    apps = sorted({r["app"] for r in bench["runs"]})
    rows = {}
    for strategy in bench["strategies"]:
        of_best, of_random, crashes, anrs, tp, fp, events = [], [], 0.0, 0.0, 0, 0, []
        for app in apps:
            runs = groups.get((app, strategy), [])
            if not runs:
                continue
            units = statistics.median(r["units_covered"] for r in runs)
            if best[app] > 0:
                of_best.append(units / best[app])
            rnd = groups.get((app, "random"))
            if rnd:
                r_units = statistics.median(r["units_covered"] for r in rnd)
                if r_units > 0:
                    of_random.append(units / r_units)
            crashes += statistics.median(r["crashes"] for r in runs)
            anrs += statistics.median(r["anrs"] for r in runs)
            tp += sum(r["functional_tp"] for r in runs)
            fp += sum(r["functional_fp"] for r in runs)
            events += [r["events"] for r in runs]
        rows[strategy] = {
            "of_best": geomean(of_best), "of_random": geomean(of_random) if of_random else None,
            "crashes": crashes, "anrs": anrs, "tp": tp, "fp": fp,
            "events": statistics.median(events) if events else 0,
        }
    return rows


def num(x):
    return f"{x:.0f}" if x == int(x) else f"{x:.1f}"


def curve(bench, best, strategy, points):
    """The mean over apps of the median over seeds of units / best known, at each time."""
    per_app = {}
    for r in bench["runs"]:
        if r["strategy"] != strategy or best.get(r["app"], 0) == 0:
            continue
        samples = []
        with open(os.path.join(r["dir"], "progress.jsonl")) as f:
            for line in f:
                s = json.loads(line)
                if "phone_seconds" in s and "units" in s:
                    samples.append((s["phone_seconds"], s["units"]))
        values, k, last = [], 0, 0
        for t in points:
            while k < len(samples) and samples[k][0] <= t:
                last = samples[k][1]
                k += 1
            values.append(last / best[r["app"]])
        per_app.setdefault(r["app"], []).append(values)
    if not per_app:
        return None
    medians = [[statistics.median(v[i] for v in runs) for i in range(len(points))]
               for runs in per_app.values()]
    return [sum(m[i] for m in medians) / len(medians) for i in range(len(points))]


def svg(path, driver, budget, curves):
    w, h, left, right, top, bottom = 720, 400, 56, 170, 30, 44
    pw, ph = w - left - right, h - top - bottom
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{left}" y="18" font-size="14">Code units over a phone\'s time '
             f'({driver}): share of the best known, mean over apps of the median run</text>']
    for k in range(6):
        y = top + ph - ph * k / 5
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" '
                     f'stroke="#ddd"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{k / 5:.1f}</text>')
    minutes = budget / 60
    step = next(s for s in (1, 2, 5, 10, 15, 30, 60, 120) if minutes / s <= 8)
    m = 0
    while m <= minutes + 1e-9:
        x = left + pw * m / minutes
        parts.append(f'<line x1="{x:.1f}" y1="{top + ph}" x2="{x:.1f}" y2="{top + ph + 4}" '
                     f'stroke="#333"/>')
        parts.append(f'<text x="{x:.1f}" y="{top + ph + 18}" text-anchor="middle">{m:.0f}'
                     f'</text>')
        m += step
    parts.append(f'<text x="{left + pw / 2}" y="{h - 6}" text-anchor="middle">minutes of a phone'
                 f'</text>')
    parts.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" '
                 f'stroke="#333"/>')
    for i, (strategy, (times, values)) in enumerate(curves.items()):
        colour = COLOURS[i % len(COLOURS)]
        pts = " ".join(f"{left + pw * t / budget:.1f},{top + ph - ph * v:.1f}"
                       for t, v in zip(times, values))
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" '
                     f'stroke-width="1.8"/>')
        y = top + 12 + 18 * i
        parts.append(f'<line x1="{left + pw + 12}" y1="{y - 4}" x2="{left + pw + 32}" '
                     f'y2="{y - 4}" stroke="{colour}" stroke-width="3"/>')
        parts.append(f'<text x="{left + pw + 38}" y="{y}">{strategy}</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--doc", required=True)
    p.add_argument("--command", required=True)
    p.add_argument("--commit", required=True)
    p.add_argument("--drivers", required=True)
    p.add_argument("--budgets", required=True)
    p.add_argument("--gen-seeds", required=True)
    a = p.parse_args()
    drivers, budgets = a.drivers.split(), [int(b) for b in a.budgets.split()]
    benches = {(d, b): load(a.out, d, b) for d in drivers for b in budgets}
    first = next(iter(benches.values()))
    apps = first["apps"]
    generated = [x for x in apps if x.startswith("gen")]
    recorded = [x for x in apps if not x.startswith("gen")]
    seeds = a.gen_seeds.split()
    lines = [
        "### The headline suite on a phone's clock (bench/suite.sh)", "",
        f"`{a.command}` at {a.commit}: {len(generated)} generated apps (`roam sim generate "
        f"--seed {seeds[0]}..{seeds[-1]} --activities 40 --bugs 6`, the real shape)"
        + (f" and {len(recorded)} recordings of real apps imported with `roam sim import` "
           f"({', '.join(recorded)})" if recorded else "")
        + f"; {first['seeds']} seeds; `roam bench --clock phone --driver D --time T --events 0`. "
        "Units are code units as a share of the best known (per app the most any one run "
        "covered, over every strategy and budget) and as a multiple of random's, geometric "
        "means over apps of the medians; crashes and ANRs are unique ones, medians summed over "
        "apps; func: functional bug reports true/false, summed over runs; events: the median "
        "run's.", ""]
    for d in drivers:
        best = {}
        for b in budgets:
            for r in benches[(d, b)]["runs"]:
                best[r["app"]] = max(best.get(r["app"], 0), r["units_covered"])
        rows = {b: figures(benches[(d, b)], best) for b in budgets}
        strategies = first["strategies"]
        head = "| strategy | " + " | ".join(
            f"{b // 60} min: units of best / x random / crashes / ANRs / func / events"
            for b in budgets) + " |"
        lines += [f"#### {d}", "", head, "|---|" + "---|" * len(budgets)]
        for s in strategies:
            cells = []
            for b in budgets:
                f = rows[b][s]
                rnd = f"{f['of_random']:.2f}" if f["of_random"] is not None else "-"
                func = f"{f['tp']}/{f['fp']}" if s == "fuzz" else "-"
                cells.append(f"{f['of_best']:.2f} / {rnd} / {num(f['crashes'])} / "
                             f"{num(f['anrs'])} / {func} / {num(f['events'])}")
            lines.append(f"| {s} | " + " | ".join(cells) + " |")
        lines.append("")
        for b in budgets:
            # The planner reads the spec: it is measured, not a contender.
            r = {k: v for k, v in rows[b].items() if k != "oracle"}
            top = max(r, key=lambda s: r[s]["of_best"])
            bugs = max(r, key=lambda s: r[s]["crashes"] + r[s]["anrs"])
            planner = rows[b].get("oracle")
            lines.append(
                f"- {b // 60} minutes, of the testers (the planner aside): most code {top} "
                f"({r[top]['of_best']:.2f} of best), most crashes and ANRs {bugs} "
                f"({num(r[bugs]['crashes'] + r[bugs]['anrs'])})"
                + (f"; the planner {planner['of_best']:.2f} of best, "
                   f"{num(planner['crashes'] + planner['anrs'])} crashes and ANRs" if planner
                   else "") + ".")
        budget = max(budgets)
        points = [budget * i / 60 for i in range(61)]
        curves = {}
        for s in strategies:
            c = curve(benches[(d, budget)], best, s, points)
            if c:
                curves[s] = (points, c)
        same = [(x, y) for i, x in enumerate(curves) for y in list(curves)[i + 1:]
                if curves[x][1] == curves[y][1]]
        svg_name = f"suite-{d}.svg"
        doc_dir = os.path.dirname(a.doc) if a.doc != "-" else a.out
        svg(os.path.join(doc_dir, svg_name), d, budget, curves)
        lines += ["", f"![Code units over {budget // 60} minutes of a phone, {d}]({svg_name})", ""]
        for x, y in same:
            lines.append(f"{y}'s curve is {x}'s: their runs covered the same units at every "
                         "point.")
        if same:
            lines.append("")
    section = "\n".join(lines).rstrip() + "\n"
    print(section)
    if a.doc == "-":
        return
    with open(a.doc) as f:
        doc = f.read()
    begin = "<!-- suite: begin (bench/suite.sh writes this) -->"
    end = "<!-- suite: end -->"
    pattern = re.compile(r"<!-- suite: begin[^>]*-->.*?<!-- suite: end -->", re.S)
    if not pattern.search(doc):
        sys.exit(f"{a.doc}: no suite markers to write between")
    doc = pattern.sub(lambda _: f"{begin}\n{section}{end}", doc)
    with open(a.doc, "w") as f:
        f.write(doc)


if __name__ == "__main__":
    main()
