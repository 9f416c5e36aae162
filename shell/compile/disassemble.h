/*
** disassemble.h — a CUBIN's SASS listing through NVIDIA's disassembler
** (disassemble.c), for the SASS engine and sass().
*/
#ifndef WARPLAB_DISASSEMBLE_H
#define WARPLAB_DISASSEMBLE_H

#include <stddef.h>

/* nvdisasm -g's listing of cubin (malloc'd: the caller frees it), or NULL
   with why (no disassembler here, not a CUBIN, the disassembler failed). */
char *disassemble_cubin(const char *cubin, size_t size, char *why, size_t why_size);

#endif
