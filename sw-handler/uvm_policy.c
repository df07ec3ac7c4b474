/*
 * uvm_policy.c - the policy registry: replay, eviction, prefetch and thrashing policies looked up
 * by name (the configuration carries names, not enums), the replay policies themselves (the
 * others are in uvm_evict*.c, uvm_prefetch*.c, uvm_thrashing.c), and the subscription of the
 * configured policies to the event stream. A new policy is one file + one line in a table
 * below. See docs/handler.md §5, §6a, §6i.
 */
#include <stdio.h>
#include <string.h>

#include "uvm_priv.h"

/* ------------------------------------------------------------------------------------------ */
/* replay policies (docs/handler.md §5)                                                        */

static void replay_page_now(uvm_handler_t *h, uint64_t vpn) {
    uvm_replay_page(h, vpn);
}

static void batch_nothing(uvm_handler_t *h, bool *owed) {
    (void)h;
    (void)owed; /* BLOCK: pages were replayed one by one */
}

static void batch_replay_all(uvm_handler_t *h, bool *owed) {
    uvm_replay_all(h);
    *owed = false;
}

static void batch_flush_replay_all(uvm_handler_t *h, bool *owed) {
    uvm_fb_flush(h);
    uvm_replay_all(h);
    *owed = false;
}

static void batch_owe(uvm_handler_t *h, bool *owed) {
    (void)h;
    *owed = true;
}

static const uvm_replay_ops_t replay_tab[] = {
    {"block", replay_page_now, batch_nothing},
    {"batch", NULL, batch_replay_all},
    {"batch_flush", NULL, batch_flush_replay_all},
    {"once", NULL, batch_owe},
};

/* ------------------------------------------------------------------------------------------ */
/* eviction policies: uvm_evict.c                                                              */

static const uvm_evict_ops_t *const evict_tab[] = {
    &uvm_evict_lru_ops,     &uvm_evict_random_ops,     &uvm_evict_fifo_ops,
    &uvm_evict_nvidia_ops,  &uvm_evict_lru_oracle_ops, &uvm_evict_lfu_ops,
    &uvm_evict_optimal_ops, &uvm_evict_clock_ops,      &uvm_evict_tbne_ops};

/* ------------------------------------------------------------------------------------------ */
/* prefetch policies: uvm_prefetch.c; thrashing: uvm_thrashing*.c         */

static const uvm_prefetch_ops_t *const prefetch_tab[] = {
    &uvm_prefetch_none_ops,       &uvm_prefetch_nvidia_ops,       &uvm_prefetch_tbn_ops,
    &uvm_prefetch_seq_local_ops,  &uvm_prefetch_random_local_ops, &uvm_prefetch_random_ops,
    &uvm_prefetch_sequential_ops, &uvm_prefetch_locality_ops,     &uvm_prefetch_oracle_ops};

static const uvm_thrashing_ops_t *const thrashing_tab[] = {
    &uvm_thrashing_none_ops, &uvm_thrashing_nvidia_ops, &uvm_thrashing_capacity_ops};

/* ------------------------------------------------------------------------------------------ */
/* the registry                                                                                */

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

typedef struct {
    const char *kind;
    size_t n;
    const void *(*at)(size_t i);
} kind_desc_t;

static const void *replay_at(size_t i) {
    return &replay_tab[i];
}
static const void *evict_at(size_t i) {
    return evict_tab[i];
}
static const void *prefetch_at(size_t i) {
    return prefetch_tab[i];
}
static const void *thrashing_at(size_t i) {
    return thrashing_tab[i];
}

static const kind_desc_t kinds[UVM_POLICY_KINDS] = {
    [UVM_POLICY_REPLAY] = {"replay", NELEMS(replay_tab), replay_at},
    [UVM_POLICY_EVICT] = {"evict", NELEMS(evict_tab), evict_at},
    [UVM_POLICY_PREFETCH] = {"prefetch", NELEMS(prefetch_tab), prefetch_at},
    [UVM_POLICY_THRASHING] = {"thrashing", NELEMS(thrashing_tab), thrashing_at},
};

/* every ops struct starts with its name */
static const char *entry_name(const kind_desc_t *d, size_t i) {
    return *(const char *const *)d->at(i);
}

const char *uvm_policy_kind_name(uvm_policy_kind_t kind) {
    return ((unsigned)kind < UVM_POLICY_KINDS) ? kinds[kind].kind : NULL;
}

const void *uvm_policy_find(uvm_policy_kind_t kind, const char *name) {
    if ((unsigned)kind >= UVM_POLICY_KINDS || !name)
        return NULL;
    const kind_desc_t *d = &kinds[kind];
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(entry_name(d, i), name) == 0)
            return d->at(i);
    return NULL;
}

int uvm_policy_check(uvm_policy_kind_t kind, const char *name, char *err, size_t errlen) {
    if ((unsigned)kind >= UVM_POLICY_KINDS) {
        if (err && errlen)
            snprintf(err, errlen, "unknown policy kind %d", (int)kind);
        return -1;
    }
    if (uvm_policy_find(kind, name))
        return 0;
    if (err && errlen) {
        const kind_desc_t *d = &kinds[kind];
        int n = snprintf(err, errlen, "'%s' is not one of ", name ? name : "(null)");
        for (size_t i = 0; i < d->n && n >= 0 && (size_t)n < errlen; i++)
            n += snprintf(err + n, errlen - (size_t)n, "%s%s", i ? "|" : "", entry_name(d, i));
    }
    return -1;
}

int uvm_cfg_set_policy(uvm_cfg_t *cfg, uvm_policy_kind_t kind, const char *name, char *err,
                       size_t errlen) {
    if (!cfg || uvm_policy_check(kind, name, err, errlen) != 0)
        return -1;
    /* registered names are shorter than UVM_POLICY_NAME_MAX (checked by the unit test) */
    snprintf(cfg->policy[kind], sizeof cfg->policy[kind], "%s", name);
    return 0;
}

/* The properties the platform asks about, by policy (a policy without any needs no line). */
typedef struct {
    const void *ops;
    uint32_t props;
} policy_props_t;

static const policy_props_t props_tab[] = {
    {&uvm_evict_lru_ops, UVM_POLICY_PROP_MAP_ORDER},
    {&uvm_evict_lru_oracle_ops, UVM_POLICY_PROP_ACCESS_ORACLE},
    {&uvm_evict_lfu_ops, UVM_POLICY_PROP_ACCESS_ORACLE},
    {&uvm_evict_tbne_ops, UVM_POLICY_PROP_ACCESS_ORACLE},
    {&uvm_evict_optimal_ops, UVM_POLICY_PROP_ACCESS_ORACLE | UVM_POLICY_PROP_NEXT_USE},
    {&uvm_prefetch_oracle_ops, UVM_POLICY_PROP_PAGE_ORDER},
    {&uvm_thrashing_nvidia_ops, UVM_POLICY_PROP_DETECTS},
    {&uvm_thrashing_capacity_ops, UVM_POLICY_PROP_DETECTS},
};

uint32_t uvm_policy_props(uvm_policy_kind_t kind, const char *name) {
    const void *ops = uvm_policy_find(kind, name);
    for (size_t i = 0; ops && i < NELEMS(props_tab); i++)
        if (props_tab[i].ops == ops)
            return props_tab[i].props;
    return 0;
}

int uvm_policy_subscribe(uvm_handler_t *h) {
    /* after the statistics, in this order: eviction, thrashing (docs/handler.md §6i); the
     * prefetch policies keep no state that events would give (their bitmaps are the block's) */
    if (h->evict->events &&
        uvm_event_subscribe_internal(h, h->evict->events, h->evict->observe, h->evict_priv) != 0)
        return -1;
    if (h->thrashing->events &&
        uvm_event_subscribe_internal(h, h->thrashing->events, h->thrashing->observe,
                                     h->thrashing_priv) != 0)
        return -1;
    return 0;
}
