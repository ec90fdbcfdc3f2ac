# The two commands of the README:  make app  and  make test.
# make test lints (ruff; lint-imports checks the layers in pyproject.toml), then runs pytest.
PY ?= python3
PIP := $(PY) -m pip
STAMP := .cache/setup-$(shell cat requirements.txt requirements-dev.txt | sha256sum | cut -c1-12).stamp
# llama.cpp build flags. The Dockerfile adds -DGGML_NATIVE=OFF so its image runs on any
# x86-64 host; here the build may use this machine's own CPU features.
LLAMA_CMAKE_ARGS ?= -DLLAVA_BUILD=OFF

.PHONY: setup app test lint bench

# torch is pinned and installed first so that pip never resolves a CUDA build.
# llama-cpp-python builds from source the first time (about 8 minutes on 2 cores).
setup: $(STAMP)
$(STAMP): requirements.txt requirements-dev.txt
	$(PIP) install torch==2.13.0
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PIP) install -r requirements-dev.txt
	$(PY) -c "from responders.local_llama import warm_up; r = warm_up(); print(r or 'local model ready')"
	mkdir -p .cache && touch $@

app: setup
	$(PY) app.py

lint: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	lint-imports

test: lint
	$(PY) -m pytest

bench: setup
	$(PY) bench/bench_local_responder.py
