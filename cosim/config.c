/*
 * config.c - parser of configs/<name>.cfg (see config.h and docs/config.md).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "gmmu_consts.h"
#include "gmmu_model.h"
#include "num.h"
#include "pcie.h"

typedef enum { T_U32, T_U64, T_F64, T_ENUM, T_COST, T_POLICY, T_PART } cfg_type_t;

/* F_HIDE_DEFAULT: not printed (cfg_print, stats JSON) while it holds its default, so that the
 * statistics of every configuration without the key stay as they were */
enum { F_RTL = 1, F_POW2 = 2, F_HIDE_DEFAULT = 4 };

/* One key. The RTL rows come from spec/params.toml (GMMU_PARAMS_X), the others from
 * spec/config.toml (cfg_keys.inc, generated): this file only parses and prints. */
typedef struct {
    const char *name;
    cfg_type_t type;
    size_t off;   /* offsetof(cfg_t, key) */
    uint64_t min; /* T_POLICY: the uvm_policy_kind_t */
    uint64_t max; /* (T_U32, T_U64, T_COST, T_PART) */
    double fmin;  /* T_F64 range */
    double fmax;
    unsigned flags;
    const char *const *enums; /* T_ENUM: NULL-terminated names, value = index */
    const char *dflt;         /* the default as cfg_format_value prints it (NULL: RTL key) */
} cfg_key_t;
/* T_POLICY keys hold a handler policy name (char[UVM_POLICY_NAME_MAX]) that the handler's registry
 * checks (uvm_policy_check). T_COST keys hold CFG_HDL_DEFAULT until set. */

#include "cfg_keys.inc"

#define R(f) offsetof(cfg_t, rtl) + offsetof(gmmu_params_t, f)
#define U32MAX 0xffffffffull

/* one row per RTL key of spec/params.toml: ranges are checked by gmmu_params_check */
/* a hide_default key (spec/params.toml) may be left out of a configuration (cfg_defaults gives it
 * its default) and is not printed at its default */
#define CFG_RTL_KEY(key, sv)                                                                       \
    {#key,   T_U32,                                                                                \
     R(key), 0,                                                                                    \
     U32MAX, 0.0,                                                                                  \
     0.0,    F_RTL | (GMMU_PARAM_HIDE_##key ? F_HIDE_DEFAULT : 0u),                                \
     NULL,   GMMU_PARAM_HIDE_##key ? GMMU_PARAM_DFLT_TEXT_##key : NULL},

static const cfg_key_t keys[] = {GMMU_PARAMS_X(CFG_RTL_KEY) CFG_SPEC_KEY_ROWS};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

void cfg_defaults(cfg_t *c) {
    memset(c, 0, sizeof(*c));
    cfg_spec_defaults(c);
    /* the RTL keys a configuration may leave out start at their SV default */
    const gmmu_params_t d = GMMU_PARAMS_DEFAULT_INIT;
#define CFG_RTL_DEFAULT(key, sv)                                                                   \
    if (GMMU_PARAM_HIDE_##key)                                                                     \
        c->rtl.key = d.key;
    GMMU_PARAMS_X(CFG_RTL_DEFAULT)
#undef CFG_RTL_DEFAULT
}

void cfg_to_handler(const cfg_t *c, uvm_cfg_t *hc) {
    uvm_cfg_defaults(hc);
    cfg_spec_to_handler(c, hc);
    hc->transfer_set_pages = cfg_transfer_set_pages(c);
}

uint32_t cfg_transfer_set_pages(const cfg_t *c) {
    const double pages = c->pcie_peak_gbps * 1e3 * (double)c->transfer_set_us / 4096.0;
    return pages < 1.0 ? 1u : pages > 1e9 ? 1000000000u : (uint32_t)pages;
}

static const cfg_key_t *find_key(const char *name) {
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

int cfg_is_rtl_key(const char *key) {
    const cfg_key_t *k = find_key(key);
    return k && (k->flags & F_RTL);
}

/* sm_partition = "n0,n1,...": 1..GMMU_MAX_SM counts of SMs, each >= 1 (their sum is checked
 * against num_sm by cfg_check); "none" = every address space on every SM. */
static int set_partition(cfg_t *c, const char *v, char *err, size_t errlen) {
    if (strcmp(v, "none") == 0) {
        c->sm_parts = 0;
        return 0;
    }
    if (v[strlen(v) - 1] == ',' || v[0] == ',' || strstr(v, ",,")) {
        err_setf(err, errlen, "'%s' is not a comma-separated list of SM counts (or none)", v);
        return -1;
    }
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", v);
    uint32_t n = 0;
    for (char *tok = buf, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        char *t = tok;
        while (*t == ' ' || *t == '\t')
            t++;
        size_t l = strlen(t);
        while (l > 0 && (t[l - 1] == ' ' || t[l - 1] == '\t'))
            t[--l] = '\0';
        uint64_t x;
        const int rc = num_parse_u64(t, &x);
        if (rc != NUM_OK || x < 1 || x > GMMU_MAX_SM) {
            err_setf(err, errlen, "entry %u '%s' is not a number of SMs in [1, %u]", n + 1, t,
                     (unsigned)GMMU_MAX_SM);
            return -1;
        }
        if (n == GMMU_MAX_SM) {
            err_setf(err, errlen, "more than %u entries", (unsigned)GMMU_MAX_SM);
            return -1;
        }
        c->sm_part[n++] = (uint32_t)x;
    }
    c->sm_parts = n;
    return 0;
}

/* Sets key k from text v; 0 or -1 with reason in err. */
static int set_value(cfg_t *c, const cfg_key_t *k, const char *v, char *err, size_t errlen) {
    char *base = (char *)c;
    if (*v == '\0') {
        err_setf(err, errlen, "empty value");
        return -1;
    }
    switch (k->type) {
    case T_U32:
    case T_U64:
    case T_COST: {
        uint64_t x;
        if (k->type == T_COST && strcmp(v, "default") == 0) {
            *(uint64_t *)(void *)(base + k->off) = CFG_HDL_DEFAULT; /* as printed */
            return 0;
        }
        const int rc = num_parse_u64(v, &x);
        if (rc != NUM_OK) {
            char *end = NULL;
            (void)strtod(v, &end);
            if (end && end != v && *end == '\0' && strpbrk(v, ".eE")) /* 1.5, 1e3: a real number */
                err_setf(err, errlen,
                         "'%s' is not an integer: the key takes whole numbers (decimal or 0x hex) "
                         "in [%llu, %llu]",
                         v, (unsigned long long)k->min, (unsigned long long)k->max);
            else
                err_setf(err, errlen, "'%s' is %s", v, num_strerror(rc));
            return -1;
        }
        if (x < k->min || x > k->max) {
            err_setf(err, errlen, "%s is out of range [%llu, %llu]", v, (unsigned long long)k->min,
                     (unsigned long long)k->max);
            return -1;
        }
        if ((k->flags & F_POW2) && (x & (x - 1)) != 0) {
            err_setf(err, errlen, "%s is not a power of two", v);
            return -1;
        }
        if (k->type == T_U32)
            *(uint32_t *)(void *)(base + k->off) = (uint32_t)x;
        else
            *(uint64_t *)(void *)(base + k->off) = x;
        return 0;
    }
    case T_F64: {
        char *end = NULL;
        errno = 0;
        const double x = strtod(v, &end);
        /* the range keeps every transfer time finite and its cycle count inside 64 bits */
        if (errno != 0 || end == v || *end != '\0' || !isfinite(x) || x < k->fmin || x > k->fmax) {
            err_setf(err, errlen, "'%s' is not a number in [%g, %g]", v, k->fmin, k->fmax);
            return -1;
        }
        *(double *)(void *)(base + k->off) = x;
        return 0;
    }
    case T_ENUM:
        for (int i = 0; k->enums[i]; i++) {
            if (strcmp(k->enums[i], v) == 0) {
                *(int *)(void *)(base + k->off) = i;
                return 0;
            }
        }
        {
            char opts[128] = "";
            for (int i = 0; k->enums[i]; i++) {
                if (i)
                    strncat(opts, "|", sizeof(opts) - strlen(opts) - 1);
                strncat(opts, k->enums[i], sizeof(opts) - strlen(opts) - 1);
            }
            err_setf(err, errlen, "'%s' is not one of %s", v, opts);
        }
        return -1;
    case T_PART:
        return set_partition(c, v, err, errlen);
    case T_POLICY:
        /* the handler's registry decides; its message lists the known names */
        if (uvm_policy_check((uvm_policy_kind_t)k->min, v, err, errlen) != 0)
            return -1;
        snprintf(base + k->off, UVM_POLICY_NAME_MAX, "%s", v);
        return 0;
    }
    err_setf(err, errlen, "internal: bad key type");
    return -1;
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

int cfg_check(const cfg_t *c, char *err, size_t errlen) {
    /* Relations that single-key ranges cannot express. */
    if (c->gpu_mem_pages < 1) {
        err_setf(err, errlen, "gpu_mem_pages: at least one frame is needed");
        return -1;
    }
    if (c->sm_parts > 0 && c->rtl.num_sm > 0) {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < c->sm_parts; i++)
            sum += c->sm_part[i];
        if (sum != c->rtl.num_sm) {
            err_setf(err, errlen, "sm_partition: the %u entries sum to %u SMs, num_sm is %u",
                     c->sm_parts, sum, c->rtl.num_sm);
            return -1;
        }
        if (c->sm_parts > c->rtl.num_asids) {
            err_setf(err, errlen,
                     "sm_partition: %u applications but num_asids is %u (one address space "
                     "per application)",
                     c->sm_parts, c->rtl.num_asids);
            return -1;
        }
    }
    if (c->object_partial == CFG_OBJ_PARTIAL_ON && c->object_policy != CFG_OBJ_POLICY_RLM &&
        c->object_policy != CFG_OBJ_POLICY_GLM && c->object_policy != CFG_OBJ_POLICY_RDM &&
        c->object_policy != CFG_OBJ_POLICY_LRU) {
        /* partial mapping splits an object a placement scheme did not place whole */
        err_setf(err, errlen,
                 "object_partial = on needs object_policy rlm, glm, rdm or lru (docs/handler.md "
                 "§6s.1)");
        return -1;
    }
    if (c->writeback == CFG_WB_DIRTY && !c->rtl.ad_bits) {
        /* without the walker's dirty bits every page would look clean: data would be lost */
        err_setf(err, errlen,
                 "writeback = dirty needs ad_bits = 1 (the walker's dirty bits, "
                 "docs/microarch.md §18)");
        return -1;
    }
    if (c->count_unused == UVM_UNUSED_ACC && !c->rtl.ad_bits) {
        /* without the walker's accessed bits every page would look unused */
        err_setf(err, errlen,
                 "count_unused = acc needs ad_bits = 1 (the walker's accessed bits, "
                 "docs/microarch.md §18; docs/handler.md §6z)");
        return -1;
    }
    return 0;
}

int cfg_load(cfg_t *c, const char *path, char *err, size_t errlen) {
    FILE *f = fopen(path, "r");
    if (!f) {
        err_setf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    unsigned seen_line[NKEYS];
    memset(seen_line, 0, sizeof(seen_line));
    char buf[1024];
    unsigned line = 0;
    int rc = 0;
    while (fgets(buf, sizeof(buf), f)) {
        line++;
        if (strchr(buf, '\n') == NULL && !feof(f)) {
            err_setf(err, errlen, "%s:%u: line too long", path, line);
            rc = -1;
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *s = trim(buf);
        if (*s == '\0')
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            err_setf(err, errlen, "%s:%u: expected 'key = value', got '%s'", path, line, s);
            rc = -1;
            break;
        }
        *eq = '\0';
        char *key = trim(s);
        char *val = trim(eq + 1);
        const cfg_key_t *k = find_key(key);
        if (!k) {
            err_setf(err, errlen, "%s:%u: %s: unknown key", path, line, key);
            rc = -1;
            break;
        }
        const size_t ki = (size_t)(k - keys);
        if (seen_line[ki]) {
            err_setf(err, errlen, "%s:%u: %s: duplicate key (first set on line %u)", path, line,
                     key, seen_line[ki]);
            rc = -1;
            break;
        }
        seen_line[ki] = line;
        char why[256];
        if (set_value(c, k, val, why, sizeof(why)) != 0) {
            err_setf(err, errlen, "%s:%u: %s: %s", path, line, key, why);
            rc = -1;
            break;
        }
    }
    if (rc == 0 && ferror(f)) {
        err_setf(err, errlen, "%s: read error", path);
        rc = -1;
    }
    fclose(f);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < NKEYS; i++) {
        if ((keys[i].flags & F_RTL) && !(keys[i].flags & F_HIDE_DEFAULT) && !seen_line[i]) {
            err_setf(err, errlen, "%s:%u: %s: missing RTL key (every RTL parameter must be set)",
                     path, line + 1, keys[i].name);
            return -1;
        }
    }
    char why[256] = "";
    if (gmmu_params_check(&c->rtl, why, sizeof(why)) != 0) {
        /* the message starts with the key name: point at its line */
        unsigned at = 0;
        for (size_t i = 0; i < NKEYS; i++) {
            const size_t n = strlen(keys[i].name);
            if (strncmp(why, keys[i].name, n) == 0 && why[n] == ':')
                at = seen_line[i];
        }
        if (at)
            err_setf(err, errlen, "%s:%u: %s", path, at, why);
        else
            err_setf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    if (cfg_check(c, why, sizeof(why)) != 0) {
        const cfg_key_t *pk = find_key("sm_partition");
        const unsigned at = strncmp(why, "sm_partition:", 13) == 0 ? seen_line[pk - keys] : 0;
        if (at)
            err_setf(err, errlen, "%s:%u: %s", path, at, why);
        else
            err_setf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    return 0;
}

int cfg_set(cfg_t *c, const char *kv, char *err, size_t errlen) {
    char buf[512];
    if (strlen(kv) >= sizeof(buf)) {
        err_setf(err, errlen, "--set %.40s...: too long", kv);
        return -1;
    }
    strcpy(buf, kv);
    char *eq = strchr(buf, '=');
    if (!eq) {
        err_setf(err, errlen, "--set %s: expected key=value", kv);
        return -1;
    }
    *eq = '\0';
    char *key = trim(buf);
    char *val = trim(eq + 1);
    const cfg_key_t *k = find_key(key);
    if (!k) {
        err_setf(err, errlen, "--set %s: %s: unknown key", kv, key);
        return -1;
    }
    if (k->flags & F_RTL) {
        err_setf(err, errlen,
                 "--set %s: %s: RTL parameter, fixed when the Verilator model is built (edit the "
                 "config file and rebuild instead)",
                 kv, key);
        return -1;
    }
    char why[256];
    if (set_value(c, k, val, why, sizeof(why)) != 0) {
        err_setf(err, errlen, "--set %s: %s: %s", kv, key, why);
        return -1;
    }
    if (cfg_check(c, why, sizeof(why)) != 0) {
        err_setf(err, errlen, "--set %s: %s", kv, why);
        return -1;
    }
    return 0;
}

int cfg_rtl_equal(const gmmu_params_t *a, const gmmu_params_t *b, char *err, size_t errlen) {
    for (size_t i = 0; i < NKEYS; i++) {
        if (!(keys[i].flags & F_RTL))
            continue;
        const size_t off = keys[i].off - offsetof(cfg_t, rtl);
        const uint32_t va = *(const uint32_t *)(const void *)((const char *)a + off);
        const uint32_t vb = *(const uint32_t *)(const void *)((const char *)b + off);
        if (va != vb) {
            err_setf(err, errlen, "%s: %u in the configuration, %u in the built model",
                     keys[i].name, va, vb);
            return -1;
        }
    }
    return 0;
}

int cfg_format_value(const cfg_t *c, const char *key, char *buf, size_t len) {
    const cfg_key_t *k = find_key(key);
    if (!k)
        return -1;
    const char *base = (const char *)c;
    switch (k->type) {
    case T_U32:
        snprintf(buf, len, "%u", *(const uint32_t *)(const void *)(base + k->off));
        break;
    case T_U64:
        snprintf(buf, len, "%llu",
                 (unsigned long long)*(const uint64_t *)(const void *)(base + k->off));
        break;
    case T_COST: {
        const uint64_t v = *(const uint64_t *)(const void *)(base + k->off);
        if (v == CFG_HDL_DEFAULT)
            snprintf(buf, len, "default");
        else
            snprintf(buf, len, "%llu", (unsigned long long)v);
        break;
    }
    case T_F64:
        snprintf(buf, len, "%g", *(const double *)(const void *)(base + k->off));
        break;
    case T_ENUM:
        snprintf(buf, len, "%s", k->enums[*(const int *)(const void *)(base + k->off)]);
        break;
    case T_POLICY:
        snprintf(buf, len, "%s", base + k->off);
        break;
    case T_PART: {
        size_t n = 0;
        buf[0] = '\0';
        for (uint32_t i = 0; i < c->sm_parts && n < len; i++)
            n += (size_t)snprintf(buf + n, len - n, "%s%u", i ? "," : "", c->sm_part[i]);
        if (c->sm_parts == 0)
            snprintf(buf, len, "none");
        break;
    }
    }
    return 0;
}

/* F_HIDE_DEFAULT keys are listed only when not at their default: old runs' summaries and stats
 * stay byte-identical */
static int cfg_hidden(const cfg_t *c, const cfg_key_t *k) {
    char v[256];
    if (!(k->flags & F_HIDE_DEFAULT))
        return 0;
    cfg_format_value(c, k->name, v, sizeof(v));
    return strcmp(v, k->dflt) == 0;
}

void cfg_print(const cfg_t *c, FILE *f, const char *prefix) {
    char v[256];
    for (size_t i = 0; i < NKEYS; i++) {
        if (cfg_hidden(c, &keys[i]))
            continue;
        cfg_format_value(c, keys[i].name, v, sizeof(v));
        fprintf(f, "%s%-20s = %s%s\n", prefix, keys[i].name, v,
                (keys[i].flags & F_RTL) ? "   (RTL)" : "");
    }
}

void cfg_print_json(const cfg_t *c, FILE *f, const char *indent) {
    char v[256];
    fprintf(f, "{");
    for (size_t i = 0; i < NKEYS; i++) {
        if (cfg_hidden(c, &keys[i]))
            continue;
        cfg_format_value(c, keys[i].name, v, sizeof(v));
        const int quoted = keys[i].type == T_ENUM || keys[i].type == T_POLICY ||
                           keys[i].type == T_PART || strcmp(v, "default") == 0;
        fprintf(f, "%s\n%s  \"%s\": %s%s%s", i ? "," : "", indent, keys[i].name, quoted ? "\"" : "",
                v, quoted ? "\"" : "");
    }
    fprintf(f, "\n%s}", indent);
}
