/*
 * test_platform_sm_ready.c - cmocka tests of an SM's ready set (cosim/sm_ready.c): a bitmap of
 * the slots that may present and a heap of the slots in their gap, checked against a plain array
 * of every slot's state under random operations (slots over several 64-bit words, slot removals
 * that shift the slots above down).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sm_ready.h"

#define SLOTS 200u

/* the reference: per slot 0 (nothing), 1 (may present) or 2 (in its gap until at[slot]) */
typedef struct {
    uint8_t st[SLOTS];
    uint64_t at[SLOTS];
    uint32_t n; /* slots in use */
} ref_t;

static uint64_t rnd(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void check(const sm_ready_t *r, const ref_t *f, uint64_t now) {
    uint32_t count = 0;
    uint64_t next = UINT64_MAX;
    int due = 0;
    for (uint32_t s = 0; s < f->n; s++) {
        count += f->st[s] == 1;
        if (f->st[s] == 2 && f->at[s] > now && f->at[s] < next)
            next = f->at[s];
        due |= f->st[s] == 2 && f->at[s] <= now;
    }
    assert_int_equal(r->count, count);
    assert_int_equal(smr_next_after(r, now), next);
    assert_int_equal(smr_any(r, now), count > 0 || due);
    /* the bitmap in slot order, from every start */
    for (uint32_t from = 0; from <= f->n; from += 7) {
        uint32_t want = from;
        while (want < f->n && f->st[want] != 1)
            want++;
        assert_int_equal(smr_next(r, from, f->n), want);
    }
}

static void test_random(void **state) {
    (void)state;
    sm_ready_t r;
    ref_t f;
    memset(&f, 0, sizeof(f));
    assert_int_equal(smr_init(&r, SLOTS), 0);
    f.n = SLOTS;
    uint64_t seed = 0x9e3779b97f4a7c15ull, now = 0;
    for (int step = 0; step < 20000; step++) {
        const uint32_t s = f.n ? (uint32_t)(rnd(&seed) % f.n) : 0;
        switch (rnd(&seed) % 8) {
        case 0:
        case 1: /* a gap starts (or its end moves) */
            if (!f.n)
                break;
            f.st[s] = 2;
            f.at[s] = now + rnd(&seed) % 50;
            smr_gap(&r, s, f.at[s]);
            break;
        case 2: /* may present */
            if (!f.n || f.st[s] == 2)
                break;
            f.st[s] = 1;
            smr_set(&r, s);
            break;
        case 3: /* presented everything */
            if (!f.n || f.st[s] != 1)
                break;
            f.st[s] = 0;
            smr_unset(&r, s);
            break;
        case 4: /* time passes; the ended gaps become ready */
            now += rnd(&seed) % 20;
            smr_pop_due(&r, now);
            for (uint32_t i = 0; i < f.n; i++)
                if (f.st[i] == 2 && f.at[i] <= now)
                    f.st[i] = 1;
            break;
        case 5: /* a slot leaves (its warp finished: nothing to do) */
            if (!f.n || f.st[s] != 0 || rnd(&seed) % 4)
                break;
            smr_remove_slot(&r, s);
            memmove(&f.st[s], &f.st[s + 1], f.n - s - 1);
            memmove(&f.at[s], &f.at[s + 1], (f.n - s - 1) * sizeof(uint64_t));
            f.n--;
            break;
        default:
            break;
        }
        check(&r, &f, now);
        if (f.n < SLOTS / 2) { /* a new kernel */
            smr_clear(&r);
            memset(&f, 0, sizeof(f));
            f.n = SLOTS;
        }
    }
    smr_free(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
