"""Screenshots of a run's HTML report, to look at: the index, and one episode page per suite (the first
successful episode of each, else the first).

    .venv/bin/hybridgym bench --record runs/sample --agent oracle,random --task ...   # any recorded run
    .venv/bin/python benchmarks/report_shots.py runs/sample --out benchmarks/results/report-shots

Writes the report (RUN_DIR/report), then index.png and episode-<suite>.png in --out, taken in Debian's
Chromium through Playwright.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

from hybridgym.report import write_report
from hybridgym.trajectory import load_run

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("run_dir")
    p.add_argument("--out", default="benchmarks/results/report-shots")
    p.add_argument("--width", type=int, default=1400)
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    index = write_report(args.run_dir)
    picks: dict[str, str] = {}
    for traj in sorted(load_run(args.run_dir), key=lambda t: (not t.success, t.name)):
        picks.setdefault(traj.suite, traj.name)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        page = browser.new_page(viewport={"width": args.width, "height": 900})
        page.goto(index.as_uri())
        page.screenshot(path=str(out / "index.png"), full_page=True)
        print(out / "index.png")
        for suite, name in sorted(picks.items()):
            page.goto(index.as_uri())
            page.click(f"a[href*='{name}']")
            page.evaluate("() => document.querySelectorAll('img').forEach(i => { i.loading = 'eager'; })")
            page.wait_for_function("() => [...document.images].every(i => i.complete)")
            page.screenshot(path=str(out / f"episode-{suite}.png"), full_page=True)
            print(out / f"episode-{suite}.png", name)
        browser.close()


if __name__ == "__main__":
    main()
