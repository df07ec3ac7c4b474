#!/usr/bin/env python3
"""make fpga-sim-litex: LiteX's own UARTBone client (litex.tools.remote.comm_uart.CommUART, the
one litex_server uses) against the simulated board: the protocol is LiteX's, not a look-alike.

Usage: litex_check.py PTY   (board-sim running on PTY)
Reads the board ID and parameters and two GMMU CSRs, writes and reads back a PTE and a content
tag with incrementing bursts. Exit 0 if every value is as expected.
"""
import sys

try:
    from litex.tools.remote.comm_uart import CommUART
except ImportError:
    sys.exit("fpga-sim-litex: LiteX is not installed (python3 -m pip install litex)")

GMMU_ID = 0x474D4D55  # gmmu_top CSR 0x000 (docs/gen/regmap.md)


def main():
    c = CommUART(sys.argv[1], baudrate=115200)
    c.open()
    checks = []
    checks.append(("board ID", c.read(0x0), 0x474D4D42))
    params = c.read(0x4, 2)
    checks.append(("PARAMS0 NumSm", params[0] >> 24, 2))
    checks.append(("GMMU ID CSR", c.read(0x10000), GMMU_ID))
    c.write(0x100008, [0x11223344, 0x55667788])
    got = c.read(0x100008, 2)
    checks.append(("PTE low", got[0], 0x11223344))
    checks.append(("PTE high", got[1], 0x55667788))
    c.write(0x40010, [0xCAFEF00D, 0x0BADC0DE])
    got = c.read(0x40010, 2)
    checks.append(("tag low", got[0], 0xCAFEF00D))
    checks.append(("tag high", got[1], 0x0BADC0DE))
    c.close()
    bad = [(n, g, w) for n, g, w in checks if g != w]
    for n, g, w in checks:
        print(f"fpga-sim-litex: {n:14} 0x{g:08x} {'ok' if g == w else f'WRONG (want 0x{w:08x})'}")
    if bad:
        sys.exit(1)
    print("fpga-sim-litex: LiteX CommUART talks to the board: PASS")


if __name__ == "__main__":
    main()
