#!/usr/bin/env python3
"""The host registers of the GMMU, compiled from spec/gmmu.rdl (SystemRDL 2.0).

load() compiles the RDL with systemrdl-compiler (every constant of spec/gmmu.toml is a `define)
and returns a plain model: one dict per register (name, addr, access, fields, write masks,
legality rule). scripts/gen_consts.py turns it into the SV package constants and csr_decode(),
the C macros and decode table, and the Markdown register map. The conventions (derived access,
mbz fields, legality rules, bit_prefix) are documented at the top of spec/gmmu.rdl.
"""
import math

LEGAL_RULES = ("any", "pow2_or_zero_le", "le", "lt_ref", "nz_le")
ACCESS = ("ro", "rw", "wo", "rw1c")


class RdlError(Exception):
    """A malformed or inconsistent spec/gmmu.rdl; the message names the register and field."""


def defines(consts):
    """`define values for the RDL preprocessor: every scalar constant of spec/gmmu.toml."""
    d = {name: str(v) for _, name, v, _ in consts}
    d["FB_ENTRY_SHIFT"] = str(int(math.log2(int(d["FB_ENTRY_BYTES"]))))
    return d


def _access(rname, fields):
    sw = [f["sw"] for f in fields if not f["mbz"]]
    if any(f["woclr"] for f in fields):
        return "rw1c"
    if all(s == "r" for s in sw):
        return "ro"
    if all(s == "w" for s in sw):
        return "wo"
    if all(s in ("rw", "r") for s in sw):
        return "rw"
    raise RdlError(f"spec/gmmu.rdl: {rname}: cannot derive the register access from {sw}")


def _field(rname, f):
    from systemrdl.rdltypes import OnWriteType
    sw = f.get_property("sw")
    swname = {"r": "r", "rw": "rw", "w": "w"}.get(sw.name)
    if swname is None:
        raise RdlError(f"spec/gmmu.rdl: {rname}.{f.inst_name}: sw = {sw.name} is not supported")
    onwrite = f.get_property("onwrite")
    if onwrite not in (None, OnWriteType.woclr):
        raise RdlError(f"spec/gmmu.rdl: {rname}.{f.inst_name}: onwrite = {onwrite.name} is not supported")
    mbz = bool(f.get_property("mbz"))
    if mbz and swname != "r":
        raise RdlError(f"spec/gmmu.rdl: {rname}.{f.inst_name}: an mbz field must be sw = r")
    return {"name": f.inst_name, "lsb": f.lsb, "width": f.width, "sw": swname,
            "woclr": onwrite == OnWriteType.woclr, "mbz": mbz,
            "reset": f.get_property("reset") or 0,
            "desc": (f.get_property("desc") or "").replace("\n", " ")}


def compile_rdl(path, consts):
    """The elaborated root node of spec/gmmu.rdl."""
    try:
        from systemrdl import RDLCompileError, RDLCompiler
    except ImportError as e:
        raise RdlError("systemrdl-compiler is not installed: run `make deps`") from e
    rdlc = RDLCompiler()
    try:
        rdlc.compile_file(path, defines=defines(consts))
        return rdlc.elaborate()
    except RDLCompileError as e:
        raise RdlError(f"{path}: SystemRDL compile failed (messages above)") from e


def export_html(path, consts, outdir):
    """HTML register documentation (PeakRDL's peakrdl-html) into outdir."""
    try:
        from peakrdl_html import HTMLExporter
    except ImportError as e:
        raise RdlError("peakrdl-html is not installed: run `make deps`") from e
    HTMLExporter().export(compile_rdl(path, consts), outdir)


def load(path, consts):
    """List of register dicts in address order. consts: (section, name, value, doc) of gmmu.toml."""
    top = compile_rdl(path, consts).top
    regs = []
    for r in top.registers():
        name = r.inst_name
        if r.get_property("regwidth") != 32:
            raise RdlError(f"{path}: {name}: only 32-bit registers are supported")
        fields = [_field(name, f) for f in r.fields()]
        reg = {"name": name, "addr": r.absolute_address, "fields": fields,
               "title": r.get_property("name") or name,
               "desc": (r.get_property("desc") or "").replace("\n", " "),
               "access": _access(name, fields),
               "wmask": sum(((1 << f["width"]) - 1) << f["lsb"] for f in fields
                            if f["sw"] in ("rw", "w")),
               "mbz": sum(((1 << f["width"]) - 1) << f["lsb"] for f in fields if f["mbz"]),
               "legal": r.get_property("legal") or "any",
               "legal_max": r.get_property("legal_max") or 0,
               "legal_ref": r.get_property("legal_ref"),
               "legal_err": r.get_property("legal_err") or "BAD_VALUE",
               "bit_prefix": r.get_property("bit_prefix"),
               "present_if": r.get_property("present_if")}
        if reg["present_if"] is not None and not reg["present_if"].isidentifier():
            raise RdlError(f"{path}: {name}: present_if = '{reg['present_if']}' is not a parameter name")
        if reg["legal"] not in LEGAL_RULES:
            raise RdlError(f"{path}: {name}: legal = '{reg['legal']}' is not one of {LEGAL_RULES}")
        if (reg["legal"] == "lt_ref") != (reg["legal_ref"] is not None):
            raise RdlError(f"{path}: {name}: legal_ref goes with legal = \"lt_ref\" (and only there)")
        if reg["legal_max"] >= 1 << 32:
            raise RdlError(f"{path}: {name}: legal_max does not fit 32 bits")
        regs.append(reg)
    regs.sort(key=lambda x: x["addr"])
    names = {r["name"]: r for r in regs}
    err = names.get("ERR_STATUS")
    if err is None or err["bit_prefix"] != "ERR":
        raise RdlError(f"{path}: ERR_STATUS with bit_prefix = \"ERR\" is required (error bits)")
    errbits = {f["name"] for f in err["fields"]}
    for r in regs:
        if r["legal_ref"] is not None and r["legal_ref"] not in names:
            raise RdlError(f"{path}: {r['name']}: legal_ref '{r['legal_ref']}' is not a register")
        if r["legal_err"] not in errbits:
            raise RdlError(f"{path}: {r['name']}: legal_err '{r['legal_err']}' is not a field of ERR_STATUS")
        if r["addr"] >= 1 << int(defines(consts)["CSR_ADDR_W"]):
            raise RdlError(f"{path}: {r['name']}: address 0x{r['addr']:x} exceeds CSR_ADDR_W")
    return regs


def conds(regs):
    """The parameters named by present_if, in a fixed order: bit i of a decode row's cond."""
    return sorted({r["present_if"] for r in regs if r["present_if"]})


def cond_name(param):
    """AccEntries -> ACC_ENTRIES."""
    return "".join("_" + ch if ch.isupper() and i else ch for i, ch in enumerate(param)).upper()


def _cond(regs, r):
    c = conds(regs)
    return 1 << c.index(r["present_if"]) if r["present_if"] else 0


def _condw(regs):
    return max(1, len(conds(regs)))


def field_consts(regs):
    """(name, value, doc) of every register/field constant (without the CSR_ address ones)."""
    out = []
    for r in regs:
        for f in r["fields"]:
            base = f"CSR_{r['name']}_{f['name']}"
            out += [(f"{base}_LSB", f["lsb"], f"{r['name']}.{f['name']} lowest bit"),
                    (f"{base}_W", f["width"], f"{r['name']}.{f['name']} width")]
            if r["bit_prefix"]:
                out.append((f"{r['bit_prefix']}_{f['name']}", f["lsb"], f["desc"]))
    for i, c in enumerate(conds(regs)):
        out.append((f"CSR_COND_{cond_name(c)}", i,
                    f"bit of a decode row's cond: the register exists only if {c} != 0"))
    return out


def sv_decode(regs, aw, errw):
    """SV package part: csr_legal_e, csr_dec_t and csr_decode()."""
    out = ["  // [csr decode] generated from spec/gmmu.rdl: the checks every CSR write goes through",
           f"  typedef enum logic [{max(1, (len(LEGAL_RULES) - 1).bit_length()) - 1}:0] {{",
           ",\n".join(f"    CSR_LEGAL_{x.upper()}" for x in LEGAL_RULES),
           "  } csr_legal_e;",
           f"  localparam int unsigned CSR_COND_W = {_condw(regs)};  // width of csr_dec_t.cond",
           "  typedef struct packed {",
           "    logic                  mapped;     // an existing register",
           "    logic                  ro;         // a write sets ERR_RO_WRITE",
           "    logic [31:0]           wmask;      // software-writable bits",
           "    logic [31:0]           mbz;        // must-be-zero bits (else ERR_BAD_VALUE)",
           "    csr_legal_e            legal;      // rule on the whole write data",
           "    logic [31:0]           legal_max;  // argument of pow2_or_zero_le / le",
           f"    logic [{aw}-1:0]         legal_ref;  // register compared by lt_ref",
           f"    logic [{errw}-1:0]          legal_err;  // ERR_STATUS bit set when the rule fails",
           f"    logic [{_condw(regs)}-1:0]          cond;       // present only if these CSR_COND_* hold",
           "  } csr_dec_t;",
           "",
           f"  function automatic csr_dec_t csr_decode(input logic [{aw}-1:0] addr);",
           "    csr_dec_t d;",
           "    d = '0;",
           "    unique case (addr)"]
    for r in regs:
        ref = f"CSR_{r['legal_ref']}" if r["legal_ref"] else "'0"
        out.append(f"      CSR_{r['name']}: d = '{{1'b1, 1'b{int(r['access'] == 'ro')}, "
                   f"32'h{r['wmask']:08x}, 32'h{r['mbz']:08x}, CSR_LEGAL_{r['legal'].upper()}, "
                   f"32'h{r['legal_max']:08x}, {ref}, {errw}'(ERR_{r['legal_err']}), "
                   f"{_condw(regs)}'({_cond(regs, r)})}};")
    out += ["      default: d = '0;", "    endcase", "    return d;", "  endfunction"]
    return out


def c_decode(regs):
    """C header part: gmmu_csr_decode_t and GMMU_CSR_DECODE_INIT."""
    out = ["/* [csr decode] generated from spec/gmmu.rdl: the checks every CSR write goes through */",
           "typedef enum {"]
    out += [f"    GMMU_CSR_LEGAL_{x.upper()}," for x in LEGAL_RULES]
    out += ["} gmmu_csr_legal_t;", "typedef enum {"]
    out += [f"    GMMU_CSR_ACC_{x.upper()}," for x in ACCESS]
    out += ["} gmmu_csr_access_t;",
            "typedef struct {",
            "    const char *name;",
            "    uint32_t addr;",
            "    gmmu_csr_access_t access;",
            "    uint32_t wmask;     /* software-writable bits */",
            "    uint32_t mbz;       /* must-be-zero bits (else ERR_BAD_VALUE) */",
            "    gmmu_csr_legal_t legal; /* rule on the whole write data */",
            "    uint32_t legal_max; /* argument of POW2_OR_ZERO_LE / LE */",
            "    uint32_t legal_ref; /* register compared by LT_REF */",
            "    uint32_t legal_err; /* ERR_STATUS bit set when the rule fails */",
            "    uint32_t cond;      /* present only if these GMMU_CSR_COND_* hold */",
            "} gmmu_csr_decode_t;",
            f"#define GMMU_CSR_DECODE_COUNT {len(regs)}u",
            "#define GMMU_CSR_DECODE_INIT \\", "    { \\"]
    for r in regs:
        ref = f"GMMU_CSR_{r['legal_ref']}" if r["legal_ref"] else "0u"
        out.append(f"        {{\"{r['name']}\", GMMU_CSR_{r['name']}, GMMU_CSR_ACC_{r['access'].upper()}, "
                   f"0x{r['wmask']:08x}u, 0x{r['mbz']:08x}u, GMMU_CSR_LEGAL_{r['legal'].upper()}, "
                   f"0x{r['legal_max']:x}u, {ref}, GMMU_ERR_{r['legal_err']}, {_cond(regs, r)}u}}, \\")
    out += ["    }"]
    return out


def _md(text):
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|")


def md(regs):
    """Markdown register map with every field."""
    out = ["## Register map (32-bit registers, byte addresses; spec/gmmu.rdl)", "",
           "| address | name | access | description |", "|---|---|---|---|"]
    for r in regs:
        out.append(f"| 0x{r['addr']:03x} | [{r['name']}](#{r['name'].lower()}) | {r['access']} | {_md(r['desc'])} |")
    out += ["", "Bits covered by no field are ignored on write and read as 0. A write with an `mbz` "
            "bit set, or one that breaks the register's legality rule, is ignored and sets the "
            "named ERR_STATUS bit.", ""]
    for r in regs:
        rule = f"; present only if {r['present_if']} != 0 (else unmapped)" if r["present_if"] else ""
        if r["legal"] == "lt_ref":
            rule += f"; legal: value < {r['legal_ref']}, else {r['legal_err']}"
        elif r["legal"] != "any":
            rule += f"; legal: {r['legal']} {r['legal_max']}, else {r['legal_err']}"
        out += [f"### {r['name']}", "",
                f"0x{r['addr']:03x}, {r['access']}: {r['title']}{rule}", "",
                "| bits | field | sw | reset | description |", "|---|---|---|---|---|"]
        for f in sorted(r["fields"], key=lambda x: -x["lsb"]):
            hi = f["lsb"] + f["width"] - 1
            bits = f"[{hi}:{f['lsb']}]" if f["width"] > 1 else f"[{f['lsb']}]"
            sw = "mbz" if f["mbz"] else ("w1c" if f["woclr"] else f["sw"])
            out.append(f"| {bits} | {f['name']} | {sw} | 0x{f['reset']:x} | {_md(f['desc'])} |")
        out.append("")
    return out
