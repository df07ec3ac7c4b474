/* test_cmodel_harness.c - test bench around the C model (see test_cmodel_harness.h). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "test_cmodel_harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* the SV defaults of gmmu_top (spec/params.toml), equal to configs/tiny.cfg */
void th_params_tiny(gmmu_params_t *p) {
    const gmmu_params_t dflt = GMMU_PARAMS_DEFAULT_INIT;
    *p = dflt;
}

void th_params_paper(gmmu_params_t *p) {
    th_params_tiny(p);
    p->num_sm = 16;
    p->num_ports = 4;
    p->l1_entries = 128;
    p->l1_large_entries = 16;
    p->l1_req_entries = 16;
    p->l2_sets = 32;
    p->l2_ways = 16;
    p->l2_large_entries = 32;
    p->l2_latency = 10;
    p->l2_mshr_entries = 64;
    p->num_walkers = 64;
    p->ff_entries = 64;
    p->ff_quota = 4;
    p->num_asids = 1;
    p->pwc_entries = 0;
    p->pwc_latency = 1;
}

void th_init(th_t *h, const gmmu_params_t *p) {
    char err[256] = "";
    memset(h, 0, sizeof(*h));
    h->p = *p;
    h->m = gmmu_model_new(p, err, sizeof(err));
    if (!h->m)
        fail_msg("gmmu_model_new: %s", err);
    h->mem_lat = 1;
    h->mem_auto = 1;
    h->mem_ready = 1;
    h->fb_ready = 1;
    h->pt_base = 0x100000;
    h->next_table = 0x200000;
    gmmu_model_outputs(h->m, &h->out);
}

void th_done(th_t *h) {
    char first[256];
    const unsigned v = gmmu_model_violations(h->m, first, sizeof(first));
    gmmu_model_free(h->m);
    h->m = NULL;
    if (v)
        fail_msg("%u invariant violations, first: %s", v, first);
}

static int mem_find(const th_t *h, uint64_t addr) {
    for (unsigned i = 0; i < h->nmem; i++)
        if (h->mem_addr[i] == addr)
            return (int)i;
    return -1;
}

uint64_t th_mem_read(const th_t *h, uint64_t addr) {
    const int i = mem_find(h, addr);
    return i >= 0 ? h->mem_val[i] : 0;
}

void th_mem_write(th_t *h, uint64_t addr, uint64_t val) {
    const int i = mem_find(h, addr);
    if (i >= 0) {
        h->mem_val[i] = val;
        return;
    }
    assert_true(h->nmem < TH_MEM_MAX);
    h->mem_addr[h->nmem] = addr;
    h->mem_val[h->nmem++] = val;
}

static uint64_t idx(uint64_t vpn, unsigned level) {
    return (vpn >> (9u * (3u - level))) & 0x1ffu;
}

static uint64_t table_of(uint64_t pte) {
    return pte & 0xfffffffff000ull;
}

/* Returns the table of level `level` for vpn, creating upper levels as needed. */
static uint64_t walk_tables(th_t *h, uint64_t vpn, unsigned level) {
    uint64_t base = h->pt_base;
    for (unsigned l = 0; l < level; l++) {
        const uint64_t a = base + 8u * idx(vpn, l);
        uint64_t pte = th_mem_read(h, a);
        if (!(pte & (1u << GMMU_PTE_V))) {
            pte = h->next_table | (1u << GMMU_PTE_V);
            h->next_table += 0x1000;
            th_mem_write(h, a, pte);
        }
        base = table_of(pte);
    }
    return base;
}

uint64_t th_pte_addr(th_t *h, uint64_t vpn, unsigned level) {
    return walk_tables(h, vpn, level) + 8u * idx(vpn, level);
}

uint64_t th_map(th_t *h, uint64_t vpn, uint64_t ppn, uint64_t flags) {
    const uint64_t a = th_pte_addr(h, vpn, 3);
    th_mem_write(h, a, (ppn << GMMU_PTE_PPN_LSB) | flags);
    return a;
}

uint64_t th_map_large(th_t *h, uint64_t vpn, uint64_t ppn, uint64_t flags) {
    const uint64_t l2 = walk_tables(h, vpn, 2) + 8u * idx(vpn, 2);
    const uint64_t t = h->next_table;
    h->next_table += 0x1000;
    th_mem_write(h, l2, t | (1u << GMMU_PTE_V) | (1u << GMMU_PTE_L));
    th_mem_write(h, t, (ppn << GMMU_PTE_PPN_LSB) | flags);
    return t;
}

/* Full state of the model as text (gmmu_model_dump); caller frees. */
static char *state_text(const gmmu_model_t *m) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    gmmu_model_dump(m, f);
    fclose(f);
    return buf;
}

static int inputs_idle(const th_t *h) {
    if (h->in.mem_rsp_valid || h->in.csr_valid)
        return 0;
    for (uint32_t s = 0; s < h->p.num_sm; s++)
        for (uint32_t q = 0; q < h->p.num_ports; q++)
            if (h->in.req_valid[s][q])
                return 0;
    return 1;
}

void th_step(th_t *h) {
    gmmu_in_t *in = &h->in;
    /* memory: a read is transferred at this edge if valid && ready */
    in->mem_req_ready = (uint8_t)h->mem_ready;
    in->mem_rsp_valid = 0;
    in->mem_rsp_id = 0;
    in->mem_rsp_data = 0;
    if (h->mem_auto && h->nq && h->q[0].due <= h->cycle) {
        in->mem_rsp_valid = 1;
        in->mem_rsp_id = h->q[0].id;
        in->mem_rsp_data = h->q[0].data;
        memmove(&h->q[0], &h->q[1], (h->nq - 1u) * sizeof(h->q[0]));
        h->nq--;
    }
    if (h->out.mem_req_valid && in->mem_req_ready && h->out.mem_req_write) {
        /* no response; a set-bits write ORs into the word (§18.3) */
        th_mem_write(h, h->out.mem_req_addr,
                     h->out.mem_req_wdata |
                         (h->out.mem_req_setbits ? th_mem_read(h, h->out.mem_req_addr) : 0u));
        h->mem_writes++;
    } else if (h->out.mem_req_valid && in->mem_req_ready) {
        assert_true(h->nq < TH_Q_MAX);
        h->q[h->nq].id = h->out.mem_req_id;
        h->q[h->nq].data = th_mem_read(h, h->out.mem_req_addr);
        h->q[h->nq].due = h->cycle + h->mem_lat;
        h->nq++;
        if (h->mem_reqs < TH_LOG_MAX) {
            h->mem_req_cycle[h->mem_reqs] = h->cycle;
            h->mem_req_addr[h->mem_reqs] = h->out.mem_req_addr;
        }
        h->mem_reqs++;
    }
    in->fb_wr_ready = (uint8_t)h->fb_ready;
    if (h->out.fb_wr_valid && in->fb_wr_ready) {
        th_fb_t *e = &h->fb[h->nfb % TH_LOG_MAX]; /* circular */
        e->cycle = h->cycle;
        e->addr = h->out.fb_wr_addr;
        memcpy(e->data, h->out.fb_wr_data, sizeof(e->data));
        h->nfb++;
    }
    for (uint32_t s = 0; s < h->p.num_sm; s++) {
        if (h->out.miss_valid[s] && h->nmiss < TH_LOG_MAX) {
            th_miss_t *e = &h->miss[h->nmiss++];
            e->cycle = h->cycle;
            e->sm = s;
            e->id = h->out.miss_id[s];
            e->fatal = h->out.miss_fatal[s];
            e->ppn = h->out.miss_ppn[s];
            e->sys = h->out.miss_sys[s];
        }
    }
    for (unsigned b = 0; b < GMMU_EV_W; b++)
        if ((h->out.ev >> b) & 1u)
            h->ev_count[b]++;
    if (h->on_cycle)
        h->on_cycle(h->ctx, &h->out);
    /* gmmu_model_quiet promises that this edge changes no register: check it on the dump */
    char *before = inputs_idle(h) && gmmu_model_quiet(h->m) ? state_text(h->m) : NULL;
    gmmu_model_step(h->m, in);
    if (before) {
        char *after = state_text(h->m);
        if (strcmp(before, after) != 0) {
            fprintf(stderr, "quiet cycle %llu changed the state\nbefore:\n%s\nafter:\n%s",
                    (unsigned long long)h->cycle, before, after);
            fail_msg("gmmu_model_quiet was wrong at cycle %llu", (unsigned long long)h->cycle);
        }
        free(after);
        free(before);
        h->quiet_checked++;
    }
    /* one-shot inputs */
    memset(in->req_valid, 0, sizeof(in->req_valid));
    memset(in->req_vpn, 0, sizeof(in->req_vpn));
    memset(in->req_write, 0, sizeof(in->req_write));
    memset(in->req_id, 0, sizeof(in->req_id));
    memset(in->req_asid, 0, sizeof(in->req_asid));
    memset(in->req_line, 0, sizeof(in->req_line));
    in->csr_valid = 0;
    in->csr_write = 0;
    in->csr_addr = 0;
    in->csr_wdata = 0;
    h->cycle++;
    gmmu_model_outputs(h->m, &h->out);
}

void th_steps(th_t *h, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        th_step(h);
}

long th_run_until_idle(th_t *h, unsigned max) {
    for (unsigned i = 0; i < max; i++) {
        if (h->out.idle && !h->nq)
            return (long)h->cycle;
        th_step(h);
    }
    return -1;
}

void th_csr_write(th_t *h, uint32_t addr, uint32_t val) {
    h->in.csr_valid = 1;
    h->in.csr_write = 1;
    h->in.csr_addr = (uint16_t)addr;
    h->in.csr_wdata = val;
    th_step(h);
}

uint32_t th_csr_read(th_t *h, uint32_t addr) {
    h->in.csr_valid = 1;
    h->in.csr_write = 0;
    h->in.csr_addr = (uint16_t)addr;
    th_step(h);
    assert_int_equal(h->out.csr_rvalid, 1);
    const uint32_t v = h->out.csr_rdata;
    th_step(h);
    assert_int_equal(h->out.csr_rvalid, 0);
    assert_int_equal(h->out.csr_rdata, 0);
    return v;
}

void th_setup(th_t *h, uint64_t pt_base, uint64_t fb_base, uint32_t fb_size) {
    h->pt_base = pt_base;
    th_csr_write(h, GMMU_CSR_PT_BASE_LO, (uint32_t)pt_base);
    th_csr_write(h, GMMU_CSR_PT_BASE_HI, (uint32_t)(pt_base >> 32));
    th_csr_write(h, GMMU_CSR_FB_BASE_LO, (uint32_t)fb_base);
    th_csr_write(h, GMMU_CSR_FB_BASE_HI, (uint32_t)(fb_base >> 32));
    th_csr_write(h, GMMU_CSR_FB_SIZE, fb_size);
}

void th_cmd(th_t *h, uint32_t op, uint64_t vpn) {
    th_csr_write(h, GMMU_CSR_CMD_ARG_LO, (uint32_t)vpn);
    th_csr_write(h, GMMU_CSR_CMD_ARG_HI, (uint32_t)(vpn >> 32));
    th_csr_write(h, GMMU_CSR_CMD, op);
}

void th_req(th_t *h, uint32_t sm, uint32_t port, uint64_t vpn, int write, uint8_t id) {
    h->in.req_valid[sm][port] = 1;
    h->in.req_vpn[sm][port] = vpn;
    h->in.req_write[sm][port] = (uint8_t)(write != 0);
    h->in.req_id[sm][port] = id;
}
