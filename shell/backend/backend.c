/*
** backend.c — picks the backend for a session.
*/
#include <stdio.h>
#include "backend/backend.h"
#include "support/text.h"

const struct backend *backend_choose(int force_sim, int ordinal, struct device_info *info,
                                     char *notice_text, size_t notice_size)
{
    char why[256];
    snprintf(why, sizeof why, "%s", SAY("built without CUDA", "编译时未启用 CUDA"));
    notice_text[0] = 0;
    if (force_sim) {
        model_backend.open(ordinal, info, why, sizeof why);
        return &model_backend;
    }
#ifdef HAVE_CUDA
    if (gpu_backend.open(ordinal, info, why, sizeof why) == 0)
        return &gpu_backend;
#endif
    snprintf(notice_text, notice_size, SAY("%s: using the access model (sim backend)", "%s：改用访问模型（sim 后端）"), why);
    model_backend.open(ordinal, info, why, sizeof why);
    return &model_backend;
}

void backend_fall_back(const struct backend **backend, struct device_info *info,
                       char *notice_text, size_t notice_size)
{
    char why[256];
    if (!(*backend)->usable || (*backend)->usable())
        return;
    snprintf(notice_text, notice_size, SAY("the %s became unusable after an error: using the access "
             "model (sim backend) until warplab restarts", "%s 出错后已无法使用：在 warplab 重新启动之前改用访问模型（sim 后端）"), info->name);
    (*backend)->close();
    *backend = &model_backend;
    model_backend.open(info->ordinal, info, why, sizeof why);
}
