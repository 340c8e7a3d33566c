#!/usr/bin/env python3
"""Runs the `gate` job of .github/workflows/benchmark.yml here, step by step, the way GitHub does.

    scripts/workflow-locally.py BASE_REF HEAD_REF [--work DIR]

Each `run:` step runs with `bash --noprofile --norc -eo pipefail` (GitHub's default shell) in the
repository, with the step's `env:` (its `${{ … }}` expressions filled in from the pull request of
BASE_REF and HEAD_REF and from earlier steps' outputs), and with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY
and GITHUB_WORKSPACE as the runner sets them. After a failed step only `if: always()` steps run, as
on GitHub. `uses:` steps (checkout, cache, upload) are GitHub's own actions: they are listed, and the
upload's paths checked to exist. The gate's own settings (GATE_WALL_PAIRS, …) pass through, so a
quick check can run fewer pairs.

Prints each step's outcome and the job summary, and exits 0 when the job behaved as the workflow
promises: the summary holds the gate's comparison, the files to upload exist, and the job's outcome
is the gate's exit code (failed exactly when the gate said 1 or 2). A regression found is not a
failure of this check; the verdict is printed.
"""

import os
import re
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:  # check-jsonschema's venv has ruamel.yaml
    from ruamel.yaml import YAML

    yaml = None


def load(path):
    with open(path, encoding="utf-8") as handle:
        if yaml is not None:
            return yaml.safe_load(handle)
        return YAML(typ="safe").load(handle)


def rev(ref):
    return subprocess.run(
        ["git", "rev-parse", "--verify", ref + "^{commit}"], check=True, capture_output=True, text=True
    ).stdout.strip()


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0] in ("-h", "--help"):
        print(__doc__)
        return 1
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], check=True, capture_output=True, text=True).stdout.strip()
    os.chdir(root)
    workflow = load(".github/workflows/benchmark.yml")
    # PyYAML reads the key `on` as True; the jobs are what matter here.
    job = workflow["jobs"]["gate"]
    context = {
        "github.event.pull_request.base.sha": rev(args[0]),
        "github.event.pull_request.head.sha": rev(args[1]),
        "github.event.pull_request.number": "0",
        "github.event_name": "pull_request",
        "runner.os": "Linux",
    }
    work = tempfile.mkdtemp(prefix="workflow-")
    summary = os.path.join(work, "step-summary.md")
    open(summary, "w").close()
    outputs = {}

    def expand(text):
        def value(match):
            expression = match.group(1).strip()
            if expression.startswith("steps."):
                _, step, _, name = expression.split(".", 3)
                return outputs.get(step, {}).get(name, "")
            if expression in context:
                return context[expression]
            raise SystemExit(f"workflow-locally: no value for ${{{{ {expression} }}}}")

        return re.sub(r"\$\{\{(.*?)\}\}", value, str(text))

    failed = False
    gate_status = None
    job_status = 0
    for index, step in enumerate(job["steps"]):
        name = step.get("name") or step.get("uses") or f"step {index + 1}"
        condition = str(step.get("if", "success()"))
        if failed and "always()" not in condition:
            print(f"-- {name}: skipped (an earlier step failed)")
            continue
        if "uses" in step:
            paths = str(step.get("with", {}).get("path", "")).split()
            if step["uses"].startswith("actions/upload-artifact"):
                present = [p for p in paths if os.path.exists(p)]
                missing = [p for p in paths if not os.path.exists(p)]
                print(f"-- {name}: {step['uses']} would upload {', '.join(present) or 'nothing'}")
                if missing:
                    print(f"   MISSING: {', '.join(missing)}")
                    job_status = job_status or 1
            else:
                print(f"-- {name}: {step['uses']} (GitHub's action, not run here)")
            continue
        output_file = os.path.join(work, f"output-{index}")
        open(output_file, "w").close()
        env = dict(os.environ)
        env.update({key: expand(value) for key, value in (step.get("env") or {}).items()})
        env.update(
            {
                "GITHUB_OUTPUT": output_file,
                "GITHUB_STEP_SUMMARY": summary,
                "GITHUB_WORKSPACE": root,
                "CI": "true",
                "GITHUB_ACTIONS": "true",
                # The steps' `git config --global` (for containers) stays out of this machine's own.
                "GIT_CONFIG_GLOBAL": os.path.join(work, "gitconfig"),
            }
        )
        script = os.path.join(work, f"step-{index}.sh")
        with open(script, "w", encoding="utf-8") as handle:
            handle.write(expand(step["run"]))
        print(f"-- {name}: running", flush=True)
        status = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], env=env).returncode
        with open(output_file, encoding="utf-8") as handle:
            values = dict(line.rstrip("\n").split("=", 1) for line in handle if "=" in line)
        if "id" in step:
            outputs[step["id"]] = values
        if step.get("id") == "gate":
            gate_status = values.get("status")
        print(f"-- {name}: exit {status}")
        if status != 0:
            failed = True
            job_status = status

    with open(summary, encoding="utf-8") as handle:
        text = handle.read()
    print("\n== job summary\n" + text)
    problems = []
    if "## Benchmark:" not in text or "|" not in text:
        problems.append("the job summary has no comparison")
    if gate_status not in ("0", "1", "2"):
        problems.append(f"the gate step set no status (got {gate_status!r})")
    elif (job_status != 0) != (gate_status != "0"):
        problems.append(f"the job ended {job_status} but the gate said {gate_status}")
    verdict = {"0": "no regression", "2": "REGRESSION", "1": "the gate could not run"}.get(gate_status, "unknown")
    print(f"== gate verdict: {verdict}; job exit {job_status}")
    for problem in problems:
        print(f"workflow-locally: {problem}", file=sys.stderr)
    return 1 if problems or gate_status == "1" else 0


if __name__ == "__main__":
    sys.exit(main())
