"""The attack table of issue 14: each attack of a hostile agent, sent through `env.step` only, and
whether it got through. Uses only what every checkout has (`env.step`, the sandbox's workspace
folder, windows and browser page), so the same script runs on the checkout before the jail and
after it:

    .venv/bin/python benchmarks/attacks.py --out benchmarks/results/attacks_after.json
    HYBRIDGYM_SRC=/path/to/old/checkout .venv/bin/python benchmarks/attacks.py --out .../attacks_before.json
    .venv/bin/python benchmarks/attacks.py --table before.json after.json   # the markdown table

"Got through" is judged from the host side: a file the attack wrote where it must not, a secret
of the owner's in the output, a connection the host's listener saw, a window that survived.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from attack_kit import Listener, gui_terminal, sdk  # noqa: E402

SECRET = "hybridgym-attack-secret-91c4"


def step_ok(env, action) -> tuple[bool, str]:
    """Whether a step returned (no exception out of it), and the action error if any."""
    try:
        obs, _, _, _, info = env.step(action)
        return True, info.get("action_error") or ""
    except Exception as e:   # what the attack is about
        return False, f"{type(e).__name__}: {str(e)[:100]}"


def computer_attacks(listener: Listener) -> dict[str, tuple[bool, str]]:
    from hybridgym.computer import ComputerEnv
    os.environ["HYBRIDGYM_ATTACK_TOKEN"] = SECRET
    env = ComputerEnv(task="computer.hybrid-count-errors-v1", max_steps=100_000)
    env.reset(seed=1)
    r: dict[str, tuple[bool, str]] = {}
    try:
        out = sdk(env, "grep CapEff /proc/self/status")
        r["shell keeps capabilities"] = ("0000000000000000" not in out, out.strip())
        probe = Path(f"/usr/hg-attack-probe-{os.getpid()}")
        sdk(env, f"mount -o remount,bind,rw / 2>/dev/null; mount -o remount,rw /usr 2>/dev/null; touch {probe}")
        r["shell remounts / and writes the host"] = (probe.exists(), str(probe))
        probe.unlink(missing_ok=True)
        marker = Path(f"/tmp/hg-attack-marker-{os.getpid()}")
        marker.write_text("x")
        out = sdk(env, "umount -l /tmp 2>/dev/null; ls /tmp")
        r["shell unmounts /tmp and lists the host's"] = (marker.name in out, "")
        out = sdk(env, "cat /proc/1/environ | tr '\\0' '\\n'")
        r["shell reads the owner's environment (/proc/1/environ)"] = (SECRET in out, "")
        out = sdk(env, "head -c 300 /etc/shadow")
        r["shell reads /etc/shadow"] = ("root:" in out, "")
        out = sdk(env, f"(exec 3<>/dev/tcp/127.0.0.1/{listener.port}) 2>/dev/null && echo OPEN")
        r["shell reaches a host port"] = ("OPEN" in out or listener.hits > 0, "")
        out = sdk(env, "echo x > pinned.txt; chattr +i pinned.txt 2>&1 && echo PINNED")
        pinned = "PINNED" in out
        try:
            env.reset(seed=2)
            survived = (env.unwrapped.sandbox.workspace.root / "pinned.txt").exists()
            r["chattr +i breaks or survives the reset"] = (pinned and survived, out.strip()[:80])
        except Exception as e:
            r["chattr +i breaks or survives the reset"] = (True, f"reset raised {type(e).__name__}")
            subprocess.run(["chattr", "-R", "-i", str(env.unwrapped.sandbox.workspace.root)], capture_output=True)
            env.reset(seed=2)
        out = sdk(env, "for i in $(seq 2000); do sleep 30 & done 2>/dev/null; sleep 1; ps -e | wc -l")
        n = int(out.split()[0]) if out.split() and out.split()[0].isdigit() else 0
        r["shell starts 2,000 processes"] = (n >= 2000, f"{n} processes")
        out = sdk(env, "python3 -c 'x = bytearray(1 << 30); print(\"ALLOCATED\")' 2>&1 | tail -1")
        r["shell allocates 1 GiB"] = ("ALLOCATED" in out, out.strip()[:60])
        out = sdk(env, "head -c 300M /dev/zero > big.bin 2>/dev/null; du -m big.bin | cut -f1; rm -f big.bin")
        mb = int(out.split()[0]) if out.split() and out.split()[0].isdigit() else 0
        r["shell writes 300 MB"] = (mb >= 300, f"{mb} MB")
        sdk(env, "d=deep; for i in $(seq 1100); do mkdir $d 2>/dev/null; cd $d || break; done; echo made")
        ok, err = step_ok(env, {"action_type": "finished", "content": "0"})
        try:
            env.reset(seed=3)
            r["1,100 nested folders break step/reset"] = (not ok, err)
        except Exception as e:
            r["1,100 nested folders break step/reset"] = (True, f"reset raised {type(e).__name__}")
            subprocess.run(["rm", "-rf", str(env.unwrapped.sandbox.workspace.root / "deep")])
            env.reset(seed=3)
        sdk(env, "for i in $(seq 400); do truncate -s 1M sparse$i.bin; done")
        snap = env.unwrapped.sandbox.workspace.snapshot()
        total = sum(map(len, snap.values()))
        r["400 sparse files blow up the checker's snapshot"] = (total > 256 << 20, f"{total >> 20} MB read")
        env.reset(seed=4)
        hostfile = Path(f"/root/hg-gui-probe-{os.getpid()}")
        out = gui_terminal(env, f"echo pwned > {hostfile} 2>/dev/null; echo UID=$(id -u); "
                                f"echo TOKEN=$(env | grep -c {SECRET}); "
                                f"(exec 3<>/dev/tcp/127.0.0.1/{listener.port}) 2>/dev/null && echo OPEN")
        r["GUI terminal writes a host file"] = (hostfile.exists(), "")
        hostfile.unlink(missing_ok=True)
        r["GUI terminal runs as root"] = ("UID=0\n" in out, out.split("UID=")[-1].split()[0] if "UID=" in out else "")
        r["GUI terminal sees the owner's environment"] = ("TOKEN=0" not in out, "")
        r["GUI terminal reaches a host port"] = ("OPEN" in out or listener.hits > 0, "")
        gui_terminal(env, "setsid xterm -T escapee & echo started")
        time.sleep(1)
        env.reset(seed=5)
        r["a window started from the terminal survives the reset"] = (
            any("escapee" in w["title"] for w in env.unwrapped.sandbox.windows()), "")
    finally:
        env.close()
        marker.unlink(missing_ok=True)
    return r


def browser_attacks() -> dict[str, tuple[bool, str]]:
    from hybridgym.browser import BrowserEnv
    env = BrowserEnv(task="browser.files-csv-total-sdk-v1", max_steps=100_000)
    env.reset(seed=1)
    r: dict[str, tuple[bool, str]] = {}
    page = lambda: env.unwrapped.sandbox.browser.page   # noqa: E731

    def bar(url):
        env.step({"action_type": "hotkey", "keys": ["ctrl", "l"]})
        env.step({"action_type": "type", "text": url + "\n"})
        env.step({"action_type": "wait", "seconds": 1.0})
        try:
            return page().evaluate("document.documentElement.innerText")
        except Exception:
            return ""
    try:
        r["browser shows file:///etc/passwd"] = ("root:x:0" in bar("file:///etc/passwd"), "")
        r["browser lists file:///tmp/"] = ("hybridgym" in bar("file:///tmp/"), "")
        r["browser shows chrome://version"] = ("Command Line" in bar("chrome://version"), "")
        env.reset(seed=2)   # on the app's own page
        before = page().title()
        bar("javascript:document.title='pwned-by-url';void 0")
        r["a javascript: URL runs in the app's origin"] = (page().title() == "pwned-by-url", before)
        env.reset(seed=2)
        env.step({"action_type": "click", "x": 640, "y": 500})
        env.step({"action_type": "hotkey", "keys": ["f12"]})
        env.step({"action_type": "wait", "seconds": 1.5})
        cdp = env.unwrapped.sandbox.browser.browser.new_browser_cdp_session()
        urls = [t["url"] for t in cdp.send("Target.getTargets")["targetInfos"]]
        cdp.detach()
        titles = [w["title"] for w in env.unwrapped.sandbox.windows()]
        r["F12 opens DevTools"] = (any(u.startswith("devtools://") for u in urls) or any("DevTools" in t for t in titles),
                                   str([u for u in urls if u.startswith("devtools")])[:80])
        env.reset(seed=2)
        t = time.monotonic()
        ok, err = step_ok(env, [{"action_type": "wait", "seconds": 10}] * 12)
        took = time.monotonic() - t
        r["one step of 12 waits of 10 s sleeps them all (no step budget)"] = (ok and took > 100, f"{took:.1f} s; {err[:60]}")
        env.reset(seed=3)
        env.step({"action_type": "click", "x": 640, "y": 500})
        env.step({"action_type": "hotkey", "keys": ["ctrl", "n"]})
        env.step({"action_type": "wait", "seconds": 1.5})
        env.reset(seed=4)
        r["a ctrl+n window survives the reset"] = (len(env.unwrapped.sandbox.windows()) > 1, "")
        r["history shows the previous episode"] = (page().evaluate("history.length") > 1, "")
        # a download of the task's file through the oracle's clicks
        from hybridgym.agents import OracleAgent
        obs, info = env.reset(seed=5)
        sdk(env, "rm -rf ~/Downloads && ln -s /tmp ~/Downloads")
        name = env.unwrapped.episode.task.target(env.unwrapped.episode.params).name
        before_tmp = set(os.listdir("/tmp"))
        agent = OracleAgent()
        agent.reset(env, obs, info)
        try:
            for _ in range(8):
                obs, *_ = env.step(agent.act(obs))
        except Exception:
            pass
        landed = name in set(os.listdir("/tmp")) - before_tmp
        r["a download redirected by symlink lands in the host's /tmp"] = (landed, name)
        Path("/tmp", name).unlink(missing_ok=True) if landed else None
    finally:
        env.close()
    return r


def crash_attacks() -> dict[str, tuple[bool, str]]:
    from hybridgym.game import GameEnv
    env = GameEnv(task="game.snake-v0", max_steps=100_000)
    env.reset(seed=0)
    r: dict[str, tuple[bool, str]] = {}
    try:
        ok, err = step_ok(env, "pyautogui.click(1" + "0" * 400 + ", 5)")
        r["a 400-digit coordinate raises out of step"] = (not ok, err[:80])
        ok, err = step_ok(env, {"action_type": "click", "x": 10 ** 400, "y": 5})
        r["x=10**400 in a dict raises out of step"] = (not ok, err[:80])
    finally:
        env.close()
    return r


def sigkill_attack() -> dict[str, tuple[bool, str]]:
    script = textwrap.dedent("""
        import json, time
        from hybridgym.browser import BrowserEnv
        env = BrowserEnv(task="browser.files-csv-total-sdk-v1")
        env.reset(seed=0)
        sb = env.unwrapped.sandbox
        print(json.dumps({"xvfb": sb.display.pid, "ws": str(sb.workspace.root)}), flush=True)
        time.sleep(600)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    facts = json.loads(proc.stdout.readline())
    proc.kill()
    proc.wait()
    time.sleep(5)
    xvfb_alive = Path(f"/proc/{facts['xvfb']}").exists() and "Z" not in Path(f"/proc/{facts['xvfb']}/stat").read_text().split()[2]
    ws_left = Path(facts["ws"]).exists()
    if xvfb_alive:
        os.kill(facts["xvfb"], 9)
    if ws_left:
        subprocess.run(["rm", "-rf", facts["ws"]])
    return {"a SIGKILLed owner leaves Xvfb and its workspace": (xvfb_alive or ws_left,
                                                                f"xvfb alive {xvfb_alive}, workspace left {ws_left}")}


def table(before: dict, after: dict) -> str:
    lines = ["| attack | before | after |", "|---|---|---|"]
    for name in after:
        b = before.get(name, {}).get("through")
        fmt = lambda v: "—" if v is None else ("**got through**" if v else "refused")   # noqa: E731
        lines.append(f"| {name} | {fmt(b)} | {fmt(after[name]['through'])} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--table", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args()
    if args.table:
        print(table(*(json.loads(p.read_text())["attacks"] for p in args.table)))
        return
    import hybridgym
    listener = Listener()
    results: dict[str, tuple[bool, str]] = {}
    for part in (lambda: computer_attacks(listener), browser_attacks, crash_attacks, sigkill_attack):
        try:
            results.update(part())
        except Exception as e:   # a part that could not even run its attacks
            results[f"(part failed: {type(e).__name__}: {str(e)[:80]})"] = (True, "")
    rows = {k: {"through": bool(v[0]), "evidence": str(v[1])} for k, v in results.items()}
    for k, v in rows.items():
        print(f"{'GOT THROUGH' if v['through'] else 'refused    '}  {k}  {v['evidence'][:70]}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"code": str(Path(hybridgym.__file__).parent),
                                        "euid": os.geteuid(), "attacks": rows}, indent=1))


if __name__ == "__main__":
    main()
