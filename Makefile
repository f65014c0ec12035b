PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.stamp

# Lint only the source directories that exist.
LINT_DIRS := $(wildcard cut_tutor tests benchmarks)

.PHONY: venv test test-lowest dashboard bench clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

test: export CUT_TUTOR_HOME := $(CURDIR)/test-artifacts/home
test: venv
	$(BIN)/ruff check $(LINT_DIRS)
	$(BIN)/mypy cut_tutor
	@if [ -d notebooks ] && [ -n "$$(find notebooks -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' -print -quit)" ]; then \
		echo "$(BIN)/python -m pytest -q tests README.md cut_tutor --nbval-lax notebooks"; \
		$(BIN)/python -m pytest -q tests README.md cut_tutor --nbval-lax notebooks; \
	else \
		echo "$(BIN)/python -m pytest -q"; \
		$(BIN)/python -m pytest -q; \
	fi

# The lowest versions pyproject.toml allows for every direct dependency, in their own environment: the
# non-browser tests prove the declared floors install a working stack.
LOWEST := .venv-lowest
test-lowest: export CUT_TUTOR_HOME := $(CURDIR)/test-artifacts/home-lowest
test-lowest: venv
	rm -rf $(LOWEST)
	$(BIN)/uv venv -q $(LOWEST) --python $(PY)
	VIRTUAL_ENV=$(CURDIR)/$(LOWEST) $(BIN)/uv pip install -q --resolution lowest-direct -e '.[dashboard,sim,test,docs]'
	$(LOWEST)/bin/python -m pytest -q -m "not browser and not slow" tests README.md cut_tutor

dashboard: venv
	$(BIN)/cut-tutor dashboard

bench: venv
	@set -e; for f in benchmarks/bench_*.py; do \
		[ -e "$$f" ] || continue; \
		echo "== $$f"; \
		$(BIN)/python "$$f"; \
	done

clean:
	rm -rf $(VENV) $(LOWEST) build dist *.egg-info test-artifacts .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name .ipynb_checkpoints -type d -prune -exec rm -rf {} +
