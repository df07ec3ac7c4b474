"""study.py - a study file (TOML, docs/sweep.md) into a validated study and its plan of runs.

A run is one point of the grid configuration x axes x workload x engine x seed. Its key is the
SHA-256 (first 16 hex digits) of a canonical JSON object of everything that decides its result:
the resolved configuration (the file's keys after every --set override, integers normalised),
the trace's identity (content hash of a trace file, or the generator's build id and arguments of
a generated one: gmmu-gen is a pure function of them), the seed, the engine, the extra gmmu-sim
arguments and the simulator's build id (SHA-256 of the gmmu-sim binary).
"""
import ast
import hashlib
import itertools
import json
import math
import os
import re

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib  # type: ignore

KEY_LEN = 16
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
GEN_OPTS = {"size_mb": "--size-mb", "seed": "--seed", "iters": "--iters", "window": "--window"}
# the axis column of a generator option given as a list ("seed" is gmmu-sim's seed axis)
VARY_AXIS = {"size_mb": "size_mb", "seed": "gen_seed", "iters": "iters", "window": "window"}
RESERVED = {"config", "workload", "engine", "seed"} | set(VARY_AXIS.values())
STUDY_KEYS = {"name", "description", "sim", "gen", "trace_tool", "sim_args", "store",
              "timeout_s", "keep_traces"}
TOP_KEYS = {"study", "config", "axis", "workload", "grid", "figure", "exclude"}


class StudyError(Exception):
    """A malformed study: the message names the file and the field (and line where known)."""


# an override's value may be an expression in braces of the run's trace, evaluated when the
# trace exists: gpu_mem_pages={ceil(footprint_pages * 0.5)} (docs/sweep.md "Expressions")
EXPR_RE = re.compile(r"^\{(.*)\}$")
EXPR_VARS = ("footprint_pages", "alloc_pages")
EXPR_FUNCS = {"ceil": math.ceil, "floor": math.floor, "round": round, "min": min, "max": max,
              "int": int}
EXPR_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Load,
              ast.Constant, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod,
              ast.USub, ast.UAdd)


def expr_check(text):
    """The parsed expression of '{...}' (StudyError naming what is not allowed)."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        raise StudyError(f"expression {{{text}}}: {e.msg}") from None
    for node in ast.walk(tree):
        if not isinstance(node, EXPR_NODES):
            raise StudyError(f"expression {{{text}}}: {type(node).__name__} not allowed")
        if isinstance(node, ast.Name) and node.id not in EXPR_VARS + tuple(EXPR_FUNCS):
            raise StudyError(f"expression {{{text}}}: unknown name '{node.id}' (variables: "
                             f"{', '.join(EXPR_VARS)}; functions: {', '.join(EXPR_FUNCS)})")
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and
                                               node.func.id in EXPR_FUNCS):
            raise StudyError(f"expression {{{text}}}: only {', '.join(EXPR_FUNCS)} can be called")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            raise StudyError(f"expression {{{text}}}: only numbers")
    return tree


def expr_eval(text, variables):
    """The value of a checked expression: an integer >= 0 (a configuration value)."""
    env = dict(EXPR_FUNCS)
    env.update(variables)
    v = eval(compile(expr_check(text), "<expr>", "eval"), {"__builtins__": {}}, env)
    if isinstance(v, float):
        v = math.ceil(v) if v != int(v) else int(v)
    if not isinstance(v, int) or v < 0:
        raise StudyError(f"expression {{{text}}} = {v}: not an integer >= 0")
    return v


def has_expr(sets):
    return any(EXPR_RE.match(s.split("=", 1)[1].strip()) for s in sets if "=" in s)


def resolve_sets(sets, variables):
    """The overrides with every {expression} replaced by its value."""
    out = []
    for s in sets:
        k, v = s.split("=", 1)
        m = EXPR_RE.match(v.strip())
        out.append(f"{k}={expr_eval(m.group(1), variables)}" if m else s)
    return out


def sha256_file(path, cache=None):
    """SHA-256 of a file's content (cached per (path, size, mtime))."""
    st = os.stat(path)
    ck = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    if cache is not None and ck in cache:
        return cache[ck]
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    d = h.hexdigest()
    if cache is not None:
        cache[ck] = d
    return d


def digest(obj, n=KEY_LEN):
    """A stable hash of a JSON-able object (sorted keys, no blanks)."""
    s = json.dumps(obj, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(s.encode()).hexdigest()[:n]


def cfg_value(v):
    """A configuration value in canonical form: integers as int (decimal or 0x), else the word."""
    v = v.strip()
    if re.fullmatch(r"[0-9]+", v):
        return int(v, 10)
    if re.fullmatch(r"0[xX][0-9a-fA-F]+", v):
        return int(v, 16)
    return v


def read_cfg(path):
    """A configs/*.cfg file as {key: value} (gmmu-sim checks it for real; this only parses)."""
    out = {}
    try:
        with open(path) as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise StudyError(f"{path}: {e.strerror}") from None
    for n, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if "=" not in line:
            raise StudyError(f"{path}:{n}: expected key = value")
        k, v = line.split("=", 1)
        out[k.strip()] = cfg_value(v)
    return out


def apply_sets(cfg, sets, where):
    """cfg with the key=value overrides applied (a new dict)."""
    cfg = dict(cfg)
    for s in sets:
        if "=" not in s or not s.split("=", 1)[0].strip():
            raise StudyError(f"{where}: set '{s}': expected key=value")
        k, v = s.split("=", 1)
        m = EXPR_RE.match(v.strip())
        if m:
            try:
                expr_check(m.group(1))
            except StudyError as e:
                raise StudyError(f"{where}: set '{s}': {e}") from None
        cfg[k.strip()] = cfg_value(v)
    return cfg


class Loc:
    """Error locations: the TOML text, to find the line of a table or field."""

    def __init__(self, path, text):
        self.path = path
        self.lines = text.split("\n")

    def line_of(self, table, index, field=None):
        """Line of the index-th [[table]] (or [table]) header, or of a field below it."""
        seen, hdr, index = -1, None, index or 0
        pat = re.compile(r"^\s*\[\[?\s*" + re.escape(table) + r"\s*\]\]?\s*(#.*)?$")
        for n, line in enumerate(self.lines, 1):
            if pat.match(line):
                seen += 1
                if seen == index:
                    hdr = n
                    if field is None:
                        return n
                    continue
            if hdr is not None:
                if re.match(r"^\s*\[", line):
                    break
                if re.match(r"^\s*" + re.escape(field) + r"\s*=", line):
                    return n
        return hdr

    def err(self, table, index, field, msg):
        n = self.line_of(table, index, field) if table else None
        where = f"{self.path}:{n}" if n else self.path
        what = table if index is None else f"{table}[{index}]"
        if field:
            what += f".{field}"
        return StudyError(f"{where}: {what}: {msg}")


def _str_list(loc, table, i, field, v):
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise loc.err(table, i, field, "expected a list of strings")
    return list(v)


def _name(loc, table, i, d, seen):
    n = d.get("name")
    if not isinstance(n, str) or not NAME_RE.match(n):
        raise loc.err(table, i, "name", f"expected a name matching {NAME_RE.pattern}, got {n!r}")
    if n in seen:
        raise loc.err(table, i, "name", f"duplicate name '{n}'")
    seen.add(n)
    return n


def _only_keys(loc, table, i, d, allowed):
    for k in d:
        if k not in allowed:
            raise loc.err(table, i, k, f"unknown field (known: {', '.join(sorted(allowed))})")


def _tables(loc, doc, key, required):
    v = doc.get(key, [])
    if isinstance(v, dict):
        v = [v]
    if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
        raise loc.err(key, None, None, f"expected [[{key}]] tables")
    if required and not v:
        raise loc.err(None, None, None, f"at least one [[{key}]] is required")
    return v


def _configs(loc, doc, base):
    out, seen = [], set()
    for i, c in enumerate(_tables(loc, doc, "config", True)):
        _only_keys(loc, "config", i, c, {"name", "file", "set"})
        name = _name(loc, "config", i, c, seen)
        f = c.get("file")
        if not isinstance(f, str):
            raise loc.err("config", i, "file", "expected a configuration file path")
        path = os.path.join(base, f)
        if not os.path.isfile(path):
            raise loc.err("config", i, "file", f"{f}: no such file")
        sets = _str_list(loc, "config", i, "set", c.get("set", []))
        try:
            resolved = apply_sets(read_cfg(path), sets, f"{loc.path}: config[{i}]")
        except StudyError as e:
            raise loc.err("config", i, "file", str(e)) from None
        out.append({"name": name, "file": f, "path": path, "set": sets, "cfg": resolved})
    return out


def _axes(loc, doc):
    out, seen = [], set(RESERVED)
    for i, a in enumerate(_tables(loc, doc, "axis", False)):
        _only_keys(loc, "axis", i, a, {"name", "values"})
        name = _name(loc, "axis", i, a, seen)
        vals = a.get("values")
        if not isinstance(vals, list) or not vals:
            raise loc.err("axis", i, "values", "expected a non-empty list of {name, set} tables")
        vs, vseen = [], set()
        for j, v in enumerate(vals):
            if not isinstance(v, dict) or set(v) - {"name", "set"}:
                raise loc.err("axis", i, "values", f"value {j}: expected {{name = .., set = [..]}}")
            vn = v.get("name")
            if not isinstance(vn, str) or not NAME_RE.match(vn) or vn in vseen:
                raise loc.err("axis", i, "values", f"value {j}: bad or duplicate name {vn!r}")
            vseen.add(vn)
            sets = _str_list(loc, "axis", i, "values", v.get("set", []))
            try:
                apply_sets({}, sets, f"value {vn}")
            except StudyError as e:
                raise loc.err("axis", i, "values", str(e)) from None
            vs.append({"name": vn, "set": sets})
        out.append({"name": name, "values": vs})
    return out


def _workloads(loc, doc, base):
    out, seen = [], set()
    for i, w in enumerate(_tables(loc, doc, "workload", True)):
        _only_keys(loc, "workload", i, w, {"name", "gen", "trace", "mix", "params", "set"} |
                   set(GEN_OPTS))
        name = _name(loc, "workload", i, w, seen)
        wsets = _str_list(loc, "workload", i, "set", w.get("set", []))
        try:
            apply_sets({}, wsets, "set")
        except StudyError as e:
            raise loc.err("workload", i, "set", str(e)) from None
        if ("gen" in w) + ("trace" in w) + ("mix" in w) != 1:
            raise loc.err("workload", i, None, "exactly one of gen (a gmmu-gen workload), "
                          "trace (a trace file) or mix (gmmu-gen workloads combined by "
                          "gmmu-trace mix) is required")
        if "trace" in w:
            if set(w) - {"name", "trace", "set"}:
                raise loc.err("workload", i, "trace", "a trace file takes no generator fields")
            path = os.path.join(base, str(w["trace"]))
            if not os.path.isfile(path):
                raise loc.err("workload", i, "trace", f"{w['trace']}: no such file")
            out.append({"name": name, "trace": path, "set": wsets})
            continue
        if "mix" in w:
            out.append(_mix(loc, i, w, name, wsets))
            continue
        if not isinstance(w["gen"], str) or not NAME_RE.match(w["gen"]):
            raise loc.err("workload", i, "gen", "expected a gmmu-gen workload name")
        params = w.get("params", {})
        if not isinstance(params, dict):
            raise loc.err("workload", i, "params", "expected a table of key = value")
        pargs = []
        for k in sorted(params):
            v = params[k]
            if isinstance(v, bool) or not isinstance(v, (int, float, str)):
                raise loc.err("workload", i, "params", f"{k}: expected a number or a string")
            pargs += ["--param", f"{k}={v}"]
        # a list of values of a generator option makes one workload per value (an axis
        # column named VARY_AXIS[field] in the run names and the table)
        choices = []
        for k in GEN_OPTS:
            if k not in w:
                continue
            vals = w[k] if isinstance(w[k], list) else [w[k]]
            if not vals:
                raise loc.err("workload", i, k, "expected a number or a non-empty list")
            for v in vals:
                if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                    raise loc.err("workload", i, k, f"expected a non-negative number, got {v!r}")
            choices.append([(k, v, isinstance(w[k], list)) for v in vals])
        for combo in itertools.product(*choices):
            args, vary = [w["gen"]], {}
            for k, v, listed in combo:
                args += [GEN_OPTS[k], f"{v:g}" if isinstance(v, float) else str(v)]
                if listed:
                    vary[VARY_AXIS[k]] = v
            out.append({"name": name, "gen_args": args + pargs, "vary": vary, "set": wsets})
    return out


def _gen_args(loc, i, field, gen, d):
    """gmmu-gen's arguments for one (non-list) set of generator fields."""
    if not isinstance(gen, str) or not NAME_RE.match(gen):
        raise loc.err("workload", i, field, f"{gen!r}: expected a gmmu-gen workload name")
    args = [gen]
    for k, opt in GEN_OPTS.items():
        if k in d:
            v = d[k]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise loc.err("workload", i, field if field == "mix" else k,
                              f"{k}: expected a non-negative number, got {v!r}")
            args += [opt, f"{v:g}" if isinstance(v, float) else str(v)]
    params = d.get("params", {})
    if not isinstance(params, dict):
        raise loc.err("workload", i, field, "params: expected a table of key = value")
    for k in sorted(params):
        v = params[k]
        if isinstance(v, bool) or not isinstance(v, (int, float, str)):
            raise loc.err("workload", i, field, f"params.{k}: expected a number or a string")
        args += ["--param", f"{k}={v}"]
    return args


def _mix(loc, i, w, name, wsets):
    """A workload of several generated applications, application j in address space j
    (gmmu-trace mix); the workload's generator fields are the applications' defaults."""
    mix = w["mix"]
    if not isinstance(mix, list) or len(mix) < 2:
        raise loc.err("workload", i, "mix", "expected a list of at least two applications")
    defaults = {k: w[k] for k in list(GEN_OPTS) + ["params"] if k in w}
    comps = []
    for m in mix:
        if isinstance(m, str):
            m = {"gen": m}
        if not isinstance(m, dict) or "gen" not in m or \
                set(m) - ({"gen", "params"} | set(GEN_OPTS)):
            raise loc.err("workload", i, "mix", f"{m!r}: expected a gmmu-gen workload name or "
                          "{gen = .., size_mb = .., seed = .., iters = .., window = .., "
                          "params = {..}}")
        d = dict(defaults)
        d.update({k: v for k, v in m.items() if k != "gen"})
        comps.append(_gen_args(loc, i, "mix", m["gen"], d))
    return {"name": name, "mix": comps, "vary": {}, "set": wsets}


def _grid(loc, doc):
    g = doc.get("grid", {})
    if not isinstance(g, dict):
        raise loc.err("grid", None, None, "expected a [grid] table")
    _only_keys(loc, "grid", None, g, {"engines", "seeds"})
    engines = g.get("engines", ["cmodel"])
    if not isinstance(engines, list) or not engines or \
            not all(isinstance(e, str) and NAME_RE.match(e.replace(",", "_")) for e in engines):
        raise loc.err("grid", None, "engines", "expected a non-empty list of engine names")
    seeds = g.get("seeds", [1])
    if not isinstance(seeds, list) or not seeds or \
            not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in seeds):
        raise loc.err("grid", None, "seeds", "expected a non-empty list of integers >= 0")
    return engines, seeds


def _figures(loc, doc):
    out, seen = [], set()
    for i, f in enumerate(_tables(loc, doc, "figure", False)):
        _only_keys(loc, "figure", i, f, {"name", "command"})
        name = _name(loc, "figure", i, f, seen)
        out.append({"name": name, "command": _str_list(loc, "figure", i, "command",
                                                       f.get("command"))})
    return out


def load(path, root=None):
    """The study file at path, validated (StudyError on anything malformed).

    Paths inside the study (config files, traces, sim, gen, store) are relative to root: the
    repository root (default: the current directory)."""
    root = root or os.getcwd()
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise StudyError(f"{path}: {e.strerror}") from None
    text = raw.decode("utf-8", errors="replace")
    loc = Loc(path, text)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise StudyError(f"{path}: malformed TOML: {e}") from None
    for k in doc:
        if k not in TOP_KEYS:
            raise loc.err(None, None, None, f"unknown table or key '{k}' "
                          f"(known: {', '.join(sorted(TOP_KEYS))})")
    st = doc.get("study")
    if not isinstance(st, dict):
        raise loc.err(None, None, None, "a [study] table with a name is required")
    _only_keys(loc, "study", None, st, STUDY_KEYS)
    name = st.get("name")
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise loc.err("study", None, "name", f"expected a name matching {NAME_RE.pattern}")
    for k in ("sim", "gen", "trace_tool", "store", "description"):
        if k in st and not isinstance(st[k], str):
            raise loc.err("study", None, k, "expected a string")
    timeout = st.get("timeout_s", 0)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout < 0:
        raise loc.err("study", None, "timeout_s", "expected seconds >= 0 (0: no limit)")
    if not isinstance(st.get("keep_traces", True), bool):
        raise loc.err("study", None, "keep_traces", "expected true or false")
    engines, seeds = _grid(loc, doc)
    study = {
        "path": path, "name": name, "description": st.get("description", ""),
        "sim": os.path.join(root, st.get("sim", "build/tiny/gmmu-sim")),
        "gen": os.path.join(root, st.get("gen", "build/bin/gmmu-gen")),
        "trace_tool": os.path.join(root, st.get("trace_tool", "build/bin/gmmu-trace")),
        "sim_args": _str_list(loc, "study", None, "sim_args", st.get("sim_args", [])),
        "store": os.path.join(root, st.get("store", f"build/sweep/{name}")),
        "timeout_s": timeout, "root": root, "keep_traces": st.get("keep_traces", True),
        "configs": _configs(loc, doc, root), "axes": _axes(loc, doc),
        "workloads": _workloads(loc, doc, root), "engines": engines, "seeds": seeds,
        "figures": _figures(loc, doc), "exclude": _excludes(loc, doc),
    }
    known = {"config", "workload", "engine", "seed"} | {a["name"] for a in study["axes"]} | \
        {k for w in study["workloads"] for k in w.get("vary", {})}
    for i, rule in enumerate(study["exclude"]):
        for k in rule:
            if k not in known:
                raise loc.err("exclude", i, k, f"not an axis (axes: {', '.join(sorted(known))})")
    return study


class Ids:
    """Build ids of the binaries and content hashes of the trace files (each hashed once)."""

    def __init__(self):
        self.cache = {}

    def build_id(self, path, what):
        if not os.access(path, os.X_OK):
            raise StudyError(f"{path}: {what} not built (make sweep-tools)")
        return sha256_file(path, self.cache)[:KEY_LEN]

    def trace_id(self, path):
        return sha256_file(path, self.cache)[:KEY_LEN]


def trace_of(study, w, ids):
    """(trace id, trace spec) of a workload; a generated trace's id is its recipe's hash."""
    if "trace" in w:
        return ids.trace_id(w["trace"]), {"file": w["trace"]}
    gid = ids.build_id(study["gen"], "gmmu-gen")
    if "mix" in w:
        tool = ids.build_id(study["trace_tool"], "gmmu-trace")
        comps = [{"id": "g" + digest({"gen": gid, "args": a}, KEY_LEN - 1), "gen_args": a}
                 for a in w["mix"]]
        tid = "m" + digest({"tool": tool, "mix": [c["id"] for c in comps]}, KEY_LEN - 1)
        return tid, {"mix": comps}
    tid = "g" + digest({"gen": gid, "args": w["gen_args"]}, KEY_LEN - 1)
    return tid, {"gen_args": w["gen_args"]}


def excluded(rules, axes):
    """Whether a run's axes match one [[exclude]] rule (every field of the rule matches)."""
    for rule in rules:
        if all(k in axes and str(axes[k]) in vals for k, vals in rule.items()):
            return True
    return False


def _excludes(loc, doc):
    out = []
    for i, e in enumerate(_tables(loc, doc, "exclude", False)):
        if not e:
            raise loc.err("exclude", i, None, "an empty rule would exclude every run")
        rule = {}
        for k, v in e.items():
            vals = v if isinstance(v, list) else [v]
            if not vals or not all(isinstance(x, (str, int, float)) and
                                   not isinstance(x, bool) for x in vals):
                raise loc.err("exclude", i, k, "expected a value or a list of values")
            rule[k] = {f"{x:g}" if isinstance(x, float) else str(x) for x in vals}
        out.append(rule)
    return out


def plan(study, ids=None):
    """Every run of the study, in grid order: dicts with name, key, axes, command parts."""
    ids = ids or Ids()
    sim_id = ids.build_id(study["sim"], "gmmu-sim")
    exprs = any(has_expr(c["set"]) for c in study["configs"]) or \
        any(has_expr(v["set"]) for a in study["axes"] for v in a["values"]) or \
        any(has_expr(w.get("set", [])) for w in study["workloads"])
    if exprs:  # the footprint of a trace (not part of a key: a function of the trace)
        ids.build_id(study["trace_tool"], "gmmu-trace")
    traces = [trace_of(study, w, ids) for w in study["workloads"]]
    axes = [[(a["name"], v) for v in a["values"]] for a in study["axes"]]
    runs = []
    for c in study["configs"]:
        for combo in itertools.product(*axes):
            axis_sets = [x for _, v in combo for x in v["set"]]
            for w, (tid, tspec) in zip(study["workloads"], traces):
                # overrides in this order, the later winning: configuration, workload, axes
                wsets = w.get("set", []) + axis_sets
                sets = c["set"] + wsets
                cfg = apply_sets(c["cfg"], wsets, f"{study['path']}: config {c['name']}")
                for e in study["engines"]:
                    for s in study["seeds"]:
                        ax = {"config": c["name"]}
                        ax.update({an: v["name"] for an, v in combo})
                        ax["workload"] = w["name"]
                        ax.update(w.get("vary", {}))
                        ax.update({"engine": e, "seed": s})
                        if excluded(study["exclude"], ax):
                            continue
                        ident = {"cfg": cfg, "trace": tid, "seed": s, "engine": e,
                                 "sim": sim_id, "sim_args": study["sim_args"]}
                        runs.append({
                            "key": digest(ident), "name": ",".join(f"{k}={v}"
                                                                   for k, v in ax.items()),
                            "axes": ax, "config_file": c["path"], "sets": sets,
                            "trace_id": tid, "trace": tspec, "engine": e, "seed": s,
                            "sim_id": sim_id, "cfg_hash": digest(cfg)})
    return runs
