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
