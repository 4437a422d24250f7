#!/usr/bin/env bash
# The image checks that leave the test suite (docs/releasing.md): hadolint on the Dockerfile where it is
# installed, `docker build`, and the built image answering --version. Needs a Docker engine.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! docker info --format '{{.ServerVersion}}' >/dev/null 2>&1; then
  echo "docker:check needs a Docker engine: none answers here (start dockerd, or run it in the CI docker job)" >&2
  exit 1
fi
if command -v hadolint >/dev/null; then hadolint Dockerfile; else echo "hadolint is not installed: lint skipped (CI runs it)" >&2; fi
docker build -t proofpr:check .
docker run --rm proofpr:check --version
