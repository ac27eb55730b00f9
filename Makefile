# simple-brief — run `make help` for the targets.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q
# The standard-library file `make demo` outlines: present on every machine with Python.
DEMO_FILE = $$($(PY) -c 'import json.decoder as m; print(m.__file__)')

.DEFAULT_GOAL := help
.PHONY: help demo test test-python test-lua lint format bench conformance update-snapshots languages docs clean bench-peers

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-17s %s\n", $$1, $$2}'

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PIP) install -e '.[nvim,debug]'
	@touch $@

$(VENV)/.installed-dev: pyproject.toml $(VENV)/.installed
	$(PIP) install -e '.[dev]'
	@touch $@

demo: $(VENV)/.installed ## outline and symbol table of a stdlib file, and a search over this repo
	@echo "== simple-brief outline $(DEMO_FILE)"
	@$(VENV)/bin/simple-brief outline "$(DEMO_FILE)"
	@echo
	@echo "== simple-brief symbols $(DEMO_FILE) --return-children no"
	@$(VENV)/bin/simple-brief symbols "$(DEMO_FILE)" --return-children no
	@echo
	@echo "== simple-brief expand $(DEMO_FILE) JSONDecoder.decode"
	@$(VENV)/bin/simple-brief expand "$(DEMO_FILE)" JSONDecoder.decode
	@echo
	@echo "== simple-brief search outline --root python (this repository's engine)"
	@$(VENV)/bin/simple-brief search outline --root python --limit 8

# The Node tools (MCP Inspector, stylua) come with npm when it is there; tests needing them skip otherwise.
NODE_TOOLS := $(if $(shell command -v npm 2>/dev/null),node_modules/.installed)

# The engine's wheels, for the install test's offline pip (tests/install/test_install_e2e.py).
WHEELHOUSE := .cache/wheelhouse

$(WHEELHOUSE)/.done: pyproject.toml tests/install/wheelhouse.py | $(VENV)/.installed
	$(PY) tests/install/wheelhouse.py $(WHEELHOUSE)

test: $(VENV)/.installed-dev $(NODE_TOOLS) $(WHEELHOUSE)/.done ## install dev dependencies and run every test
	@command -v busted >/dev/null || echo "make test: busted is not installed, the Lua specs are skipped (apt-get install lua-busted)"
	$(PY) -m pytest -q -n auto

node_modules/.installed: package.json package-lock.json tests/lsp/typescript7/package.json
	npm install --no-audit --no-fund
	@touch $@

lint: $(VENV)/.installed-dev node_modules/.installed ## ruff (lint and format check), mypy, stylua
	$(VENV)/bin/ruff check python tests bench rplugin doc
	$(VENV)/bin/ruff format --check python tests bench rplugin doc
	$(VENV)/bin/mypy
	node_modules/.bin/stylua --check lua plugin build.lua python/simple_brief/editor/nvim/rpc.lua tests/nvim tests/debug/nvim_dap_standin $(wildcard tests/lua tests/busted.lua)

format: $(VENV)/.installed-dev node_modules/.installed ## rewrite Python and Lua files (ruff, stylua)
	$(VENV)/bin/ruff format python tests bench rplugin doc
	$(VENV)/bin/ruff check --fix python tests bench rplugin doc
	node_modules/.bin/stylua lua plugin build.lua python/simple_brief/editor/nvim/rpc.lua tests/nvim tests/debug/nvim_dap_standin $(wildcard tests/lua tests/busted.lua)

bench: $(VENV)/.installed-dev ## token, coverage and speed figures against named baselines
	@command -v ctags >/dev/null || { apt-get update -qq && apt-get install -y -qq universal-ctags; } \
	  || echo "bench: universal-ctags is not installed and could not be; its columns are skipped"
	$(PIP) install -e '.[bench]'
	$(PY) bench/run.py
	$(PY) bench/query_cost.py
	$(PY) bench/surroundings.py  # expand_at context=true against the symbol alone, outline + symbol, the file
	nice -n 10 $(PY) bench/symbol_index.py  # the symbol index on the stdlib + site-packages tree
	nice -n 10 $(PY) bench/first_index_symbols.py --runs 1  # the symbol index alone vs ctags -R, same run
	nice -n 10 $(PY) bench/daemon.py  # a CLI call through the daemon vs standalone; its memory on that tree
	$(PY) bench/first_run.py
	$(PY) bench/tasks.py  # test_run vs the same pytest command run directly
	$(PY) bench/debug.py  # launch-to-first-stop and step over MCP vs a minimal DAP script on debugpy
	nice -n 10 $(PY) bench/references.py  # a hub symbol's first page of references vs unpaged and the server's own time
	$(PY) bench/surroundings.py  # expand_at context=true vs outline + expand_at, and vs reading the file
	$(PY) bench/outline_tokens.py  # outline and names tokens vs an Aider-style map and the source
	$(PY) bench/folds.py --profile  # foldingRange and :SimpleBrief vs the bare tree-sitter parse of the same files
	-$(PY) bench/c_errors.py  # exits 1 while a false error remains; the figures still print

bench-peers: $(VENV)/.installed-dev ## simple-brief next to Serena (serena-agent from PyPI, in .venv-peers) on the same files
	test -x .venv-peers/bin/serena || { $(PYTHON) -m venv .venv-peers && .venv-peers/bin/pip install -q 'serena-agent==2.1.0'; }
	$(PY) bench/peers.py

conformance: $(VENV)/.installed-dev ## real files in every language: ctags coverage, false syntax errors, folds and :ExpandAt in Neovim
	$(PY) bench/conformance.py --install
	$(PY) bench/conformance.py
	$(PY) bench/conformance.py --corpus 2

update-snapshots: $(VENV)/.installed-dev ## rewrite golden snapshots (review the diff like code)
	UPDATE_SNAPSHOTS=1 $(PY) -m pytest -q tests/engine/test_snapshots.py

docs: $(VENV)/.installed ## write the README's and :help's tables of the Neovim options and commands from lua/simple_brief/config.lua and plugin/simple_brief.lua
	$(PY) doc/tables.py .

languages: $(VENV)/.installed ## write lua/simple_brief/filetypes.lua and the README's and :help's language lists from the engine's language units
	$(PY) -c "from simple_brief.languages import filetypes_lua; print(filetypes_lua(), end='')" > lua/simple_brief/filetypes.lua
	$(PY) -m simple_brief.languages._lists .

clean: ## remove the virtual environment and caches
	rm -rf $(VENV) node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis
