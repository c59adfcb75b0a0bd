#!/usr/bin/env python3
"""Cold crawls on the light farm (farm.py), loomcrawl from its launcher beside any rivals, in turns: each round runs
every crawler once and the next round in the reverse order; medians of the runs. Each crawl is a whole process,
its CPU and peak RSS from the kernel (wait4); the farm, in a process of its own, counts what each did. "start" is
the time from the crawler's launch to its first request and "stop" from the farm's last answer to its exit: what a
crawl spends beside its fetches (a JVM's start, a store opened and closed).

  scripts/light-farm/bench.py --scenario=wide,deep,rough,first --runs=3 \\
      --rival="colly=rivals/colly/colly-farm -seeds {seeds} -depth {depth} -per-host {per_host}" \\
      --rival="spider-rs=rivals/spider/target/release/spider-farm -seeds {seeds} -depth {depth} -per-host {per_host}"

--crawler=NAME=COMMAND replaces loomcrawl's own line (the same placeholders, and {db}, a fresh H2 database).
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).parent))
from farm import address  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = {  # hosts, pages a host, depth, faults
    "wide": (1000, 10, 2, False),
    "deep": (100, 100, 2, False),
    "rough": (100, 100, 3, True),
    "first": (10, 20, 3, True),
    "huge": (1000, 100, 2, False),
}
LOOMCRAWL = (f"{ROOT}/loomcrawl crawl --seeds-file={{seeds}} --per-host={{per_host}} --max-depth={{depth}} "
             "--max-pages=1000000 --db=jdbc:h2:{db} --quiet")


class Crawl(NamedTuple):
    """One crawler's run: wall s, CPU s, peak RSS MB, exit code, the farm's counts, start and stop s."""
    wall: float
    cpu: float
    rss: float
    code: int
    farm: dict
    start: float
    stop: float


def get(control, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{control}{path}", timeout=10) as r:
        return json.load(r)


def run(command):
    """Start and end on the monotonic clock, CPU s, peak RSS MB, exit code of one process."""
    start = time.monotonic()
    with open(os.devnull, "w") as null:
        p = subprocess.Popen(command, stdout=null, stderr=null)
        _, status, usage = os.wait4(p.pid, 0)
    end = time.monotonic()
    return start, end, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def scenario(name, crawlers, runs, port, control):
    hosts, pages, depth, faults = SCENARIOS[name]
    work = Path(tempfile.mkdtemp(prefix="light-farm-"))
    seeds = work / "seeds.txt"
    seeds.write_text("".join(f"http://{address(i)}:{port}/\n" for i in range(hosts)))
    farm = subprocess.Popen([sys.executable, str(Path(__file__).parent / "farm.py"), f"--hosts={hosts}",
                             f"--pages={pages}", f"--port={port}", f"--control={control}"]
                            + (["--faults"] if faults else []), stdout=subprocess.PIPE, text=True)
    try:
        if farm.stdout.readline().strip() != "ready":
            sys.exit("light-farm: the farm did not start")
        results = {c: [] for c in crawlers}
        names = list(crawlers)
        for r in range(runs):
            for crawler in (names if r % 2 == 0 else names[::-1]):
                get(control, "/reset")
                db = work / f"db-{r}-{names.index(crawler)}" / "crawl"  # each crawler's own, each run
                command = crawlers[crawler].format(seeds=seeds, depth=depth, per_host=8, db=db)
                began, ended, cpu, rss, code = run(shlex.split(command))
                farm_says = get(control, "/stats")
                first, last = farm_says.pop("firstAt"), farm_says.pop("lastAt")
                start, stop = (first - began, ended - last) if first and last else (float("nan"),) * 2
                crawl = Crawl(ended - began, cpu, rss, code, farm_says, start, stop)
                results[crawler].append(crawl)
                print(f"  {name} round {r + 1} {crawler}: {crawl.wall:.2f} s, {crawl.cpu:.2f} CPU-s, {crawl.rss:.0f} MB, "
                      f"exit {crawl.code}, start {crawl.start:.2f} s, stop {crawl.stop:.2f} s, {json.dumps(crawl.farm)}",
                      file=sys.stderr)
        return hosts * pages, results
    finally:
        farm.terminate()
        farm.wait()


def report(name, pages, results):
    fastest = min(statistics.median(r.wall for r in rows) for rows in results.values())
    sys.stderr.flush()
    print(f"\n{name}: {pages:,} pages")
    print("| crawler | wall s (min-max) | start · stop s | CPU-ms/page | peak RSS MB | speed ÷ fastest | pages lost "
          "| served twice | RA URL | robots | most in flight per host: hosts |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for crawler, rows in results.items():
        def median(field):
            return statistics.median(getattr(r, field) for r in rows)

        def most(count):
            return max(r.farm[count] for r in rows)

        wall = median("wall")
        print(f"| {crawler} | {wall:.2f} ({min(r.wall for r in rows):.2f}-{max(r.wall for r in rows):.2f}) "
              f"| {median('start'):.2f} · {median('stop'):.2f} | {median('cpu') * 1000 / pages:.3f} "
              f"| {median('rss'):.0f} | {fastest / wall:.2f}× | {most('lost')} | {most('twice')} | {most('raUrl')} "
              f"| {most('robotsViolations')} | {rows[-1].farm['mostInFlight']} |")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scenario", default="wide,deep,rough,first")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--crawler", default=f"loomcrawl={LOOMCRAWL}")
    p.add_argument("--rival", action="append", default=[], help="NAME=COMMAND")
    p.add_argument("--port", type=int, default=18181)
    p.add_argument("--control", type=int, default=18182)
    a = p.parse_args()
    crawlers = dict(c.split("=", 1) for c in [a.crawler] + a.rival)
    for name in a.scenario.split(","):
        if name not in SCENARIOS:
            sys.exit(f"light-farm: no scenario {name!r}; one of {', '.join(SCENARIOS)}")
    for name in a.scenario.split(","):
        report(name, *scenario(name, crawlers, a.runs, a.port, a.control))


if __name__ == "__main__":
    main()
