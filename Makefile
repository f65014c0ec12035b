PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.stamp

# Lint only the source directories that exist.
LINT_DIRS := $(wildcard cut_tutor tests benchmarks guide/hooks.py)

.PHONY: venv native guide test test-native-sanitized test-lowest test-dashboard dashboard bench clean

# Every temporary folder a test run makes (the tests', the notebooks', the servers' and browsers') goes in one
# folder of its own, removed when the run ends: a run leaves nothing in /tmp. Prefix a command with it.
IN_TEST_TMP = tmp=$$(mktemp -d -t cut-tests.XXXXXX) && trap 'rm -rf "$$tmp"' EXIT && export TMPDIR=$$tmp &&

venv: $(STAMP)

$(STAMP): pyproject.toml jupyter-config/cut_tutor.json
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	@# An editable install skips the wheel's data files: turn the guide's route on as a wheel does.
	mkdir -p $(VENV)/etc/jupyter/jupyter_server_config.d
	cp jupyter-config/cut_tutor.json $(VENV)/etc/jupyter/jupyter_server_config.d/
	@# JupyterHub's proxy for the classroom test (deploy/), from the npm registry, kept inside the checkout.
	npm install --no-save --no-audit --no-fund --silent --prefix build/node configurable-http-proxy@5
	touch $(STAMP)

# The quick tests run in two processes, a test file to each at a time; the browser and slow tests (installs,
# Binder, servers) and the notebooks under nbval, the dashboard's included, then run one at a time. A part that
# fails does not stop the next.
QUICK := -m "not browser and not slow" -n 2 --dist loadfile

test: export CUT_TUTOR_HOME := $(CURDIR)/test-artifacts/home
test: venv
	$(BIN)/ruff check $(LINT_DIRS)
	$(BIN)/ruff format --check $(LINT_DIRS)
	$(BIN)/mypy cut_tutor guide/hooks.py
	$(IN_TEST_TMP) status=0; \
		$(BIN)/python -m pytest -q --durations=20 $(QUICK) tests README.md cut_tutor || status=1; \
		$(BIN)/python -m pytest -q --durations=20 -m "browser or slow" tests || status=1; \
		$(BIN)/python -m pytest -q --durations=10 --nbval-lax notebooks cut_tutor/dashboard/dashboard.ipynb || status=1; \
		$(MAKE) --no-print-directory test-native-sanitized || status=1; \
		exit $$status

# The compiled core built again with AddressSanitizer and UndefinedBehaviorSanitizer, into a temporary folder with a
# copy of the package, and its tests (tests/test_native_*.py) run from there against that build: a memory error or undefined
# behaviour stops the run with a report (on stderr: pytest captures only Python's streams). Python itself is not
# instrumented, so gcc's sanitizer runtime is preloaded, and the C++ runtime with it for the exception interceptor.
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
test-native-sanitized: venv
	$(IN_TEST_TMP) cp -r cut_tutor "$$tmp/" && rm -f "$$tmp"/cut_tutor/_native*.so && \
		CUT_TUTOR_NATIVE_FLAGS="$(SANITIZE)" $(BIN)/python setup.py -q build_ext --build-lib "$$tmp" \
			--build-temp "$$tmp/obj" && \
		asan=$$($(CXX) -print-file-name=libasan.so) && cxx=$$($(CXX) -print-file-name=libstdc++.so) && \
		test -e "$$asan" && test -e "$$cxx" && cd "$$tmp" && \
		export PYTHONPATH="$$tmp" LD_PRELOAD="$$asan $$cxx" ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 && \
		$(CURDIR)/$(BIN)/python -c 'import sys, cut_tutor._native as core; assert core.__file__.startswith(sys.argv[1]), core' "$$tmp" && \
		$(CURDIR)/$(BIN)/python -m pytest -q --capture=sys $(CURDIR)/tests/test_native_*.py

# The compiled core built into the source tree (an editable install does it too), after a change to its C++.
native: venv
	$(BIN)/python setup.py -q build_ext --inplace

# The lowest versions pyproject.toml allows for every direct dependency, in their own environment: the
# non-browser tests prove the declared floors install a working stack.
LOWEST := .venv-lowest
test-lowest: export CUT_TUTOR_HOME := $(CURDIR)/test-artifacts/home-lowest
test-lowest: venv
	rm -rf $(LOWEST)
	$(BIN)/uv venv -q $(LOWEST) --python $(PY)
	VIRTUAL_ENV=$(CURDIR)/$(LOWEST) $(BIN)/uv pip install -q --resolution lowest-direct -e '.[dashboard,sim,test,docs]'
	$(IN_TEST_TMP) $(LOWEST)/bin/python -m pytest -q --durations=20 $(QUICK) tests README.md cut_tutor

# What `pip install "cut_tutor[dashboard]"` installs, and the test runner, in their own environment: the app, the
# review it runs in the background, the progress plot, Voilà's serving and the launcher work with the dashboard's
# extra alone. A test of another extra's feature (the simulation lab's Dask cluster) skips and says why (-rs).
DASHBOARD := .venv-dashboard
DASHBOARD_TESTS := tests/test_widgets.py tests/test_review_room.py tests/test_review_widgets.py tests/test_progress.py \
	tests/test_progress_room.py tests/test_serving.py tests/test_packaging.py \
	tests/test_sim.py::test_same_results_on_a_dask_cluster \
	tests/test_sim.py::test_cli_simulate_counts_batches_on_a_terminal_only
test-dashboard: export CUT_TUTOR_HOME := $(CURDIR)/test-artifacts/home-dashboard
test-dashboard: venv
	rm -rf $(DASHBOARD)
	$(BIN)/uv venv -q $(DASHBOARD) --python $(PY)
	VIRTUAL_ENV=$(CURDIR)/$(DASHBOARD) $(BIN)/uv pip install -q -e '.[dashboard]' pytest pytest-timeout hypothesis
	$(IN_TEST_TMP) $(DASHBOARD)/bin/python -m pytest -q -rs --durations=5 -m "not browser and not slow" $(DASHBOARD_TESTS)

# The player's guide, built into the package (cut_tutor/dashboard/guide) where the dashboard serves it.
guide: venv
	$(BIN)/mkdocs build -q --strict -f guide/mkdocs.yml

dashboard: guide
	$(BIN)/cut-tutor dashboard

bench: venv
	@set -e; for f in benchmarks/bench_*.py; do \
		[ -e "$$f" ] || continue; \
		echo "== $$f"; \
		$(BIN)/python "$$f"; \
	done

clean:
	rm -rf $(VENV) $(LOWEST) $(DASHBOARD) cut_tutor/dashboard/guide build dist *.egg-info test-artifacts .pytest_cache .mypy_cache .ruff_cache
	rm -f cut_tutor/_native*.so
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name .ipynb_checkpoints -type d -prune -exec rm -rf {} +
