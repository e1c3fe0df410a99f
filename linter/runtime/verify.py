"""``@verify`` checks one function's every typed expression against promolint's prediction, on
every call, with its parameters typed from the call's arguments; ``verifying()`` collects the
checks of a block, and instruments the packages it names as they are imported."""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import types
from collections.abc import Iterator

from promolint.runtime.hook import install
from promolint.runtime.session import Session, activated, active_session
from promolint.runtime.units import FunctionUnit, ModuleUnit


def verify(fn):
    """Instrument ``fn``; each call predicts its sites for the argument types it receives and
    the JAX modes in force, and checks them as they are evaluated.

    Put it directly above ``def`` (below ``@jax.jit``, which then traces the checks: they run
    once per trace, on tracers).  ``PROMOLINT_VERIFY=0`` in the environment makes it return
    ``fn`` untouched.  Generator and coroutine functions run their bodies after the call has
    returned: their sites are typed by the arguments their frame holds, as in modules
    instrumented by the import hook."""
    if os.environ.get("PROMOLINT_VERIFY") == "0":
        return fn
    if not isinstance(fn, types.FunctionType) or fn.__name__ == "<lambda>":
        raise TypeError(
            f"@verify takes a function defined with `def`, not {fn!r}: put it directly above `def` "
            "(below @jax.jit and other decorators)"
        )
    try:
        unit = ModuleUnit.of_function(fn)
        function = unit.function(fn)
        instrumented = _rebuild(fn, unit.code_for(fn.__code__))
    except Exception as error:  # noqa: BLE001 - the function still runs, unchecked, and the failure is reported
        active_session().shim_error(f"instrumenting {fn.__qualname__}", error)
        return fn
    if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn):
        return instrumented

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        token = _enter(function, args, kwargs)
        try:
            return instrumented(*args, **kwargs)
        except BaseException as error:
            unit.escaped(error)
            raise
        finally:
            if token is not None:
                function.signature.reset(token)

    return checked


def _enter(function: FunctionUnit, args: tuple, kwargs: dict):
    try:
        return function.signature.set(function.signature_of(args, kwargs))
    except Exception as error:  # noqa: BLE001 - the call goes on, predicted without its arguments
        active_session().shim_error(f"typing the arguments of {function.name}", error)
        return None


def _rebuild(fn: types.FunctionType, code: types.CodeType) -> types.FunctionType:
    """``fn`` with ``code``: same globals, defaults, closure cells (by name), and metadata."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    missing = [name for name in code.co_freevars if name not in cells]
    if missing:
        raise TypeError(f"promolint: cannot rebuild {fn.__qualname__}: free variables {missing} are not in its closure")
    rebuilt = types.FunctionType(code, fn.__globals__, fn.__name__, fn.__defaults__,
                                 tuple(cells[name] for name in code.co_freevars))  # fmt: skip
    rebuilt.__kwdefaults__ = fn.__kwdefaults__
    functools.update_wrapper(rebuilt, fn)
    del rebuilt.__wrapped__  # it is the function itself, instrumented: nothing to unwrap to
    return rebuilt


@contextlib.contextmanager
def verifying(mode: str = "warn", report: str | os.PathLike | None = None,
              include: tuple[str, ...] | list[str] = (), predict: str = "arguments") -> Iterator[Session]:  # fmt: skip
    """Collect every check made inside the block (in this thread or task) into a new session.

    What is checked is what is instrumented: ``@verify`` functions, and the modules of the
    packages in ``include``, instrumented when they are first imported inside the block (they
    stay instrumented afterwards; their later checks go to the default session).  ``predict``:
    ``arguments`` types a function's parameters from each call's arguments, ``code`` predicts
    from the code alone, as ``promolint check`` does.  On exit the JSON report is written when
    ``report`` is set."""
    session = Session(mode, report, predict)
    finder = install(include) if include else None
    try:
        with activated(session):
            yield session
    finally:
        if finder is not None:
            finder.remove()
        session.write_report()
