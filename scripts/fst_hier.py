#!/usr/bin/env python3
"""Read the hierarchy of an FST file (scopes, variables, enum tables) without a C library.

fst2vcd (gtkwave) drops the FST attributes, among them the enum tables that Verilator writes for
every enum-typed signal (FST_MT_ENUMTABLE: state names of the FSMs). This reader decodes the
hierarchy section of the file itself (gzip or LZ4 block compression, the format of gtkwave's
fstapi.c) and yields every variable with the enum table it refers to, if any.

Usage (a listing, for debugging): fst_hier.py WAVE.fst
Library: hierarchy(path) -> (vars, enums): vars = [(scope path tuple, name, width, enum or None)],
enums = {handle: (enum name, [(value bits, literal), ...])}.
"""
import struct
import sys
import zlib

BL_HIER, BL_HIER_LZ4, BL_HIER_LZ4DUO, BL_SKIP = 4, 6, 7, 255
ST_ATTRBEGIN, ST_ATTREND, ST_SCOPE, ST_UPSCOPE = 252, 253, 254, 255
AT_MISC, MT_ENUMTABLE = 0, 7


def lz4_block(src, size):
    """Decompress one LZ4 block (the raw block format, no frame) of size bytes."""
    out = bytearray()
    i = 0
    while i < len(src):
        tok = src[i]
        i += 1
        n = tok >> 4
        if n == 15:
            while True:
                b = src[i]
                i += 1
                n += b
                if b != 255:
                    break
        out += src[i:i + n]
        i += n
        if i >= len(src) or len(out) >= size:
            break
        off = src[i] | src[i + 1] << 8
        i += 2
        m = tok & 15
        if m == 15:
            while True:
                b = src[i]
                i += 1
                m += b
                if b != 255:
                    break
        m += 4
        start = len(out) - off
        if off <= 0 or start < 0:
            raise ValueError("bad LZ4 match offset")
        for k in range(m):  # may overlap its own output
            out.append(out[start + k])
    return bytes(out[:size])


def varint(buf, i):
    v = shift = 0
    while True:
        b = buf[i]
        i += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, i


def cstr(buf, i):
    end = buf.index(0, i)
    return buf[i:end].decode("utf-8", "replace"), end + 1


def hier_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos + 9 <= len(data):
        typ = data[pos]
        seclen = struct.unpack(">Q", data[pos + 1:pos + 9])[0]
        if typ in (BL_HIER, BL_HIER_LZ4, BL_HIER_LZ4DUO):
            uclen = struct.unpack(">Q", data[pos + 9:pos + 17])[0]
            body = data[pos + 17:pos + 1 + seclen]
            if typ == BL_HIER:
                return zlib.decompress(body, 16 + zlib.MAX_WBITS)[:uclen]
            if typ == BL_HIER_LZ4:
                return lz4_block(body, uclen)
            uclen2, k = varint(body, 0)
            return lz4_block(lz4_block(body[k:], uclen2), uclen)
        if seclen == 0:
            break
        pos += 1 + seclen
    raise ValueError(f"{path}: no hierarchy section (not an FST file, or not closed)")


def parse_enum(s):
    """'name count lit1 .. litN val1 .. valN' (fstWriterCreateEnumTable) -> (name, [(val, lit)])."""
    tok = s.split(" ")
    name, n = tok[0], int(tok[1])
    lits, vals = tok[2:2 + n], tok[2 + n:2 + 2 * n]
    return name, list(zip(vals, lits))


def hierarchy(path):
    h = hier_bytes(path)
    i, scope, out, enums, pending = 0, [], [], {}, None
    while i < len(h):
        tag = h[i]
        i += 1
        if tag == ST_SCOPE:
            i += 1  # scope type
            name, i = cstr(h, i)
            _, i = cstr(h, i)  # component
            scope.append(name)
        elif tag == ST_UPSCOPE:
            scope.pop()
        elif tag == ST_ATTRBEGIN:
            atyp, sub = h[i], h[i + 1]
            name, i = cstr(h, i + 2)
            arg, i = varint(h, i)
            if atyp == AT_MISC and sub == MT_ENUMTABLE:
                if name:
                    enums[arg] = parse_enum(name)
                pending = arg  # the next variable uses this table
        elif tag == ST_ATTREND:
            pass
        else:  # a variable: type tag, direction, name, length, alias
            i += 1
            name, i = cstr(h, i)
            width, i = varint(h, i)
            _, i = varint(h, i)
            out.append((tuple(scope), name.split(" ")[0], width, pending))
            pending = None
    return out, enums


def changes(path, names):
    """Value changes of the named variables ("TOP.mismatch", "TOP.gmmu_top.hit_ppn_o"):
    {name: [(time, value string), ...]}, read through fst2vcd (shipped with gtkwave). A vector's
    value is the VCD bit string without its "b"."""
    return scan(path, names)[0]


def scan(path, names):
    """(changes(path, names), the last time stamp of the file)."""
    import subprocess

    want, ids, scope = set(names), {}, []
    out = {n: [] for n in names}
    proc = subprocess.Popen(["fst2vcd", path], stdout=subprocess.PIPE, text=True, errors="replace")
    t = 0
    header = True
    for line in proc.stdout:
        if header:
            tok = line.split()
            if not tok:
                continue
            if tok[0] == "$scope":
                scope.append(tok[2])
            elif tok[0] == "$upscope":
                scope.pop()
            elif tok[0] == "$var":
                full = ".".join(scope + [tok[4]])
                if full in want:
                    ids.setdefault(tok[3], []).append(full)
            elif tok[0] == "$enddefinitions":
                header = False
            continue
        c = line[:1]
        if c == "#":
            t = int(line[1:])
        elif c in "bBrR":
            val, _, code = line[1:].rstrip("\n").partition(" ")
            for n in ids.get(code, ()):
                out[n].append((t, val))
        elif c in "01xzXZ":
            for n in ids.get(line[1:].rstrip("\n"), ()):
                out[n].append((t, c))
    proc.wait()
    if proc.returncode != 0:
        raise ValueError(f"{path}: fst2vcd failed (exit {proc.returncode})")
    return out, t


def value_at(ch, t):
    """The value of a change list at time t (the last change at or before t), or None."""
    v = None
    for ct, cv in ch:
        if ct > t:
            break
        v = cv
    return v


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fst_hier.py WAVE.fst")
    vs, enums = hierarchy(sys.argv[1])
    for path, name, width, e in vs:
        tail = f"  enum {enums[e][0]}" if e in enums else ""
        print(f"{'.'.join(path)}.{name} {width}{tail}")


if __name__ == "__main__":
    main()
