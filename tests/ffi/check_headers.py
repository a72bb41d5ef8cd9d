#!/usr/bin/env python3
"""Header hygiene for binding generators: parse the public headers with a C parser.

The umbrella header is run through the C preprocessor (with the usual
defines a generator passes to drop compiler extensions) and parsed with
pycparser, as cffi and similar generators do. Then, for everything declared
in include/clothsim/:

  * every function marked CLOTH_API in the header text is a parsed
    declaration, and every declared function is named cloth_*;
  * types are named cloth_* (the opaque struct tag `cloth` too), enum
    constants and macros CLOTH_* / CLOTHSIM_*; there are no function-like
    macros and no function bodies (static inline is invisible to an FFI);
  * every enum has a *_FORCE32 member equal to 0x7fffffff (32-bit enums);
  * no function, callback type or struct member takes or returns a struct or
    union by value; no variadic functions, no bitfields;
  * integers are fixed-width (uintN_t/intN_t/size_t), never int/long/short;
  * with --binding DIR: the Python binding (clothsim._lib) is complete and
    matches the headers: every CLOTH_API function has its entry in
    SIGNATURES, every callback typedef its CFUNCTYPE in CALLBACKS, every
    struct its ctypes.Structure in STRUCTS, every enum its IntEnum in ENUMS
    (all constants) and every macro its value in CONSTANTS, each with the
    C types, fields and values of the headers; and it expects their version;
  * with --node FILE (by default examples/node/clothsim.js of this checkout):
    every CLOTH_API function is declared there with lib.func('<prototype>')
    and every callback typedef with koffi.proto('<prototype>'), with the C
    parameter count.

A binding that lacks a function fails the check, naming what is missing.

Usage: check_headers.py --cc CC --include DIR [--binding DIR] [--node FILE]
Exit status 0 when every check passes, 1 otherwise, 77 when pycparser is
missing (ctest reports it as skipped).
"""

import argparse
import os
import re
import subprocess
import sys

SKIP = 77

try:
    from pycparser import c_ast, c_parser
except ImportError:
    print("skipped: pycparser is not importable by %s (apt-get install python3-pycparser)" % sys.executable)
    sys.exit(SKIP)

# What a generator passes to the preprocessor to hide GNU extensions of the
# system headers (and of CLOTH_API) from a C99/C11 parser.
GENERATOR_DEFINES = [
    "-D__attribute__(x)=",
    "-D__extension__=",
    "-D__restrict=",
    "-D__restrict__=",
    "-D__inline=",
    "-D__inline__=",
    "-D__asm__(x)=",
    "-D__asm(x)=",
    "-D__builtin_va_list=void*",
]

FIXED_WIDTH = {
    "void", "float", "double", "char", "size_t",
    "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t", "int16_t", "int32_t", "int64_t",
}  # fmt: skip


class Checker:
    def __init__(self):
        self.failures = []
        self.passes = 0

    def check(self, ok, message):
        if ok:
            self.passes += 1
        else:
            self.failures.append(message)
        return ok


def preprocess(cc, include_dir, extra):
    umbrella = os.path.join(include_dir, "clothsim", "clothsim.h")
    cmd = [cc, "-E", "-std=c11", "-I", include_dir] + GENERATOR_DEFINES + extra + [umbrella]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("preprocessing failed: %s\n%s" % (" ".join(cmd), result.stderr))
    return result.stdout


def ours(node, header_dir):
    return node.coord is not None and os.path.abspath(node.coord.file).startswith(header_dir + os.sep)


class Model:
    """What the headers declare, from the parsed translation unit."""

    def __init__(self, ast, header_dir):
        self.typedefs = {}  # every typedef, system ones included
        self.structs = {}  # tag -> Struct/Union node with members
        self.enums = []
        self.functions = {}  # name -> FuncDecl (ours)
        self.func_defs = []
        self.our_typedefs = []
        self.our_structs = []
        self.all_enums = {}
        for ext in ast.ext:
            mine = ours(ext, header_dir)
            if isinstance(ext, c_ast.FuncDef):
                if mine:
                    self.func_defs.append(ext.decl.name)
                continue
            if isinstance(ext, c_ast.Typedef):
                self.typedefs[ext.name] = ext.type
                if mine:
                    self.our_typedefs.append(ext)
            if isinstance(ext, c_ast.Decl) and isinstance(ext.type, c_ast.FuncDecl) and mine:
                self.functions[ext.name] = ext.type
            for node in _walk(ext):
                if isinstance(node, (c_ast.Struct, c_ast.Union)) and node.decls is not None:
                    self.structs[node.name] = node
                    if mine:
                        self.our_structs.append(node)
                if isinstance(node, c_ast.Enum) and node.values is not None:
                    if node.name:
                        self.all_enums[node.name] = node
                    if mine:
                        self.enums.append(node)

    def resolve(self, type_node):
        """Follow typedef names to the underlying type node (not through pointers)."""
        seen = 0
        while isinstance(type_node, c_ast.TypeDecl) and isinstance(type_node.type, c_ast.IdentifierType):
            names = type_node.type.names
            if len(names) != 1 or names[0] not in self.typedefs or seen > 50:
                return type_node
            type_node = self.typedefs[names[0]]
            seen += 1
        return type_node

    def by_value_aggregate(self, type_node):
        """The struct/union name if type_node is one by value (after typedefs), else None."""
        t = self.resolve(type_node)
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, (c_ast.Struct, c_ast.Union)):
            return "%s %s" % (type(t.type).__name__.lower(), t.type.name)
        return None


def _walk(node):
    yield node
    for _, child in node.children():
        yield from _walk(child)


def function_types(model):
    """(where, FuncDecl) for every function, callback typedef and function-pointer member of ours."""
    for name, fn in model.functions.items():
        yield name, fn
    for td in model.our_typedefs:
        for node in _walk(td):
            if isinstance(node, c_ast.FuncDecl):
                yield "typedef %s" % td.name, node
    for st in model.our_structs:
        for member in st.decls or []:
            for node in _walk(member):
                if isinstance(node, c_ast.FuncDecl):
                    yield "%s.%s" % (st.name, member.name), node


def params(fn):
    if fn.args is None:
        return []
    out = []
    for p in fn.args.params:
        if isinstance(p, c_ast.EllipsisParam):
            out.append(p)
            continue
        t = p.type
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and t.type.names == ["void"]:
            continue  # f(void)
        out.append(p)
    return out


def identifier_types(node):
    for n in _walk(node):
        if isinstance(n, c_ast.IdentifierType):
            yield n


# --- the checks ----------------------------------------------------------------


def exported_functions(ck, header_texts):
    """The names CLOTH_API marks in the header text; checks the macros on the way."""
    exported = set()
    for path, text in header_texts.items():
        stripped = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        code = re.sub(r"^\s*#.*(?:\\\n.*)*$", " ", stripped, flags=re.M)  # drop preprocessor lines
        for m in re.finditer(r"\bCLOTH_API\b([^;{]*?)\b(\w+)\s*\(", code):
            exported.add(m.group(2))
        for m in re.finditer(r"^\s*#\s*define\s+(\w+)(\()?", stripped, flags=re.M):
            name, function_like = m.group(1), m.group(2)
            ck.check(
                name.startswith(("CLOTH_", "CLOTHSIM_")),
                "%s: macro %s lacks the CLOTH_/CLOTHSIM_ prefix" % (os.path.basename(path), name),
            )
            ck.check(
                not function_like,
                "%s: function-like macro %s() cannot be called through an FFI" % (os.path.basename(path), name),
            )
    return exported


def check_headers(ck, model, exported, label):
    declared = set(model.functions)
    ck.check(len(exported) >= 40, "%s: only %d CLOTH_API functions found in the header text" % (label, len(exported)))
    for name in sorted(exported - declared):
        ck.check(False, "%s: CLOTH_API function %s is not a parsed declaration" % (label, name))
    for name in sorted(declared - exported):
        ck.check(False, "%s: function %s is declared without CLOTH_API (not exported)" % (label, name))
    for name in sorted(declared):
        ck.check(name.startswith("cloth_"), "%s: function %s lacks the cloth_ prefix" % (label, name))
    for name in model.func_defs:
        ck.check(False, "%s: %s has a body in a public header (static inline is invisible to an FFI)" % (label, name))

    for td in model.our_typedefs:
        ck.check(td.name.startswith("cloth_"), "%s: typedef %s lacks the cloth_ prefix" % (label, td.name))
    for st in model.our_structs:
        ck.check(
            st.name is not None and (st.name == "cloth" or st.name.startswith("cloth_")),
            "%s: struct %s lacks the cloth_ prefix" % (label, st.name),
        )
        for member in st.decls:
            ck.check(member.bitsize is None, "%s: bitfield %s.%s" % (label, st.name, member.name))
            what = model.by_value_aggregate(member.type)
            ck.check(
                what is None or what in ("struct %s" % s.name for s in model.our_structs),
                "%s: %s.%s embeds %s" % (label, st.name, member.name, what),
            )
    ck.check(len(model.enums) >= 4, "%s: only %d enums parsed" % (label, len(model.enums)))
    for en in model.enums:
        ck.check(en.name and en.name.startswith("cloth_"), "%s: enum %s lacks the cloth_ prefix" % (label, en.name))
        force = None
        for e in en.values.enumerators:
            ck.check(e.name.startswith("CLOTH_"), "%s: enum constant %s lacks the CLOTH_ prefix" % (label, e.name))
            if e.name.endswith("_FORCE32"):
                force = e
        if ck.check(force is not None, "%s: enum %s has no _FORCE32 member" % (label, en.name)):
            value = force.value.value if isinstance(force.value, c_ast.Constant) else None
            ck.check(
                value is not None and int(value.rstrip("uUlL"), 0) == 0x7FFFFFFF,
                "%s: %s is not 0x7fffffff" % (label, force.name),
            )

    for where, fn in function_types(model):
        what = model.by_value_aggregate(fn.type)
        ck.check(what is None, "%s: %s returns %s by value" % (label, where, what))
        for p in params(fn):
            if isinstance(p, c_ast.EllipsisParam):
                ck.check(False, "%s: %s is variadic" % (label, where))
                continue
            what = model.by_value_aggregate(p.type)
            ck.check(what is None, "%s: %s takes %s by value (%s)" % (label, where, what, p.name))

    own_types = {td.name for td in model.our_typedefs}
    named = [(td.name, td) for td in model.our_typedefs] + list(model.functions.items())
    named += [("struct %s" % st.name, st) for st in model.our_structs]
    for where, node in named:
        for it in identifier_types(node):
            for name in it.names:
                ck.check(
                    name in FIXED_WIDTH or name in own_types,
                    "%s: %s uses the non-fixed-width type '%s'" % (label, where, " ".join(it.names)),
                )


# --- re-entry: every call that changes a cloth is probed from inside its hooks ---

REENTRY_TEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "test_reentry.c")


def mutators(model):
    """The functions whose first parameter is a `cloth_t *` (not const): the
    calls a cloth must refuse with CLOTH_ERR_BUSY from inside its own hooks."""
    out = []
    for name, fn in sorted(model.functions.items()):
        ps = params(fn)
        if not ps or not isinstance(ps[0], c_ast.Decl):
            continue
        t = ps[0].type
        if (
            isinstance(t, c_ast.PtrDecl)
            and isinstance(t.type, c_ast.TypeDecl)
            and "const" not in t.type.quals
            and isinstance(t.type.type, c_ast.IdentifierType)
            and t.type.type.names == ["cloth_t"]
        ):
            out.append(name)
    return out


def check_reentry(ck, model):
    """tests/test_reentry.c calls every mutator from every kind of hook; a new
    one missing there would be a call nobody checks for re-entry."""
    with open(REENTRY_TEST, encoding="utf-8") as f:
        text = f.read()
    found = mutators(model)
    ck.check(len(found) >= 40, "re-entry: only %d functions taking a cloth_t * found" % len(found))
    for name in found:
        ck.check(
            re.search(r"\b%s\(" % name, text) is not None,
            "re-entry: %s takes a cloth_t * but tests/test_reentry.c never calls it from a hook" % name,
        )
    return len(found)


# --- the Python binding against the headers ------------------------------------


def c_canon(model, t):
    """A canonical spelling of a C type, as the binding must mirror it."""
    if isinstance(t, c_ast.Typename):
        t = t.type
    if isinstance(t, c_ast.ArrayDecl):  # a parameter array is a pointer
        return "ptr(%s)" % c_canon(model, t.type)
    if isinstance(t, c_ast.PtrDecl):
        inner = t.type
        if isinstance(inner, c_ast.FuncDecl):
            return fn_canon(model, inner)
        base = c_canon(model, inner)
        if base == "char":
            return "cstr"
        if base.startswith("fn("):
            return base  # a pointer to a function typedef (cloth_task_fn *) is the function pointer
        return "ptr(%s)" % base
    if isinstance(t, c_ast.FuncDecl):
        return fn_canon(model, t)
    if isinstance(t, c_ast.TypeDecl):
        inner = t.type
        if isinstance(inner, c_ast.IdentifierType):
            name = " ".join(inner.names)
            simple = {"void": "void", "float": "f32", "double": "f64", "char": "char", "size_t": "size",
                      "uint32_t": "u32", "int32_t": "i32", "uint8_t": "u8", "uint64_t": "u64"}  # fmt: skip
            if name in simple:
                return simple[name]
            if name in model.typedefs:
                return c_canon(model, model.typedefs[name])
            return "?" + name
        if isinstance(inner, c_ast.Enum):
            return "int"  # _FORCE32 enums: int on every ABI
        if isinstance(inner, c_ast.Struct):
            if inner.name in model.structs:
                return "struct %s" % inner.name
            return "opaque"
    return "?" + type(t).__name__


def fn_canon(model, fn):
    return "fn(%s; %s)" % (c_canon(model, fn.type), ", ".join(c_canon(model, p.type) for p in params(fn)))


try:
    import ctypes as _ctypes

    SIZE_IS_U64 = _ctypes.c_size_t is _ctypes.c_uint64
except ImportError:  # pragma: no cover - ctypes is part of CPython
    SIZE_IS_U64 = False


def py_canon(ctypes, t):
    if t is None:
        return "void"
    simple = {
        ctypes.c_float: "f32", ctypes.c_double: "f64", ctypes.c_uint32: "u32", ctypes.c_int32: "i32",
        ctypes.c_uint8: "u8", ctypes.c_char: "char", ctypes.c_char_p: "cstr", ctypes.c_void_p: "ptr(*)",
    }  # fmt: skip
    if t is ctypes.c_size_t:
        return "size"
    if t is ctypes.c_int:
        return "int"
    if t in simple:
        return simple[t]
    if isinstance(t, type) and issubclass(t, ctypes.Structure):
        return "struct %s" % getattr(t, "c_name", t.__name__)
    if isinstance(t, type) and issubclass(t, ctypes._Pointer):
        return "ptr(%s)" % py_canon(ctypes, t._type_)
    if isinstance(t, type) and issubclass(t, ctypes._CFuncPtr):
        return "fn(%s; %s)" % (py_canon(ctypes, t._restype_), ", ".join(py_canon(ctypes, a) for a in t._argtypes_))
    if isinstance(t, type) and issubclass(t, ctypes.Array):
        return "array(%s, %d)" % (py_canon(ctypes, t._type_), t._length_)
    return "?" + repr(t)


def same(c_spelling, py_spelling):
    """c_void_p stands for any object pointer (an opaque handle, void *).

    Where size_t is 64 bits, ctypes.c_size_t and ctypes.c_uint64 are the same
    object (c_ulong), so py_canon cannot tell them apart: "size" then also
    stands for u64.
    """
    if py_spelling == c_spelling:
        return True
    if py_spelling == "size" and c_spelling == "u64" and SIZE_IS_U64:
        return True
    if py_spelling == "ptr(*)":
        return c_spelling.startswith("ptr(") and not c_spelling.startswith("ptr(fn(")
    if py_spelling.startswith("ptr(") and c_spelling.startswith("ptr("):
        return same(c_spelling[4:-1], py_spelling[4:-1])
    if py_spelling.startswith("fn(") and c_spelling.startswith("fn("):
        ret_c, args_c = split_top(c_spelling[3:-1], "; ", 1)
        ret_p, args_p = split_top(py_spelling[3:-1], "; ", 1)
        ac, ap = split_top(args_c, ", "), split_top(args_p, ", ")
        return same(ret_c, ret_p) and len(ac) == len(ap) and all(same(a, b) for a, b in zip(ac, ap))
    return False


def split_top(text, sep, maxsplit=-1):
    """text.split(sep) outside parentheses: a callback's parameters may be callbacks."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i) and (maxsplit < 0 or len(parts) < maxsplit):
            parts.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return parts


def callback_typedefs(model):
    """name -> FuncDecl of every callback typedef of ours: a function type
    (cloth_task_fn) or a pointer to one (cloth_wind_fn)."""
    out = {}
    for td in model.our_typedefs:
        t = td.type
        if isinstance(t, c_ast.PtrDecl):
            t = t.type
        if isinstance(t, c_ast.FuncDecl):
            out[td.name] = t
    return out


def enum_values(en):
    """{constant: value} of an enum, implicit values counted as C does."""
    out, value = {}, -1
    for e in en.values.enumerators:
        value = int(e.value.value.rstrip("uUlL"), 0) if e.value is not None else value + 1
        out[e.name] = value
    return out


def object_macros(header_texts):
    """{name: int value} of every #define NAME <integer> of the headers."""
    out = {}
    for text in header_texts.values():
        for m in re.finditer(r"^\s*#\s*define\s+(\w+)\s+(0x[0-9a-fA-F]+|\d+)[uUlL]*\b", text, flags=re.M):
            out[m.group(1)] = int(m.group(2), 0)
    return out


def report_missing(ck, what, names):
    """One failure per missing name; a pass when none is missing."""
    if not names:
        ck.check(True, what)
    for name in sorted(names):
        ck.check(False, "%s: %s" % (what, name))


def check_binding(ck, model, binding_dir, header_texts):
    import ctypes

    sys.path.insert(0, binding_dir)
    from clothsim import _lib  # does not load the shared library

    report_missing(
        ck, "binding: CLOTH_API function with no entry in clothsim._lib.SIGNATURES", set(model.functions) - set(_lib.SIGNATURES)
    )
    for name, (restype, argtypes) in sorted(_lib.SIGNATURES.items()):
        fn = model.functions.get(name)
        if not ck.check(fn is not None, "binding: %s is not in the headers" % name):
            continue
        c_ret, p_ret = c_canon(model, fn.type), py_canon(ctypes, restype)
        ck.check(same(c_ret, p_ret), "binding: %s returns %s in C, %s in Python" % (name, c_ret, p_ret))
        c_args = [c_canon(model, p.type) for p in params(fn)]
        p_args = [py_canon(ctypes, a) for a in argtypes]
        ck.check(
            len(c_args) == len(p_args) and all(same(c, p) for c, p in zip(c_args, p_args)),
            "binding: %s takes (%s) in C, (%s) in Python" % (name, ", ".join(c_args), ", ".join(p_args)),
        )

    bound_structs = {st.c_name: st for st in _lib.STRUCTS}
    report_missing(
        ck,
        "binding: public struct with no ctypes.Structure in clothsim._lib.STRUCTS",
        {st.name for st in model.our_structs} - set(bound_structs),
    )
    for struct_type in _lib.STRUCTS:
        st = model.structs.get(struct_type.c_name)
        if not ck.check(st is not None, "binding: struct %s is not in the headers" % struct_type.c_name):
            continue
        c_fields = []
        for member in st.decls:
            t = member.type
            if isinstance(t, c_ast.ArrayDecl):
                spelled = "array(%s, %s)" % (c_canon(model, t.type), t.dim.value)
            else:
                spelled = c_canon(model, t)
            c_fields.append((member.name, spelled))
        p_fields = [(fname, py_canon(ctypes, ftype)) for fname, ftype in struct_type._fields_]
        ok = len(c_fields) == len(p_fields) and all(
            cn == pn and (same(ct, pt) or (pt == "ptr(*)" and ct.startswith("fn("))) for (cn, ct), (pn, pt) in zip(c_fields, p_fields)
        )
        ck.check(ok, "binding: %s fields differ:\n  C:      %s\n  Python: %s" % (struct_type.c_name, c_fields, p_fields))

    callbacks = callback_typedefs(model)
    ck.check(len(callbacks) >= 5, "binding: only %d callback typedefs found" % len(callbacks))
    report_missing(
        ck, "binding: callback typedef with no CFUNCTYPE in clothsim._lib.CALLBACKS", set(callbacks) - set(_lib.CALLBACKS)
    )
    for name, fn_type in sorted(_lib.CALLBACKS.items()):
        c_fn = callbacks.get(name)
        if not ck.check(c_fn is not None, "binding: callback %s is not in the headers" % name):
            continue
        c_spelling, p_spelling = fn_canon(model, c_fn), py_canon(ctypes, fn_type)
        ck.check(same(c_spelling, p_spelling), "binding: %s is %s in C, %s in Python" % (name, c_spelling, p_spelling))

    our_enums = {en.name: en for en in model.enums}
    report_missing(ck, "binding: public enum with no IntEnum in clothsim._lib.ENUMS", set(our_enums) - set(_lib.ENUMS))
    for c_name, (py_enum, prefix) in sorted(_lib.ENUMS.items()):
        en = our_enums.get(c_name)
        if not ck.check(en is not None, "binding: enum %s is not in the headers" % c_name):
            continue
        values = {k: v for k, v in enum_values(en).items() if not k.endswith("_FORCE32")}
        for member in py_enum:
            ck.check(
                values.get(prefix + member.name) == member.value,
                "binding: %s.%s = %d differs from the header's %s" % (py_enum.__name__, member.name, member.value, prefix + member.name),
            )
        bound = {prefix + m.name for m in py_enum}
        report_missing(ck, "binding: %s constant missing from clothsim.%s" % (c_name, py_enum.__name__), set(values) - bound)

    macros = {k: v for k, v in object_macros(header_texts).items() if not k.startswith("CLOTHSIM_VERSION")}
    report_missing(ck, "binding: macro missing from clothsim._lib.CONSTANTS", set(macros) - set(_lib.CONSTANTS))
    for name, value in sorted(_lib.CONSTANTS.items()):
        ck.check(macros.get(name) == value, "binding: %s is %s in C, %s in Python" % (name, macros.get(name), value))

    base = next(text for path, text in header_texts.items() if path.endswith("base.h"))
    major = int(re.search(r"#define CLOTHSIM_VERSION_MAJOR (\d+)", base).group(1))
    minor = int(re.search(r"#define CLOTHSIM_VERSION_MINOR (\d+)", base).group(1))
    ck.check(_lib.EXPECTED_MAJOR == major, "binding: expects major %d, headers are %d" % (_lib.EXPECTED_MAJOR, major))
    ck.check(_lib.MIN_MINOR <= minor, "binding: needs minor %d, headers are %d" % (_lib.MIN_MINOR, minor))
    return len(_lib.SIGNATURES)


# --- the Node binding against the headers ----------------------------------------

NODE_BINDING = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "examples", "node", "clothsim.js")


def node_prototypes(text, call):
    """{name: parameter count} of every `<call>('<C prototype>')` in the JS text:
    lib.func for functions, koffi.proto for callback types. Comments are dropped
    first, so a name that is only mentioned does not count."""
    code = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    code = re.sub(r"(^|[^:'\"])//[^\n]*", r"\1", code)
    out = {}
    pattern = re.escape(call) + r"\(\s*'([^']*)'\s*,?\s*\)"
    for m in re.finditer(pattern, code):
        proto = m.group(1)
        head = re.match(r"\s*(.*?)\b(\w+)\s*\((.*)\)\s*$", proto, flags=re.S)
        if not head:
            continue
        args = head.group(3).strip()
        count = 0 if args in ("", "void") else len(split_top(args, ","))
        out[head.group(2)] = count
    return out


def check_node(ck, model, path):
    """Every CLOTH_API function is declared with lib.func('<prototype>') and
    every callback typedef with koffi.proto('<prototype>') in the Node
    binding, with the C parameter count."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    funcs = node_prototypes(text, "lib.func")
    protos = node_prototypes(text, "koffi.proto")
    label = "node (%s)" % os.path.basename(path)
    report_missing(ck, "%s: CLOTH_API function with no lib.func('...') declaration" % label, set(model.functions) - set(funcs))
    callbacks = callback_typedefs(model)
    report_missing(ck, "%s: callback typedef with no koffi.proto('...') declaration" % label, set(callbacks) - set(protos))
    for table, c_decls in ((funcs, model.functions), (protos, callbacks)):
        for name, count in sorted(table.items()):
            fn = c_decls.get(name)
            if fn is None:
                ck.check(not name.startswith("cloth_"), "%s: %s is not in the headers" % (label, name))
                continue
            ck.check(
                count == len(params(fn)),
                "%s: %s takes %d parameters in C, %d in its koffi prototype" % (label, name, len(params(fn)), count),
            )
    return len(set(funcs) & set(model.functions))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"))
    parser.add_argument("--include", required=True, help="the directory holding clothsim/clothsim.h")
    parser.add_argument("--binding", help="the directory holding the clothsim Python package, to check it too")
    parser.add_argument(
        "--node",
        default=NODE_BINDING if os.path.exists(NODE_BINDING) else None,
        help="the Node binding (clothsim.js) to check for every function; default: examples/node/clothsim.js "
        "of this checkout; '' to skip",
    )
    args = parser.parse_args()

    include_dir = os.path.abspath(args.include)
    header_dir = os.path.join(include_dir, "clothsim")
    header_texts = {}
    for name in sorted(os.listdir(header_dir)):
        if name.endswith(".h"):
            with open(os.path.join(header_dir, name), encoding="utf-8") as f:
                header_texts[os.path.join(header_dir, name)] = f.read()

    ck = Checker()
    exported = exported_functions(ck, header_texts)
    model = None
    # As a shared-library consumer sees them, and as a static one does.
    for label, extra in (("shared", []), ("static", ["-DCLOTHSIM_STATIC"])):
        text = preprocess(args.cc, include_dir, extra)
        try:
            ast = c_parser.CParser().parse(text, "clothsim.h")
        except Exception as exc:  # pycparser raises ParseError with file:line
            ck.check(False, "%s: pycparser cannot parse the preprocessed headers: %s" % (label, exc))
            continue
        model = Model(ast, header_dir)
        check_headers(ck, model, exported, label)

    probed = check_reentry(ck, model) if model is not None else 0
    bound = 0
    if args.binding and model is not None:
        bound = check_binding(ck, model, os.path.abspath(args.binding), header_texts)

    node_bound = 0
    if args.node and model is not None:
        node_bound = check_node(ck, model, os.path.abspath(args.node))

    print(
        "parsed %d headers: %d exported functions, %d enums, %d structs, %d typedefs; "
        "%d functions that change a cloth probed for re-entry%s%s"
        % (
            len(header_texts),
            len(exported),
            len(model.enums) if model else 0,
            len(model.our_structs) if model else 0,
            len(model.our_typedefs) if model else 0,
            probed,
            "; Python binding: %d functions checked" % bound if args.binding else "",
            "; Node binding: %d functions declared" % node_bound if args.node else "",
        )
    )
    for failure in ck.failures:
        print("FAIL: " + failure)
    print("%d passed, %d failed" % (ck.passes, len(ck.failures)))
    return 1 if ck.failures else 0


if __name__ == "__main__":
    sys.exit(main())
