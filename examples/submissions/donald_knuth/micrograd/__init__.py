"""micrograd: a tiny scalar autograd engine and a neural-net library on top of it."""
