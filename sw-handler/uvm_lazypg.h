/*
 * uvm_lazypg.h - DynaMap's software per-page counter baselines LazyPgStatSW / LazyPgDynSW
 * (remote_policy lazy_pg_stat_sw / lazy_pg_dyn_sw, docs/handler.md §6x.4-§6x.6): a faulting page
 * is mapped remotely; the instrumented program counts its accesses in the software PST; the
 * handler polls the remote pages' counts without a fault (each service pass, and a timer of
 * lazy_pg_poll_us of device time) and migrates a page whose count since it was mapped remotely
 * reached its threshold.
 */
#ifndef UVM_LAZYPG_H
#define UVM_LAZYPG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uvm_priv.h"

#define UVM_LAZY_NS_PER_US 1000u

/* the policies' state (h->lazy) */
struct uvm_lazy {
    u64map_t watch;     /* VPN -> its PST count when it was mapped remotely (the remote pages) */
    u64map_t evictions; /* VPN -> its capacity evictions (dyn's threshold) */
    bool evicted_once;  /* a capacity eviction happened (dyn: from then on, faults map remotely) */
    uint64_t next_poll_ns; /* the timer: the device time of the next poll */
};

/* the PST's access count of page vpn (uvm_pst_read) */
uint32_t uvm_lazy_count(const uvm_handler_t *h, uint64_t vpn);
/* remote_policy lazy_pg_stat_sw (4) or lazy_pg_dyn_sw (5) */
bool uvm_lazy_policy(uint32_t remote_policy);
/* the keys and the device's PST: 0, or -1 with a message naming the key */
int uvm_lazy_check_cfg(const uvm_cfg_t *c, const uvm_dev_t *d, char *err, size_t errlen);
/* the threshold of a page evicted `evictions` times: stat: ts; dyn: ts x (1 + evictions) */
uint64_t uvm_lazy_threshold(uint32_t remote_policy, uint32_t ts, uint64_t evictions);
/* a fault on managed page vpn maps it remotely: stat: always; dyn: after the first capacity
 * eviction (before it, first-touch migration) */
bool uvm_lazy_wants_remote(const uvm_handler_t *h, uint64_t vpn);
/* the poll: every watched remote page whose count since its remote mapping reached its
 * threshold migrates (uvm_remote_to_gpu, in VPN order). The pages migrated. */
uint32_t uvm_lazy_poll(uvm_handler_t *h);
/* the service pass's hook (uvm_service.c, after the batches): uvm_lazy_poll */
void uvm_lazy_service(uvm_handler_t *h);
/* the timer (uvm_handler_wake_ns / uvm_handler_wake): the device time of the next poll,
 * UINT64_MAX when off or no page is watched; the wake-up polls if it is due (t_irq_ns charged) */
uint64_t uvm_lazy_wake_ns(const uvm_handler_t *h);
bool uvm_lazy_wake(uvm_handler_t *h);
/* the state and its event observer (init: 0, -1 out of memory; nothing when off) */
int uvm_lazy_init(uvm_handler_t *h);
void uvm_lazy_free(uvm_handler_t *h);

#endif
