"""The hidden oracle: a fast, deterministic scalar autograd engine.

Every golden the autograder uses is computed here and cross-checked against
PyTorch. It is never shipped to students and never importable by their code.
"""
from reference.engine import Value
from reference.nn import Layer, MLP, Module, Neuron
from reference.train import mse_loss, train

__all__ = ["Value", "Module", "Neuron", "Layer", "MLP", "mse_loss", "train"]
