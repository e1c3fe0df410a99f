"""A module function that only a method of the module calls, with what the method's `self`
holds (dinosaur's vertical regridders): the analysis passes the method's values down, so the
function's sites depend on the method's parameters, which the shim reads from the method's call
on the stack."""

import numpy as np


class Levels:
    def __init__(self, centers):
        self.centers = centers


class Regridder:
    def __init__(self, source, target):
        self.source = source
        self.target = target

    def __call__(self, field):
        return _interpolate(self.target.centers, self.source.centers, field)


def _interpolate(x, xp, fp):
    weights = (x - xp.mean()) / np.ptp(xp)
    return fp * weights
