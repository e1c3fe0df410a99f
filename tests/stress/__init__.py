"""The stress suite: valid programs of every shape, as large and deep as CPython compiles (a package,
so that its ``corpus`` module is imported as ``tests.stress.corpus``, apart from the benchmarks' one)."""
