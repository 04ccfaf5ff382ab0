"""Is the kit's venv what `make setup` promises: torch's CPU build, with none of CUDA's packages?

The Makefile asks PyTorch's CPU wheel index for torch (the default index serves Linux the CUDA
build, several GB of nvidia-* distributions); these tests hold whatever index it came from.
"""
from __future__ import annotations

from importlib import metadata


def test_torch_is_the_cpu_build():
    """Was torch built without CUDA (torch.version.cuda is None)?"""
    import torch

    assert torch.version.cuda is None, f"torch {torch.__version__} is a CUDA {torch.version.cuda} build"


def test_no_nvidia_distributions_are_installed():
    """Is no nvidia-* distribution (cuBLAS, cuDNN, NCCL, ...) installed beside torch?"""
    nvidia = sorted(d.metadata["Name"] for d in metadata.distributions()
                    if (d.metadata["Name"] or "").lower().startswith("nvidia"))
    assert nvidia == []


def test_torch_is_the_pinned_version():
    """Is torch the version pyproject.toml pins for the [torch] extra (the CPU wheel's +cpu label aside)?"""
    import torch

    pinned = [r for r in metadata.requires("backprop-kit") or [] if r.startswith("torch") and "extra" in r]
    assert pinned, "pyproject.toml's [torch] extra pins no torch"
    version = pinned[0].split(";")[0].split("==")[1].strip()
    assert torch.__version__.split("+")[0] == version
