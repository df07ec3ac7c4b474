/*
 * config.h - configuration files (configs/<name>.cfg): one format for the RTL build and the
 * platform (module cfg_). Format: `key = value` lines, `#` comments, every key at most once.
 * The RTL keys (gmmu_params_t) are mandatory; every other key has a default. docs/config.md
 * lists every key with its unit and default.
 */
#ifndef COSIM_CONFIG_H
#define COSIM_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gmmu_if.h"
#include "uvm_handler.h"

/* The non-RTL keys are declared once in spec/config.toml: cfg_gen.h (generated) holds cfg_t (one
 * field per key, named as the key; sm_partition: sm_part[] and sm_parts) and the platform's enums
 * (cfg_pcie_model_t, cfg_fault_mode_t, cfg_run_mode_t, cfg_grow_t); the handler's enum keys use
 * the handler's enums (uvm_handler.h). */
#include "cfg_gen.h"

/* Handler cost keys (hdl_*_ns) left unset keep the handler's own default (uvm_cfg_defaults). */
#define CFG_HDL_DEFAULT UINT64_MAX

/* Every non-RTL key at its default; RTL keys 0 (unset). */
void cfg_defaults(cfg_t *c);
/* Parses a file over the defaults. 0, or -1 with err = "file:line: key: reason". */
int cfg_load(cfg_t *c, const char *path, char *err, size_t errlen);
/* Run-time override "key=value" (non-RTL keys only). 0 or -1 with err. */
int cfg_set(cfg_t *c, const char *kv, char *err, size_t errlen);
/* 1 if key names an RTL parameter. */
int cfg_is_rtl_key(const char *key);
/* Cross-key validation (also done by cfg_load); 0 or -1 with err = "key: reason". */
int cfg_check(const cfg_t *c, char *err, size_t errlen);
/* Compares the RTL keys with p; 0 if equal, else -1 with err naming the first different key. */
int cfg_rtl_equal(const gmmu_params_t *a, const gmmu_params_t *b, char *err, size_t errlen);
/* Human-readable `key = value` lines, prefixed by `prefix`. */
void cfg_print(const cfg_t *c, FILE *f, const char *prefix);
/* JSON object (no trailing newline) with every key. */
void cfg_print_json(const cfg_t *c, FILE *f, const char *indent);
/* Value of key as text (for messages); 0, or -1 if the key is unknown. */
int cfg_format_value(const cfg_t *c, const char *key, char *buf, size_t len);

/* The handler's configuration from the keys: uvm_cfg_defaults, then every key that sets a member
 * of uvm_cfg_t (spec/config.toml `field`; a cost key only when set), and the derived
 * transfer_set_pages (cfg_transfer_set_pages). The platform adds its layout (addresses, seed). */
void cfg_to_handler(const cfg_t *c, uvm_cfg_t *hc);

/* Zheng's transfer set in 4 KB pages: what the link moves at pcie_peak_gbps in transfer_set_us
 * (16 GB/s x 20 us = 320 000 B = 78 pages; at least 1). */
uint32_t cfg_transfer_set_pages(const cfg_t *c);

#endif
