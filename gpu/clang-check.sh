#!/usr/bin/env bash
# Compiles gpu/selfplay.cu as CUDA with clang, host and device sides, and assembles the
# device side for sm_90 with ptxas: a check, on a machine without nvcc, that the GPU
# build will compile on the device (the tests build only the CPU side). Nothing runs.
#
#   gpu/clang-check.sh CUDA_DIR
#
# CUDA_DIR is a CUDA 11 layout clang can read. Without a CUDA install, make one from
# PyPI's wheels (clang 14 reads CUDA 11's headers, not 12's; ptxas for sm_90 is CUDA 12's):
#   pip download --no-deps nvidia-cuda-runtime-cu11==11.7.99 nvidia-cuda-nvcc-cu11==11.7.99 \
#       nvidia-curand-cu11==10.2.10.91 -d wheels
#   pip download --no-deps nvidia-cuda-nvcc-cu12==12.4.131 -d wheels12
#   for w in wheels/*.whl; do python3 -m zipfile -e "$w" x; done
#   python3 -m zipfile -e wheels12/*.whl x12
#   mkdir -p CUDA_DIR/bin CUDA_DIR/include CUDA_DIR/lib64
#   cp -r x/nvidia/*/include/* CUDA_DIR/include/; cp -r x/nvidia/cuda_nvcc/nvvm CUDA_DIR/
#   cp x12/nvidia/cuda_nvcc/bin/ptxas CUDA_DIR/bin/; chmod +x CUDA_DIR/bin/ptxas
#   touch CUDA_DIR/bin/nvcc; chmod +x CUDA_DIR/bin/nvcc; echo 'CUDA Version 11.7.99' >CUDA_DIR/version.txt
set -euo pipefail
cd "$(dirname "$0")/.."
cuda=${1:?usage: gpu/clang-check.sh CUDA_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-x cuda --cuda-path="$cuda" --cuda-gpu-arch=sm_80 -std=c++17 -O2 -Wall -Wno-unknown-cuda-version)
clang++ "${flags[@]}" --cuda-host-only -c -o "$work/host.o" gpu/selfplay.cu
clang++ "${flags[@]}" --cuda-device-only -S -o "$work/device.ptx" gpu/selfplay.cu
"$cuda/bin/ptxas" -arch=sm_90 -v "$work/device.ptx" -o "$work/device.cubin" 2>&1 | grep -A2 "entry function.*play_kernel"
echo "clang-check: gpu/selfplay.cu compiles for the host and the device (sm_90 by ptxas)"
