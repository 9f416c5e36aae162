-- prelude.lua (warplab.prelude): the part of warplab's Lua API written in
-- Lua that every other module stands on: how results, devices and kernels
-- look on screen, and the text helpers the others share (its exports).
local core = require "warplab.core"
local text = require "warplab.text"

local fmt = string.format
local text_in, message, messages_of, quote = text.text_in, text.message, text.messages, text.quote
local wide, display_width, paint, text_lines, wrap = text.wide, text.display_width, text.paint, text.text_lines, text.wrap
local hanging, pad, align_right, source_lines, fit, plural =
  text.hanging, text.pad, text.align_right, text.source_lines, text.fit, text.plural
local commas, bytes, mebibytes, percent, bar = text.commas, text.bytes, text.mebibytes, text.percent, text.bar
local localized, limit_text = text.localized, text.limit_text
local message_tables = text.message_tables
local registry = require "warplab.registry"
local families, family_by_name, families_changed = registry.families, registry.family_by_name, registry.families_changed
local value_text, params_text = registry.value_text, registry.params_text
local result = require "warplab.result"
local result_problem, check_result, guarded = result.result_problem, result.check_result, result.guarded
local files = require "warplab.files"
local utc_now, write_or_raise, make_folder_or_raise = files.utc_now, files.write_or_raise, files.make_folder_or_raise
local copy_table = files.copy_table

---------------------------------------------------------------------------
-- What this file prints, in both languages
---------------------------------------------------------------------------

local messages = {
  -- the result card: labels of its rows, then the rows
  label_time = { en = "time", zh = "时间" },
  label_bandwidth = { en = "bandwidth", zh = "带宽" },
  label_loads = { en = "loads", zh = "读取" },
  label_stores = { en = "stores", zh = "写入" },
  label_shared_ld = { en = "shared ld", zh = "共享读取" },
  label_shared_st = { en = "shared st", zh = "共享写入" },
  label_constant = { en = "constant", zh = "常量内存" },
  label_atomic = { en = "atomics", zh = "原子操作" },
  label_reduction = { en = "reductions", zh = "归约" },
  label_shared_atomic = { en = "sh. atomic", zh = "共享原子" },
  label_ldgsts = { en = "cp.async", zh = "cp.async" },
  label_dram = { en = "DRAM", zh = "DRAM" },
  label_counters = { en = "counters", zh = "计数器" },
  label_caches = { en = "caches", zh = "缓存" },
  label_shared = { en = "shared", zh = "共享内存" },
  label_footprint = { en = "footprint", zh = "内存占用" },
  label_check = { en = "check", zh = "检查" },
  label_source = { en = "source", zh = "源代码" },
  label_level = { en = "emulated", zh = "模拟" },
  level_sass = { en = "the machine code the GPU runs (SASS, sm_90), instruction by instruction",
                 zh = "GPU 执行的机器码（SASS，sm_90），逐条指令" },
  level_ptx = { en = "PTX, not the machine code: %s", zh = "PTX，而非机器码：%s" },
  list_item = { en = "[%d of %d]", zh = "[第 %d 个，共 %d 个]" },
  label_note = { en = "note", zh = "注意" },
  header_gpu = { en = "gpu · %s L2 · %d samples", zh = "gpu · %s L2 · %d 个样本" },
  header_sim = { en = "sim · modelled, not measured", zh = "sim · 模型估算，不是实测" },
  cold = { en = "cold", zh = "冷" },
  warm = { en = "warm", zh = "热" },
  time_modelled = { en = "≈ %.4f ms (modelled for %s, limited by %s)", zh = "≈ %.4f ms（按 %s 模型估算，瓶颈：%s）" },
  bandwidth_modelled = { en = "≈ %.0f GB/s useful (modelled)", zh = "≈ %.0f GB/s 有用带宽（模型估算）" },
  time_measured = { en = "%.4f ms  (IQR ±%.1f%%, min %.4f, max %.4f)%s   model %.4f (%s)",
                    zh = "%.4f ms（四分位距 ±%.1f%%，最小 %.4f，最大 %.4f）%s   模型 %.4f（%s）" },
  sm_clock = { en = " · SM %.0f MHz", zh = " · SM %.0f MHz" },
  of_copy = { en = " · %s of copy %.0f GB/s", zh = " · 复制上限的 %s（%.0f GB/s）" },
  bandwidth_measured = { en = "%.0f GB/s useful · %s of peak %.0f GB/s%s",
                         zh = "%.0f GB/s 有用带宽 · 峰值带宽的 %s（%.0f GB/s）%s" },
  traffic = { en = "%.2f sectors/request%s%s   ideal %.2f   %s %s useful",
              zh = "每请求 %.2f 个扇区%s%s   理想值 %.2f   %s %s 有用" },
  tag_model = { en = " (model)", zh = "（模型）" },
  beside_model = { en = "   model %.2f", zh = "   模型 %.2f" },
  counts = { en = "%s requests · %s sectors · %s lines", zh = "%s 个请求 · %s 个扇区 · %s 个缓存行" },
  traffic_none = { en = "none", zh = "无" },
  atomic_counts = { en = "%s requests · %s sectors (%.2f a request) · %s operations%s",
                    zh = "%s 个请求 · %s 个扇区（每请求 %.2f 个）· %s 次操作%s" },
  atomic_hardware = { en = " (hardware%s)", zh = "（硬件%s）" },
  atomic_not_model = { en = "; model %s requests · %s sectors", zh = "；模型 %s 个请求 · %s 个扇区" },
  atomic_serial = { en = "up to %.2f lanes of a request on one address (mean) · busiest address %s%s operations · %s addresses (model)",
                    zh = "每个请求中同一地址上最多 %.2f 个线程（平均）· 最忙的地址 %s%s 次操作 · 共 %s 个地址（模型）" },
  at_least = { en = "at least ", zh = "至少 " },
  shared_atomic_counts = { en = "%s requests · %s operations · up to %.2f lanes of a request on one address (mean, model)",
                           zh = "%s 个请求 · %s 次操作 · 每个请求中同一地址上最多 %.2f 个线程（平均，模型）" },
  counts_hardware = { en = "%s requests · %s sectors (hardware)%s", zh = "%s 个请求 · %s 个扇区（硬件）%s" },
  same_as_model = { en = " = model", zh = " = 模型" },
  not_model = { en = "  != model %s requests · %s sectors", zh = "  != 模型 %s 个请求 · %s 个扇区" },
  dram_not_estimated = { en = "not estimated: %s", zh = "未估算：%s" },
  dram_estimate = { en = "%s read · at most %s written", zh = "读取 %s · 至多写入 %s" },
  dram_modelled = { en = "%s (modelled, cold L2)", zh = "%s（模型估算，冷 L2）" },
  counters_unavailable = { en = "unavailable: %s", zh = "不可用：%s" },
  dram_hardware = { en = "%s read · %s written (hardware)   model %s", zh = "读取 %s · 写入 %s（硬件）   模型 %s" },
  caches = { en = "L1 hit %s · L2 hit %s · L2 served %s sectors to L1, took %s from it",
             zh = "L1 命中率 %s · L2 命中率 %s · L2 向 L1 提供 %s 个扇区，从 L1 接收 %s 个" },
  counters_missing = { en = "not read on this GPU: %s (%s)", zh = "这块 GPU 上读不到：%s（%s）" },
  shared_counters = { en = "%s load / %s store wavefronts · %s / %s bank conflicts",
                      zh = "读取 %s / 写入 %s 个 wavefront · %s / %s 次存储体冲突" },
  shared_access = { en = "%s requests · %s wavefronts (ideal %s) · %s bank conflicts%s",
                    zh = "%s 个请求 · %s 个 wavefront（理想值 %s）· %s 次存储体冲突%s" },
  shared_hardware = { en = " (hardware; model %s)", zh = "（硬件；模型 %s）" },
  constant = { en = "%s requests · %s passes (%.2f a request: the constant cache serves one address a pass, model)",
               zh = "%s 个请求 · %s 轮（每个请求 %.2f 轮：常量缓存每轮只服务一个地址，模型）" },
  footprint = { en = "%s in buffers · %s useful bytes moved", zh = "缓冲区共 %s · 搬运的有用字节 %s" },
  check_right = { en = "output matches the CPU reference", zh = "输出与 CPU 参考结果一致" },
  source_ran = { en = "%s.cu, version %s, compiled at %s", zh = "%s.cu，版本 %s，%s 编译" },
  check_wrong = { en = "WRONG: %s", zh = "错误：%s" },
  check_sample = { en = "%s; checked %s of %s elements: a sample (the first and last, each block's first and last, and random ones)",
                   zh = "%s；检查了 %s 个元素（共 %s 个）：一个抽样（开头和结尾、每个线程块的第一个和最后一个，以及随机的元素）" },
  check_not_done = { en = "not checked: %s", zh = "未检查：%s" },
  check_summed = { en = "%s; %s values summed by float atomics: within the rounding of up to %s terms in any order (a tolerance of at most %s)",
                   zh = "%s；浮点原子操作求和的 %s 个值：在至多 %s 项以任意顺序相加的舍入之内（容差至多 %s）" },
  -- what a result, a device ... whose fields were changed is called
  kind_result = { en = "a result", zh = "结果" },
  kind_device = { en = "a device() table", zh = "device() 表" },
  kind_kernels = { en = "a kernels() list", zh = "kernels() 列表" },
  kind_info = { en = "an info() table", zh = "info() 表" },
  kind_allocations = { en = "an alloc_alignment() list", zh = "alloc_alignment() 列表" },
  -- the warp map
  kind_load = { en = "load", zh = "读取" },
  kind_store = { en = "store", zh = "写入" },
  ["kind_shared load"] = { en = "shared load", zh = "共享内存读取" },
  ["kind_shared store"] = { en = "shared store", zh = "共享内存写入" },
  kind_atomic = { en = "atomic", zh = "原子操作" },
  kind_reduction = { en = "reduction", zh = "归约" },
  ["kind_shared atomic"] = { en = "shared atomic", zh = "共享内存原子操作" },
  kind_ldgsts = { en = "cp.async", zh = "cp.async" },
  map_header = { en = "warp %d of %s  %s · lanes 0-31 are threads %d-%d · one cell = 4 bytes, %s used, %s fetched and unused, %s not fetched",
                 zh = "warp %d（%s  %s）· warp 内的线程 0-31 即线程 %d-%d · 每格 = 4 字节，%s 已使用，%s 已取回未使用，%s 未取回" },
  map_line = { en = "  +%-9d %s   lane%s %s", zh = "  +%-9d %s   线程%s %s" },
  map_access = { en = "%s %s[] · %d-byte elements · %d lanes · %d sector%s (ideal %d) · %d of %d fetched bytes used (%s)",
                 zh = "%s %s[] · %d 字节的元素 · %d 个线程 · %d 个扇区%s（理想值 %d）· 取回的 %d/%d 字节被使用（%s）" },
  map_shared = { en = "%s · %d-byte elements · %d lanes · %d wavefront%s (ideal %d)%s",
                 zh = "%s · %d 字节的元素 · %d 个线程 · %d 个 wavefront%s（理想值 %d）%s" },
  map_conflicts = { en = " · %d extra from bank conflicts", zh = " · 存储体冲突多出 %d 个" },
  map_bank = { en = "bank", zh = "存储体" },
  map_words = { en = "words", zh = "字" },
  map_constant = { en = "constant load · %d-byte elements · %d lanes · %d distinct address%s: %d pass%s of the constant cache",
                   zh = "常量内存读取 · %d 字节的元素 · %d 个线程 · %d 个不同地址%s：常量缓存 %d 轮%s" },
  map_total = { en = "warp %d: %d global requests · %d sectors · %d of %d fetched bytes used (%s)",
                zh = "warp %d：%d 个全局内存请求 · %d 个扇区 · 取回的 %d/%d 字节被使用（%s）" },
  warp_expected = { en = "bad argument #2 to 'show' (warp number expected, got %s)",
                    zh = "bad argument #2 to 'show' (需要 warp 编号，得到 %s)" },
  -- device(), the banner, alloc_alignment()
  device = { en = "%s · sm_%s · %d SMs · L2 %s · %s memory", zh = "%s · sm_%s · %d 个 SM · L2 %s · %s 设备内存" },
  device_bus = { en = "memory bus %d bits at %.0f MHz · peak %.0f GB/s (2 × clock × bus width / 8)",
                 zh = "内存总线 %d 位，%.0f MHz · 峰值带宽 %.0f GB/s（2 × 时钟 × 总线位宽 / 8）" },
  device_copy = { en = "measured copy ceiling %.0f GB/s (cudaMemcpy device to device, read + written)",
                  zh = "实测复制上限 %.0f GB/s（cudaMemcpy 设备到设备，读取 + 写入）" },
  device_no_copy = { en = "copy ceiling: not measured (no GPU)", zh = "复制上限：未实测（没有 GPU）" },
  backend_sim = { en = "backend %s: numbers are the access model's", zh = "后端 %s：数字来自访问模型" },
  backend_gpu = { en = "backend %s: CUDA", zh = "后端 %s：CUDA" },
  modelled_device = { en = "%s (modelled)", zh = "%s（模型估算）" },
  banner_where = { en = "%s (sm_%s, %d SMs, L2 %s) · peak %.2f TB/s", zh = "%s（sm_%s，%d 个 SM，L2 %s）· 峰值带宽 %.2f TB/s" },
  banner_copy = { en = " · copy %.2f TB/s", zh = " · 复制 %.2f TB/s" },
  banner = { en = "warplab %s · %s\nNew here? :lab tour.  :help for help, or launch(\"offset\", {offset=1}).  Tab completes.",
             zh = "warplab %s · %s\n初次使用？输入 :lab tour。:help 查看帮助，或试试 launch(\"offset\", {offset=1})。Tab 键补全。" },
  aligned = { en = "  %2d  %-18s aligned to 2^%d = %s bytes%s", zh = "  %2d  %-18s 对齐到 2^%d = %s 字节%s" },
  under_256 = { en = "  (under 256!)", zh = "（不足 256！）" },
  alignment_modelled = { en = "  (modelled: the sim backend has no cudaMalloc to ask)",
                         zh = "  （模型估算：sim 后端没有 cudaMalloc 可问）" },
  alignment_measured = { en = "  (from cudaMalloc on this GPU)", zh = "  （来自这块 GPU 上的 cudaMalloc）" },
  -- kernels() and info()
  teaches = { en = "teaches: %s", zh = "教学要点：%s" },
  parameters = { en = "parameters:", zh = "参数：" },
  default = { en = "default", zh = "默认值" },
  source = { en = "kernel source (as compiled):", zh = "内核源码（编译所用）：" },
  type_integer = { en = "integer", zh = "整数" },
  type_string = { en = "string", zh = "字符串" },
  ["type_block shape"] = { en = "block shape", zh = "线程块形状" },
  kernel_expected = { en = "kernel name expected, got %s", zh = "需要内核名，得到 %s" },
  bad_info = { en = "bad argument #1 to 'info' (%s)", zh = "bad argument #1 to 'info' (%s)" },
  -- help()
  topic_expected = { en = "bad argument #1 to 'help' (topic name expected, got %s)",
                     zh = "bad argument #1 to 'help' (需要主题名，得到 %s)" },
  ambiguous_topic = { en = "bad argument #1 to 'help' (%s begins several topics: %s)",
                      zh = "bad argument #1 to 'help' (%s 是多个主题的开头：%s)" },
  unknown_topic = { en = "bad argument #1 to 'help' (unknown topic %s; topics: %s)",
                    zh = "bad argument #1 to 'help' (没有主题 %s；主题有：%s)" },
  topic_name = { en = "%s", zh = "'%s'" },
  list_separator = { en = ", ", zh = "、" },
}
local say = messages_of("prelude", messages)

-- A device's name: "(modelled)" in the session's language; left out in Chinese
-- with bare, where the text around the name says it is modelled.
local function device_name(name, bare)
  local base = name:match("^(.*) %(modelled%)$")
  if not base then return name end
  if bare then return base end
  return core.lang() == "zh" and say("modelled_device", base) or name
end

---------------------------------------------------------------------------
-- Results
---------------------------------------------------------------------------

local Result = core.Result

-- One row of the result card: its label (a message key) padded to ten columns, by
-- display width so that Chinese labels line up too, then the text.
local function card_row(label, text)
  return hanging("  " .. pad(label and say(label) or "", 10) .. " ", text)
end

-- "5.00 sectors/request   model 5.00   ideal 4.00   bar", then the counts;
-- a disagreement between the hardware and the model is marked with "!=".
local function traffic_lines(label, t, model, measured_backend)
  if t.requests == 0 and model.requests == 0 then return card_row(label, say("traffic_none")) end   -- no "100% useful" of nothing
  local tag = t.source == "model" and measured_backend and say("tag_model") or ""
  local beside = t.source == "hardware" and say("beside_model", model.sectors_per_request) or ""
  local counts = say("counts", commas(t.requests), commas(t.sectors), commas(t.lines))
  if t.source == "hardware" then
    local same = t.requests == model.requests and t.sectors == model.sectors
    counts = say("counts_hardware", commas(t.requests), commas(t.sectors),
                 same and say("same_as_model") or paint("bad", say("not_model", commas(model.requests), commas(model.sectors))))
  end
  return table.concat({
    card_row(label, say("traffic", t.sectors_per_request, tag, beside, t.ideal, bar(t.useful_fraction, 10),
                        percent(t.useful_fraction))),
    card_row(nil, counts),
  }, "\n")
end

-- An atomics row (global atom or red): requests and sectors, the hardware's
-- beside the model's when counters were read, then what serialises them.
local function atomic_lines(label, a, model, measured_backend)
  local source = a.source == "model" and measured_backend and say("tag_model") or ""
  if a.source == "hardware" then
    local same = a.requests == model.requests and a.sectors == model.sectors
    source = say("atomic_hardware", same and say("same_as_model")
                 or paint("bad", say("atomic_not_model", commas(model.requests), commas(model.sectors))))
  end
  return table.concat({
    card_row(label, say("atomic_counts", commas(a.requests), commas(a.sectors), a.sectors_per_request,
                        commas(a.operations), source)),
    card_row(nil, say("atomic_serial", a.same_address_per_request, a.hottest_at_least and say("at_least") or "",
                      commas(a.hottest_operations), commas(a.addresses))),
  }, "\n")
end

-- The rows of the atomics and cp.async a launch made, those it made.
local function atomic_rows(r, measured)
  local lines = {}
  for _, kind in ipairs({ "atomic", "reduction" }) do
    if r[kind] then lines[#lines + 1] = atomic_lines("label_" .. kind, r[kind], r.model[kind] or r[kind], measured) end
  end
  local s = r.shared_atomic
  if s then
    lines[#lines + 1] = card_row("label_shared_atomic", say("shared_atomic_counts", commas(s.requests),
                                 commas(s.operations), s.same_address_per_request))
  end
  if r.ldgsts then
    lines[#lines + 1] = traffic_lines("label_ldgsts", r.ldgsts, r.model.ldgsts or r.ldgsts, measured)
  end
  return lines
end

-- The model's DRAM estimate, for a cold L2.
local function model_dram_text(dram)
  if not dram.read_bytes then return say("dram_not_estimated", dram.note) end
  return say("dram_estimate", bytes(dram.read_bytes), bytes(dram.write_bytes))
end

-- A hardware counter's value, or nil where this GPU does not give it
-- (rawget: counters.NAME of a missing counter is an error, for lab code).
local function counter(r, field)
  local entry = rawget(r.counters, field)
  return entry and entry.value
end

-- A counter's value as the card shows it: "–" for one this GPU does not give.
local function shown(value, format)
  if value == nil then return "–" end
  return format(value)
end
local function rate(value) return fmt("%.1f%%", value) end

-- Which counters this GPU did not give, and why (one reason: they share the
-- chip); those of atomics or cp.async only when the launch made some.
local function missing_line(r)
  if not r.counters_missing then return nil end
  local names, reason = {}, nil
  for field, why in pairs(r.counters_missing) do
    local kind = field:match("^(%a+)_requests$") or field:match("^(%a+)_sectors$")
    if not (kind == "atomic" or kind == "reduction" or kind == "ldgsts") or r.model[kind] then
      names[#names + 1] = field
      reason = reason or why
    end
  end
  if #names == 0 then return nil end
  table.sort(names)
  return card_row("label_counters", say("counters_missing", table.concat(names, ", "), reason))
end

-- DRAM, cache and shared-memory lines from the hardware counters (or the model's DRAM estimate).
local function counter_lines(r)
  if not r.counters then
    local lines = { card_row("label_dram", say("dram_modelled", model_dram_text(r.model.dram))) }
    if r.counters_unavailable then
      lines[2] = card_row("label_counters", say("counters_unavailable", r.counters_unavailable))
    end
    return lines
  end
  local read, written = counter(r, "dram_read_bytes"), counter(r, "dram_write_bytes")
  local lines = {
    read and written and card_row("label_dram", say("dram_hardware", bytes(read), bytes(written), model_dram_text(r.model.dram)))
      or card_row("label_dram", say("dram_modelled", model_dram_text(r.model.dram))),
    card_row("label_caches", say("caches", shown(counter(r, "l1_hit_rate"), rate), shown(counter(r, "l2_hit_rate"), rate),
                                 shown(counter(r, "l2_read_sectors"), commas), shown(counter(r, "l2_write_sectors"), commas))),
  }
  local wavefronts = (counter(r, "shared_load_wavefronts") or 0) + (counter(r, "shared_store_wavefronts") or 0)
  if wavefronts > 0 then
    lines[#lines + 1] = card_row("label_shared", say("shared_counters",
      shown(counter(r, "shared_load_wavefronts"), commas), shown(counter(r, "shared_store_wavefronts"), commas),
      shown(counter(r, "shared_load_conflicts"), commas), shown(counter(r, "shared_store_conflicts"), commas)))
  end
  lines[#lines + 1] = missing_line(r)
  return lines
end

local function header_line(r)
  local left = r.kernel .. "  " .. params_text(r.kernel, r.params)
  local right
  if r.backend == "gpu" then
    right = say("header_gpu", messages[r.cache] and say(r.cache) or tostring(r.cache), #r.samples)
  else
    right = say("header_sim")
  end
  local line = math.min(core.columns(), 80) - 2
  local gap = line - display_width(left) - display_width(right)
  if gap < 2 then return wrap(left, line, "  ") .. "\n  " .. right end   -- too narrow: the backend on a line of its own
  return left .. (" "):rep(gap) .. right
end

local function time_lines(r)
  local m = r.model
  if not r.time_ms then
    return table.concat({
      card_row("label_time", say("time_modelled", m.time_ms, device_name(m.device, true), limit_text(m))),
      card_row("label_bandwidth", say("bandwidth_modelled", m.bandwidth_gbs)),
    }, "\n")
  end
  local d = core.globals.device()
  local clock = r.sm_clock_mhz and say("sm_clock", r.sm_clock_mhz) or ""
  local copy = r.copy_fraction and say("of_copy", percent(r.copy_fraction), d.copy_gbs) or ""
  local lines = {
    card_row("label_time", say("time_measured", r.time_ms, 50 * r.time_iqr, r.time_min_ms, r.time_max_ms, clock,
                               m.time_ms, limit_text(m))),
    card_row("label_bandwidth", say("bandwidth_measured", r.bandwidth_gbs, percent(r.peak_fraction), d.peak_gbs,
                                    copy)),
  }
  return table.concat(lines, "\n")
end

-- The check row: right or wrong, of how many elements when a sample was
-- checked, and within what tolerance float atomics' sums; or why there was no check.
local function check_line(r)
  if r.correct == nil then return r.unchecked and card_row("label_check", say("check_not_done", r.unchecked)) or nil end
  local verdict = r.correct and say("check_right") or say("check_wrong", r.mismatch)
  if r.output_elements and r.checked_elements < r.output_elements then
    verdict = say("check_sample", verdict, commas(r.checked_elements), commas(r.output_elements))
  end
  -- float atomics add in any order: their sums (of two terms or more) were not compared bit for bit
  if type(r.tolerance) == "table" and (tonumber(r.tolerance.most_terms) or 0) > 1 then
    verdict = say("check_summed", verdict, commas(r.tolerance.values), commas(r.tolerance.most_terms),
                  string.format("%.3g", r.tolerance.widest))
  end
  return card_row("label_check", verdict)
end

-- The source row of a kernel declared in Lua: which version of its source
-- this launch ran (a short hash) and when that version was compiled.
local function source_line(r)
  local version, compiled = require("warplab.kernel").version_ran(r)   -- kernel requires this module
  if not version then return nil end
  return card_row("label_source", say("source_ran", r.kernel, version, os.date("%H:%M:%S", compiled)))
end

-- The emulator's row: which code it ran, the SASS the GPU runs or the PTX (and why).
local function level_line(r)
  local level = r.model.level
  if level == "sass" then return card_row("label_level", say("level_sass")) end
  if level == "ptx" and r.model.level_why then return card_row("label_level", say("level_ptx", r.model.level_why)) end
end

-- A shared-memory row of the card: requests, wavefronts, conflicts, and whose numbers they are.
local function shared_line(r, kind)
  local sh = r[kind]
  local source = sh.source == "hardware" and say("shared_hardware", commas(sh.model_wavefronts))
                 or (r.backend == "gpu" and say("tag_model") or "")
  return card_row(kind == "shared_load" and "label_shared_ld" or "label_shared_st",
                  say("shared_access", commas(sh.requests), commas(sh.wavefronts), commas(sh.ideal_wavefronts),
                      commas(sh.bank_conflicts), source))
end

local function result_text(r)
  local measured = r.backend == "gpu"
  local lines = {
    header_line(r),
    time_lines(r),
    traffic_lines("label_loads", r.load, r.model.load, measured),
    traffic_lines("label_stores", r.store, r.model.store, measured),
  }
  for _, line in ipairs(atomic_rows(r, measured)) do lines[#lines + 1] = line end
  for _, kind in ipairs({ "shared_load", "shared_store" }) do
    if r[kind] then lines[#lines + 1] = shared_line(r, kind) end
  end
  if r.constant then
    lines[#lines + 1] = card_row("label_constant", say("constant", commas(r.constant.requests),
                                 commas(r.constant.passes), r.constant.passes / r.constant.requests))
  end
  for _, line in ipairs(counter_lines(r)) do lines[#lines + 1] = line end
  lines[#lines + 1] = card_row("label_footprint", say("footprint", bytes(r.footprint_bytes), bytes(r.useful_bytes)))
  lines[#lines + 1] = check_line(r)
  lines[#lines + 1] = source_line(r)
  lines[#lines + 1] = level_line(r)
  for _, warning in ipairs(r.warnings) do lines[#lines + 1] = card_row("label_note", tostring(warning)) end
  return table.concat(lines, "\n")
end
Result.__tostring = guarded(messages.kind_result, result_text, result_problem)

---------------------------------------------------------------------------
-- Warp maps: one warp's accesses, line by line, sector by sector
---------------------------------------------------------------------------

-- "0-30", "31", "0, 4, 8-11": sorted lane numbers as ranges.
local function lane_ranges(lanes)
  table.sort(lanes)
  local parts, first = {}, 1
  for i = 1, #lanes do
    if i == #lanes or lanes[i + 1] ~= lanes[i] + 1 then
      parts[#parts + 1] = first == i and tostring(lanes[i]) or lanes[first] .. "-" .. lanes[i]
      first = i + 1
    end
  end
  return table.concat(parts, ", ")
end

-- Marks, for one access, the bytes used per 128-byte line and the lanes in each line.
local function lines_of(access)
  local lines = {}
  for lane = 0, 31 do
    local offset = access.lanes[lane + 1]
    if offset then
      for byte = offset, offset + access.bytes - 1 do
        local line = byte // 128
        local entry = lines[line] or { used = {}, lanes = {}, seen = {} }
        lines[line] = entry
        entry.used[byte % 128] = true
        if not entry.seen[lane] then entry.seen[lane] = true; entry.lanes[#entry.lanes + 1] = lane end
      end
    end
  end
  return lines
end

-- One line as 4 sectors of 8 four-byte cells: used, fetched but unused, not fetched.
local function line_row(entry, marks)
  local sectors, fetched, used = {}, 0, 0
  for sector = 0, 3 do
    local cells, any = {}, false
    for cell = 0, 7 do
      local hit = false
      for byte = 0, 3 do
        if entry.used[sector * 32 + cell * 4 + byte] then hit = true; used = used + 1 end
      end
      cells[cell + 1] = hit
      any = any or hit
    end
    local text = {}
    for cell = 1, 8 do text[cell] = not any and marks.none or cells[cell] and marks.used or marks.unused end
    sectors[#sectors + 1] = table.concat(text)
    if any then fetched = fetched + 1 end
  end
  return table.concat(sectors, " "), fetched, used
end

local function draw_access(access, marks)
  local lines = lines_of(access)
  local order = {}
  for line in pairs(lines) do order[#order + 1] = line end
  table.sort(order)
  local rows, sectors, used, lanes = {}, 0, 0, 0
  for _ in pairs(access.lanes) do lanes = lanes + 1 end
  for _, line in ipairs(order) do
    local row, fetched, bytes_used = line_row(lines[line], marks)
    sectors, used = sectors + fetched, used + bytes_used
    rows[#rows + 1] = say("map_line", line * 128, row, plural(#lines[line].lanes), lane_ranges(lines[line].lanes))
  end
  local ideal = (lanes * access.bytes + 31) // 32
  table.insert(rows, 1, say("map_access", say("kind_" .. access.kind), access.buffer or "?", access.bytes, lanes, sectors,
    plural(sectors), ideal, used, 32 * sectors, percent(sectors > 0 and used / (32 * sectors) or 1)))
  return table.concat(rows, "\n"), sectors, used
end

-- A shared-memory access: for each of the 32 banks, how many distinct words the lanes hit in it.
local function draw_shared(access)
  local words, lanes = {}, 0
  for lane = 0, 31 do
    local offset = access.lanes[lane + 1]
    if offset then
      lanes = lanes + 1
      for word = offset // 4, (offset + access.bytes - 1) // 4 do words[word] = true end
    end
  end
  local per_bank, header, counts = {}, {}, {}
  for word in pairs(words) do per_bank[word % 32] = (per_bank[word % 32] or 0) + 1 end
  for bank = 0, 31 do
    header[#header + 1] = fmt("%2d", bank)
    counts[#counts + 1] = fmt("%2s", per_bank[bank] and tostring(per_bank[bank]) or "-")
  end
  local ideal = (lanes * access.bytes + 127) // 128
  local width = math.max(display_width(say("map_bank")), display_width(say("map_words")))
  local lines = { say("map_shared", say("kind_" .. access.kind), access.bytes, lanes, access.wavefronts, plural(access.wavefronts),
                      ideal, access.wavefronts > ideal and say("map_conflicts", access.wavefronts - ideal) or "") }
  -- the 32 banks on one pair of rows, or in halves of 16 where the terminal is too narrow for 32
  local per_row = 3 + width + 3 * 32 <= core.columns() and 32 or 16
  for first = 1, 32, per_row do
    lines[#lines + 1] = "  " .. pad(say("map_bank"), width) .. " " .. table.concat(header, " ", first, first + per_row - 1)
    lines[#lines + 1] = "  " .. pad(say("map_words"), width) .. " " .. table.concat(counts, " ", first, first + per_row - 1)
  end
  return table.concat(lines, "\n"), 0, 0
end

-- A constant-memory load: one pass per distinct address.
local function draw_constant(access)
  local seen, passes, lanes = {}, 0, 0
  for lane = 0, 31 do
    local offset = access.lanes[lane + 1]
    if offset then
      lanes = lanes + 1
      if not seen[offset] then seen[offset] = true; passes = passes + 1 end
    end
  end
  return say("map_constant", access.bytes, lanes, passes, plural(passes, "es"), passes, plural(passes, "es")), 0, 0
end

-- The map of one warp of a launch: every memory instruction, then the totals.
local function warp_map(kernel, params, warp)
  warp = warp or 0
  local marks = core.fancy() and { used = "█", unused = "░", none = "·" } or { used = "#", unused = ".", none = "-" }
  local accesses = core.warp(kernel, params, warp)
  local parts = { say("map_header", warp, kernel, params_text(kernel, params), warp * 32, warp * 32 + 31, marks.used,
                      marks.unused, marks.none) }
  local requests, sectors, used = 0, 0, 0
  for _, access in ipairs(accesses) do
    if next(access.lanes) then
      local text, s, u
      local global = access.kind == "load" or access.kind == "store" or access.kind == "atomic"
                     or access.kind == "reduction" or access.kind == "ldgsts"
      if access.kind == "constant load" then text, s, u = draw_constant(access)
      elseif not global then text, s, u = draw_shared(access)
      else text, s, u = draw_access(access, marks) end
      parts[#parts + 1] = text
      if global then requests = requests + 1 end
      sectors, used = sectors + s, used + u
    end
  end
  parts[#parts + 1] = say("map_total", warp, requests, sectors, used, 32 * sectors,
                          percent(sectors > 0 and used / (32 * sectors) or 1))
  return table.concat(parts, "\n")
end

-- result.map: the warp map of warp 0, drawn when it is first read.
function Result.__index(r, key)
  if key == "map" then
    local map = warp_map(rawget(r, "kernel"), rawget(r, "params"), 0)
    rawset(r, "map", map)
    return map
  end
end

-- show(result [, warp]): draws the warp map of one warp of a launch (warp 0 by default).
local function show(result, warp)
  check_result(result, 1, "show")
  if warp ~= nil and math.type(warp) ~= "integer" then
    error(say("warp_expected", quote(warp, '"')), 2)
  end
  local ok, map = pcall(warp_map, rawget(result, "kernel"), rawget(result, "params"), warp)
  if not ok then   -- core.warp's argument #3 is show's #2, the rest come from the result (#1)
    local arg, problem = tostring(map):match("bad argument #(%d) to '[^']*' %((.*)%)$")
    if not arg then error(map, 0) end
    error(fmt("bad argument #%d to 'show' (%s)", arg == "3" and 2 or 1, problem), 2)
  end
  print(wrap(map))
end

---------------------------------------------------------------------------
-- Device
---------------------------------------------------------------------------

local Device = core.Device
Device.__name = "warplab.device"

local function device_text(d)
  local lines = {
    say("device", device_name(d.name), (d.compute_capability:gsub("%.", "")), d.sm_count, mebibytes(d.l2_bytes),
        bytes(d.memory_bytes)),
    say("device_bus", d.bus_width_bits, d.memory_clock_mhz, d.peak_gbs),
    d.copy_gbs and say("device_copy", d.copy_gbs) or say("device_no_copy"),
    say(d.backend == "sim" and "backend_sim" or "backend_gpu", d.backend),
  }
  if d.notice then lines[#lines + 1] = d.notice end
  return table.concat(lines, "\n")
end
Device.__tostring = guarded(messages.kind_device, function(d) return wrap(device_text(d)) end)

---------------------------------------------------------------------------
-- kernels() and info()
---------------------------------------------------------------------------

local KernelList = { __name = "warplab.kernels" }

KernelList.__tostring = guarded(messages.kind_kernels, function(list)
  local lines = {}
  for _, k in ipairs(list) do lines[#lines + 1] = hanging("  " .. pad(k.name, 13) .. " ", k.summary) end
  return table.concat(lines, "\n")
end)

-- kernels(): the kernel families, each {name=, summary=, teaches=}, in the session's language.
local function kernels()
  local list = {}
  for i, f in ipairs(families) do
    list[i] = { name = f.name, summary = localized(f, "summary"), teaches = localized(f, "teaches") }
  end
  return setmetatable(list, KernelList)
end

local Info = { __name = "warplab.info" }

local function info_text(f)
  local lines = {
    f.name .. " — " .. localized(f, "summary"),
    say("teaches", localized(f, "teaches")),
    say("parameters"),
  }
  for _, p in ipairs(f.params) do
    local default = type(p.default) == "table" and value_text(p.default) or tostring(p.default)
    local kind = messages["type_" .. p.type] and say("type_" .. p.type) or p.type
    lines[#lines + 1] = table.concat({ "  " .. pad(p.name, 8), pad(kind, 8), say("default"), pad(default, 12),
                                       p.allowed }, " ")
    lines[#lines + 1] = "  " .. pad("", 8) .. " " .. localized(p, "doc")
  end
  return table.concat(lines, "\n"), say("source") .. "\n" .. f.source
end
-- The declaration wrapped to the terminal; the source as it is written: code is never reflowed.
Info.__tostring = guarded(messages.kind_info, function(f)
  local declaration, source = info_text(f)
  return wrap(declaration) .. "\n" .. source
end)
-- info(name): a family's declaration: summary, parameters, what it teaches, source.
local function info(name)
  local problem = type(name) ~= "string" and say("kernel_expected", quote(name)) or core.kernel_problem(name)
  if problem then error(say("bad_info", problem), 2) end
  return setmetatable(copy_table(family_by_name[name]), Info)
end

---------------------------------------------------------------------------
-- alloc_alignment(): addresses and the power of two each is aligned to
---------------------------------------------------------------------------

local Allocations = core.Allocations

Allocations.__tostring = guarded(messages.kind_allocations, function(list)
  local lines = {}
  for i, a in ipairs(list) do
    local power = math.floor(math.log(a.alignment, 2) + 0.5)
    lines[i] = say("aligned", i, a.address, power, commas(a.alignment), a.alignment >= 256 and "" or say("under_256"))
  end
  lines[#lines + 1] = say(list.modelled and "alignment_modelled" or "alignment_measured")
  return table.concat(lines, "\n")
end)

---------------------------------------------------------------------------
-- help()
---------------------------------------------------------------------------

-- Each topic of help(topic), and the overview of help(), in both languages.
-- The declaration help("kernel") shows, the same in both languages (it runs as written).
local KERNEL_EXAMPLE = [[
  kernel { name = "mycopy",
           source = [==[
           __global__ void mycopy(const float *in, float *out, int n)
           { int i = blockIdx.x * blockDim.x + threadIdx.x;
             if (i < n) out[i] = in[i]; }]==],
           params = { n = 1 << 20 },
           buffers = { ["in"] = { type = "float", count = "n" },
                       out = { type = "float", count = "n", output = true } },
           args = { "in", "out", "n" },
           grid = function(p) return (p.n + 255) // 256 end, block = 256 }
  launch("mycopy", {n = 4096})
]]

local topics = {
  launch = { en = [[
launch(name, params) runs one kernel and returns a result table.
  launch("offset", {offset=1})       params you leave out take their defaults
  launch("strided", <stride=4>)      the same as {stride=4}
  r = launch("copy"); r.load.sectors_per_request
  launch("offset", {{offset=0}, {offset=1}})   several at once: a list of results
On a GPU it measures time, checks the output against a CPU reference and
reads hardware counters; without one (or with --sim) the access model
gives the traffic. can(name, params) says whether this GPU can run a launch
(and why not: cp_async needs sm_80).]], zh = [[
launch(name, params) 启动一个内核，返回一个结果表。
  launch("offset", {offset=1})       没写的参数取默认值
  launch("strided", <stride=4>)      与 {stride=4} 相同
  r = launch("copy"); r.load.sectors_per_request
  launch("offset", {{offset=0}, {offset=1}})   一次启动多个：得到结果列表
在 GPU 上，它测量时间，把输出与 CPU 参考结果对比，并读取硬件计数器；
没有 GPU（或用了 --sim）时，由访问模型给出访存流量。can(name, params)
说明这块 GPU 能否运行某次启动（不能时说明原因：cp_async 需要 sm_80）。]] },
  result = { en = [[
A result table has: kernel, params, backend ("gpu" or "sim"), useful_bytes,
footprint_bytes, load and store (requests, sectors, lines, bytes,
sectors_per_request, ideal, useful_fraction, source), model (the access
model's load and store), and on a GPU time_ms, time_min_ms, time_max_ms,
time_iqr, samples, bandwidth_gbs, cache, correct (and mismatch when wrong).
A kernel declared with kernel{} and a reference also has correct on the
model, with checked_elements of output_elements (a large launch's: a
sample), or r.unchecked: why not.
docs/results.md describes each field.]], zh = [[
结果表包含：kernel、params、backend（"gpu" 或 "sim"）、useful_bytes、
footprint_bytes、load 和 store（requests、sectors、lines、bytes、
sectors_per_request、ideal、useful_fraction、source）、model（访问模型给出的
load 和 store），在 GPU 上还有 time_ms、time_min_ms、time_max_ms、time_iqr、
samples、bandwidth_gbs、cache、correct（输出错误时还有 mismatch）。
用 kernel{} 声明并带参考函数的内核在模型上也有 correct，以及
checked_elements 和 output_elements（大的启动只检查一个抽样），
或者 r.unchecked：为什么没有检查。
每个字段的说明见 docs/results.md。]] },
  kernels = { en = [[
kernels() lists the kernel families; info(name) shows one: its parameters
with type, default and allowed values, what it teaches, and its CUDA source.]], zh = [[
kernels() 列出所有内核族；info(name) 显示其中一个：参数（类型、默认值和允许的取值）、
教学要点，以及它的 CUDA 源码。]] },
  device = { en = [[
device() describes the GPU (or, in sim mode, the modelled one): name,
compute_capability, sm_count, l2_bytes, memory_bytes, bus_width_bits,
memory_clock_mhz, peak_gbs, sm_clock_mhz, and on a GPU copy_gbs: the
measured copy ceiling (measure_copy() measures it again).]], zh = [[
device() 描述这块 GPU（sim 模式下是模型估算的那块）：name、compute_capability、
sm_count、l2_bytes、memory_bytes、bus_width_bits、memory_clock_mhz、peak_gbs、
sm_clock_mhz，在 GPU 上还有 copy_gbs：实测的复制上限（measure_copy() 重新测量）。]] },
  show = { en = [[
show(r [, warp]) draws one warp of a launch (warp 0 by default): each memory
instruction, each 128-byte line it touches as four 32-byte sectors of eight
4-byte cells, marking the bytes the lanes used, the bytes fetched with them
and the sectors not fetched, with the lanes in each line and the totals.
r.map holds the same drawing of warp 0 as text.]], zh = [[
show(r [, warp]) 画出一次启动中一个 warp 的访问图（默认 warp 0）：每条访存指令
碰到的每个 128 字节缓存行画成 4 个 32 字节扇区，每个扇区 8 格、每格 4 字节；
标出线程用到的字节、随之取回的字节和没有取回的扇区，并列出每个缓存行里的线程和总数。
r.map 以文本形式保存 warp 0 的同一张 warp 访问图。]] },
  lines = { en = [[
lines([r]) shows where a launch's traffic comes from: the launch run again
on the emulator, each source line that touches memory with its requests,
sectors (or shared wavefronts) per request against the ideal and its share,
the worst lines marked, and why: lanes a stride apart, a misaligned start,
a gather, bank conflicts, lanes on one atomic address, with the fix.
r: a result (default: the last launch), or lines("name", {params}). :lines
does the same for the last launch.
  r = launch("transpose", {variant = "shared"}); lines(r)]], zh = [[
lines([r]) 显示一次启动的访存流量来自哪里：在模拟器上重新运行这次启动，列出每一
条访问内存的源代码行：请求数、每个请求的扇区数（或共享内存 wavefront 数）与理想
值的对比、所占比例，标出最差的行并说明原因：相邻线程相隔一个步长、起始地址没有
对齐、gather、存储体冲突、多个线程更新同一个原子地址，以及改法。
r：一个结果（默认是最近一次启动），或 lines("名字", {参数})。:lines 对最近一次
启动做同样的事。
  r = launch("transpose", {variant = "shared"}); lines(r)]] },
  sass = { en = [[
sass(kernel [, {arch=, all=}]) shows the machine code (SASS) the GPU runs
for a kernel declared with kernel{} (or the kernel of a result), by source
line: each memory instruction, its space, access and bytes a lane. It
shows what ptxas did to the PTX: loads merged into LDS.128, loops unrolled,
arrays in local memory. arch: "sm_90" (default: this device's); all = true
shows every instruction. Needs NVRTC and NVIDIA's nvdisasm, no GPU.
  sass("my_transpose")   sass(r, {arch = "sm_80"})]], zh = [[
sass(内核 [, {arch=, all=}]) 按源代码行显示 GPU 为一个用 kernel{} 声明的内核
（或某个结果所属的内核）实际运行的机器码（SASS）：每条访存指令、它访问的空间、
访问类型和每个线程的字节数。它能看出 ptxas 对 PTX 做了什么：加载合并成
LDS.128、循环展开、数组放进本地内存。arch：如 "sm_90"（默认是当前设备的）；
all = true 显示全部指令。需要 NVRTC 和 NVIDIA 的 nvdisasm，不需要 GPU。
  sass("my_transpose")   sass(r, {arch = "sm_80"})]] },
  counters = { en = [[
On a GPU each launch also reads hardware counters in one counted run after
the timed samples: result.counters holds each value with its Nsight Compute
metric name, and load/store take their requests and sectors from the
hardware. explain("sectors_per_request") (or any counter's name) says what a
number means. config{counters=false} turns them off.]], zh = [[
在 GPU 上，每次启动在计时样本之后还会做一次带剖析的运行，读取硬件计数器：
result.counters 保存每个值及其 Nsight Compute 指标名，load/store 的请求数和
扇区数取自硬件。explain("sectors_per_request")（或任一计数器的名字）说明一个
数字的含义。config{counters=false} 关闭计数器。]] },
  config = { en = [[
config{cache="warm"|"cold", min_samples=10, budget_ms=500, check=true, counters=true,
       model="formula"|"emulator"}
changes how launches measure for the rest of the session and returns the
options; the same keys in one launch's params change that launch only:
  launch("copy", {n=2^16, cache="warm"})]], zh = [[
config{cache="warm"|"cold", min_samples=10, budget_ms=500, check=true, counters=true,
       model="formula"|"emulator"}
改变本次会话之后所有启动的测量方式，并返回当前选项；同样的键写在某次启动的
参数里，则只改变那一次启动：
  launch("copy", {n=2^16, cache="warm"})]] },
  kernel = { en = [[
kernel{...} declares a kernel of your own, written in CUDA C, and compiles it:
]] .. KERNEL_EXAMPLE .. [[Then launch, sweep, compare and info take it like a built-in kernel; the
emulator runs its own compiled code to count its traffic, and on a GPU it
is measured there too, its outputs checked against the emulator's. Counts,
grids and blocks may be numbers, param names or functions of the params;
docs/shell.md has every field. :edit NAME (or edit("NAME")) opens its
source in $VISUAL or $EDITOR and compiles it again when you quit;
edit("NAME", "file.cu") takes the source from a file instead.]], zh = [[
kernel{...} 声明一个你自己用 CUDA C 写的内核，并编译它：
]] .. KERNEL_EXAMPLE .. [[之后 launch、sweep、compare 和 info 都像对待内置内核一样对待它；模拟器运行它自己
编译出的代码来统计访存流量；有 GPU 时它也在 GPU 上测量，输出与模拟器的输出比对。
元素个数、网格和线程块可以是数字、参数名，或参数的函数。每个字段的说明见 docs/shell.md。
:edit 名字（或 edit("名字")）在 $VISUAL 或 $EDITOR 中打开它的源代码，退出编辑器后重新编译；
edit("名字", "file.cu") 则从文件读取源代码。]] },
  can = { en = [[
can(name, params) is true when the device (or the profile the model
describes) can run the launch; else false and why in one line:
  can("prefetch", {variant = "cp_async"})   on a T4: cp.async needs sm_80
Bad parameters are errors, as in launch.]], zh = [[
can(名字, 参数) 在设备（或模型所描述的设备配置）能运行这次启动时返回 `true`；
否则返回 `false` 和一行原因：
  can("prefetch", {variant = "cp_async"})   在 T4 上：cp.async 需要 sm_80
参数有误时会报错，与 launch 一样。]] },
  sweep = { en = [[
sweep(name, params) launches every value of one or two list-valued params
and prints a table and a chart; it returns the results list.
  sweep("offset", {offset = range(0, 32)})
  sweep("strided", {stride = pow2(0, 5), n = 1 << 20, y = "bandwidth"})
x= and y= pick the axes; rs:column("load.sectors") gives one column.
Ctrl-C stops after the current launch and keeps what was measured.]], zh = [[
sweep(名字, 参数) 对一到两个取列表值的参数的每个值各启动一次，打印表格和图表，
并返回结果列表。
  sweep("offset", {offset = range(0, 32)})
  sweep("strided", {stride = pow2(0, 5), n = 1 << 20, y = "bandwidth"})
x= 和 y= 选择坐标轴；rs:column("load.sectors") 取出一列。
Ctrl-C 在当前这次启动结束后停止，并保留已测得的结果。]] },
  range = { en = [[
range(a, b [, step]) is the list a, a + step, ..., up to b (step 1 by
default): the values of a swept parameter.
  sweep("offset", {offset = range(0, 32, 4)})]], zh = [[
range(a, b [, 步长]) 是列表 a, a + 步长, ……，直到 b（步长默认值为 1）：
扫描一个参数时用的取值。
  sweep("offset", {offset = range(0, 32, 4)})]] },
  pow2 = { en = [[
pow2(a, b) is the list 2^a, 2^(a+1), ..., 2^b: sizes and strides that
double.
  sweep("strided", {stride = pow2(0, 5)})   strides 1, 2, 4, ... 32]], zh = [[
pow2(a, b) 是列表 2^a, 2^(a+1), ……，2^b：逐次翻倍的大小和步长。
  sweep("strided", {stride = pow2(0, 5)})   步长 1、2、4……32]] },
  compare = { en = [[
compare(a, b, ...) sets results side by side: each metric, its ratio to
the first, and a verdict (faster, slower, same, more, fewer). On a GPU the
time's verdict comes from the samples' spreads: "same (within noise)" when
they overlap.
  compare(launch("offset", {offset = 0}), launch("offset", {offset = 1}))]], zh = [[
compare(a, b, ...) 把几个结果并排列出：每项指标、它与第一个结果的比值，以及结论
（更快、更慢、相同、更多、更少）。在 GPU 上，时间的结论来自各次采样的分布：
分布重叠时是“相同（在噪声范围内）”。
  compare(launch("offset", {offset = 0}), launch("offset", {offset = 1}))]] },
  plot = { en = [[
plot(results, {file = "out.svg", x =, y =, title =}) writes a chart of a
list of results: a self-contained SVG, or a PNG through gnuplot when it is
installed.
  plot(sweep("offset", {offset = range(0, 32)}), {file = "offset.svg"})]], zh = [[
plot(结果列表, {file = "out.svg", x =, y =, title =}) 把一组结果画成图表：
独立的 SVG 文件，安装了 gnuplot 时也可以是 PNG。
  plot(sweep("offset", {offset = range(0, 32)}), {file = "offset.svg"})]] },
  export = { en = [[
export(results, "file.csv") or export(results, "file.json") writes every
field of a result or a list of results, with the device (JSON: with the
units), for a spreadsheet or a script.
  export(sweep("offset", {offset = range(0, 32)}), "offset.csv")]], zh = [[
export(结果, "file.csv") 或 export(结果, "file.json") 把一个结果或一组结果的
每个字段连同设备信息写入文件（JSON 还带单位），供电子表格或脚本使用。
  export(sweep("offset", {offset = range(0, 32)}), "offset.csv")]] },
  record = { en = [[
record("session.json") keeps every input from then on (code, colon
commands, what they printed and returned, lab answers); record() writes
them and stops: a session to hand in.]], zh = [[
record("session.json") 从此刻起记下每次输入（代码、冒号命令、它们打印和返回的内容、
实验答案）；record() 写入文件并停止记录：一份可以提交的会话记录。]] },
  explain = { en = [[
explain(term) says what a counter or derived number means, in two
sentences, and its Nsight Compute metric; explain() lists the terms.
  explain("sectors_per_request")]], zh = [[
explain(术语) 用两句话说明一个计数器或导出数字的含义，以及对应的 Nsight Compute
指标；explain() 列出所有术语。
  explain("sectors_per_request")]] },
  info = { en = [[
info(name) is a kernel family's declaration: what it teaches, its params
(type, default, what is allowed, the choices) and its CUDA source.
  info("strided").params   info("my_kernel").source]], zh = [[
info(名字) 是一个内核族的声明：它教什么、它的参数（类型、默认值、允许的取值、
可选值）以及 CUDA 源代码。
  info("strided").params   info("my_kernel").source]] },
  edit = { en = [[
edit("name") (or :edit name) opens a kernel you declared with kernel{} in
$VISUAL or $EDITOR, and compiles it again when you quit the editor; in a
lab step with a kernel to write, :edit alone opens that one.
edit("name", "file.cu") takes the source from a file instead.]], zh = [[
edit("名字")（或 :edit 名字）在 $VISUAL 或 $EDITOR 中打开你用 kernel{} 声明的
内核，退出编辑器后重新编译；在有内核要写的实验步骤中，只输入 :edit 就会打开那个内核。
edit("名字", "file.cu") 则从文件读取源代码。]] },
  answer = { en = [[
answer(value) (or :answer value) answers the open lab step's question;
for a goal, answer() checks your last launch against it.]], zh = [[
answer(值)（或 :answer 值）回答当前实验步骤的问题；对于目标，answer() 用你最近
一次启动来检查它。]] },
  alloc_alignment = { en = [[
alloc_alignment(count [, bytes]) makes count device allocations and shows
each one's address and the largest power of two it is aligned to
(cudaMalloc promises 256); modelled without a GPU.]], zh = [[
alloc_alignment(个数 [, 字节数]) 在设备上分配若干块内存，给出每块的地址以及它对齐到的
最大的 2 的幂（`cudaMalloc` 保证 256）；没有 GPU 时由模型给出。]] },
  measure_copy = { en = [[
measure_copy() measures the copy ceiling again on a GPU (a 1 GiB
cudaMemcpy from device to device, bytes read + written) and returns GB/s;
warplab caches it per device and driver.]], zh = [[
measure_copy() 在 GPU 上重新测量复制上限（1 GiB 的设备到设备 `cudaMemcpy`，
读取加写入的字节数），返回 GB/s；warplab 按设备和驱动缓存这个值。]] },
  help = { en = [[
help() is the overview; help("topic") one topic, help(launch) the help of
a function, and any unique prefix of a topic works (help("swe")).
:help :lab (or :help lab) says what a colon command does.]], zh = [[
help() 是概览；help("主题") 显示一个主题，help(launch) 显示一个函数的帮助，
主题名的唯一前缀也可以（help("swe")）。`:help :lab`（或 `:help lab`）说明一个冒号命令。]] },
  commands = { en = [[
Colon commands at the prompt (unique prefixes work, so :q quits). Ctrl-C
stops what is running; Ctrl-D leaves.
%s]], zh = [[
提示符下的冒号命令（唯一的前缀也行，所以 :q 就能退出）。Ctrl-C 停止正在运行的
内容；Ctrl-D 离开。
%s]] },
}
messages_of("help", topics)

local overview = { en = [[
warplab shows how GPU memory access patterns become memory traffic.
  launch("offset", {offset=1})   run a kernel; the result prints itself
  kernels()                      the kernel families; info("strided") for one
  kernel{...}                    a kernel of your own, in CUDA C: help("kernel")
  device()                       the GPU, or the modelled one
  explain("sectors_per_request") what a number means, and its Nsight Compute metric
  show(r)                        the warp map of warp 0 of a result r (show(r, 5) for warp 5)
  sweep("offset", {offset = range(0, 32)})   a table and a chart over a parameter
  compare(a, b), plot(rs, {file="out.svg"}), export(rs, "out.csv"), record("session.json")
  :labs, :lab tour               the labs: lessons whose questions are checked against your runs
  help("launch")                 more on a topic: %s
Tab completes names, including kernel names inside launch(".]], zh = [[
warplab 展示 GPU 的内存访问模式如何变成内存流量。
  launch("offset", {offset=1})   启动一个内核；结果会自己打印出来
  kernels()                      所有内核族；info("strided") 查看其中一个
  kernel{...}                    你自己用 CUDA C 写的内核：help("kernel")
  device()                       这块 GPU，或模型估算的那块
  explain("sectors_per_request") 一个数字的含义，以及对应的 Nsight Compute 指标
  show(r)                        结果 r 中 warp 0 的 warp 访问图（show(r, 5) 看 warp 5）
  sweep("offset", {offset = range(0, 32)})   对一个参数扫描，给出表格和图表
  compare(a, b)、plot(rs, {file="out.svg"})、export(rs, "out.csv")、record("session.json")
  :labs、:lab tour               实验：其中的问题用你自己的运行结果来检查
  help("launch")                 某个主题的更多内容，主题有 %s
Tab 键补全名字，包括 launch() 引号里的内核名。]] }
messages_of("help()", { overview = overview })

-- help_topics(): the topics' names, sorted (for completion).
local function help_topics()
  local names = {}
  for name in pairs(topics) do names[#names + 1] = name end
  table.sort(names)
  return names
end

-- The topics' names, in order, as a message lists them: the topics table is the one list.
local function topic_names()
  local names = {}
  for name in pairs(topics) do names[#names + 1] = name end
  table.sort(names)
  for i, name in ipairs(names) do names[i] = say("topic_name", name) end
  return table.concat(names, say("list_separator"))
end

-- help([topic]): an overview, or one topic. The commands topic lists them
-- from the shell's table of colon commands, as :help does.
-- A colon command's line of the commands table (":lab" or "lab", or a unique prefix of one), or nil.
local function command_line(name)
  local wanted, found, count = name:gsub("^:?", ":"), nil, 0
  for line in core.commands_text():gmatch("[^\n]+") do
    local command = line:match("^%s*(:%S+)")
    if command == wanted then return line end
    if command and command:sub(1, #wanted) == wanted then found, count = line, count + 1 end
  end
  return count == 1 and found or nil
end

-- The topic a name is, or a unique prefix of (help("swe") is sweep), or
-- nil and the topics it is a prefix of when there are several.
local function topic_of(name)
  if topics[name] then return name end
  local found = {}
  for topic in pairs(topics) do
    if topic:sub(1, #name) == name then found[#found + 1] = topic end
  end
  table.sort(found)
  if #found == 1 then return found[1] end
  return nil, #found > 1 and found or nil
end

-- help([topic]): an overview, or one topic: by name or a unique prefix of
-- one, a global function itself (help(launch)), or a colon command
-- (help(":lab"), :help lab). The commands topic lists them from the
-- shell's table of colon commands, as :help does.
local function help(topic)
  if topic == nil then return print(wrap(fmt(text_in(overview), topic_names()))) end
  if type(topic) == "function" then
    for name, value in next, _G do if value == topic and topics[name] then topic = name end end
  end
  if type(topic) ~= "string" then error(say("topic_expected", quote(topic)), 2) end
  local name, several
  if not topic:find("^:") then name, several = topic_of(topic) end
  if several then error(say("ambiguous_topic", quote(topic), table.concat(several, say("list_separator"))), 2) end
  local command = not name and command_line(topic)
  if command then return print((command:gsub("^%s+", ""))) end
  if not name then error(say("unknown_topic", quote(topic), topic_names()), 2) end
  local text = topics[name]
  print(wrap(name == "commands" and fmt(text_in(text), (core.commands_text():gsub("\n$", ""))) or text_in(text)))
end

---------------------------------------------------------------------------
-- What the REPL prints for values
---------------------------------------------------------------------------

-- A plain table on one line when short, nested one level.
local function table_line(t, depth)
  if depth > 2 then return "{...}" end
  local parts, count = {}, 0
  for k, v in pairs(t) do
    count = count + 1
    if count > 12 then parts[#parts + 1] = "..."; break end
    local value = type(v) == "table" and not getmetatable(v) and table_line(v, depth + 1)
                  or type(v) == "string" and fmt("%q", v) or tostring(v)
    if math.type(k) == "integer" and k == count then
      parts[#parts + 1] = value
    else
      parts[#parts + 1] = tostring(k) .. " = " .. value
    end
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end

-- Whether v is a plain list of launch results ({launch(...), launch(...)},
-- launch with a list of params): each then prints as its card.
local function is_result_list(v)
  if type(v) ~= "table" or getmetatable(v) or #v == 0 then return false end
  for k, item in pairs(v) do
    if math.type(k) ~= "integer" or result_problem(item) then return false end
  end
  return true
end

local function value_line(v)
  local meta = getmetatable(v)
  if is_result_list(v) then
    local cards = {}
    for i, r in ipairs(v) do cards[i] = say("list_item", i, #v) .. "\n" .. tostring(r) end
    return table.concat(cards, "\n\n")
  end
  if type(v) == "table" and not (meta and meta.__tostring) then return table_line(v, 1) end
  if type(v) == "string" then return fmt("%q", v) end
  return tostring(v)
end

-- print_values(...): prints the values an expression typed at the prompt
-- produced: on one line, tab-separated, as lua.c prints them, unless one of
-- them takes lines of its own (a result card), which then each start a line.
local function print_values(...)
  local lines, several_lines = {}, false
  for i = 1, select("#", ...) do
    lines[i] = value_line((select(i, ...)))
    several_lines = several_lines or lines[i]:find("\n") ~= nil
  end
  if #lines > 0 then print(table.concat(lines, several_lines and "\n" or "\t")) end
end

-- banner(): the first line of an interactive session.
local function banner()
  local d = core.globals.device()
  local where = say("banner_where", device_name(d.name), (d.compute_capability:gsub("%.", "")), d.sm_count,
                    mebibytes(d.l2_bytes), d.peak_gbs / 1000)
  if d.copy_gbs then where = where .. say("banner_copy", d.copy_gbs / 1000) end
  return wrap(say("banner", core.version, where))
end

-- A mark (a device's peak) sets a chart's scale only when the data comes
-- within this factor of it; above that it is named beside the chart, not
-- drawn, so that small values are not flattened against the axis.
local MARK_REACH = 3

-- The marks that lie on a chart whose data reaches top, and those above it.
local function marks_on_scale(marks, top)
  local on, above = {}, {}
  for _, m in ipairs(marks or {}) do
    if m.at <= MARK_REACH * top then on[#on + 1] = m else above[#above + 1] = m end
  end
  return on, above
end

-- What the other modules share with this one.
return {
  message_tables = message_tables, families_changed = families_changed, help_topics = help_topics,
  print_values = print_values, banner = banner, show = show, kernels = kernels, info = info, help = help,
  write_or_raise = write_or_raise, make_folder_or_raise = make_folder_or_raise,
  fmt = fmt, commas = commas, bytes = bytes, percent = percent, bar = bar,
  value_text = value_text, params_text = params_text, families = families, family_by_name = family_by_name,
  localized = localized, value_line = value_line, utc_now = utc_now,
  marks_on_scale = marks_on_scale,
  quote = quote, result_problem = result_problem, check_result = check_result, guarded = guarded,
  copy_table = copy_table, message = message, messages = messages_of, text_in = text_in, say = say,
  wide = wide, display_width = display_width, pad = pad, align_right = align_right, source_lines = source_lines, fit = fit, paint = paint, wrap = wrap, text_lines = text_lines, plural = plural, limit_text = limit_text, device_name = device_name,
}
