/**
 * The Python side of the sandbox, loaded once per interpreter: `run(code, stdin)` runs one program in
 * fresh globals with its own stdin/stdout/stderr, reports how it ended as JSON, and then puts the
 * interpreter back as it found it (modules it imported, names it changed in any module, builtins included,
 * the recursion limit), so
 * one program cannot change what the next one sees. Modules that reach the host are unimportable:
 * the JavaScript bridge (js, pyodide_js, pyodide, _pyodide*) and ctypes (which can call JavaScript's
 * eval through Emscripten). Sockets are cut below Python, in network-off.ts.
 */
export const BLOCKED_MODULES = ['js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core', 'pyodide_http', 'micropip', 'ctypes', '_ctypes'];

export const PYTHON_DRIVER = String.raw`
import builtins, io, json, linecache, os, sys, traceback

_BLOCKED = ${JSON.stringify(BLOCKED_MODULES)}
_NAME = '<program>'
_stdio = (sys.stdin, sys.stdout, sys.stderr)
# Bound now: a program may replace module attributes (json.dumps = ...), and that must not reach the report.
_dumps, _BytesIO, _TextIOWrapper = json.dumps, io.BytesIO, io.TextIOWrapper
_extract_tb, _format_exception = traceback.extract_tb, traceback.format_exception

def _exit(status):
    # os._exit would end the interpreter itself (a crash, and the output lost): it ends the program instead.
    raise SystemExit(status)

os._exit = _exit

def _block():
    for name in list(sys.modules):
        if name.split('.')[0] in _BLOCKED:
            del sys.modules[name]
    for name in _BLOCKED:
        sys.modules[name] = None  # 'import name' now raises ImportError

def _exception(e):
    tb = e.__traceback__.tb_next if e.__traceback__ else None  # drop the driver's own frame
    frames = [f for f in _extract_tb(tb) if f.filename == _NAME]
    return {
        'type': type(e).__name__,
        'message': str(e),
        'traceback': ''.join(_format_exception(type(e), e, tb)),
        'line': (frames[-1].line if frames else getattr(e, 'text', None) or '').strip() or None,
    }

class _Captured(io.BytesIO):
    # Keeps what was written even when the program closes sys.stdout.
    def close(self):
        self.text = self.getvalue().decode('utf-8', 'replace')
        super().close()

    def value(self):
        return self.text if self.closed else self.getvalue().decode('utf-8', 'replace')

def run(code, stdin):
    modules = dict(sys.modules)
    # Shallow copies of every module's namespace: a program that sets json.dumps or builtins.print
    # changes only its own run.
    namespaces = {name: dict(m.__dict__) for name, m in modules.items() if m is not None}
    meta_path, path, limit = list(sys.meta_path), list(sys.path), sys.getrecursionlimit()
    out, err = _Captured(), _Captured()
    sys.stdin = _TextIOWrapper(_BytesIO(stdin.encode()), encoding='utf-8')
    sys.stdout = _TextIOWrapper(out, encoding='utf-8', write_through=True)
    sys.stderr = _TextIOWrapper(err, encoding='utf-8', write_through=True)
    result = {'status': 'ok', 'exitCode': 0}
    try:
        linecache.cache[_NAME] = (len(code), None, code.splitlines(True), _NAME)
        exec(compile(code, _NAME, 'exec'), {'__name__': '__main__', '__builtins__': builtins})
    except SystemExit as e:
        result['systemExit'] = True
        if e.code is None or isinstance(e.code, int):
            result['exitCode'] = e.code or 0
        else:
            print(e.code, file=sys.stderr)
            result['exitCode'] = 1
    except MemoryError as e:
        result = {'status': 'memory', 'exitCode': 1, 'error': 'Stopped at the memory limit (MemoryError).'}
    except BaseException as e:
        result = {'status': 'exception', 'exitCode': 1, 'exception': _exception(e)}
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        sys.stdin, sys.stdout, sys.stderr = _stdio
        for name in [n for n in sys.modules if n not in modules]:
            del sys.modules[name]
        sys.modules.update(modules)
        for name, namespace in namespaces.items():
            if modules[name].__dict__ != namespace:
                modules[name].__dict__.clear()
                modules[name].__dict__.update(namespace)
        sys.meta_path[:], sys.path[:] = meta_path, path
        sys.setrecursionlimit(limit)
        linecache.cache.pop(_NAME, None)
        _block()
    result['stdout'], result['stderr'] = out.value(), err.value()
    return _dumps(result)

_block()
`;
