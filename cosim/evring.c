#include "evring.h"

#include "gmmu_consts.h"
#include "host_drv.h"

static const char *cmd_name(uint32_t op) {
    static const char *const names[] = {"NOP",        "REPLAY_PAGE", "REPLAY_ALL",
                                        "INVAL_PAGE", "INVAL_ALL",   "CANCEL_PAGE"};
    return op < 6 ? names[op] : "?";
}

static void print_one(const evr_ent_t *e, FILE *f) {
    char b[16];
    const unsigned long long x = (unsigned long long)e->x, y = (unsigned long long)e->y;
    fprintf(f, "    %10llu  ", (unsigned long long)e->cycle);
    switch ((evr_kind_t)e->kind) {
    case EVR_REQ:
        fprintf(f, "req      sm %u port %u id %u vpn 0x%llx %s\n", e->a, e->b, e->c, x,
                y ? "write" : "read");
        break;
    case EVR_HIT:
        fprintf(f, "hit      sm %u port %u id %u ppn 0x%llx\n", e->a, e->b, e->c, x);
        break;
    case EVR_MISS:
        fprintf(f, "miss-rsp sm %u id %u ppn 0x%llx%s\n", e->a, e->c, x, y ? " FATAL" : "");
        break;
    case EVR_MEM_REQ:
        fprintf(f, "mem-req  id %u addr 0x%llx\n", e->c, x);
        break;
    case EVR_MEM_RSP:
        fprintf(f, "mem-rsp  id %u data 0x%llx\n", e->c, x);
        break;
    case EVR_FB_WR:
        fprintf(f, "fb-write addr 0x%llx vpn 0x%llx flags 0x%08x\n", x, y, e->c);
        break;
    case EVR_CSR_RD:
        fprintf(f, "csr-read  %-11s -> 0x%llx\n", hdrv_csr_name(e->c, b, sizeof(b)), x);
        break;
    case EVR_CSR_WR:
        if (e->c == GMMU_CSR_CMD)
            fprintf(f, "csr-write %-11s <- 0x%llx (%s)\n", "CMD", x, cmd_name((uint32_t)x));
        else
            fprintf(f, "csr-write %-11s <- 0x%llx\n", hdrv_csr_name(e->c, b, sizeof(b)), x);
        break;
    case EVR_DMA_SUB:
        fprintf(f, "dma-submit %s #%u src 0x%llx dst 0x%llx pages %u\n", e->a ? "D2H" : "H2D", e->c,
                x, y, e->b);
        break;
    case EVR_DMA_DONE:
        fprintf(f, "dma-done   %s #%u\n", e->a ? "D2H" : "H2D", e->c);
        break;
    case EVR_PTE_WR:
        fprintf(f, "pte-write pa 0x%llx <- 0x%llx\n", x, y);
        break;
    case EVR_HDL:
        fprintf(f, "handler %s\n", e->a ? "enter" : "leave");
        break;
    case EVR_CHAOS:
        fprintf(f, "chaos    %s vpn 0x%llx\n", cmd_name(e->c), x);
        break;
    case EVR_KERNEL:
        fprintf(f, "kernel   #%u starts\n", e->c);
        break;
    }
}

void evr_print(const evr_t *r, FILE *f) {
    const uint64_t n = r->n < EVR_SIZE ? r->n : EVR_SIZE;
    fprintf(f, "  last %llu transactions (cycle, event):\n", (unsigned long long)n);
    for (uint64_t i = r->n - n; i < r->n; i++)
        print_one(&r->e[i % EVR_SIZE], f);
}
