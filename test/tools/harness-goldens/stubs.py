"""Stand-ins for heavy imports that the upstream functions the generators call never use.

Each stubbed module is listed in STUBBED (the generators print it into the cases' provenance). A stub module
answers any attribute with a placeholder class, so `from torch import nn`, `class X(nn.Module)` and type
annotations import; calling anything on it raises, so a stub can never stand in for behaviour silently.
"""
import importlib.abc
import importlib.machinery
import sys
import types

STUBBED: list[str] = []


class _Placeholder(type):
    def __getattr__(cls, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return _placeholder(f'{cls.__qualname__}.{name}')

    def __call__(cls, *a, **k):
        raise RuntimeError(f'stub {cls.__qualname__} called: the generator reached code it claims not to use')

    def __getitem__(cls, item):
        return cls

    def __or__(cls, other):
        return cls

    __ror__ = __or__


def _placeholder(name):
    return _Placeholder(name, (), {'__qualname__': name})


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        return _placeholder(f'{self.__name__}.{name}')


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, roots):
        self.roots = set(roots)

    def find_spec(self, fullname, path, target=None):
        if any(fullname == r or fullname.startswith(r + '.') for r in self.roots):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        m = _StubModule(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        if module.__name__ in self.roots and module.__name__ not in STUBBED:
            STUBBED.append(module.__name__)


def install(roots):
    """Stub these packages or modules (dotted names too), and everything under them."""
    sys.meta_path.insert(0, _Finder(roots))
