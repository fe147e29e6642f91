"""Compiled kernels (numba) of the games' rules; each module's ``make_kernel(game)`` builds one.

Nothing here is imported by ``import shogames``: a game names its kernel module in
:attr:`~shogames.core.protocol.Game.kernel_module` and :attr:`~shogames.core.protocol.Game.kernel` imports it
on first use. See :mod:`shogames.core.kernel` and ``docs/kernels.md``.
"""
