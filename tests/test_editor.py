"""Tests of the str_replace_editor (hybridgym.sandbox.editor) on a real workspace, and end to end
through a computer-suite env: Seed XML calls that edit a workspace file and read it back."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import pytest

from hybridgym.actions import ActionError, EditFile
from hybridgym.sandbox import PathEscapeError, Workspace
from hybridgym.sandbox.editor import Editor

from .test_ssh import SSHD, session, sshd  # noqa: F401  (the real sshd the SSH tests start)


@pytest.fixture
def ws(tmp_path):
    return Workspace(tmp_path / "ws")


def run(ws, command, path, **fields):
    return Editor().run(EditFile(command, path, **fields), ws)


def refused(editor, ws, command, path, **fields) -> str:
    with pytest.raises(ActionError) as info:
        editor.run(EditFile(command, path, **fields), ws)
    return str(info.value)


def test_view_numbers_a_files_lines_like_cat_n(ws):
    ws.write_text("a.py", "one\ntwo\nthree\n")
    out = run(ws, "view", "a.py")
    assert out == "Here's the result of running `cat -n` on a.py:\n     1\tone\n     2\ttwo\n     3\tthree\n"
    assert run(ws, "view", "a.py", view_range=(2, -1)).endswith("     2\ttwo\n     3\tthree\n")
    assert run(ws, "view", "a.py", view_range=(2, 2)).endswith(":\n     2\ttwo\n")


def test_view_range_out_of_the_file_is_refused(ws):
    ws.write_text("a.py", "one\ntwo\n")
    editor = Editor()
    assert "should be within the range of lines of the file: [1, 2]" in refused(editor, ws, "view", "a.py",
                                                                                  view_range=(3, -1))
    assert "should be smaller than the number of lines in the file: `2`" in refused(editor, ws, "view", "a.py",
                                                                                    view_range=(1, 5))


def test_view_of_a_folder_lists_two_levels_without_hidden_ones(ws):
    for path in ("src/a.py", "src/pkg/b.py", "src/pkg/deep/c.py", ".git/config", "src/.hidden", "top.txt"):
        ws.write_text(path, "x")
    out = run(ws, "view", ".")
    assert out.startswith("Here's the files and directories up to 2 levels deep in ., excluding hidden items:")
    listed = out.splitlines()[2:]
    assert listed == ["./src/", "./src/a.py", "./src/pkg/", "./top.txt"]
    assert "The `view_range` parameter is not allowed" in refused(Editor(), ws, "view", "src", view_range=(1, 2))
    assert "does not exist" in refused(Editor(), ws, "view", "nope")


def test_a_long_folder_listing_says_where_it_stops(ws):
    for i in range(1003):
        ws.write_text(f"f{i:04d}", "")
    lines = run(ws, "view", ".").splitlines()
    assert len(lines) == 2 + 1000 + 1 and lines[-1].startswith("(the listing stops at 1000 entries")
    assert "stops at" not in run(ws, "view", "f0001")


def test_a_folder_swapped_for_a_symlink_is_not_listed_from_outside(ws, tmp_path):
    ws.write_text("inner/a.txt", "x")
    outside = tmp_path / "secret"
    outside.mkdir()
    (outside / "private.key").write_text("k")
    (ws.root / "link").symlink_to(outside)
    assert "private.key" not in run(ws, "view", ".")        # listed as a name, not followed
    with pytest.raises(PathEscapeError):
        ws.listing("link")


def test_create_makes_a_file_and_refuses_an_existing_one(ws):
    assert run(ws, "create", "new/dir/f.txt", file_text="hi\n") == "File created successfully at: new/dir/f.txt"
    assert ws.read_text("new/dir/f.txt") == "hi\n"
    assert refused(Editor(), ws, "create", "new/dir/f.txt", file_text="x") == \
        "File already exists at: new/dir/f.txt. Cannot overwrite files using command `create`."


def test_str_replace_needs_old_str_exactly_once(ws):
    ws.write_text("a.py", "x = 1\ny = 2\nx = 1\nz = 3\n")
    editor = Editor()
    assert refused(editor, ws, "str_replace", "a.py", old_str="w = 0", new_str="") == \
        "No replacement was performed, old_str `w = 0` did not appear verbatim in a.py."
    message = refused(editor, ws, "str_replace", "a.py", old_str="x = 1", new_str="x = 9")
    assert "Multiple occurrences of old_str `x = 1` in lines [1, 3]. Please ensure it is unique" in message
    out = editor.run(EditFile("str_replace", "a.py", old_str="y = 2\n", new_str="y = 20\ny2 = 0\n"), ws)
    assert ws.read_text("a.py") == "x = 1\ny = 20\ny2 = 0\nx = 1\nz = 3\n"
    assert out.startswith("The file a.py has been edited. Here's the result of running `cat -n` on a snippet")
    assert "     2\ty = 20\n     3\ty2 = 0\n" in out
    editor.run(EditFile("str_replace", "a.py", old_str="z = 3\n"), ws)     # new_str defaults to ""
    assert ws.read_text("a.py") == "x = 1\ny = 20\ny2 = 0\nx = 1\n"


def test_insert_puts_new_str_after_a_line(ws):
    ws.write_text("a.txt", "one\ntwo\n")
    editor = Editor()
    editor.run(EditFile("insert", "a.txt", new_str="zero", insert_line=0), ws)
    assert ws.read_text("a.txt") == "zero\none\ntwo\n"
    editor.run(EditFile("insert", "a.txt", new_str="three\nfour", insert_line=3), ws)
    assert ws.read_text("a.txt") == "zero\none\ntwo\nthree\nfour\n"
    assert "It should be within the range of lines of the file: [0, 5]" in refused(
        editor, ws, "insert", "a.txt", new_str="x", insert_line=6)
    ws.write_text("b.txt", "")
    editor.run(EditFile("insert", "b.txt", new_str="first\n", insert_line=0), ws)
    assert ws.read_text("b.txt") == "first\n"


def test_undo_edit_steps_back_through_this_episodes_edits(ws):
    ws.write_text("a.txt", "v1\n")
    editor = Editor()
    assert refused(editor, ws, "undo_edit", "a.txt") == "No edit history found for a.txt."
    editor.run(EditFile("str_replace", "a.txt", old_str="v1", new_str="v2"), ws)
    editor.run(EditFile("insert", "./a.txt", new_str="more", insert_line=1), ws)
    assert ws.read_text("a.txt") == "v2\nmore\n"
    assert editor.run(EditFile("undo_edit", "a.txt"), ws).startswith("Last edit to a.txt undone successfully.")
    assert ws.read_text("a.txt") == "v2\n"
    editor.run(EditFile("undo_edit", "a.txt"), ws)
    assert ws.read_text("a.txt") == "v1\n"
    editor.run(EditFile("str_replace", "a.txt", old_str="v1", new_str="v3"), ws)
    editor.reset()                          # a new episode
    assert "No edit history" in refused(editor, ws, "undo_edit", "a.txt")


def test_missing_large_binary_and_outside_files_are_refused(tmp_path):
    ws = Workspace(tmp_path / "ws", max_read_bytes=100)
    editor = Editor()
    assert "The path nope.txt does not exist" in refused(editor, ws, "str_replace", "nope.txt", old_str="a")
    ws.write_text("big.txt", "x" * 200)
    assert "larger than 100 bytes" in refused(editor, ws, "str_replace", "big.txt", old_str="x", new_str="y")
    assert ws.read_text("big.txt").startswith("x" * 100)
    assert run(ws, "view", "big.txt").endswith("\t" + "x" * 100 + "\n     2\t[truncated at 100 bytes]\n")
    ws.write_text("dir/f", "")
    assert "is a directory; only `view`" in refused(editor, ws, "str_replace", "dir", old_str="a")
    (ws.root / "bin.dat").write_bytes(b"\xff\xfeab")
    assert "not UTF-8" in refused(editor, ws, "insert", "bin.dat", new_str="x", insert_line=0)
    assert (ws.root / "bin.dat").read_bytes() == b"\xff\xfeab"
    with pytest.raises(PathEscapeError):
        editor.run(EditFile("create", "../escape.txt", file_text="x"), ws)
    assert not (tmp_path / "escape.txt").exists()


@pytest.mark.skipif(not Path(SSHD).exists(), reason="openssh-server is not installed (.ci/setup)")
def test_the_editor_works_on_the_remote_workspace(session):  # noqa: F811
    for path in ("src/a.py", "src/pkg/b.py", "src/pkg/deep/c.py", ".hidden/x", "top.txt"):
        session.write_text(path, "x = 1\n")
    local = Workspace()
    try:
        for rel, data in session.snapshot().items():
            local.write_text(rel, data.decode())
        assert session.listing(".") == local.listing(".") and session.listing("src", depth=1) == local.listing("src", 1)
    finally:
        local.remove()
    editor = Editor()
    assert run(session, "view", ".").splitlines()[2:] == ["./src/", "./src/a.py", "./src/pkg/", "./top.txt"]
    editor.run(EditFile("str_replace", "src/a.py", old_str="1", new_str="2"), session)
    assert session.read_text("src/a.py") == "x = 2\n"
    editor.run(EditFile("undo_edit", "src/a.py"), session)
    assert session.read_text("src/a.py") == "x = 1\n"
    with pytest.raises(NotADirectoryError):
        session.listing("top.txt")
    with pytest.raises(FileNotFoundError):
        session.listing("nope")


def test_seed_calls_edit_a_workspace_file_through_the_env():
    env = gym.make("hybridgym/computer.find-order-total-v1")
    try:
        env.reset(seed=0)
        create = ("<seed:tool_call><function=str_replace_editor><parameter=command>create</parameter>"
                  "<parameter=path>notes/plan.txt</parameter><parameter=file_text>\nstep 1\nstep 2\n\n"
                  "</parameter></function></seed:tool_call>")
        obs, *_, info = env.step(create)
        assert info["action_error"] is None and "File created successfully" in obs["sdk_output"]
        edit = ("<seed:tool_call><function=str_replace_editor><parameter=command>str_replace</parameter>"
                "<parameter=path>notes/plan.txt</parameter><parameter=old_str>step 2</parameter>"
                "<parameter=new_str>step 2 &amp; 3</parameter></function>"
                "<function=execute_bash><parameter=command>cat notes/plan.txt</parameter></function>"
                "</seed:tool_call>")
        obs, *_, info = env.step(edit)
        assert info["action_error"] is None
        assert obs["sdk_output"].endswith("step 1\nstep 2 & 3\n")
        obs, *_, info = env.step("<function=str_replace_editor><parameter=command>create</parameter>"
                                 "<parameter=path>notes/plan.txt</parameter><parameter=file_text>x</parameter>"
                                 "</function>")
        assert "File already exists at: notes/plan.txt" in info["action_error"]
        env.reset(seed=0)
        *_, info = env.step("<function=str_replace_editor><parameter=command>undo_edit</parameter>"
                            "<parameter=path>notes/plan.txt</parameter></function>")
        assert "No edit history found" in info["action_error"]
        # the attacks: read the host's files, write beside the workspace, list the host's folders
        root = env.unwrapped.sandbox.workspace.root
        for command, path, extra in (("view", "/etc/passwd", ""), ("view", "/", ""),
                                     ("create", "../escape.txt", "<parameter=file_text>x</parameter>"),
                                     ("create", "/tmp/escape.txt", "<parameter=file_text>x</parameter>")):
            obs, *_, info = env.step(f"<function=str_replace_editor><parameter=command>{command}</parameter>"
                                     f"<parameter=path>{path}</parameter>{extra}</function>")
            assert info["action_error"] and "outside the workspace" in info["action_error"], (path, info)
            assert "root:" not in obs["sdk_output"] and info.get("error") is None
        assert not (root.parent / "escape.txt").exists() and not Path("/tmp/escape.txt").exists()
    finally:
        env.close()
