/*
 * rng.h - the project's deterministic pseudo-random generators and hashes (module rng_), each
 * algorithm once. Every sequence is part of the project's reproducibility contract: statistics,
 * generated traces and test seeds depend on them bit for bit, so none of them may change.
 *
 *   rng_mix64      splitmix64 output function of one state word: a 64-bit mixing hash
 *   rng_hash2      stateless hash of two words (per-cycle ready bits, content tags)
 *   rng_t          xoshiro256** (splitmix64 seeding): every random choice of the platform comes
 *                  from one rng_t per purpose, seeded from the run seed and a purpose constant
 *   rng_sm_t       the splitmix64 sequence (workload generators' input data)
 *   rng_xorshift64 Marsaglia's xorshift64 (13, 7, 17): the handler's random eviction and the C
 *                  model's stress test
 *   rng_unit       a 64-bit hash as a double in [0, 1)
 */
#ifndef COMMON_RNG_H
#define COMMON_RNG_H

#include <stdint.h>

#define RNG_GOLDEN 0x9e3779b97f4a7c15ull /* 2^64 / golden ratio: the splitmix64 increment */

/* splitmix64 output for state x (the increment, then the finalizer). */
static inline uint64_t rng_mix64(uint64_t x) {
    x += RNG_GOLDEN;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Stateless hash of two words (used for per-cycle ready bits and content tags). */
static inline uint64_t rng_hash2(uint64_t a, uint64_t b) {
    return rng_mix64(rng_mix64(a) ^ (b + 0x632be59bd9b4e019ull));
}

/* ---- xoshiro256** ---- */
typedef struct {
    uint64_t s[4];
} rng_t;

static inline void rng_seed(rng_t *r, uint64_t seed, uint64_t purpose) {
    uint64_t x = rng_hash2(seed, purpose);
    for (int i = 0; i < 4; i++) {
        x = rng_mix64(x + (uint64_t)i);
        r->s[i] = x;
    }
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
        r->s[0] = 1;
}

static inline uint64_t rng_rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(rng_t *r) {
    uint64_t *s = r->s;
    const uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n) (n > 0; 0 for n == 0); the tiny modulo bias is irrelevant here. */
static inline uint64_t rng_below(rng_t *r, uint64_t n) {
    return n ? rng_next(r) % n : 0;
}

/* ---- splitmix64 sequence ---- */
typedef struct {
    uint64_t s;
} rng_sm_t;

static inline uint64_t rng_sm_next(rng_sm_t *r) {
    const uint64_t x = r->s;
    r->s += RNG_GOLDEN;
    return rng_mix64(x);
}

/* Uniform in [0, n) (0 for n == 0). */
static inline uint64_t rng_sm_below(rng_sm_t *r, uint64_t n) {
    return n ? rng_sm_next(r) % n : 0;
}

/* ---- xorshift64 ---- */
/* Advances *s (non-zero) and returns the new state. */
static inline uint64_t rng_xorshift64(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x;
}

/* Uniform in [0, 1) from a 64-bit hash (its top 53 bits). */
static inline double rng_unit(uint64_t h) {
    return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

#endif
