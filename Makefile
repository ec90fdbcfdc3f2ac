# The two commands of the README:  make app  and  make test.
# make test lints (ruff; lint-imports checks the layers in pyproject.toml), then runs pytest.
PY ?= python3
PIP := $(PY) -m pip
# llama.cpp build flags. The Dockerfile adds -DGGML_NATIVE=OFF so its image runs on any
# x86-64 host; here the build may use this machine's own CPU features, except AMX: its
# kernels die with a general protection fault on the virtual machines we run on
# (tools/llama_build.py checks the installed build and setup rebuilds one that has them).
ifeq ($(shell uname -m),x86_64)
LLAMA_CMAKE_ARGS ?= -DLLAVA_BUILD=OFF -DCMAKE_C_FLAGS=-mno-amx-int8 -DCMAKE_CXX_FLAGS=-mno-amx-int8
else
LLAMA_CMAKE_ARGS ?= -DLLAVA_BUILD=OFF
endif
LLAMA := $(shell grep '^llama-cpp-python==' requirements.txt)
STAMP := .cache/setup-$(shell (cat requirements.txt requirements-dev.txt; echo '$(LLAMA_CMAKE_ARGS)') | sha256sum | cut -c1-12).stamp

.PHONY: setup app test lint bench

# torch is pinned and installed first so that pip never resolves a CUDA build.
# llama-cpp-python builds from source the first time (about 8 minutes on 2 cores).
setup: $(STAMP)
$(STAMP): requirements.txt requirements-dev.txt
	$(PIP) install torch==2.13.0
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PIP) install -r requirements-dev.txt
	$(PY) tools/llama_build.py || CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PIP) install --force-reinstall \
		--no-deps --no-cache-dir --no-binary llama-cpp-python "$(LLAMA)"
	$(PY) tools/llama_build.py
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
