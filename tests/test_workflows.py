"""The GitHub Actions workflows can't run here, so check what can be checked:
they parse, they trigger on the right events, and every command they run
exists and accepts the arguments it is given."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from build_graph import cli
from build_graph.diff import MARKER

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
BUILD_GRAPH = re.compile(r"python3? -m build_graph\b[^\n|;&>`#]*")
README_COMMANDS = ROOT / ".ci" / "readme-commands"


def load(name: str) -> dict:
    workflow = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as True; GitHub reads it as "on".
    if True in workflow:
        workflow["on"] = workflow.pop(True)
    return workflow


def steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def runs(workflow: dict) -> str:
    return "\n".join(step.get("run", "") for step in steps(workflow))


def uses(workflow: dict) -> list[str]:
    return [step["uses"] for step in steps(workflow) if "uses" in step] + [
        job["uses"] for job in workflow["jobs"].values() if "uses" in job]


def test_the_three_workflows_exist():
    assert {"ci.yml", "deploy.yml", "graph-diff.yml"} <= {p.name for p in WORKFLOWS.iterdir()}


@pytest.mark.parametrize("name", ["ci.yml", "deploy.yml", "graph-diff.yml"])
def test_every_workflow_is_well_formed(name):
    workflow = load(name)
    assert workflow["name"] and workflow["on"] and workflow["jobs"]
    for job_id, job in workflow["jobs"].items():
        assert job.get("runs-on") == "ubuntu-latest", job_id
        for step in job["steps"]:
            assert ("run" in step) != ("uses" in step), step
    for action in uses(workflow):
        assert re.fullmatch(r"actions/[a-z-]+@v\d+", action), action   # official, major-pinned


def test_ci_tests_and_builds_on_every_pull_request():
    workflow = load("ci.yml")
    assert "pull_request" in workflow["on"] and "push" in workflow["on"]
    commands = runs(workflow)
    assert "apt-get install -y -qq chromium" in commands
    assert re.search(r"^bash \.ci/run$", commands, re.MULTILINE)
    assert re.search(r"^bash \.ci/lowest$", commands, re.MULTILINE)
    for job in workflow["jobs"].values():
        assert job["container"].startswith("python:3.11-")          # Debian with Python 3.11


def test_ci_script_exists_is_executable_and_runs_tests_and_strict_build():
    script = ROOT / ".ci" / "run"
    assert script.is_file() and os.access(script, os.X_OK)
    text = script.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash")
    assert ".ci/readme-commands README.md" in text and "mkdocs build --strict" in text
    assert "build_graph check" in text and "bash .ci/lowest" in text
    for name in ("run", "lowest"):
        assert subprocess.run(["bash", "-n", str(ROOT / ".ci" / name)], capture_output=True).returncode == 0


def test_ci_runs_the_readmes_own_commands_in_a_fresh_environment():
    """.ci/run reads the Quick start from the README: exactly two commands,
    the first serving the site and the second running the tests, each in a
    virtual environment of its own (never the machine's site-packages)."""
    result = subprocess.run([sys.executable, str(README_COMMANDS), str(ROOT / "README.md")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    serve, test = result.stdout.splitlines()
    for command in (serve, test):
        assert command.startswith("python3 -m venv .venv && .venv/bin/pip install -e ")
        assert "--system-site-packages" not in command
    assert serve.endswith("mkdocs serve") and test.endswith("-m pytest")


@pytest.mark.parametrize("quick_start, error", [
    ("```sh\npython3 -m venv .venv && .venv/bin/mkdocs serve\n```\n", "exactly two"),
    ("```sh\na\n```\n\n```sh\nb\n```\n", "first command serves"),
    ("", "exactly two"),
])
def test_readme_commands_refuses_a_quick_start_it_cannot_run(tmp_path, quick_start, error):
    readme = tmp_path / "README.md"
    readme.write_text(f"# X\n\n## Quick start\n\n{quick_start}\n## Next\n", encoding="utf-8")
    result = subprocess.run([sys.executable, str(README_COMMANDS), str(readme)], capture_output=True, text=True)
    assert result.returncode != 0 and error in result.stderr


def test_every_workflow_installs_into_a_fresh_virtual_environment():
    for path in sorted(WORKFLOWS.glob("*.yml")):
        for line in runs(load(path.name)).splitlines():
            if "pip install" in line:
                assert line.startswith("python3 -m venv .venv && .venv/bin/pip install"), (path.name, line)


def test_deploy_builds_strictly_and_publishes_pages_from_main():
    workflow = load("deploy.yml")
    assert workflow["on"]["push"]["branches"] == ["main"]
    assert "pull_request" not in workflow["on"]
    assert workflow["permissions"]["pages"] == "write"
    assert workflow["permissions"]["id-token"] == "write"
    build = workflow["jobs"]["build"]
    assert build["env"]["ATLAS_REPO_URL"] == "${{ github.server_url }}/${{ github.repository }}"
    assert ".venv/bin/python -m mkdocs build --strict" in runs(workflow)
    actions = [a.split("@")[0] for a in uses(workflow)]
    assert "actions/upload-pages-artifact" in actions and "actions/deploy-pages" in actions
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages"))
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_ConfigLoader)
    assert upload["with"]["path"] == config.get("site_dir", "site")
    assert workflow["jobs"]["deploy"]["needs"] == "build"
    assert workflow["jobs"]["deploy"]["environment"]["name"] == "github-pages"


def test_graph_diff_posts_the_report_as_one_updated_comment():
    workflow = load("graph-diff.yml")
    assert list(workflow["on"]) == ["pull_request"]                 # never pull_request_target
    assert workflow["permissions"]["pull-requests"] == "write"
    checkout = next(s for s in steps(workflow) if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0
    diff_step = next(s for s in steps(workflow) if "build_graph diff" in s.get("run", ""))
    assert '.venv/bin/python -m build_graph diff "origin/$BASE_REF" HEAD --out diff.md' in diff_step["run"]
    assert diff_step["env"]["BASE_REF"] == "${{ github.base_ref }}"
    assert "${{" not in diff_step["run"]                            # no expression injection
    comment = next(s for s in steps(workflow) if s.get("uses", "").startswith("actions/github-script"))
    script = comment["with"]["script"]
    assert "readFileSync('diff.md'" in script
    assert f"'{MARKER}'" in script                                  # finds its own comment again
    assert "updateComment" in script and "createComment" in script


def test_mkdocs_build_accepts_strict():
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--help"],
                            capture_output=True, text=True,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0 and "--strict" in result.stdout


def _build_graph_commands() -> list[tuple[str, str]]:
    found = []
    for path in [*sorted(WORKFLOWS.glob("*.yml")), ROOT / "CONTRIBUTING.md",
                 ROOT / ".github" / "pull_request_template.md"]:
        for match in BUILD_GRAPH.finditer(path.read_text(encoding="utf-8")):
            found.append((path.name, match.group(0).strip().rstrip("`").strip()))
    return found


def test_workflows_and_docs_name_build_graph_commands():
    names = {name for name, _ in _build_graph_commands()}
    assert {"graph-diff.yml", "CONTRIBUTING.md", "pull_request_template.md"} <= names


@pytest.mark.parametrize("where,command", _build_graph_commands())
def test_every_build_graph_command_exists_and_parses(where, command, monkeypatch):
    """Each command line goes through the real argument parser, with the
    subcommand's function replaced so nothing is built."""
    argv = shlex.split(command.replace("$BASE_REF", "main"))[3:]
    called = []
    for name in dir(cli):
        if name.startswith("cmd_"):
            monkeypatch.setattr(cli, name, lambda args, name=name: called.append(name) or 0)
    try:
        status = cli.main(argv)
    except SystemExit as exit:                                      # argparse rejected it
        pytest.fail(f"{where}: {command!r} is not a valid command line (exit {exit.code})")
    assert status == 0 and called == [f"cmd_{argv[0].replace('-', '_')}"], (where, command)


class _ConfigLoader(yaml.SafeLoader):
    """mkdocs.yml uses tags such as ``!ENV``; their values do not matter here."""


_ConfigLoader.add_multi_constructor("!", lambda loader, suffix, node: None)
_ConfigLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def test_pull_request_template_is_a_checklist():
    text = (ROOT / ".github" / "pull_request_template.md").read_text(encoding="utf-8")
    items = re.findall(r"^- \[ \] (.+)$", text, re.MULTILINE)
    assert len(items) >= 4
    for topic in ["check", "graph diff", "pytest", "source"]:
        assert any(topic in item for item in items), topic
