// board_sim.cpp - the whole board top (gmmu_board: GMMU, memories, player, UART bridge) in
// Verilator, its UART lines connected bit by bit to a pseudo-terminal, so the host program
// (gmmu-board) talks to it exactly as to a board's USB serial port (docs/fpga.md, make fpga-sim).
//
//   board-sim [--pty-link FILE] [--max-cycles N] [--stats FILE]
// prints "board-sim: pty /dev/pts/N" (and writes the path to FILE), then clocks the board until
// the host closes the terminal after having used it, SIGTERM/SIGINT, or N cycles.
// The bit time is the model's ClkDiv parameter (BOARD_CLK_DIV; the pty has no baud rate).
//
// Host-zero-time clock (docs/fpga.md "Throughput on the board model"): the simulator follows the
// UARTBone commands the host sends (as the bridge parses them) and so knows when the host waits
// for answer bytes. When the line to the board is idle and the host owes no answer wait, the
// host is computing: the clock stops until its next byte (its computing time counts zero board
// cycles). So a run's board cycles are a pure function of the trace, the options and ClkDiv (no
// wall-clock race between the two processes), and count what the board and the link take.
// --stats FILE writes the cycle split (JSON): line busy each way, GMMU busy, irq, player busy.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include "Vgmmu_board.h"
#include "Vgmmu_board___024root.h"
#include "verilated.h"

#ifndef BOARD_CLK_DIV
#error "BOARD_CLK_DIV (the model's ClkDiv) must be defined"
#endif

namespace {

volatile sig_atomic_t g_stop = 0; // set by the signal handler only
void on_signal(int) {
    g_stop = 1;
}

struct Pty {
    int master = -1;
    int slave = -1; // kept open until the host's first byte, so an early host close is no EOF
    char path[128] = {0};
};

bool pty_open(Pty &p) {
    p.master = posix_openpt(O_RDWR | O_NOCTTY);
    if (p.master < 0 || grantpt(p.master) != 0 || unlockpt(p.master) != 0)
        return false;
    const char *n = ptsname(p.master);
    if (!n)
        return false;
    snprintf(p.path, sizeof p.path, "%s", n);
    p.slave = open(p.path, O_RDWR | O_NOCTTY);
    if (p.slave < 0)
        return false;
    struct termios t;
    if (tcgetattr(p.slave, &t) != 0)
        return false;
    cfmakeraw(&t);
    if (tcsetattr(p.slave, TCSANOW, &t) != 0)
        return false;
    const int fl = fcntl(p.master, F_GETFL);
    return fl >= 0 && fcntl(p.master, F_SETFL, fl | O_NONBLOCK) == 0;
}

// The host side of the serial line: shifts bytes into rx_i, samples bytes from tx_o.
struct Line {
    std::deque<unsigned char> to_board;
    int rx_bits_left = 0; // bits of the current frame still to drive (10 = start .. stop)
    unsigned rx_frame = 0;
    int rx_cnt = 0;
    int tx_state = 0; // 0 idle, 1 receiving a frame
    int tx_cnt = 0, tx_bit = 0;
    unsigned tx_byte = 0;
};

// The UARTBone commands of the host, parsed as the bridge parses them (gmmu_board_bridge.sv):
// how many answer bytes the host is waiting for.
struct Proto {
    int state = 0; // 0 cmd, 1 length, 2..5 address, 6 write data
    unsigned cmd = 0, len = 0;
    unsigned long long data_left = 0; // write data bytes still to come
    unsigned long long answer = 0;    // answer bytes the host still waits for
    void host_byte(unsigned char b) {
        switch (state) {
        case 0:
            cmd = b;
            state = 1;
            break;
        case 1:
            len = b;
            state = 2;
            break;
        case 5:
            state = 0;
            if (len == 0)
                break;
            if (cmd == 0x01 || cmd == 0x03) {
                data_left = 4ull * len;
                state = 6;
            } else if (cmd == 0x02 || cmd == 0x04) {
                answer += 4ull * len;
            }
            break;
        case 6:
            if (--data_left == 0)
                state = 0;
            break;
        default: // address bytes
            state++;
            break;
        }
    }
};

// cycles by what the board and the line were doing (--stats)
struct Split {
    unsigned long long rx = 0, tx = 0, link = 0; // line busy to the board, from it, either
    unsigned long long gmmu_busy = 0, irq = 0, player_busy = 0;
    unsigned long long c_irq = 0, c_gmmu = 0, c_player = 0, c_idle = 0; // exclusive, in order
};

} // namespace

int main(int argc, char **argv) {
    const char *link = nullptr, *stats = nullptr;
    unsigned long long max_cycles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pty-link") && i + 1 < argc)
            link = argv[++i];
        else if (!strcmp(argv[i], "--max-cycles") && i + 1 < argc)
            max_cycles = strtoull(argv[++i], nullptr, 10);
        else if (!strcmp(argv[i], "--stats") && i + 1 < argc)
            stats = argv[++i];
        else {
            fprintf(stderr, "usage: board-sim [--pty-link FILE] [--max-cycles N] [--stats FILE]\n");
            return 2;
        }
    }
    Pty pty;
    if (!pty_open(pty)) {
        fprintf(stderr, "board-sim: cannot open a pseudo-terminal: %s\n", strerror(errno));
        return 1;
    }
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    printf("board-sim: pty %s (bit time %d cycles)\n", pty.path, BOARD_CLK_DIV);
    fflush(stdout);
    if (link) {
        FILE *f = fopen(link, "w");
        if (!f || fprintf(f, "%s\n", pty.path) < 0 || fclose(f) != 0) {
            fprintf(stderr, "board-sim: cannot write %s\n", link);
            return 1;
        }
    }

    VerilatedContext ctx;
    Vgmmu_board top(&ctx);
    // asynchronous reset: a falling edge of rst_ni (the model starts with every input 0)
    top.clk_i = 0;
    top.uart_rx_i = 1;
    top.rst_ni = 1;
    top.eval();
    top.rst_ni = 0;
    top.eval();
    for (int i = 0; i < 4; i++) {
        top.clk_i = 1;
        top.eval();
        top.clk_i = 0;
        top.eval();
    }
    top.rst_ni = 1;
    top.eval();

    Line ln;
    Proto proto;
    Split sp;
    const int div = BOARD_CLK_DIV;
    unsigned long long cyc = 0, bytes_in = 0, bytes_out = 0;
    bool host_seen = false, host_gone = false;
    unsigned char buf[256];
    // n bytes the host wrote (in buf): queued for the line, seen by the protocol tracker
    auto take_host_bytes = [&](ssize_t n) {
        for (ssize_t i = 0; i < n; i++) {
            ln.to_board.push_back(buf[i]);
            proto.host_byte(buf[i]);
        }
        bytes_in += (unsigned long long)n;
    };
    while (!g_stop && !host_gone && (max_cycles == 0 || cyc < max_cycles)) {
        // the line to the board idle and no answer owed: the host computes (zero board time):
        // the clock waits for its next byte, or for its close of the terminal
        if (ln.to_board.empty() && !ln.rx_bits_left && proto.answer == 0) {
            struct pollfd pfd = {pty.master, POLLIN, 0};
            if (poll(&pfd, 1, 100) <= 0)
                continue; // nothing yet (or a signal): check g_stop, wait again
            const ssize_t n = read(pty.master, buf, sizeof buf);
            if (n > 0) {
                take_host_bytes(n);
                if (!host_seen && pty.slave >= 0) {
                    close(pty.slave); // the host has the terminal open: its close ends the run
                    pty.slave = -1;
                }
                host_seen = true;
            } else if (n < 0 && errno == EIO) {
                host_gone = true;
            }
            continue;
        }
        // more host bytes of the same burst while the line is busy (they only queue: the next
        // frame starts when the current one ends, whether they came now or at the stop above)
        if ((cyc & 63) == 0 && proto.answer == 0) {
            const ssize_t n = read(pty.master, buf, sizeof buf);
            if (n > 0)
                take_host_bytes(n);
        }
        // drive rx_i
        if (ln.rx_bits_left == 0 && !ln.to_board.empty()) {
            ln.rx_frame = (1u << 9) | ((unsigned)ln.to_board.front() << 1); // stop, data, start
            ln.to_board.pop_front();
            ln.rx_bits_left = 10;
            ln.rx_cnt = div;
        }
        const bool rx_busy = ln.rx_bits_left != 0;
        top.uart_rx_i = rx_busy ? (ln.rx_frame & 1u) : 1;
        if (ln.rx_bits_left && --ln.rx_cnt == 0) {
            ln.rx_frame >>= 1;
            ln.rx_bits_left--;
            ln.rx_cnt = div;
        }
        // one clock cycle
        top.clk_i = 1;
        top.eval();
        top.clk_i = 0;
        top.eval();
        cyc++;
        // the cycle split (state after the edge: what the board does in the next cycle)
        const bool tx_busy = ln.tx_state != 0 || !top.uart_tx_o;
        const bool gbusy = !top.rootp->gmmu_board__DOT__idle;
        const bool irq = (top.led_o >> 1) & 1u, pbusy = top.led_o & 1u;
        sp.rx += rx_busy;
        sp.tx += tx_busy;
        sp.link += rx_busy || tx_busy;
        sp.gmmu_busy += gbusy;
        sp.irq += irq;
        sp.player_busy += pbusy;
        if (irq)
            sp.c_irq++;
        else if (gbusy)
            sp.c_gmmu++;
        else if (pbusy)
            sp.c_player++;
        else
            sp.c_idle++;
        // sample tx_o: start bit, then the middle of each data bit
        const int tx = top.uart_tx_o;
        if (ln.tx_state == 0) {
            if (!tx) {
                ln.tx_state = 1;
                ln.tx_cnt = div + div / 2;
                ln.tx_bit = 0;
                ln.tx_byte = 0;
            }
        } else if (--ln.tx_cnt == 0) {
            if (ln.tx_bit < 8) {
                ln.tx_byte |= (unsigned)tx << ln.tx_bit;
                ln.tx_bit++;
                ln.tx_cnt = div;
            } else { // middle of the stop bit
                const unsigned char b = (unsigned char)ln.tx_byte;
                while (write(pty.master, &b, 1) != 1 && errno == EAGAIN)
                    usleep(100);
                bytes_out++;
                if (proto.answer)
                    proto.answer--;
                ln.tx_state = 0;
            }
        }
    }
    top.final();
    if (stats) {
        FILE *f = fopen(stats, "w");
        if (!f ||
            fprintf(f,
                    "{\"clk_div\": %d, \"cycles\": %llu, \"bytes_in\": %llu, "
                    "\"bytes_out\": %llu,\n"
                    " \"line_to_board\": %llu, \"line_from_board\": %llu, "
                    "\"line_busy\": %llu,\n"
                    " \"gmmu_busy\": %llu, \"irq\": %llu, \"player_busy\": %llu,\n"
                    " \"split_irq\": %llu, \"split_gmmu\": %llu, \"split_player\": %llu, "
                    "\"split_idle\": %llu}\n",
                    div, cyc, bytes_in, bytes_out, sp.rx, sp.tx, sp.link, sp.gmmu_busy, sp.irq,
                    sp.player_busy, sp.c_irq, sp.c_gmmu, sp.c_player, sp.c_idle) < 0 ||
            fclose(f) != 0) {
            fprintf(stderr, "board-sim: cannot write %s\n", stats);
            return 1;
        }
    }
    printf("board-sim: %llu cycles, %llu bytes in, %llu bytes out, %s\n", cyc, bytes_in, bytes_out,
           host_gone ? "host closed the terminal"
           : g_stop  ? "stopped by signal"
                     : "cycle limit");
    if (pty.slave >= 0)
        close(pty.slave);
    close(pty.master);
    return 0;
}
