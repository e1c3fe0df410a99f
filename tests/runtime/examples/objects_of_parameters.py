"""An object a parameter holds, of a class whose constructor converts what it is given (coordax's
NamedArray): what its property reads is a variable of that parameter, whichever function or
method reads it first, which the shim reads from the object each call is given."""

import numpy as np


def shifted(named: "Named", shift):
    return named.data + shift


class Named:
    def __init__(self, data):
        self._data = np.asarray(data)

    @property
    def data(self):
        return self._data

    def scaled(self, factor):
        return self.data * factor


class Labelled:
    """An object that holds a `Named` it makes (coordax's Field and its NamedArray)."""

    def __init__(self, data):
        self._named = Named(data)

    @property
    def named(self):
        return self._named

    @property
    def data(self):
        return self.named.data

    def halved(self):
        return self.data / 2
