/*
 * plat_cycle.c - the platform's cycle loop (see plat_int.h and docs/cosim.md, "The cycle").
 *
 * One cycle (plat_step): DMA completions due now are applied; the engines' outputs of the cycle
 * are read (and compared); responses are delivered to the SMs (each page is accessed and its
 * content tag checked as its translation arrives), fault-entry writes and PTE reads are
 * transferred; the inputs are computed (memory response due, SM requests, host CSR access); then
 * either the engines are clocked once, or - when idle_o is 1 (or every engine is quiet) and no
 * input is active - the clock jumps to the next platform event without clocking the engines.
 * Also here: kernel launches and the watchdog (the chaos agent: plat_co.c; the progress line and
 * the state dump: plat_report.c).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "gmmu_consts.h"
#include "plat_int.h"

_Static_assert(TRACE_VA_BITS == GMMU_VA_W, "the trace format's VA space is the GMMU's");

/* ------------------------------------------------------------------------------------------ */
/* kernels                                                                                    */

/* An allocation of address space a is kept (platform and handler) at the extended VA
 * a << TRACE_VA_BITS | base (docs/cosim.md "Address spaces"): space 0 keeps its plain VA. */
static void on_alloc(void *ctx, const trace_rec_t *trec) {
    plat_t *p = ctx;
    char err[256];
    if (p->halted)
        return;
    if (trace_rec_is_host(trec)) {
        plat_host_rec(p, trec);
        return;
    }
    const int no_asid = trec->space >= p->prm.num_asids;
    if (no_asid || (p->wl.part.n && trec->space >= p->wl.part.n)) {
        char why[128];
        if (no_asid)
            snprintf(why, sizeof(why), "the configuration has num_asids = %u", p->prm.num_asids);
        else
            snprintf(why, sizeof(why), "sm_partition gives SMs to spaces 0..%u only",
                     p->wl.part.n - 1u);
        plat_perr(p, "%s:%s%llu: field space: allocation %s is in address space %u, %s",
                  p->o.trace_path, p->wl.trace_binary ? "offset " : "",
                  (unsigned long long)trec->line, trec->name, trec->space, why);
        plat_halt(p, PLAT_EXIT_INPUT, "FAIL (bad trace)");
        return;
    }
    if (trec->space > 0)
        p->wl.multi = 1;
    trace_rec_t xrec = *trec;
    xrec.base |= (uint64_t)trec->space << TRACE_VA_BITS;
    const trace_rec_t *rec = &xrec;
    if (plat_preload_check_alloc(p, rec->name, rec->base, err, sizeof(err)) != 0) {
        plat_perr(p, "%s:%llu: %s", p->o.trace_path, (unsigned long long)rec->line, err);
        plat_halt(p, PLAT_EXIT_INPUT, "FAIL (bad trace)");
        return;
    }
    if (hdrv_add_alloc(p->hd.host, rec->name, rec->base, rec->size, rec->readonly, err,
                       sizeof(err)) != 0) {
        plat_perr(p, "%s:%s%llu: allocation %s: %s", p->o.trace_path,
                  p->wl.trace_binary ? "offset " : "", (unsigned long long)rec->line, rec->name,
                  err);
        plat_halt(p, PLAT_EXIT_INPUT, "FAIL (bad trace)");
        return;
    }
    if (plat_add_alloc(p, rec) != 0)
        plat_platform_error(p, "out of memory");
}

/* A failed read of the kernel's records (malformed record, exited warp, out of memory). */
static int kern_check(plat_t *p) {
    if (!p->wl.kern.error)
        return 0;
    plat_perr(p, "%s", p->wl.kern.err);
    plat_halt(p, PLAT_EXIT_INPUT, "FAIL (bad trace)");
    return -1;
}

int plat_declare_kernel(plat_t *p) {
    char err[512];
    const int rc = kern_stream_next(&p->wl.ks, &p->wl.kern, on_alloc, p, err, sizeof(err));
    if (p->halted)
        return -1;
    if (rc < 0) {
        plat_perr(p, "%s", err);
        plat_halt(p, PLAT_EXIT_INPUT, "FAIL (bad trace)");
        return -1;
    }
    if (rc == 0) {
        p->wl.kernel_active = 0;
        if (p->wl.ncalls && !p->wl.memcpy_mode) { /* the host performs them first */
            p->wl.calls_at_end = 1;
            p->wl.launch_due = 1;
            return 0;
        }
        p->wl.trace_done = 1;
    }
    return rc;
}

int plat_start_kernel(plat_t *p) {
    p->wl.kernels++;
    evr_add(&p->ring, p->now, EVR_KERNEL, 0, 0, (uint32_t)p->wl.kernels, 0, 0);
    for (uint32_t s = 0; s < p->prm.num_sm; s++)
        sm_start_kernel(&p->wl.sm[s], &p->wl.kern, p->now);
    if (kern_check(p) != 0)
        return -1;
    if (p->wl.kern.n_warps == 0 && kern_at_end(&p->wl.kern))
        return 0; /* empty kernel */
    p->wl.kernel_active = 1;
    p->wl.kernel_from = p->now;
    plat_progress_mark(p);
    return 1;
}

/* The running kernel has completed: its time counts in kernel_cycles. */
static void kernel_end(plat_t *p) {
    p->wl.kernel_cycles += p->now - p->wl.kernel_from;
    p->wl.kernel_active = 0;
}

void plat_next_kernel(plat_t *p) {
    if (p->wl.kernel_active)
        kernel_end(p);
    while (plat_declare_kernel(p) > 0) {
        /* host calls before it, or an object policy: the host launches it (svc_start) */
        if (p->wl.ncalls || p->prof) {
            p->wl.launch_due = 1;
            return;
        }
        if (plat_start_kernel(p) != 0)
            return;
    }
}

static int kernel_complete(const plat_t *p) {
    for (uint32_t s = 0; s < p->prm.num_sm; s++)
        if (!sm_kernel_done(&p->wl.sm[s], &p->wl.kern))
            return 0;
    return 1;
}

/* ------------------------------------------------------------------------------------------ */
/* responses                                                                                  */

/* A fatal fault is the program's (outside every allocation, a write to a read-only one) or a
 * valid access the handler could not serve (out of page-table pages): the platform knows the
 * allocations, so it decides without the handler's word. */
static void plat_classify_fatal(plat_t *p, uint64_t vpn, int write) {
    const plat_alloc_t *a = plat_find_alloc(p, vpn * PLAT_PAGE);
    if (!a || (a->ro && write))
        p->wl.program_faults++;
    else
        p->wl.failed_accesses++;
    /* CANCEL_PAGE cancels every request of the page (docs/microarch.md §4 (e)): a read of a
       read-only page cancelled with a write to it is the program's fault too (plat_collateral) */
    if (a && a->ro) {
        uint64_t v = 0;
        u64map_get(&p->wl.ro_cancels, vpn, &v);
        if (u64map_put(&p->wl.ro_cancels, vpn, write ? v | 1u : v + 2u) != 0)
            plat_platform_error(p, "out of memory");
    }
}

void plat_collateral(plat_t *p) {
    size_t pos = 0;
    uint64_t vpn = 0, v = 0;
    while (u64map_next(&p->wl.ro_cancels, &pos, &vpn, &v))
        if ((v & 1u) && v >= 2u) {
            p->wl.failed_accesses -= v >> 1;
            p->wl.program_faults += v >> 1;
        }
}

static void response(plat_t *p, uint32_t s, uint8_t id, uint64_t ppn, int fatal, int sys) {
    sm_resp_t r;
    if (sm_response(&p->wl.sm[s], &p->wl.kern, id, p->now, &r) != 0) {
        plat_platform_error(p, "SM %u: response with id %u, which is not outstanding", s, id);
        return;
    }
    if (kern_check(p) != 0)
        return;
    p->wl.translations++;
    plat_progress_mark(p);
    if (fatal) {
        p->wl.fatal_faults++;
        plat_classify_fatal(p, r.vpn, r.op != TRACE_OP_READ);
        if (!p->o.quiet && p->wl.fatal_faults <= PLAT_MAX_REPORTED) {
            const sm_warp_t *w = &p->wl.kern.warps[r.warp];
            plat_clear_progress(p);
            fprintf(stderr,
                    "gmmu-sim: fatal fault at cycle %llu: SM %u warp (cta %u, warp %u) trace pos "
                    "%llu %s vpn 0x%llx: access skipped\n",
                    (unsigned long long)p->now, s, w->cta, w->warp, (unsigned long long)r.line,
                    r.op == TRACE_OP_READ ? "read" : "write", (unsigned long long)r.vpn);
        }
    } else {
        p->ch.recent[p->ch.nrecent++ % PLAT_RECENT_PAGES] = r.vpn;
        plat_access_page(p, s, &r, ppn, sys);
    }
    if (r.instr_done)
        p->wl.instructions++;
}

/* Translation responses of this cycle (hit ports, then the miss port, per SM). */
static void deliver_responses(plat_t *p, const gmmu_out_t *o) {
    const uint32_t S = p->prm.num_sm, P = p->prm.num_ports;
    for (uint32_t s = 0; s < S; s++) {
        for (uint32_t q = 0; q < P; q++) {
            if (!o->hit_valid[s][q])
                continue;
            evr_add(&p->ring, p->now, EVR_HIT, (uint8_t)s, (uint16_t)q, o->hit_id[s][q],
                    o->hit_ppn[s][q], 0);
            p->wl.l1_hits++;
            response(p, s, o->hit_id[s][q], o->hit_ppn[s][q], 0, o->hit_sys[s][q]);
            if (p->halted)
                return;
        }
        if (o->miss_valid[s]) {
            evr_add(&p->ring, p->now, EVR_MISS, (uint8_t)s, 0, o->miss_id[s], o->miss_ppn[s],
                    o->miss_fatal[s]);
            p->wl.miss_rsps++;
            response(p, s, o->miss_id[s], o->miss_ppn[s], o->miss_fatal[s], o->miss_sys[s]);
            if (p->halted)
                return;
        }
    }
}

/* ev_o: events of the previous cycle. */
static void count_events(plat_t *p, uint32_t ev) {
    p->gmmu.l2_hits += (ev >> GMMU_EV_L2_HIT) & 1;
    p->gmmu.l2_misses += (ev >> GMMU_EV_L2_MISS) & 1;
    p->gmmu.walks += (ev >> GMMU_EV_WALK) & 1;
    p->gmmu.far_faults += (ev >> GMMU_EV_FF_NEW) & 1;
    p->gmmu.ff_merges += (ev >> GMMU_EV_FF_MERGE) & 1;
    p->gmmu.ff_drops += (ev >> GMMU_EV_FF_DROP) & 1;
    p->gmmu.fb_overflows += (ev >> GMMU_EV_FB_OVF) & 1;
    p->gmmu.l1_large_hit_cycles += (ev >> GMMU_EV_L1_LARGE_HIT) & 1;
    p->gmmu.l2_large_hits += (ev >> GMMU_EV_L2_LARGE_HIT) & 1;
    p->gmmu.walks_large += (ev >> GMMU_EV_WALK_LARGE) & 1;
    p->gmmu.co_done += (ev >> GMMU_EV_CO_DONE) & 1;
    p->gmmu.acc_notifies += (ev >> GMMU_EV_ACC_NOTIFY) & 1;
    p->gmmu.acc_overflows += (ev >> GMMU_EV_ACC_OVF) & 1;
    p->gmmu.bmp_wb += (ev >> GMMU_EV_BMP_WB) & 1;
    p->gmmu.bmp_lost += (ev >> GMMU_EV_BMP_LOST) & 1;
    const unsigned restart = (ev >> GMMU_EV_WALK_RESTART) & 1u;
    p->gmmu.walk_restarts += restart;
    if (restart)
        p->ch.restarted = 1; /* the chaos agent's streak (plat_chaos) */
}

/* ------------------------------------------------------------------------------------------ */
/* inputs, skipping, transfers                                                                */

static int ready_bit(uint64_t seed, uint64_t cycle, uint32_t pct) {
    if (pct >= 100)
        return 1;
    return rng_hash2(seed, cycle) % 100 < pct;
}

/* The SMs' requests of this cycle; returns 1 if some SM issued. *stalled = SMs held back by
 * req_ready. */
static int sm_inputs(plat_t *p, const gmmu_out_t *o, uint64_t *stalled) {
    gmmu_in_t *in = &p->in;
    int active = 0;
    for (uint32_t s = 0; s < p->prm.num_sm; s++) {
        if (!o->req_ready[s]) {
            sm_advance(&p->wl.sm[s], p->now); /* keeps sm_next_event short (sm_issue does it) */
            /* back-pressure while the GMMU is busy (not while it idles on far-faults, so that
               the count does not depend on idle skipping) */
            if (!o->idle && sm_wants_issue(&p->wl.sm[s], &p->wl.kern, p->now)) {
                p->wl.req_stalls++;
                (*stalled)++;
            }
            continue;
        }
        const uint32_t n = sm_issue(&p->wl.sm[s], &p->wl.kern, p->now, in->req_valid[s],
                                    in->req_vpn[s], in->req_write[s], in->req_id[s]);
        for (uint32_t q = 0; q < n; q++) { /* the extended VPN (sm.h): address space + VPN */
            in->req_asid[s][q] = (uint8_t)(in->req_vpn[s][q] >> KERN_SPACE_SHIFT);
            in->req_vpn[s][q] &= KERN_VPN_MASK;
            in->req_line[s][q] = sm_req_line(&p->wl.sm[s], &p->wl.kern, in->req_id[s][q]);
            if (p->prm.line_bitmap) /* the truth the table is checked against (§20) */
                plat_bmp_line(p, in->req_vpn[s][q], in->req_line[s][q]);
        }
        for (uint32_t q = 0; q < n; q++)
            evr_add(&p->ring, p->now, EVR_REQ, (uint8_t)s, (uint16_t)q, in->req_id[s][q],
                    in->req_vpn[s][q], in->req_write[s][q]);
        if (n) {
            active = 1;
            p->req_rows |= 1ull << s;
        }
    }
    return active;
}

/* Every input of this cycle; returns 1 if some input is active. */
static int compute_inputs(plat_t *p, const gmmu_out_t *o, uint64_t *stalled) {
    const uint32_t P = p->prm.num_ports;
    gmmu_in_t *in = &p->in;
    for (uint32_t s = 0; s < p->prm.num_sm; s++) {
        if (!(p->req_rows & (1ull << s)))
            continue;
        memset(in->req_valid[s], 0, P);
        memset(in->req_write[s], 0, P);
        memset(in->req_id[s], 0, P);
        memset(in->req_vpn[s], 0, P * sizeof(uint64_t));
        memset(in->req_asid[s], 0, P * sizeof(in->req_asid[s][0]));
        memset(in->req_line[s], 0, P * sizeof(in->req_line[s][0]));
    }
    p->req_rows = 0;
    in->time = plat_now_ns(p);
    in->mem_req_ready = (uint8_t)ready_bit(p->mem_ready_seed, p->now, p->cfg->mem_ready_pct);
    in->fb_wr_ready = (uint8_t)ready_bit(p->fb_ready_seed, p->now, p->cfg->fb_ready_pct);
    /* the notification port (docs/microarch.md §19.8) is served as the fault-buffer port */
    in->acc_wr_ready = in->fb_wr_ready;
    in->mem_rsp_valid = 0;
    in->mem_rsp_id = 0;
    in->mem_rsp_data = 0;
    int active = 0;
    uint8_t id;
    uint64_t data;
    /* --test-hang: from that cycle on the memory never answers (tests the watchdog) */
    const int mem_hung = p->o.hang_at && p->now >= p->o.hang_at;
    if (!mem_hung && gpumem_pop_due(&p->gm, p->now, &id, &data)) {
        in->mem_rsp_valid = 1;
        in->mem_rsp_id = id;
        in->mem_rsp_data = data;
        active = 1;
        evr_add(&p->ring, p->now, EVR_MEM_RSP, 0, 0, id, data, 0);
    }
    /* one address space: the SMs run while the host programs the device (as always); several:
       not before every ASID's page-table base is programmed */
    if (p->wl.kernel_active && (p->wl.online || !p->wl.multi) && sm_inputs(p, o, stalled))
        active = 1;
    in->csr_valid = (uint8_t)p->hd.csr_valid;
    in->csr_write = (uint8_t)p->hd.csr_write;
    in->csr_addr = (uint16_t)p->hd.csr_addr;
    in->csr_wdata = p->hd.csr_wdata;
    if (p->hd.csr_valid || plat_script_drive(p, in))
        active = 1;
    if (in->csr_valid && in->csr_write)
        plat_bmp_csr(p, in->csr_addr, in->csr_wdata);
    return active;
}

/* Next cycle > now at which something happens without an input to the engines: the earliest
 * event of the models (plat_models.c), the limit, --max-cycles. */
static uint64_t next_event(const plat_t *p, uint64_t limit) {
    uint64_t t = plat_models_next_event(p);
    if (limit < t)
        t = limit;
    if (p->o.max_cycles && p->o.max_cycles < t)
        t = p->o.max_cycles;
    return t;
}

/* Skipping: idle_o (every engine), or a quiet state of every engine (the GMMU only waits for
   page-table reads or far-faults; gmmu_model_quiet). Until the next event the outputs, the SMs'
   wishes to issue and so the stalls of this cycle stay the same. Returns 1 if time jumped. */
static int try_skip(plat_t *p, const gmmu_out_t *o, uint64_t stalled, uint64_t limit) {
    int quiet = p->quiet_skip;
    for (unsigned i = 0; i < p->neng && quiet && !o->idle; i++)
        quiet = p->eng[i]->ops->quiet(p->eng[i]);
    if (!o->idle && !quiet)
        return 0;
    const uint64_t t = next_event(p, limit);
    if (t <= p->now)
        return 0;
    p->wl.req_stalls += stalled * (t - p->now - 1u);
    p->now = t;
    return 1;
}

/* Handshakes at this edge: a PTE read or write, a fault-entry write. */
static void transfers(plat_t *p, const gmmu_out_t *o) {
    if (o->mem_req_valid && p->in.mem_req_ready && o->mem_req_write && plat_bmp_write(p, o)) {
        /* a referenced-line bitmap table write (§20.5): not a PTE write (plat_bmp.c) */
    } else if (o->mem_req_valid && p->in.mem_req_ready && o->mem_req_write) {
        /* a PTE write of the coalesce unit, or a walker's set-bits write (an atomic OR of ACC /
         * DRT, §18.3): performed now, no response (§15.2) */
        uint64_t v = o->mem_req_wdata, old = 0;
        if (o->mem_req_setbits && gpumem_read64(&p->gm, o->mem_req_addr, &old) == 0)
            v |= old;
        evr_add(&p->ring, p->now, EVR_PTE_WR, 0, 0, 0, o->mem_req_addr, v);
        p->gmmu.gmmu_pte_writes++;
        if (p->score)
            plat_score_pt_write(p->score, o->mem_req_addr);
        if (l2d_on(&p->wl.l2d)) /* the L2 allocates on writes too (l2d.h) */
            (void)l2d_access(&p->wl.l2d, o->mem_req_addr);
        if (gpumem_write64(&p->gm, o->mem_req_addr, v) != 0)
            plat_platform_error(p, "PTE write at 0x%llx: not page-table memory",
                                (unsigned long long)o->mem_req_addr);
    } else if (o->mem_req_valid && p->in.mem_req_ready) {
        evr_add(&p->ring, p->now, EVR_MEM_REQ, 0, 0, o->mem_req_id, o->mem_req_addr, 0);
        p->gmmu.pte_reads++;
        /* through the L2 data cache when it is on (l2d.h): a hit answers after l2d_hit_latency,
         * a miss after mem_latency */
        const uint32_t lat = !l2d_on(&p->wl.l2d)                    ? p->gm.latency
                             : l2d_pte(&p->wl.l2d, o->mem_req_addr) ? p->cfg->l2d_hit_latency
                                                                    : p->gm.latency;
        const int rc = gpumem_accept_lat(&p->gm, p->now, o->mem_req_addr, o->mem_req_id, lat);
        if (rc == -2) {
            plat_platform_error(p, "out of memory");
            return;
        }
        /* PT_BASE's reset value 0 is the root of an address space the handler never bound (no
         * allocation in it): that root reads as empty (0, an invalid entry), so the walk faults
         * and the handler cancels the access as a program fault (issue 26; docs/cosim.md
         * "Address spaces"). The page at 0 is outside the page-table pool. */
        if (rc != 0 && o->mem_req_addr >= PLAT_PAGE) {
            plat_platform_error(p,
                                "page-table walk read at 0x%llx (walker %u): not page-table "
                                "memory [0x%llx, 0x%llx)",
                                (unsigned long long)o->mem_req_addr, o->mem_req_id,
                                (unsigned long long)p->gm.pt_base,
                                (unsigned long long)(p->gm.pt_base + p->gm.pt_pages * PLAT_PAGE));
            return;
        }
    }
    if (o->fb_wr_valid && p->in.fb_wr_ready) {
        uint8_t bytes[GMMU_FB_ENTRY_BYTES];
        for (unsigned k = 0; k < GMMU_FB_ENTRY_BYTES / 4; k++)
            for (unsigned b = 0; b < 4; b++)
                bytes[4 * k + b] = (uint8_t)(o->fb_wr_data[k] >> (8 * b));
        evr_add(&p->ring, p->now, EVR_FB_WR, 0, 0, o->fb_wr_data[GMMU_FB_W7_FLAGS], o->fb_wr_addr,
                (uint64_t)o->fb_wr_data[GMMU_FB_W3_VPN_HI] << 32 |
                    o->fb_wr_data[GMMU_FB_W2_VPN_LO]);
        p->gmmu.fb_writes++;
        if (hostmem_write(&p->hm, o->fb_wr_addr, bytes, sizeof(bytes)) != 0)
            plat_platform_error(p,
                                "fault-entry write at host address 0x%llx: outside the fault ring",
                                (unsigned long long)o->fb_wr_addr);
    }
    if (o->acc_wr_valid && p->in.acc_wr_ready) { /* a notification (§19.4): a host-memory write */
        uint8_t bytes[GMMU_FB_ENTRY_BYTES];
        for (unsigned k = 0; k < GMMU_FB_ENTRY_BYTES / 4; k++)
            for (unsigned b = 0; b < 4; b++)
                bytes[4 * k + b] = (uint8_t)(o->acc_wr_data[k] >> (8 * b));
        p->gmmu.acc_writes++;
        if (hostmem_write(&p->hm, o->acc_wr_addr, bytes, sizeof(bytes)) != 0)
            plat_platform_error(p,
                                "access-counter notification write at host address 0x%llx: "
                                "outside host memory",
                                (unsigned long long)o->acc_wr_addr);
    }
}

void plat_progress_mark(plat_t *p) {
    p->wd.last_progress = p->wd.from = p->now;
    p->wd.busy_base = p->hd.calls + p->gmmu.walk_restarts;
    p->ch.streak = 0;
    p->ch.restarted = 0;
}

/* Timed work that will end by itself (the run waits, it does not hang; plat_model_ops_t
 * wait_end of every model): the cycle the first such wait ends, 0 if none. */
static uint64_t timed_wait_end(const plat_t *p) {
    const uint64_t end = plat_models_wait_end(p);
    return end == UINT64_MAX ? 0 : end;
}

/* watchdog_cycles after the last progress (a completed translation or instruction, a kernel
 * launch; docs/cosim.md "Watchdog"): a livelock (the handler serviced or walks restarted at least
 * PLAT_LIVELOCK_EVENTS times since) or a hang (nothing timed pending) stops the run; timed work
 * postpones the check by watchdog_cycles, and so does a handler inside one service call that
 * wrote a CSR (issued a command) since the last check: a long batch (a 512-page prefetch per
 * fault, each page evicting one: docs/handler.md §6p) is work, not a hang; a handler that only
 * polls is not. Returns 1 if the run stopped. */
static int watchdog(plat_t *p) {
    const uint64_t busy = p->hd.calls + p->gmmu.walk_restarts - p->wd.busy_base;
    const uint64_t wait_end = busy >= PLAT_LIVELOCK_EVENTS ? 0 : timed_wait_end(p);
    if (wait_end) {
        p->wd.from = wait_end > p->now ? wait_end : p->now;
        return 0;
    }
    if (busy < PLAT_LIVELOCK_EVENTS && p->hd.running && p->hd.csr_writes != p->wd.csr_writes) {
        p->wd.csr_writes = p->hd.csr_writes;
        p->wd.from = p->now;
        return 0;
    }
    plat_clear_progress(p);
    if (busy >= PLAT_LIVELOCK_EVENTS)
        fprintf(stderr,
                "gmmu-sim: WATCHDOG: livelock: no translation or instruction completed since "
                "cycle %llu (%llu cycles, more than watchdog_cycles = %llu) while the handler "
                "was called %llu times and walks restarted %llu times\n",
                (unsigned long long)p->wd.last_progress,
                (unsigned long long)(p->now - p->wd.last_progress),
                (unsigned long long)p->cfg->watchdog_cycles, (unsigned long long)(p->hd.calls),
                (unsigned long long)p->gmmu.walk_restarts);
    else
        fprintf(stderr,
                "gmmu-sim: WATCHDOG: hang: no translation or instruction completed for %llu "
                "cycles (watchdog_cycles = %llu) since cycle %llu, and nothing is pending that "
                "would end by itself (no warp in a compute gap, PTE read due, DMA or handler "
                "delay); if the workload really waits longer, raise watchdog_cycles (--set "
                "watchdog_cycles=N)\n",
                (unsigned long long)(p->now - p->wd.last_progress),
                (unsigned long long)p->cfg->watchdog_cycles,
                (unsigned long long)p->wd.last_progress);
    plat_dump_state(p, stderr);
    plat_halt(p, PLAT_EXIT_TIMEOUT,
              busy >= PLAT_LIVELOCK_EVENTS ? "FAIL (watchdog: livelock)" : "FAIL (watchdog: hang)");
    return 1;
}

void plat_step(plat_t *p, uint64_t limit) {
    if (p->halted)
        return;
    if (p->o.stop && *p->o.stop) {
        plat_perr(p, "interrupted by signal %d", (int)*p->o.stop);
        plat_halt(p, 128 + (int)*p->o.stop, "INTERRUPTED (signal)");
        return;
    }
    if (p->o.max_cycles && p->now >= p->o.max_cycles) {
        plat_perr(p, "--max-cycles %llu reached before the end of the trace",
                  (unsigned long long)p->o.max_cycles);
        plat_halt(p, PLAT_EXIT_TIMEOUT, "INCOMPLETE (max cycles)");
        return;
    }
    if (p->now > p->wd.from + p->cfg->watchdog_cycles && watchdog(p))
        return;
    if (!p->ch.running)
        p->ch.busy = 0;  /* a cycle outside the chaos agent (plat_chaos) */
    plat_models_step(p); /* DMA completions due now land */
    const gmmu_out_t *o = plat_outputs(p);
    if (p->halted)
        return;
    if (o->ev)
        count_events(p, o->ev);
    plat_script_outputs(p, o);
    deliver_responses(p, o);
    if (p->halted)
        return;
    /* The next kernel is launched by the host: not while a host agent (the handler) runs, which
       also keeps allocations from being declared to the handler in the middle of a service. */
    if (p->wl.kernel_active && !p->hd.running && kernel_complete(p)) {
        if (p->cfg->run_mode == CFG_RUN_MEMCPY) {
            /* the host copies, then launches (svc_wait returns to it after this cycle, which
               is clocked: no skip past the launch) */
            kernel_end(p);
            p->wl.launch_due = 1;
            limit = p->now;
        } else {
            plat_next_kernel(p);
            if (p->halted)
                return;
            /* host calls: svc_wait returns to the host after this cycle; the trace's end: no
               idle skip to the watchdog's time (an end seen only when the handler leaves, after
               pre-eviction's work past the last translation, handler.md §6u) */
            if (p->wl.launch_due || p->wl.trace_done)
                limit = p->now;
        }
    }
    uint64_t stalled = 0;
    const int active = compute_inputs(p, o, &stalled);
    if (!active && !p->o.no_skip && try_skip(p, o, stalled, limit))
        return;
    transfers(p, o);
    if (p->halted)
        return;
    plat_clock_engines(p);
}

/* The host waits (handler CPU time, a DMA) until t: timed work for the watchdog. */
void plat_run_until(plat_t *p, uint64_t t) {
    const uint64_t outer = p->wd.wait_until;
    if (t > p->wd.wait_until)
        p->wd.wait_until = t;
    while (p->now < t && !p->halted)
        plat_step(p, t);
    p->wd.wait_until = outer;
}
