/*
 * uvm_dev_cmd.c - the device's registers and commands as the handler's lower floors use them:
 * CSR access, a command (poll idle, arguments, CMD, poll done), cancel and replay of a page,
 * REPLAY_ALL, the GMMU's COALESCE / SPLINTER. Calls only the log and the event stream.
 */
#include <inttypes.h>

#include "uvm_priv.h"

uint32_t uvm_csr_rd(const uvm_handler_t *h, uint32_t addr) {
    return h->dev.csr_read(h->dev.ctx, addr);
}

void uvm_csr_wr(const uvm_handler_t *h, uint32_t addr, uint32_t value) {
    h->dev.csr_write(h->dev.ctx, addr, value);
}

bool uvm_cmd_wait_idle(const uvm_handler_t *h) {
    for (uint32_t i = 0; i < UVM_CMD_POLL_MAX; i++) {
        if ((uvm_csr_rd(h, GMMU_CSR_CMD_STATUS) & UVM_CMD_STATUS_BUSY) == 0)
            return true;
    }
    uvm_logf(h, "uvm: CMD_STATUS.BUSY did not clear after %u polls", UVM_CMD_POLL_MAX);
    return false;
}

void uvm_cmd(const uvm_handler_t *h, uint32_t opcode, bool has_arg, uint64_t vpn, bool wait_done) {
    if (opcode == GMMU_CMD_INVAL_PAGE && h->cfg.tlb_shootdown == UVM_TLB_SHOOTDOWN_ALL) {
        opcode = GMMU_CMD_INVAL_ALL; /* UVMSmart's whole-TLB shootdown (§6q) */
        has_arg = false;
    }
    /* the device rejects a CMD written while BUSY: always poll first */
    if (!uvm_cmd_wait_idle(h)) {
        uvm_logf(h, "uvm: command %" PRIu32 " for VPN 0x%" PRIx64 " dropped (device busy)", opcode,
                 vpn);
        return;
    }
    if (has_arg) {
        /* ASID 0 with one address space: the old register values exactly */
        const uint32_t scope = opcode == GMMU_CMD_INVAL_PAGE && h->spaces > 1 ? 1u : 0u;
        uvm_csr_wr(h, GMMU_CSR_CMD_ARG_LO, (uint32_t)(vpn & UINT32_MAX));
        uvm_csr_wr(h, GMMU_CSR_CMD_ARG_HI,
                   ((uint32_t)(vpn >> GMMU_CSR_CMD_ARG_LO_VPN_W) & GMMU_CSR_CMD_ARG_HI_VPN_MASK) |
                       uvm_vpn_asid(vpn) << GMMU_CSR_CMD_ARG_HI_ASID_LSB |
                       scope << GMMU_CSR_CMD_ARG_HI_SCOPE_LSB);
    }
    uvm_csr_wr(h, GMMU_CSR_CMD, opcode);
    if (wait_done)
        (void)uvm_cmd_wait_idle(h);
}

void uvm_cancel_page(uvm_handler_t *h, uint64_t vpn, const char *why) {
    uvm_logf(h, "uvm: fatal fault at VA 0x%" PRIx64 " (VPN 0x%" PRIx64 "): %s; cancelled",
             vpn << GMMU_PAGE_SHIFT, vpn, why);
    uvm_cmd(h, GMMU_CMD_CANCEL_PAGE, true, vpn, true);
    h->stats.cancels++;
}

/* tlb_shootdown = all: the page table was updated (the serviced faults' pages mapped), so every
 * TLB is flushed before the faulting accesses replay (UVMSmart, seed 002 C.3; §6q) */
static void shootdown_before_replay(uvm_handler_t *h) {
    if (h->cfg.tlb_shootdown != UVM_TLB_SHOOTDOWN_ALL)
        return;
    uvm_cmd(h, GMMU_CMD_INVAL_ALL, false, 0, true);
    h->stats.invalidates++;
}

void uvm_replay_page(uvm_handler_t *h, uint64_t vpn) {
    shootdown_before_replay(h);
    uvm_cmd(h, GMMU_CMD_REPLAY_PAGE, true, vpn, false);
    uvm_event_emit(h, &(uvm_event_t){.kind = UVM_EVENT_REPLAY, .replay = {.vpn = vpn, .pages = 1}});
}

void uvm_replay_all(uvm_handler_t *h) {
    shootdown_before_replay(h);
    uvm_cmd(h, GMMU_CMD_REPLAY_ALL, false, 0, false);
    uvm_event_emit(h, &(uvm_event_t){.kind = UVM_EVENT_REPLAY, .replay = {.vpn = 0, .pages = 0}});
}

int uvm_gmmu_coalesce(uvm_handler_t *h, uint32_t asid, uint64_t va_2m, bool splinter) {
    const uint64_t vpn = va_2m >> GMMU_PAGE_SHIFT;
    if (!uvm_cmd_wait_idle(h))
        return -1;
    uvm_csr_wr(h, GMMU_CSR_CMD_ARG_LO, (uint32_t)(vpn & UINT32_MAX));
    uvm_csr_wr(h, GMMU_CSR_CMD_ARG_HI,
               ((uint32_t)(vpn >> GMMU_CSR_CMD_ARG_LO_VPN_W) & GMMU_CSR_CMD_ARG_HI_VPN_MASK) |
                   (asid & GMMU_CSR_CMD_ARG_HI_ASID_MASK) << GMMU_CSR_CMD_ARG_HI_ASID_LSB);
    uvm_csr_wr(h, GMMU_CSR_CMD, splinter ? GMMU_CMD_SPLINTER : GMMU_CMD_COALESCE);
    if (!uvm_cmd_wait_idle(h))
        return -1;
    const uint32_t st = uvm_csr_rd(h, GMMU_CSR_CMD_STATUS);
    return (int)((st >> GMMU_CSR_CMD_STATUS_CO_ERR_LSB) & GMMU_CSR_CMD_STATUS_CO_ERR_MASK);
}
