/*
 * board_link.c - UARTBone client over a serial line (see board_link.h).
 */
#define _DEFAULT_SOURCE
#include "board_link.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "err.h"

enum { CMD_WRITE_INCR = 0x01, CMD_READ_INCR = 0x02, CMD_WRITE_FIXED = 0x03, CMD_READ_FIXED = 0x04 };

struct blink {
    int fd;
    uint32_t timeout_ms;
    int failed;
    char msg[256];
    uint32_t post_addr; /* first address of the pending burst */
    uint32_t post_n;
    uint32_t post[BLINK_MAX_BURST];
    uint64_t commands, bytes;
    blink_cls_t cls;
    uint64_t cls_commands[BLINK_NCLS], cls_bytes[BLINK_NCLS], cls_reads[BLINK_NCLS];
};

static int fail(blink_t *l, const char *what) {
    if (!l->failed)
        snprintf(l->msg, sizeof l->msg, "%s", what);
    l->failed = 1;
    return -1;
}

static speed_t baud_const(uint32_t baud) {
    switch (baud) {
    case 9600:
        return B9600;
    case 19200:
        return B19200;
    case 38400:
        return B38400;
    case 57600:
        return B57600;
    case 115200:
        return B115200;
    case 230400:
        return B230400;
    case 460800:
        return B460800;
    case 921600:
        return B921600;
    case 1000000:
        return B1000000;
    case 2000000:
        return B2000000;
    case 3000000:
        return B3000000;
    default:
        return B0;
    }
}

blink_t *blink_open(const char *path, uint32_t baud, uint32_t timeout_ms, char *err,
                    size_t errlen) {
    speed_t sp = B0;
    if (baud && (sp = baud_const(baud)) == B0) {
        err_setf(err, errlen, "board link: baud rate %u is not one of 9600 .. 3000000", baud);
        return NULL;
    }
    const int fd = open(path, O_RDWR | O_NOCTTY);
    if (fd < 0) {
        err_setf(err, errlen, "board link: cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct termios t;
    if (tcgetattr(fd, &t) != 0) {
        err_setf(err, errlen, "board link: %s is not a terminal: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    cfmakeraw(&t);
    t.c_cflag |= CLOCAL | CREAD;
    if (sp != B0 && (cfsetispeed(&t, sp) != 0 || cfsetospeed(&t, sp) != 0)) {
        err_setf(err, errlen, "board link: %s: cannot set %u baud", path, baud);
        close(fd);
        return NULL;
    }
    if (tcsetattr(fd, TCSANOW, &t) != 0) {
        err_setf(err, errlen, "board link: %s: cannot set raw mode: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    (void)tcflush(fd, TCIOFLUSH);
    blink_t *l = calloc(1, sizeof(*l));
    if (!l) {
        err_setf(err, errlen, "out of memory");
        close(fd);
        return NULL;
    }
    l->fd = fd;
    l->timeout_ms = timeout_ms ? timeout_ms : 1000;
    return l;
}

void blink_close(blink_t *l) {
    if (!l)
        return;
    (void)blink_flush(l);
    close(l->fd);
    free(l);
}

const char *blink_error(const blink_t *l) {
    return l->failed ? l->msg : "no error";
}

uint64_t blink_commands(const blink_t *l) {
    return l->commands;
}

uint64_t blink_bytes(const blink_t *l) {
    return l->bytes;
}

blink_cls_t blink_set_class(blink_t *l, blink_cls_t cls) {
    const blink_cls_t old = l->cls;
    if (cls != old)
        (void)blink_flush(l); /* a failure stays recorded: the next access reports it */
    l->cls = cls < BLINK_NCLS ? cls : BLINK_CLS_SETUP;
    return old;
}

uint64_t blink_class_commands(const blink_t *l, blink_cls_t cls) {
    return cls < BLINK_NCLS ? l->cls_commands[cls] : 0;
}

uint64_t blink_class_reads(const blink_t *l, blink_cls_t cls) {
    return cls < BLINK_NCLS ? l->cls_reads[cls] : 0;
}

uint64_t blink_class_bytes(const blink_t *l, blink_cls_t cls) {
    return cls < BLINK_NCLS ? l->cls_bytes[cls] : 0;
}

static int send_all(blink_t *l, const uint8_t *b, size_t n) {
    while (n) {
        const ssize_t w = write(l->fd, b, n);
        if (w < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (w <= 0)
            return fail(l, "board link: write to the serial line failed");
        b += w;
        n -= (size_t)w;
        l->bytes += (uint64_t)w;
        l->cls_bytes[l->cls] += (uint64_t)w;
    }
    return 0;
}

static int recv_all(blink_t *l, uint8_t *b, size_t n) {
    while (n) {
        struct pollfd p = {l->fd, POLLIN, 0};
        const int r = poll(&p, 1, (int)l->timeout_ms);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            return fail(l, "board link: no answer from the board (timeout)");
        const ssize_t g = r > 0 ? read(l->fd, b, n) : -1;
        if (g < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (g <= 0)
            return fail(l, "board link: read from the serial line failed");
        b += g;
        n -= (size_t)g;
        l->bytes += (uint64_t)g;
        l->cls_bytes[l->cls] += (uint64_t)g;
    }
    return 0;
}

/* command header: cmd, length, word address (big-endian) */
static void header(uint8_t *h, int cmd, uint32_t n, uint32_t addr) {
    const uint32_t wa = addr >> 2;
    h[0] = (uint8_t)cmd;
    h[1] = (uint8_t)n;
    h[2] = (uint8_t)(wa >> 24);
    h[3] = (uint8_t)(wa >> 16);
    h[4] = (uint8_t)(wa >> 8);
    h[5] = (uint8_t)wa;
}

static int write_now(blink_t *l, uint32_t addr, const uint32_t *words, uint32_t n, int fixed) {
    uint8_t b[6 + 4 * BLINK_MAX_BURST];
    while (n) {
        const uint32_t k = n > BLINK_MAX_BURST ? BLINK_MAX_BURST : n;
        header(b, fixed ? CMD_WRITE_FIXED : CMD_WRITE_INCR, k, addr);
        for (uint32_t i = 0; i < k; i++) {
            b[6 + 4 * i] = (uint8_t)(words[i] >> 24);
            b[7 + 4 * i] = (uint8_t)(words[i] >> 16);
            b[8 + 4 * i] = (uint8_t)(words[i] >> 8);
            b[9 + 4 * i] = (uint8_t)words[i];
        }
        l->commands++;
        l->cls_commands[l->cls]++;
        if (send_all(l, b, 6 + 4 * (size_t)k) != 0)
            return -1;
        words += k;
        n -= k;
        if (!fixed)
            addr += 4 * k;
    }
    return 0;
}

int blink_flush(blink_t *l) {
    if (l->failed)
        return -1;
    if (!l->post_n)
        return 0;
    const uint32_t n = l->post_n;
    l->post_n = 0;
    return write_now(l, l->post_addr, l->post, n, 0);
}

int blink_post(blink_t *l, uint32_t addr, uint32_t value) {
    if (l->failed)
        return -1;
    if (l->post_n && (addr != l->post_addr + 4 * l->post_n || l->post_n == BLINK_MAX_BURST) &&
        blink_flush(l) != 0)
        return -1;
    if (!l->post_n)
        l->post_addr = addr;
    l->post[l->post_n++] = value;
    return 0;
}

int blink_write(blink_t *l, uint32_t addr, const uint32_t *words, uint32_t n, int fixed) {
    if (blink_flush(l) != 0)
        return -1;
    return write_now(l, addr, words, n, fixed);
}

int blink_read(blink_t *l, uint32_t addr, uint32_t *words, uint32_t n, int fixed) {
    if (blink_flush(l) != 0)
        return -1;
    uint8_t b[4 * BLINK_MAX_BURST];
    while (n) {
        const uint32_t k = n > BLINK_MAX_BURST ? BLINK_MAX_BURST : n;
        uint8_t h[6];
        header(h, fixed ? CMD_READ_FIXED : CMD_READ_INCR, k, addr);
        l->commands++;
        l->cls_commands[l->cls]++;
        l->cls_reads[l->cls]++;
        if (send_all(l, h, sizeof h) != 0 || recv_all(l, b, 4 * (size_t)k) != 0)
            return -1;
        for (uint32_t i = 0; i < k; i++)
            words[i] = (uint32_t)b[4 * i] << 24 | (uint32_t)b[4 * i + 1] << 16 |
                       (uint32_t)b[4 * i + 2] << 8 | b[4 * i + 3];
        words += k;
        n -= k;
        if (!fixed)
            addr += 4 * k;
    }
    return 0;
}

int blink_read32(blink_t *l, uint32_t addr, uint32_t *value) {
    return blink_read(l, addr, value, 1, 0);
}
