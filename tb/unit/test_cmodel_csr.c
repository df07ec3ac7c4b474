/* test_cmodel_csr.c - CSR block (docs/microarch.md §8) through the top level: reads, errors,
 * W1C, FB_SIZE side effects, commands, irq. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_cmodel_harness.h"

#define B(n) (1u << (n))

static void init(th_t *h) {
    gmmu_params_t p;
    th_params_tiny(&p);
    p.num_walkers = 3;
    th_init(h, &p);
}

static uint32_t err(th_t *h) {
    return th_csr_read(h, GMMU_CSR_ERR_STATUS);
}

static void clear_err(th_t *h) {
    th_csr_write(h, GMMU_CSR_ERR_STATUS, 0x1f);
    assert_int_equal(err(h), 0);
}

static void test_reads(void **state) {
    (void)state;
    th_t h;
    init(&h);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ID), GMMU_CSR_ID_VALUE);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_VERSION), GMMU_CSR_VERSION_VALUE);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_PARAMS), 2u | 2u << 8 | 3u << 16 | 2u << 24);
    static const gmmu_csr_desc_t table[] = GMMU_CSR_TABLE;
    for (unsigned i = 0; i < GMMU_CSR_COUNT; i++) {
        const int acc = table[i].addr >= GMMU_CSR_ACC_CTRL && table[i].addr <= GMMU_CSR_ACC_STATUS;
        const int bmp = table[i].addr >= GMMU_CSR_BMP_BASE_LO && table[i].addr <= GMMU_CSR_BMP_VPN0;
        /* ACC_* (§19.8) and BMP_* (§20.5): absent in tiny */
        if (table[i].addr > GMMU_CSR_PARAMS && !acc && !bmp)
            assert_int_equal(th_csr_read(&h, table[i].addr), 0);
    }
    assert_int_equal(err(&h), 0);
    /* read/write registers read back */
    th_csr_write(&h, GMMU_CSR_PT_BASE_LO, 0xfffff000);
    th_csr_write(&h, GMMU_CSR_PT_BASE_HI, 0xffff);
    th_csr_write(&h, GMMU_CSR_FB_BASE_LO, 0x12345660);
    th_csr_write(&h, GMMU_CSR_FB_BASE_HI, 0x0012);
    th_csr_write(&h, GMMU_CSR_CMD_ARG_LO, 0xdeadbeef);
    th_csr_write(&h, GMMU_CSR_CMD_ARG_HI, 0xf);
    th_csr_write(&h, GMMU_CSR_INT_ENABLE, 3);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_PT_BASE_LO), 0xfffff000);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_PT_BASE_HI), 0xffff);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_BASE_LO), 0x12345660);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_BASE_HI), 0x12);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_CMD_ARG_LO), 0xdeadbeef);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_CMD_ARG_HI), 0xf);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_INT_ENABLE), 3);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_CMD), 0);
    assert_int_equal(err(&h), 0);
    th_done(&h);
}

static void test_errors(void **state) {
    (void)state;
    th_t h;
    init(&h);
    /* unmapped read: 0 and BAD_ADDR (+ ERR_ADDR) */
    assert_int_equal(th_csr_read(&h, 0x0c), 0);
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_ADDR));
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ERR_ADDR), 0x0c);
    clear_err(&h);
    /* unmapped / unaligned write */
    th_csr_write(&h, 0x011, 5);
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_ADDR));
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ERR_ADDR), 0x011);
    clear_err(&h);
    /* RO writes */
    const uint32_t ro[] = {GMMU_CSR_ID,       GMMU_CSR_VERSION,    GMMU_CSR_PARAMS,
                           GMMU_CSR_FB_PUT,   GMMU_CSR_INT_STATUS, GMMU_CSR_CMD_STATUS,
                           GMMU_CSR_ERR_ADDR, GMMU_CSR_FF_COUNT};
    for (unsigned i = 0; i < sizeof(ro) / sizeof(ro[0]); i++) {
        th_csr_write(&h, ro[i], 1);
        assert_int_equal(err(&h), B(GMMU_ERR_RO_WRITE));
        assert_int_equal(th_csr_read(&h, GMMU_CSR_ERR_ADDR), ro[i]);
        clear_err(&h);
    }
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ID), GMMU_CSR_ID_VALUE);
    /* bad values: register unchanged */
    const struct {
        uint32_t addr, val;
    } bad[] = {
        {GMMU_CSR_PT_BASE_LO, 0x1800},  {GMMU_CSR_PT_BASE_HI, 0x10000}, {GMMU_CSR_FB_BASE_LO, 0x10},
        {GMMU_CSR_CMD_ARG_HI, 0x10},    {GMMU_CSR_FB_SIZE, 3},          {GMMU_CSR_FB_SIZE, 0x20000},
        {GMMU_CSR_FB_SIZE, 0x80000000}, {GMMU_CSR_FB_GET, 0},
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        th_csr_write(&h, bad[i].addr, bad[i].val);
        assert_int_equal(err(&h), B(GMMU_ERR_BAD_VALUE));
        assert_int_equal(th_csr_read(&h, GMMU_CSR_ERR_ADDR), bad[i].addr);
        assert_int_equal(th_csr_read(&h, bad[i].addr), 0);
        clear_err(&h);
    }
    /* FB_SIZE legal limits; FB_GET must be < FB_SIZE */
    th_csr_write(&h, GMMU_CSR_FB_SIZE, 0x10000);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_SIZE), 0x10000);
    th_csr_write(&h, GMMU_CSR_FB_SIZE, 4);
    th_csr_write(&h, GMMU_CSR_FB_GET, 3);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_GET), 3);
    th_csr_write(&h, GMMU_CSR_FB_GET, 4);
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_VALUE));
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_GET), 3);
    clear_err(&h);
    /* a legal FB_SIZE write resets GET */
    th_csr_write(&h, GMMU_CSR_FB_SIZE, 8);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_GET), 0);
    /* errors are sticky and accumulate; W1C clears only the bits written as 1 */
    th_csr_write(&h, 0x100, 0);
    th_csr_write(&h, GMMU_CSR_ID, 0);
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_ADDR) | B(GMMU_ERR_RO_WRITE));
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ERR_ADDR), GMMU_CSR_ID);
    th_csr_write(&h, GMMU_CSR_ERR_STATUS, B(GMMU_ERR_RO_WRITE));
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_ADDR));
    th_done(&h);
}

static void test_commands(void **state) {
    (void)state;
    th_t h;
    init(&h);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_SPLINTER + 1u); /* 8: above the last opcode */
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_OPCODE));
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ERR_ADDR), GMMU_CSR_CMD);
    clear_err(&h);
    /* NOP: one command cycle, BUSY visible in that cycle, CMD in it -> CMD_BUSY */
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_NOP);
    assert_int_equal(h.out.req_ready[0], 0);
    assert_int_equal(h.out.req_ready[1], 0);
    assert_int_equal(h.out.idle, 0);
    h.in.csr_valid = 1;
    h.in.csr_addr = GMMU_CSR_CMD_STATUS;
    th_step(&h);
    assert_int_equal(h.out.csr_rdata, 1);
    assert_int_equal(h.out.req_ready[0], 1);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_NOP);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_NOP); /* in the command cycle */
    assert_int_equal(err(&h), B(GMMU_ERR_CMD_BUSY));
    assert_int_equal(th_csr_read(&h, GMMU_CSR_CMD_STATUS), 0);
    clear_err(&h);
    /* CMD busy is checked before the opcode (spec/gmmu.rdl: busy, then the legality rule) */
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_NOP);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_SPLINTER + 1u);
    assert_int_equal(err(&h), B(GMMU_ERR_CMD_BUSY));
    th_done(&h);
}

/* Every plain read/write register of the generated decode table (spec/gmmu.rdl): a write with
 * its must-be-zero bits set is rejected with BAD_VALUE and leaves it unchanged; a write of all
 * other ones reads back exactly the writable bits (ignored bits dropped). */
static void test_decode_table(void **state) {
    (void)state;
    static const gmmu_csr_decode_t dec[] = GMMU_CSR_DECODE_INIT;
    th_t h;
    init(&h);
    unsigned checked = 0;
    for (unsigned i = 0; i < GMMU_CSR_DECODE_COUNT; i++) {
        const gmmu_csr_decode_t *d = &dec[i];
        if (d->access != GMMU_CSR_ACC_RW || d->legal != GMMU_CSR_LEGAL_ANY)
            continue; /* RO: test_errors; W1C, CMD, FB_SIZE/GET: own tests */
        if (d->cond)
            continue; /* present_if (AccEntries = 0 in tiny): test_acc_absent */
        assert_int_equal(th_csr_read(&h, d->addr), 0);
        if (d->mbz) {
            th_csr_write(&h, d->addr, d->mbz);
            assert_int_equal(err(&h), B(GMMU_ERR_BAD_VALUE));
            assert_int_equal(th_csr_read(&h, d->addr), 0);
            clear_err(&h);
        }
        th_csr_write(&h, d->addr, ~d->mbz);
        assert_int_equal(err(&h), 0);
        uint32_t want = d->wmask;
        /* one address space (tiny): ASID_SEL and the ASID / SCOPE fields of CMD_ARG_HI are
         * writable but not stored, they read 0 (docs/microarch.md §14.2, §14.4) */
        if (d->addr == GMMU_CSR_ASID_SEL)
            want = 0;
        if (d->addr == GMMU_CSR_CMD_ARG_HI)
            want &= (uint32_t)GMMU_CSR_CMD_ARG_HI_VPN_MASK << GMMU_CSR_CMD_ARG_HI_VPN_LSB;
        /* INT_ENABLE's access-counter bits 2/3 are not stored without the unit (§19.8) */
        if (d->addr == GMMU_CSR_INT_ENABLE)
            want &= 1u << GMMU_BIT_INT_FAULT | 1u << GMMU_BIT_INT_OVERFLOW;
        assert_int_equal(th_csr_read(&h, d->addr), want);
        checked++;
    }
    assert_int_equal(checked, 9); /* PT_BASE_LO/HI, FB_BASE_LO/HI, INT_ENABLE, CMD_ARG_LO/HI,
                                     FAULT_CTRL, ASID_SEL */
    th_done(&h);
}

/* docs/microarch.md §19.8: without the unit (tiny, acc_entries = 0) the ACC_* registers are
 * unmapped (BAD_ADDR on read and write), opcodes 8/9 are unknown; with it they exist. */
static void test_acc_absent_present(void **state) {
    (void)state;
    static const gmmu_csr_decode_t dec[] = GMMU_CSR_DECODE_INIT;
    th_t h;
    init(&h);
    unsigned absent = 0;
    for (unsigned i = 0; i < GMMU_CSR_DECODE_COUNT; i++) {
        if (!dec[i].cond)
            continue;
        assert_int_equal(th_csr_read(&h, dec[i].addr), 0);
        assert_int_equal(err(&h), B(GMMU_ERR_BAD_ADDR));
        clear_err(&h);
        th_csr_write(&h, dec[i].addr, 1);
        assert_int_equal(err(&h), B(GMMU_ERR_BAD_ADDR));
        clear_err(&h);
        absent++;
    }
    assert_int_equal(absent, 12); /* ACC_CTRL .. ACC_STATUS, BMP_BASE_LO .. BMP_VPN0 (§20.5) */
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_ACC_CLEAR_ALL);
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_OPCODE));
    clear_err(&h);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_BMP_FLUSH);
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_OPCODE));
    th_done(&h);

    gmmu_params_t p;
    th_params_tiny(&p);
    p.acc_entries = 8;
    th_init(&h, &p);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ACC_THRESH), 256); /* reset */
    th_csr_write(&h, GMMU_CSR_ACC_THRESH, 0);                    /* 0 is illegal */
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_VALUE));
    clear_err(&h);
    th_csr_write(&h, GMMU_CSR_ACC_CTRL, 0xc); /* GRAN = 3 is illegal */
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_VALUE));
    clear_err(&h);
    th_csr_write(&h, GMMU_CSR_ACC_CTRL, 0x7);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_ACC_CTRL), 0x7);
    th_csr_write(&h, GMMU_CSR_ACC_SIZE, 8);
    th_csr_write(&h, GMMU_CSR_ACC_GET, 8); /* must be < ACC_SIZE */
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_VALUE));
    clear_err(&h);
    th_csr_write(&h, GMMU_CSR_INT_ENABLE, 0xf);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_INT_ENABLE), 0xf);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_ACC_CLEAR);
    assert_int_equal(err(&h), 0);
    (void)th_csr_read(&h, GMMU_CSR_BMP_PAGES); /* the bitmaps' registers stay absent */
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_ADDR));
    clear_err(&h);
    th_csr_write(&h, GMMU_CSR_CMD, GMMU_CMD_BMP_FLUSH); /* and their opcode unknown */
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_OPCODE));
    th_done(&h);
    /* with line_bitmap = 1 they exist; BMP_BASE_LO is 8-byte aligned (MBZ [2:0]) */
    th_params_tiny(&p);
    p.line_bitmap = 1;
    th_init(&h, &p);
    th_csr_write(&h, GMMU_CSR_BMP_BASE_LO, 0x1004);
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_VALUE));
    clear_err(&h);
    th_csr_write(&h, GMMU_CSR_BMP_BASE_LO, 0x1008);
    th_csr_write(&h, GMMU_CSR_BMP_VPN0, 0x7f00000);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_BMP_BASE_LO), 0x1008);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_BMP_VPN0), 0x7f00000);
    (void)th_csr_read(&h, GMMU_CSR_ACC_CTRL); /* the access counters' stay absent */
    assert_int_equal(err(&h), B(GMMU_ERR_BAD_ADDR));
    th_done(&h);
}

static void test_irq_and_overflow(void **state) {
    (void)state;
    th_t h;
    init(&h);
    th_setup(&h, 0x100000, 0x800000, 0); /* ring disabled */
    th_csr_write(&h, GMMU_CSR_INT_ENABLE, 2);
    /* a fault with the ring disabled: dropped, OVERFLOW, irq */
    th_req(&h, 0, 0, 0x99, 0, 1);
    th_step(&h);
    assert_true(th_run_until_idle(&h, 200) > 0);
    assert_int_equal(h.nfb, 0);
    assert_int_equal(h.ev_count[GMMU_EV_FB_OVF], 1);
    assert_int_equal(h.ev_count[GMMU_EV_FF_DROP], 1);
    assert_int_equal(h.out.irq, 1);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_STATUS), 1);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_INT_STATUS), 2);
    th_csr_write(&h, GMMU_CSR_FB_STATUS, 1);
    assert_int_equal(h.out.irq, 0);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_STATUS), 0);
    /* REPLAY_ALL replays the dropped SM: it faults again (still unmapped), dropped again */
    th_cmd(&h, GMMU_CMD_REPLAY_ALL, 0);
    assert_true(th_run_until_idle(&h, 200) > 0);
    assert_int_equal(h.ev_count[GMMU_EV_FB_OVF], 2);
    assert_int_equal(h.out.irq, 1);
    /* FB_SIZE clears OVERFLOW; a posted fault raises PUT != GET */
    th_csr_write(&h, GMMU_CSR_FB_SIZE, 4);
    assert_int_equal(h.out.irq, 0);
    th_csr_write(&h, GMMU_CSR_INT_ENABLE, 1);
    th_cmd(&h, GMMU_CMD_REPLAY_ALL, 0);
    assert_true(th_run_until_idle(&h, 200) > 0);
    assert_int_equal(h.nfb, 1);
    assert_int_equal(h.out.irq, 1);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_INT_STATUS), 1);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_PUT), 1);
    th_csr_write(&h, GMMU_CSR_FB_GET, 1);
    assert_int_equal(h.out.irq, 0);
    th_done(&h);
}

/* OVERFLOW set by the unit survives a W1C clear of the same cycle (§7) */
static void test_overflow_survives_w1c(void **state) {
    (void)state;
    th_t h;
    init(&h);
    th_setup(&h, 0x100000, 0x800000, 0);
    /* empty root table: read at t0+7, PDE fault, RESP at t0+9: the offer at t0+9 goes into
     * the far-fault unit's offer register, processed (a drop) at t0+10 (§7) */
    const uint64_t t0 = h.cycle;
    th_req(&h, 0, 0, 0x99, 0, 1);
    th_step(&h);
    th_steps(&h, 9);
    assert_int_equal(h.cycle, t0 + 10);
    th_csr_write(&h, GMMU_CSR_FB_STATUS, 1);
    assert_int_equal(h.out.ev, B(GMMU_EV_FF_DROP) | B(GMMU_EV_FB_OVF));
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_STATUS), 1);
    th_csr_write(&h, GMMU_CSR_FB_STATUS, 1);
    assert_int_equal(th_csr_read(&h, GMMU_CSR_FB_STATUS), 0);
    th_done(&h);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_commands),
        cmocka_unit_test(test_decode_table),
        cmocka_unit_test(test_acc_absent_present),
        cmocka_unit_test(test_irq_and_overflow),
        cmocka_unit_test(test_overflow_survives_w1c),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
