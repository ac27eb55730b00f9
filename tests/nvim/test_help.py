"""doc/simple-brief.txt: valid tags, a tag for every command and option, links that resolve."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from nvim_session import ROOT, nvim, nvim_binary

DOC = ROOT / "doc"
PLUGIN = ROOT / "plugin" / "simple_brief.lua"


@pytest.fixture(scope="module")
def tags(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """`:helptags` run on a copy of doc/ (the repository keeps no generated tags file)."""
    copy = tmp_path_factory.mktemp("help") / "doc"
    shutil.copytree(DOC, copy)
    proc = subprocess.run(
        [nvim_binary(), "--headless", "-u", "NONE", "-i", "NONE", "-c", f"helptags ++t {copy}", "-c", "qall!"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    # helptags reports duplicate tags (E154) and other errors on stderr but exits 0.
    assert proc.stdout.strip() == "" and proc.stderr.strip() == "", proc.stdout + proc.stderr
    assert proc.returncode == 0
    entries = (copy / "tags").read_text().splitlines()
    return {name: file for name, file, _ in (entry.split("\t", 2) for entry in entries)}


def runtime_tags() -> set[str]:
    """Tags of Neovim's own help, which ours links to."""
    runtime_doc = Path(nvim_binary()).parent.parent / "share" / "nvim" / "runtime" / "doc" / "tags"
    return {line.split("\t", 1)[0] for line in runtime_doc.read_text().splitlines()}


def test_help_tags_build_without_errors(tags: dict[str, str]) -> None:
    for tag in ("simple-brief", "simple-brief-setup", "simple-brief-config", "simple-brief-health"):
        assert tags.get(tag) == "simple-brief.txt"
    assert tags.get("simple-brief-rplugin") == "simple-brief.txt"


def test_every_command_has_a_tag(tags: dict[str, str]) -> None:
    commands = re.findall(r"nvim_create_user_command\(\s*'(\w+)'", PLUGIN.read_text())
    assert commands, "no commands found in plugin/simple_brief.lua"
    missing = [name for name in commands if f":{name}" not in tags]
    assert missing == []


def test_every_option_has_a_tag_and_its_default(tmp_path: Path, tags: dict[str, str]) -> None:
    with nvim(tmp_path) as nv:
        defaults = nv.exec_lua("return vim.tbl_keys(require('simple_brief.config').defaults)")
        shown = nv.exec_lua(
            "local d = require('simple_brief.config').defaults;"
            " return { attach = d.attach_timeout_ms, debounce = d.view_debounce_ms, host = d.host }"
        )
    text = (DOC / "simple-brief.txt").read_text()
    missing = [key for key in sorted(defaults) if f"simple-brief-config-{key}" not in tags]
    assert missing == []
    assert f"attach_timeout_ms = {shown['attach']}," in text
    assert f"view_debounce_ms = {shown['debounce']}," in text
    assert f"host = '{shown['host']}'," in text


def prose(text: str) -> str:
    """The help text without its code examples (from a line ending in `>` to a `<` line)."""
    out, in_code = [], False
    for line in text.splitlines():
        if in_code and (line.startswith("<") or (line.strip() and not line[0].isspace())):
            in_code = False
        if not in_code:
            out.append(line)
        if re.search(r"(^|\s)>[a-z]*$", line):
            in_code = True
    return "\n".join(out)


def test_links_resolve(tags: dict[str, str]) -> None:
    links = set(re.findall(r"\|([^|\s]+)\|", prose((DOC / "simple-brief.txt").read_text())))
    assert "simple-brief-modes" in links
    known = set(tags) | runtime_tags()
    assert sorted(links - known) == []


def test_help_opens_from_the_runtimepath(tmp_path: Path) -> None:
    plugin = tmp_path / "plugin-copy"
    shutil.copytree(DOC, plugin / "doc")
    proc = subprocess.run(
        [
            nvim_binary(),
            "--headless",
            "-u",
            "NONE",
            "-i",
            "NONE",
            "--cmd",
            f"set runtimepath^={plugin}",
            "-c",
            f"helptags {plugin / 'doc'}",
            "-c",
            "help :ExpandAt",
            "-c",
            "lua io.stdout:write(vim.fn.expand('%:t') .. ':' .. vim.fn.getline('.'))",
            "-c",
            "qall!",
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert proc.stderr.strip() == ""
    assert proc.stdout.startswith("simple-brief.txt:")
    assert "*:ExpandAt*" in proc.stdout
