/*
 * rng.h - small deterministic PRNG (splitmix64 seeding, xoshiro256**) and stateless hashes.
 * Every random choice of the platform comes from one rng_t per purpose, seeded from the run seed
 * and a purpose constant, so a run is a pure function of (configuration, trace, seed).
 */
#ifndef COSIM_RNG_H
#define COSIM_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} rng_t;

/* splitmix64 finalizer: a good 64-bit mixing function. */
static inline uint64_t rng_mix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Stateless hash of two words (used for per-cycle ready bits and content tags). */
static inline uint64_t rng_hash2(uint64_t a, uint64_t b) {
    return rng_mix64(rng_mix64(a) ^ (b + 0x632be59bd9b4e019ull));
}

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

/* Uniform in [0, n) (n > 0); the tiny modulo bias is irrelevant here. */
static inline uint64_t rng_below(rng_t *r, uint64_t n) {
    return n ? rng_next(r) % n : 0;
}

#endif
