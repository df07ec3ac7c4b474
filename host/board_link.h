/*
 * board_link.h - the host end of the board's UART bridge (module blink_): LiteX's UARTBone wire
 * protocol over a serial device or a pseudo-terminal (docs/fpga.md, "Host link").
 *
 * Every address is a byte address of the board bus (as litex_cli shows it); the wire carries
 * the 32-bit word address. Posted writes (blink_post) are combined into one incrementing burst
 * while their addresses follow each other, and sent before any other operation, so the board
 * sees every access in program order. After the first failure (no answer, I/O error) every call
 * fails at once; blink_error() says why.
 */
#ifndef HOST_BOARD_LINK_H
#define HOST_BOARD_LINK_H

#include <stddef.h>
#include <stdint.h>

#define BLINK_MAX_BURST 255u /* words per UARTBone command (its length byte) */

/* What the link's traffic is for (the throughput split, docs/fpga.md "Throughput on the board
 * model"): every command's bytes are counted under the class set when it is sent. */
typedef enum {
    BLINK_CLS_SETUP, /* device init, the final page check, measurement reads */
    BLINK_CLS_POLL,  /* STATUS / ERR / REQ_FREE / RES_COUNT polls */
    BLINK_CLS_REQ,   /* requests pushed into the board's request FIFO */
    BLINK_CLS_RES,   /* reported accesses read from the result FIFO */
    BLINK_CLS_FAULT, /* the handler's fault service: ring, CSRs, page tables, content tags */
    BLINK_NCLS
} blink_cls_t;

typedef struct blink blink_t;

/* Opens the serial device or pty at path in raw mode (baud 0: leave the speed alone, e.g. a
 * pty). timeout_ms bounds the wait for each answer. NULL + err on failure. */
blink_t *blink_open(const char *path, uint32_t baud, uint32_t timeout_ms, char *err, size_t errlen);
void blink_close(blink_t *l);
/* n words from addr (fixed: n reads of the same address). 0 or -1. */
int blink_read(blink_t *l, uint32_t addr, uint32_t *words, uint32_t n, int fixed);
int blink_read32(blink_t *l, uint32_t addr, uint32_t *value);
/* n words to addr (fixed: n writes to the same address). 0 or -1. */
int blink_write(blink_t *l, uint32_t addr, const uint32_t *words, uint32_t n, int fixed);
/* A posted write: queued and combined with its neighbours, sent before the next other access
 * or by blink_flush. 0 or -1. */
int blink_post(blink_t *l, uint32_t addr, uint32_t value);
int blink_flush(blink_t *l);
const char *blink_error(const blink_t *l);
/* UARTBone commands and bytes exchanged so far */
uint64_t blink_commands(const blink_t *l);
uint64_t blink_bytes(const blink_t *l);
/* Sets the class of the following traffic (pending posted writes are sent first, under the
 * class they were posted in); returns the previous class. */
blink_cls_t blink_set_class(blink_t *l, blink_cls_t cls);
/* commands / bytes (both directions) sent under class cls so far */
uint64_t blink_class_commands(const blink_t *l, blink_cls_t cls);
uint64_t blink_class_bytes(const blink_t *l, blink_cls_t cls);
/* of those commands, reads: each a round trip (the host waits for the answer) */
uint64_t blink_class_reads(const blink_t *l, blink_cls_t cls);

#endif
