"""Learned evaluations: value networks trained by self-play, and the ones that ship with the games.

- :mod:`shogames.learning.network`: the network (a seat's observation in, its expected return out), its
  gradients and its file format.
- :mod:`shogames.learning.td`: training by self-play with TD(lambda), with checkpoints, a seed, a budget
  and the strength over training (``shogames train GAME``, ``docs/training.md``).
- :mod:`shogames.learning.shipped`: each game's shipped weights (``games/<id>/value.npz``), read by
  ``greedy:value=learned``.

Only NumPy is needed: training runs on the CPU.
"""
