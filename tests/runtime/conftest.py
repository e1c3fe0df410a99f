# The example package carries its own test suite, run by test_pytest_plugin.py in a subprocess
# with the plugin; the examples are programs the shim runs, not tests.
collect_ignore = ["example_pkg", "examples"]
