/*
 * test_handler_fb.c - the fault-buffer HAL of the host fault handler (sw-handler/
 * uvm_fault_buffer.c): decoding of one 32-byte entry (fields of words 2..7, VALID, VPN range).
 * Fetch, VALID clearing and flush against the fake ring are covered by test_handler_service.c.
 */
#include "test_handler_fake.h"

#include "../../sw-handler/uvm_priv.h"

static void put32(uint8_t *raw, unsigned word, uint32_t v) {
    for (unsigned b = 0; b < 4; b++)
        raw[4u * word + b] = (uint8_t)(v >> (8u * b));
}

static void entry(uint8_t raw[GMMU_FB_ENTRY_BYTES], uint64_t vpn, uint64_t ts, uint32_t sm_mask,
                  uint32_t w7) {
    memset(raw, 0, GMMU_FB_ENTRY_BYTES);
    put32(raw, GMMU_FB_W2_VPN_LO, (uint32_t)vpn);
    put32(raw, GMMU_FB_W3_VPN_HI, (uint32_t)(vpn >> 32));
    put32(raw, GMMU_FB_W4_TS_LO, (uint32_t)ts);
    put32(raw, GMMU_FB_W5_TS_HI, (uint32_t)(ts >> 32));
    put32(raw, GMMU_FB_W6_SM_MASK, sm_mask);
    put32(raw, GMMU_FB_W7_FLAGS, w7);
}

static void test_decode_fields(void **state) {
    (void)state;
    uint8_t raw[GMMU_FB_ENTRY_BYTES];
    const uint32_t w7 = (GMMU_FT_PTE << GMMU_FB_F_FAULT_TYPE_LSB) | (1u << GMMU_FB_F_REPLAYABLE) |
                        (37u << GMMU_FB_F_CLIENT_LSB) | (GMMU_AT_WRITE << GMMU_FB_F_ACCESS_LSB) |
                        (1u << GMMU_FB_F_VALID);
    entry(raw, UINT64_C(0xA12345678), UINT64_C(0x1122334455667788), 0x80000021u, w7);
    uvm_fault_t f;
    memset(&f, 0xff, sizeof f);
    assert_true(uvm_fb_decode(raw, &f));
    assert_int_equal(f.vpn, UINT64_C(0xA12345678));
    assert_int_equal(f.timestamp, UINT64_C(0x1122334455667788));
    assert_int_equal(f.sm_mask, 0x80000021u);
    assert_int_equal(f.fault_type, GMMU_FT_PTE);
    assert_int_equal(f.client, 37);
    assert_int_equal(f.access, GMMU_AT_WRITE);
    assert_false(f.ro_violation);
    assert_int_equal(f.count, 1);
    /* RO violation; neighbouring fields (GPC, replayable) do not leak into the decoded ones */
    entry(raw, 5, 0, 1,
          (GMMU_FT_RO_VIOLATION << GMMU_FB_F_FAULT_TYPE_LSB) | (1u << GMMU_FB_F_REPLAYABLE) |
              (0x1fu << GMMU_FB_F_GPC_LSB) | (GMMU_AT_READ << GMMU_FB_F_ACCESS_LSB) |
              (1u << GMMU_FB_F_VALID));
    assert_true(uvm_fb_decode(raw, &f));
    assert_int_equal(f.fault_type, GMMU_FT_RO_VIOLATION);
    assert_true(f.ro_violation);
    assert_int_equal(f.client, 0);
    assert_int_equal(f.access, GMMU_AT_READ);
}

static void test_decode_rejects(void **state) {
    (void)state;
    uint8_t raw[GMMU_FB_ENTRY_BYTES];
    uvm_fault_t f;
    entry(raw, 7, 0, 1, GMMU_FT_PTE << GMMU_FB_F_FAULT_TYPE_LSB); /* VALID clear */
    assert_false(uvm_fb_decode(raw, &f));
    entry(raw, UVM_VPN_LIMIT, 0, 1, 1u << GMMU_FB_F_VALID); /* 37-bit VPN */
    assert_false(uvm_fb_decode(raw, &f));
    entry(raw, UVM_VPN_LIMIT - 1u, 0, 1, 1u << GMMU_FB_F_VALID); /* the largest VPN */
    assert_true(uvm_fb_decode(raw, &f));
    assert_int_equal(f.vpn, UVM_VPN_LIMIT - 1u);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_fields),
        cmocka_unit_test(test_decode_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
