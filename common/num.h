/*
 * num.h - the project's one number parser (module num_): what configuration files, command lines
 * and text traces accept as an unsigned integer.
 *
 * Decimal ("4096", leading zeros allowed and still decimal: "010" is ten) or hexadecimal with a
 * 0x / 0X prefix ("0x1000"). No octal, no sign, no spaces, no suffix, no empty string.
 */
#ifndef COMMON_NUM_H
#define COMMON_NUM_H

#include <stdint.h>

enum { NUM_OK = 0, NUM_ESYNTAX = -1, NUM_ERANGE = -2 };

/* NUM_OK and *out; NUM_ESYNTAX (not a number of the form above, or s / out NULL) or NUM_ERANGE
 * (above 2^64 - 1), *out untouched. */
int num_parse_u64(const char *s, uint64_t *out);
/* The reason for a status of num_parse_u64, to follow "is": "not a decimal or 0x hex number",
 * "above 2^64-1". */
const char *num_strerror(int status);

#endif
