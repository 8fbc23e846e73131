"""Adapt's errors: part of the station's one hierarchy (inference/errors.py)."""

from __future__ import annotations

from inference.errors import HangtagError

INSTALL_HINT = ('install the trainer: pip install -e ".[train]" (a CPU-only station can take a CPU build of '
                'PyTorch, about 190 MB, instead of the CUDA one, several GB), then reopen Adapt')


class AdaptError(HangtagError):
    """Collecting, correcting, fine-tuning, comparing or adopting a detector went wrong."""


class TrainerMissingError(AdaptError):
    """Fine-tuning needs PyTorch, an optional extra the station runs without."""


class FineTuneCancelled(AdaptError):
    """The engineer stopped a fine-tune; no candidate was written."""


def require_torch():
    """torch, or a TrainerMissingError that says what to install."""
    try:
        import torch
    except ImportError as exc:
        raise TrainerMissingError("fine-tuning needs PyTorch, which is not installed", expected="the 'train' extra",
                                  found=f"import torch: {exc}", hint=INSTALL_HINT) from None
    return torch
