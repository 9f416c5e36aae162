/*
** cache_hints.h — the `load` parameter that offset, strided and stencil1d
** share: which cache path their global loads take. The choice values
** (LOAD_DEFAULT ...) are in family.h, where the model and the .cu files
** see them too.
** A hint changes where a sector is looked up and kept (L1, L2, the
** read-only path), never which sectors a warp asks for: the model's
** requests and sectors are the same for every hint.
*/
#ifndef WARPLAB_CACHE_HINTS_H
#define WARPLAB_CACHE_HINTS_H

#include "model/family.h"

/* In the order of LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_LDG, LOAD_CS. */
static const char *const load_hint_choices[] = { "default", "ca", "cg", "ldg", "cs", NULL };

/* The `load` parameter in slot `slot` of a family's params. */
#define LOAD_HINT_PARAM(slot)                                                                   \
    [slot] = { .name = "load", .type = PARAM_CHOICE, .fallback = LOAD_DEFAULT, .choices = load_hint_choices, \
      .doc = "cache hint of the global loads: \"default\" plain ld.global (cached in L1 on sm_70 and newer), "  \
      "\"ca\" __ldca (cache in L1 and L2), \"cg\" __ldcg (L2 only, bypassing L1: the notes' "     \
      "-dlcm=cg), \"ldg\" __ldg (the read-only path through L1), \"cs\" __ldcs (streaming: "      \
      "evict first); requests and sectors are the same for all, L1 hits and L2 traffic are not", \
      .doc_zh = "全局读取的缓存提示：\"default\" 普通 ld.global（sm_70 及以后经 L1 缓存），\"ca\" __ldca（缓存在 "   \
      "L1 和 L2），\"cg\" __ldcg（只用 L2、绕过 L1，即笔记中的 -dlcm=cg），\"ldg\" __ldg（经 L1 "      \
      "的只读通路），\"cs\" __ldcs（流式：优先淘汰）；各提示的请求数和扇区数相同，L1 命中和 L2 "      \
      "流量不同" }

#endif
