#!/bin/sh
# add_family.sh — "Adding a family" in docs/kernels.md, followed step by step
# with a throw-away family (twice: out[i] = factor * in[i]) in a copy of the
# tree, built without CUDA: the family is listed, documented by --list
# --format markdown, and launches with its own parameter. A step of the doc
# that drifts from the build fails here. Needs the source tree as a git
# checkout (the files to copy) and autoreconf; SKIP without them.
srcdir=${srcdir:-.}
. "${srcdir:-.}/tests/lib/tap.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tree="$tmp/tree"
copy_tree "$tree"

# 1. the CUDA kernel
cat > "$tree/kernels/families/twice_kernel.cu" <<'CU'
// twice: out[i] = factor * in[i].
#include "family.h"
#include "twice.h"

__global__ void twice(const float *__restrict__ in, float *__restrict__ out, long long n, float factor)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = factor * in[i];
}
CU
# 2. its header: its parameter's slot
cat > "$tree/kernels/families/twice.h" <<'H'
/*
** twice.h — where twice's parameter (factor) sits in struct params.
*/
#ifndef WARPLAB_TWICE_H
#define WARPLAB_TWICE_H

enum { TWICE_FACTOR = 2 };

#endif
H
# 3. the declaration
cat > "$tree/kernels/families/twice.c" <<'C'
/*
** twice.c — out[i] = factor * in[i].
*/
#include "model/common.h"
#include "families/twice.h"

extern const char twice_kernel_cu[];

static const struct param_decl twice_params[] = {
    COMMON_PARAMS(1LL << 20),
    [TWICE_FACTOR] = { .name = "factor", .type = PARAM_INT, .fallback = 2, .min = 1, .max = 4, ONLY(1, 2, 4),
      .doc = "what each element is multiplied by", .doc_zh = "每个元素乘以的数" },
};

static const struct buffer_decl twice_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

static int twice_element_bytes(const struct params *p) { return 4; }
static uint64_t twice_useful_bytes(const struct params *p) { return 8 * (uint64_t)p->v[PARAM_N]; }

static void twice_reference(const struct params *p, void *const *buffers)
{
    const float *in = buffers[0];
    float *out = buffers[1];
    for (long long i = 0; i < p->v[PARAM_N]; i++)
        out[i] = (float)p->v[TWICE_FACTOR] * in[i];
}

static int twice_warp_accesses(const struct params *p, const uint64_t *base, long long warp, struct warp_access *acc)
{
    return warp_copy(acc, 4, warp, base, p->v[PARAM_N]);
}

static void twice_kernel_call(const struct params *p, struct kernel_call *call)
{
    call_kernel(call, one_thread_per_element(p), "twice");
    call_buffer(call, 0);
    call_buffer(call, 1);
    call_value(call, p->v[PARAM_N]);
    call_float(call, (float)p->v[TWICE_FACTOR]);
}

const struct family family_twice = {
    .name = "twice",
    .summary = "out[i] = factor * in[i]",
    .teaches = "how a family is added",
    .summary_zh = "out[i] = factor * in[i]",
    .teaches_zh = "如何加入一个核函数族",
    .params = twice_params,
    .param_count = COUNT_OF(twice_params),
    .buffers = twice_buffers,
    .buffer_count = COUNT_OF(twice_buffers),
    .element_bytes = twice_element_bytes,
    .buffer_elements = n_in_n_out,
    .useful_bytes = twice_useful_bytes,
    .shape = one_thread_per_element,
    .reference = twice_reference,
    .warp_accesses = twice_warp_accesses,
    .kernel_call = twice_kernel_call,
    .source = twice_kernel_cu,
};
C
# 4. the one list
sed -i 's|^\tkernels/families/matmul.c$|\tkernels/families/matmul.c \\\n\tkernels/families/twice.c|' "$tree/kernels/families/families.am"
grep -q 'kernels/families/twice.c' "$tree/kernels/families/families.am"
result "families.am's FAMILIES takes the new file" $?
# the family is added in one folder: nothing outside kernels/families/ changed
outside=$(changed_outside "$tree" kernels/families/)
[ -z "$outside" ]
result "only files of kernels/families/ changed (${outside:-none outside})" $?

(cd "$tree" && autoreconf -fi && ./configure --without-cuda && make -j2 warplab) > "$tmp/build.log" 2>&1
status=$?
result "the tree with the new family builds" $status
[ $status = 0 ] || { tail -20 "$tmp/build.log" | sed 's/^/# /'; tap_done; exit 1; }

"$tree/warplab" --list 2>&1 | grep -q '^twice  *out\[i\] = factor \* in\[i\]$'
result "--list lists it" $?
"$tree/warplab" --lang en --list --format markdown 2>&1 | grep -q '^| `factor` | integer | 2 | 1, 2 or 4 | what each element is multiplied by |$'
result "--list --format markdown documents its parameter (step 5 pastes this)" $?
out=$("$tree/warplab" --lang en -e 'r = launch("twice", {factor = 4}); io.write(r.load.sectors_per_request, " ", r.params.factor)' 2>/dev/null)
[ "$out" = "4.0 4" ] || [ "$out" = "4 4" ]
result "it launches with its own parameter (got '$out')" $?
"$tree/warplab" --lang en -e 'launch("twice", {factor = 3})' 2>&1 | grep -q "'factor' must be 1, 2 or 4, got 3"
result "... and its parameter is checked" $?

tap_done
