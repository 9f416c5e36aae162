-- card.lua (warplab.card): a result as it prints, the result card: a
-- header (the kernel, its parameters, the backend), then a row a concern
-- (time, bandwidth, loads, stores, atomics, shared memory, constant loads,
-- DRAM and caches, footprint, the output check, a declared kernel's source,
-- the code the emulator ran, notes), each labelled in the session's
-- language and wrapped to the terminal. It sets the results' __tostring,
-- which export.lua wraps for --format csv and json.
local core = require "warplab.core"
local text = require "warplab.text"
local registry = require "warplab.registry"
local result = require "warplab.result"
local device = require "warplab.device"
local kernel = require "warplab.kernel"

local fmt, hanging, pad, display_width, wrap, paint = text.fmt, text.hanging, text.pad, text.display_width, text.wrap, text.paint
local commas, bytes, percent, bar, limit_text = text.commas, text.bytes, text.percent, text.bar, text.limit_text
local params_text = registry.params_text
local result_problem, guarded = result.result_problem, result.guarded
local device_name = device.device_name

local Result = core.Result

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
  -- what a result whose fields were changed is called
  kind_result = { en = "a result", zh = "结果" },
}
local say = text.messages("card", messages)

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
  local version, compiled = kernel.version_ran(r)
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

return { result_text = result_text }
