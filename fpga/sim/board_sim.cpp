// board_sim.cpp - the whole board top (gmmu_board: GMMU, memories, player, UART bridge) in
// Verilator, its UART lines connected bit by bit to a pseudo-terminal, so the host program
// (gmmu-board) talks to it exactly as to a board's USB serial port (docs/fpga.md, make fpga-sim).
//
//   board-sim [--pty-link FILE] [--max-cycles N]
// prints "board-sim: pty /dev/pts/N" (and writes the path to FILE), then clocks the board until
// the host closes the terminal after having used it, SIGTERM/SIGINT, or N cycles.
// The bit time is the model's ClkDiv parameter (a small value: the pty has no baud rate).
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
#include "verilated.h"

#ifndef BOARD_CLK_DIV
#error "BOARD_CLK_DIV (the model's ClkDiv) must be defined"
#endif

namespace {

volatile sig_atomic_t g_stop = 0;  // set by the signal handler only
void on_signal(int) { g_stop = 1; }

struct Pty {
    int master = -1;
    int slave = -1;  // kept open until the host's first byte, so an early host close is no EOF
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
    int rx_bits_left = 0;  // bits of the current frame still to drive (10 = start .. stop)
    unsigned rx_frame = 0;
    int rx_cnt = 0;
    int tx_state = 0;  // 0 idle, 1 receiving a frame
    int tx_cnt = 0, tx_bit = 0;
    unsigned tx_byte = 0;
};

}  // namespace

int main(int argc, char **argv) {
    const char *link = nullptr;
    unsigned long long max_cycles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pty-link") && i + 1 < argc)
            link = argv[++i];
        else if (!strcmp(argv[i], "--max-cycles") && i + 1 < argc)
            max_cycles = strtoull(argv[++i], nullptr, 10);
        else {
            fprintf(stderr, "usage: board-sim [--pty-link FILE] [--max-cycles N]\n");
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
    const int div = BOARD_CLK_DIV;
    unsigned long long cyc = 0, quiet = 0, bytes_in = 0, bytes_out = 0;
    bool host_seen = false, host_gone = false;
    unsigned char buf[256];
    while (!g_stop && !host_gone && (max_cycles == 0 || cyc < max_cycles)) {
        // host -> board bytes (non-blocking; block briefly when nothing has happened for a while)
        if ((cyc & 63) == 0) {
            // nothing on the line for a long time: wait for the host instead of spinning
            if (quiet > 1000000 && ln.to_board.empty() && !ln.rx_bits_left && !ln.tx_state) {
                struct pollfd pfd = {pty.master, POLLIN, 0};
                (void)poll(&pfd, 1, 10);
            }
            const ssize_t n = read(pty.master, buf, sizeof buf);
            if (n > 0) {
                for (ssize_t i = 0; i < n; i++)
                    ln.to_board.push_back(buf[i]);
                bytes_in += (unsigned long long)n;
                quiet = 0;
                if (!host_seen && pty.slave >= 0) {
                    close(pty.slave);  // the host has the terminal open: its close ends the run
                    pty.slave = -1;
                }
                host_seen = true;
            } else if (n < 0 && errno == EIO) {
                host_gone = true;
            }
        }
        // drive rx_i
        if (ln.rx_bits_left == 0 && !ln.to_board.empty()) {
            ln.rx_frame = (1u << 9) | ((unsigned)ln.to_board.front() << 1);  // stop, data, start
            ln.to_board.pop_front();
            ln.rx_bits_left = 10;
            ln.rx_cnt = div;
        }
        top.uart_rx_i = ln.rx_bits_left ? (ln.rx_frame & 1u) : 1;
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
        quiet++;
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
            } else {  // middle of the stop bit
                const unsigned char b = (unsigned char)ln.tx_byte;
                while (write(pty.master, &b, 1) != 1 && errno == EAGAIN)
                    usleep(100);
                bytes_out++;
                quiet = 0;
                ln.tx_state = 0;
            }
        }
    }
    top.final();
    printf("board-sim: %llu cycles, %llu bytes in, %llu bytes out, %s\n", cyc, bytes_in, bytes_out,
           host_gone ? "host closed the terminal" : g_stop ? "stopped by signal" : "cycle limit");
    if (pty.slave >= 0)
        close(pty.slave);
    close(pty.master);
    return 0;
}
