/**
 * The Python side of the sandbox, in three sources:
 * - SANDBOX_SETUP, once per interpreter: records the state every program starts from (the baseline),
 *   Pyodide's own modules included, compiles the two sources below, and installs an audit hook. Audit hooks cannot be removed, and the hook refuses, whatever a program did to
 *   sys.modules: importing the JavaScript bridge and ctypes, gc's object walks (the way to the driver's
 *   functions), adding audit hooks, trace and profile functions and sys.monitoring callbacks, and changing
 *   the code or defaults of any function that existed before the program.
 * - PYTHON_DRIVER, executed in fresh globals for every run (by the builtin exec, not through
 *   Pyodide's Python code, which a program may have patched), so no earlier program changed its names:
 *   `run(code)` runs one program in fresh globals on fresh stdin/stdout/stderr over file descriptors 0-2
 *   (which the host connects to the job's input and its captured output) and reports how it ended.
 * - SANDBOX_RESTORE, executed the same way after every run, with a copy of the builtins taken at setup:
 *   puts the baseline back (modules, their namespaces and classes, the shared lists, dicts and sets in them, the
 *   import caches, the working directory, os.environ, the files under /tmp and the home folder, the limits).
 * Sockets, `js` and the JavaScript a program could reach are cut below Python, in host-access.ts.
 */
export const BLOCKED_MODULES = ['js', 'pyodide_js', 'pyodide', '_pyodide', '_pyodide_core', 'pyodide_http', 'micropip', 'ctypes', '_ctypes'];

export const PYTHON_DRIVER = String.raw`
import builtins, io, linecache, sys, traceback

_NAME = '<program>'

# The innermost frames only: formatting all of a RecursionError's (10^6 with a raised limit) took minutes.
_FRAMES = -100

def _exception(e):
    tb = e.__traceback__.tb_next if e.__traceback__ else None  # drop the driver's own frame
    frames = [f for f in traceback.extract_tb(tb, limit=_FRAMES) if f.filename == _NAME]
    line = (frames[-1].line if frames else getattr(e, 'text', None) or '').strip()
    text = ''.join(traceback.format_exception(type(e), e, tb, limit=_FRAMES))
    return ('exception', 1, False, type(e).__name__, str(e), text, line)

def run(code):
    sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, 'r', closefd=False)), encoding='utf-8')
    # Unbuffered, so print and os.write reach file descriptor 1 in the order the program made them.
    sys.stdout = io.TextIOWrapper(io.FileIO(1, 'w', closefd=False), encoding='utf-8', write_through=True)
    sys.stderr = io.TextIOWrapper(io.FileIO(2, 'w', closefd=False), encoding='utf-8', errors='backslashreplace', write_through=True)
    try:
        linecache.cache[_NAME] = (len(code), None, code.splitlines(True), _NAME)
        exec(compile(code, _NAME, 'exec'), {'__name__': '__main__', '__builtins__': builtins})
        return ('ok', 0, False)
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return ('ok', e.code or 0, True)
        print(e.code, file=sys.stderr)
        return ('ok', 1, True)
    except MemoryError:
        return ('memory', 1, False)
    except BaseException as e:
        return _exception(e)
`;

export const SANDBOX_RESTORE = String.raw`
def _reopen_stdio(os):
    # A program may close file descriptors 0-2 (open(0) closes 0 when collected): the next one gets them back.
    for fd, device, flags in ((0, '/dev/stdin', os.O_RDONLY), (1, '/dev/stdout', os.O_WRONLY), (2, '/dev/stderr', os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            opened = os.open(device, flags)
            if opened != fd:
                os.dup2(opened, fd)
                os.close(opened)

def _changed(now, saved):
    # By identity: comparing with == would call a program's __eq__ in the middle of the restore.
    return len(now) != len(saved) or any(now.get(name, _changed) is not value for name, value in saved.items())

def _differs(value, content):
    if isinstance(value, dict):
        return _changed(value, content)
    if isinstance(value, list):
        return len(value) != len(content) or any(a is not b for a, b in zip(value, content))
    return value != content  # a set: its elements are hashable baseline values

def restore(baseline):
    # The program's garbage is collected here, so that its finalizers (__del__, weakref callbacks) run now,
    # not in a later program, and whatever they change is put back; a program whose finalizers keep making
    # more garbage gets its interpreter retired.
    collect = baseline['collect']
    for _ in range(3):
        collect()
        _restore(baseline)
        if not collect():
            return
    raise RuntimeError("the program's finalizers kept changing the interpreter")

def _restore(baseline):
    # Namespaces first, by dict operations only: until then any module function may be a program's.
    for module, namespace, saved, cls in baseline['namespaces']:
        if type(module) is not cls:
            object.__setattr__(module, '__class__', cls)
        if _changed(namespace, saved):
            namespace.clear()
            namespace.update(saved)
    modules = baseline['modules']
    sys, os, shutil = modules['sys'], modules['os'], modules['shutil']
    sys.stdin, sys.stdout, sys.stderr = sys.__stdin__, sys.__stdout__, sys.__stderr__
    _reopen_stdio(os)
    for name in [n for n in sys.modules if n not in modules]:
        del sys.modules[name]
    sys.modules.update(modules)
    for cls, attributes in baseline['classes'].values():
        now = vars(cls)
        if not _changed(now, attributes):
            continue
        for name in [n for n in now if n not in attributes]:
            delattr(cls, name)
        for name, value in attributes.items():
            if now.get(name) is not value:
                setattr(cls, name, value)
    for value, content in baseline['contents'].values():
        if _differs(value, content):
            value.clear()
            value.update(content) if not isinstance(value, list) else value.extend(content)
    # sys.path_importer_cache is one of the shared dicts above: the finders a program added are gone.
    sys.meta_path[:], sys.path_hooks[:] = baseline['meta_path'], baseline['path_hooks']
    sys.setrecursionlimit(baseline['limit'])
    sys.set_int_max_str_digits(baseline['digits'])
    os.umask(baseline['umask'])
    os.chdir(baseline['cwd'])
    if dict(os.environ) != baseline['environ']:
        os.environ.clear()
        os.environ.update(baseline['environ'])
    for folder, names in baseline['files'].items():
        for name in set(os.listdir(folder)) - names:
            path = os.path.join(folder, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
`;

export const SANDBOX_SETUP = String.raw`
# Imported here so that the baseline holds what the driver and the restore use.
import builtins, gc, io, linecache, os, shutil, sys, traceback, types

_BLOCKED = frozenset(${JSON.stringify(BLOCKED_MODULES)})
_REFUSED = frozenset(['gc.get_objects', 'gc.get_referrers', 'gc.get_referents', 'sys.addaudithook', 'sys.settrace',
                      'sys.setprofile', 'sys.monitoring.register_callback', 'ctypes.dlopen', 'ctypes.dlsym',
                      'ctypes.cdata', 'ctypes.addressof'])

def _exit(status):
    # os._exit would end the interpreter itself (a crash, and the output lost): it ends the program instead.
    raise SystemExit(status)

os._exit = _exit

def _shared(value):
    return isinstance(value, (list, dict, set)) and not isinstance(value, types.MappingProxyType)

def _block():
    for name in list(sys.modules):
        if name.split('.')[0] in _BLOCKED:
            del sys.modules[name]
    for name in _BLOCKED:
        sys.modules[name] = None

def _baseline():
    # Pyodide's own modules included: they stay loaded (the host's calls into Python go through them), blocked
    # or not, and a program may reach them through object.__subclasses__().
    loaded = [m for m in sys.modules.values() if isinstance(m, types.ModuleType)]
    namespaces = [(m, m.__dict__, dict(m.__dict__), type(m)) for m in loaded]
    _block()
    contents, classes, frozen = {}, {}, set()
    for _, _, namespace, _ in namespaces:
        for value in namespace.values():
            if _shared(value):
                contents[id(value)] = (value, value.copy())
            if isinstance(value, type):
                classes[id(value)] = (value, dict(vars(value)))
                frozen.update(id(v) for v in vars(value).values() if isinstance(v, types.FunctionType))
            elif isinstance(value, types.FunctionType):
                frozen.add(id(value))
    return {
        'modules': dict(sys.modules), 'namespaces': namespaces, 'contents': contents, 'classes': classes, 'frozen': frozen,
        'collect': gc.collect, 'limit': sys.getrecursionlimit(), 'digits': sys.get_int_max_str_digits(), 'umask': os.umask(0o022),
        'cwd': os.getcwd(), 'environ': dict(os.environ),
        'meta_path': list(sys.meta_path), 'path_hooks': list(sys.path_hooks),
        'files': {d: set(os.listdir(d)) for d in ('/tmp', os.path.expanduser('~'))},
    }

baseline = _baseline()

def _hook(event, args, _frozen=frozenset(baseline['frozen']), _blocked=_BLOCKED, _refused=_REFUSED, _PermissionError=PermissionError, _id=id):
    if event == 'import' and args[0].split('.')[0] in _blocked:
        raise _PermissionError('the Python sandbox does not allow importing ' + args[0])
    if event in _refused:
        raise _PermissionError('the Python sandbox does not allow ' + event)
    if event in ('object.__setattr__', 'object.__delattr__') and _id(args[0]) in _frozen:
        raise _PermissionError('the Python sandbox keeps its modules\' functions read-only')

sys.addaudithook(_hook)
del _hook
# The baseline's objects are never garbage: out of the collector's way, the restore's collections stay cheap.
gc.freeze()
# What the host calls each run, all fixed now: a program can change none of them (code objects and builtin
# functions are immutable; the builtins copy and the baseline are out of its reach once gc's walks are refused).
sandbox = (exec, dict, compile(${JSON.stringify(PYTHON_DRIVER)}, '<driver>', 'exec'),
           compile(${JSON.stringify(SANDBOX_RESTORE)}, '<restore>', 'exec'), dict(builtins.__dict__), baseline)
`;
