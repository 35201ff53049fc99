#!/usr/bin/env python3
"""gen_history_repo.py N DIR: a git repository of N commits of a small evidence site, for
the history benchmark (scripts/bench.sh). Built from the valid test fixture: each commit
records a run; every 5th also adds a claim, every 7th moves one between cannot-show and
can-show, every 10th moves a decision map's bound. Commit dates are fixed, one a day."""
import os
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone


def main():
    n, dest = int(sys.argv[1]), sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(os.path.join(here, "..", "tests", "fixtures", "valid"), dest)
    with open(os.path.join(dest, "evidence.yaml"), "a") as f:
        f.write("history: true\n")
    run1 = open(os.path.join(dest, "data", "runs", "r1.yaml")).read()
    claims_path = os.path.join(dest, "data", "claims.yaml")
    maps_path = os.path.join(dest, "data", "maps.yaml")
    base_claims = open(claims_path).read()
    claims = []
    env = dict(os.environ, GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.invalid",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.invalid")

    def git(*args):
        subprocess.run(["git", "-C", dest, "-c", "commit.gpgsign=false", *args],
                       check=True, env=env, stdout=subprocess.DEVNULL)

    git("init", "-q", "-b", "main")
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    for i in range(n):
        rid = f"h{i:05d}"
        with open(os.path.join(dest, "data", "runs", f"{rid}.yaml"), "w") as f:
            f.write(run1.replace("id: r1", f"id: {rid}").replace("2026-01-20", "2026-01-21"))
        if i % 5 == 0:
            claims.append({"id": f"k{i}", "moved": False, "run": rid})
        if i % 7 == 0 and claims:
            c = claims[(i // 7) % len(claims)]
            c["moved"], c["run"] = not c["moved"], rid
        text = base_claims
        for c in claims:
            moved = "\n  moved: {from: cannot}" if c["moved"] else ""
            text += (f"- id: {c['id']}\n  page: index\n"
                     f"  can: {{ja: \"示せる {c['id']} {c['run']}\", en: \"Can {c['id']} {c['run']}\"}}\n"
                     f"  cannot: {{ja: \"示せない {c['id']}\", en: \"Cannot {c['id']}\"}}\n"
                     f"  evidence: [\"run:{c['run']}\"]\n  constraint: obs1{moved}\n")
        with open(claims_path, "w") as f:
            f.write(text)
        if i % 10 == 0:
            maps = open(maps_path).read()
            bound = 8 + (i // 10) % 5
            import re
            maps = re.sub(r"bound: \{le: \d+\}", f"bound: {{le: {bound}}}", maps, count=1)
            with open(maps_path, "w") as f:
                f.write(maps)
        date = (start + timedelta(days=i)).isoformat()
        git("add", "-A")
        subprocess.run(["git", "-C", dest, "-c", "commit.gpgsign=false", "commit", "-q", "-m",
                        f"Record {rid}"], check=True,
                       env=dict(env, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date),
                       stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
