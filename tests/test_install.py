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


def test_does_every_long_install_step_say_what_comes_before_it():
    """pip runs --quiet in `make setup` (its bars flood a log): is each pip install preceded by a note (an
    @echo "setup: ...") in its recipe, so a log or CI is never silent for minutes with nothing said?"""
    from pathlib import Path

    lines = (Path(__file__).resolve().parents[1] / "Makefile").read_text().splitlines()
    installs = [i for i, line in enumerate(lines) if line.startswith("\t") and "$(PIP) install" in line
                and "--upgrade pip" not in line and not line.strip().startswith("echo")]
    firsts = {}   # each thing installed, at its first line (torch's fallback from another index is the same step)
    for i in installs:
        firsts.setdefault("torch" if "$(TORCH)" in lines[i] else lines[i], i)
    installs = sorted(firsts.values())
    assert len(installs) >= 2
    for before, i in zip([0, *installs], installs):
        recipe = lines[:i]
        start = max(j for j, line in enumerate(recipe) if line and not line.startswith("\t"))   # its target
        notes = [line for line in recipe[max(start, before + 1):] if line.strip().startswith('@echo "setup:')]
        assert notes, f"Makefile line {i + 1} installs with pip and nothing is said before it: {lines[i].strip()}"
