"""The jail, attacked as a hostile agent would: every attack goes through `env.step` only (the
SDK terminal, keys typed into the desktop's terminal and into the browser), as root the way CI
runs, and each test asserts the attack is refused. docs/security.md lists them.

What a test reads to judge (a file in the workspace, the host's /tmp, the browser's pages, the
process table) it reads from the host side, as the checkers do.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import hybridgym
from hybridgym.sandbox import jail as jail_mod
from hybridgym.sandbox.processes import cmdline, is_gone, uid_processes
from hybridgym.sandbox.workspace import SNAPSHOT_TOTAL_BYTES

from . import attack_kit
from .attack_kit import Listener

pytestmark = [pytest.mark.xdist_group("security"),
              pytest.mark.skipif(os.geteuid() != 0, reason="the jail's full form needs root (CI runs as root)")]

SECRET = "hybridgym-test-secret-7f3a"
CHECKOUT = Path(hybridgym.__file__).resolve().parent


@pytest.fixture(scope="module")
def host_marker():
    """A file in the host's /tmp: the jail must not list it."""
    path = Path("/tmp") / f"hybridgym-host-marker-{os.getpid()}"
    path.write_text(SECRET)
    yield path
    path.unlink(missing_ok=True)


@pytest.fixture(scope="module")
def listener():
    lst = Listener()
    yield lst
    lst.close()


@pytest.fixture(scope="module")
def computer():
    """A desktop env whose task offers the SDK and has a terminal window open."""
    os.environ["HYBRIDGYM_TEST_TOKEN"] = SECRET   # the owner's environment: must not reach the jail
    from hybridgym.computer import ComputerEnv
    env = ComputerEnv(task="computer.hybrid-count-errors-v1", max_steps=100_000)
    env.reset(seed=1)
    yield env
    env.close()
    os.environ.pop("HYBRIDGYM_TEST_TOKEN", None)


def sdk(env, command: str) -> str:
    obs, _, term, trunc, info = env.step({"action_type": "terminal", "command": command})
    assert "error" not in info, info.get("error")
    assert not (term or trunc)
    return obs["sdk_output"]


def gui_terminal(env, command: str) -> str:
    out = attack_kit.gui_terminal(env, command)
    assert out, f"the terminal did not run {command!r}"
    return out


# -- the SDK shell ------------------------------------------------------------------
def test_shell_runs_unprivileged_with_no_capabilities(computer):
    out = sdk(computer, "id -u; grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status; su -c id root </dev/null; sudo -n id")
    uid = int(out.split()[0])
    assert uid != 0 and uid >= jail_mod.UID_BASE
    assert "CapEff:\t0000000000000000" in out and "CapBnd:\t0000000000000000" in out
    assert "uid=0" not in out


def test_shell_cannot_remount_or_unmount(computer, host_marker):
    out = sdk(computer, "mount -o remount,bind,rw / 2>&1; mount -o remount,rw /usr 2>&1; touch /usr/hg-probe 2>&1; "
                        "umount -l /tmp 2>&1; umount -l ~ 2>&1; ls -a /tmp; unshare -Urm true 2>&1; echo end")
    assert not Path("/usr/hg-probe").exists()
    assert host_marker.name not in out and ".X11-unix" not in out
    assert "end" in out


def test_shell_sees_no_host_files_and_no_owner_environment(computer, host_marker):
    out = sdk(computer, "cat /etc/shadow 2>&1 | head -c 200; ls /root 2>&1; ls /home 2>&1; ls /work 2>&1; "
                        f"ls {CHECKOUT} 2>&1; cat /proc/1/environ | tr '\\0' '\\n'; env; "
                        "ls /proc | grep -c '^[0-9]'; ls /tmp; cat /proc/self/mountinfo | wc -l")
    assert "root:" not in out and "$y$" not in out and "$6$" not in out
    assert SECRET not in out and "HYBRIDGYM_TEST_TOKEN" not in out
    assert "pyproject" not in out and "core.py" not in out
    assert host_marker.name not in out
    listing = sdk(computer, "ls /proc | grep -c '^[0-9]'")
    assert int(listing.split()[0]) < 10   # its own pid namespace: bwrap and the command only


def test_shell_has_no_network_not_even_the_task_server(computer, listener):
    port = computer.unwrapped.sandbox.server.port
    out = sdk(computer, f"(exec 3<>/dev/tcp/127.0.0.1/{listener.port}) 2>&1; echo rc=$?; "
                        f"(exec 3<>/dev/tcp/127.0.0.1/{port}) 2>&1; echo rc=$?; "
                        "python3 -c \"import socket; s=socket.socket(socket.AF_UNIX); s.connect('\\0/tmp/.X11-unix/X0')\" 2>&1 | tail -1; "
                        "ls /tmp/.X11-unix 2>&1")
    assert out.count("rc=1") == 2, out
    assert listener.hits == 0


def test_shell_chattr_cannot_pin_a_file_into_the_next_episode(computer):
    out = sdk(computer, "echo x > pinned.txt; chattr +i pinned.txt 2>&1; lsattr pinned.txt 2>&1; echo end")
    assert "not permitted" in out.lower() or "Inappropriate" in out
    computer.reset(seed=2)
    assert not (computer.unwrapped.sandbox.workspace.root / "pinned.txt").exists()


def test_shell_process_memory_and_disk_limits(computer):
    t = time.monotonic()
    out = sdk(computer, "bomb() { bomb | bomb & }; bomb 2>/dev/null; sleep 2; echo survived")
    assert time.monotonic() - t < 60
    assert "survived" in out   # the bomb hit the process limit; the shell itself went on
    ok = sdk(computer, "echo alive; python3 -c 'x = bytearray(1 << 30); print(\"allocated\")' 2>&1 | tail -1")
    assert "alive" in ok and "allocated" not in ok
    disk = sdk(computer, "{ head -c 300M /dev/zero > big.bin; } 2>&1; echo rc=$?; du -m big.bin | cut -f1; rm -f big.bin")
    assert "No space left" in disk or "File too large" in disk, disk
    size_mb = int(disk.strip().splitlines()[-1])
    assert size_mb <= jail_mod.Limits().disk_bytes >> 20
    files = sdk(computer, "mkdir many && cd many && for i in $(seq 30000); do : > f$i || { echo stopped at $i; break; }; done")
    assert "stopped at" in files
    sdk(computer, "rm -rf many")


def test_shell_output_floods_are_truncated(computer):
    out = sdk(computer, "yes hybridgym")
    assert "[output truncated" in out and len(out) < 70_000


def test_nested_folders_and_sparse_files_do_not_break_steps_resets_or_checkers(computer):
    sdk(computer, "d=deep; for i in $(seq 1100); do mkdir $d 2>/dev/null; cd $d || break; done; echo x > leaf.txt; "
                  "cd ~; for i in $(seq 400); do truncate -s 1M sparse$i.bin; done; echo made")
    sb = computer.unwrapped.sandbox
    snap = sb.workspace.snapshot()
    assert sum(map(len, snap.values())) <= SNAPSHOT_TOTAL_BYTES
    _, _, term, trunc, info = computer.step({"action_type": "finished", "content": "0"})
    assert term and "error" not in info
    computer.reset(seed=3)
    assert not any(p.name.startswith(("deep", "sparse")) for p in sb.workspace.root.iterdir())


# -- the desktop's own terminal ------------------------------------------------------
def test_gui_terminal_is_jailed(computer, host_marker, listener):
    computer.reset(seed=4)
    port = computer.unwrapped.sandbox.server.port
    out = gui_terminal(computer, "id -u; grep CapEff /proc/self/status; env; cat /etc/shadow | head -c 100; "
                                 "ls /tmp /root; echo pwned > /root/hg-gui-probe; echo pwned > /tmp/hg-gui-probe-host; "
                                 f"(exec 3<>/dev/tcp/127.0.0.1/{listener.port}) && echo HOST-PORT-OPEN; "
                                 f"(exec 3<>/dev/tcp/127.0.0.1/{port}) && echo TASK-SERVER-OPEN")
    uid = int(out.split()[0])
    assert uid >= jail_mod.UID_BASE
    assert "CapEff:\t0000000000000000" in out
    assert SECRET not in out and "root:" not in out
    assert host_marker.name not in out
    assert not Path("/root/hg-gui-probe").exists() and not Path("/tmp/hg-gui-probe-host").exists()
    assert "HOST-PORT-OPEN" not in out and listener.hits == 0
    assert "TASK-SERVER-OPEN" in out   # the task's own server is reachable: the jail is not simply offline


def test_programs_started_from_the_terminal_do_not_outlive_the_episode(computer):
    computer.reset(seed=5)
    sb = computer.unwrapped.sandbox
    gui_terminal(computer, "setsid xterm -T escapee & nohup sleep 1000 >/dev/null 2>&1 & disown; echo started")
    time.sleep(1)
    assert any("escapee" in w["title"] for w in sb.windows())
    computer.reset(seed=6)
    assert not any("escapee" in w["title"] for w in sb.windows())
    leftovers = [p for p in uid_processes(sb.jail.uid) if "sleep" in cmdline(p)]
    assert leftovers == []


# -- the browser --------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    from hybridgym.browser import BrowserEnv
    env = BrowserEnv(task="browser.files-csv-total-sdk-v1", max_steps=100_000)
    env.reset(seed=1)
    yield env
    env.close()


def address_bar(env, url: str) -> None:
    env.step({"action_type": "hotkey", "keys": ["ctrl", "l"]})
    env.step({"action_type": "type", "text": url + "\n"})
    env.step({"action_type": "wait", "seconds": 1.0})


def pages(env) -> list[dict]:
    b = env.unwrapped.sandbox.browser
    cdp = b.browser.new_browser_cdp_session()
    try:
        return [t for t in cdp.send("Target.getTargets")["targetInfos"] if ".top-chrome" not in t["url"]]
    finally:
        cdp.detach()


def page_text(env) -> str:
    page = env.unwrapped.sandbox.browser.page
    try:
        return page.evaluate("document.documentElement.innerText")
    except Exception:
        return ""


@pytest.mark.parametrize("url", ["file:///etc/passwd", "file:///tmp/", "chrome://version", "chrome://inspect",
                                 "view-source:http://127.0.0.1/", "devtools://devtools/bundled/inspector.html",
                                 "chrome://settings"])
def test_browser_blocks_local_files_and_browser_pages(browser, url, host_marker):
    address_bar(browser, url)
    deadline = time.monotonic() + 10   # a loaded machine: the navigation may take a while
    while "This page is blocked" not in (text := page_text(browser)) and time.monotonic() < deadline:
        browser.step({"action_type": "wait", "seconds": 0.5})
    assert "This page is blocked" in text, text[:200]   # Chromium's policy (URLBlocklist) refused it
    assert "root:x:0" not in text and host_marker.name not in text


@pytest.mark.parametrize("url", ["chrome://crash", "chrome://kill", "chrome://hang", "chrome://shorthang",
                                 "chrome://memory-exhaust", "chrome://gpucrash", "chrome://gpuhang",
                                 "chrome://inducebrowsercrashforrealz"])
def test_chromiums_debug_urls_neither_crash_nor_hang_the_browser(browser, url):
    """Chromium's debug URLs kill or hang a renderer, the GPU process or the browser when a person types them in
    its address bar: the agent must not be able to end or freeze its sandbox that way. (The policy blocks
    chrome://; the Chromium here did not act on them with that block lifted either, so this guards against a
    Chromium or a policy that would.)"""
    address_bar(browser, url)
    *_, truncated, info = browser.step({"action_type": "click", "x": 640, "y": 400})
    assert not truncated and "error" not in info, info
    assert browser.unwrapped.sandbox.health() is None
    assert browser.unwrapped.sandbox.browser.page.evaluate("1 + 1") == 2


def test_browser_refuses_javascript_urls(browser):
    page = browser.unwrapped.sandbox.browser.page
    before = page.title()
    address_bar(browser, "javascript:document.title='pwned-by-url';void 0")
    assert page.title() == before != "pwned-by-url"


def test_devtools_do_not_open(browser):
    browser.reset(seed=5)
    browser.step({"action_type": "click", "x": 640, "y": 500})
    for keys in (["f12"], ["ctrl", "shift", "i"], ["ctrl", "shift", "j"], ["ctrl", "shift", "c"]):
        browser.step({"action_type": "hotkey", "keys": keys})
    browser.step({"action_type": "wait", "seconds": 1.5})
    titles = [w["title"] for w in browser.unwrapped.sandbox.windows()]
    assert not any("DevTools" in t for t in titles), titles
    assert not any(t["url"].startswith("devtools:") for t in pages(browser))


def test_extra_windows_and_history_do_not_survive_a_reset(browser):
    browser.reset(seed=2)
    sb = browser.unwrapped.sandbox
    first = sb.browser.page.url
    browser.step({"action_type": "click", "x": 640, "y": 500})
    browser.step({"action_type": "hotkey", "keys": ["ctrl", "n"]})
    browser.step({"action_type": "hotkey", "keys": ["ctrl", "shift", "n"]})
    browser.step({"action_type": "wait", "seconds": 1.5})
    assert len(sb.windows()) >= 2   # ctrl+n opened a window (incognito is off by policy)
    assert not any("Incognito" in w["title"] for w in sb.windows())
    browser.reset(seed=3)
    assert len(sb.windows()) == 1, sb.windows()
    assert len([t for t in pages(browser) if t["type"] == "page"]) == 1
    assert sb.browser.page.evaluate("history.length") == 1
    url = sb.browser.page.url
    assert url != "about:blank" and first
    browser.step({"action_type": "hotkey", "keys": ["alt", "left"]})
    browser.step({"action_type": "wait", "seconds": 0.5})
    assert sb.browser.page.url == url   # no previous episode to go back to


def test_keys_and_buttons_held_do_not_survive_a_reset(browser):
    browser.step("pyautogui.keyDown('shift')")
    browser.step({"action_type": "mouse_down", "x": 640, "y": 500})
    x = browser.unwrapped.sandbox.input._d
    assert any(x.query_keymap())
    browser.reset(seed=6)
    assert not any(x.query_keymap()) and not x.screen().root.query_pointer().mask & 0x1F00
    _, _, _, trunc, info = browser.step({"action_type": "hotkey", "keys": ["tab"]})
    assert "error" not in info and not trunc


@pytest.mark.parametrize("action", [
    {"action_type": "hotkey", "keys": ["pause"]}, {"action_type": "key_down", "key": "Pause"},
    "pyautogui.press('pause')", "Action: hotkey(key='Pause')", {"action_type": "hotkey", "keys": ["ctrl", "break"]},
    {"action_type": "hotkey", "keys": ["cancel"]}, "pyautogui.press('cancel')", {"action_type": "key_down", "key": "Cancel"},
])
def test_the_agent_cannot_press_the_input_barriers_sentinel(browser, action):
    """Pause and Cancel are the env's input-barrier sentinels (Cancel also marks MiniWoB's frame marker): a press of
    the agent's would end a later step's barrier early."""
    br = browser.unwrapped.sandbox.browser
    counted = lambda: br.evaluate_cdp("() => window.__hybridgymBarrier(null, 0, 1, false)")[2]   # noqa: E731
    before = counted()
    _, _, _, trunc, info = browser.step(action)
    assert info["action_error"] and not trunc and "error" not in info
    assert counted() == before == br._sentinels
    assert not any(k.get("key") in ("pause", "cancel") or {"pause", "cancel"} & set(k.get("keys", ()))
                   for k in info["actions"])


def test_a_download_redirected_by_symlink_stays_in_the_jail(browser):
    from hybridgym.agents import OracleAgent
    obs, info = browser.reset(seed=4)
    sdk(browser, "rm -rf ~/Downloads && ln -s /tmp ~/Downloads && ls -la ~")
    before = set(os.listdir("/tmp"))
    agent = OracleAgent()
    agent.reset(browser, obs, info)
    for _ in range(12):
        obs, _, term, trunc, info = browser.step(agent.act(obs))
        if term or trunc:
            break
    name = browser.unwrapped.episode.task.target(browser.unwrapped.episode.params).name
    new = set(os.listdir("/tmp")) - before
    assert name not in new and not any(n.endswith(".csv") for n in new), new
    assert not info["success"]


# -- the owner's death ----------------------------------------------------------------
def test_nothing_survives_a_sigkilled_owner(tmp_path):
    script = textwrap.dedent("""
        import json, sys, time
        import hybridgym
        from hybridgym.browser import BrowserEnv
        env = BrowserEnv(task="browser.files-csv-total-sdk-v1")
        env.reset(seed=0)
        sb = env.unwrapped.sandbox
        print(json.dumps({"uid": sb.jail.uid, "dir": str(sb.jail.dir), "xvfb": sb.display.pid}), flush=True)
        time.sleep(600)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        facts = json.loads(line)
        assert uid_processes(facts["uid"]) and not is_gone(facts["xvfb"])
        assert Path(facts["dir"]).is_dir() and os.path.ismount(Path(facts["dir"]) / "home")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if (not uid_processes(facts["uid"]) and is_gone(facts["xvfb"])
                and not Path(facts["dir"]).exists()):
            break
        time.sleep(0.2)
    assert uid_processes(facts["uid"]) == []
    assert is_gone(facts["xvfb"])
    assert not Path(facts["dir"]).exists()
    mounts = Path("/proc/self/mountinfo").read_text()
    assert facts["dir"] not in mounts
