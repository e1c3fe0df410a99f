"""Attributes a class's `__init__` assigns from values nothing in the program types (a list the
caller gives, a pint quantity's magnitude), read by its methods: each read is a variable of its
own, which the shim reads from the object the call is given."""

import numpy as np


class Forcing:
    def __init__(self, levels, scale):
        self.sigma = np.asarray(levels)
        self.scale = scale.magnitude

    def relax(self, temperature):
        return temperature - self.sigma * self.scale

    def weights(self):
        return self.sigma / self.sigma.sum()
