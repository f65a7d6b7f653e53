"""Compiled Cython kernels (private). Built from ``pyx/<name>.pyx`` by setup.py."""
