/*
 * gmmu.c - top level of the C golden model (RTL gmmu_top, docs/microarch.md §2, §9, §10).
 *
 * A cycle: gmmu_model_outputs() computes every output from the registered (_q) state only.
 * gmmu_model_step() first computes every cross-block combinational signal and every
 * "lowest index" choice from _q state, then lets each block write its next (_d) state in place,
 * in the order of the spec (a block only reads its own fields before it overwrites them), and
 * applies the flush of a command cycle last inside each block.
 */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "gmmu_priv.h"

/* the model's fixed-size arrays hold the largest legal parameter of spec/params.toml */
_Static_assert(GMMU_PARAM_L1_REQ_ENTRIES_MAX <= L1_MAX_REQ, "L1_MAX_REQ < spec max");
_Static_assert(GMMU_PARAM_L2_MSHR_ENTRIES_MAX <= L2_MAX_MSHR, "L2_MAX_MSHR < spec max");
_Static_assert(GMMU_PARAM_NUM_WALKERS_MAX <= PTW_MAX, "PTW_MAX < spec max");
_Static_assert(GMMU_PARAM_FF_ENTRIES_MAX <= FF_MAX, "FF_MAX < spec max");

/* The L1s' combinational signals depend on _q state only: computed once per state (after reset
 * and after each edge) for the outputs, the next edge and gmmu_model_quiet. */
static void refresh_comb(gmmu_model_t *m) {
    for (uint32_t s = 0; s < m->p.num_sm; s++)
        l1_comb(&m->l1[s], m->csr.cmd_valid, &m->comb[s]);
}

static int is_pow2(uint32_t x) {
    return x && !(x & (x - 1u));
}

static int check_range(const char *key, uint32_t val, uint32_t lo, uint32_t hi, char *err,
                       size_t errlen) {
    if (val < lo || val > hi) {
        err_setf(err, errlen, "%s: %u is out of range %u..%u", key, val, lo, hi);
        return -1;
    }
    return 0;
}

static uint32_t param_at(const gmmu_params_t *p, size_t off) {
    uint32_t v;
    memcpy(&v, (const char *)p + off, sizeof(v));
    return v;
}

/* The range check of spec/params.toml: every row of GMMU_PARAM_DESC_INIT in spec order. */
int gmmu_params_check(const gmmu_params_t *p, char *err, size_t errlen) {
    static const gmmu_param_desc_t desc[] = GMMU_PARAM_DESC_INIT;
    if (!p) {
        err_setf(err, errlen, "no parameters");
        return -1;
    }
    for (size_t i = 0; i < sizeof(desc) / sizeof(desc[0]); i++) {
        const gmmu_param_desc_t *d = &desc[i];
        const uint32_t v = param_at(p, d->off);
        const uint32_t lo = d->min_off == GMMU_PARAM_MIN_LITERAL ? d->min : param_at(p, d->min_off);
        if (d->pow2 && !is_pow2(v)) {
            err_setf(err, errlen, "%s: %u is not a power of two", d->key, v);
            return -1;
        }
        if (check_range(d->key, v, lo, d->max, err, errlen))
            return -1;
    }
    return 0;
}

gmmu_model_t *gmmu_model_new(const gmmu_params_t *p, char *err, size_t errlen) {
    if (gmmu_params_check(p, err, errlen))
        return NULL;
    if (p->line_bitmap != 0 && p->num_asids != 1) { /* §20.5: one table, indexed by VPN */
        err_setf(err, errlen,
                 "line_bitmap: 1 needs num_asids = 1 (one bitmap table indexed by the VPN, "
                 "docs/microarch.md §20.5), not %u",
                 p->num_asids);
        return NULL;
    }
    if (p->l1_sets > p->l1_entries) { /* §1.4: l1_entries / l1_sets ways */
        err_setf(err, errlen, "l1_sets: %u is more than l1_entries (%u)", p->l1_sets,
                 p->l1_entries);
        return NULL;
    }
    if (p->line_bitmap != 0 && p->l1_sets != 1) { /* §1.4: the bitmaps read every entry */
        err_setf(err, errlen, "line_bitmap: 1 needs l1_sets = 1 (docs/microarch.md §1.4), not %u",
                 p->l1_sets);
        return NULL;
    }
    gmmu_model_t *m = calloc(1, sizeof(*m));
    if (!m) {
        err_setf(err, errlen, "out of memory");
        return NULL;
    }
    m->p = *p;
    csr_init(&m->csr, p);
    ptw_init(&m->ptw, p);
    ff_init(&m->ff, p);
    co_init(&m->co, p);
    if (p->acc_entries)
        acc_init(&m->acc, p->acc_entries, p->num_asids);
    m->l1 = calloc(p->num_sm, sizeof(l1_t));
    m->comb = calloc(p->num_sm, sizeof(l1_comb_t));
    int bad = !m->l1 || !m->comb || l2_init(&m->l2, p);
    if (p->line_bitmap) {
        bmp_init(&m->bmp, p->num_sm * p->l1_entries);
        m->bdep = calloc((size_t)p->num_sm * (p->l1_entries + 1u), sizeof(bmp_dep_t));
        bad |= !m->bdep;
    }
    for (uint32_t s = 0; !bad && s < p->num_sm; s++)
        bad = l1_init(&m->l1[s], s, p);
    if (bad) {
        gmmu_model_free(m);
        err_setf(err, errlen, "out of memory");
        return NULL;
    }
    refresh_comb(m);
    return m;
}

void gmmu_model_free(gmmu_model_t *m) {
    if (!m)
        return;
    if (m->l1)
        for (uint32_t s = 0; s < m->p.num_sm; s++)
            l1_free(&m->l1[s]);
    free(m->l1);
    free(m->comb);
    free(m->bdep);
    l2_free(&m->l2);
    free(m);
}

static void ffview(const gmmu_model_t *m, csr_ffview_t *v) {
    v->put = m->ff.put;
    v->overflow = m->ff.overflow;
    v->ff_count = ff_count(&m->ff);
    /* CMD_STATUS.BUSY: the coalesce unit or the BMP_FLUSH scanner (§20.4) */
    v->co_busy = (uint8_t)(co_busy(&m->co) || m->bmp.bs_busy);
    v->co_err = m->co.err;
    v->acc_put = m->acc.put; /* 0 without the unit (calloc) */
    v->acc_ovf = m->acc.overflow;
}

static int model_idle(const gmmu_model_t *m) {
    for (uint32_t s = 0; s < m->p.num_sm; s++)
        if (l1_busy(&m->l1[s]))
            return 0;
    return !l2_busy(&m->l2) && !ptw_busy(&m->ptw) && !ff_busy(&m->ff) && !csr_busy(&m->csr) &&
           !co_busy(&m->co) && !(m->p.acc_entries && acc_busy(&m->acc)) && !bmp_busy(&m->bmp) &&
           !m->ev;
}

/* docs/cmodel.md "Quiet cycles": a sufficient condition for step(idle inputs) == identity. */
int gmmu_model_quiet(const gmmu_model_t *m) {
    if (m->ev || csr_busy(&m->csr) || ff_busy(&m->ff) || co_busy(&m->co) || m->l2.rsp.valid ||
        m->ptw.mr_valid)
        return 0;
    /* the access counters observe every hit and miss completion; a waiting notification */
    if (m->p.acc_entries || m->p.line_bitmap) /* and the bitmaps record every hit (§20.3) */
        return 0;
    int walker_idle = 0;
    for (uint32_t k = 0; k < m->ptw.n; k++) {
        if (m->ptw.state[k] == PTW_ISSUE || m->ptw.state[k] == PTW_PWC)
            return 0;
        walker_idle |= m->ptw.state[k] == PTW_IDLE;
    }
    for (uint32_t i = 0; i < m->l2.n_mshr; i++) {
        if (m->l2.m_state[i] == L2M_RESP)
            return 0;
        if (m->l2.m_state[i] == L2M_NEED_WALK && walker_idle)
            return 0;
    }
    for (uint32_t s = 0; s < m->p.num_sm; s++)
        if (!l1_quiet(&m->l1[s]))
            return 0;
    /* the L2 pipeline is empty and no L1 has a request to send, or it is frozen: its last stage
       misses, matches no MSHR and finds none FREE (stall: no advance, no grant) */
    int empty = 1;
    for (uint32_t k = 0; k < m->l2.lat; k++)
        empty &= !m->l2.pv[k];
    const l1_comb_t *c = m->comb; /* cmd_valid_q is 0 here */
    if (empty) {
        for (uint32_t s = 0; s < m->p.num_sm; s++)
            if (c[s].req_valid)
                return 0;
        return 1;
    }
    if (!m->l2.pv[m->l2.lat - 1u])
        return 0;
    l2_plan_t pl;
    gmmu_viol_t scratch = {0};
    l2_plan(&m->l2, 0, (uint8_t)ff_ready(&m->ff), c, &pl, &scratch);
    return pl.stall;
}

void gmmu_model_outputs(const gmmu_model_t *m, gmmu_out_t *out) {
    memset(out, 0, sizeof(*out));
    for (uint32_t s = 0; s < m->p.num_sm; s++)
        l1_outputs(&m->l1[s], &m->comb[s], out);
    out->mem_req_valid = m->ptw.mr_valid;
    out->mem_req_addr = m->ptw.mr_addr;
    out->mem_req_id = m->ptw.mr_id;
    out->mem_req_write = m->ptw.mr_write;
    /* §18.3: a walker's write is a set-bits write of ACC (and DRT); §20.5 a bitmap write too */
    out->mem_req_setbits =
        (m->ptw.ad && m->ptw.mr_write && !m->ptw.mr_co && !m->ptw.mr_bmp) || m->ptw.mr_bmp;
    out->mem_req_wdata = m->ptw.mr_bmp          ? (uint64_t)m->ptw.mr_bdat << (32u * m->ptw.mr_bhi)
                         : out->mem_req_setbits ? (UINT64_C(1) << GMMU_PTE_ACC) |
                                                      ((uint64_t)m->ptw.mr_drt << GMMU_PTE_DRT)
                                                : m->co.dat;
    out->fb_wr_valid = m->ff.fw_valid;
    out->fb_wr_addr = m->ff.fw_addr;
    memcpy(out->fb_wr_data, m->ff.fw_data, sizeof(out->fb_wr_data));
    out->acc_wr_valid = m->acc.nw_valid; /* 0 without the unit */
    out->acc_wr_addr = m->acc.nw_addr;
    memcpy(out->acc_wr_data, m->acc.nw_data, sizeof(out->acc_wr_data));
    out->csr_rvalid = m->csr.rvalid;
    out->csr_rdata = m->csr.rdata;
    csr_ffview_t v;
    ffview(m, &v);
    out->irq = csr_irq(&m->csr, &v);
    out->idle = (uint8_t)model_idle(m);
    out->ev = m->ev;
}

/* The coalesce unit's step (§15.3), after the walkers (co_taken). */
static void step_co(gmmu_model_t *m, const gmmu_in_t *in, uint8_t co_taken, uint16_t *ev) {
    const uint8_t op = m->csr.cmd_op;
    const co_in_t ci = {m->csr.cmd_valid && (op == GMMU_CMD_COALESCE || op == GMMU_CMD_SPLINTER),
                        op,
                        m->csr.cmd_asid,
                        m->csr.cmd_vpn,
                        m->csr.pt_base,
                        co_taken,
                        (uint8_t)(in->mem_rsp_valid && in->mem_rsp_id == GMMU_CO_MEM_ID),
                        in->mem_rsp_data};
    co_step(&m->co, &ci, ev, &m->viol);
}

/* The access counters' observation (§19.3, §19.8 pick), from _q: the miss completion of the
 * lowest SM, else the hit response of the lowest port. */
static void acc_pick(const gmmu_model_t *m, acc_in_t *ai) {
    for (uint32_t s = 0; s < m->p.num_sm; s++) {
        const int o = m->comb[s].out;
        if (o >= 0 && !m->l1[s].req.ent[o].fatal) {
            const l1_req_entry_t *e = &m->l1[s].req.ent[o];
            ai->obs_valid = 1;
            ai->obs_remote = e->sys;
            ai->obs_vpn = e->vpn;
            ai->obs_asid = e->asid;
            return;
        }
    }
    for (uint32_t s = 0; s < m->p.num_sm; s++)
        for (uint32_t p = 0; p < m->p.num_ports; p++)
            if (m->l1[s].hv[p]) {
                ai->obs_valid = 1;
                ai->obs_remote = m->l1[s].hsys[p];
                ai->obs_vpn = m->acc_hvpn[s][p];
                ai->obs_asid = m->acc_hasid[s][p];
                return;
            }
}

/* The access-counter unit's cycle (§19.8): configuration from the CSR block's _q state (ai was
 * filled before csr_step), host ring writes and a GRAN change from this cycle's CSR write. */
static void step_acc(gmmu_model_t *m, const gmmu_in_t *in, acc_in_t *ai, const csr_ring_wr_t *wr,
                     uint16_t *ev) {
    if (!m->p.acc_entries)
        return;
    ai->size_wr = wr->acc_size_write;
    ai->ovf_clr = wr->acc_ovf_w1c;
    ai->clear_all |= wr->acc_gran_clear;
    ai->wr_ready = in->acc_wr_ready;
    acc_ev_t ae;
    acc_cycle(&m->acc, ai, &ae);
    if (ae.notify)
        *ev |= (uint16_t)(1u << GMMU_EV_ACC_NOTIFY);
    if (ae.ovf)
        *ev |= (uint16_t)(1u << GMMU_EV_ACC_OVF);
    for (uint32_t s = 0; s < m->p.num_sm; s++)
        for (uint32_t p = 0; p < m->p.num_ports; p++) {
            m->acc_hvpn[s][p] = in->req_vpn[s][p];
            m->acc_hasid[s][p] = (uint8_t)(in->req_asid[s][p] & (m->p.num_asids - 1u));
        }
}

/* acc_in_t of the cycle from _q state (before any block steps). */
static void acc_begin(const gmmu_model_t *m, acc_in_t *ai) {
    memset(ai, 0, sizeof(*ai));
    if (!m->p.acc_entries)
        return;
    acc_pick(m, ai);
    const csr_t *c = &m->csr;
    ai->en_local = (uint8_t)((c->acc_ctrl >> GMMU_CSR_ACC_CTRL_EN_LOCAL_LSB) & 1u);
    ai->en_remote = (uint8_t)((c->acc_ctrl >> GMMU_CSR_ACC_CTRL_EN_REMOTE_LSB) & 1u);
    ai->gran = (uint8_t)((c->acc_ctrl >> GMMU_CSR_ACC_CTRL_GRAN_LSB) & GMMU_CSR_ACC_CTRL_GRAN_MASK);
    ai->thresh = c->acc_thresh;
    ai->base = c->acc_base;
    ai->size = c->acc_size;
    ai->get = c->acc_get;
    ai->clear_all = c->cmd_valid && c->cmd_op == GMMU_CMD_ACC_CLEAR_ALL;
    ai->clear = c->cmd_valid && c->cmd_op == GMMU_CMD_ACC_CLEAR;
    ai->cmd_asid = c->cmd_asid;
    ai->cmd_vpn = c->cmd_vpn;
}

/* The L1s' edges (§4), from _q; returns EV_L1_LARGE_HIT's bit. */
static uint16_t step_l1s(gmmu_model_t *m, const gmmu_in_t *in, const l1_comb_t *c,
                         const l2_plan_t *pl, const gmmu_rsp_t *rsp_q, const gmmu_flush_t *fl,
                         int scan_idx, uint32_t *n_dep) {
    uint16_t ev = 0;
    for (uint32_t s = 0; s < m->p.num_sm; s++) {
        const l1_in_t li = {in->req_valid[s],
                            in->req_write[s],
                            in->req_id[s],
                            in->req_asid[s],
                            in->req_vpn[s],
                            (uint8_t)(pl->grant == (int)s),
                            rsp_q,
                            (uint8_t)((m->ff.replay >> s) & 1u),
                            m->ff.cancel_valid,
                            m->ff.cancel_asid,
                            m->ff.cancel_vpn,
                            *fl,
                            m->csr.blocking};
        if (gmmu_step_l1(m, s, &c[s], &li, in->req_line[s], scan_idx, n_dep))
            ev |= (uint16_t)(1u << GMMU_EV_L1_LARGE_HIT);
    }
    return ev;
}

void gmmu_model_step(gmmu_model_t *m, const gmmu_in_t *in) {
    uint16_t ev = 0;
    acc_in_t ai;
    acc_begin(m, &ai);

    /* signals shared inside the cycle (§2.1), all from _q */
    const uint8_t cmd_cycle = m->csr.cmd_valid;
    const uint32_t cmd_op = m->csr.cmd_op;
    gmmu_flush_t fl = {GMMU_FLUSH_NONE, m->csr.cmd_vpn, m->csr.cmd_asid, m->csr.cmd_scope};
    if (cmd_cycle && cmd_op == GMMU_CMD_INVAL_PAGE)
        fl.kind = GMMU_FLUSH_PAGE;
    else if (cmd_cycle && cmd_op == GMMU_CMD_INVAL_ALL)
        fl.kind = GMMU_FLUSH_ALL;
    const gmmu_rsp_t rsp_q = m->l2.rsp;
    const ff_ring_t ring = {m->csr.fb_base, m->csr.fb_size, m->csr.get};
    const csr_t csr_q = m->csr; /* the bitmap table registers (§20.5) of _q */
    csr_ffview_t ffq;
    ffview(m, &ffq);

    const l1_comb_t *c = m->comb; /* of the _q state; refreshed at the end of the edge */
    l2_plan_t pl;
    l2_plan(&m->l2, cmd_cycle, (uint8_t)ff_ready(&m->ff), c, &pl, &m->viol);

    /* L1s (§4), with the bitmaps' departures of §20.4 */
    const uint8_t mr_bmp_q = m->ptw.mr_valid && m->ptw.mr_bmp;
    bmp_dep_t scan = {0, 0};
    const int scan_idx = gmmu_bmp_scan_pick(m, &scan);
    uint32_t n_dep = 0;
    ev |= step_l1s(m, in, c, &pl, &rsp_q, &fl, scan_idx, &n_dep);

    /* far-fault unit defaults (§7) */
    ff_cycle_t fc;
    ff_begin(&m->ff, in->fb_wr_ready, &fc);

    /* walkers (§6) */
    ptw_in_t pi;
    memset(&pi, 0, sizeof(pi));
    pi.mem_req_ready = in->mem_req_ready;
    pi.mem_rsp_valid = in->mem_rsp_valid;
    pi.mem_rsp_id = in->mem_rsp_id;
    pi.mem_rsp_data = in->mem_rsp_data;
    pi.pt_base = m->csr.pt_base;
    pi.need_walk = pl.need_walk;
    if (pl.need_walk >= 0)
        pi.nw = m->l2.mshr[pl.need_walk].req;
    pi.flush = fl;
    co_req_t cr;
    co_req(&m->co, &cr);
    pi.co_req_valid = cr.valid;
    pi.co_req_write = cr.write;
    pi.co_req_addr = cr.addr;
    pi.co_busy = (uint8_t)co_busy(&m->co);
    gmmu_bmp_head(m, &pi);
    ptw_out_t po;
    ptw_step(&m->ptw, &pi, &po, &ev, &m->viol);

    /* coalesce unit (§15.3); its flush request is read from _q before the step */
    const int co_fl = co_flush(&m->co);
    const uint32_t co_region = m->co.region;
    const uint8_t co_asid = m->co.asid;
    step_co(m, in, po.co_taken, &ev);

    /* the far-fault unit's offer register (§7), held in a command cycle; then the L2 response
     * selection offers a fault into it (§5.3 step 1) */
    ff_process(&m->ff, &fc, &ring, in->time, cmd_cycle, &ev);
    if (pl.resp_sel >= 0 && m->l2.mshr[pl.resp_sel].res.fault) {
        const gmmu_l2_mshr_t *e = &m->l2.mshr[pl.resp_sel];
        const gmmu_fault_offer_t o = {.req = e->req, .fault_type = e->res.fault_type};
        ff_take(&m->ff, &fc, &o, e->mask, &m->viol);
    }
    l2_update(&m->l2, &pl, c, po.done, po.done_mshr, &po.res, po.assigned, &fl, &ev, &m->viol);

    /* host command (§7) */
    if (cmd_cycle)
        ff_command(&m->ff, cmd_op, m->csr.cmd_asid, m->csr.cmd_vpn);

    /* CSR (§8), ring writes applied after the far-fault unit's own updates */
    csr_ring_wr_t wr;
    csr_step(&m->csr, in, &ffq, &wr);
    if (wr.size_write) {
        m->ff.put = 0;
        m->ff.overflow = 0;
    }
    if (wr.ovf_w1c && !fc.ovf_set)
        m->ff.overflow = 0;
    if (co_fl)
        csr_co_flush(&m->csr, co_region, co_asid);
    /* the L2 base array's RAM read of the edge (§1.3): the CSR block's next command is known */
    l2_ram_read(&m->l2, m->csr.cmd_valid, m->csr.cmd_vpn);
    step_acc(m, in, &ai, &wr, &ev);

    m->ev = ev | gmmu_step_bmp(m, &csr_q, &scan, scan_idx, n_dep, po.bmp_taken, mr_bmp_q,
                               (uint8_t)(cmd_cycle && cmd_op == GMMU_CMD_BMP_FLUSH)); /* §10 */
    refresh_comb(m);
}

/* A TLB array instance (gmmu_tlb_fa) and its u_store: rest = the path after the array's name. */
static int fa_state_get(const tlb_fa_t *a, const char *rest, const char *reg, uint32_t i,
                        uint32_t word, uint64_t *val) {
    if (rest[0] == '\0')
        return tlb_fa_state_get(a, reg, i, word, val);
    if (strcmp(rest, ".u_store") == 0)
        return tlb_store_state_get(a, reg, i, word, val);
    return -1;
}

/* g_l1[s].u_l1 and below; rest = the path after "g_l1[s].u_l1". */
static int l1_scope_get(const l1_t *l, const char *rest, const char *reg, uint32_t i, uint32_t word,
                        uint64_t *val) {
    if (rest[0] == '\0')
        return word ? -1 : l1_state_get(l, reg, i, val);
    if (strcmp(rest, ".g_bmp") == 0) { /* §20.2: bmp_q[e], the referenced lines of base entry e */
        if (strcmp(reg, "bmp_q") != 0 || !l->lbm || i >= l->base.n || word)
            return -1;
        *val = l->bmp[i];
        return 0;
    }
    if (strcmp(rest, ".u_req") == 0) {
        if (strcmp(reg, "line_q") == 0) { /* §20.2: kept by the L1 in the model (l1_t.line) */
            if (i >= l->req.n || word)
                return -1;
            *val = l->lbm ? l->line[i] : 0u;
            return 0;
        }
        return l1_req_state_get(&l->req, reg, i, word, val);
    }
    if (strncmp(rest, ".g_base.u_base", 14) == 0)
        return l1_base_state_get(l, rest + 14, reg, i, word, val);
    if (strncmp(rest, ".u_large", 8) == 0)
        return fa_state_get(&l->large, rest + 8, reg, i, word, val);
    return -1;
}

/* u_l2 and below; rest = the path after "u_l2". */
static int l2_scope_get(const l2_t *l2, const char *rest, const char *reg, uint32_t i,
                        uint32_t word, uint64_t *val) {
    if (rest[0] == '\0')
        return l2_state_get(l2, reg, i, word, val);
    if (strcmp(rest, ".u_base") == 0)
        return tlb_sa_state_get(&l2->base, reg, i, word, val);
    if (strcmp(rest, ".u_base.u_store") == 0) {
        /* the payload is in the RAMs (§1.3): w_q / data_q of this u_store are constant 0; its
         * tags keep only the ASID (FlushKeep: the flush by ASID), the VPN is in the RAM words */
        if (strcmp(reg, "w_q") == 0 || strcmp(reg, "data_q") == 0)
            return (*val = 0, 0);
        const int r = tlb_store_state_get(&l2->base.all, reg, i, word, val);
        if (r == 0 && strcmp(reg, "tag_q") == 0) {
            const gmmu_base_tag_t t = gmmu_base_tag_unpack(*val);
            *val = gmmu_base_tag_pack((gmmu_base_tag_t){.asid = t.asid, .vpn = 0});
        }
        return r;
    }
    if (strncmp(rest, ".u_base.g_way[", 14) == 0) {
        char *end = NULL;
        const unsigned long way = strtoul(rest + 14, &end, 10);
        if (!end || strcmp(end, "].u_ram") != 0)
            return -1;
        /* the RAM word is {base_tag, w, base_data}: generated records (asid, vpn; sys, ppn) */
        return tlb_sa_ram_state_get(&l2->base, (uint32_t)way, GMMU_BASE_DATA_W, reg, i, word, val);
    }
    if (strncmp(rest, ".u_large", 8) == 0)
        return fa_state_get(&l2->large, rest + 8, reg, i, word, val);
    return -1;
}

/* The model's block for an RTL instance path below gmmu_top (the names are the RTL's). */
int gmmu_model_state_get(const gmmu_model_t *m, const char *scope, const char *reg, uint32_t i,
                         uint32_t word, uint64_t *val) {
    if (scope[0] == '\0')
        return (strcmp(reg, "ev_q") == 0 && i == 0 && word == 0) ? (*val = m->ev, 0) : -1;
    if (strcmp(scope, "u_csr") == 0)
        return word == 0 ? csr_state_get(&m->csr, reg, i, val) : -1;
    if (strcmp(scope, "u_ptw") == 0)
        return word == 0 ? ptw_state_get(&m->ptw, reg, i, val) : -1;
    if (strcmp(scope, "u_ptw.g_pwc.u_pwc") == 0)
        return word == 0 ? pwc_state_get(&m->ptw.pwc, reg, i, val) : -1;
    if (strcmp(scope, "u_ff") == 0)
        return ff_state_get(&m->ff, reg, i, word, val);
    if (strcmp(scope, "u_co") == 0)
        return word == 0 ? co_state_get(&m->co, reg, i, val) : -1;
    if (strncmp(scope, "u_l2", 4) == 0)
        return l2_scope_get(&m->l2, scope + 4, reg, i, word, val);
    if (strcmp(scope, "g_acc.u_acc") == 0)
        return acc_state_get(&m->acc, reg, i, word, val);
    if (strcmp(scope, "g_acc") == 0) { /* the registered request of each port (§19.8) */
        const uint32_t s = i / m->p.num_ports, p = i % m->p.num_ports;
        if (word != 0 || s >= m->p.num_sm)
            return -1;
        if (strcmp(reg, "hvpn_q") == 0)
            return (*val = m->acc_hvpn[s][p], 0);
        if (strcmp(reg, "hasid_q") == 0)
            return (*val = m->acc_hasid[s][p], 0);
        return -1;
    }
    if (strcmp(scope, "g_bmp.u_bmp") == 0)
        return word == 0 ? bmp_state_get(&m->bmp, reg, i, val) : -1;
    /* "g_l1[<s>].u_l1..." (parsed by hand: this runs for every element every cycle) */
    if (strncmp(scope, "g_l1[", 5) != 0)
        return -1;
    uint32_t s = 0;
    const char *c = scope + 5;
    for (; *c >= '0' && *c <= '9' && s < GMMU_MAX_SM; c++)
        s = s * 10u + (uint32_t)(*c - '0');
    if (c == scope + 5 || strncmp(c, "].u_l1", 6) != 0 || s >= m->p.num_sm)
        return -1;
    return l1_scope_get(&m->l1[s], c + 6, reg, i, word, val);
}

unsigned gmmu_model_violations(const gmmu_model_t *m, char *first, size_t len) {
    err_setf(first, len, "%s", m->viol.count ? m->viol.first : "");
    return m->viol.count;
}

void gmmu_model_dump(const gmmu_model_t *m, FILE *f) {
    gmmu_out_t o;
    gmmu_model_outputs(m, &o);
    fprintf(f, "gmmu model: idle=%u irq=%u ev_q=0x%04x violations=%u orphan_rsp=%llu\n", o.idle,
            o.irq, m->ev, m->viol.count, (unsigned long long)m->viol.orphan_rsp);
    if (m->viol.count)
        fprintf(f, "  first violation: %s\n", m->viol.first);
    csr_dump(&m->csr, f);
    for (uint32_t s = 0; s < m->p.num_sm; s++)
        l1_dump(&m->l1[s], f);
    l2_dump(&m->l2, f);
    ptw_dump(&m->ptw, f);
    pwc_dump(&m->ptw.pwc, f);
    ff_dump(&m->ff, f);
    co_dump(&m->co, f);
}
