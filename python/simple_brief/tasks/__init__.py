"""Running the project's own tasks — build, check, clean, tests, coverage, profiling — as the
person declared them, inside limits, and reading their results into structured answers.

- `declared`: the task declarations of the configs (argv lists, never a shell) and, where
  nothing is declared, the config lines that would declare what the project looks like
  it uses (pyproject/pytest, Cargo, go.mod, package.json scripts, Makefile targets).
- `sandbox`: one run: every process it starts kept and stopped, time, memory and output limits, cancellation,
  progress; what it printed and which limit (if any) stopped it.
- `runner`: a task's commands in order, its placeholders, artifacts, live test counts.
- `compiler_output`: compiler and checker output (gcc/clang, rustc/cargo JSON, tsc,
  mypy/pyright, Python tracebacks) as diagnostics with fix-its; its readers are
  `compiler_lines` (line formats), `compiler_json` (JSON formats), `compiler_python`
  (tracebacks) over `compiler_findings` (the Finding and Fix shapes).
- `test_results`: JUnit XML (junitparser) as test results, and test lists; `go_tests`
  (`go test -json`), `cargo_tests` (cargo's harness lines) and `jest_results` (jest's
  JSON) into the same shape; `test_runners` recognises the runner a command runs and adds
  its structured reporter, `test_summaries` reads its closing lines (the fallback counts),
  `test_counts` takes a run's results from the best of these.
- `coverage_reports`: coverage.py JSON, Cobertura XML and lcov as per-file coverage.
- `profiles`: cProfile/pstats, collapsed stacks and speedscope JSON as hotspots.

The tools over these are in `simple_brief.tools.tasks`.
"""
