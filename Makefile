PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.stamp

# Lint only the source directories that exist.
LINT_DIRS := $(wildcard cut_tutor tests benchmarks)

.PHONY: venv test dashboard bench clean

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

dashboard: venv
	$(BIN)/cut-tutor dashboard

bench: venv
	@set -e; for f in benchmarks/bench_*.py; do \
		[ -e "$$f" ] || continue; \
		echo "== $$f"; \
		$(BIN)/python "$$f"; \
	done

clean:
	rm -rf $(VENV) build dist *.egg-info test-artifacts .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name .ipynb_checkpoints -type d -prune -exec rm -rf {} +
