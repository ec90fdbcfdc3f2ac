"""The pages' docstring examples: the default run skips the ``pages`` folder when it collects
tests (``norecursedirs``), so their doctests ran nowhere until this file."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import pages
import pages.widgets

MODULES = sorted(
    f"{package.__name__}.{info.name}"
    for package in (pages, pages.widgets)
    for info in pkgutil.iter_modules(package.__path__)
    if not info.ispkg
)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_a_pages_docstrings_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
